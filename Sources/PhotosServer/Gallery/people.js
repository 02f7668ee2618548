// The administrators' People panel: everyone who signs in to the library, with a new
// password, administration given or taken and removal for each, and a form that adds a person.
// The server decides (only administrators may; the owner can't be removed).

import { request } from "./api.js";
import { button, note, onSubmit, option } from "./dom.js";
import { showError, showToast } from "./toast.js";

/**
 * @typedef {{identifier: string, name: string, isAdmin: boolean, isOwner: boolean}} Person
 */

/** The People panel and its button. */
export class PeopleAdmin {
  /** @param {{button: HTMLButtonElement, panel: HTMLElement}} parts */
  constructor(parts) {
    this.button = parts.button;
    this.panel = parts.panel;
    this.list = parts.panel.querySelector("#people-list");
    /** @type {HTMLFormElement} */
    this.addForm = parts.panel.querySelector("#person-add");
    /** @type {HTMLFormElement} */
    this.passwordForm = parts.panel.querySelector("#person-password");
    this.button.addEventListener("click", () => (this.panel.hidden ? this.open() : this.close()));
    this.panel.querySelector(".people-close").addEventListener("click", () => this.close());
    onSubmit(this.addForm, () => this.add());
    onSubmit(this.passwordForm, () => this.setPassword());
  }

  /**
   * Shown to administrators only.
   * @param {import("./session.js").Session} session
   */
  setSession(session) {
    this.me = session.person || null;
    this.button.hidden = !(this.me && this.me.isAdmin && !session.link && session.accessLevel === "readWrite");
  }

  close() {
    this.panel.hidden = true;
  }

  async open() {
    this.panel.hidden = false;
    await this.load();
  }

  async load() {
    try {
      const answer = await request("/api/people");
      /** @type {Person[]} */
      const people = answer.people || [];
      this.list.replaceChildren(...people.map((person) => this.row(person)));
      if (!people.length) this.list.replaceChildren(note("Nobody"));
      const select = this.passwordForm.elements.namedItem("person");
      select.replaceChildren(...people.map((person) => option(person.identifier, person.name)));
    } catch (error) {
      showError("Could not load the people", error);
    }
  }

  /**
   * One person: their name and role, whether they administer, and removal (two clicks).
   * @param {Person} person
   */
  row(person) {
    const li = document.createElement("li");
    li.dataset.person = person.name;
    const name = document.createElement("span");
    name.textContent = person.isOwner ? `${person.name} (owner)` : person.name;
    const admin = document.createElement("label");
    admin.className = "note";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.name = "admin";
    box.checked = person.isAdmin;
    box.disabled = person.isOwner;
    box.addEventListener("change", () => this.change(person, { isAdmin: box.checked }, () => (box.checked = !box.checked)));
    admin.append(box, " admin");
    const remove = button("Remove", () => {
      if (remove.dataset.armed) this.remove(person);
      else {
        remove.dataset.armed = "1";
        remove.textContent = `Remove ${person.name}?`;
      }
    });
    remove.className = "remove";
    remove.hidden = person.isOwner;
    li.append(name, admin, remove);
    return li;
  }

  async add() {
    const fields = this.addForm.elements;
    const name = fields.namedItem("name").value.trim();
    const password = fields.namedItem("password").value;
    if (!name || !password) return;
    try {
      await request("/api/people", { method: "POST", body: { name, password, isAdmin: fields.namedItem("admin").checked } });
      this.addForm.reset();
      showToast(`Added ${name}`);
      await this.load();
    } catch (error) {
      showError(`Could not add ${name}`, error);
    }
  }

  async setPassword() {
    const fields = this.passwordForm.elements;
    const person = fields.namedItem("person").value;
    const password = fields.namedItem("password").value;
    if (!person || !password) return;
    try {
      await request(`/api/people/${encodeURIComponent(person)}`, { method: "PATCH", body: { password } });
      this.passwordForm.reset();
      showToast("Password set; their sessions ended");
    } catch (error) {
      showError("Could not set the password", error);
    }
  }

  /**
   * @param {Person} person
   * @param {{isAdmin?: boolean}} change
   * @param {() => void} undo
   */
  async change(person, change, undo) {
    try {
      await request(`/api/people/${encodeURIComponent(person.identifier)}`, { method: "PATCH", body: change });
    } catch (error) {
      undo();
      showError(`Could not change ${person.name}`, error);
    }
  }

  /** @param {Person} person */
  async remove(person) {
    try {
      await request(`/api/people/${encodeURIComponent(person.identifier)}`, { method: "DELETE" });
      showToast(`Removed ${person.name}`);
    } catch (error) {
      showError(`Could not remove ${person.name}`, error);
    }
    await this.load();
  }
}
