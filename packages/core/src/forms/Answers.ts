/**
 * Answers to a form's questions: the stored answer values, what clients send,
 * and the validation of submitted answers against the questions (one message
 * per question, e.g. `"Email" must be an email address`).
 *
 * Everything here is pure: no I/O, no clock, no exceptions.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { stripBidiControls } from "../kernel/index.ts"
import { type Message, type MessageKey, MessagesModule as Messages, type MessageValues } from "../languages/index.ts"
import {
  byPosition,
  DEFAULT_RATING_MAX,
  type Field,
  OTHER_MAX,
  otherOf,
  type PartInfo,
  partsOf,
  rankedPlaces,
  scaleOf,
  sliderOf
} from "./Fields.ts"

const NonNegativeInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

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

/** The most characters a typed signature's name may have. */
export const TYPED_SIGNATURE_MAX = 200

/** The most bytes a drawn signature's PNG may have: 1 MB (a drawn line over a 600×200 canvas is some 10–40 KB). */
export const SIGNATURE_MAX_BYTES = 1024 * 1024

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
 * An answer: text, number, boolean, selected choices, a file, or the parts of
 * a contact or address. The schema
 * of every answer map (`values`) in requests, responses and the OpenAPI
 * document; which of these a question takes is checked by `validateAnswers`.
 *
 * @example
 * ```ts
 * const answers: Record<string, AnswerValue> = { "1": "Ada", "2": 4, "3": ["A", "B"] }
 * ```
 */
export const AnswerValue = Schema.Union([
  Schema.String,
  Schema.Finite,
  Schema.Boolean,
  Schema.Array(Schema.String),
  FileAnswer,
  TypedSignature,
  KeyedAnswer
]).annotate({
  identifier: "AnswerValue",
  description:
    "Text (also dates, times, e-mail addresses, choices), a number, a boolean, the selected choices, an uploaded file " +
    "(also a drawn signature), a typed signature, the parts of a contact or address, or a matrix's columns by row."
})
export type AnswerValue = typeof AnswerValue.Type

/**
 * Whether a value is a real answer: text that is not blank, a number, a yes
 * or no, at least one chosen option, a file, or a contact or address with a
 * part filled in. An empty text, an empty
 * selection or no value at all is not (such answers alone keep no partial
 * response).
 *
 * @example
 * ```ts
 * isRealAnswer("  ") // false
 * isRealAnswer(0) // true
 * ```
 */
export const isRealAnswer = (value: unknown): boolean => {
  if (value === undefined || value === null) return false
  if (Predicate.isString(value)) return stripBidiControls(value).trim() !== ""
  if (Array.isArray(value)) return value.some(isRealAnswer)
  // A file (its id is text) or the parts of a contact or address.
  if (Predicate.isObject(value)) return Object.values(value).some(isRealAnswer)
  return true
}

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
const TypedSignatureInput = Schema.Struct({ typedName: Schema.String, consent: Schema.Boolean }).annotate({
  identifier: "TypedSignatureInput",
  description: "A typed signature: the full name and `consent: true` (that the typed name is the signature)."
})

/**
 * An answer as submitted: like {@link AnswerValue}, with a file given by its
 * upload's `fileId`; `null` leaves an optional question unanswered.
 */
export const AnswerInput = Schema.NullOr(
  Schema.Union([
    Schema.String,
    Schema.Finite,
    Schema.Boolean,
    Schema.Array(Schema.String),
    FileAnswerInput,
    TypedSignatureInput,
    Schema.Record(Schema.String, Schema.NullOr(Schema.Union([Schema.String, Schema.Array(Schema.String)])))
  ])
).annotate({
  identifier: "AnswerInput",
  description:
    "Text (also dates, times, e-mail addresses, choices), a number, a boolean, the selected choices, " +
    "an uploaded file's `{fileId}` (also a drawn signature's PNG), a typed signature's `{typedName, consent}`, " +
    'the parts of a contact or address by name (`null` or `""` for a part left empty), ' +
    "a matrix's column (or columns) by row, or null for no answer."
})
export type AnswerInput = typeof AnswerInput.Type

/**
 * Answers keyed by question id as sent: an {@link AnswerInput} per question;
 * `null` (like an empty string or array) leaves an optional question unanswered.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(Answers.AnswerInputs)({ "12": "Ada", "13": null })
 * ```
 */
