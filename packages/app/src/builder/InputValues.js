// @ts-check
// What the builder's inputs hold and what the API takes: a number or nothing, an instant as a datetime-local input
// shows it. Pure.

/**
 * An instant (ISO 8601) as a datetime-local input shows it, in the browser's own time zone.
 * @param {string | undefined} iso
 */
export const localInput = (iso) => {
  if (iso === undefined) return ""
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) return ""
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)
}

/** @param {string} text */
export const numberOrUndefined = (text) => (text === "" ? undefined : Number(text))
