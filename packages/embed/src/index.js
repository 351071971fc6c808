// @ts-check
/**
 * @qforms/embed: a qforms public form in any web page — inline (the frame follows its content's height), as a
 * popup (a modal dialog), a slider (a side panel) or behind a floating button — with hidden fields, pre-fill,
 * language and theme, and the page's events (`ready`, `page-changed`, `submitted`, `closed`). A plain ES module
 * without dependencies: qforms serves this very file at `{app_url}/embed.js`, and the package ships it too.
 *
 * The protocol (see the package's README): the frame's address carries the mode and theme in its fragment
 * (`#qf-embed=inline&qf-theme=dark`, never sent to the server). Once the frame has loaded, this script sends it
 * `{qforms: "hello", channel}` to the form's own origin; the page answers only a hello from its parent window, to
 * the hello's origin (which the page's `frame-ancestors` already limits), and from then on posts its messages to
 * that origin alone, each with the channel. This script takes a message only from that frame's window, from the
 * form's origin and with its channel. No message is ever posted to `*`. Every document the frame loads is greeted
 * (the page's answer to a full-page post, too): a later document's `ready` is passed on as `page-changed`, and
 * `submitted` once per response.
 *
 * @module
 */

/** @typedef {"inline" | "popup" | "slider"} Mode */
/** @typedef {"light" | "dark"} Theme */

/**
 * What a form is embedded with.
 *
 * @typedef {object} EmbedOptions
 * @property {string} form The form's public id (the `publicId` of `GET /api/forms/{id}`).
 * @property {string | URL} [host] Where qforms is served, mount prefix included (`https://forms.example.com/`).
 *   Default: where this module was loaded from, which is right when it is qforms' own `/embed.js`.
 * @property {Readonly<Record<string, string>>} [hidden] Values of the form's hidden fields, by name.
 * @property {Readonly<Record<string, string | ReadonlyArray<string>>>} [prefill] Answers given ahead, by question id
 *   (or `<id>.<part>` for a part of a contact, address, matrix or ranking); several values for several choices.
 * @property {string} [language] The language to show the form in (a BCP 47 tag the form is translated into).
 * @property {Theme} [theme] The built-in light or dark palette; a form (or workspace) theme of its own wins.
 * @property {string} [title] The frame's accessible name (default: "Form").
 * @property {(detail: EventDetail) => void} [onReady]
 * @property {(detail: EventDetail) => void} [onPageChanged]
 * @property {(detail: EventDetail) => void} [onSubmitted]
 * @property {(detail: EventDetail) => void} [onClosed]
 */

/**
 * What an event tells the host page.
 *
 * @typedef {object} EventDetail
 * @property {string} form The form's public id.
 * @property {string} [screen] The screen shown: `welcome`, `access`, `question`, `thanks` or `message`.
 * @property {string} [question] On a question's screen, the question's id (the first of a page of several).
 * @property {number} [step] On a question's screen, its place on the respondent's path (from 1).
 * @property {number} [steps] On a question's screen, how long the path is.
 * @property {number} [responseId] With `submitted` (and `page-changed` to `thanks`): the response's id in the API.
 */

/** @typedef {"ready" | "page-changed" | "submitted" | "closed"} EventName */

/**
 * An embedded form.
 *
 * @typedef {object} Embed
 * @property {HTMLIFrameElement} frame The form's frame.
 * @property {(name: EventName, listener: (detail: EventDetail) => void) => () => void} on Listens to an event;
 *   answers a function that stops listening.
 * @property {() => void} destroy Removes the frame (and the dialog or button) and stops listening.
 */

/**
 * A form in a popup or a slider.
 *
 * @typedef {Embed & { open: () => void, close: () => void, readonly isOpen: boolean, dialog: HTMLDialogElement }} Overlay
 */

/** The messages the page may post, as this script passes them on. */
const pageEvents = new Set(["ready", "page-changed", "submitted"])

/** The default host: the folder this module was loaded from (qforms serves it at `{app_url}/embed.js`). */
const defaultHost = () => new URL(".", import.meta.url)

