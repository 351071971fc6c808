/**
 * The shapes an answer takes that several question types share: text,
 * numbers, yes or no, a list of texts, an uploaded file (a `file` question's,
 * a drawn signature's), a typed signature, and texts by name (the parts of a
 * contact or address, a matrix's columns by row). The registry
 * (`QuestionTypes.ts`) makes the `AnswerValue` and `AnswerInput` Schemas of
 * these and of the shapes a type's module adds (`answerShape`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { NonNegativeInt } from "./OptionFields.ts"

/**
 * The answer to a `file` question: a reference to an uploaded file.
 *
 * @example
 * ```ts
 * const a: FileAnswer = { fileId: "f_1", name: "cv.pdf", size: 1024, type: "application/pdf" }
 * ```
 */
export const FileAnswer = Schema.Struct({
  fileId: Schema.String.check(Schema.isNonEmpty()),
  name: Schema.String,
  size: NonNegativeInt,
  type: Schema.String
}).annotate({ identifier: "FileAnswer" })

/** A decoded {@link FileAnswer}. @example `const size: FileAnswer["size"] = 0` */
export type FileAnswer = typeof FileAnswer.Type

/**
 * A signature given by typing a full name (a `signature` question's answer
 * when it is not drawn): the name as typed and the signer's explicit consent
 * that the typed name is their signature. A drawn signature is a
 * {@link FileAnswer} (a PNG) instead.
 *
 * @example
 * ```ts
 * const a: TypedSignature = { typedName: "Ada Lovelace", consent: true }
 * ```
 */
export const TypedSignature = Schema.Struct({
  typedName: Schema.String,
  consent: Schema.Literal(true)
}).annotate({
  identifier: "TypedSignature",
  description: "A signature given as a typed full name, with the signer's consent that it is their signature."
})

/** A decoded {@link TypedSignature}. @example `const name: TypedSignature["typedName"] = "Ada Lovelace"` */
export type TypedSignature = typeof TypedSignature.Type

/**
 * An answer keyed by name: the parts of a `contact` or `address` question
 * (only the asked ones, each trimmed and non-empty), or the chosen column of
 * each answered row of a `matrix` (the columns, in their order, when it takes
 * several per row).
 *
 * @example
 * ```ts
 * const contact: KeyedAnswer = { name: "Ada Lovelace", email: "ada@example.com" }
 * const matrix: KeyedAnswer = { Speed: "Good", Price: ["OK", "Good"] }
 * ```
 */
export const KeyedAnswer = Schema.Record(
  Schema.String,
  Schema.Union([Schema.String, Schema.Array(Schema.String)])
).annotate({
  identifier: "KeyedAnswer",
  description:
    "A contact or address answer: its parts by name (contact: name, email, phone, company; " +
    "address: line1, line2, city, region, postalCode, country); or a matrix answer: the chosen column " +
    "(or columns) by row."
})

/** A decoded {@link KeyedAnswer}. @example `const a: KeyedAnswer = { name: "Ada" }` */
export type KeyedAnswer = typeof KeyedAnswer.Type

/**
 * A file answer as submitted: the `fileId` of an upload to that question
 * (the upload's own name, size and type replace any sent along).
 *
 * @example
 * ```ts
 * const a: FileAnswerInput = { fileId: "file_1" }
 * ```
 */
export const FileAnswerInput = Schema.Struct({
  fileId: Schema.String.check(Schema.isNonEmpty()),
  name: Schema.optionalKey(Schema.String),
  size: Schema.optionalKey(NonNegativeInt),
  type: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "FileAnswerInput" })
export type FileAnswerInput = typeof FileAnswerInput.Type

/**
 * A typed signature as submitted: `consent` may be `false`, so that the
 * answer is refused with a message saying to tick the box rather than as a
 * value of the wrong shape.
 */
export const TypedSignatureInput = Schema.Struct({ typedName: Schema.String, consent: Schema.Boolean }).annotate({
  identifier: "TypedSignatureInput",
  description: "A typed signature: the full name and `consent: true` (that the typed name is the signature)."
})

/** The shared shapes of a stored answer, in the order `AnswerValue` lists them. */
export const sharedValues = [
  Schema.String,
  Schema.Finite,
  Schema.Boolean,
  Schema.Array(Schema.String),
  FileAnswer,
  TypedSignature,
  KeyedAnswer
] as const

/** What `AnswerValue` says of the shared shapes. */
export const sharedValuesDescription =
  "Text (also dates, times, e-mail addresses, choices), a number, a boolean, the selected choices, an uploaded file " +
  "(also a drawn signature), a typed signature, the parts of a contact or address, or a matrix's columns by row."

/** The shared shapes of a submitted answer, in the order `AnswerInput` lists them. */
export const sharedInputs = [
  Schema.String,
  Schema.Finite,
  Schema.Boolean,
  Schema.Array(Schema.String),
  FileAnswerInput,
  TypedSignatureInput,
  Schema.Record(Schema.String, Schema.NullOr(Schema.Union([Schema.String, Schema.Array(Schema.String)])))
] as const

/** What `AnswerInput` says of the shared shapes. */
export const sharedInputsDescription =
  "Text (also dates, times, e-mail addresses, choices), a number, a boolean, the selected choices, " +
  "an uploaded file's `{fileId}` (also a drawn signature's PNG), a typed signature's `{typedName, consent}`, " +
  'the parts of a contact or address by name (`null` or `""` for a part left empty), ' +
  "a matrix's column (or columns) by row, or null for no answer."
