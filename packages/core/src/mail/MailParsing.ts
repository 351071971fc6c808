/**
 * Parsing untrusted raw e-mail (MIME) off the event loop, under a time budget.
 *
 * A reply is text anyone holding a reply address can write; mailparser (and
 * the HTML-to-text conversion inside it) does CPU work on it that grows with
 * its size and shape. So each message is parsed in a worker thread: the event
 * loop (and `/healthz`, and every other request) keeps answering while it
 * runs, and a message that takes longer than its budget has its worker
 * terminated and is refused as unparsable. The quoted-history cut
 * ({@link stripQuoted}) runs there too. At most {@link maxParallel}
 * messages are parsed at once.
 */
import { createRequire } from "node:module"
import { Worker } from "node:worker_threads"
import * as Effect from "effect/Effect"
import * as Semaphore from "effect/Semaphore"
import { InvalidInput } from "../kernel/index.ts"
import { stripQuoted } from "./QuotedText.ts"

/** One attachment of a parsed message. */
export interface ParsedAttachment {
  readonly content: Uint8Array
  readonly filename: string | undefined
  readonly contentType: string
  /** An inline part of the HTML (an embedded image), not an attachment the sender meant. */
  readonly related: boolean
}

/** What the reply handling needs of a message. */
export interface ParsedMail {
  /** The first address of `From`, if any. */
  readonly from: string | undefined
  /** The addresses of `To` and `Cc`, then `Delivered-To` and `X-Original-To`. */
  readonly recipients: ReadonlyArray<string>
  /** The raw `In-Reply-To` and `References` values (message ids in angle brackets). */
  readonly inReplyTo: string
  readonly references: string
  readonly messageId: string | undefined
  readonly subject: string
  /** The text part, or the HTML part as text. */
  readonly text: string
  /** The new part of `text`: its quoted history and signature cut off ({@link stripQuoted}). */
  readonly reply: string
  readonly attachments: ReadonlyArray<ParsedAttachment>
}

/** Default time one message may take to parse (ms). */
export const defaultBudgetMs = 5_000

/** Messages parsed at once (each in its own worker thread). */
export const maxParallel = 2

/** HTML parts longer than this are turned into text by a linear tag strip instead of mailparser's html-to-text. */
const maxHtmlToTextChars = 200_000

// The worker: CommonJS (an `eval` worker), mailparser loaded from the path the
// main thread resolved, so it runs the same from src/ and dist/.
const workerSource = String.raw`
const { parentPort, workerData } = require("node:worker_threads")
const stripQuoted = ${stripQuoted.toString()}
const { simpleParser } = require(workerData.mailparser)
const entities = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " }
// Linear: no pattern here can backtrack over more than one tag or entity.
const stripTags = (html) => html
  .replace(/<(br|\/p|\/div|\/li|\/tr|\/h[1-6])\b[^<>]*>/gi, "\n")
  .replace(/<[^<>]*>/g, "")
  .replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, name) => {
    if (name[0] !== "#") return entities[name.toLowerCase()] ?? whole
    const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })
const addresses = (field) => (field === undefined ? [] : Array.isArray(field) ? field : [field])
  .flatMap((object) => object.value.map((a) => a.address ?? ""))
const headerText = (mail, name) => {
  const value = mail.headers.get(name)
  return typeof value === "string" ? [value] : []
}
const ids = (value) => typeof value === "string" ? value : Array.isArray(value) ? value.join(" ") : ""
parentPort.once("message", (raw) => {
  simpleParser(Buffer.from(raw), {
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
    maxHtmlLengthToParse: ${maxHtmlToTextChars}
  }).then((mail) => {
    const text = mail.text || (typeof mail.html === "string" ? stripTags(mail.html) : "")
    const attachments = mail.attachments.map((a) => ({
      content: new Uint8Array(a.content),
      filename: a.filename,
      contentType: a.contentType || "application/octet-stream",
      related: a.related === true
    }))
    parentPort.postMessage({
      ok: {
        from: mail.from?.value.find((a) => a.address !== undefined)?.address,
        recipients: [...addresses(mail.to), ...addresses(mail.cc), ...headerText(mail, "delivered-to"), ...headerText(mail, "x-original-to")],
        inReplyTo: ids(mail.inReplyTo),
        references: ids(mail.references),
        messageId: mail.messageId,
        subject: mail.subject ?? "",
        text,
        reply: stripQuoted(text),
        attachments
      }
    }, attachments.map((a) => a.content.buffer))
  }, (error) => parentPort.postMessage({ error: String(error && error.message || error) }))
})
`

const mailparserPath = (): string => createRequire(import.meta.url).resolve("mailparser")

const semaphore = Semaphore.makeUnsafe(maxParallel)

const parseOnce = (raw: Uint8Array, budgetMs: number) =>
  Effect.callback<ParsedMail, InvalidInput>((resume) => {
    const worker = new Worker(workerSource, {
      eval: true,
      workerData: { mailparser: mailparserPath() },
      // A message is at most a few MiB; this bounds what a hostile one can make the parser allocate.
      resourceLimits: { maxOldGenerationSizeMb: 256 }
    })
    let settled = false
    const settle = (effect: Effect.Effect<ParsedMail, InvalidInput>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      void worker.terminate()
      resume(effect)
    }
    const timer = setTimeout(() => {
      settle(
        Effect.fail(
          new InvalidInput({ message: `the message could not be parsed within ${budgetMs} ms; it is refused` })
        )
      )
    }, budgetMs)
    worker.once("message", (reply: { readonly ok?: ParsedMail; readonly error?: string }) => {
      settle(
        reply.ok !== undefined
          ? Effect.succeed(reply.ok)
          : Effect.fail(
              new InvalidInput({ message: `the message could not be parsed as MIME: ${reply.error ?? "unknown"}` })
            )
      )
    })
    worker.once("error", (error) => {
      settle(Effect.fail(new InvalidInput({ message: `the message could not be parsed as MIME: ${error.message}` })))
    })
    worker.once("exit", (code) => {
      settle(
        Effect.fail(
          new InvalidInput({ message: `the message could not be parsed as MIME (parser exited with ${code})` })
        )
      )
    })
    const copy = raw.slice()
    worker.postMessage(copy, [copy.buffer])
    return Effect.sync(() => {
      settled = true
      clearTimeout(timer)
      void worker.terminate()
    })
  })

/**
 * Parses a raw message in a worker thread; fails with {@link InvalidInput}
 * when it is not MIME or takes longer than `budgetMs` (its worker is then
 * terminated).
 *
 * @example
 * ```ts
 * const mail = yield* parseMail(rawBytes, { budgetMs: 5_000 })
 * mail.text // the text part
 * ```
 */
export const parseMail = (
  raw: Uint8Array,
  options: { readonly budgetMs?: number | undefined } = {}
): Effect.Effect<ParsedMail, InvalidInput> =>
  semaphore.withPermits(1)(parseOnce(raw, options.budgetMs ?? defaultBudgetMs))