/**
 * The form's page address for an embed: the query carries the hidden fields, pre-fill and language (as the page
 * reads them from any link), the fragment the embed's mode and theme (read by the page's script only).
 *
 * @param {EmbedOptions} options
 * @param {Mode} mode
 * @returns {URL}
 *
 * @example
 * ```js
 * formUrl({ form: "abc", host: "https://forms.example.com/", hidden: { ref: "news" }, language: "de" }, "inline")
 * // https://forms.example.com/f/abc?ref=news&lang=de#qf-embed=inline
 * ```
 */
export const formUrl = (options, mode) => {
  if (typeof options.form !== "string" || options.form === "") throw new TypeError("qforms embed: `form` is required")
  const host = new URL(String(options.host ?? defaultHost()))
  if (!host.pathname.endsWith("/")) host.pathname += "/"
  const url = new URL(`f/${encodeURIComponent(options.form)}`, host)
  for (const [name, value] of Object.entries(options.hidden ?? {})) url.searchParams.append(name, String(value))
  for (const [key, value] of Object.entries(options.prefill ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) url.searchParams.append(`prefill.${key}`, String(one))
  }
  if (options.language) url.searchParams.set("lang", options.language)
  const fragment = new URLSearchParams({ "qf-embed": mode })
  if (options.theme === "light" || options.theme === "dark") fragment.set("qf-theme", options.theme)
  url.hash = fragment.toString()
  return url
}

/**
 * Whether a message event is one of the page's to this embed: from the frame's window, from the form's origin,
 * with the channel. Exported for tests and for hosts that route messages themselves.
 *
 * @param {MessageEvent} event
 * @param {{ readonly source: unknown, readonly origin: string, readonly channel: string }} expected
 * @returns {event is MessageEvent<{ qforms: string, channel: string } & Record<string, unknown>>}
 */
export const isPageMessage = (event, expected) => {
  const data = event.data
  return (
    event.origin === expected.origin &&
    event.source === expected.source &&
    expected.source !== null &&
    typeof data === "object" &&
    data !== null &&
    data.channel === expected.channel &&
    typeof data.qforms === "string"
  )
}

/** A fresh channel id: 128 random bits, hex. */
const newChannel = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("")

/** The style of the embed's own elements, adopted by the document once (no inline `<style>`: a host's CSP holds). */
const css = `
.qforms-frame{display:block;width:100%;border:0;color-scheme:normal;background:transparent}
.qforms-inline{min-height:120px;transition:height .15s ease-out}
.qforms-dialog{padding:0;border:0;border-radius:12px;background:Canvas;color:CanvasText;box-shadow:0 10px 40px rgba(0,0,0,.35);overflow:visible}
.qforms-dialog::backdrop{background:rgba(0,0,0,.55)}
.qforms-popup{width:min(720px,calc(100vw - 2rem));max-height:calc(100vh - 2rem)}
.qforms-popup .qforms-frame{height:480px;max-height:calc(100vh - 2rem);border-radius:12px}
.qforms-slider{margin:0 0 0 auto;width:min(480px,100vw);height:100vh;max-height:100vh;border-radius:0}
.qforms-slider .qforms-frame{height:100%}
.qforms-close{position:absolute;top:-.75rem;inset-inline-end:-.75rem;width:2.25rem;height:2.25rem;border-radius:50%;border:2px solid CanvasText;background:Canvas;color:CanvasText;font:600 1.25rem/1 system-ui,sans-serif;cursor:pointer}
.qforms-slider .qforms-close{top:.5rem;inset-inline-end:auto;inset-inline-start:-2.75rem}
.qforms-edge{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
.qforms-close:focus-visible,.qforms-button:focus-visible{outline:3px solid Highlight;outline-offset:2px}
.qforms-button{position:fixed;bottom:1.25rem;inset-inline-end:1.25rem;z-index:2147483000;font:600 1rem/1.2 system-ui,sans-serif;padding:.8rem 1.2rem;border:0;border-radius:999px;background:#0b57d0;color:#fff;box-shadow:0 4px 16px rgba(0,0,0,.3);cursor:pointer}
`

