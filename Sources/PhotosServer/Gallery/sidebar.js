// The sidebar: Library, Favorites, smart albums, albums (folders expandable), moments (paged).

import { fetchCollections } from "./api.js";
import { showError } from "./toast.js";

const SORT = "-creationDate";
/** PHAssetCollectionSubtype.albumCloudShared. */
export const SHARED_ALBUM = 101;
const LIST_PAGE = 200;
const MOMENT_PAGE = 50;
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/**
 * @typedef {{title: string, spec: import("./model.js").FetchSpec, collection?: object}} Selection
 */

/** The built-in selections. */
export const LIBRARY = { title: "Library", spec: { sort: SORT, predicate: null, collection: null } };
export const FAVORITES = { title: "Favorites", spec: { sort: SORT, predicate: "isFavorite == YES", collection: null } };

/**
 * Loads every page of a collection list.
 * @param {"album"|"smartAlbum"|"moment"|"folder"} type
 * @param {string} [parent]
 * @returns {Promise<object[]>}
 */
async function fetchAllCollections(type, parent) {
  const all = [];
  for (;;) {
    const page = await fetchCollections(type, { parent, offset: all.length, limit: LIST_PAGE });
    const items = page.collections || [];
    all.push(...items);
    if (items.length === 0 || all.length >= page.count) return all;
  }
}

/** The sidebar of collections. */
export class Sidebar {
  /**
   * @param {HTMLElement} root #sidebar
   * @param {{onSelect: (selection: Selection) => void}} actions
   */
  constructor(root, actions) {
    this.root = root;
    this.actions = actions;
    this.lists = {
      smart: root.querySelector("#nav-smart"),
      albums: root.querySelector("#nav-albums"),
      moments: root.querySelector("#nav-moments"),
    };
    this.momentsLoaded = 0;
    this.momentsCount = Infinity;
    this.momentsStale = false;
    this.momentsLoading = false;
    /** @type {Promise<{id: string, title: string}[]>|null} */
    this.albumList = null;
    this.limited = false;
    this.started = false;
    this.bindStatic();
    const sentinel = root.querySelector("#moments-sentinel");
    this.observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) this.loadMoreMoments();
    }, { root, rootMargin: "200px" });
    this.observer.observe(sentinel);
  }

  /**
   * Fills the sections. In limited mode, the albums are hidden.
   * @param {{limited: boolean}} options
   */
  load(options) {
    this.limited = options.limited;
    this.started = true;
    this.root.querySelector("#nav-albums-section").hidden = this.limited;
    this.loadList(this.lists.smart, "smartAlbum");
    if (!this.limited) this.refreshAlbums();
    this.loadMoreMoments();
  }

  /** Reloads the albums section and the album list of the picker. */
  refreshAlbums() {
    this.albumList = null;
    if (!this.limited) this.loadList(this.lists.albums, "album");
  }

  /**
   * Every album (folders flattened), for "Add to album".
   * @returns {Promise<{id: string, title: string}[]>}
   */
  albums() {
    if (!this.albumList) {
      this.albumList = flattenAlbums(undefined, "", 0).catch((error) => {
        this.albumList = null;
        throw error;
      });
    }
    return this.albumList;
  }

  /**
   * Marks a nav button as the current one and reports the selection.
   * @param {HTMLButtonElement} button
   * @param {Selection} selection
   */
  select(button, selection) {
    for (const current of this.root.querySelectorAll("[aria-current]")) current.removeAttribute("aria-current");
    button.setAttribute("aria-current", "page");
    this.actions.onSelect(selection);
  }

  bindStatic() {
    const library = this.root.querySelector("[data-nav=library]");
    const favorites = this.root.querySelector("[data-nav=favorites]");
    library.addEventListener("click", () => this.select(library, LIBRARY));
    favorites.addEventListener("click", () => this.select(favorites, FAVORITES));
  }

  /**
   * Replaces a list with the collections of a type (or a folder's children).
   * @param {HTMLElement} list
   * @param {"album"|"smartAlbum"} type
   * @param {string} [parent]
   */
  async loadList(list, type, parent) {
    try {
      const collections = await fetchAllCollections(type, parent);
      list.replaceChildren(...collections.map((collection) => this.item(collection)));
      if (!collections.length) list.append(emptyNote(parent ? "Empty folder" : "None"));
    } catch (error) {
      showError(`Could not load ${type === "smartAlbum" ? "smart albums" : "albums"}`, error);
    }
  }

  /** Loads the moments again from the first page (the library's moments changed). */
  reloadMoments() {
    if (!this.started || this.momentsLoading) {
      this.momentsStale = true;
      return;
    }
    this.momentsLoaded = 0;
    this.momentsCount = Infinity;
    this.lists.moments.replaceChildren();
    this.loadMoreMoments();
  }

  async loadMoreMoments() {
    if (!this.started || this.momentsLoading || this.momentsLoaded >= this.momentsCount) return;
    this.momentsLoading = true;
    try {
      const page = await fetchCollections("moment", { offset: this.momentsLoaded, limit: MOMENT_PAGE });
      const items = page.collections || [];
      this.momentsCount = items.length ? page.count : this.momentsLoaded;
      this.momentsLoaded += items.length;
      this.lists.moments.append(...items.map((collection) => this.item(collection)));
      if (this.momentsCount === 0) this.lists.moments.append(emptyNote("None"));
    } catch (error) {
      this.momentsCount = this.momentsLoaded; // stop asking; a reload retries
      showError("Could not load moments", error);
    } finally {
      this.momentsLoading = false;
    }
    if (this.momentsStale) {
      this.momentsStale = false;
      this.reloadMoments();
      return;
    }
    // The sentinel may still be visible (short lists): keep filling.
    const sentinel = this.root.querySelector("#moments-sentinel");
    if (this.momentsLoaded < this.momentsCount && isVisibleIn(sentinel, this.root)) this.loadMoreMoments();
  }

  /**
   * A list item for a collection: a selectable button, or an expandable folder.
   * @param {object} collection
   * @returns {HTMLLIElement}
   */
  item(collection) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "nav-item";
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = collectionTitle(collection);
    button.append(name);
    li.append(button);
    if (collection.kind === "folder") {
      li.className = "folder";
      button.setAttribute("aria-expanded", "false");
      const children = document.createElement("ul");
      children.hidden = true;
      li.append(children);
      button.addEventListener("click", () => this.toggleFolder(button, children, collection.id));
      return li;
    }
    const detail = collectionDetail(collection);
    if (detail) {
      const count = document.createElement("span");
      count.className = "n";
      count.textContent = detail;
      button.append(count);
    }
    // An album shows in its own (the user's) order, as in Photos; smart albums and moments by date.
    const sort = collection.kind === "album" ? null : SORT;
    const selection = { title: name.textContent, spec: { sort, predicate: null, collection: collection.id }, collection };
    if (collection.subtype === SHARED_ALBUM) button.dataset.shared = "1";
    button.addEventListener("click", () => this.select(button, selection));
    return li;
  }

  /**
   * @param {HTMLButtonElement} button
   * @param {HTMLUListElement} children
   * @param {string} id
   */
  toggleFolder(button, children, id) {
    const open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", String(open));
    children.hidden = !open;
    if (open && !children.dataset.loaded) {
      children.dataset.loaded = "1";
      this.loadList(children, "album", id);
    }
  }
}

