// Wiring: session → sidebar selection → FetchModel (HTTP pages) + LiveConnection (WebSocket)
// → Grid and DetailView; uploads; sign-out.

import { onUnauthorized, performChanges } from "./api.js";
import { DetailView } from "./detail.js";
import { Grid } from "./grid.js";
import { LiveConnection } from "./live.js";
import { FetchModel } from "./model.js";
import { currentSession, signIn, signOut } from "./session.js";
import { Sharing } from "./share.js";
import { Partners } from "./partners.js";
import { PeopleAdmin } from "./people.js";
import { LIBRARY, Sidebar } from "./sidebar.js";
import { showError, showToast } from "./toast.js";
import { Uploader } from "./upload.js";

const ERROR_TOAST_INTERVAL_MS = 5000;
/** How long typing pauses before the search runs. */
const SEARCH_DELAY_MS = 200;
const BOOT_RETRY_MS = 3000;

const $ = (id) => document.getElementById(id);
const model = new FetchModel();
const live = new LiveConnection(model, { onError: (reason) => showToast(`Live updates: ${reason}`) });
const grid = new Grid($("grid"), $("date-label"), model, { onOpen: (index) => detail.open(index), onToggleFavorite: toggleFavorite });
const sidebar = new Sidebar($("sidebar"), { onSelect: select });
const detail = new DetailView($("detail"), {
  model,
  grid,
  albums: () => sidebar.albums(),
  onAlbumsChanged: () => sidebar.refreshAlbums(),
  toggleFavorite,
  afterChange,
  canUseAlbums: () => session !== null && session.authorizationStatus !== "limited",
});
const sharing = new Sharing({
  button: $("share-button"),
  panel: $("share"),
  newAlbum: $("new-shared-album"),
  onAlbumsChanged: () => sidebar.refreshAlbums(),
});
const partners = new Partners($("nav-partners-section"), {
  onSelect: (button, selection) => sidebar.select(button, selection),
  // The Library shows a partner's photos now, or no longer: fetch it again if it is shown.
  onTimelineChanged: () => {
    if ($("sidebar").querySelector("[data-nav=library]").getAttribute("aria-current")) select(LIBRARY);
  },
});
const peopleAdmin = new PeopleAdmin({ button: $("people-button"), panel: $("people") });
const uploader = new Uploader({
  panel: $("uploads"),
  overlay: $("drop-overlay"),
  input: $("file-input"),
  button: $("upload-button"),
  onUploaded: () => afterChange(),
});

/** @type {import("./session.js").Session|null} */
let session = null;
let signingIn = false;
let lastErrorToast = 0;
/** What the sidebar shows (the grid goes back to it when the search box is emptied). */
let selected = LIBRARY;
let searchTimer = 0;

/**
 * Toggles the favorite state of an asset: shown at once, reverted if the server refuses.
 * The live update that follows confirms it.
 * @param {object} asset
 * @param {number} index
 */
function toggleFavorite(asset, index) {
  const value = !asset.isFavorite;
  model.patch(asset.id, { isFavorite: value }, index);
  performChanges([{ op: "favorite", assets: [asset.id], value }]).then(
    () => afterChange(),
    (error) => {
      model.patch(asset.id, { isFavorite: !value }, index);
      showError(value ? "Could not add to Favorites" : "Could not remove from Favorites", error);
    },
  );
}

/** After a change of ours: without live updates, refetch what is visible. */
function afterChange() {
  if (!live.connected && model.spec && model.known) model.reset(model.count); // pages answer the new count
}

/**
 * Shows a collection (or the library) in the grid and subscribes it.
 * @param {import("./sidebar.js").Selection} selection
 */
function select(selection) {
  selected = selection;
  $("search").value = "";
  detail.close();
  $("fetch-title").textContent = selection.title === LIBRARY.title ? "" : selection.title;
  model.setFetch(selection.spec);
  grid.scrollToTop();
  live.setFetch(selection.spec);
  sharing.setSelection(selection);
}