/** @type {WeakSet<Document>} */
const styled = new WeakSet()
/** @param {Document} doc */
const adoptStyle = (doc) => {
  if (styled.has(doc)) return
  styled.add(doc)
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(css)
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet]
}

/**
 * A frame on the form's page and its half of the protocol.
 *
 * @param {EmbedOptions} options
 * @param {Mode} mode
 * @param {(height: number) => void} onHeight
 * @param {() => void} onCloseRequest
 */
const connect = (options, mode, onHeight, onCloseRequest) => {
  const url = formUrl(options, mode)
  const origin = url.origin
  const channel = newChannel()
  /** @type {Map<EventName, Set<(detail: EventDetail) => void>>} */
  const listeners = new Map()
  /** @param {EventName} name @param {EventDetail} detail */
  const emit = (name, detail) => {
    const own = {
      ready: options.onReady,
      "page-changed": options.onPageChanged,
      submitted: options.onSubmitted,
      closed: options.onClosed
    }[name]
    own?.(detail)
    for (const listener of listeners.get(name) ?? []) listener(detail)
  }
  const frame = document.createElement("iframe")
  frame.className = "qforms-frame"
  frame.title = options.title ?? "Form"
  frame.src = url.href
  let readied = false
  /** @type {Set<number>} the responses `submitted` has been emitted for */
  const told = new Set()
  /** @param {MessageEvent} event */
  const onMessage = (event) => {
    if (!isPageMessage(event, { source: frame.contentWindow, origin, channel })) return
    const { qforms: type, ...rest } = event.data
    if (type === "resize") {
      const height = Number(rest["height"])
      if (Number.isFinite(height) && height > 0) onHeight(Math.ceil(height))
      return
    }
    if (type === "close") return onCloseRequest()
    if (!pageEvents.has(type)) return
    /** @type {Record<string, string | number>} */
    const detail = { form: options.form }
    for (const key of ["screen", "question"]) if (typeof rest[key] === "string") detail[key] = rest[key]
    for (const key of ["step", "steps", "responseId"]) if (typeof rest[key] === "number") detail[key] = rest[key]
    /** @type {EventName} */
    let name = /** @type {EventName} */ (type)
    // A later document's handshake (the page after a full-page post) is a change of screen, not a second `ready`.
    if (name === "ready") {
      if (readied) name = "page-changed"
      readied = true
    }
    // One `submitted` per response, whichever document tells it.
    if (name === "submitted" && typeof detail["responseId"] === "number") {
      if (told.has(detail["responseId"])) return
      told.add(detail["responseId"])
    }
    emit(name, /** @type {EventDetail} */ (/** @type {unknown} */ (detail)))
  }
  window.addEventListener("message", onMessage)
  // Every document the frame loads (the page after a full post, too) is greeted; one of another origin never
  // gets the hello (the target origin is the form's).
  const hello = () => frame.contentWindow?.postMessage({ qforms: "hello", channel }, origin)
  frame.addEventListener("load", hello)
  return {
    frame,
    emit,
    /** @type {Embed["on"]} */
    on: (name, listener) => {
      const set = listeners.get(name) ?? new Set()
      set.add(listener)
      listeners.set(name, set)
      return () => set.delete(listener)
    },
    disconnect: () => {
      window.removeEventListener("message", onMessage)
      frame.removeEventListener("load", hello)
      listeners.clear()
    }
  }
}

/**
 * Embeds a form inline: a frame in `target` whose height follows the form's content as its screens change.
 *
 * @param {Element | string} target The element (or a selector of it) the frame goes into.
 * @param {EmbedOptions} options
 * @returns {Embed}
 *
 * @example
 * ```js
 * import { inline } from "https://forms.example.com/embed.js"
 * const form = inline("#contact", { form: "kx81mq", hidden: { ref: "pricing" } })
 * form.on("submitted", ({ responseId }) => console.log("response", responseId))
 * ```
 */
