// @ts-check
// Which option editors a question gets, in the builder's one order, and which of them share a row: from the option
// keys its type takes (the server's Schemas, as the page tells them), never from the type's name. Pure.

/**
 * The option keys the builder has an editor for, in the screen's order, each with the line its editor is on. The
 * editors of a line of several keys share a row, even when the type takes one of them; but the bounds only when it
 * takes several (a rating's one bound stands alone).
 * @type {Readonly<Record<string, string>>}
 */
const lineOf = {
  choices: "choices",
  minSelections: "selections",
  maxSelections: "selections",
  randomize: "order",
  allowOther: "order",
  quotas: "quotas",
  points: "points",
  images: "images",
  top: "top",
  rows: "grid",
  columns: "grid",
  multiple: "perRow",
  minRows: "perRow",
  currency: "money",
  currencies: "money",
  min: "bounds",
  max: "bounds",
  step: "bounds",
  minLabel: "ends",
  maxLabel: "ends",
  parts: "parts",
  accept: "upload",
  maxSizeMb: "upload",
  help: "words",
  placeholder: "words"
}

/** The lines that are a row only when a type takes several of their keys. */
const rowOfSeveral = new Set(["bounds"])

/** The option keys edited in another key's editor: the Other choice's label with it, the optional parts with the parts. */
const within = ["otherLabel", "optionalParts"]

/** Every option key the builder has an editor for. */
export const editedKeys = [...Object.keys(lineOf), ...within]

/**
 * The lines of editors of a question whose type takes the option keys `taken`: the keys of each line it takes, in
 * the screen's order, and whether they share a row.
 * @param {ReadonlyArray<string>} taken
 * @returns {Array<{ keys: ReadonlyArray<string>, row: boolean }>}
 */
export const optionLines = (taken) => {
  /** @type {Map<string, Array<string>>} */
  const lines = new Map()
  for (const [key, line] of Object.entries(lineOf)) lines.set(line, [...(lines.get(line) ?? []), key])
  return [...lines].flatMap(([line, keys]) => {
    const takes = keys.filter((key) => taken.includes(key))
    if (takes.length === 0) return []
    return [{ keys: takes, row: keys.length > 1 && (takes.length > 1 || !rowOfSeveral.has(line)) }]
  })
}
