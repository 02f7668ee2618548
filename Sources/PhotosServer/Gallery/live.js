// Live updates over the WebSocket /api/live: subscribes the grid's fetch, applies change
// details to the FetchModel, sends the preheat window, reconnects with backoff.

import { request } from "./api.js";

const SUBSCRIPTION = "grid";
const BACKOFF_START_MS = 500;
const BACKOFF_MAX_MS = 15000;

/** The live connection of the grid's fetch. */
export class LiveConnection {
  /**
   * @param {import("./model.js").FetchModel} model
   * @param {{onError?: (message: string) => void}} [hooks]
   */
  constructor(model, hooks = {}) {
    this.model = model;
    this.hooks = hooks;
    /** @type {WebSocket|null} */
    this.socket = null;
    this.spec = null;
    this.stopped = true;
    this.subscribed = false;
    this.failures = 0;
    this.timer = 0;
    this.viewport = null;
    this.sentPreheat = null;
    /** @type {Map<string, {collections: string, onChange: () => void, subscribedOnce: boolean}>} */
    this.watches = new Map();
  }

  /**
   * Watches a collection list (`album`, `smartAlbum`, `moment`, `folder`): `onChange` runs when
   * it changes (here or in another process), and after a reconnection (it may have).
   * @param {string} name
   * @param {string} collections
   * @param {() => void} onChange
   */
  watchCollections(name, collections, onChange) {
    this.watches.set(name, { collections, onChange, subscribedOnce: false });
    this.subscribeWatch(name);
  }

  /** @param {string} name a watch's subscription (sent when the socket is open) */
  subscribeWatch(name) {
    this.send({ type: "subscribe", subscription: name, collections: this.watches.get(name).collections });
  }

  /** Whether the socket is subscribed (live updates arrive). */
  get connected() {
    return this.subscribed;
  }

  /**
   * Opens the socket and subscribes a fetch.
   * @param {import("./model.js").FetchSpec} spec
   */
  start(spec) {
    this.spec = { ...spec };
    this.stopped = false;
    this.connect();
  }

  /** Closes the socket for good (sign-out). */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.markUnsubscribed();
    if (this.socket) this.socket.close(1000, "bye");
    this.socket = null;
  }

  /**
   * Subscribes another fetch (the sidebar changed the selection). Changes for the old fetch
   * are ignored until the server confirms the new subscription.
   * @param {import("./model.js").FetchSpec} spec
   */
  setFetch(spec) {
    this.spec = { ...spec };
    this.markUnsubscribed();
    this.sentPreheat = null;
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.subscribe();
  }

  /**
   * Records the grid's preheat window; sends it when it moved by about a row or more.
   * @param {{start: number, end: number, width: number, height: number, row: number}} viewport
   */
  preheat(viewport) {
    this.viewport = viewport;
    if (!this.subscribed) return;
    const last = this.sentPreheat;
    if (viewport.end <= viewport.start && (!last || last.end <= last.start)) return; // nothing to preheat yet
    const row = Math.max(1, viewport.row);
    if (last && last.width === viewport.width && last.height === viewport.height &&
        Math.abs(last.start - viewport.start) < row && Math.abs(last.end - viewport.end) < row) return;
    this.sentPreheat = viewport;
    this.send({ type: "preheat", subscription: SUBSCRIPTION, start: viewport.start, end: viewport.end, width: viewport.width, height: viewport.height });
  }

  connect() {
    if (this.stopped) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/api/live`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (this.socket === socket) this.subscribe();
    });
    socket.addEventListener("message", (event) => {
      if (this.socket === socket) this.onMessage(event.data);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket === socket) this.onClose(event.code);
    });
  }

  subscribe() {
    const spec = this.spec;
    this.send({ type: "subscribe", subscription: SUBSCRIPTION, sort: spec.sort, predicate: spec.predicate ?? null, collection: spec.collection ?? null, partner: spec.partner ?? null, search: spec.search ?? null });
    for (const name of this.watches.keys()) this.subscribeWatch(name);
  }

  /** @param {object} message */
  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  /** @param {unknown} data */
  onMessage(data) {
    let message;
    try {
      message = JSON.parse(String(data));
    } catch {
      return;
    }
    if (!message) return;
    const watch = message.subscription ? this.watches.get(message.subscription) : undefined;
    if (watch) {
      if (message.type === "collectionsChanged" || (message.type === "subscribed" && watch.subscribedOnce)) watch.onChange();
      if (message.type === "subscribed") watch.subscribedOnce = true;
      if (message.type === "error" && this.hooks.onError) this.hooks.onError(message.reason || "Live updates failed");
      return;
    }
    if (message.subscription && message.subscription !== SUBSCRIPTION) return;
    switch (message.type) {
      case "subscribed":
        this.onSubscribed(message.count);
        break;
      case "changes":
        if (this.subscribed) this.model.applyChanges(message);
        break;
      case "reset":
        if (this.subscribed) this.model.reset(message.count);
        break;
      case "error":
        if (this.hooks.onError) this.hooks.onError(message.error?.reason || message.reason || "Live updates failed");
        break;
      default:
        break;
    }
  }

  /** @param {number} count */
  onSubscribed(count) {
    this.subscribed = true;
    this.failures = 0;
    this.model.live = true;
    document.body.dataset.liveConnected = "1";
    // Whatever happened while unsubscribed is unknown: refetch what is visible.
    this.model.reset(count);
    this.sentPreheat = null;
    if (this.viewport) this.preheat(this.viewport);
  }

  markUnsubscribed() {
    this.subscribed = false;
    this.model.live = false;
    delete document.body.dataset.liveConnected;
  }

  /** @param {number} code the WebSocket close code (1008: the token was revoked) */
  onClose(code) {
    this.socket = null;
    this.markUnsubscribed();
    if (this.stopped) return;
    this.failures += 1;
    // A revoked token, or a refused upgrade (the session may have ended): a 401 from the
    // session shows the sign-in form.
    if (code === 1008 || this.failures >= 2) request("/api/session").catch(() => {});
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** (this.failures - 1));
    this.timer = setTimeout(() => this.connect(), delay * (0.75 + Math.random() * 0.5));
  }
}