export const inline = (target, options) => {
  const parent = typeof target === "string" ? document.querySelector(target) : target
  if (!parent) throw new TypeError(`qforms embed: no element ${String(target)}`)
  adoptStyle(document)
  /** @type {ReturnType<typeof connect>} */
  const link = connect(
    options,
    "inline",
    (height) => {
      link.frame.style.height = `${height}px`
    },
    () => undefined
  )
  link.frame.classList.add("qforms-inline")
  parent.append(link.frame)
  return {
    frame: link.frame,
    on: link.on,
    destroy: () => {
      link.disconnect()
      link.frame.remove()
    }
  }
}

/**
 * A form in a modal dialog (`popup`) or a side panel (`slider`), made when first opened and kept (with the
 * respondent's progress) when closed. The dialog is modal: focus stays in it, the page behind is inert; Escape
 * (also pressed inside the form) and the close button close it, and `closed` follows.
 *
 * @param {"popup" | "slider"} mode
 * @param {EmbedOptions & { label?: string }} options
 * @returns {Overlay}
 */
const overlay = (mode, options) => {
  adoptStyle(document)
  const dialog = document.createElement("dialog")
  dialog.className = `qforms-dialog qforms-${mode}`
  dialog.setAttribute("aria-label", options.title ?? "Form")
  const close = document.createElement("button")
  close.type = "button"
  close.className = "qforms-close"
  close.setAttribute("aria-label", options.label ?? "Close")
  close.textContent = "×"
  /** @type {ReturnType<typeof connect> | undefined} */
  let link
  const shut = () => {
    if (dialog.open) dialog.close()
  }
  close.addEventListener("click", shut)
  // Escape on the host page: the dialog's own cancel, turned into a close that says so.
  dialog.addEventListener("cancel", (event) => {
    event.preventDefault()
    shut()
  })
  dialog.addEventListener("close", () => link?.emit("closed", { form: options.form }))
  /** @type {Map<EventName, Set<(detail: EventDetail) => void>>} */
  const early = new Map()
  const ensure = () => {
    if (link !== undefined) return link
    const made = connect(
      options,
      mode,
      (height) => {
        if (mode === "popup") made.frame.style.height = `${height}px`
      },
      shut
    )
    for (const [name, set] of early) for (const listener of set) made.on(name, listener)
    // A modal dialog makes the page behind inert, but Tab may still leave it for the browser's own controls:
    // an edge before and after wraps focus around (past the frame's last control to the close button, and
    // back from the close button to the frame).
    const edge = () => {
      const span = document.createElement("span")
      span.tabIndex = 0
      span.className = "qforms-edge"
      return span
    }
    const before = edge()
    const after = edge()
    before.addEventListener("focus", () => made.frame.focus())
    after.addEventListener("focus", () => close.focus())
    dialog.append(before, close, made.frame, after)
    link = made
    return made
  }
  document.body.append(dialog)
  return {
    get frame() {
      return ensure().frame
    },
    dialog,
    get isOpen() {
      return dialog.open
    },
    open: () => {
      const made = ensure()
      if (!dialog.open) dialog.showModal()
      made.frame.focus()
    },
    close: shut,
    on: (name, listener) => {
      if (link !== undefined) return link.on(name, listener)
      const set = early.get(name) ?? new Set()
      set.add(listener)
      early.set(name, set)
      return () => set.delete(listener)
    },
    destroy: () => {
      shut()
      link?.disconnect()
      dialog.remove()
    }
  }
}

/**
 * A form in a modal dialog over the page.
 *
 * @param {EmbedOptions & { label?: string }} options `label`: the close button's accessible name (default "Close").
 * @returns {Overlay}
 *
 * @example
 * ```js
 * const survey = popup({ form: "kx81mq", onClosed: () => console.log("closed") })
 * document.querySelector("#feedback").addEventListener("click", () => survey.open())
 * ```
 */
export const popup = (options) => overlay("popup", options)

/**
 * A form in a panel sliding in from the page's end side.
 *
 * @param {EmbedOptions & { label?: string }} options
 * @returns {Overlay}
 */
export const slider = (options) => overlay("slider", options)