/**
 * Albums under a parent, folders flattened into "Folder / Album" titles.
 * @param {string|undefined} parent
 * @param {string} prefix
 * @param {number} depth
 * @returns {Promise<{id: string, title: string}[]>}
 */
async function flattenAlbums(parent, prefix, depth) {
  const collections = await fetchAllCollections("album", parent);
  const out = [];
  for (const collection of collections) {
    const title = prefix + collectionTitle(collection);
    if (collection.kind === "folder") {
      if (depth < 4) out.push(...(await flattenAlbums(collection.id, `${title} / `, depth + 1)));
    } else if (collection.kind === "album") {
      out.push({ id: collection.id, title });
    }
  }
  return out;
}

/**
 * The title of a collection; moments without one use their places or dates.
 * @param {object} collection
 * @returns {string}
 */
export function collectionTitle(collection) {
  if (collection.title) return collection.title;
  if (collection.locationNames && collection.locationNames.length) return collection.locationNames.join(", ");
  if (collection.startDate) return dayFormat.format(new Date(collection.startDate));
  return "Untitled";
}

/**
 * Secondary text: the estimated asset count when known.
 * @param {object} collection
 */
function collectionDetail(collection) {
  if (typeof collection.estimatedAssetCount === "number") return String(collection.estimatedAssetCount);
  return "";
}

/** @param {string} text */
function emptyNote(text) {
  const li = document.createElement("li");
  li.className = "note";
  li.textContent = text;
  return li;
}

/**
 * Whether an element is within (or 200px below) the visible part of a scroller.
 * @param {Element} element
 * @param {Element} scroller
 */
function isVisibleIn(element, scroller) {
  const box = element.getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  return box.top < view.bottom + 200 && box.bottom > view.top;
}
