// The virtualized grid: a spacer as tall as all rows, and a small pool of absolutely
// positioned cells recycled for the visible rows (plus overscan). Cells bind to the
// FetchModel's items; only cells whose asset changed are touched on updates.

import { imageURL, isLivePhoto, roundUp32 } from "./api.js";

const TARGET_CELL = 180; // CSS px
const GAP = 2; // CSS px, also in style.css
// Rows laid out beyond the visible ones: more ahead in the scroll direction, so a cell asks for
// its thumbnail (at least the degraded one, in milliseconds) ~0.2 s before it shows at 3,600 px/s.
const OVERSCAN_AHEAD = 4;
const OVERSCAN_BEHIND = 1;
// The library keeps a 256 × 256 grid thumbnail of each photo and sends it as stored: cells that
// need no more pixels ask for exactly that (the browser scales it down).
const STORED_THUMBNAIL = 256;
const LABEL_HIDE_MS = 1200;
const SETTLE_MS = 120; // after a fast scroll, wait this long before asking for pages and images
const FAST_SCREENS = 2; // a frame that scrolls more than this many screens is a fast scroll
// Cells showing a degraded image ask for their real thumbnail at most this many at a time, so
// the renders they wait for never hold all of the browser's six connections to the server
// (the next cells' quick requests go on meanwhile).
const FINALS_IN_FLIGHT = 2;
const QUICK_FADE_MS = 200; // the degraded image stays under the real one this long after it loads (async decode)
// `?degraded=off` in the page's URL: each cell waits for its real thumbnail, as before issue 19
// (the gallery benchmark's "before" run, in the same build).
const DEGRADED = !/[?&]degraded=off(&|$)/.test(location.search);
// Once this many quick answers in a row were real thumbnails (a warm library, or a region the
// preheat got ahead of), cells load straight into <img>, as before (a second lookup per cell
// costs a warm scroll), and only one cell in PROBE_EVERY asks quickly: a degraded or empty
// answer turns quick loading back on.
const DIRECT_AFTER = 12;
const PROBE_EVERY = 10;
const monthFormat = new Intl.DateTimeFormat(undefined, { month: "long", year: "numeric" });
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/**
 * The grid of the current fetch. Events: "viewport" (detail: {start, end, width, height}, the
 * preheat window and thumbnail pixel size) and "ready" (the first page is on screen).
 */
export class Grid extends EventTarget {
  /**
   * @param {HTMLElement} container The scrolling #grid element.
   * @param {HTMLElement} label The floating month/year label.
   * @param {import("./model.js").FetchModel} model
   * @param {{onOpen: (index: number) => void, onToggleFavorite: (asset: object, index: number) => void}} actions
   */
  constructor(container, label, model, actions) {
    super();
    this.container = container;
    this.label = label;
    this.model = model;
    this.actions = actions;
    this.spacer = document.createElement("div");
    this.spacer.className = "spacer";
    container.append(this.spacer);
    /** @type {Map<number, HTMLElement>} index → cell on screen */
    this.active = new Map();
    /** @type {HTMLElement[]} */
    this.pool = [];
    this.cols = 1;
    this.cellSize = TARGET_CELL;
    this.rowHeight = TARGET_CELL + GAP;
    this.thumbPixels = 256;
    this.lastScrollTop = 0;
    this.direction = 1;
    this.frame = 0;
    this.labelTimer = 0;
    this.settleTimer = 0;
    this.lastFastAt = -Infinity; // when the last move of more than FAST_SCREENS screens was
    this.lastRenderTop = 0;
    this.fast = false;
    this.readyFired = false;
    /** @type {HTMLElement[]} cells waiting to ask for their real thumbnail, latest last */
    this.finalQueue = [];
    this.finalsInFlight = 0;
    this.realStreak = 0;
    this.direct = false;
    this.probe = 0;
    this.layout();
    container.addEventListener("scroll", () => this.onScroll(), { passive: true });
    container.addEventListener("click", (event) => this.onClick(event));
    container.addEventListener("keydown", (event) => this.onKeyDown(event));
    new ResizeObserver(() => this.onResize()).observe(container);
    model.addEventListener("update", () => this.schedule());
  }

