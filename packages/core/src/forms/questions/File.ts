/**
 * The `file` question type: a file uploaded through the page's upload route
 * (or, without JavaScript, with the step itself), of the types `accept`
 * names and at most `maxSizeMb` (10 MB by default). The answer is the
 * upload's reference ({@link FileAnswer}).
 *
 * @module
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { attr, html, strictStruct } from "../../kernel/index.ts"
import { bad, ok } from "./AnswerChecks.ts"
import { FileAnswer } from "./AnswerShapes.ts"
import { TextOptionFields } from "./OptionFields.ts"
import { describedBy, invalid, questionLabel } from "./PageControls.ts"
import { postedUpload } from "./PostedAnswers.ts"
import { type QuestionField, questionType, type Say } from "./QuestionType.ts"
import { textColumn, WIDE } from "./SheetColumns.ts"

const AcceptPattern =
  /^(?:\.[A-Za-z0-9][A-Za-z0-9+_-]*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/(?:\*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*))$/

/**
 * Options of a `file` question: `accept` (up to 50 MIME types such as
 * `"application/pdf"`, wildcards such as `"image/*"`, or extensions such as
 * `".pdf"`) and `maxSizeMb` (> 0, ≤ 100). Unknown keys are rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(FileOptions)({ accept: ["image/*", ".pdf"], maxSizeMb: 5 })
 * ```
 */
export const FileOptions = strictStruct({
  ...TextOptionFields,
  accept: Schema.optionalKey(
    Schema.Array(
      Schema.Trim.check(
        Schema.isMaxLength(100),
        Schema.isPattern(AcceptPattern, {
          message: 'accept entries must be MIME types ("image/png", "image/*") or extensions (".pdf")'
        })
      )
    ).check(Schema.isMaxLength(50))
  ),
  maxSizeMb: Schema.optionalKey(
    Schema.Finite.check(
      Schema.isGreaterThan(0, { message: "maxSizeMb must be greater than 0" }),
      Schema.isLessThanOrEqualTo(100, { message: "maxSizeMb must be at most 100" })
    )
  )
})

/** Decoded {@link FileOptions}. @example `const o: FileOptions = { maxSizeMb: 5 }` */
export type FileOptions = typeof FileOptions.Type

/** The size limit of a `file` question without `maxSizeMb`: 10 MB. */
export const DEFAULT_MAX_SIZE_MB = 10

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

/** Reads a file answer (the reference of an upload). */
export const decodeFileAnswer = Schema.decodeUnknownResult(FileAnswer)

const fileHint = (field: QuestionField, say: Say): string => {
  const size = field.options?.maxSizeMb ?? DEFAULT_MAX_SIZE_MB
  const accept = field.options?.accept
  return accept !== undefined && accept.length > 0
    ? say("question.fileHintTypes", { size, types: accept.join(", ") })
    : say("question.fileHint", { size })
}

/** A file upload. */
export const File = questionType({
  type: "file",
  label: "File upload",
  options: FileOptions,
  upload: {
    withStep: true,
    limits: (options) => ({ maxSizeMb: options?.maxSizeMb ?? DEFAULT_MAX_SIZE_MB, accept: options?.accept ?? [] })
  },
  check: (field, value, q) => {
    const options = field.options
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
  },
  parse: (_field, answers) => postedUpload(answers),
  view: (field, { entered, error, voice }) => {
    const current = entered.file
    const accept = field.options?.accept
    return html`${questionLabel(field, voice.say)}
<input type="hidden" name="a" value="${current ? JSON.stringify(current) : ""}">
<input id="a" name="file" type="file" autofocus data-field="${field.id}"${attr(
      "accept",
      accept && accept.length > 0 ? accept.join(",") : undefined
    )}${attr("aria-describedby", describedBy(field, error, "file-hint upload-status"))}${invalid(error)}>
<p class="hint" id="file-hint">${fileHint(field, voice.say)}</p>
<progress class="upload" max="1" value="${current ? 1 : 0}" aria-label="${voice.say("question.uploadProgress")}"${attr(
      "hidden",
      current ? false : "hidden"
    )}></progress>
<p class="upload-status" id="upload-status" aria-live="polite">${current ? voice.say("question.uploaded", { name: current.name }) : ""}</p>`
  },
  sheet: (_field, key, shown) => [textColumn(key, shown, WIDE)],
  summary: { kind: "files" },
  operators: ["contains", "notContains", "isEmpty", "isNotEmpty"],
  generator: { describe: 'file (upload; options.accept such as ["application/pdf", "image/*"] and options.maxSizeMb)' }
})