export const AnswerInputs = Schema.Record(Schema.String, AnswerInput).annotate({
  description: "Answers keyed by question id (`fields[].id`); `null` leaves an optional question unanswered."
})

/**
 * One problem with submitted answers. `path` is `values` or `values.<id>`;
 * `fieldId` is the question concerned (null for whole-object or unknown keys).
 *
 * @example
 * ```ts
 * const i: AnswerIssue = { path: "values.3", fieldId: 3, message: "\"Email\" is required" }
 * ```
 */
export interface AnswerIssue {
  readonly path: string
  readonly fieldId: number | null
  readonly message: string
}

type Check = Result.Result<AnswerValue, Message>

/** Says a message in a language: the page's voice, or English (what the API says). */
export type Say = (key: MessageKey, values?: MessageValues) => string

/** Says a message in English. */
export const sayEnglish: Say = (key, values) => Messages.builtInMessages.say("en", key, values)

/** The messages naming a part of a contact or address: the part is named in the message's language. */
const partKeys: ReadonlySet<MessageKey> = new Set([
  "answer.partRequired",
  "answer.partText",
  "answer.partMax",
  "answer.partEmail",
  "answer.partPhone"
])

/**
 * A check's message in a language (a contact's or address's part named in it too).
 *
 * @example
 * ```ts
 * messageText({ key: "answer.required", values: { q: '"Email"' } }) // "\"Email\" is required"
 * ```
 */
export const messageText = (message: Message, say: Say = sayEnglish): string => {
  const values = message.values
  const part = values?.["part"]
  return partKeys.has(message.key) && typeof part === "string"
    ? say(message.key, { ...values, part: say(`part.${part}` as MessageKey) })
    : say(message.key, values)
}

