/**
 * How a question's options are stored and returned: one flat object whose
 * every key is optional, each key loosely typed (the type's own options
 * Schema checked them on the way in). These are the keys the built-in types
 * share, in the order the API document lists them; a type whose options take
 * a key none of these is declares it in its module (`storedOptions`), and the
 * registry (`QuestionTypes.ts`) adds it after them.
 *
 * @module
 */
import * as Schema from "effect/Schema"

/** The stored options' fields (the Schema of each key as stored). */
export const StoredOptionFields = {
  placeholder: Schema.optionalKey(Schema.String),
  help: Schema.optionalKey(Schema.String),
  choices: Schema.optionalKey(Schema.Array(Schema.String)),
  minSelections: Schema.optionalKey(Schema.Int),
  maxSelections: Schema.optionalKey(Schema.Int),
  min: Schema.optionalKey(Schema.Finite),
  max: Schema.optionalKey(Schema.Finite),
  step: Schema.optionalKey(Schema.Finite),
  accept: Schema.optionalKey(Schema.Array(Schema.String)),
  maxSizeMb: Schema.optionalKey(Schema.Finite),
  minLabel: Schema.optionalKey(Schema.String),
  maxLabel: Schema.optionalKey(Schema.String),
  parts: Schema.optionalKey(Schema.Array(Schema.String)),
  optionalParts: Schema.optionalKey(Schema.Array(Schema.String)),
  rows: Schema.optionalKey(Schema.Array(Schema.String)),
  columns: Schema.optionalKey(Schema.Array(Schema.String)),
  multiple: Schema.optionalKey(Schema.Boolean),
  minRows: Schema.optionalKey(Schema.Int),
  top: Schema.optionalKey(Schema.Int),
  randomize: Schema.optionalKey(Schema.Boolean),
  allowOther: Schema.optionalKey(Schema.Boolean),
  otherLabel: Schema.optionalKey(Schema.String),
  quotas: Schema.optionalKey(Schema.Record(Schema.String, Schema.Finite)),
  points: Schema.optionalKey(Schema.Record(Schema.String, Schema.Finite)),
  images: Schema.optionalKey(Schema.Record(Schema.String, Schema.String))
}

/** The options of any built-in type as stored (every key optional). @example `const o: StoredOptions = { max: 10 }` */
export type StoredOptions = Schema.Struct<typeof StoredOptionFields>["Type"]
