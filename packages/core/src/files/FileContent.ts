/**
 * What an uploaded file is: its type read from its first bytes (`sniff`),
 * whether a question's `accept` list takes it, the name it is stored under,
 * and the stream check that refuses it, as the bytes arrive, when it is too
 * large or not of a type the question takes (`inspect`).
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { type InvalidInput, stripBidiControls } from "../kernel/index.ts"
import { type AnyFieldOptions, extensionTypes, type Field, QuestionTypes } from "../forms/index.ts"

/**
 * The size limit and `accept` list of an upload to a question, as its type
 * says (`upload.limits` of its module in `forms/questions/`): a `file`
 * question's own, or a signature's drawing (a PNG of at most 1 MB); `undefined`
 * for a type that takes no upload.
 *
 * @example
 * ```ts
 * uploadLimitsOf({ type: "signature", options: null }) // { maxSizeMb: 1, accept: ["image/png"] }
 * ```
 */
export const uploadLimitsOf = (field: {
  readonly type: Field["type"]
  readonly options: AnyFieldOptions | null
}): { readonly maxSizeMb: number; readonly accept: ReadonlyArray<string> } | undefined =>
  QuestionTypes.typeOf(field).upload?.limits(field.options as never)

/** The file is larger than its question allows. Answered as 413. */
export class FileTooLarge extends Schema.TaggedError<FileTooLarge>()("FileTooLarge", {
  message: Schema.String
}) {}

/** The file's content is not of a type its question accepts. Answered as 415. */
export class UnsupportedFileType extends Schema.TaggedError<UnsupportedFileType>()("UnsupportedFileType", {
  message: Schema.String
}) {}

// ---------------------------------------------------------------------------
// Content types
// ---------------------------------------------------------------------------

/** Bytes read before deciding what a file is. */
export const SNIFF_BYTES = 512

const startsWith = (bytes: Uint8Array, signature: ReadonlyArray<number>, offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte)
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0))

/** The brands of an ISO-BMFF `ftyp` box that name a still image format. */
const FTYP_BRANDS: Record<string, string> = {
  avif: "image/avif",
  avis: "image/avif",
  heic: "image/heic",
  heix: "image/heic",
  mif1: "image/heif",
  msf1: "image/heif"
}

/**
 * The type of a file by its first bytes, for the types whose content can be
 * recognised reliably (images and PDF); `undefined` for anything else.
 *
 * @example
 * ```ts
 * sniff(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d])) // "application/pdf"
 * ```
 */
export const sniff = (head: Uint8Array): string | undefined => {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png"
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "image/jpeg"
  if (startsWith(head, ascii("GIF87a")) || startsWith(head, ascii("GIF89a"))) return "image/gif"
  if (startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WEBP"), 8)) return "image/webp"
  if (startsWith(head, ascii("%PDF-"))) return "application/pdf"
  if (startsWith(head, ascii("BM")) && head.length >= 14) return "image/bmp"
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return "image/tiff"
  if (startsWith(head, [0x00, 0x00, 0x01, 0x00]) && head.length >= 6) return "image/x-icon"
  if (startsWith(head, ascii("ftyp"), 4) && head.length >= 12) {
    return FTYP_BRANDS[String.fromCharCode(...head.subarray(8, 12))]
  }
  return undefined
}

/** Extensions of the types {@link sniff} recognises. */
export const SNIFFED_EXTENSIONS = extensionTypes

const SNIFFED_TYPES = new Set(Object.values(SNIFFED_EXTENSIONS))

const TYPE_ALIASES: Record<string, string> = {
  "image/jpg": "image/jpeg",
  "image/pjpeg": "image/jpeg",
  "image/vnd.microsoft.icon": "image/x-icon",
  "application/x-pdf": "application/pdf"
}

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/

/** A declared content type, lower-cased and without parameters; `undefined` when it is not a MIME type. */
export const normalizeType = (type: string): string | undefined => {
  const bare = type.split(";")[0]!.trim().toLowerCase()
  return MIME.test(bare) ? (TYPE_ALIASES[bare] ?? bare) : undefined
}

export const extensionOf = (name: string): string => {
  const dot = name.lastIndexOf(".")
  return dot <= 0 ? "" : name.slice(dot).toLowerCase()
}

/** Whether an `accept` entry asks for a type whose content {@link sniff} recognises. */
const asksForSniffable = (entry: string): boolean =>
  entry.startsWith(".")
    ? SNIFFED_EXTENSIONS[entry] !== undefined
    : entry === "image/*" || SNIFFED_TYPES.has(TYPE_ALIASES[entry] ?? entry)

/**
 * Whether a file matches a question's `accept` entries, judged by its content
 * where the content tells (images, PDF) and by its declared type and name
 * otherwise. A file whose bytes are a PNG matches `image/png`, `image/*` and
 * `.png`, whatever its name says; a file whose bytes are not a recognised type
 * never matches an entry asking for one (`image/*`, `.pdf`, …).
 *
 * @example
 * ```ts
 * matchesAccept(["application/pdf"], { sniffed: "image/png", declared: "application/pdf", name: "cv.pdf" }) // false
 * matchesAccept([".docx"], { sniffed: undefined, declared: "application/octet-stream", name: "cv.docx" }) // true
 * ```
 */
export const matchesAccept = (
  accept: ReadonlyArray<string>,
  file: { readonly sniffed: string | undefined; readonly declared: string | undefined; readonly name: string }
): boolean =>
  accept.some((raw) => {
    const entry = raw.trim().toLowerCase()
    if (file.sniffed !== undefined) {
      if (entry.startsWith(".")) return SNIFFED_EXTENSIONS[entry] === file.sniffed
      if (entry.endsWith("/*")) return file.sniffed.startsWith(entry.slice(0, -1))
      return (TYPE_ALIASES[entry] ?? entry) === file.sniffed
    }
    if (asksForSniffable(entry)) return false
    if (entry.startsWith(".")) return file.name.toLowerCase().endsWith(entry)
    if (file.declared === undefined) return false
    if (entry.endsWith("/*")) return file.declared.startsWith(entry.slice(0, -1))
    return (TYPE_ALIASES[entry] ?? entry) === file.declared
  })

/** A file name as stored: the last path segment, no control characters, at most 255 characters. */
export const cleanFileName = (name: string): string => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this pattern removes
  const base = stripBidiControls((name.split(/[\\/]/).pop() ?? "").replace(/[\u0000-\u001f\u007f]/g, "")).trim()
  const cut = Array.from(base).slice(-255).join("")
  return cut === "" || cut === "." || cut === ".." ? "file" : cut
}

