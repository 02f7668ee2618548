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
 * @typedef {{sort: string, predicate: string|null, collection: string|null}} FetchSpec
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
   * Applies live change details (PHFetchResultChangeDetails order): removals (before-state
   * indexes), insertions (after-state, ascending), moves in order, then in-place changes.
   * @param {{count: number, removed?: number[], inserted?: {index: number, asset: object}[],
   *   changed?: {index: number, asset: object}[], moves?: [number, number][]}} message
   */
  applyChanges(message) {
    if (!this.spec) return;
    const removed = [...(message.removed || [])].sort((a, b) => a - b);
    const inserted = [...(message.inserted || [])].sort((a, b) => a.index - b.index);
    const moves = message.moves || [];
    const changed = message.changed || [];
    const mapIndex = indexMapper(removed, inserted, moves);
    if (!this.known) {
      // The first page is still loading and may predate this change: load it again.
      this.setFetch(this.spec);
      return;
    }
    let items = removeIndexes(this.items, removed);
    items = insertAt(items, inserted);
    for (const [from, to] of moves) {
      if (from < items.length && to < items.length) {
        const [item] = items.splice(from, 1);
        items.splice(to, 0, item);
      }
    }
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
    if (items.length !== message.count) {
      console.warn(`live changes gave ${items.length} items, expected ${message.count}: resetting`);
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
 * Returns a copy without the given (sorted, before-state) indexes.
 * @param {(object|null)[]} items
 * @param {number[]} removed
 */
function removeIndexes(items, removed) {
  if (!removed.length) return items;
  const set = new Set(removed);
  return items.filter((_, i) => !set.has(i));
}

/**
 * Returns a copy with assets inserted at (ascending, after-state) indexes.
 * @param {(object|null)[]} items
 * @param {{index: number, asset: object}[]} inserted
 */
function insertAt(items, inserted) {
  if (!inserted.length) return items;
  const total = items.length + inserted.length;
  const out = new Array(total);
  let source = 0;
  let next = 0;
  for (let target = 0; target < total; target += 1) {
    if (next < inserted.length && inserted[next].index === target) {
      out[target] = inserted[next].asset;
      next += 1;
    } else {
      out[target] = source < items.length ? items[source++] : null;
    }
  }
  return out;
}

/**
 * Builds the function mapping a before-state index to its after-state index (-1 if removed).
 * @param {number[]} removed sorted ascending
 * @param {{index: number}[]} inserted sorted ascending
 * @param {[number, number][]} moves
 * @returns {(index: number) => number}
 */
function indexMapper(removed, inserted, moves) {
  const removedSet = new Set(removed);
  return (before) => {
    if (before < 0 || removedSet.has(before)) return -1;
    let index = before;
    for (const r of removed) {
      if (r < before) index -= 1;
      else break;
    }
    for (const { index: at } of inserted) if (at <= index) index += 1;
    for (const [from, to] of moves) {
      if (index === from) {
        index = to;
      } else {
        if (from < index) index -= 1;
        if (to <= index) index += 1;
      }
    }
    return index;
  };
}
