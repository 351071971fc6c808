/**
 * E-mail replies: what a respondent writes back. An inbound-mail service
 * posts the raw message (MIME) to `/inbound/email`; it is parsed (mailparser,
 * loaded on first use), its quoted history and signature are cut off, and it
 * is matched to its response by the signed token in the address it was sent
 * to (`reply+{token}@…`, see `EmailTokens.ts`) or else by `In-Reply-To` /
 * `References` naming an e-mail qforms sent. It is stored as a reply with its
 * attachments as files, adds an activity, and moves a case that sits in a
 * closed stage back to the form's first open stage (unless the workspace
 * turned that off). Unknown or forged tokens are refused and nothing is stored.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Activities } from "./Activities.ts"
import * as Actors from "./Actors.ts"
import { BlobStore, type BlobStoreError } from "./BlobStore.ts"
import { EmailTokens } from "./EmailTokens.ts"
import { InvalidInput } from "./Errors.ts"
import { cleanFileName, Files, makeFileId } from "./Files.ts"
import { RespondentEmails } from "./RespondentEmails.ts"
import { Responses } from "./Responses.ts"

/** The message could not be matched to a response (no token, an unknown or forged one, no known `In-Reply-To`). */
export class ReplyNotMatched extends Schema.TaggedError<ReplyNotMatched>()("ReplyNotMatched", {
  message: Schema.String
}) {}

/** What a stored reply is: its id and response. */
export interface ReceivedReply {
  readonly replyId: number
  readonly responseId: number
  readonly reopened: boolean
}

// Lines that start the quoted history of a reply, in the common clients' wording.
const QUOTE_HEADERS: ReadonlyArray<RegExp> = [
  /^On\b.{0,300}\bwrote:\s*$/i,
  /^Le\b.{0,300}\ba écrit\s*:\s*$/i,
  /^Am\b.{0,300}\bschrieb\b.{0,100}:\s*$/i,
  /^El\b.{0,300}\bescribió:\s*$/i,
  /^-{2,}\s*Original Message\s*-{2,}\s*$/i,
  /^-{2,}\s*Forwarded message\s*-{2,}\s*$/i,
  /^_{10,}\s*$/,
  /^From:\s.+$/i
]

// Lines that start a signature or a client's footer.
const SIGNATURES: ReadonlyArray<RegExp> = [
  /^--\s?$/,
  /^Sent from my \w+/i,
  /^Get Outlook for /i,
  /^Envoyé de mon /i
]

/**
 * The new part of a reply: the text above the quoted history (`On … wrote:`,
 * `-----Original Message-----`, an Outlook `From:` block, `>` lines) and above
 * the signature (`-- `, "Sent from my iPhone"), trimmed.
 *
 * @example
 * ```ts
 * stripQuoted("Thanks!\n\n-- \nAda\n\nOn Mon, 1 Jan 2026, Forms wrote:\n> Hello")
 * // "Thanks!"
 * ```
 */
export const stripQuoted = (text: string): string => {
  const lines = text.replace(/\r\n?/g, "\n").split("\n")
  // A header split over two lines ("On Mon, … Forms <x@y>\nwrote:") is joined before matching.
  let end = lines.length
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim()
    const joined = i + 1 < lines.length ? `${line} ${lines[i + 1]!.trim()}` : line
    if (QUOTE_HEADERS.some((re) => re.test(line)) || (/^On\b/i.test(line) && /\bwrote:\s*$/i.test(joined))) {
      end = i
      break
    }
    if (SIGNATURES.some((re) => re.test(lines[i]!))) {
      end = i
      break
    }
    // A block of quoted lines that runs to the end (or to a signature) is history.
    if (line.startsWith(">") && lines.slice(i).every((rest) => rest.trim() === "" || rest.trim().startsWith(">"))) {
      end = i
      break
    }
  }
  return lines.slice(0, end).join("\n").trim()
}

// A reply token in a recipient's local part: `anything+{responseId}.{20 hex}@…`.
const TOKEN_IN_ADDRESS = /\+([0-9]+\.[0-9a-fA-F]+)@/

const messageIds = (value: string | ReadonlyArray<string> | undefined): ReadonlyArray<string> =>
  (typeof value === "string" ? [value] : value ?? []).flatMap((v) => v.match(/<[^<>\s]+>/g) ?? [])

/**
 * Receiving replies from respondents.
 *
 * @example
 * ```ts
 * const { responseId } = yield* (yield* EmailReplies).receive(rawMimeBytes)
 * ```
 */
