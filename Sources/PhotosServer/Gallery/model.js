// The grid's fetch result on the client: a dense array with one slot per index of
// the server's fetch (an Asset once its page is loaded, null before), pages of 200
// loaded on demand, and live change details applied in PHFetchResultChangeDetails order.

import { fetchAssets } from "./api.js";

/** Assets per page request (GET /api/assets limit). */
export const PAGE_SIZE = 200;
const RETRY_AFTER_FAILURE_MS = 3000;
const RETRY_AFTER_MISMATCH_MS = 400;
const MAX_MISMATCHES = 3;

/**
 * @typedef {{sort: string|null, predicate: string|null, collection: string|null, partner?: string|null, search?: string|null}} FetchSpec
 *   `sort: null` keeps a collection's own order (an album's is its user's), or a search's
 *   (best match first).
 * @typedef {{kind: "reset"|"page"|"changes"|"patch", mapIndex?: (i: number) => number, changed?: Set<number>}} UpdateDetail
 */

/**
 * The fetch the grid shows. Dispatches "update" events (detail: UpdateDetail) and "error" events.
 */
export class FetchModel extends EventTarget {
  constructor() {
    super();
    /** @type {FetchSpec|null} */
    this.spec = null;
    /** @type {(object|null)[]} */
    this.items = [];
    /** Items of the state before a reset, shown (never used for actions) until refetched. */
    this.previous = null;
    this.count = 0;
    this.known = false;
    this.epoch = 0;
    /** Whether the live socket is subscribed to this fetch (then count mismatches wait for it). */
    this.live = false;
    /** @type {Map<number, {controller: AbortController, epoch: number}>} page index → request */
    this.inflight = new Map();
    /** @type {Map<number, number>} page index → time of its last failure */
    this.failures = new Map();
    this.mismatches = 0;
    this.wanted = { start: 0, end: 0 };
    this.retryTimer = 0;
  }

  /**
   * Switches to another fetch: drops everything and loads the first page.
   * @param {FetchSpec} spec
   */
  setFetch(spec) {
    this.spec = { ...spec };
    this.abortAll();
    this.epoch += 1;
    this.items = [];
    this.previous = null;
    this.count = 0;
    this.known = false;
    this.mismatches = 0;
    this.failures.clear();
    this.wanted = { start: 0, end: 0 }; // the grid renders the new fetch from its top
    this.emit({ kind: "reset" });
    this.loadPage(0);
  }

  /**
   * Non-incremental change: keeps showing the old items while the visible pages are refetched.
   * @param {number} count The new number of assets.
   */
  reset(count) {
    if (!this.spec) return;
    this.resetState(count);
    this.emit({ kind: "reset" });
    this.ensure(this.wanted.start, this.wanted.end);
  }

  /**
   * Drops the loaded items (kept as `previous` for display) and requests in flight.
   * @param {number} count
   */
  resetState(count) {
    this.abortAll();
    this.epoch += 1;
    const shown = this.items.map((item, i) => item ?? (this.previous ? this.previous[i] ?? null : null));
    this.previous = shown.length ? shown : null;
    this.items = new Array(count).fill(null);
    this.count = count;
    this.known = true;
    this.failures.clear();
  }

  /**
   * The loaded asset at an index, or null.
   * @param {number} index
   */
  get(index) {
    return this.items[index] ?? null;
  }

  /**
   * What to show at an index: the loaded asset, else the one before the last reset.
   * @param {number} index
   */
  display(index) {
    return this.items[index] ?? (this.previous ? this.previous[index] ?? null : null);
  }

  /**
   * Index of an asset by id, trying a hint first.
   * @param {string} id
   * @param {number} [hint]
   * @returns {number} -1 when not loaded.
   */
  indexOfId(id, hint = -1) {
    const atHint = this.items[hint];
    if (atHint && atHint.id === id) return hint;
    return this.items.findIndex((item) => item !== null && item.id === id);
  }

