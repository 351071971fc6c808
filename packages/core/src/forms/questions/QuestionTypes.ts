/**
 * The registry of question types: every type's module, in the order the API
 * lists the types, and what the rest of qforms asks of them — a question's
 * type (`typeOf`), the names (`FieldType` is made of them), the option keys
 * each takes (read from its options Schema), the options as stored, the
 * answer shapes, what the builder is told of each type and how the model is
 * told of them. Adding a type is writing its module and adding it here.
 *
 * @module
 */
import type * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import { operators as allOperators } from "../LogicRules.ts"
import { sharedInputs, sharedInputsDescription, sharedValues, sharedValuesDescription } from "./AnswerShapes.ts"
import { Checkboxes, Select } from "./Choice.ts"
import { Address, askedParts, Contact } from "./Contact.ts"
import { Currency } from "./Currency.ts"
import { DateTimeType, DateType, TimeType } from "./DateTime.ts"
import { File } from "./File.ts"
import { Legal } from "./Legal.ts"
import { Matrix } from "./Matrix.ts"
import { NumberType } from "./Number.ts"
import type { AnswerControl, AnyQuestionType, Look, PartInfo, QuestionType, SummaryHints } from "./QuestionType.ts"
import { Ranking } from "./Ranking.ts"
import { Nps, OpinionScale, Rating, Slider } from "./Scale.ts"
import { Signature } from "./Signature.ts"
import { Statement } from "./Statement.ts"
import { StoredOptionFields, type StoredOptions } from "./StoredOptions.ts"
import { Email, LongText, ShortText, Tel, Url } from "./Text.ts"
import { YesNo } from "./YesNo.ts"

export {
  Address,
  Checkboxes,
  Contact,
  DateTimeType,
  DateType,
  Email,
  File,
  Legal,
  LongText,
  Matrix,
  Nps,
  NumberType,
  OpinionScale,
  Ranking,
  Rating,
  Select,
  ShortText,
  Signature,
  Slider,
  Statement,
  Tel,
  TimeType,
  Url,
  YesNo
}

/** Every question type, in the order the API lists them. */
export const questionTypes = [
  ShortText,
  LongText,
  Email,
  Tel,
  Url,
  NumberType,
  DateType,
  Select,
  Checkboxes,
  Rating,
  Nps,
  OpinionScale,
  Slider,
  TimeType,
  DateTimeType,
  YesNo,
  Legal,
  Contact,
  Address,
  Matrix,
  Ranking,
  File,
  Signature,
  Statement,
  Currency
] as const

/** The modules of the registry, by their type (what `questionTypes` holds). */
export type RegisteredType = (typeof questionTypes)[number]

/** A question type's name. */
export type TypeName = RegisteredType["type"]

/** The names of the types, in order. */
export const typeNames = questionTypes.map((q) => q.type) as unknown as readonly [TypeName, ...Array<TypeName>]

const byName: ReadonlyMap<string, AnyQuestionType> = new Map(questionTypes.map((q) => [q.type, q]))

/**
 * Whether a text names a question type.
 *
 * @example
 * ```ts
 * isTypeName("rating") // true
 * ```
 */
export const isTypeName = (type: string): type is TypeName => byName.has(type)

/**
 * The module of a question's type.
 *
 * @example
 * ```ts
 * typeOf({ type: "rating" }).summary?.kind // "numbers"
 * ```
 */
export const typeOf = (field: { readonly type: TypeName }): AnyQuestionType => byName.get(field.type)!

/**
 * The module of a type named by a text that may be none (saved logic names the types of questions being saved).
 *
 * @example
 * ```ts
 * typeNamed("nothing") // undefined
 * ```
 */
export const typeNamed = (type: string | undefined): AnyQuestionType | undefined =>
  type === undefined ? undefined : byName.get(type)

/** The option keys an options Schema declares (its decoded object's keys, in order). */
const keysOf = (schema: Schema.Top): ReadonlyArray<string> => {
  const ast = SchemaAST.toType(schema.ast)
  return ast._tag === "Objects" ? ast.propertySignatures.map((p) => String(p.name)) : []
}

/** The option keys an options Schema requires (those a question's options must have), in order. */
const requiredKeysOf = (schema: Schema.Top): ReadonlyArray<string> => {
  const ast = SchemaAST.toType(schema.ast)
  return ast._tag === "Objects"
    ? ast.propertySignatures.filter((p) => !SchemaAST.isOptional(p.type)).map((p) => String(p.name))
    : []
}

/**
 * The option keys each question type takes, read from its options schema
 * (what the application's builder offers, served to it by the server).
 *
 * @example
 * ```ts
 * optionKeys.rating // ["placeholder", "help", "max"]
 * ```
 */
export const optionKeys = Object.fromEntries(questionTypes.map((q) => [q.type, keysOf(q.options)])) as {
  readonly [Type in TypeName]: ReadonlyArray<string>
}

