// @ts-check
// A form's case fields as the builder edits them: the types, a key made from a label (unused by the others), and
// the list as the API takes it (a select's options from its lines). Pure.

/** @typedef {import("../shared/Types.js").CaseField} CaseField */
/** @typedef {CaseField["type"]} CaseFieldType */
/** @typedef {CaseField & { optionsText?: string }} Draft a field being edited: a select's options as lines of text */

/** @type {ReadonlyArray<CaseFieldType>} */
export const types = ["text", "number", "date", "select", "member"]

/** A key from a label: lower-case letters, digits and _, starting with a letter (the server checks it too). @param {string} label */
export const keyFrom = (label) => {
  const slug = label
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^[^a-z]+|_+$/g, "")
    .slice(0, 40)
  return slug === "" ? "field" : slug
}

/** A key not used yet by the other fields. @param {string} wanted @param {ReadonlyArray<Draft>} others */
export const unusedKey = (wanted, others) => {
  const used = new Set(others.map((f) => f.key))
  if (!used.has(wanted)) return wanted
  for (let n = 2; ; n++) {
    const candidate = `${wanted.slice(0, 37)}_${n}`
    if (!used.has(candidate)) return candidate
  }
}

/** The list as the API takes it: a select's options from its lines. @param {ReadonlyArray<Draft>} drafts @returns {CaseField[]} */
export const toFields = (drafts) =>
  drafts.map(({ optionsText, options, ...field }) =>
    field.type === "select"
      ? {
          ...field,
          options: (optionsText ?? (options ?? []).join("\n"))
            .split("\n")
            .map((line) => line.trim())
            .filter((line) => line !== "")
        }
      : field
  )