  /** Requests a render on the next animation frame (coalesced). */
  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** Scrolls back to the top (a new fetch). */
  scrollToTop() {
    this.container.scrollTop = 0;
    this.lastScrollTop = 0;
    this.schedule();
  }

  /**
   * Scrolls so the row of an index is visible, then renders at once.
   * @param {number} index
   */
  scrollToIndex(index) {
    const top = Math.floor(index / this.cols) * this.rowHeight;
    const view = this.container.clientHeight;
    if (top < this.container.scrollTop || top + this.rowHeight > this.container.scrollTop + view) {
      this.container.scrollTop = Math.max(0, top - (view - this.rowHeight) / 2);
    }
    this.render();
  }

  /**
   * The cell element showing an index, if on screen.
   * @param {number} index
   * @returns {HTMLElement|undefined}
   */
  cellAt(index) {
    return this.active.get(index);
  }

  /** Computes columns, cell and row size from the container width. */
  layout() {
    const width = this.container.clientWidth || TARGET_CELL;
    this.cols = Math.max(1, Math.round((width + GAP) / (TARGET_CELL + GAP)));
    this.cellSize = (width - GAP * (this.cols - 1)) / this.cols;
    this.rowHeight = this.cellSize + GAP;
    const pixels = this.cellSize * (window.devicePixelRatio || 1);
    this.thumbPixels = pixels <= STORED_THUMBNAIL ? STORED_THUMBNAIL : roundUp32(pixels);
  }

  onResize() {
    const anchor = Math.floor(this.container.scrollTop / this.rowHeight) * this.cols;
    const before = [this.cols, this.cellSize];
    this.layout();
    if (before[0] !== this.cols || before[1] !== this.cellSize) {
      this.container.scrollTop = Math.floor(anchor / this.cols) * this.rowHeight;
    }
    this.render();
  }

  onScroll() {
    const top = this.container.scrollTop;
    if (top !== this.lastScrollTop) this.direction = top > this.lastScrollTop ? 1 : -1;
    this.lastScrollTop = top;
    this.showLabel();
    this.schedule();
  }

  /** Lays out the visible cells, binds them to their assets and asks for missing pages. */
  render() {
    const count = this.model.count;
    const rows = Math.ceil(count / this.cols);
    const height = `${Math.max(0, rows * this.rowHeight - GAP)}px`;
    if (this.spacer.style.height !== height) this.spacer.style.height = height;
    const top = this.container.scrollTop;
    const view = this.container.clientHeight;
    // While flinging through thousands of rows (fast moves in a row, a scrollbar dragged), only
    // lay out placeholders and load when it settles; a jump alone (the first fast move after
    // SETTLE_MS without one: a click on the scrollbar, a key, a jump of the benchmark) loads at
    // once, as waiting would only add SETTLE_MS to it.
    const now = performance.now();
    const far = Math.abs(top - this.lastRenderTop) > FAST_SCREENS * view;
    this.fast = far && now - this.lastFastAt < SETTLE_MS;
    if (far) this.lastFastAt = now;
    this.lastRenderTop = top;
    clearTimeout(this.settleTimer);
    if (this.fast) this.settleTimer = setTimeout(() => this.render(), SETTLE_MS);
    const firstRow = Math.floor(top / this.rowHeight);
    const lastRow = Math.ceil((top + view) / this.rowHeight);
    const start = Math.max(0, (firstRow - (this.direction > 0 ? OVERSCAN_BEHIND : OVERSCAN_AHEAD)) * this.cols);
    const end = Math.min(count, (lastRow + (this.direction > 0 ? OVERSCAN_AHEAD : OVERSCAN_BEHIND)) * this.cols);

    for (const [index, cell] of this.active) {
      if (index < start || index >= end) this.release(index, cell);
    }
    for (let index = start; index < end; index += 1) {
      let cell = this.active.get(index);
      if (!cell) {
        cell = this.pool.pop() || this.createCell();
        cell.hidden = false;
        this.active.set(index, cell);
      }
      this.position(cell, index);
      this.bind(cell, index);
    }
    this.container.classList.toggle("empty", this.model.known && count === 0);
    this.updateLabelText(firstRow);
    if (this.fast) return;
    this.model.ensure(start, end);
    this.emitViewport(firstRow, lastRow, count);
    this.checkReady(firstRow * this.cols, count);
  }

