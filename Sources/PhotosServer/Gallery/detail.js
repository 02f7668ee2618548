// The #detail overlay: one asset of the grid's fetch, larger, with its metadata and
// actions; ←/→ step through the fetch, Esc closes. Follows live updates of the model.

import { markWords } from "./marks.js";
import { ApiError, fetchAssetDetails, imageURL, isLivePhoto, originalURL, performChanges, roundUp32, videoURL } from "./api.js";
import { AlbumPicker } from "./albumpicker.js";
import { fillMetadata } from "./metadata.js";
import { showError, showToast } from "./toast.js";

const MAX_FIT = 2048;
const CROPS = { square: 1, "16:9": 16 / 9, "4:3": 4 / 3 };

/**
 * A centered crop of an aspect ratio, normalized to 0..1 of the upright image.
 * @param {number} width Current pixel width.
 * @param {number} height Current pixel height.
 * @param {number} ratio width / height wanted.
 * @returns {{x: number, y: number, width: number, height: number}}
 */
export function centeredCrop(width, height, ratio) {
  const imageRatio = width / height;
  if (!(imageRatio > 0)) return { x: 0, y: 0, width: 1, height: 1 };
  if (imageRatio > ratio) {
    const w = ratio / imageRatio;
    return { x: (1 - w) / 2, y: 0, width: w, height: 1 };
  }
  const h = imageRatio / ratio;
  return { x: 0, y: (1 - h) / 2, width: 1, height: h };
}

/** The detail view. */
export class DetailView {
  /**
   * @param {HTMLElement} root #detail
   * @param {{model: import("./model.js").FetchModel, grid: import("./grid.js").Grid,
   *   albums: () => Promise<{id: string, title: string}[]>, onAlbumsChanged: () => void,
   *   toggleFavorite: (asset: object, index: number) => void, afterChange: () => void,
   *   canUseAlbums: () => boolean}} deps
   */
  constructor(root, deps) {
    this.root = root;
    this.deps = deps;
    this.model = deps.model;
    this.index = -1;
    this.asset = null;
    this.token = 0;
    this.busy = false;
    this.details = null;
    this.controller = null;
    this.returnFocus = null;
    const $ = (selector) => root.querySelector(selector);
    this.el = {
      image: $("#detail-image"), video: $("#detail-video"), title: $("#detail-title"), meta: $("#detail-meta"),
      prev: $("#detail-prev"), next: $("#detail-next"), close: $("#detail-close"), favorite: $("#detail-favorite"),
      hide: $("#detail-hide"), remove: $("#detail-delete"), album: $("#detail-album"), rotate: $("#detail-rotate"),
      revert: $("#detail-revert"), download: $("#detail-download"), stage: $(".detail-stage"), marks: $("#detail-marks"),
      live: $("#detail-live"), liveBadge: $("#detail-live-badge"),
    };
    this.picker = new AlbumPicker($("#album-picker"), {
      albums: deps.albums,
      onAdded: (created) => {
        if (created) deps.onAlbumsChanged();
        this.loadDetails();
      },
    });
    this.bind();
    this.model.addEventListener("update", (event) => this.onModelUpdate(event.detail));
  }

  /** Whether the overlay is showing. */
  get isOpen() {
    return !this.root.hidden;
  }

  /** Marks the words the grid's search matched on the photo (``markWords``). */
  mark() {
    const search = this.model.spec && this.model.spec.search;
    const marked = markWords(this.el.marks, this.el.image, this.details && this.details.text, search);
    this.el.marks.dataset.marked = String(marked);
  }

  bind() {
    const { el } = this;
    el.image.addEventListener("load", () => this.mark());
    window.addEventListener("resize", () => this.isOpen && this.mark());
    el.close.addEventListener("click", () => this.close());
    el.prev.addEventListener("click", () => this.step(-1));
    el.next.addEventListener("click", () => this.step(1));
    el.favorite.addEventListener("click", () => this.asset && this.deps.toggleFavorite(this.asset, this.index));
    el.hide.addEventListener("click", () => this.hide());
    el.remove.addEventListener("click", () => this.remove());
    el.album.addEventListener("click", () => (this.picker.isOpen ? this.picker.close() : this.picker.open(this.asset.id)));
    // rotate adds a clockwise quarter turn to the earlier ones (server recipe: rotate, then crop).
    el.rotate.addEventListener("click", () => this.edit({ op: "edit", asset: this.asset.id, rotate: 90 }, "rotate"));
    el.revert.addEventListener("click", () => this.edit({ op: "revert", asset: this.asset.id }, "revert the edits of"));
    for (const button of this.root.querySelectorAll("[data-crop]")) {
      button.addEventListener("click", () => this.crop(button.dataset.crop));
    }
    document.addEventListener("keydown", (event) => this.onKey(event));
    // A Live Photo's motion: muted, while the still is pressed or hovered.
    const play = () => this.playLive();
    const stop = () => this.stopLive();
    el.image.addEventListener("pointerenter", play);
    el.image.addEventListener("pointerdown", play);
    el.image.addEventListener("pointerleave", stop);
    el.image.addEventListener("pointerup", (event) => event.pointerType !== "mouse" && stop());
    el.live.addEventListener("ended", stop);
  }

