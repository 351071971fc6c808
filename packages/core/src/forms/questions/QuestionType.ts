/**
 * What a question type is: the one interface every type's module
 * (`forms/questions/<Family>.ts`) implements, and the registry
 * (`QuestionTypes.ts`) lists. Schema-first: a type's options Schema is the
 * source of truth of the options it takes (their keys, checks and messages);
 * everything else a type does is a hook here — its answer check, the no-JS
 * page's posted value, its page view, its display text and spreadsheet cells,
 * its summary and tally keys, the condition operators it offers, what the
 * builder and the generators are told of it. A hook a type does not need is
 * absent, and the registry's shared default stands in (see each hook).
 *
 * Nothing here knows a type by name: the rest of qforms asks the registry.
 *
 * @module
 */
import type * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import type { Html } from "../../kernel/index.ts"
import type { Message, MessageKey, MessageValues } from "../../languages/index.ts"
import type { Operator } from "../LogicRules.ts"
import type { FileAnswer } from "./AnswerShapes.ts"
import type { StoredOptions } from "./StoredOptions.ts"

/**
 * A question as a type's hooks read it (a `Field` is one): its options as
 * stored, typed `O` (the shared keys, and those the type adds).
 */
export interface QuestionField<O extends object = StoredOptions> {
  readonly id: number
  readonly type: string
  readonly label: string
  readonly required: boolean
  readonly options: O | null
}

/** An answer in its stored form: one of the answer shapes (`AnswerShapes.ts`, or a shape a type adds). */
export type Answer = string | number | boolean | ReadonlyArray<string> | { readonly [key: string]: unknown }

/** The outcome of an answer check: the answer in its stored form, or the message naming the problem. */
export type Check = Result.Result<Answer, Message>

/** Says a message in a language (the page's voice, or English: what the API says). */
export type Say = (key: MessageKey, values?: MessageValues) => string

/** What the page posted for a question beside its `a` values: `a.<name>` values by name. */
export type Posted = Readonly<Record<string, ReadonlyArray<string>>>

/** What a question screen shows in its input: the raw text(s), and an uploaded file. */
export interface Entered {
  readonly texts: ReadonlyArray<string>
  readonly file?: FileAnswer | undefined
  /** The parts of a contact or address by name, or the chosen columns of a matrix by row. */
  readonly parts?: Readonly<Record<string, ReadonlyArray<string>>> | undefined
}

/** The words of a form's choices, rows and columns in the respondent's language (answers keep the form's own). */
export interface Wording {
  readonly choice: (field: QuestionField, choice: string) => string
  readonly row: (field: QuestionField, row: string) => string
  readonly column: (field: QuestionField, column: string) => string
}

/** What a question's page view is drawn with. */
export interface PageView {
  /** What the respondent entered before (a kept answer, or a refused step's texts). */
  readonly entered: Entered
  /** The message of a failed check, beside the question. */
  readonly error: string | undefined
  /** What shuffles the choices of a question with `randomize`: the same for one respondent. */
  readonly seed: number | undefined
  /** The choices whose quota is used up: shown as full. */
  readonly full: ReadonlySet<string>
  /** The page's address of an image of the workspace's library. */
  readonly imageSrc: (imageId: string) => string
  /** The page's words and the form's in the respondent's language. */
  readonly voice: { readonly say: Say; readonly wording: Wording }
}

/** What one spreadsheet cell holds: text (made safe by the writer), a number, a yes/no, a moment, or nothing. */
export type SheetCell = string | number | boolean | Date | null

/** One column of the responses' spreadsheet: its header, width (characters), number format, and an answer's cell. */
export interface SheetColumn {
  readonly header: string
  readonly width: number
  readonly numFmt?: string
  readonly cell: (answer: unknown) => SheetCell
}

/**
 * How the summary reads a type's tallies (`insights/AnswerTallies.ts`), by
 * kind: choices (each choice's `c:` key, named), numbers (`n:`, on a scale of
 * known values or free, with the NPS score), a matrix, a ranking, dates (per
 * month or hour), texts (the latest answers, and their frequent words when
 * `words`), files (a signature's drawn or typed).
 */
export type SummaryHints =
  | {
      readonly kind: "choices"
      /** The choices counted: each one's value in its key and its name in the summary. */
      readonly named: (field: QuestionField) => ReadonlyArray<readonly [value: string, name: string]>
    }
  | {
      readonly kind: "numbers"
      /** The values of the scale (a bar each, answered or not); absent or undefined for a free number. */
      readonly scale?: (field: QuestionField) => ReadonlyArray<number> | undefined
      /** Whether the summary has the Net Promoter Score. */
      readonly nps?: boolean
    }
  | { readonly kind: "matrix" }
  | { readonly kind: "ranking" }
  | { readonly kind: "dates"; readonly unit: "month" | "hour" }
  | { readonly kind: "texts"; readonly words?: boolean }
  | { readonly kind: "files"; readonly drawnOrTyped?: boolean }