  /**
   * Puts a cell back in the pool.
   * @param {number} index
   * @param {HTMLElement} cell
   */
  release(index, cell) {
    this.active.delete(index);
    if (cell.contains(document.activeElement)) this.container.focus({ preventScroll: true });
    cell.hidden = true;
    delete cell.dataset.id; // pooled cells must not match .cell[data-id]
    cell.state.key = "";
    this.stopLoading(cell);
    this.pool.push(cell);
  }

  /** @returns {HTMLElement} A new cell (thumb button with image, duration badge, star). */
  createCell() {
    const cell = document.createElement("div");
    cell.className = "cell placeholder";
    const thumb = document.createElement("button");
    thumb.type = "button";
    thumb.className = "thumb";
    // Under the thumbnail, the degraded image the photo carries (its EXIF or HEIF thumbnail),
    // shown at once while the real thumbnail is made.
    const quick = document.createElement("img");
    quick.className = "quick";
    quick.alt = "";
    quick.decoding = "async";
    quick.draggable = false;
    quick.addEventListener("load", () => {
      quick.classList.add("loaded");
      this.quickEnded(cell, true);
    });
    quick.addEventListener("error", () => this.quickEnded(cell, false));
    const img = document.createElement("img");
    img.alt = "";
    img.decoding = "async";
    img.draggable = false;
    img.addEventListener("load", () => {
      img.classList.add("loaded");
      clearMark(cell);
      this.finalEnded(cell);
      if (quick.getAttribute("src")) setTimeout(() => { if (img.classList.contains("loaded")) clearQuick(cell); }, QUICK_FADE_MS);
    });
    img.addEventListener("error", () => {
      this.finalEnded(cell);
      clearQuick(cell);
      this.onImageError(cell);
    });
    thumb.append(quick, img);
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.hidden = true;
    const star = document.createElement("button");
    star.type = "button";
    star.className = "star";
    star.title = "Favorite";
    star.textContent = "★";
    star.setAttribute("aria-pressed", "false");
    cell.append(thumb, badge, star);
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.hidden = true;
    thumb.append(mark);
    cell.refs = { thumb, img, quick, badge, star, mark };
    cell.state = {
      index: -1, x: -1, y: -1, size: -1, key: "", id: "", url: "", failedURL: "",
      requested: "", quickURL: "", finalURL: "", finalInFlight: false,
    };
    this.spacer.append(cell);
    return cell;
  }

  /**
   * Moves a cell to the slot of an index (only when it changed).
   * @param {HTMLElement} cell
   * @param {number} index
   */
  position(cell, index) {
    const x = (index % this.cols) * (this.cellSize + GAP);
    const y = Math.floor(index / this.cols) * this.rowHeight;
    const state = cell.state;
    state.index = index;
    if (state.x !== x || state.y !== y) {
      cell.style.transform = `translate(${x}px, ${y}px)`;
      state.x = x;
      state.y = y;
    }
    if (state.size !== this.cellSize) {
      cell.style.width = `${this.cellSize}px`;
      cell.style.height = `${this.cellSize}px`;
      state.size = this.cellSize;
    }
  }