/** The stored option keys the types add to `StoredOptions.ts`'s, by key. */
type AddedOptions = UnionToIntersection<
  RegisteredType extends infer Q ? (Q extends QuestionType<string, Schema.Top, infer X> ? X : never) : never
>
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never

/**
 * The fields of a question's options as stored: the shared ones
 * (`StoredOptions.ts`), then any key a type adds, each once.
 */
export const storedOptionFields = Object.assign(
  {},
  StoredOptionFields,
  ...questionTypes.map((q: AnyQuestionType) => q.storedOptions ?? {})
) as typeof StoredOptionFields & AddedOptions

/** The options as stored, of every type. */
export type AllStoredOptions = StoredOptions & Schema.Struct<AddedOptions>["Type"]

/** The answer shapes the types add to the shared ones. */
const addedShapes = questionTypes.flatMap((q: AnyQuestionType) => (q.answerShape === undefined ? [] : [q.answerShape]))

type AddedShape = RegisteredType extends infer Q
  ? Q extends QuestionType<string, Schema.Top, Schema.Struct.Fields, boolean, infer A>
    ? A
    : never
  : never

/** The Schemas of a stored answer: the shared shapes, then those the types add. */
export const answerValueMembers = [...sharedValues, ...addedShapes.map((s) => s.value)] as unknown as ReadonlyArray<
  (typeof sharedValues)[number] | AddedShape["value"]
>

/** What a stored answer may be. */
export const answerValueDescription = [sharedValuesDescription, ...addedShapes.map((s) => s.description)].join(" ")

/** The Schemas of a submitted answer: the shared shapes, then those the types add. */
export const answerInputMembers = [...sharedInputs, ...addedShapes.map((s) => s.input)] as unknown as ReadonlyArray<
  (typeof sharedInputs)[number] | AddedShape["input"]
>

/** What a submitted answer may be. */
export const answerInputDescription = [sharedInputsDescription, ...addedShapes.map((s) => s.description)].join(" ")

/**
 * The parts a question asks, in order, with whether each may be left empty:
 * its options (`parts`, `optionalParts`), or its type's defaults. Empty for
 * a type without parts.
 *
 * @example
 * ```ts
 * partsOf({ type: "contact", options: null }).map((p) => [p.name, p.optional])
 * // [["name", false], ["email", false], ["phone", false]]
 * ```
 */
export const partsOf = (field: {
  readonly type: TypeName
  readonly options: StoredOptions | null
}): ReadonlyArray<PartInfo> => askedParts(typeOf(field).parts ?? [], field.options)

/**
 * Whether a question takes an answer (a statement does not).
 *
 * @example
 * ```ts
 * takesAnswer({ type: "statement" }) // false
 * ```
 */
export const takesAnswer = (field: { readonly type: TypeName }): boolean => typeOf(field).answered !== false

/**
 * Whether a question's answer may be an upload (through the page's upload
 * route): a `file` question's always, a `signature`'s when it is drawn (a PNG).
 * Such answers are attached at submission and never kept by a partial response.
 *
 * @example
 * ```ts
 * takesUploads({ type: "signature" }) // true
 * ```
 */
export const takesUploads = (field: { readonly type: TypeName }): boolean => typeOf(field).upload !== undefined

/**
 * Whether a question's answer is the respondent's own consent (a `legal`
 * question's): never pre-filled, never edited for them.
 *
 * @example
 * ```ts
 * isConsent({ type: "legal" }) // true
 * ```
 */
export const isConsent = (field: { readonly type: TypeName }): boolean => typeOf(field).consent === true

/**
 * How the application's case page shows an answer beyond its shape: `ranked`, the choices in their places (a
 * ranking's); `byRow`, each row with its column or columns (a matrix's); `drawnOrTyped`, a drawn signature's image
 * or a typed one's name.
 */
export type AnswerShown = "ranked" | "byRow" | "drawnOrTyped"

/**
 * How the builder's preview sketches a question of the type: nothing (no answer), its parts, a grid of rows
 * and columns, a ranking, a drawing (or typed name), an upload, a consent box, one or several choices, lines
 * or a line of text, or the type's own look (a scale, a range, yes/no).
 */
export type PreviewLook =
  | {
      readonly kind:
        | "none"
        | "parts"
        | "grid"
        | "ranked"
        | "drawing"
        | "upload"
        | "consent"
        | "choice"
        | "choices"
        | "lines"
        | "line"
    }
  | Look

/**
 * A question type as the builder offers it: its name, label, option keys (those its options Schema requires among
 * them), parts and condition operators; whether it takes an answer, how the case page shows one, and the control a
 * member changes one with.
 */
export interface BuilderType {
  readonly type: TypeName
  readonly label: string
  readonly options: ReadonlyArray<string>
  /** The option keys the options Schema requires (a select's `choices`, a matrix's `rows` and `columns`). */
  readonly requiredOptions: ReadonlyArray<string>
  readonly parts?: ReadonlyArray<PartInfo>
  readonly operators: ReadonlyArray<string>
  /** False for a type that takes no answer (a statement). */
  readonly answered: boolean
  /** How the case page shows an answer beyond its shape; absent: by its shape alone. */
  readonly shown?: AnswerShown
  /**
   * The control a member changes an answer with (the type's own, `QuestionType.control`); absent when the type's
   * control is not a plain one, or its answers are not to be changed by a member (no answer, consent, an upload).
   */
  readonly edit?: AnswerControl
  /** How the builder's preview sketches a question of the type. */
  readonly look: PreviewLook
}