/**
 * The pieces of SQL one question's tally keys are written with
 * (`insights/AnswerKeySql.ts`): its answer in a response (`jsonb`), that
 * answer as text, a key (`<question id>|<key>`) as a literal, and tests of
 * the answer's JSON type.
 */
export interface TallySql {
  readonly answer: string
  readonly text: string
  readonly key: (key: string) => string
  readonly typed: (jsonType: string) => string
  /** The answer when it is of the JSON type, else an empty array (for `jsonb_array_elements`). */
  readonly elements: (jsonType: string) => string
}

/**
 * A question's tally keys in SQL beyond `a` (answered): scalar expressions
 * (each a key or null) and array expressions (sub-selects). They must make
 * the keys the database function `qforms_answer_keys` (migration 0029) makes
 * for the same answers.
 */
export interface TallyKeys {
  readonly scalars: ReadonlyArray<string>
  readonly arrays: ReadonlyArray<string>
}

/**
 * A part of a `contact` or `address` question: its name in the answer
 * object, its label on the page, the browser's autofill token, the longest
 * text it takes, and whether it is asked and optional when the question's
 * options do not say.
 */
export interface PartInfo {
  readonly name: string
  readonly label: string
  readonly autocomplete: string
  readonly maxLength: number
  readonly asked: boolean
  readonly optional: boolean
}

/**
 * A plain control an answer is given with: a one-line input of an HTML type (its autofill token, whether its text
 * is a number, its longest text), several lines of text, one of the question's choices, or several of them.
 */
export type AnswerControl =
  | {
      readonly kind: "line"
      readonly type: string
      readonly autocomplete?: string
      readonly numeric?: boolean
      readonly maxLength?: number
    }
  | { readonly kind: "lines"; readonly maxLength?: number }
  | { readonly kind: "choice" }
  | { readonly kind: "choices" }

/**
 * How the builder's preview sketches a type's control where no other hook says it (its control, parts, a
 * matrix's rows, a ranking, a signature, an upload, a consent): a scale of whole numbers or a range (a slider's) from `min`
 * to `max` (a question's own `min`/`max` options win), or the two buttons of a yes/no.
 */
export type Look =
  | { readonly kind: "scale"; readonly min: number; readonly max: number }
  | { readonly kind: "range"; readonly min: number; readonly max: number }
  | { readonly kind: "yesNo" }

/** A question the offline generator writes: its type, label, whether it is required, its options. */
export interface GeneratedQuestion {
  readonly type: string
  readonly label: string
  readonly required: boolean
  readonly options: Readonly<Record<string, unknown>> | null
}

/**
 * A question type. `T` is its name, `S` its options Schema, `X` the stored
 * option keys it adds (see {@link StoredOptions}), `R` whether its options are
 * required. Its hooks read a question's options as stored, with those keys.
 */
export interface QuestionType<
  T extends string = string,
  S extends Schema.Top = Schema.Top,
  X extends Schema.Struct.Fields = NoAddedOptions,
  R extends boolean = boolean,
  A extends AnswerShape = AnswerShape
