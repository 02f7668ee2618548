// Sign-in: session probing, the #signin form, sign-out.

import { ApiError, request, setCsrfToken } from "./api.js";

/**
 * @typedef {{name: string, accessLevel: "readWrite"|"addOnly", authorizationStatus: "authorized"|"limited",
 *   person?: {identifier: string, name: string, isAdmin: boolean, isOwner: boolean}, csrfToken?: string}} Session
 */

/** Why the server last refused the session ("" when it didn't): a password link says so. */
let refusal = "";

/**
 * Asks the server who we are.
 * @returns {Promise<Session|null>} null when not signed in (401).
 * @throws {ApiError} For other failures (server down...).
 */
export async function currentSession() {
  try {
    const session = await request("/api/session", { quiet401: true });
    setCsrfToken(session && session.csrfToken);
    return session;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      refusal = error.reason || "";
      return null;
    }
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
  } finally {
    setCsrfToken("");
  }
}

/**
 * Shows the sign-in form and resolves with the session once a name and password, or a token,
 * is accepted.
 * @param {string} [message] Shown above the form (e.g. "Your session ended").
 * @returns {Promise<Session>}
 */
export function signIn(message = "") {
  const form = /** @type {HTMLFormElement} */ (document.getElementById("signin"));
  const input = /** @type {HTMLInputElement} */ (form.elements.namedItem("token"));
  const nameInput = /** @type {HTMLInputElement} */ (form.elements.namedItem("name"));
  const passwordInput = /** @type {HTMLInputElement} */ (form.elements.namedItem("password"));
  const error = form.querySelector(".error");
  const button = form.querySelector("button[type=submit]");
  error.textContent = message;
  // A link with a password (opened through /s/...): only its password is asked for.
  const forLink = refusal.includes("link needs its password");
  for (const id of ["signin-name", "token"]) {
    form.querySelector(`#${id}`).hidden = forLink;
    form.querySelector(`label[for=${id}]`).hidden = forLink;
  }
  form.querySelector(".hint").textContent = forLink
    ? "This shared link needs its password."
    : "Sign in with your name and password, or with an access token.";
  button.textContent = forLink ? "Open" : "Sign in";
  form.dataset.mode = forLink ? "link" : "person";
  form.hidden = false;
  input.value = "";
  passwordInput.value = "";
  (forLink ? passwordInput : nameInput).focus();

  return new Promise((resolve) => {
    const onSubmit = async (event) => {
      event.preventDefault();
      const token = input.value.trim();
      const name = nameInput.value.trim();
      const password = passwordInput.value;
      if (!token && !password) return;
      button.disabled = true;
      error.textContent = "";
      try {
        if (!token && !name) {
          // A password alone: a shared link's (the page was opened through /s/...).
          await request("/api/links/unlock", { method: "POST", body: { password }, quiet401: true });
        } else {
          await request("/api/session", { method: "POST", body: token ? { token } : { name, password }, quiet401: true });
        }
        const session = await currentSession();
        if (!session) throw new ApiError(401, "The session cookie was not kept (cookies blocked?)");
        form.removeEventListener("submit", onSubmit);
        form.hidden = true;
        input.value = "";
        passwordInput.value = "";
        resolve(session);
      } catch (failure) {
        error.textContent = failure instanceof ApiError && failure.status === 401
          ? (token ? "This token is not valid." : forLink ? "The password is wrong." : "The name or the password is wrong.")
          : failure instanceof ApiError && failure.status === 429
            ? failure.message
            : `Could not sign in: ${failure.message}`;
        (token ? input : passwordInput).select();
      } finally {
        button.disabled = false;
      }
    };
    form.addEventListener("submit", onSubmit);
  });
}
