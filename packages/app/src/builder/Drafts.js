// @ts-check
// The questions being edited: a draft of each (told apart by a key before it has an id, its logic kept as the
// server gave it), the question as the API takes it back, and the preview's screens. Pure.

/** @typedef {import("../shared/Types.js").Field} Field */
/** @typedef {import("../shared/Types.js").FieldTypeInfo} FieldTypeInfo */
/** @typedef {FieldTypeInfo["type"]} FieldType */
/** @typedef {Record<string, any>} DraftOptions the options being edited: any option key of any type, as the inputs hold them */
/**
 * A question being edited: `key` tells drafts apart before they have an id; logic is kept as the server gave it.
 * @typedef {{ key: number, id?: number, type: FieldType, label: string, required: boolean, options: DraftOptions,
 *   sensitive?: boolean, logic?: ReadonlyArray<import("../shared/Types.js").LogicRule>, showIf?: Field["showIf"], calculate?: Field["calculate"],
 *   page?: string }} Draft
 */

let nextKey = 1
/** @param {Pick<Field, "type" | "label" | "required"> & Partial<Field>} field @returns {Draft} */
export const draftOf = (field) => ({
  key: nextKey++,
  id: field.id,
  type: field.type,
  label: field.label,
  required: field.required,
  ...(field.sensitive === true ? { sensitive: true } : {}),
  options: { ...(field.options ?? {}) },
  // Form logic (when the server has it): kept as the server gave it, sent back as edited.
  ...(field.logic === undefined ? {} : { logic: field.logic }),
  ...(field.showIf === undefined || field.showIf === null ? {} : { showIf: field.showIf }),
  ...(field.calculate === undefined ? {} : { calculate: field.calculate }),
  ...(field.page === undefined ? {} : { page: field.page })
})

/**
 * The question as the API takes it: only the option keys of its type (`type`: the server's Schemas, as the page
 * tells them), empty ones left out but those its options require (lists, sent empty so that the server's message
 * names them); a question that takes no answer is neither required nor sensitive.
 * @param {Draft} draft @param {Pick<FieldTypeInfo, "options" | "requiredOptions" | "answered">} type
 */
export const toInput = (draft, type) => {
  /** @type {DraftOptions} */
  const options = {}
  for (const key of type.options) {
    const value = draft.options[key]
    // An empty list of optional parts says "none", which is not the default.
    if (value === undefined || value === "" || (Array.isArray(value) && value.length === 0 && key !== "optionalParts"))
      continue
    options[key] = value
  }
  for (const key of type.requiredOptions) options[key] ??= []
  return {
    ...(draft.id === undefined ? {} : { id: draft.id }),
    type: draft.type,
    label: draft.label,
    required: type.answered && draft.required,
    ...(draft.sensitive === true && type.answered ? { sensitive: true } : {}),
    options: Object.keys(options).length === 0 ? null : options,
    ...(draft.logic === undefined || draft.logic.length === 0 ? {} : { logic: draft.logic }),
    ...(draft.showIf === undefined || draft.showIf === null ? {} : { showIf: draft.showIf }),
    ...(draft.calculate === undefined || draft.calculate.length === 0 ? {} : { calculate: draft.calculate }),
    ...(draft.page === undefined ? {} : { page: draft.page })
  }
}

/**
 * The preview's screens: questions on the same page together, a question without a page a screen of its own.
 * @param {ReadonlyArray<Draft>} drafts
 */
export const screensOf = (drafts) => {
  /** @type {Array<Array<Draft>>} */
  const screens = []
  for (const d of drafts) {
    const last = screens.at(-1)
    if (last !== undefined && d.page !== undefined && last[0]?.page === d.page) last.push(d)
    else screens.push([d])
  }
  return screens
}
