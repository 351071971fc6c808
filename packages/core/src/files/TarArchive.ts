/**
 * POSIX tar archives (pax interchange format), written and read a piece at a
 * time: what `DatabaseBackup` keeps a backup in. Every tool reads them
 * (`tar -tzf backup.tar.gz` lists one).
 *
 * - Writing: {@link header} before an entry's bytes, {@link padding} after
 *   them, {@link end} after the last entry. A name longer than ustar's 100
 *   bytes, or a size from 8 GiB on, goes in a pax extended header (`x`)
 *   before the entry's own. Every entry is dated 1970-01-01 with mode 0600:
 *   the same content is the same bytes.
 * - Reading: {@link makeReader} is a push parser: bytes in, in pieces of any
 *   size; it answers each entry's header, then its bytes, then its end, as
 *   events. Memory stays flat (a header block and a pax header of at most
 *   64 KiB are the only things held). A block whose checksum does not add up,
 *   a truncated archive, or an entry other than a file or a directory is a
 *   {@link TarArchiveError}.
 *
 * @module
 */
import * as Schema from "effect/Schema"

/** The archive cannot be read: not a tar archive, damaged, or cut short. */
export class TarArchiveError extends Schema.TaggedError<TarArchiveError>()("TarArchiveError", {
  message: Schema.String
}) {}

const BLOCK = 512
const encoder = new TextEncoder()
const decoder = new TextDecoder()
/** The largest size an ustar header holds: 11 octal digits. */
const MAX_USTAR_SIZE = 8 ** 11 - 1
/** The longest pax header read (paths and sizes only: a few hundred bytes in practice). */
const MAX_PAX = 64 * 1024

