// Sign-in: session probing, the #signin form, sign-out.

import { ApiError, request } from "./api.js";

/**
 * @typedef {{name: string, accessLevel: "readWrite"|"addOnly", authorizationStatus: "authorized"|"limited"}} Session
 */

/**
 * Asks the server who we are.
 * @returns {Promise<Session|null>} null when not signed in (401).
 * @throws {ApiError} For other failures (server down...).
 */
export async function currentSession() {
  try {
    return await request("/api/session", { quiet401: true });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/**
 * Signs out (the server forgets the session cookie).
 * @returns {Promise<void>}
 */
export async function signOut() {
  try {
    await request("/api/session", { method: "DELETE", quiet401: true });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) throw error;
  }
}

/**
 * Shows the sign-in form and resolves with the session once a token is accepted.
 * @param {string} [message] Shown above the form (e.g. "Your session ended").
 * @returns {Promise<Session>}
 */
export function signIn(message = "") {
  const form = /** @type {HTMLFormElement} */ (document.getElementById("signin"));
  const input = /** @type {HTMLInputElement} */ (form.elements.namedItem("token"));
  const error = form.querySelector(".error");
  const button = form.querySelector("button[type=submit]");
  error.textContent = message;
  form.hidden = false;
  input.value = "";
  input.focus();

  return new Promise((resolve) => {
    const onSubmit = async (event) => {
      event.preventDefault();
      const token = input.value.trim();
      if (!token) return;
      button.disabled = true;
      error.textContent = "";
      try {
        await request("/api/session", { method: "POST", body: { token }, quiet401: true });
        const session = await currentSession();
        if (!session) throw new ApiError(401, "The session cookie was not kept (cookies blocked?)");
        form.removeEventListener("submit", onSubmit);
        form.hidden = true;
        input.value = "";
        resolve(session);
      } catch (failure) {
        error.textContent = failure instanceof ApiError && failure.status === 401
          ? "This token is not valid."
          : `Could not sign in: ${failure.message}`;
        input.select();
      } finally {
        button.disabled = false;
      }
    };
    form.addEventListener("submit", onSubmit);
  });
}