/**
 * Shows what the search box's text finds (`/api/search` through the fetch's `search`), live
 * like any fetch; an empty box goes back to the sidebar's selection.
 */
function search() {
  const text = $("search").value.trim();
  if (!text) {
    const current = selected;
    select(current);
    return;
  }
  detail.close();
  $("fetch-title").textContent = `Search: ${text}`;
  const spec = { sort: null, predicate: null, collection: null, partner: null, search: text };
  model.setFetch(spec);
  grid.scrollToTop();
  live.setFetch(spec);
}

function updateCount() {
  const count = $("count");
  const text = model.known ? String(model.count) : "";
  if (count.textContent !== text) count.textContent = text;
  $("count-unit").textContent = model.count === 1 ? "item" : "items";
}

/**
 * Shows the app for a session.
 * @param {import("./session.js").Session} current
 */
function start(current) {
  session = current;
  const body = document.body;
  body.dataset.access = current.accessLevel;
  body.dataset.authorization = current.authorizationStatus;
  // A shared link's visitor only looks: no uploads, stars, albums or sign-out.
  if (current.link) body.dataset.link = "1";
  $("user-name").textContent = current.name;
  $("signout").hidden = (current.name === "open" && current.accessLevel === "readWrite") || !!current.link;
  $("app").hidden = false;
  sharing.setSession(current);
  peopleAdmin.setSession(current);
  uploader.setEnabled(!current.link);
  if (current.accessLevel === "addOnly") {
    body.dataset.ready = "1"; // nothing to load: only the drop zone
    return;
  }
  const limited = current.authorizationStatus === "limited";
  sidebar.load({ limited });
  if (!limited) {
    partners.load(current);
    // Albums and moments made elsewhere (another page, `photos import`) appear in the sidebar.
    live.watchCollections("albums", "album", () => sidebar.refreshAlbums());
    live.watchCollections("moments", "moment", () => sidebar.reloadMoments());
  }
  const library = $("sidebar").querySelector("[data-nav=library]");
  library.setAttribute("aria-current", "page");
  $("fetch-title").textContent = "";
  model.setFetch(LIBRARY.spec);
  live.start(LIBRARY.spec);
}

/**
 * A request answered 401: stop everything and ask for a token again.
 * @param {string} message
 */
function signedOut(message) {
  if (signingIn) return;
  signingIn = true;
  const wasStarted = session !== null;
  live.stop();
  detail.close();
  uploader.setEnabled(false);
  $("app").hidden = true;
  delete document.body.dataset.ready;
  session = null;
  signIn(wasStarted ? message : "").then((current) => {
    signingIn = false;
    // A second start would duplicate listeners and lists: begin from a clean page.
    if (wasStarted) location.reload();
    else start(current);
  });
}

async function boot() {
  let current;
  try {
    current = await currentSession();
  } catch (error) {
    showError("Cannot reach the server", error);
    setTimeout(boot, BOOT_RETRY_MS);
    return;
  }
  if (current) start(current);
  else signedOut("");
}

onUnauthorized(() => signedOut("Your session ended: sign in again."));
model.addEventListener("update", updateCount);
model.addEventListener("error", (event) => {
  const now = performance.now();
  if (now - lastErrorToast < ERROR_TOAST_INTERVAL_MS) return;
  lastErrorToast = now;
  showError("Could not load photos", event.detail);
});
$("search").addEventListener("input", () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(search, SEARCH_DELAY_MS);
});
grid.addEventListener("viewport", (event) => live.preheat(event.detail));
grid.addEventListener("ready", () => {
  document.body.dataset.ready = "1";
});
$("signout").addEventListener("click", async () => {
  try {
    await signOut();
  } catch (error) {
    showError("Could not sign out", error);
    return;
  }
  live.stop();
  location.reload();
});
boot();
