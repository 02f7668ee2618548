// HTTP API client: JSON fetch wrapper, error decoding, URL builders.
// Every request goes to the same origin under /api; the session cookie is
// sent by the browser (credentials: "same-origin").

/** An error answered by the server (`{"error": {"status", "reason"}}`) or a network failure. */
export class ApiError extends Error {
  /**
   * @param {number} status HTTP status, 0 for a network failure.
   * @param {string} reason Human readable reason.
   */
  constructor(status, reason) {
    super(reason);
    this.name = "ApiError";
    this.status = status;
    this.reason = reason;
  }
}

/** @type {(() => void) | null} */
let unauthorizedHandler = null;

/** The session's CSRF token (GET /api/session gives it), sent with every change. */
let csrfToken = "";

/**
 * Keeps the session's CSRF token, which every request that changes something carries in
 * X-CSRF-Token (the session cookie alone is refused for changes).
 * @param {string | null | undefined} token
 */
export function setCsrfToken(token) {
  csrfToken = token || "";
}

/**
 * The headers a change needs besides its own: the session's CSRF token.
 * @returns {Record<string, string>}
 */
export function csrfHeaders() {
  return csrfToken ? { "X-CSRF-Token": csrfToken } : {};
}

/**
 * Registers the function called whenever a request answers 401 (not signed in).
 * @param {() => void} handler
 */
export function onUnauthorized(handler) {
  unauthorizedHandler = handler;
}

/**
 * Reads the server's error reason from a failed response.
 * @param {Response} response
 * @returns {Promise<string>}
 */
async function errorReason(response) {
  try {
    const body = await response.json();
    if (body && body.error && body.error.reason) return String(body.error.reason);
  } catch {
    // Not JSON: fall through to the status text.
  }
  return response.statusText || `HTTP ${response.status}`;
}

/**
 * Decodes an error body given as text (XMLHttpRequest).
 * @param {number} status
 * @param {string} text
 * @returns {ApiError}
 */
export function errorFromText(status, text) {
  try {
    const body = JSON.parse(text);
    if (body && body.error && body.error.reason) return new ApiError(status, String(body.error.reason));
  } catch {
    // Not JSON.
  }
  return new ApiError(status, status ? `HTTP ${status}` : "Network error");
}

/** Calls the unauthorized handler (used by XMLHttpRequest uploads too). */
export function notifyUnauthorized() {
  if (unauthorizedHandler) unauthorizedHandler();
}

/**
 * Sends a request to the API and decodes the JSON answer.
 * @param {string} path Path under the origin, e.g. "/api/assets?limit=10".
 * @param {{method?: string, body?: unknown, signal?: AbortSignal, quiet401?: boolean}} [options]
 *   quiet401: do not call the unauthorized handler (session probing).
 * @returns {Promise<any>} The decoded JSON, or null for an empty answer (204).
 * @throws {ApiError} On a non-2xx answer or a network failure (AbortError is rethrown as is).
 */
export async function request(path, options = {}) {
  const init = { method: options.method || "GET", credentials: "same-origin", signal: options.signal, headers: { Accept: "application/json" } };
  if (init.method !== "GET" && init.method !== "HEAD") Object.assign(init.headers, csrfHeaders());
  if (options.body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(options.body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error && error.name === "AbortError") throw error;
    throw new ApiError(0, "Network error: the server cannot be reached");
  }
  if (!response.ok) {
    if (response.status === 401 && !options.quiet401) notifyUnauthorized();
    throw new ApiError(response.status, await errorReason(response));
  }
  if (response.status === 204) return null;
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

/**
 * Builds a query string, leaving out null and undefined values.
 * @param {Record<string, unknown>} params
 * @returns {string} "" or "?a=1&b=2".
 */
export function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== "") search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

/**
 * Fetches a page of assets of a fetch.
 * @param {import("./model.js").FetchSpec} fetchSpec
 * @param {number} offset
 * @param {number} limit
 * @param {AbortSignal} [signal]
 * @returns {Promise<{count: number, offset: number, assets: object[]}>}
 */
export function fetchAssets(fetchSpec, offset, limit, signal) {
  const q = query({
    sort: fetchSpec.sort, offset, limit, predicate: fetchSpec.predicate, collection: fetchSpec.collection, partner: fetchSpec.partner,
    search: fetchSpec.search,
  });
  return request(`/api/assets${q}`, { signal });
}

/**
 * Fetches one asset with its details (filename, albums, place, camera...).
 * @param {string} id
 * @param {AbortSignal} [signal]
 */
export function fetchAssetDetails(id, signal) {
  return request(`/api/assets/${encodeURIComponent(id)}`, { signal });
}

/**
 * Fetches a page of collections.
 * @param {"album"|"smartAlbum"|"moment"|"folder"} type
 * @param {{parent?: string, offset?: number, limit?: number}} [options]
 */
export function fetchCollections(type, options = {}) {
  return request(`/api/collections${query({ type, parent: options.parent, offset: options.offset, limit: options.limit })}`);
}

/**
 * Applies change operations atomically.
 * @param {object[]} operations
 * @returns {Promise<{created?: Record<string, string>, changeToken?: string}>}
 */
export function performChanges(operations) {
  return request("/api/changes", { method: "POST", body: { operations } });
}

/**
 * URL of a rendition of an asset.
 * @param {{id: string, version?: string}} asset
 * @param {{w: number, h: number, mode: "fill"|"fit", format?: string}} size
 * @returns {string}
 */
export function imageURL(asset, size) {
  const q = query({ w: size.w, h: size.h, mode: size.mode, format: size.format || "jpeg", v: asset.version });
  return `/api/assets/${encodeURIComponent(asset.id)}/image${q}`;
}

/**
 * URL of the original file of an asset.
 * @param {{id: string}} asset
 */
export function originalURL(asset) {
  return `/api/assets/${encodeURIComponent(asset.id)}/original`;
}

/**
 * The movie a browser plays for a video or a Live Photo: the original when it plays as it is,
 * else its H.264 rendition (made on first need). Versioned, so an edit is a new URL.
 * @param {{id: string, version: string}} asset
 */
export function videoURL(asset) {
  return `/api/assets/${encodeURIComponent(asset.id)}/video?v=${encodeURIComponent(asset.version)}`;
}

/** Apple's Live Photo subtype bit. */
export const PHOTO_LIVE = 8;

/** @param {{mediaType: string, mediaSubtypes: number}} asset */
export function isLivePhoto(asset) {
  return asset.mediaType === "image" && (asset.mediaSubtypes & PHOTO_LIVE) !== 0;
}

/**
 * Rounds a pixel size up to a multiple of 32, so nearby sizes share cache entries.
 * @param {number} pixels
 */
export function roundUp32(pixels) {
  return Math.max(32, Math.ceil(pixels / 32) * 32);
}
