// Toast messages in #toast (errors, and confirmations with an Undo action).

const MAX_TOASTS = 4;

/**
 * Shows a short message at the bottom of the page.
 * @param {string} message
 * @param {{kind?: "error"|"info", timeout?: number, action?: {label: string, run: () => void}}} [options]
 * @returns {() => void} Dismisses the toast.
 */
export function showToast(message, options = {}) {
  const container = document.getElementById("toast");
  const toast = document.createElement("div");
  toast.className = `toast ${options.kind === "info" ? "info" : "error"}`;
  toast.setAttribute("role", options.kind === "info" ? "status" : "alert");
  const text = document.createElement("span");
  text.textContent = message;
  toast.append(text);

  let timer = 0;
  const dismiss = () => {
    clearTimeout(timer);
    toast.remove();
  };
  if (options.action) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = options.action.label;
    button.addEventListener("click", () => {
      dismiss();
      options.action.run();
    });
    toast.append(button);
  }
  const close = document.createElement("button");
  close.type = "button";
  close.className = "toast-close";
  close.setAttribute("aria-label", "Dismiss");
  close.textContent = "×";
  close.addEventListener("click", dismiss);
  toast.append(close);

  container.append(toast);
  while (container.children.length > MAX_TOASTS) container.firstElementChild.remove();
  timer = setTimeout(dismiss, options.timeout ?? (options.action ? 8000 : 6000));
  return dismiss;
}

/**
 * Shows an error (ApiError or any Error) as a toast, prefixed by what failed.
 * @param {string} what e.g. "Could not favorite"
 * @param {unknown} error
 */
export function showError(what, error) {
  if (error && typeof error === "object" && error.status === 401) return; // the sign-in form says it
  const reason = error && typeof error === "object" && "message" in error ? String(error.message) : String(error);
  showToast(reason ? `${what}: ${reason}` : what, { kind: "error" });
}
