// Uploads: a full-page drop overlay and the header's file input; one XMLHttpRequest per
// file (raw body, progress events), a per-file row in the #uploads panel.

import { csrfHeaders, errorFromText, notifyUnauthorized } from "./api.js";

const CONCURRENCY = 2;
const sizeFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/**
 * Formats a byte count (1.5 MB).
 * @param {number} bytes
 * @returns {string}
 */
export function formatBytes(bytes) {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${sizeFormat.format(value)} ${units[unit]}`;
}

/** The upload queue and its panel. */
export class Uploader {
  /**
   * @param {{panel: HTMLElement, overlay: HTMLElement, input: HTMLInputElement, button: HTMLElement,
   *   onUploaded: (result: object) => void}} options
   */
  constructor(options) {
    this.panel = options.panel;
    this.list = options.panel.querySelector("ul");
    this.summary = options.panel.querySelector(".uploads-summary");
    this.overlay = options.overlay;
    this.onUploaded = options.onUploaded;
    this.enabled = false;
    this.queue = [];
    this.running = 0;
    this.dragDepth = 0;
    options.button.addEventListener("click", () => options.input.click());
    options.input.addEventListener("change", () => {
      this.enqueue([...options.input.files]);
      options.input.value = "";
    });
    this.panel.querySelector(".uploads-clear").addEventListener("click", () => this.clearFinished());
    this.bindDrop();
  }

  /**
   * Accepts files (signed in) or ignores drops (signed out).
   * @param {boolean} enabled
   */
  setEnabled(enabled) {
    this.enabled = enabled;
    if (!enabled) this.hideOverlay();
  }

  bindDrop() {
    const hasFiles = (event) => event.dataTransfer && [...event.dataTransfer.types].includes("Files");
    window.addEventListener("dragenter", (event) => {
      if (!this.enabled || !hasFiles(event)) return;
      event.preventDefault();
      this.dragDepth += 1;
      this.overlay.hidden = false;
    });
    window.addEventListener("dragover", (event) => {
      if (!this.enabled || !hasFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "copy";
    });
    window.addEventListener("dragleave", (event) => {
      if (!this.enabled || !hasFiles(event)) return;
      this.dragDepth = Math.max(0, this.dragDepth - 1);
      if (this.dragDepth === 0) this.hideOverlay();
    });
    window.addEventListener("drop", (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault(); // never let the browser navigate to a dropped file
      this.hideOverlay();
      if (this.enabled) this.enqueue([...event.dataTransfer.files]);
    });
  }

  hideOverlay() {
    this.dragDepth = 0;
    this.overlay.hidden = true;
  }

  /**
   * Adds files to the queue and shows them in the panel.
   * @param {File[]} files
   */
  enqueue(files) {
    if (!files.length) return;
    this.panel.hidden = false;
    for (const file of files) {
      const row = this.row(file);
      this.list.append(row.li);
      this.queue.push({ file, row });
    }
    this.updateSummary();
    this.pump();
  }

  pump() {
    while (this.running < CONCURRENCY && this.queue.length) {
      const job = this.queue.shift();
      if (job.row.li.dataset.state === "cancelled") continue;
      this.running += 1;
      this.upload(job).finally(() => {
        this.running -= 1;
        this.updateSummary();
        this.pump();
      });
    }
  }

  /**
   * Sends one file as the raw request body.
   * @param {{file: File, row: ReturnType<Uploader["row"]>}} job
   * @returns {Promise<void>}
   */
  upload({ file, row }) {
    return new Promise((resolve) => {
      const xhr = new XMLHttpRequest();
      row.setState("uploading", "Uploading…");
      row.cancel.onclick = () => xhr.abort();
      xhr.open("POST", `/api/uploads?filename=${encodeURIComponent(file.name)}`);
      xhr.setRequestHeader("Content-Type", file.type || "application/octet-stream");
      for (const [name, value] of Object.entries(csrfHeaders())) xhr.setRequestHeader(name, value);
      // One key per file: should this upload be sent again, the server answers with the
      // first one's assets instead of adding them twice.
      row.key = row.key || (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);
      xhr.setRequestHeader("Idempotency-Key", row.key);
      xhr.responseType = "text";
      xhr.upload.addEventListener("progress", (event) => {
        if (!event.lengthComputable) return;
        row.progress.value = event.loaded / event.total;
        if (event.loaded >= event.total) row.setState("processing", "Processing…");
      });
      xhr.addEventListener("load", () => {
        if (xhr.status === 202) {
          // Received, but the import failed for a reason the server retries: follow it.
          row.setState("processing", "Received; the server will import it");
          this.follow(xhr.getResponseHeader("Location"), row).finally(resolve);
          return;
        }
        if (xhr.status >= 200 && xhr.status < 300) {
          row.progress.value = 1;
          row.setState("done", "Done");
          let result = {};
          try {
            result = JSON.parse(xhr.responseText || "{}");
          } catch {
            // An empty or non-JSON success answer still means uploaded.
          }
          this.onUploaded(result);
        } else {
          if (xhr.status === 401) notifyUnauthorized();
          row.setState("error", uploadError(xhr.status, xhr.responseText));
        }
        resolve();
      });
      xhr.addEventListener("error", () => {
        row.setState("error", "Network error: the server cannot be reached");
        resolve();
      });
      xhr.addEventListener("abort", () => {
        row.setState("cancelled", "Cancelled");
        resolve();
      });
      xhr.send(file);
    });
  }

  /**
   * Asks how an accepted upload stands (`GET /api/uploads/{id}`) until it is imported or
   * given up.
   * @param {string|null} location
   * @param {ReturnType<Uploader["row"]>} row
   * @returns {Promise<void>}
   */
  async follow(location, row) {
    if (!location) return;
    for (;;) {
      await new Promise((done) => setTimeout(done, 2000));
      if (row.li.dataset.state === "cancelled") return;
      const response = await fetch(location, { credentials: "same-origin" }).catch(() => null);
      if (!response || !response.ok) continue;
      const result = await response.json().catch(() => ({}));
      const state = result.upload && result.upload.state;
      if (state === "done") {
        row.progress.value = 1;
        row.setState("done", "Done");
        this.onUploaded(result);
        return;
      }
      if (state === "failed") {
        row.setState("error", result.upload.error || "The server could not import it");
        return;
      }
    }
  }

  /**
   * The panel row of a file: name, size, progress bar, status and a cancel button.
   * @param {File} file
   */
  row(file) {
    const li = document.createElement("li");
    li.dataset.state = "queued";
    const name = document.createElement("span");
    name.className = "upload-name";
    name.textContent = file.name;
    name.title = file.name;
    const size = document.createElement("span");
    size.className = "upload-size";
    size.textContent = formatBytes(file.size);
    const progress = document.createElement("progress");
    progress.max = 1;
    progress.value = 0;
    progress.setAttribute("aria-label", `Upload of ${file.name}`);
    const status = document.createElement("span");
    status.className = "upload-status";
    status.setAttribute("role", "status");
    status.textContent = "Waiting…";
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "upload-cancel";
    cancel.textContent = "Cancel";
    cancel.onclick = () => {
      li.dataset.state = "cancelled";
      status.textContent = "Cancelled";
      cancel.hidden = true;
      this.updateSummary();
    };
    li.append(name, size, progress, status, cancel);
    const setState = (state, text) => {
      li.dataset.state = state;
      status.textContent = text;
      cancel.hidden = state !== "queued" && state !== "uploading" && state !== "processing";
    };
    return { li, progress, status, cancel, setState, key: "" };
  }

  clearFinished() {
    for (const li of [...this.list.children]) {
      if (["done", "error", "cancelled"].includes(li.dataset.state)) li.remove();
    }
    if (!this.list.children.length) this.panel.hidden = true;
    this.updateSummary();
  }

  updateSummary() {
    const rows = [...this.list.children];
    const done = rows.filter((li) => li.dataset.state === "done").length;
    const failed = rows.filter((li) => li.dataset.state === "error").length;
    const pending = rows.filter((li) => ["queued", "uploading", "processing"].includes(li.dataset.state)).length;
    const parts = [`${done} of ${rows.length} uploaded`];
    if (failed) parts.push(`${failed} failed`);
    if (pending) parts.push(`${pending} in progress`);
    this.summary.textContent = parts.join(", ");
  }
}

/**
 * A readable message for a failed upload, from the server's reason.
 * @param {number} status
 * @param {string} text
 */
function uploadError(status, text) {
  const error = errorFromText(status, text);
  const generic = error.reason === `HTTP ${status}`;
  if (status === 413 && generic) return "Too large for the server";
  if (status === 415 && generic) return "Not a photo or video";
  return error.reason;
}