const ok = (value: AnswerValue): Check => Result.succeed(value)
const bad = (key: MessageKey, values: MessageValues): Check => Result.fail({ key, values })

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/
const TEL = /^[0-9 +\-().]{7,20}$/
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
/** A time of day, 24-hour, hours and minutes with optional seconds (`9:05` is read as `09:05`). */
const TIME = /^([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/
/** A local date and time as `<input type="datetime-local">` posts it (a space is read as `T`). */
const DATETIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{1,2}:\d{2}(?::\d{2})?)$/

const isEmpty = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  (Predicate.isString(value) && value.trim() === "") ||
  (Array.isArray(value) && value.length === 0) ||
  // The parts of a contact or address, or the rows of a matrix, all left empty.
  (Predicate.isObject(value) &&
    !Array.isArray(value) &&
    Object.values(value).every(
      (part) =>
        part === undefined ||
        part === null ||
        (Predicate.isString(part) && part.trim() === "") ||
        (Array.isArray(part) && part.length === 0)
    ))

const daysInMonth = (year: number, month: number): number =>
  month === 2
    ? (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31

const isCalendarDate = (s: string): boolean => {
  const m = DATE.exec(s)
  if (m === null) return false
  const year = Number(m[1])
  const month = Number(m[2])
  const day = Number(m[3])
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
}

/** A time of day in its stored form (`HH:MM`, or `HH:MM:SS` when the seconds are not zero), or undefined. */
const timeOf = (s: string): string | undefined => {
  const m = TIME.exec(s)
  if (m === null) return undefined
  const hm = `${m[1]!.padStart(2, "0")}:${m[2]}`
  return m[3] === undefined || m[3] === "00" ? hm : `${hm}:${m[3]}`
}

const isHttpUrl = (s: string): boolean => {
  if (!URL.canParse(s)) return false
  const protocol = new URL(s).protocol
  return protocol === "http:" || protocol === "https:"
}

const isOnStep = (value: number, base: number, step: number): boolean => {
  const q = (value - base) / step
  return Math.abs(q - Math.round(q)) <= 1e-9 * Math.max(1, Math.abs(q))
}

const decodeFileAnswer = Schema.decodeUnknownResult(FileAnswer)

/**
 * The types behind the extensions of files whose content can be recognised
 * (images and PDF): an `accept` entry `.jpg` also matches a file whose type is
 * `image/jpeg`, whatever its name.
 *
 * @example
 * ```ts
 * extensionTypes[".jpg"] // "image/jpeg"
 * ```
 */
export const extensionTypes: Readonly<Record<string, string>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".jpe": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".pdf": "application/pdf",
  ".bmp": "image/bmp",
  ".tif": "image/tiff",
  ".tiff": "image/tiff",
  ".ico": "image/x-icon",
  ".avif": "image/avif",
  ".heic": "image/heic",
  ".heif": "image/heif"
}

const matchesAccept = (file: FileAnswer, accept: ReadonlyArray<string>): boolean => {
  const type = file.type.toLowerCase()
  const name = file.name.toLowerCase()
  return accept.some((pattern) => {
    const p = pattern.toLowerCase()
    if (p.startsWith(".")) return name.endsWith(p) || extensionTypes[p] === type
    if (p.endsWith("/*")) return type.startsWith(p.slice(0, -1))
    return type === p
  })
}

const text = (q: string, value: unknown, max: number): Check => {
  if (!Predicate.isString(value)) return bad("answer.text", { q })
  const s = value.trim()
  return s.length > max ? bad("answer.textMax", { q, max }) : ok(s)
}

/** An e-mail address: the `email` question's and a contact's e-mail part's check. */
const isEmail = (s: string): boolean => s.length <= 254 && EMAIL.test(s)

/** A phone number of 7 digits or more: the `tel` question's and a contact's phone part's check. */
const isPhone = (s: string): boolean => TEL.test(s) && s.replace(/\D/g, "").length >= 7

/** The message of a number off its step, counted from `base` (numbers and sliders). */
const offStep = (q: string, base: number, step: number): Check =>
  base === 0 ? bad("answer.multipleOf", { q, step }) : bad("answer.plusMultipleOf", { q, base, step })

/** A number from `min` to `max` that is `min` plus a multiple of `step`: sliders. */
const onScale = (q: string, value: unknown, min: number, max: number, step: number): Check => {
  if (!Predicate.isNumber(value) || !Number.isFinite(value)) return bad("answer.number", { q })
  if (value < min || value > max) return bad("answer.range", { q, min, max })
  return isOnStep(value, min, step) ? ok(value) : offStep(q, min, step)
}

/** A whole number from `min` to `max`: ratings and scales. */
const wholeNumber = (q: string, value: unknown, min: number, max: number): Check =>
  Predicate.isNumber(value) && Number.isInteger(value) && value >= min && value <= max
    ? ok(value)
    : bad("answer.wholeRange", { q, min, max })

const partProblem = (info: PartInfo, s: string): { readonly key: MessageKey; readonly max?: number } | undefined => {
  if (s.length > info.maxLength) return { key: "answer.partMax", max: info.maxLength }
  if (info.name === "email" && !isEmail(s)) return { key: "answer.partEmail" }
  if (info.name === "phone" && !isPhone(s)) return { key: "answer.partPhone" }
  return undefined
}

/** A contact or address: an object of the asked parts, each checked; the required ones present. */
const checkParts = (q: string, field: Field, value: unknown): Check => {
  const parts = partsOf(field)
  const names = parts.map((p) => p.name)
  if (!Predicate.isObject(value) || Array.isArray(value)) {
    return bad("answer.partsObject", { q, parts: names.join(", ") })
  }
  const unknown = Object.keys(value).find((key) => !names.includes(key))
  if (unknown !== undefined) {
    return bad("answer.unknownPart", { q, part: JSON.stringify(unknown), parts: names.join(", ") })
  }
  const out: Record<string, string> = {}
  for (const info of parts) {
    const raw = value[info.name]
    const s = Predicate.isString(raw) ? raw.trim() : raw
    if (s === undefined || s === null || s === "") {
      if (!info.optional) return bad("answer.partRequired", { q, part: info.name })
      continue
    }
    if (!Predicate.isString(s)) return bad("answer.partText", { q, part: info.name })
    const problem = partProblem(info, s)
    if (problem !== undefined)
      return bad(
        problem.key,
        problem.max === undefined ? { q, part: info.name } : { q, part: info.name, max: problem.max }
      )
    out[info.name] = s
  }
  return ok(out)
}

/** A matrix: an object of answered rows, each one column (or several, in the columns' order); enough rows. */
const checkMatrix = (q: string, field: Field, value: unknown): Check => {
  const rows = field.options?.rows ?? []
  const columns = field.options?.columns ?? []
  const multiple = field.options?.multiple === true
  if (!Predicate.isObject(value) || Array.isArray(value)) {
    return bad(multiple ? "answer.matrixObjectMultiple" : "answer.matrixObject", { q })
  }
  const unknown = Object.keys(value).find((key) => !rows.includes(key))
  if (unknown !== undefined) return bad("answer.unknownRow", { q, row: JSON.stringify(unknown) })
  // Rows are the form's text: read as own keys only, written with fromEntries (a row may be called "__proto__").
  const out: Array<readonly [string, string | ReadonlyArray<string>]> = []
  let firstMissing: string | undefined
  for (const row of rows) {
    const raw = Object.hasOwn(value, row) ? value[row] : undefined
    const picked = Predicate.isString(raw) ? (raw.trim() === "" ? [] : [raw.trim()]) : raw
    if (picked === undefined || picked === null || (Array.isArray(picked) && picked.length === 0)) {
      firstMissing ??= row
      continue
    }
    if (!Array.isArray(picked) || !picked.every(Predicate.isString)) {
      return bad(multiple ? "answer.rowColumnList" : "answer.rowOneColumn", { q, row })
    }
    const chosen = picked.map((c) => c.trim())
    const stray = chosen.find((c) => !columns.includes(c))
    if (stray !== undefined) return bad("answer.unknownColumn", { q, row, column: JSON.stringify(stray) })
    if (!multiple && chosen.length > 1) return bad("answer.rowTakesOne", { q, row })
    if (new Set(chosen).size !== chosen.length) return bad("answer.rowRepeat", { q, row })
    out.push([row, multiple ? columns.filter((c) => chosen.includes(c)) : chosen[0]!])
  }
  const needed = field.required ? (field.options?.minRows ?? rows.length) : 0
  if (out.length < needed) {
    return needed === rows.length && firstMissing !== undefined
      ? bad("answer.rowRequired", { q, row: firstMissing })
      : bad("answer.minRows", { q, count: needed })
  }
  return ok(Object.fromEntries(out))
}

/** The message of a text typed for "Other" that is too long (select, checkboxes). */
const otherTooLong = (q: string): Check => bad("answer.otherTooLong", { q, max: OTHER_MAX })

/** A ranking: the choices in order, each once, as many as the places asked. */
const checkRanking = (q: string, field: Field, value: unknown): Check => {
  if (!Array.isArray(value) || !value.every(Predicate.isString)) return bad("answer.rankingList", { q })
  const choices = field.options?.choices ?? []
  const ranked = value.map((s) => s.trim())
  const unknown = ranked.find((s) => !choices.includes(s))
  if (unknown !== undefined) return bad("answer.unknownChoice", { q, choice: JSON.stringify(unknown) })
  if (new Set(ranked).size !== ranked.length) return bad("answer.repeatChoice", { q })
  const places = rankedPlaces(field)
  if (ranked.length !== places) {
    return bad(places === choices.length ? "answer.rankAll" : "answer.rankExactly", {
      q,
      count: places,
      ranked: ranked.length
    })
  }
  return ok(ranked)
}

/** What a required question without an answer is told: a `legal` question must be accepted. */
const requiredMessage = (field: Field): Message => ({
  key: field.type === "legal" ? "answer.mustAccept" : "answer.required",
  values: { q: JSON.stringify(field.label) }
})

const checkAnswer = (field: Field, value: unknown): Check => {
  const q = JSON.stringify(field.label)
  const options = field.options
  switch (field.type) {
    case "short_text":
      return text(q, value, 1000)
    case "long_text":
      return text(q, value, 10000)
    case "email": {
      if (!Predicate.isString(value)) return bad("answer.email", { q })
      const s = value.trim()
      return isEmail(s) ? ok(s) : bad("answer.email", { q })
    }
    case "tel": {
      if (!Predicate.isString(value)) return bad("answer.phone", { q })
      const s = value.trim()
      return isPhone(s) ? ok(s) : bad("answer.phone", { q })
    }
    case "url": {
      if (!Predicate.isString(value)) return bad("answer.url", { q })
      const s = value.trim()
      return s.length <= 2000 && isHttpUrl(s) ? ok(s) : bad("answer.url", { q })
    }
    case "number": {
      if (!Predicate.isNumber(value) || !Number.isFinite(value)) return bad("answer.number", { q })
      const min = options?.min
      const max = options?.max
      const step = options?.step
      if (min !== undefined && value < min) return bad("answer.atLeast", { q, min })
      if (max !== undefined && value > max) return bad("answer.atMost", { q, max })
      if (step !== undefined && step > 0 && !isOnStep(value, min ?? 0, step)) return offStep(q, min ?? 0, step)
      return ok(value)
    }
    case "date": {
      if (!Predicate.isString(value)) return bad("answer.date", { q })
      const s = value.trim()
      return isCalendarDate(s) ? ok(s) : bad("answer.date", { q })
    }
    case "select": {
      const other = otherOf(field)
      const message = other === undefined ? "answer.oneOfChoices" : "answer.oneOfChoicesOrText"
      if (!Predicate.isString(value)) return bad(message, { q })
      const s = value.trim()
      if ((options?.choices ?? []).includes(s)) return ok(s)
      if (other === undefined) return bad(message, { q })
      return s.length > OTHER_MAX ? otherTooLong(q) : ok(s)
    }
    case "checkboxes":
      return checkCheckboxes(q, field, value)
    case "rating":
      return wholeNumber(q, value, 1, options?.max ?? DEFAULT_RATING_MAX)
    case "nps":
    case "opinion_scale": {
      const { min, max } = scaleOf(field)
      return wholeNumber(q, value, min, max)
    }
    case "slider": {
      const { min, max, step } = sliderOf(field)
      return onScale(q, value, min, max, step)
    }
    case "time": {
      if (!Predicate.isString(value)) return bad("answer.time", { q })
      const time = timeOf(value.trim())
      return time === undefined ? bad("answer.time", { q }) : ok(time)
    }
    case "datetime": {
      if (!Predicate.isString(value)) return bad("answer.datetime", { q })
      const m = DATETIME.exec(value.trim())
      const time = m === null ? undefined : timeOf(m[2]!)
      return m === null || time === undefined || !isCalendarDate(m[1]!)
        ? bad("answer.datetime", { q })
        : ok(`${m[1]}T${time}`)
    }
    case "contact":
    case "address":
      return checkParts(q, field, value)
    case "matrix":
      return checkMatrix(q, field, value)
    case "ranking":
      return checkRanking(q, field, value)
    case "yes_no":
      return Predicate.isBoolean(value) ? ok(value) : bad("answer.boolean", { q })
    case "legal":
      if (!Predicate.isBoolean(value)) return bad("answer.legal", { q })
      return value || !field.required ? ok(value) : Result.fail(requiredMessage(field))
    case "file": {
      const decoded = decodeFileAnswer(value)
      if (Result.isFailure(decoded)) return bad("answer.file", { q })
      const file = decoded.success
      const maxSizeMb = options?.maxSizeMb
      if (maxSizeMb !== undefined && file.size > maxSizeMb * 1024 * 1024) {
        return bad("answer.fileSize", { q, size: maxSizeMb })
      }
      const accept = options?.accept
      if (accept !== undefined && accept.length > 0 && !matchesAccept(file, accept)) {
        return bad("answer.fileType", { q, types: accept.join(", ") })
      }
      return ok(file)
    }
    case "signature":
      return checkSignature(q, value)
    case "statement":
      return bad("answer.noAnswer", { q })
  }
}

const decodeTypedSignature = Schema.decodeUnknownResult(TypedSignatureInput)

/** A signature: a drawn PNG uploaded to the question, or a typed full name with consent. */
const checkSignature = (q: string, value: unknown): Check => {
  const file = decodeFileAnswer(value)
  if (Result.isSuccess(file)) {
    if (file.success.type !== "image/png") return bad("answer.signaturePng", { q })
    if (file.success.size > SIGNATURE_MAX_BYTES) return bad("answer.signatureSize", { q })
    return ok(file.success)
  }
  const typed = decodeTypedSignature(value)
  if (Result.isFailure(typed)) {
    return bad("answer.signatureShape", { q })
  }
  const name = stripBidiControls(typed.success.typedName).trim().replace(/\s+/g, " ")
  if (name === "") return bad("answer.signatureName", { q })
  if (name.length > TYPED_SIGNATURE_MAX) return bad("answer.signatureNameMax", { q, max: TYPED_SIGNATURE_MAX })
  if (!typed.success.consent) return bad("answer.signatureConsent", { q })
  return ok({ typedName: name, consent: true })
}

const checkCheckboxes = (q: string, field: Field, value: unknown): Check => {
  const options = field.options
  if (!Array.isArray(value) || !value.every(Predicate.isString)) return bad("answer.choiceList", { q })
  const choices = options?.choices ?? []
  const picked = value.map((s) => s.trim())
  const unknown = picked.filter((s) => !choices.includes(s))
  // With Other, one answer may be any text (it goes last); without, every answer is a choice.
  const other = otherOf(field)
  if (other === undefined) {
    if (unknown[0] !== undefined) return bad("answer.unknownChoice", { q, choice: JSON.stringify(unknown[0]) })
  } else if (unknown[0] !== undefined) {
    if (unknown.length > 1) return bad("answer.oneOther", { q, count: unknown.length })
    if (unknown[0] === "") return bad("answer.typeOther", { q, other: JSON.stringify(other) })
    if (unknown[0].length > OTHER_MAX) return otherTooLong(q)
  }
  if (new Set(picked).size !== picked.length) return bad("answer.repeatChoice", { q })
  const min = options?.minSelections
  const max = options?.maxSelections
  if (min !== undefined && picked.length < min) {
    return bad("answer.minSelections", { q, count: min })
  }
  if (max !== undefined && picked.length > max) {
    return bad("answer.maxSelections", { q, count: max })
  }
  return ok([...choices.filter((c) => picked.includes(c)), ...unknown])
}

/**
 * The answers with each one that passes its question's check in its stored
 * form (trimmed, `9:05` as `09:05`, checkboxes in the choices' order); any
 * other value is kept as sent, for `validateAnswers` to name. Form logic
 * reads these, so that a submission through the API takes the same path as
 * the page, which checks each answer before it goes on.
 *
 * @example
 * ```ts
 * const fields: ReadonlyArray<Field> = [
 *   { id: 1, type: "time", label: "Arrival", required: true, position: 0, options: null }
 * ]
 * cleanAnswers(fields, { "1": "9:05", "2": "x" }) // { "1": "09:05", "2": "x" }
 * ```
 */
export const cleanAnswers = (
  fields: ReadonlyArray<Field>,
  values: Readonly<Record<string, unknown>>
): Record<string, unknown> => {
  const byId = new Map(fields.map((field) => [String(field.id), field]))
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(values)) {
    const field = byId.get(key)
    const checked = field === undefined || isEmpty(value) ? undefined : checkAnswer(field, value)
    out[key] = checked !== undefined && Result.isSuccess(checked) ? checked.success : value
  }
  return out
}

