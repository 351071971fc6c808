// @ts-check
// The application's one way to the server: the same JSON API as everyone else, with the session's CSRF token on writes.
import { t } from "./Words.js"

const root = document.getElementById("root")
export const base = root?.dataset.base ?? ""
let csrf = ""

/** @param {string} token */
export const setCsrf = (token) => {
  csrf = token
}

/** An API failure, with the server's `{error}` message. */
export class ApiError extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message)
    this.status = status
  }
}

/**
 * Calls `path` (under the mount prefix): JSON in (or a FormData upload) and out; throws ApiError with the server's
 * message.
 * The answer's type is the caller's to state (from `Types.js`): the server's Schemas define it.
 * @param {"GET" | "POST" | "PATCH" | "PUT" | "DELETE"} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export const call = async (method, path, body) => {
  /** @type {Record<string, string>} */
  const headers = { accept: "application/json" }
  if (method !== "GET") headers["x-csrf-token"] = csrf
  // A FormData body (an upload) goes as multipart, its type and boundary set by the browser.
  const multipart = body instanceof FormData
  if (body !== undefined && !multipart) headers["content-type"] = "application/json"
  /** @type {Response} */
  let response
  try {
    response = await fetch(`${base}${path}`, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : multipart ? body : JSON.stringify(body)
    })
  } catch {
    // No answer at all (offline, the server down): the browser's own message says little.
    throw new ApiError(0, t("shell.networkFailed"))
  }
  if (response.status === 401 && path !== "/app/session") {
    location.assign(`${base}/app/sign-in?next=${encodeURIComponent(location.pathname.slice(base.length))}`)
    throw new ApiError(401, t("shell.signedOut"))
  }
  if (response.status === 204) return undefined
  const text = await response.text()
  const data =
    text === ""
      ? undefined
      : (() => {
          try {
            return JSON.parse(text)
          } catch {
            return text
          }
        })()
  if (!response.ok)
    throw new ApiError(response.status, data?.error ?? t("shell.httpFailed", { status: String(response.status) }))
  return data
}

export const api = {
  /** @param {string} path */
  get: (path) => call("GET", `/api${path}`),
  /** @param {string} path @param {unknown} [body] */
  post: (path, body) => call("POST", `/api${path}`, body),
  /** @param {string} path @param {unknown} body */
  patch: (path, body) => call("PATCH", `/api${path}`, body),
  /** @param {string} path @param {unknown} body */
  put: (path, body) => call("PUT", `/api${path}`, body),
  /** @param {string} path */
  del: (path) => call("DELETE", `/api${path}`)
}

/** The message of a failure (an ApiError carries the server's). @param {unknown} error */
export const messageOf = (error) => (error instanceof Error ? error.message : String(error))

/** Builds a query string from the non-empty entries. @param {Record<string, unknown>} params */
export const query = (params) => {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value))
  const text = search.toString()
  return text === "" ? "" : `?${text}`
}

/**
 * Opens the workspace's live event stream (the session cookie authenticates it); reconnects with back-off.
 * @param {number | undefined} formId
 * @param {(event: import("./Types.js").LiveEvent) => void} onEvent
 */
export const events = (formId, onEvent) => {
  /** @type {WebSocket | undefined} */
  let socket
  let stopped = false
  let delay = 1000
  const open = () => {
    const url = new URL(`${base}/api/events${formId === undefined ? "" : `?formId=${formId}`}`, location.href)
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:"
    socket = new WebSocket(url, ["qforms.v1"])
    socket.onopen = () => {
      delay = 1000
    }
    socket.onmessage = (message) => {
      try {
        onEvent(JSON.parse(message.data))
      } catch {
        /* not ours */
      }
    }
    // 4401: the session ended (signed out, expired, removed from the workspace): reconnecting cannot help.
    socket.onclose = (event) => {
      if (!stopped && event.code !== 4401) setTimeout(open, (delay = Math.min(delay * 2, 30000)))
    }
  }
  open()
  return () => {
    stopped = true
    socket?.close()
  }
}

/** @param {string | null | undefined} iso */
export const formatDate = (iso) => (iso ? new Date(iso).toLocaleString() : "")

/** Moves to an application path without a reload. @param {string} path */
export const navigate = (path) => {
  history.pushState(null, "", `${base}${path}`)
  dispatchEvent(new Event("qforms:navigate"))
}

/** The public address of a form. @param {string} publicId */
export const publicUrl = (publicId) => new URL(`${base}/f/${publicId}`, location.href).href

/** Copies text; answers whether it worked (clipboard needs a secure context). @param {string} text */
export const copy = async (text) => {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    return false
  }
}

/** @typedef {import("./Types.js").ShellData} ShellData */

/** What the page says about this server (`#qforms-shell`): question types with their options, whether e-mail is on. */
export const shell = /** @type {ShellData} */ (
  JSON.parse(document.getElementById("qforms-shell")?.textContent ?? "null") ?? {
    fieldTypes: [],
    mail: false,
    languages: [{ tag: "en", name: "English" }]
  }
)