/** How an answer is shown, by how the summary reads it (its places, its rows, a signature drawn or typed). */
const shownBy = (summary: SummaryHints | undefined): AnswerShown | undefined =>
  summary?.kind === "ranking"
    ? "ranked"
    : summary?.kind === "matrix"
      ? "byRow"
      : summary?.kind === "files" && summary.drawnOrTyped === true
        ? "drawnOrTyped"
        : undefined

/** The preview's look of a type: what its hooks say of its control, in this order. */
const lookOf = (q: AnyQuestionType, shown: AnswerShown | undefined): PreviewLook => {
  if (q.answered === false) return { kind: "none" }
  if (q.look !== undefined) return q.look
  if (q.parts !== undefined) return { kind: "parts" }
  if (shown === "byRow") return { kind: "grid" }
  if (shown === "ranked") return { kind: "ranked" }
  if (shown === "drawnOrTyped") return { kind: "drawing" }
  if (q.upload !== undefined) return { kind: "upload" }
  if (q.consent === true) return { kind: "consent" }
  if (q.control?.kind === "choice" || q.control?.kind === "choices" || q.control?.kind === "lines")
    return { kind: q.control.kind }
  return { kind: "line" }
}

/** Whether a member may change an answer of the type: one it takes, not the respondent's consent, not an upload. */
const changeable = (q: AnyQuestionType): boolean => q.answered !== false && q.consent !== true && q.upload === undefined

/**
 * What the builder is told of each type, in order: served as data, so that it
 * offers what the server's Schemas take (and the case page shows and changes
 * answers as their types say).
 *
 * @example
 * ```ts
 * builderTypes.find((t) => t.type === "rating")?.options // ["placeholder", "help", "max"]
 * builderTypes.find((t) => t.type === "matrix")?.requiredOptions // ["rows", "columns"]
 * builderTypes.find((t) => t.type === "email")?.edit // { kind: "line", type: "email", autocomplete: "email" }
 * ```
 */
export const builderTypes: ReadonlyArray<BuilderType> = questionTypes.map((q: AnyQuestionType) => {
  const shown = shownBy(q.summary)
  return {
    type: q.type as TypeName,
    label: q.label,
    options: keysOf(q.options),
    requiredOptions: requiredKeysOf(q.options),
    ...(q.parts === undefined ? {} : { parts: q.parts }),
    operators: q.operators ?? allOperators,
    answered: q.answered !== false,
    ...(shown === undefined ? {} : { shown }),
    ...(q.control === undefined || !changeable(q) ? {} : { edit: q.control }),
    look: lookOf(q, shown)
  }
})

/**
 * The question types as a model is told of them (`short_text, …, rating
 * (stars; options.max from 2 to 10), …`).
 *
 * @example
 * ```ts
 * modelTypes.startsWith("short_text, long_text") // true
 * ```
 */
export const modelTypes = questionTypes.map((q: AnyQuestionType) => q.generator?.describe ?? q.type).join(", ")

/**
 * What else a model is told of writing questions, each type's advice once
 * (the choices of a select and checkboxes, their points in a quiz).
 *
 * @example
 * ```ts
 * modelAdvice.includes("options.choices") // true
 * ```
 */
export const modelAdvice = [
  ...new Set(
    questionTypes.flatMap((q: AnyQuestionType) => (q.generator?.advice === undefined ? [] : [q.generator.advice]))
  )
].join(" ")

/**
 * The texts a condition compares an answer with when its type says (an
 * amount of money by its amount), else undefined (the answer's shape says).
 *
 * @example
 * ```ts
 * comparableTexts({ typedName: "Ada", consent: true }) // undefined
 * ```
 */
export const comparableTexts = (answer: unknown): ReadonlyArray<string> | undefined => {
  for (const q of questionTypes as ReadonlyArray<AnyQuestionType>) {
    const texts = q.comparable?.(answer)
    if (texts !== undefined) return texts
  }
  return undefined
}

/**
 * The type the offline generator hears in a thing to ask, by the types that
 * say how they are heard, with the options its question gets; undefined when
 * none hears it.
 *
 * @example
 * ```ts
 * heardIn("your name") // undefined
 * ```
 */
export const heardIn = (
  item: string
): { readonly type: TypeName; readonly options: Readonly<Record<string, unknown>> | null } | undefined => {
  for (const q of questionTypes as ReadonlyArray<AnyQuestionType>) {
    const heard = q.generator?.heard
    if (heard?.hint.test(item)) return { type: q.type as TypeName, options: heard.options(item) }
  }
  return undefined
}