const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, "0")}\0`

/** One ustar header block. `name` is at most 100 bytes, `size` at most {@link MAX_USTAR_SIZE}. */
const ustar = (name: Uint8Array, size: number, type: "0" | "5" | "x"): Uint8Array => {
  const block = new Uint8Array(BLOCK)
  const put = (text: string, offset: number) => block.set(encoder.encode(text), offset)
  block.set(name.subarray(0, 100), 0)
  put(octal(type === "5" ? 0o700 : 0o600, 8), 100)
  put(octal(0, 8), 108)
  put(octal(0, 8), 116)
  put(octal(size, 12), 124)
  put(octal(0, 12), 136)
  put("        ", 148)
  put(type, 156)
  put("ustar\0", 257)
  put("00", 263)
  let sum = 0
  for (const byte of block) sum += byte
  put(`${sum.toString(8).padStart(6, "0")}\0 `, 148)
  return block
}

/** A pax record: `"<length> <key>=<value>\n"`, where the length counts itself. */
const paxRecord = (key: string, value: string) => {
  const body = ` ${key}=${value}\n`
  const bodyLength = encoder.encode(body).length
  let length = bodyLength + String(bodyLength).length
  if (String(length).length !== String(bodyLength).length) length = bodyLength + String(length).length
  return `${length}${body}`
}

/**
 * The header of an entry: a file of `size` bytes, or a directory (`name`
 * ending in `/`, size 0). The entry's bytes follow, then {@link padding}.
 *
 * @example
 * ```ts
 * const bytes = new TextEncoder().encode("hello")
 * const archive = [TarArchive.header("a.txt", bytes.length), bytes, TarArchive.padding(bytes.length), TarArchive.end]
 * ```
 */
export const header = (name: string, size: number): Uint8Array => {
  const type = name.endsWith("/") ? "5" : "0"
  const encoded = encoder.encode(name)
  if (encoded.length <= 100 && size <= MAX_USTAR_SIZE) return ustar(encoded, size, type)
  const records = encoder.encode(
    (encoded.length > 100 ? paxRecord("path", name) : "") +
      (size > MAX_USTAR_SIZE ? paxRecord("size", String(size)) : "")
  )
  const pax = ustar(encoder.encode("PaxHeader"), records.length, "x")
  const out = new Uint8Array(BLOCK + records.length + padding(records.length).length + BLOCK)
  out.set(pax, 0)
  out.set(records, BLOCK)
  out.set(ustar(encoded.subarray(0, 100), Math.min(size, MAX_USTAR_SIZE), type), out.length - BLOCK)
  return out
}

/** The zero bytes that fill an entry of `size` bytes up to a whole block. */
export const padding = (size: number): Uint8Array => new Uint8Array((BLOCK - (size % BLOCK)) % BLOCK)

/** The end of an archive: two zero blocks. */
export const end: Uint8Array = new Uint8Array(2 * BLOCK)

/** An entry as its header describes it. */
export interface Entry {
  readonly name: string
  readonly size: number
  readonly type: "file" | "directory"
}

/** What a reader found in the bytes pushed: an entry begins, some of its bytes, it ends. */
export type Event =
  | { readonly _tag: "Entry"; readonly entry: Entry }
  | { readonly _tag: "Data"; readonly bytes: Uint8Array }
  | { readonly _tag: "EntryEnd" }

/** A push parser of one archive (see {@link makeReader}). */
export interface Reader {
  /**
   * The next bytes of the archive: what they hold, in order, or the error
   * that stops the reading. `Data` events are views of `bytes`: use them
   * before the next push.
   */
  readonly push: (bytes: Uint8Array) => ReadonlyArray<Event> | TarArchiveError
  /** The archive has ended: an error when it was cut short. */
  readonly finish: () => TarArchiveError | undefined
}

const readOctal = (block: Uint8Array, offset: number, width: number) => {
  const text = decoder
    .decode(block.subarray(offset, offset + width))
    .replace(/[\0 ]+$/u, "")
    .trim()
  return /^[0-7]+$/u.test(text) ? Number.parseInt(text, 8) : Number.NaN
}

const readString = (block: Uint8Array, offset: number, width: number) => {
  const field = block.subarray(offset, offset + width)
  const zero = field.indexOf(0)
  return decoder.decode(zero < 0 ? field : field.subarray(0, zero))
}

/** The records of a pax header (`"<length> <key>=<value>\n"` each, the length in bytes). */
const parsePax = (bytes: Uint8Array): Map<string, string> | undefined => {
  const records = new Map<string, string>()
  let at = 0
  while (at < bytes.length) {
    const space = bytes.indexOf(0x20, at)
    if (space < 0) return undefined
    const length = Number.parseInt(decoder.decode(bytes.subarray(at, space)), 10)
    if (!Number.isInteger(length) || length <= space - at || at + length > bytes.length) return undefined
    const record = decoder.decode(bytes.subarray(space + 1, at + length))
    const equals = record.indexOf("=")
    if (equals < 0 || !record.endsWith("\n")) return undefined
    records.set(record.slice(0, equals), record.slice(equals + 1, -1))
    at += length
  }
  return records
}

/**
 * A push parser of an archive: feed it the archive's bytes as they come
 * (`push`), then `finish`.
 *
 * @example
 * ```ts
 * const reader = TarArchive.makeReader()
 * const events = reader.push(bytes)
 * if (!(events instanceof TarArchive.TarArchiveError)) {
 *   for (const event of events) if (event._tag === "Entry") console.log(event.entry.name, event.entry.size)
 * }
 * const cutShort = reader.finish()
 * ```
 */
export const makeReader = (): Reader => {
  /** The header block being gathered. */
  const block = new Uint8Array(BLOCK)
  let filled = 0
  /** Bytes left of the current entry's content, then of its padding. */
  let content = 0
  let pad = 0
  /** A pax header's records being gathered (the content of an `x` entry). */
  let pax: { readonly bytes: Uint8Array; filled: number } | undefined
  let next: Map<string, string> | undefined
  let zeroBlocks = 0
  let ended = false
  let inEntry = false
  let failure: TarArchiveError | undefined
  let events: Array<Event> = []

  const fail = (message: string) => {
    failure = new TarArchiveError({ message })
    return failure
  }

  const onHeader = (): TarArchiveError | undefined => {
    if (block.every((byte) => byte === 0)) {
      zeroBlocks += 1
      if (zeroBlocks === 2) ended = true
      return undefined
    }
    if (zeroBlocks > 0) return fail("the archive is damaged: a zero block inside it")
    let sum = 0
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!
    if (readOctal(block, 148, 8) !== sum)
      return fail("not a tar archive, or a damaged one (a header's checksum is wrong)")
    const type = String.fromCharCode(block[156]!)
    const size = readOctal(block, 124, 12)
    if (!Number.isSafeInteger(size)) return fail("the archive is damaged: a header's size is not a number")
    if (type === "x") {
      if (size > MAX_PAX) return fail("the archive has a pax header over 64 KiB")
      pax = { bytes: new Uint8Array(size), filled: 0 }
      content = size
      pad = padding(size).length
      return undefined
    }
    if (type !== "0" && type !== "\0" && type !== "5") {
      return fail(`the archive holds an entry that is neither a file nor a directory (type ${JSON.stringify(type)})`)
    }
    const prefix = readString(block, 345, 155)
    const ownName = readString(block, 0, 100)
    const name = next?.get("path") ?? (prefix === "" ? ownName : `${prefix}/${ownName}`)
    const paxSize = next?.get("size")
    const realSize = paxSize === undefined ? size : Number(paxSize)
    next = undefined
    if (!Number.isSafeInteger(realSize) || realSize < 0)
      return fail("the archive is damaged: a pax size is not a number")
    if (name === "" || name.split("/").some((part) => part === "..")) {
      return fail(`the archive holds an unsafe name: ${JSON.stringify(name)}`)
    }
    events.push({ _tag: "Entry", entry: { name, size: realSize, type: type === "5" ? "directory" : "file" } })
    inEntry = true
    content = realSize
    pad = padding(realSize).length
    return content === 0 ? closeEntry() : undefined
  }

  const closeEntry = (): TarArchiveError | undefined => {
    if (pax !== undefined) {
      next = parsePax(pax.bytes)
      pax = undefined
      return next === undefined ? fail("the archive is damaged: a pax header cannot be read") : undefined
    }
    inEntry = false
    events.push({ _tag: "EntryEnd" })
    return undefined
  }

  const push = (bytes: Uint8Array): ReadonlyArray<Event> | TarArchiveError => {
    if (failure !== undefined) return failure
    events = []
    let at = 0
    while (at < bytes.length) {
      if (ended) return events
      if (content > 0) {
        const take = Math.min(content, bytes.length - at)
        const piece = bytes.subarray(at, at + take)
        if (pax !== undefined) {
          pax.bytes.set(piece, pax.filled)
          pax.filled += take
        } else events.push({ _tag: "Data", bytes: piece })
        at += take
        content -= take
        if (content === 0) {
          const error = closeEntry()
          if (error !== undefined) return error
        }
      } else if (pad > 0) {
        const take = Math.min(pad, bytes.length - at)
        at += take
        pad -= take
      } else {
        const take = Math.min(BLOCK - filled, bytes.length - at)
        block.set(bytes.subarray(at, at + take), filled)
        filled += take
        at += take
        if (filled === BLOCK) {
          filled = 0
          const error = onHeader()
          if (error !== undefined) return error
        }
      }
    }
    return events
  }

  const finish = (): TarArchiveError | undefined => {
    if (failure !== undefined) return failure
    if (ended) return undefined
    return fail(
      inEntry || content > 0 || pad > 0 || filled > 0
        ? "the archive is cut short (an entry ends before its size)"
        : "the archive is cut short (its end marker is missing)"
    )
  }

  return { push, finish }
}