  /**
   * Loads the pages of [start, end) that are not loaded yet; aborts requests far from it.
   * @param {number} start
   * @param {number} end
   */
  ensure(start, end) {
    this.wanted = { start, end };
    if (!this.spec) return;
    if (!this.known) {
      if (!this.inflight.has(0) && !this.recentlyFailed(0)) this.loadPage(0);
      return;
    }
    const last = Math.min(end, this.count);
    if (last <= start) return;
    const firstPage = Math.floor(start / PAGE_SIZE);
    const lastPage = Math.floor((last - 1) / PAGE_SIZE);
    for (const [page, entry] of this.inflight) {
      if (page < firstPage - 1 || page > lastPage + 1) {
        entry.controller.abort();
        this.inflight.delete(page);
      }
    }
    for (let page = firstPage; page <= lastPage; page += 1) {
      if (!this.inflight.has(page) && this.pageIncomplete(page) && !this.recentlyFailed(page)) this.loadPage(page);
    }
  }

  /**
   * Resolves with the asset at an index once its page is loaded (null if out of range or too slow).
   * The page must be in a range passed to ensure (the grid scrolls to it).
   * @param {number} index
   * @param {number} [timeout]
   * @returns {Promise<object|null>}
   */
  whenLoaded(index, timeout = 10000) {
    return new Promise((resolve) => {
      const check = () => {
        if (this.known && index >= this.count) return finish(null);
        const item = this.get(index);
        if (item) finish(item);
      };
      const finish = (value) => {
        clearTimeout(timer);
        this.removeEventListener("update", check);
        resolve(value);
      };
      const timer = setTimeout(() => finish(null), timeout);
      this.addEventListener("update", check);
      check();
    });
  }

  /**
   * Applies live change details in PhotoKit's order: removals, insertions and moves in one
   * batch (``applyBatch``), then in-place changes.
   * @param {{count: number, removed?: number[], inserted?: {index: number, asset: object}[],
   *   changed?: {index: number, asset: object}[], moves?: [number, number][]}} message
   */
  applyChanges(message) {
    if (!this.spec) return;
    if (!this.known) {
      // The first page is still loading and may predate this change: load it again.
      this.setFetch(this.spec);
      return;
    }
    const batch = applyBatch(this.items, message.removed || [], message.inserted || [], message.moves || [], message.count);
    const items = batch.items;
    const mapIndex = (before) => (before >= 0 && before < batch.oldToNew.length ? batch.oldToNew[before] : -1);
    const changed = message.changed || [];
    const changedSet = new Set();
    for (const { index, asset } of changed) {
      if (index < items.length) {
        items[index] = asset;
        changedSet.add(index);
      }
    }
    this.epoch += 1; // page requests in flight were made against the old indexes
    this.abortAll();
    this.previous = null;
    if (!batch.consistent) {
      console.warn(`live changes don't fit the ${this.items.length} items held (now ${message.count}): resetting`);
      this.items = items;
      this.reset(message.count);
      return;
    }
    this.items = items;
    this.count = message.count;
    this.emit({ kind: "changes", mapIndex, changed: changedSet });
    this.ensure(this.wanted.start, this.wanted.end);
  }

  /**
   * Replaces fields of a loaded asset (optimistic updates).
   * @param {string} id
   * @param {object} patch
   * @param {number} [hint] Likely index.
   */
  patch(id, patch, hint) {
    const index = this.indexOfId(id, hint);
    if (index < 0) return;
    this.items[index] = { ...this.items[index], ...patch };
    this.emit({ kind: "patch", changed: new Set([index]) });
  }

  /** Aborts every page request. */
  abortAll() {
    for (const entry of this.inflight.values()) entry.controller.abort();
    this.inflight.clear();
    clearTimeout(this.retryTimer);
  }

  /** @param {UpdateDetail} detail */
  emit(detail) {
    this.dispatchEvent(new CustomEvent("update", { detail }));
  }

  /** @param {number} page */
  pageIncomplete(page) {
    const end = Math.min(this.count, (page + 1) * PAGE_SIZE);
    for (let i = page * PAGE_SIZE; i < end; i += 1) if (this.items[i] === null) return true;
    return false;
  }

  /** @param {number} page */
  recentlyFailed(page) {
    const at = this.failures.get(page);
    return at !== undefined && performance.now() - at < RETRY_AFTER_FAILURE_MS;
  }

