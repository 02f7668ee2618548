// "Add to album" popover of the detail view: existing albums, or a new one created and
// filled in the same change request (createAlbum with a ref, then addToAlbum to that ref).

import { performChanges } from "./api.js";
import { button } from "./dom.js";
import { showError, showToast } from "./toast.js";

/** The album picker popover. */
export class AlbumPicker {
  /**
   * @param {HTMLElement} root #album-picker
   * @param {{albums: () => Promise<{id: string, title: string}[]>, onAdded: (created: boolean) => void}} source
   */
  constructor(root, source) {
    this.root = root;
    this.source = source;
    this.list = root.querySelector("ul");
    this.form = root.querySelector("form");
    this.assetId = "";
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.createAndAdd();
    });
    root.querySelector(".picker-close").addEventListener("click", () => this.close());
  }

  /** Whether the picker is showing. */
  get isOpen() {
    return !this.root.hidden;
  }

  /**
   * Opens the picker for an asset and loads the album list.
   * @param {string} assetId
   */
  async open(assetId) {
    this.assetId = assetId;
    this.root.hidden = false;
    this.list.replaceChildren(note("Loading albums…"));
    this.form.elements.namedItem("title").value = "";
    try {
      const albums = await this.source.albums();
      if (this.assetId !== assetId) return;
      this.list.replaceChildren(...albums.map((album) => this.albumButton(album)));
      if (!albums.length) this.list.append(note("No albums yet"));
      const first = this.list.querySelector("button") || this.form.elements.namedItem("title");
      first.focus();
    } catch (error) {
      this.list.replaceChildren(note("Could not load the albums"));
      showError("Could not load albums", error);
    }
  }

  /** Hides the picker. */
  close() {
    this.root.hidden = true;
    this.assetId = "";
  }

  /**
   * @param {{id: string, title: string}} album
   * @returns {HTMLLIElement}
   */
  albumButton(album) {
    const li = document.createElement("li");
    li.append(button(album.title, () => this.add(album)));
    return li;
  }

  /** @param {{id: string, title: string}} album */
  async add(album) {
    const assetId = this.assetId;
    this.close();
    try {
      await performChanges([{ op: "addToAlbum", album: album.id, assets: [assetId] }]);
      showToast(`Added to “${album.title}”`, { kind: "info", timeout: 3000 });
      this.source.onAdded(false);
    } catch (error) {
      showError(`Could not add to “${album.title}”`, error);
    }
  }

  async createAndAdd() {
    const input = this.form.elements.namedItem("title");
    const title = input.value.trim();
    if (!title) return;
    const assetId = this.assetId;
    this.close();
    try {
      await performChanges([
        { op: "createAlbum", title, ref: "a1" },
        { op: "addToAlbum", album: "a1", assets: [assetId] },
      ]);
      showToast(`Added to the new album “${title}”`, { kind: "info", timeout: 3000 });
      this.source.onAdded(true);
    } catch (error) {
      showError(`Could not create “${title}”`, error);
    }
  }
}

/** @param {string} text */
function note(text) {
  const li = document.createElement("li");
  li.className = "note";
  li.textContent = text;
  return li;
}
