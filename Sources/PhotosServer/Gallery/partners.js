// Partner sharing, for the people of a library: the sidebar's Partners section lists whose
// photos are shared with you (each a view of its own, and whether your Library shows them),
// and with whom you share yours (with a Stop button), and shares yours with another person.

import { request } from "./api.js";
import { button, note, onSubmit, option } from "./dom.js";
import { showError, showToast } from "./toast.js";

const SORT = "-creationDate";

/**
 * @typedef {{identifier: string, name: string}} Person
 * @typedef {{owner: Person, partner: Person, sinceDate?: string, isInPartnersTimeline: boolean}} Share
 */

/** The Partners section of the sidebar. */
export class Partners {
  /**
   * @param {HTMLElement} section #nav-partners-section
   * @param {{onSelect: (button: HTMLButtonElement, selection: import("./sidebar.js").Selection) => void,
   *   onTimelineChanged: () => void}} actions
   */
  constructor(section, actions) {
    this.section = section;
    this.actions = actions;
    this.received = section.querySelector("#nav-partners");
    this.shared = section.querySelector("#my-partners");
    /** @type {HTMLFormElement} */
    this.form = section.querySelector("#partner-form");
    /** @type {Person|null} */
    this.person = null;
    onSubmit(this.form, () => this.share());
    // Someone may have started sharing with you meanwhile.
    window.addEventListener("focus", () => this.refresh());
  }

  /**
   * Shown to people only (not tokens of a library without people, not a link's visitors).
   * @param {import("./session.js").Session} session
   */
  load(session) {
    this.person = session.person && !session.link && session.accessLevel === "readWrite" ? session.person : null;
    this.section.hidden = !this.person;
    this.refresh();
  }

  async refresh() {
    if (!this.person) return;
    try {
      const [shares, people] = await Promise.all([request("/api/partners"), request("/api/people")]);
      this.showReceived(shares.received || []);
      this.showShared(shares.shared || []);
      const sharedWith = new Set((shares.shared || []).map((share) => share.partner.identifier));
      const select = this.form.elements.namedItem("person");
      const others = (people.people || []).filter(
        (person) => person.identifier !== this.person.identifier && !sharedWith.has(person.identifier),
      );
      select.replaceChildren(...others.map((person) => option(person.identifier, person.name)));
      this.form.hidden = others.length === 0;
    } catch (error) {
      showError("Could not load partner sharing", error);
    }
  }

  /** @param {Share[]} shares */
  showReceived(shares) {
    this.received.replaceChildren(
      ...shares.map((share) => {
        const li = document.createElement("li");
        li.dataset.partner = share.owner.name;
        const entry = document.createElement("button");
        entry.type = "button";
        entry.className = "nav-item";
        const name = document.createElement("span");
        name.className = "name";
        name.textContent = `${share.owner.name}’s photos`;
        entry.append(name);
        const selection = {
          title: name.textContent,
          spec: { sort: SORT, predicate: null, collection: null, partner: share.owner.identifier },
        };
        entry.addEventListener("click", () => this.actions.onSelect(entry, selection));
        const label = document.createElement("label");
        label.className = "note partner-timeline";
        const box = document.createElement("input");
        box.type = "checkbox";
        box.checked = share.isInPartnersTimeline;
        box.addEventListener("change", () => this.showInTimeline(share.owner, box));
        label.append(box, " in my Library");
        li.append(entry, label);
        return li;
      }),
    );
    if (!shares.length) this.received.replaceChildren(note("Nobody shares with you"));
  }

  /** @param {Share[]} shares */
  showShared(shares) {
    this.shared.replaceChildren(
      ...shares.map((share) => {
        const li = document.createElement("li");
        li.dataset.partner = share.partner.name;
        const text = document.createElement("span");
        text.className = "note";
        const since = share.sinceDate ? ` since ${new Date(share.sinceDate).toLocaleDateString()}` : "";
        text.textContent = `Yours shared with ${share.partner.name}${since}`;
        li.append(text, button("Stop", () => this.stop(share.partner)));
        return li;
      }),
    );
  }

  async share() {
    const person = this.form.elements.namedItem("person").value;
    if (!person) return;
    try {
      await request("/api/partners", { method: "POST", body: { person } });
      showToast("Your photos are shared");
      this.refresh();
    } catch (error) {
      showError("Could not share your photos", error);
    }
  }

  /** @param {Person} partner */
  async stop(partner) {
    try {
      await request(`/api/partners/${encodeURIComponent(partner.identifier)}`, { method: "DELETE" });
      this.refresh();
    } catch (error) {
      showError("Could not stop sharing", error);
    }
  }

  /**
   * @param {Person} owner
   * @param {HTMLInputElement} box
   */
  async showInTimeline(owner, box) {
    try {
      await request(`/api/partners/${encodeURIComponent(owner.identifier)}/timeline`, { method: "POST", body: { show: box.checked } });
      this.actions.onTimelineChanged();
    } catch (error) {
      box.checked = !box.checked;
      showError("Could not change your Library", error);
    }
  }
}