/**
 * Validates submitted answers against a form's questions. Pure and total:
 * never throws, whatever `values` is.
 *
 * `values` must be an object keyed by question id. Empty answers (`undefined`,
 * `null`, blank strings, empty arrays) count as missing; missing optional
 * answers are omitted from the output. Strings are trimmed; checkbox answers
 * are returned in the choices' order. All issues are collected, at most one
 * per question, questions in position order, then unknown keys.
 *
 * @example
 * ```ts
 * const fields: ReadonlyArray<Field> = [
 *   { id: 1, type: "email", label: "Email", required: true, position: 0, options: null }
 * ]
 * validateAnswers(fields, { "1": " ada@example.com " }) // Result.succeed({ "1": "ada@example.com" })
 * validateAnswers(fields, {}) // Result.fail([{ path: "values.1", fieldId: 1, message: "\"Email\" is required" }])
 * ```
 */
export const validateAnswers = (
  fields: ReadonlyArray<Field>,
  values: unknown,
  say: Say = sayEnglish
): Result.Result<Record<string, AnswerValue>, ReadonlyArray<AnswerIssue>> => {
  if (!Predicate.isObject(values)) {
    return Result.fail([{ path: "values", fieldId: null, message: "values must be an object keyed by question id" }])
  }
  const issues: Array<AnswerIssue> = []
  const out: Record<string, AnswerValue> = {}
  const known = new Set<string>()
  for (const field of byPosition(fields)) {
    const key = String(field.id)
    known.add(key)
    const value = Object.hasOwn(values, key) ? values[key] : undefined
    if (isEmpty(value)) {
      if (field.required && field.type !== "statement") {
        issues.push({ path: `values.${key}`, fieldId: field.id, message: messageText(requiredMessage(field), say) })
      }
      continue
    }
    const checked = checkAnswer(field, value)
    if (Result.isSuccess(checked)) {
      out[key] = checked.success
    } else {
      issues.push({ path: `values.${key}`, fieldId: field.id, message: messageText(checked.failure, say) })
    }
  }
  for (const key of Object.keys(values)) {
    if (!known.has(key)) {
      issues.push({ path: `values.${key}`, fieldId: null, message: `unknown question ${key}` })
    }
  }
  return issues.length > 0 ? Result.fail(issues) : Result.succeed(out)
}