  /** Plays the current Live Photo's movie over its still. */
  playLive() {
    const { live } = this.el;
    if (!this.asset || !isLivePhoto(this.asset)) return;
    const url = videoURL(this.asset);
    if (live.getAttribute("src") !== url) live.src = url;
    live.hidden = false;
    live.currentTime = 0;
    live.play().catch(() => {});
  }

  /** Stops a Live Photo's movie and shows the still again. */
  stopLive() {
    const { live } = this.el;
    if (live.hidden) return;
    live.pause();
    live.hidden = true;
  }

  /**
   * Opens the asset at an index of the grid's fetch.
   * @param {number} index
   */
  open(index) {
    const asset = this.model.get(index);
    if (!asset) return;
    if (!this.isOpen) {
      this.returnFocus = document.activeElement;
      this.root.hidden = false;
      document.getElementById("app").inert = true;
      this.el.album.hidden = !this.deps.canUseAlbums();
    }
    this.show(asset, index);
    this.el.close.focus();
  }

  /** Closes the overlay and gives the focus back. */
  close() {
    if (!this.isOpen) return;
    this.token += 1;
    if (this.controller) this.controller.abort();
    this.picker.close();
    this.stopVideo();
    this.stopLive();
    this.el.live.removeAttribute("src");
    this.root.hidden = true;
    this.el.image.removeAttribute("src");
    document.getElementById("app").inert = false;
    const cell = this.deps.grid.cellAt(this.index);
    const target = cell ? cell.refs.thumb : this.returnFocus;
    if (target && target.isConnected) target.focus({ preventScroll: true });
    this.asset = null;
    this.index = -1;
  }

  /**
   * Moves to the previous (-1) or next (+1) asset of the fetch.
   * @param {number} delta
   */
  async step(delta) {
    const target = this.index + delta;
    if (!this.isOpen || target < 0 || target >= this.model.count) return;
    const token = ++this.token;
    this.deps.grid.scrollToIndex(target); // the grid loads the page of the target
    const asset = this.model.get(target) || (await this.model.whenLoaded(target));
    if (token !== this.token || !asset) return;
    this.show(asset, target);
  }

  /**
   * Shows an asset: the grid thumbnail at once, the fitted image when loaded, then the details.
   * @param {object} asset
   * @param {number} index
   */
  show(asset, index) {
    this.token += 1;
    const previous = this.asset;
    const sameId = !!previous && previous.id === asset.id;
    this.asset = asset;
    this.index = index;
    this.updateControls();
    if (!sameId || previous.version !== asset.version) this.showMedia(asset, sameId);
    if (!sameId) this.details = null;
    this.mark();
    fillMetadata(this.el.meta, this.el.title, asset, this.details);
    this.loadDetails();
  }

  /**
   * @param {object} asset
   * @param {boolean} sameId A new version of the asset shown: keep the old image until the new one is ready.
   */
  showMedia(asset, sameId) {
    const { image, video, stage } = this.el;
    const dpr = window.devicePixelRatio || 1;
    const fit = {
      w: Math.min(MAX_FIT, roundUp32(stage.clientWidth * dpr)),
      h: Math.min(MAX_FIT, roundUp32(stage.clientHeight * dpr)),
      mode: "fit",
    };
    const large = imageURL(asset, fit);
    if (asset.mediaType === "video" && sameId && video.getAttribute("src")) {
      video.poster = large; // a new version (e.g. favorite): keep playing
      return;
    }
    this.stopVideo();
    this.stopLive();
    this.el.live.removeAttribute("src");
    this.el.liveBadge.hidden = !isLivePhoto(asset);
    if (asset.mediaType === "video") {
      image.hidden = true;
      video.hidden = false;
      video.poster = large;
      video.src = videoURL(asset);
      return;
    }
    video.hidden = true;
    image.hidden = false;
    if (!sameId || !image.getAttribute("src")) {
      const thumb = this.deps.grid.thumbPixels;
      image.src = imageURL(asset, { w: thumb, h: thumb, mode: "fill" }); // cached by the grid
      image.classList.add("preview");
    }
    const loader = new Image();
    loader.src = large;
    loader.decode().then(
      () => {
        if (this.asset !== asset || !this.isOpen) return;
        image.src = large;
        image.classList.remove("preview");
      },
      () => {},
    );
  }

  stopVideo() {
    const { video } = this.el;
    if (!video.getAttribute("src")) return;
    video.pause();
    video.removeAttribute("src");
    video.load();
  }

  updateControls() {
    const { el, asset, index } = this;
    el.favorite.setAttribute("aria-pressed", asset.isFavorite ? "true" : "false");
    el.hide.textContent = asset.isHidden ? "Unhide" : "Hide";
    el.revert.disabled = !asset.hasAdjustments;
    el.prev.disabled = index <= 0;
    el.next.disabled = index >= this.model.count - 1;
    el.download.href = originalURL(asset);
  }