  /**
   * Shows the asset of an index in a cell, touching the DOM only for what changed.
   * @param {HTMLElement} cell
   * @param {number} index
   */
  bind(cell, index) {
    const asset = this.model.display(index);
    const { img, thumb, badge, star } = cell.refs;
    const state = cell.state;
    const key = asset ? `${asset.id}|${asset.version}|${this.thumbPixels}` : "";
    cell.classList.toggle("stale", !!asset && this.model.get(index) === null);
    if (state.key !== key) {
      state.key = key;
      this.stopLoading(cell);
      if (!asset) {
        delete cell.dataset.id;
        state.id = "";
        state.url = "";
        img.removeAttribute("src");
        img.classList.remove("loaded");
        cell.classList.add("placeholder");
        thumb.setAttribute("aria-label", "Loading");
        star.hidden = true;
        badge.hidden = true;
        return;
      }
      if (state.id !== asset.id) {
        // Another asset: hide the recycled image (a new version of the same asset keeps the old one until loaded).
        img.classList.remove("loaded");
        img.removeAttribute("src");
        clearQuick(cell);
      }
      clearMark(cell);
      state.id = asset.id;
      cell.dataset.id = asset.id;
      cell.classList.remove("placeholder");
      state.url = imageURL(asset, { w: this.thumbPixels, h: this.thumbPixels, mode: "fill" });
      thumb.setAttribute("aria-label", describe(asset));
      star.hidden = false;
      const video = asset.mediaType === "video";
      const live = isLivePhoto(asset);
      badge.hidden = !video && !live;
      badge.classList.toggle("live", live);
      if (video) badge.textContent = `▶ ${formatDuration(asset.duration)}`;
      else if (live) badge.textContent = "LIVE";
    }
    if (asset) {
      // A thumbnail that failed is not asked for again at each render: its cell shows a mark.
      if (!this.fast && state.requested !== state.url && state.failedURL !== state.url) this.load(cell);
      const pressed = asset.isFavorite ? "true" : "false";
      if (star.getAttribute("aria-pressed") !== pressed) star.setAttribute("aria-pressed", pressed);
    }
  }

  /**
   * Asks for a cell's thumbnail at once (`degraded=1`) in the cell's quick <img>, under its
   * real one: the real thumbnail when the server has it made, else the thumbnail the photo
   * carries, else nothing (204). See quickEnded. While quick answers keep being real ones
   * (DIRECT_AFTER), straight into the cell's <img>, as before issue 19.
   *
   * An <img> rather than fetch(): a fetch, a blob and an object URL per cell took the page's
   * main thread 9.8 s of a 10 s cold scroll (promise jobs, blob reads; Chrome trace, issue 19
   * aim 3) and dropped it to 16-37 frames a second.
   * @param {HTMLElement} cell
   */
  load(cell) {
    const state = cell.state;
    const url = state.url;
    state.requested = url;
    if (!DEGRADED || (this.direct && (this.probe = (this.probe + 1) % PROBE_EVERY) !== 0)) {
      cell.refs.img.src = url;
      return;
    }
    clearQuick(cell);
    state.quickURL = url;
    cell.refs.quick.src = url.replace("/image?", "/image?degraded=1&");
  }

  /**
   * A cell's quick answer loaded (`ok`) or failed (a 204: nothing at hand, or an error). An
   * <img> can't read the answer's X-Photos-Degraded header, so its size tells: the real
   * thumbnail is as large as asked (the browser has it cached under that URL: the cell's <img>
   * takes it from there), a degraded one is smaller (the server never scales an embedded
   * thumbnail up; one as large as asked is as sharp as the real one and taken as it). A
   * smaller or failed answer queues the cell's request for its real thumbnail, whose failure
   * marks the cell as before.
   * @param {HTMLElement} cell
   * @param {boolean} ok
   */
  quickEnded(cell, ok) {
    const state = cell.state;
    const url = state.quickURL;
    if (!url || url !== state.url) return;
    state.quickURL = "";
    const { quick, img } = cell.refs;
    const full = ok && quick.naturalWidth >= this.thumbPixels && quick.naturalHeight >= this.thumbPixels;
    this.noteQuickAnswer(full);
    if (full) img.src = quick.src;
    else this.queueFinal(cell, url);
  }

  /**
   * Counts quick answers that were real thumbnails in a row (see DIRECT_AFTER).
   * @param {boolean} real
   */
  noteQuickAnswer(real) {
    this.realStreak = real ? this.realStreak + 1 : 0;
    this.direct = this.realStreak >= DIRECT_AFTER;
  }