export class EmailReplies extends Context.Service<EmailReplies, {
  readonly receive: (
    raw: Uint8Array
  ) => Effect.Effect<ReceivedReply, InvalidInput | ReplyNotMatched | BlobStoreError | SqlError.SqlError>
}>()("@qforms/core/EmailReplies") {
  static readonly layer = Layer.effect(
    EmailReplies,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const tokens = yield* EmailTokens
      const activities = yield* Activities
      const responses = yield* Responses
      const respondentEmails = yield* RespondentEmails
      const blobs = yield* BlobStore
      const files = yield* Files

      const parse = (raw: Uint8Array) =>
        Effect.tryPromise({
          try: () => import("mailparser").then(({ simpleParser }) => simpleParser(Buffer.from(raw))),
          catch: (error) => new InvalidInput({ message: `the message could not be parsed as MIME: ${String(error)}` })
        })

      const receive = Effect.fn("EmailReplies.receive")(function*(raw: Uint8Array) {
        if (raw.byteLength === 0) return yield* new InvalidInput({ message: "the body is empty: send the raw message (MIME)" })
        const mail = yield* parse(raw)
        const from = mail.from?.value.find((a) => a.address !== undefined)?.address
        if (from === undefined) return yield* new InvalidInput({ message: "the message has no From address" })

        // The response: by the token in a recipient address, else by the e-mail it answers.
        const headerText = (name: string) => {
          const value = mail.headers.get(name)
          return typeof value === "string" ? [value] : []
        }
        const recipients = [mail.to, mail.cc].flatMap((field) => field === undefined ? [] : Array.isArray(field) ? field : [field])
          .flatMap((object) => object.value.map((a) => a.address ?? ""))
          .concat(headerText("delivered-to"), headerText("x-original-to"))
        const tokenTexts = recipients.flatMap((address) => TOKEN_IN_ADDRESS.exec(address)?.[1] ?? [])
        let responseId: number | undefined
        for (const text of tokenTexts) {
          const checked = yield* Effect.result(tokens.verify("reply", text))
          if (Result.isFailure(checked)) {
            if (checked.failure._tag === "SqlError") return yield* checked.failure
            return yield* new ReplyNotMatched({ message: "the reply address carries an unknown or forged token" })
          }
          responseId = checked.success.responseId
        }
        if (responseId === undefined) {
          const ids = [...messageIds(mail.inReplyTo), ...messageIds(mail.references)]
          if (ids.length > 0) {
            const rows = yield* sql<{ readonly response_id: number }>`
              select response_id from response_emails where message_id in ${sql.in(ids)} order by id desc limit 1`
            responseId = rows[0]?.response_id
          }
        }
        if (responseId === undefined) {
          return yield* new ReplyNotMatched({ message: "the message answers no e-mail of this service (no reply token, no known In-Reply-To)" })
        }
        const found = yield* sql<{ readonly workspace_id: number; readonly form_id: number; readonly stage_closed: boolean | null }>`
          select r.workspace_id, r.form_id, s.is_closed as stage_closed
          from responses r left join stages s on s.id = r.stage_id
          where r.id = ${responseId}`
        const response = found[0]
        if (response === undefined) return yield* new ReplyNotMatched({ message: `response ${responseId} no longer exists` })
        const workspaceId = response.workspace_id

        const text = stripQuoted(mail.text ?? "")
        const subject = (mail.subject ?? "").slice(0, 500)
        const now = new Date(yield* Clock.currentTimeMillis)

        // Attachments go to the blob store first; if the reply is not stored after all, they go again.
        const stored: Array<{ readonly id: string; readonly key: string; readonly name: string; readonly size: number; readonly type: string }> = []
        const keys = () => stored.map((file) => file.key)
        return yield* Effect.gen(function*() {
          for (const attachment of mail.attachments) {
            if (attachment.related) continue
            const id = makeFileId()
            const key = `${workspaceId}/${id}`
            const bytes = new Uint8Array(attachment.content)
            yield* blobs.put(key, Stream.make(bytes))
            stored.push({
              id,
              key,
              name: cleanFileName(attachment.filename ?? "attachment"),
              size: bytes.byteLength,
              type: attachment.contentType || "application/octet-stream"
            })
          }
          return yield* sql.withTransaction(Effect.gen(function*() {
            for (const file of stored) {
              // field_id 0: an attachment of a reply, not the answer to a question.
              yield* sql`
                insert into files (id, workspace_id, form_id, field_id, response_id, name, size, type, storage_key,
                  created_at, attached_at)
                values (${file.id}, ${workspaceId}, ${response.form_id}, 0, ${responseId}, ${file.name}, ${file.size},
                  ${file.type}, ${file.key}, ${now}, ${now})`
            }
            const [reply] = yield* sql<{ readonly id: number }>`
              insert into response_replies (workspace_id, response_id, from_address, subject, text, message_id, file_ids,
                received_at)
              values (${workspaceId}, ${responseId!}, ${from}, ${subject}, ${text}, ${mail.messageId ?? null},
                ${stored.map((file) => file.id)}::text[], ${now})
              returning id`
            const replyId = reply!.id
            yield* activities.record(Actors.respondent(workspaceId), responseId!, now, [{
              type: "email_reply",
              payload: { replyId, from, subject }
            }])
            let reopened = false
            if (response.stage_closed === true && (yield* respondentEmails.getSettings(workspaceId)).reopenOnReply) {
              const open = yield* sql<{ readonly id: number }>`
                select id from stages where workspace_id = ${workspaceId} and form_id = ${response.form_id}
                  and not is_closed
                order by position, id limit 1`
              if (open[0] !== undefined) {
                yield* responses.update(Actors.system(workspaceId), responseId!, { stageId: open[0].id }).pipe(
                  // The response is there (read above, in this workspace) and the stage is of its form.
                  Effect.orDie
                )
                reopened = true
              }
            }
            return { replyId, responseId: responseId!, reopened }
          }))
        }).pipe(Effect.onError(() => stored.length === 0 ? Effect.void : files.deleteBlobs(keys())))
      })

      return EmailReplies.of({ receive })
    })
  )
}

