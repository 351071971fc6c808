// @ts-check
// What a key press does under the inbox's and the case page's shortcuts, and where j and k go: the next row of a
// table, the next case of the list the inbox last showed. Pure (Shortcuts.js reads the page and the session's
// storage).

/**
 * What a key press does: nothing (with Ctrl, Alt or Meta held, already handled, or typed into a field), the help
 * panel (`?`), or the shortcut of its key (undefined when none has it).
 * @template {{ key: string }} S
 * @param {{ key: string, ctrlKey: boolean, altKey: boolean, metaKey: boolean, defaultPrevented: boolean }} event
 * @param {boolean} typing whether what has the focus takes the key (a text field, a list box, the help panel)
 * @param {ReadonlyArray<S>} shortcuts
 * @returns {"help" | S | undefined}
 */
export const pressed = (event, typing, shortcuts) => {
  if (event.ctrlKey || event.altKey || event.metaKey || event.defaultPrevented || typing) return undefined
  if (event.key === "?") return "help"
  return shortcuts.find((s) => s.key === event.key)
}

/**
 * The case after (`step` 1) or before (-1) `id` in a list of case ids (as stored: anything else is no list);
 * undefined at either end or when the case is not in it.
 * @param {unknown} ids
 * @param {number} id
 * @param {1 | -1} step
 * @returns {number | undefined}
 */
export const neighbourIn = (ids, id, step) => {
  if (!Array.isArray(ids)) return undefined
  const at = ids.indexOf(id)
  const next = at === -1 ? undefined : ids[at + step]
  return typeof next === "number" ? next : undefined
}

/**
 * The row j or k moves to among `count` rows: the next (1) or previous (-1) of the one at `at`, kept inside the
 * table; the first when none has the focus (`at` -1).
 * @param {number} count
 * @param {number} at
 * @param {1 | -1} step
 */
export const nextRow = (count, at, step) => (at === -1 ? 0 : Math.min(count - 1, Math.max(0, at + step)))