/**
 * A floating button at the page's bottom corner that opens the form in a popup (or a slider).
 *
 * @param {EmbedOptions & { label?: string, text?: string, opens?: "popup" | "slider" }} options `text`: the button's
 *   words (default "Feedback").
 * @returns {Overlay & { button: HTMLButtonElement }}
 *
 * @example
 * ```js
 * button({ form: "kx81mq", text: "Talk to us", opens: "slider" })
 * ```
 */
export const button = (options) => {
  const inner = overlay(options.opens ?? "popup", options)
  const element = document.createElement("button")
  element.type = "button"
  element.className = "qforms-button"
  element.textContent = options.text ?? "Feedback"
  element.setAttribute("aria-haspopup", "dialog")
  element.addEventListener("click", () => inner.open())
  // Focus comes back to the button once the dialog closes (a modal dialog gives it back to its opener).
  document.body.append(element)
  return Object.assign(inner, {
    button: element,
    destroy: () => {
      inner.destroy()
      element.remove()
    }
  })
}

/** Attribute pairs (`a=1&b=2`) as a record. @param {string | null} text */
const pairs = (text) => {
  /** @type {Record<string, Array<string>>} */
  const out = {}
  for (const [k, v] of new URLSearchParams(text ?? "")) (out[k] ??= []).push(v)
  return out
}

/**
 * `<qforms-form public-id="kx81mq">`: the Web Component. Attributes: `public-id` (required), `host`, `mode`
 * (`inline`, the default; `popup` or `slider`: a button of its own, its text the element's content; `button`: the
 * floating button), `language`, `theme` (`light`/`dark`), `hidden-fields` and `prefill` (`name=value&…`), `title`,
 * `text`. It dispatches `ready`, `page-changed`, `submitted` and `closed` as `CustomEvent`s with the detail.
 */
const defineElement = () => {
  if (typeof customElements === "undefined" || customElements.get("qforms-form")) return
  class QformsForm extends HTMLElement {
    /** @type {Embed | undefined} */
    embed = undefined
    connectedCallback() {
      if (this.embed) return
      const form = this.getAttribute("public-id")
      if (!form) return
      const hidden = Object.fromEntries(
        Object.entries(pairs(this.getAttribute("hidden-fields"))).map(([k, v]) => [k, v.at(-1) ?? ""])
      )
      const theme = this.getAttribute("theme")
      /** @type {EmbedOptions & { text?: string }} */
      const options = {
        form,
        hidden,
        prefill: pairs(this.getAttribute("prefill")),
        ...(this.getAttribute("host") ? { host: /** @type {string} */ (this.getAttribute("host")) } : {}),
        ...(this.getAttribute("language") ? { language: /** @type {string} */ (this.getAttribute("language")) } : {}),
        ...(theme === "light" || theme === "dark" ? { theme } : {}),
        ...(this.getAttribute("title") ? { title: /** @type {string} */ (this.getAttribute("title")) } : {}),
        ...(this.getAttribute("text") ? { text: /** @type {string} */ (this.getAttribute("text")) } : {})
      }
      const mode = this.getAttribute("mode") ?? "inline"
      if (mode === "popup" || mode === "slider") {
        const opener = document.createElement("button")
        opener.type = "button"
        opener.setAttribute("aria-haspopup", "dialog")
        opener.append(
          ...(this.childNodes.length > 0 ? Array.from(this.childNodes) : [this.getAttribute("text") ?? "Open the form"])
        )
        const shown = overlay(mode, options)
        opener.addEventListener("click", () => shown.open())
        this.append(opener)
        this.embed = shown
      } else if (mode === "button") this.embed = button(options)
      else this.embed = inline(this, options)
      for (const name of /** @type {Array<EventName>} */ (["ready", "page-changed", "submitted", "closed"])) {
        this.embed.on(name, (detail) => this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true })))
      }
    }
    disconnectedCallback() {
      this.embed?.destroy()
      this.embed = undefined
    }
  }
  customElements.define("qforms-form", QformsForm)
}

defineElement()
