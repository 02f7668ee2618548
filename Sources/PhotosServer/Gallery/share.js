// Sharing, for the people of a library: a new shared album (the albums section's form), and
// the "Share…" panel of a shared album: its members, and sharing it with another person as a
// viewer or a contributor. The server decides who may (only its owner shares it).

import { performChanges, request } from "./api.js";
import { button, note, onSubmit, option } from "./dom.js";
import { SHARED_ALBUM } from "./sidebar.js";
import { showError, showToast } from "./toast.js";

/** The sharing controls. */
export class Sharing {
  /**
   * @param {{button: HTMLButtonElement, panel: HTMLElement, newAlbum: HTMLFormElement, onAlbumsChanged: () => void}} parts
   */
  constructor(parts) {
    this.button = parts.button;
    this.panel = parts.panel;
    this.newAlbum = parts.newAlbum;
    this.onAlbumsChanged = parts.onAlbumsChanged;
    this.members = parts.panel.querySelector("#share-members");
    this.links = parts.panel.querySelector("#share-link-list");
    this.linkURL = parts.panel.querySelector("#share-link-url");
    /** @type {HTMLFormElement} */
    this.linkOptions = parts.panel.querySelector("#link-options");
    parts.panel.querySelector("#make-link").addEventListener("click", () => this.makeLink());
    this.form = parts.panel.querySelector("#share-form");
    /** @type {{identifier: string, name: string}|null} */
    this.person = null;
    /** Whether the client may make links and share (read-write, not a link's visitor). */
    this.mayShare = false;
    /** @type {{id: string, title: string, shared: boolean}|null} */
    this.album = null;
    this.button.addEventListener("click", () => (this.panel.hidden ? this.open() : this.close()));
    this.panel.querySelector(".share-close").addEventListener("click", () => this.close());
    onSubmit(this.form, () => this.share());
    onSubmit(this.newAlbum, () => this.create());
  }

  /**
   * The signed-in client: sharing is for people.
   * @param {import("./session.js").Session} session
   */
  setSession(session) {
    this.person = session.person || null;
    this.mayShare = session.level === "read-write" && !session.link;
    this.newAlbum.hidden = !this.person;
  }

  /**
   * The selection shown: the Share button appears for a shared album.
   * @param {import("./sidebar.js").Selection} selection
   */
  setSelection(selection) {
    const collection = selection.collection;
    this.album =
      collection && collection.kind === "album"
        ? { id: collection.id, title: selection.title, shared: collection.subtype === SHARED_ALBUM }
        : null;
    this.button.hidden = !(this.mayShare && this.album);
    this.close();
  }

  close() {
    this.panel.hidden = true;
  }

  async open() {
    if (!this.album) return;
    this.panel.hidden = false;
    this.linkURL.hidden = true;
    this.loadLinks();
    const sharing = this.album.shared && this.person;
    this.members.hidden = !sharing;
    this.form.hidden = !sharing;
    this.panel.querySelector("#share-title").textContent = sharing ? "Shared with" : "Share";
    if (!sharing) return;
    this.members.replaceChildren(note("Loading…"));
    try {
      const [people, members] = await Promise.all([
        request("/api/people"),
        request(`/api/collections/${encodeURIComponent(this.album.id)}/members`),
      ]);
      this.showMembers(members.members || []);
      const select = this.form.elements.namedItem("person");
      const others = (people.people || []).filter((person) => person.identifier !== this.person.identifier);
      select.replaceChildren(...others.map((person) => option(person.identifier, person.name)));
      this.form.hidden = others.length === 0;
    } catch (error) {
      this.members.replaceChildren(note("Could not load the members"));
      showError("Could not load the album's members", error);
    }
  }

  /** @param {{person: {identifier: string, name: string}, role: string}[]} members */
  showMembers(members) {
    if (!members.length) {
      this.members.replaceChildren(note("Nobody yet"));
      return;
    }
    this.members.replaceChildren(
      ...members.map((member) => {
        const li = document.createElement("li");
        li.dataset.person = member.person.name;
        const name = document.createElement("span");
        name.textContent = member.person.name;
        const role = document.createElement("span");
        role.className = "note";
        role.textContent = member.role === "contributor" ? "may add photos" : "may view";
        li.append(name, role);
        return li;
      }),
    );
  }

  async share() {
    if (!this.album) return;
    const person = this.form.elements.namedItem("person").value;
    const role = this.form.elements.namedItem("role").value;
    if (!person) return;
    try {
      await performChanges([{ op: "shareAlbum", album: this.album.id, person, role }]);
      const members = await request(`/api/collections/${encodeURIComponent(this.album.id)}/members`);
      this.showMembers(members.members || []);
    } catch (error) {
      showError("Could not share the album", error);
    }
  }

  /** The album's public links, each with a Revoke button. */
  async loadLinks() {
    if (!this.album) return;
    const album = this.album.id;
    try {
      const answer = await request("/api/links");
      const links = (answer.links || []).filter((link) => (link.albumLocalIdentifier || "").startsWith(album));
      this.links.replaceChildren(
        ...links.map((link) => {
          const li = document.createElement("li");
          li.dataset.link = link.identifier;
          const title = document.createElement("span");
          const notes = [];
          if (link.hasPassword) notes.push("password");
          if (link.expirationDate) notes.push(`until ${new Date(link.expirationDate).toLocaleDateString()}`);
          if (link.allowsDownload) notes.push("downloads");
          title.textContent = notes.length ? `${link.title} (${notes.join(", ")})` : link.title;
          li.append(title, button("Revoke", () => this.revokeLink(link.identifier)));
          return li;
        }),
      );
      if (!links.length) this.links.replaceChildren(note("None"));
    } catch (error) {
      showError("Could not load the links", error);
    }
  }

  async makeLink() {
    if (!this.album) return;
    try {
      const options = this.linkOptions.elements;
      /** @type {{album: string, password?: string, expirationDate?: string, allowsDownload: boolean}} */
      const body = { album: this.album.id, allowsDownload: options.namedItem("download").checked };
      const password = options.namedItem("password").value;
      if (password) body.password = password;
      const days = Number(options.namedItem("expires").value);
      if (days) body.expirationDate = new Date(Date.now() + days * 86400e3).toISOString().replace(/\.\d+Z$/, "Z");
      const made = await request("/api/links", { method: "POST", body });
      this.linkOptions.reset();
      this.linkURL.value = new URL(made.url, location.href).href;
      this.linkURL.hidden = false;
      this.linkURL.select();
      this.loadLinks();
    } catch (error) {
      showError("Could not make a link", error);
    }
  }

  /** @param {string} identifier */
  async revokeLink(identifier) {
    try {
      await request(`/api/links/${encodeURIComponent(identifier)}`, { method: "DELETE" });
      this.linkURL.hidden = true;
      this.loadLinks();
    } catch (error) {
      showError("Could not revoke the link", error);
    }
  }

  async create() {
    const input = this.newAlbum.elements.namedItem("title");
    const title = input.value.trim();
    if (!title) return;
    try {
      await performChanges([{ op: "createSharedAlbum", title }]);
      input.value = "";
      showToast(`Made the shared album “${title}”`);
      this.onAlbumsChanged();
    } catch (error) {
      showError("Could not make the shared album", error);
    }
  }
}
