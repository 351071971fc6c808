// @ts-check
// Keyboard shortcuts of the inbox and the case page (j/k, a, s, t, n, ? …): one key each, never while typing in a
// field, never with Ctrl, Alt or Meta (the browser's and the screen reader's own keys stay theirs), and a help panel
// listing them, opened with ? or its button. The inbox keeps the order of the rows it shows, so j and k on a case
// page go to the next and previous case of that list.
import { html } from "htm/preact"
import { useEffect, useRef } from "preact/hooks"
import { neighbourIn, nextRow, pressed } from "./ShortcutKeys.js"
import { t } from "./Words.js"

/** @typedef {{ key: string, label: string, run: () => boolean | void }} Shortcut a key, what it does (for the help panel), and how; `run` returning false leaves the key to the page */

const orderKey = "qforms.inbox.order"

/** Inputs that take no typed text: a key pressed on one is a shortcut. */
const untyped = new Set(["checkbox", "radio", "button", "submit", "reset", "image", "color", "file"])

/**
 * Whether a key press belongs to what has the focus: a text field, a list box, an editable text, or the help
 * panel itself (its own keys: Escape, Tab).
 * @param {EventTarget | null} target
 */
const typing = (target) =>
  target instanceof HTMLElement &&
  (target.isContentEditable ||
    target.tagName === "TEXTAREA" ||
    target.tagName === "SELECT" ||
    (target instanceof HTMLInputElement && !untyped.has(target.type)) ||
    target.closest("dialog") !== null)

/**
 * Runs the shortcut of a key pressed outside the fields, without Ctrl, Alt or Meta (Shift is part of `?`, which
 * calls `openHelp`).
 * @param {ReadonlyArray<Shortcut>} shortcuts
 * @param {() => void} openHelp
 */
export const useShortcuts = (shortcuts, openHelp) => {
  const current = useRef(shortcuts)
  current.current = shortcuts
  const help = useRef(openHelp)
  help.current = openHelp
  useEffect(() => {
    /** @param {KeyboardEvent} event */
    const onKey = (event) => {
      const action = pressed(event, typing(event.target), current.current)
      if (action === undefined) return
      if (action === "help") help.current()
      else if (action.run() === false) return
      event.preventDefault()
    }
    document.addEventListener("keydown", onKey)
    return () => document.removeEventListener("keydown", onKey)
  }, [])
}

/**
 * The help panel: a modal dialog listing the shortcuts, and the button that opens it. `open` is set by `?`.
 * @param {{ shortcuts: ReadonlyArray<Shortcut>, open: boolean, setOpen: (open: boolean) => void }} props
 */
export const ShortcutHelp = ({ shortcuts, open, setOpen }) => {
  const dialog = useRef(/** @type {HTMLDialogElement | null} */ (null))
  useEffect(() => {
    const element = dialog.current
    if (element === null) return
    if (open && !element.open) element.showModal()
    else if (!open && element.open) element.close()
  }, [open])
  return html`<button type="button" class="no-print" aria-keyshortcuts="Shift+?" onClick=${() => setOpen(true)}>${t("shortcuts.show")}</button>
    <dialog ref=${dialog} aria-labelledby="shortcuts-title" onClose=${() => setOpen(false)}>
      <h2 id="shortcuts-title">${t("shortcuts.title")}</h2>
      <dl class="shortcuts">
        ${shortcuts.map((s) => html`<div><dt><kbd>${s.key}</kbd></dt><dd>${s.label}</dd></div>`)}
        <div><dt><kbd>?</kbd></dt><dd>${t("shortcuts.help")}</dd></div>
      </dl>
      <form method="dialog"><button>${t("shortcuts.close")}</button></form>
    </dialog>`
}

/** Remembers the order of the cases the inbox shows, for j and k on a case page. @param {ReadonlyArray<number>} ids */
export const rememberOrder = (ids) => {
  try {
    sessionStorage.setItem(orderKey, JSON.stringify(ids))
  } catch {
    // Storage refused (private mode, full): j and k on a case page then do nothing.
  }
}

/**
 * The case after (`step` 1) or before (-1) `id` in the list the inbox last showed; undefined at either end or
 * when the case is not in it.
 * @param {number} id
 * @param {1 | -1} step
 */
export const neighbour = (id, step) => {
  try {
    return neighbourIn(JSON.parse(sessionStorage.getItem(orderKey) ?? "[]"), id, step)
  } catch {
    return undefined
  }
}

/**
 * The rows of a table, and the one holding the focus (-1: none).
 * @param {string} rows the rows' selector, e.g. `#cases tbody tr`
 */
export const focusedRow = (rows) => {
  const all = /** @type {HTMLTableRowElement[]} */ ([...document.querySelectorAll(rows)])
  const active = document.activeElement
  return { all, at: active instanceof Element ? all.findIndex((tr) => tr.contains(active)) : -1 }
}

/**
 * Moves the focus to the link of the next (1) or previous (-1) row, or of the first when none has it (j and k).
 * @param {string} rows the rows' selector
 * @param {string} link the selector of the row's link to focus
 * @param {1 | -1} step
 */
export const focusRow = (rows, link, step) => {
  const { all, at } = focusedRow(rows)
  const next = all[nextRow(all.length, at, step)]
  const target = next?.querySelector(link)
  if (target instanceof HTMLElement) target.focus()
  return next !== undefined
}

/** Ticks or unticks the checkbox of the row holding the focus (x); false without one. @param {string} rows */
export const toggleFocusedRow = (rows) => {
  const { all, at } = focusedRow(rows)
  const box = all[at]?.querySelector("input[type=checkbox]")
  if (!(box instanceof HTMLInputElement)) return false
  box.click()
  return true
}
