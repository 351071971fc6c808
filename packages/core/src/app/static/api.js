// The application's one way to the server: the same JSON API as everyone else, with the session's CSRF token on writes.
const root = document.getElementById("root")
export const base = root?.dataset.base ?? ""
let csrf = ""

export const setCsrf = (token) => { csrf = token }

/** An API failure, with the server's `{error}` message. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message)
    this.status = status
  }
}

/** Calls `path` (under the mount prefix): JSON in and out; throws ApiError with the server's message. */
export const call = async (method, path, body) => {
  const headers = { accept: "application/json" }
  if (method !== "GET") headers["x-csrf-token"] = csrf
  if (body !== undefined) headers["content-type"] = "application/json"
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  if (response.status === 401 && path !== "/app/session") {
    location.assign(`${base}/app/sign-in?next=${encodeURIComponent(location.pathname.slice(base.length))}`)
    throw new ApiError(401, "signed out")
  }
  if (response.status === 204) return undefined
  const text = await response.text()
  const data = text === "" ? undefined : (() => { try { return JSON.parse(text) } catch { return text } })()
  if (!response.ok) throw new ApiError(response.status, data?.error ?? `HTTP ${response.status}`)
  return data
}

export const api = {
  get: (path) => call("GET", `/api${path}`),
  post: (path, body) => call("POST", `/api${path}`, body),
  patch: (path, body) => call("PATCH", `/api${path}`, body),
  put: (path, body) => call("PUT", `/api${path}`, body),
  del: (path) => call("DELETE", `/api${path}`)
}

/** Builds a query string from the non-empty entries. */
export const query = (params) => {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== "") search.set(key, String(value))
  const text = search.toString()
  return text === "" ? "" : `?${text}`
}

/** Opens the workspace's live event stream (the session cookie authenticates it); reconnects with back-off. */
export const events = (formId, onEvent) => {
  let socket
  let stopped = false
  let delay = 1000
  const open = () => {
    const url = new URL(`${base}/api/events${formId === undefined ? "" : `?formId=${formId}`}`, location.href)
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:"
    socket = new WebSocket(url, ["qforms.v1"])
    socket.onopen = () => { delay = 1000 }
    socket.onmessage = (message) => { try { onEvent(JSON.parse(message.data)) } catch { /* not ours */ } }
    // 4401: the session ended (signed out, expired, removed from the workspace): reconnecting cannot help.
    socket.onclose = (event) => { if (!stopped && event.code !== 4401) setTimeout(open, delay = Math.min(delay * 2, 30000)) }
  }
  open()
  return () => { stopped = true; socket?.close() }
}

export const formatDate = (iso) => iso ? new Date(iso).toLocaleString() : ""

/** Moves to an application path without a reload. */
export const navigate = (path) => {
  history.pushState(null, "", `${base}${path}`)
  dispatchEvent(new Event("qforms:navigate"))
}

/** The public address of a form. */
export const publicUrl = (publicId) => new URL(`${base}/f/${publicId}`, location.href).href

/** Copies text; answers whether it worked (clipboard needs a secure context). */
export const copy = async (text) => {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    return false
  }
}

let operations
/** Whether this server has an API operation (from its OpenAPI document), e.g. `has("post", "/responses/{id}/emails")`. */
export const has = async (method, path) => {
  operations ??= fetch(`${base}/api/openapi.json`).then((r) => r.json()).then((doc) => {
    const set = new Set()
    for (const [p, item] of Object.entries(doc.paths ?? {})) for (const m of Object.keys(item)) set.add(`${m} ${p.replace(/\{[^}]*\}/g, "{}")}`)
    return set
  }).catch(() => new Set())
  return (await operations).has(`${method} /api${path.replace(/\{[^}]*\}/g, "{}")}`)
}
