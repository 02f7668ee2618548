// Small DOM pieces the panels share: a note line in a list, a select's option, a form's submit,
// a plain button.

/**
 * A list item in the muted note style ("None", "Loading…").
 * @param {string} text
 */
export function note(text) {
  const li = document.createElement("li");
  li.className = "note";
  li.textContent = text;
  return li;
}

/**
 * @param {string} value
 * @param {string} text
 */
export function option(value, text) {
  const element = document.createElement("option");
  element.value = value;
  element.textContent = text;
  return element;
}

/**
 * Runs `action` when the form is submitted, instead of the browser's navigation.
 * @param {HTMLFormElement} form
 * @param {() => void} action
 */
export function onSubmit(form, action) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    action();
  });
}

/**
 * A plain button (not a form's submit) labelled `text` that runs `action` when clicked.
 * @param {string} text
 * @param {() => void} action
 */
export function button(text, action) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = text;
  element.addEventListener("click", action);
  return element;
}