  /**
   * Queues a cell's request for its real thumbnail.
   * @param {HTMLElement} cell
   * @param {string} url
   */
  queueFinal(cell, url) {
    cell.state.finalURL = url;
    this.finalQueue.push(cell);
    this.pumpFinals();
  }

  /** Starts queued real-thumbnail requests, latest bound first, while fewer than the limit run. */
  pumpFinals() {
    while (this.finalsInFlight < FINALS_IN_FLIGHT && this.finalQueue.length) {
      const cell = this.finalQueue.pop();
      const state = cell.state;
      if (cell.hidden || state.finalInFlight || !state.finalURL || state.finalURL !== state.url) continue;
      state.finalInFlight = true;
      this.finalsInFlight += 1;
      cell.refs.img.src = state.finalURL;
    }
  }

  /**
   * A cell's real-thumbnail request ended (loaded, failed or dropped): frees its slot.
   * @param {HTMLElement} cell
   */
  finalEnded(cell) {
    const state = cell.state;
    state.finalURL = "";
    if (!state.finalInFlight) return;
    state.finalInFlight = false;
    this.finalsInFlight = Math.max(0, this.finalsInFlight - 1);
    this.pumpFinals();
  }

  /**
   * Stops what a cell is loading (it leaves the screen or shows another asset).
   * @param {HTMLElement} cell
   */
  stopLoading(cell) {
    const state = cell.state;
    if (state.quickURL) {
      state.quickURL = "";
      clearQuick(cell); // the browser drops the request
    }
    state.requested = "";
    if (state.finalInFlight) cell.refs.img.removeAttribute("src"); // the browser drops the request
    this.finalEnded(cell);
    const at = this.finalQueue.indexOf(cell);
    if (at >= 0) this.finalQueue.splice(at, 1);
  }

  /**
   * A thumbnail failed to load: asks the server why (an `<img>` error carries no status) and
   * marks the cell, never leaving it blank. 422 is a photo or video the library can't render
   * (`photos check` lists it); anything else is a load failure, tried again when the cell is
   * bound anew.
   * @param {HTMLElement} cell
   */
  async onImageError(cell) {
    const { img } = cell.refs;
    const url = cell.state.url;
    img.removeAttribute("src");
    img.classList.remove("loaded");
    if (!url) return;
    cell.state.failedURL = url;
    let status = 0;
    let reason = "";
    try {
      const response = await fetch(url, { credentials: "same-origin" });
      status = response.status;
      if (!response.ok) reason = ((await response.json()).error || {}).reason || "";
    } catch (error) {
      reason = String(error);
    }
    if (cell.state.url !== url) return; // the cell shows another asset by now
    if (status >= 200 && status < 300) {
      // It loads now (a transient failure): show it.
      cell.state.failedURL = "";
      img.src = url;
      return;
    }
    showMark(cell, status === 422 || status === 415, reason);
  }

  /** @param {MouseEvent} event */
  onClick(event) {
    const cell = event.target.closest(".cell");
    if (!cell || cell.hidden) return;
    const index = cell.state.index;
    const asset = this.model.get(index);
    if (!asset) return;
    if (event.target.closest(".star")) this.actions.onToggleFavorite(asset, index);
    else if (event.target.closest(".thumb")) this.actions.onOpen(index);
  }

  /**
   * Arrow keys move the focus between cells.
   * @param {KeyboardEvent} event
   */
  onKeyDown(event) {
    const steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -this.cols, ArrowDown: this.cols };
    const step = steps[event.key];
    const cell = event.target.closest && event.target.closest(".cell");
    if (step === undefined || !cell || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = cell.state.index + step;
    if (target < 0 || target >= this.model.count) return;
    event.preventDefault();
    this.scrollToIndex(target);
    const next = this.cellAt(target);
    if (next) next.refs.thumb.focus({ preventScroll: true });
  }

  showLabel() {
    this.label.classList.add("visible");
    clearTimeout(this.labelTimer);
    this.labelTimer = setTimeout(() => this.label.classList.remove("visible"), LABEL_HIDE_MS);
  }