  /** @param {number} page */
  loadPage(page) {
    const controller = new AbortController();
    const entry = { controller, epoch: this.epoch };
    this.inflight.set(page, entry);
    fetchAssets(this.spec, page * PAGE_SIZE, PAGE_SIZE, controller.signal).then(
      (result) => {
        if (this.inflight.get(page) === entry) this.inflight.delete(page);
        if (entry.epoch !== this.epoch || controller.signal.aborted) return;
        this.receive(page, result);
      },
      (error) => {
        if (this.inflight.get(page) === entry) this.inflight.delete(page);
        if (error && error.name === "AbortError") return;
        this.failures.set(page, performance.now());
        this.dispatchEvent(new CustomEvent("error", { detail: error }));
        this.scheduleRetry(RETRY_AFTER_FAILURE_MS + 50);
      },
    );
  }

  /**
   * Stores a page answered for the current epoch, after checking it matches the local count.
   * @param {number} page
   * @param {{count: number, offset: number, assets: object[]}} result
   */
  receive(page, result) {
    const offset = page * PAGE_SIZE;
    let kind = "page";
    if (!this.known) {
      this.count = result.count;
      this.items = new Array(result.count).fill(null);
      this.known = true;
    } else if (result.count !== this.count || !pageComplete(result, offset)) {
      // The server is ahead of (or behind) the live updates we applied.
      this.mismatches += 1;
      if (this.live && this.mismatches < MAX_MISMATCHES) {
        this.scheduleRetry(RETRY_AFTER_MISMATCH_MS);
        return;
      }
      this.resetState(result.count); // the answered page is the server's current state
      kind = "reset";
    }
    this.mismatches = 0;
    if (pageComplete(result, offset)) this.failures.delete(page);
    else this.failures.set(page, performance.now()); // a short page: do not ask again at once
    const assets = result.assets || [];
    for (let k = 0; k < assets.length && offset + k < this.count; k += 1) this.items[offset + k] = assets[k];
    this.emit({ kind });
  }

  /** @param {number} delay */
  scheduleRetry(delay) {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.ensure(this.wanted.start, this.wanted.end), delay);
  }
}

/**
 * Whether an answered page holds every asset its count promises.
 * @param {{count: number, assets: object[]}} result
 * @param {number} offset
 */
function pageComplete(result, offset) {
  const expected = Math.max(0, Math.min(PAGE_SIZE, result.count - offset));
  return (result.assets || []).length === expected;
}

/**
 * Applies change details as a collection view applies a batch update (PhotoKit's order): the
 * objects at `removed` (before-state indexes) go; inserted objects and moved ones (`[from, to]`,
 * before-state to after-state index) take their after-state places; the objects left keep
 * their relative order and fill the other places. Changed objects are replaced afterwards, by
 * the caller.
 * @param {(object|null)[]} items the before state (null: not loaded yet)
 * @param {number[]} removed
 * @param {{index: number, asset: object}[]} inserted
 * @param {[number, number][]} moves
 * @param {number} count the after-state count
 * @returns {{items: (object|null)[], oldToNew: Int32Array, consistent: boolean}} `oldToNew`
 *   maps a before-state index to its after-state index (-1 when removed); `consistent` is
 *   false when the details don't fit `items` (the caller then reloads).
 */
export function applyBatch(items, removed, inserted, moves, count) {
  const before = items.length;
  const out = new Array(Math.max(0, count)).fill(null);
  const taken = new Uint8Array(out.length);
  const leaves = new Uint8Array(before);
  const oldToNew = new Int32Array(before).fill(-1);
  let consistent = count >= 0;
  const place = (index, value) => {
    if (index < 0 || index >= out.length || taken[index]) consistent = false;
    else {
      out[index] = value;
      taken[index] = 1;
    }
  };
  for (const index of removed) {
    if (index < 0 || index >= before || leaves[index]) consistent = false;
    else leaves[index] = 1;
  }
  for (const { index, asset } of inserted) place(index, asset);
  for (const [from, to] of moves) {
    if (from < 0 || from >= before || leaves[from]) {
      consistent = false;
      continue;
    }
    leaves[from] = 1;
    place(to, items[from]);
    oldToNew[from] = to;
  }
  let slot = 0;
  for (let index = 0; index < before; index += 1) {
    if (leaves[index]) continue;
    while (slot < out.length && taken[slot]) slot += 1;
    if (slot >= out.length) {
      consistent = false;
      break;
    }
    out[slot] = items[index];
    oldToNew[index] = slot;
    slot += 1;
  }
  while (slot < out.length && taken[slot]) slot += 1;
  if (slot < out.length) consistent = false; // places nobody fills
  return { items: out, oldToNew, consistent };
}