> {
  /** The type's name (`"rating"`): the `type` of its questions. */
  readonly type: T
  /** Its name in the builder, in English (the application's catalogues may have its own words). */
  readonly label: string
  /** The options a client may send: the source of truth of the type's option keys, checks and messages. */
  readonly options: S
  /** Whether a question of the type must have options (a select's choices); otherwise they may be absent or null. */
  readonly optionsRequired?: R
  /** Stored option keys `StoredOptions.ts` does not have, loosely typed as stored (the registry adds them after it). */
  readonly storedOptions?: X
  /** An answer shape beyond the shared ones (`AnswerShapes.ts`). */
  readonly answerShape?: A

  /** False for a type that takes no answer (a statement): no column, no summary, never required. Default: true. */
  readonly answered?: boolean
  /** True for the respondent's own consent: never pre-filled, never edited for them. Default: false. */
  readonly consent?: boolean
  /**
   * How the answer is an upload (through the page's upload route), attached at submission and never kept by a
   * partial response: `withStep` when the page without JavaScript posts the file with the step (multipart);
   * `limits`, the size and types an upload may have. Absent: the answer is no upload.
   */
  readonly upload?: {
    readonly withStep: boolean
    limits(options: Options<X> | null): { readonly maxSizeMb: number; readonly accept: ReadonlyArray<string> }
  }
  /**
   * The plain control the answer is given with, when the type's is one (its page view draws it): other screens
   * offer it to change an answer (the application's case page). Absent: the type's control is its own (a scale,
   * a matrix, an upload, parts).
   */
  readonly control?: AnswerControl
  /** How the builder's preview sketches the control when no other hook says it (see {@link Look}). */
  readonly look?: Look
  /** The parts a question of the type may ask, in order (a contact's, an address's); absent for a type without parts. */
  readonly parts?: ReadonlyArray<PartInfo>
  /** What the answer says of who answered: it is their e-mail address; it may be their name when labelled so. */
  readonly respondent?: { readonly email?: boolean; readonly nameByLabel?: boolean }

  /**
   * Checks a (non-empty) answer: its stored form (trimmed, normalised), or the message naming the problem.
   * `q` is the question's label as quoted in messages.
   */
  check(field: QuestionField<Options<X>>, value: unknown, q: string): Check
  /** The message of a required question left unanswered. Default: `answer.required`. */
  readonly requiredMessage?: MessageKey

  /** The typed answer from what the page posted (`a` values, `a.<name>` parts). Default: the first text, if not blank. */
  parse?(field: QuestionField<Options<X>>, answers: ReadonlyArray<string>, parts: Posted): unknown
  /** What is wrong with what the page posted, before it is an answer (a ranking's place given twice). */
  postedProblem?(
    field: QuestionField<Options<X>>,
    answers: ReadonlyArray<string>,
    parts: Posted,
    say: Say
  ): string | undefined
  /** The input(s) of the question on the public page (and the status edit page). */
  view(field: QuestionField<Options<X>>, view: PageView): Html

  /**
   * The answer as text (lists, exports, e-mails, the CSV cell), for an answer that is not a text or a yes/no;
   * undefined: by the answer's shape (see `AnswerText.ts`). `linkBase` makes a file's download link.
   */
  display?(field: QuestionField<Options<X>>, answer: Answer, linkBase: string | undefined): string | undefined
  /**
   * An answer that is not a text, a yes/no or a list as a respondent reads it in their language (a matrix's rows
   * and columns in its words). Default: as it is.
   */
  shown?(field: QuestionField<Options<X>>, answer: Answer, wording: Wording): Answer
  /** The answer's columns in the responses' spreadsheet, `text` giving an answer's text. Default: one text column. */
  sheet?(field: QuestionField<Options<X>>, key: string, text: (answer: unknown) => string): ReadonlyArray<SheetColumn>

  /** How the summary reads the type's tallies. Default: texts. */
  readonly summary?: SummaryHints
  /** The type's tally keys beyond `a` in SQL. Default: none. */
  tallyKeys?(sql: TallySql): TallyKeys

  /** The condition operators the builder offers for the type's answers. Default: every operator. */
  readonly operators?: ReadonlyArray<Operator>
  /** The texts a condition compares the type's answer with, when its shape does not say (an amount and its code). */
  comparable?(answer: unknown): ReadonlyArray<string> | undefined

  /** What the generators know of the type. */
  readonly generator?: {
    /** The type in the model's instructions (`rating (stars; options.max from 2 to 10)`). Default: its name. */
    readonly describe?: string
    /** What else the model is told of writing questions of the type, after the list of types (once, if types share it). */
    readonly advice?: string
    /**
     * What the offline generator hears as a question of the type in a thing to ask ("the price in euros"),
     * tried before its own phrasing of the built-in types, and the options that question gets.
     */
    readonly heard?: {
      readonly hint: RegExp
      options(item: string): Readonly<Record<string, unknown>> | null
    }
  }
}

/** An answer shape a type adds: its Schema as stored, as submitted, and what it is (for the API document). */
export interface AnswerShape {
  readonly value: Schema.Codec<unknown, unknown, never, never>
  readonly input: Schema.Codec<unknown, unknown, never, never>
  readonly description: string
}

/** The stored option keys of a type that adds none. */
export type NoAddedOptions = Record<never, never>

/** A question type's options as stored: the shared keys, and those it adds. */
export type Options<X extends Schema.Struct.Fields> = StoredOptions & Schema.Struct<X>["Type"]

/** Any question type (what the registry lists). */
export type AnyQuestionType = QuestionType<string, Schema.Top, Schema.Struct.Fields, boolean, AnswerShape>

/**
 * Declares a question type, its name, Schemas and whether its options are required kept in its type (an identity
 * at runtime).
 *
 * @example
 * ```ts
 * export const YesNo = questionType({ type: "yes_no", label: "Yes / no", options: BaseOptions, check, view })
 * ```
 */
export const questionType = <
  const T extends string,
  S extends Schema.Top,
  X extends Schema.Struct.Fields = NoAddedOptions,
  const R extends boolean = false,
  A extends AnswerShape = never
>(
  definition: QuestionType<T, S, X, R, A>
): QuestionType<T, S, X, R, A> => definition