export const formatMb = (mb: number) => String(mb)

/** Bytes for people: `1 GiB`, `512 MiB`, `700 KiB`, `12 bytes`. */
export const formatBytes = (bytes: number): string => {
  const units: ReadonlyArray<readonly [string, number]> = [
    ["GiB", 1024 ** 3],
    ["MiB", 1024 ** 2],
    ["KiB", 1024]
  ]
  for (const [unit, size] of units) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`
  }
  return `${bytes} bytes`
}

/**
 * A stream of uploaded bytes checked as it arrives, on its way to the
 * `BlobStore`: it fails with `tooLarge()` as soon as the bytes pass
 * `maxBytes`, with `over(size)` as soon as that says they no longer fit,
 * with `judge(head)` once the first {@link SNIFF_BYTES} are in (or all of
 * them, when fewer) and the content is not what the upload takes, and with
 * `empty()` when nothing came. `head()` is the first `keep` bytes
 * (at least {@link SNIFF_BYTES}); `size()` the bytes so far.
 *
 * @example
 * ```ts
 * const inspected = inspect(part.content, { maxBytes, tooLarge, over: () => undefined, keep: 512, judge, empty })
 * yield* blobs.put(key, inspected.stream)
 * const type = sniff(inspected.head())
 * ```
 */
export const inspect = <E, F>(
  content: Stream.Stream<Uint8Array, E>,
  rules: {
    readonly maxBytes: number
    readonly tooLarge: () => FileTooLarge
    readonly over: (size: number) => F | undefined
    readonly keep: number
    readonly judge: (head: Uint8Array) => UnsupportedFileType | undefined
    readonly empty: () => InvalidInput
  }
): {
  readonly stream: Stream.Stream<Uint8Array, E | F | FileTooLarge | UnsupportedFileType | InvalidInput>
  readonly size: () => number
  readonly head: () => Uint8Array
} => {
  const keep = Math.max(rules.keep, SNIFF_BYTES)
  let size = 0
  let head = new Uint8Array(0)
  let judged = false
  const judge = Effect.suspend((): Effect.Effect<void, UnsupportedFileType> => {
    judged = true
    const refused = rules.judge(head)
    return refused === undefined ? Effect.void : Effect.fail(refused)
  })
  const stream = Stream.mapEffect(
    content,
    (chunk: Uint8Array): Effect.Effect<Uint8Array, F | FileTooLarge | UnsupportedFileType> => {
      size += chunk.length
      if (size > rules.maxBytes) return Effect.fail(rules.tooLarge())
      const over = rules.over(size)
      if (over !== undefined) return Effect.fail(over)
      if (head.length < keep) {
        const more = chunk.subarray(0, keep - head.length)
        const joined = new Uint8Array(head.length + more.length)
        joined.set(head)
        joined.set(more, head.length)
        head = joined
      }
      return !judged && head.length >= SNIFF_BYTES ? Effect.as(judge, chunk) : Effect.succeed(chunk)
    }
  ).pipe(
    Stream.concat(
      Stream.fromEffectDrain(
        Effect.suspend((): Effect.Effect<void, InvalidInput | UnsupportedFileType> => {
          if (size === 0) return Effect.fail(rules.empty())
          return judged ? Effect.void : judge
        })
      )
    )
  )
  return { stream, size: () => size, head: () => head }
}
