// @ts-check
// The question types the builder offers, with their names and the option keys each takes: the server's Schemas,
// as the page tells them (`#qforms-shell`).
import { shell } from "../shared/Api.js"

/** @typedef {import("../shared/Types.js").FieldTypeInfo["type"]} FieldType */

/** The question types and the option keys each takes: the server's Schemas, as the page tells them (`shell`). */
export const questionTypes = shell.fieldTypes
/** @param {FieldType} type */
export const typeName = (type) => questionTypes.find((info) => info.type === type)?.label ?? type
/** @param {FieldType} type */
export const optionKeysOf = (type) =>
  questionTypes.find((info) => info.type === type)?.options ?? ["placeholder", "help"]