  /** @param {number} firstRow */
  updateLabelText(firstRow) {
    let text = "";
    const start = firstRow * this.cols;
    for (let i = start; i < Math.min(start + this.cols, this.model.count); i += 1) {
      const asset = this.model.display(i);
      if (asset && asset.creationDate) {
        text = monthFormat.format(new Date(asset.creationDate));
        break;
      }
    }
    if (this.label.textContent !== text) this.label.textContent = text;
    this.label.hidden = !text;
  }

  /**
   * Dispatches the preheat window: visible rows, two screens ahead in the scroll direction, one behind.
   * @param {number} firstRow
   * @param {number} lastRow
   * @param {number} count
   */
  emitViewport(firstRow, lastRow, count) {
    const screen = Math.max(1, lastRow - firstRow) * this.cols;
    const visibleStart = firstRow * this.cols;
    const visibleEnd = Math.min(count, lastRow * this.cols);
    const ahead = 2 * screen;
    const behind = screen;
    const start = Math.max(0, visibleStart - (this.direction > 0 ? behind : ahead));
    const end = Math.min(count, visibleEnd + (this.direction > 0 ? ahead : behind));
    const detail = { start, end, width: this.thumbPixels, height: this.thumbPixels, row: this.cols };
    this.dispatchEvent(new CustomEvent("viewport", { detail }));
  }

  /**
   * Fires "ready" once the first visible row has data (or the fetch is empty).
   * @param {number} first
   * @param {number} count
   */
  checkReady(first, count) {
    if (this.readyFired || !this.model.known) return;
    if (count > 0 && !this.model.get(Math.min(first, count - 1))) return;
    this.readyFired = true;
    this.dispatchEvent(new CustomEvent("ready"));
  }
}

/**
 * Marks a cell whose thumbnail can't be shown: "Can't display" for a file the library can't
 * render, "Not loaded" for a failed request; the reason in its tooltip and label.
 * @param {HTMLElement} cell
 * @param {boolean} unrenderable
 * @param {string} reason
 */
function showMark(cell, unrenderable, reason) {
  const { mark, thumb } = cell.refs;
  const text = unrenderable ? "Can't display" : "Not loaded";
  mark.textContent = `⚠ ${text}`;
  mark.title = reason || text;
  mark.hidden = false;
  cell.classList.toggle("unrenderable", unrenderable);
  cell.classList.toggle("load-failed", !unrenderable);
  const label = thumb.getAttribute("aria-label") || "Photo";
  thumb.setAttribute("aria-label", `${label.replace(/ \(.*\)$/, "")} (${text.toLowerCase()}${reason ? `: ${reason}` : ""})`);
}

/**
 * Takes the degraded image away (the real one covers it, or the cell shows another asset).
 * @param {HTMLElement} cell
 */
function clearQuick(cell) {
  const { quick } = cell.refs;
  if (!quick.hasAttribute("src")) return;
  quick.removeAttribute("src");
  quick.classList.remove("loaded");
}

/** @param {HTMLElement} cell */
function clearMark(cell) {
  const { mark } = cell.refs;
  if (mark.hidden) return;
  mark.hidden = true;
  mark.textContent = "";
  cell.classList.remove("unrenderable", "load-failed");
  cell.state.failedURL = "";
}

/**
 * Formats a duration in seconds as m:ss or h:mm:ss.
 * @param {number} seconds
 * @returns {string}
 */
export function formatDuration(seconds) {
  const total = Math.max(0, Math.round(seconds || 0));
  const s = String(total % 60).padStart(2, "0");
  const m = Math.floor(total / 60) % 60;
  const h = Math.floor(total / 3600);
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/**
 * An accessible label for a cell.
 * @param {object} asset
 */
function describe(asset) {
  const kind = asset.mediaType === "video" ? "Video" : "Photo";
  return asset.creationDate ? `${kind}, ${dateFormat.format(new Date(asset.creationDate))}` : kind;
}
