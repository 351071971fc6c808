// @ts-check
// The question types as the server's registry tells them (`#qforms-shell`): each one's name, the option keys it
// takes and those it requires, its parts, whether it takes an answer, and how the case page shows and changes one.
// The application names no type: the builder, the case page and the summary ask these.
import { shell } from "./Api.js"

/** @typedef {import("./Types.js").FieldTypeInfo} FieldTypeInfo */
/** @typedef {FieldTypeInfo["type"]} FieldType */

/** The question types, in the registry's order: the server's Schemas, as the page tells them (`shell`). */
export const questionTypes = shell.fieldTypes

/**
 * What the page tells of a type; a type it does not name is a plain one (a placeholder and help, an answer).
 * @param {string} type @returns {FieldTypeInfo}
 */
export const typeInfo = (type) =>
  questionTypes.find((info) => info.type === type) ?? {
    type: /** @type {FieldType} */ (type),
    label: type,
    options: ["placeholder", "help"],
    operators: [],
    requiredOptions: [],
    answered: true,
    look: { kind: "line" }
  }

/** @param {string} type */
export const typeName = (type) => typeInfo(type).label
/** The option keys a type takes. @param {string} type */
export const optionKeysOf = (type) => typeInfo(type).options
/** Whether a question of the type takes an answer (a statement does not). @param {string} type */
export const takesAnswer = (type) => typeInfo(type).answered