// ---------------------------------------------------------------------------
// IMAP polling
// ---------------------------------------------------------------------------

/** Where replies are fetched from by IMAP. */
export interface ImapOptions {
  /** `imaps://user:pass@imap.example.com:993/INBOX` (`imap://` for STARTTLS or plain; the path is the mailbox, default INBOX). */
  readonly url: string
  /** Time between polls in ms (default 60 s). */
  readonly intervalMs?: number | undefined
}

/** The IMAP server could not be reached or refused a command. */
export class ImapFailed extends Schema.TaggedError<ImapFailed>()("ImapFailed", {
  message: Schema.String
}) {}

const imapFailed = (what: string) => (error: unknown) =>
  new ImapFailed({ message: `${what}: ${error instanceof Error ? error.message : String(error)}` })

/**
 * Fetches the unseen messages of the mailbox once, feeds each to
 * `EmailReplies.receive` (the path `/inbound/email` takes), and marks it seen
 * once it is stored or refused for good (unmatched, unparsable). A message
 * that could not be stored for a passing reason (the database) stays unseen
 * for the next poll. Answers how many messages were taken. imapflow is
 * loaded on the first poll.
 *
 * @example
 * ```ts
 * const taken = yield* EmailReplies.pollImap({ url: "imaps://replies:secret@imap.example.com/INBOX" })
 * ```
 */
export const pollImap = Effect.fn("EmailReplies.pollImap")(function*(options: ImapOptions) {
  const replies = yield* EmailReplies
  const url = new URL(options.url)
  const secure = url.protocol === "imaps:"
  const mailbox = decodeURIComponent(url.pathname.replace(/^\//, "")) || "INBOX"
  return yield* Effect.scoped(Effect.gen(function*() {
    const client = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () =>
          import("imapflow").then(({ ImapFlow }) => {
            const connection = new ImapFlow({
              host: url.hostname,
              port: url.port === "" ? (secure ? 993 : 143) : Number(url.port),
              secure,
              auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
              logger: false,
              disableAutoIdle: true
            })
            return connection.connect().then(() => connection)
          }),
        catch: imapFailed(`connecting to ${url.hostname}`)
      }),
      (connection) => Effect.promise(() => connection.logout().catch(() => undefined))
    )
    yield* Effect.acquireRelease(
      Effect.tryPromise({ try: () => client.getMailboxLock(mailbox), catch: imapFailed(`opening ${mailbox}`) }),
      (held) => Effect.sync(() => held.release())
    )
    const uids = (yield* Effect.tryPromise({
      try: () => client.search({ seen: false }, { uid: true }),
      catch: imapFailed("searching unseen messages")
    })) || []
    let taken = 0
    for (const uid of uids) {
      const message = yield* Effect.tryPromise({
        try: () => client.fetchOne(String(uid), { source: true }, { uid: true }),
        catch: imapFailed(`fetching message ${uid}`)
      })
      if (message === false || message === undefined || message.source === undefined) continue
      const outcome = yield* Effect.result(replies.receive(new Uint8Array(message.source)))
      if (Result.isFailure(outcome)) {
        const error = outcome.failure
        if (error._tag === "SqlError" || error._tag === "BlobStoreError") {
          yield* Effect.logWarning(`qforms: IMAP message ${uid} not stored yet; trying again next poll`, error)
          continue
        }
        yield* Effect.logInfo(`qforms: IMAP message ${uid} is not a reply to a case: ${error.message}`)
      }
      yield* Effect.tryPromise({
        try: () => client.messageFlagsAdd(String(uid), ["\\Seen"], { uid: true }),
        catch: imapFailed(`marking message ${uid} seen`)
      })
      taken++
    }
    return taken
  }))
})

/**
 * Polls an IMAP mailbox for replies while the layer lives (see
 * {@link pollImap}); a failed poll is logged and the next one comes on time.
 *
 * @example
 * ```ts
 * const Imap = EmailReplies.layerImapPoller({ url: "imaps://replies:secret@imap.example.com/INBOX", intervalMs: 30_000 })
 * ```
 */
export const layerImapPoller = (options: ImapOptions): Layer.Layer<never, never, EmailReplies> =>
  Layer.effectDiscard(Effect.forkScoped(Effect.forever(
    pollImap(options).pipe(
      Effect.catchCause((cause) => Effect.logWarning("qforms: polling IMAP for replies failed", cause)),
      Effect.andThen(Effect.sleep(Duration.millis(options.intervalMs ?? 60_000)))
    )
  )))