  /** Fetches the full details of the current asset (albums, place, camera, file). */
  async loadDetails() {
    if (!this.asset) return;
    if (this.controller) this.controller.abort();
    const controller = new AbortController();
    this.controller = controller;
    const asset = this.asset;
    try {
      const details = await fetchAssetDetails(asset.id, controller.signal);
      if (this.asset !== asset) return;
      this.details = details;
      fillMetadata(this.el.meta, this.el.title, asset, details);
      this.mark();
    } catch (error) {
      if (error && error.name === "AbortError") return;
      if (error instanceof ApiError && error.status === 404 && this.asset === asset) this.close();
      else showError("Could not load the details", error);
    }
  }

  /**
   * Follows the model: closes when the asset was removed, refreshes when it changed.
   * @param {import("./model.js").UpdateDetail} update
   */
  onModelUpdate(update) {
    if (!this.isOpen || !this.asset) return;
    if (update.kind === "changes") {
      const index = update.mapIndex(this.index);
      if (index < 0) return this.close();
      this.index = index;
      const current = this.model.get(index);
      if (update.changed.has(index) && current && current.id === this.asset.id) this.show(current, index);
      else this.updateControls();
      return;
    }
    const index = this.model.indexOfId(this.asset.id, this.index);
    if (index < 0) {
      if (update.kind === "reset") this.loadDetails(); // a 404 closes the view
      return;
    }
    this.index = index;
    const current = this.model.get(index);
    if (update.kind === "patch") {
      this.asset = current;
      this.updateControls();
    } else if (current.version !== this.asset.version || current.isFavorite !== this.asset.isFavorite) {
      this.show(current, index);
    } else {
      this.updateControls();
    }
  }

  /** @param {KeyboardEvent} event */
  onKey(event) {
    if (!this.isOpen || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "Escape") {
      event.preventDefault();
      if (this.picker.isOpen) this.picker.close();
      else this.close();
      return;
    }
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLVideoElement;
    if (typing) return;
    if (event.key === "ArrowLeft") this.step(-1);
    else if (event.key === "ArrowRight") this.step(1);
    else return;
    event.preventDefault();
  }

  /**
   * Sends operations for the current asset; the live update refreshes or closes the view.
   * @param {object[]} operations
   * @param {string} what For the error message ("delete", "hide"...).
   * @returns {Promise<boolean>} Whether it succeeded.
   */
  async perform(operations, what) {
    if (this.busy) return false;
    this.busy = true;
    const buttons = this.root.querySelectorAll(".detail-actions button");
    for (const button of buttons) button.setAttribute("aria-busy", "true");
    try {
      await performChanges(operations);
      this.deps.afterChange();
      return true;
    } catch (error) {
      showError(`Could not ${what} this item`, error);
      return false;
    } finally {
      this.busy = false;
      for (const button of buttons) button.removeAttribute("aria-busy");
    }
  }

  /**
   * @param {object} operation
   * @param {string} what
   */
  edit(operation, what) {
    if (this.asset) this.perform([operation], what);
  }

  /**
   * Crops to a centered preset. A crop replaces the earlier one and is in units of the rotated,
   * uncropped image, whose size is the asset's only while it has no edits: otherwise the crop
   * is first reset to the whole image and the size read again.
   * @param {string} preset "square", "16:9" or "4:3"
   */
  async crop(preset) {
    const { asset } = this;
    if (!asset || !CROPS[preset]) return;
    let size = asset;
    if (asset.hasAdjustments) {
      const whole = { x: 0, y: 0, width: 1, height: 1 };
      if (!(await this.perform([{ op: "edit", asset: asset.id, crop: whole }], "crop"))) return;
      try {
        size = await fetchAssetDetails(asset.id);
      } catch (error) {
        showError("Could not crop this item", error);
        return;
      }
    }
    const crop = centeredCrop(size.pixelWidth, size.pixelHeight, CROPS[preset]);
    this.perform([{ op: "edit", asset: asset.id, crop }], "crop");
  }

  async hide() {
    const { asset } = this;
    if (!asset) return;
    const value = !asset.isHidden;
    const ok = await this.perform([{ op: "hide", assets: [asset.id], value }], value ? "hide" : "unhide");
    if (!ok || !value) return;
    showToast("Hidden", {
      kind: "info",
      action: { label: "Undo", run: () => this.undo([{ op: "hide", assets: [asset.id], value: false }], "unhide") },
    });
  }

  async remove() {
    const { asset } = this;
    if (!asset) return;
    const ok = await this.perform([{ op: "delete", assets: [asset.id] }], "delete");
    if (!ok) return;
    if (this.asset === asset) this.close(); // also closed by the live removal
    showToast("Deleted", {
      kind: "info",
      action: { label: "Undo", run: () => this.undo([{ op: "recover", assets: [asset.id] }], "recover") },
    });
  }

  /**
   * @param {object[]} operations
   * @param {string} what
   */
  async undo(operations, what) {
    try {
      await performChanges(operations);
      this.deps.afterChange();
    } catch (error) {
      showError(`Could not ${what} the item`, error);
    }
  }
}
