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
import { Database } from "../storage/index.ts"
import { Activities, Responses } from "../cases/index.ts"
import { Actors, cut, InvalidInput } from "../kernel/index.ts"
import {
  BlobStore,
  type BlobStoreError,
  cleanFileName,
  Files,
  makeFileId,
  type StorageQuotaExceeded,
  type StoredAttachment
} from "../files/index.ts"
import { EmailTokens } from "./EmailTokens.ts"
import { Mailer, parseMail } from "../mail/index.ts"
import { Events } from "../events/index.ts"
import { RespondentEmails } from "./RespondentEmails.ts"
import { Members } from "../identity/index.ts"
import { Stages } from "../forms/index.ts"

/** The message could not be matched to a response (no token, an unknown or forged one, no known `In-Reply-To`). */
export class ReplyNotMatched extends Schema.TaggedError<ReplyNotMatched>()("ReplyNotMatched", {
  message: Schema.String
}) {}

/** An attachment of a reply: its name, type and bytes. */
export interface ReplyAttachment {
  readonly filename: string
  readonly contentType: string
  readonly content: Uint8Array
}

/** What a stored reply is: its id and response. */
export interface ReceivedReply {
  readonly replyId: number
  readonly responseId: number
  readonly reopened: boolean
}

export { stripQuoted } from "../mail/index.ts"

// A reply token in a recipient's local part: `anything+{responseId}.{20 hex}@…`.
const TOKEN_IN_ADDRESS = /\+([0-9]+\.[0-9a-fA-F]+)@/

const messageIds = (value: string): ReadonlyArray<string> => value.match(/<[^<>\s]{1,998}>/g) ?? []

/** References looked up at most (the newest); a message may list any number, a query may not bind them all. */
const maxReferences = 100

/** PostgreSQL text cannot hold NUL: a message's NULs (e.g. from `=00` or base64) are dropped, not a 500. */
const withoutNul = (text: string): string => (text.includes("\0") ? text.replaceAll("\0", "") : text)

/** The message is over the inbound size limit (`mail.inboundMaxBytes`); answered as 413. */
/** An `email.replied` event carries at most this many characters of the reply (the case keeps it whole). */
const EVENT_TEXT_MAX = 10_000

export class MessageTooLarge extends Schema.TaggedError<MessageTooLarge>()("MessageTooLarge", {
  message: Schema.String
}) {}

/**
 * Receiving replies from respondents.
 *
 * @example
 * ```ts
 * const { responseId } = yield* (yield* EmailReplies).receive(rawMimeBytes)
 * ```
 */
export class EmailReplies extends Context.Service<
  EmailReplies,
  {
    readonly receive: (
      raw: Uint8Array
    ) => Effect.Effect<
      ReceivedReply,
      InvalidInput | MessageTooLarge | ReplyNotMatched | StorageQuotaExceeded | BlobStoreError | SqlError.SqlError
    >
    /**
     * Stores what the respondent wrote on their status page (`pages/StatusPage.ts`) exactly as an e-mail reply:
     * the same row, attachments, activity, reopening and `email.replied` event.
     */
    readonly fromPage: (
      responseId: number,
      reply: { readonly text: string; readonly attachments: ReadonlyArray<ReplyAttachment> }
    ) => Effect.Effect<ReceivedReply, ReplyNotMatched | StorageQuotaExceeded | BlobStoreError | SqlError.SqlError>
  }
>()("@qforms/core/EmailReplies") {
  static readonly layer = Layer.effect(
    EmailReplies,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const tokens = yield* EmailTokens
      const activities = yield* Activities
      const responses = yield* Responses
      const respondentEmails = yield* RespondentEmails
      const events = yield* Events
      const blobs = yield* BlobStore
      const files = yield* Files

      /** Stores a matched reply: its attachments as files, the reply, its activity, the reopening and its event. */
      const store = Effect.fnUntraced(function* (
        responseId: number,
        reply: {
          readonly from: string
          readonly subject: string
          readonly text: string
          readonly messageId: string | null
          readonly attachments: ReadonlyArray<ReplyAttachment>
        }
      ) {
        const { from, subject, text, messageId } = reply
        const found = yield* sql<{
          readonly workspace_id: number
          readonly form_id: number
          readonly stage_closed: boolean | null
        }>`
          select r.workspace_id, r.form_id, s.is_closed as stage_closed
          from responses r left join stages s on s.workspace_id = r.workspace_id and s.id = r.stage_id
          where r.id = ${responseId}`
        const response = found[0]
        if (response === undefined)
          return yield* new ReplyNotMatched({ message: `response ${responseId} no longer exists` })
        const workspaceId = response.workspace_id

        const now = new Date(yield* Clock.currentTimeMillis)

        // Attachments go to the blob store first; if the reply is not stored after all, they go again.
        const stored: Array<StoredAttachment> = []
        const keys = () => stored.map((file) => file.key)
        return yield* Effect.gen(function* () {
          for (const attachment of reply.attachments) {
            const id = makeFileId()
            const key = `${workspaceId}/${id}`
            const bytes = attachment.content
            yield* blobs.put(key, Stream.make(bytes))
            stored.push({
              id,
              key,
              name: cleanFileName(attachment.filename || "attachment"),
              size: bytes.byteLength,
              type: attachment.contentType.slice(0, 255) || "application/octet-stream"
            })
          }
          return yield* sql.withTransaction(
            Effect.gen(function* () {
              // Attachments count against the storage quotas like uploads (no per-address limit: the
              // inbound route is authenticated by its secret). Over a quota, the reply is not stored.
              if (stored.length > 0) {
                yield* files.claimQuota(
                  workspaceId,
                  response.form_id,
                  stored.reduce((sum, file) => sum + file.size, 0)
                )
              }
              yield* files.recordAttachments(workspaceId, response.form_id, responseId, stored, now)
              const [inserted] = yield* sql<{ readonly id: number }>`
              insert into response_replies (workspace_id, response_id, from_address, subject, text, message_id, file_ids,
                received_at)
              values (${workspaceId}, ${responseId}, ${from}, ${subject}, ${text}, ${messageId},
                ${stored.map((file) => file.id)}::text[], ${now})
              returning id`
              const replyId = inserted!.id
              yield* activities.record(Actors.respondent(workspaceId), responseId, now, [
                {
                  type: "email_reply",
                  payload: { replyId, from, subject }
                }
              ])
              let reopened = false
              if (response.stage_closed === true && (yield* respondentEmails.getSettings(workspaceId)).reopenOnReply) {
                const open = yield* sql<{ readonly id: number }>`
                select id from stages where workspace_id = ${workspaceId} and form_id = ${response.form_id}
                  and not is_closed
                order by position, id limit 1`
                if (open[0] !== undefined) {
                  yield* responses.update(Actors.system(workspaceId), responseId, { stageId: open[0].id }).pipe(
                    // The response is there (read above, in this workspace) and the stage is of its form.
                    Effect.orDie
                  )
                  reopened = true
                }
              }
              const form = yield* sql<{ readonly id: number; readonly title: string }>`
                select id, title from forms where workspace_id = ${workspaceId} and id = ${response.form_id}`
              yield* events.record(workspaceId, now, {
                event: "email.replied",
                form: form[0]!,
                responseId,
                reply: {
                  id: replyId,
                  from,
                  subject,
                  text: cut(text, EVENT_TEXT_MAX),
                  attachments: stored.length,
                  receivedAt: now.toISOString()
                },
                reopened
              })
              return { replyId, responseId, reopened }
            })
          )
        }).pipe(Effect.onError(() => (stored.length === 0 ? Effect.void : files.deleteBlobs(keys()))))
      })

      const receive = Effect.fn("EmailReplies.receive")(function* (raw: Uint8Array) {
        if (raw.byteLength === 0)
          return yield* new InvalidInput({ message: "the body is empty: send the raw message (MIME)" })
        const maxBytes = (yield* Mailer).inboundMaxBytes
        if (raw.byteLength > maxBytes) {
          return yield* new MessageTooLarge({
            message: `the message is ${raw.byteLength} bytes; inbound e-mail takes at most ${maxBytes} bytes`
          })
        }
        const mail = yield* parseMail(raw)
        const from = mail.from === undefined ? undefined : withoutNul(mail.from)
        if (from === undefined || from === "")
          return yield* new InvalidInput({ message: "the message has no From address" })

        // The response: by the token in a recipient address, else by the e-mail it answers.
        const tokenTexts = mail.recipients.flatMap((address) => TOKEN_IN_ADDRESS.exec(address)?.[1] ?? [])
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
          // In-Reply-To first, then the newest References (a long thread lists the oldest first).
          const ids = [
            ...new Set([...messageIds(mail.inReplyTo), ...messageIds(mail.references).slice(-maxReferences)])
          ].slice(0, maxReferences + 1)
          if (ids.length > 0) {
            const rows = yield* sql<{ readonly response_id: number }>`
              select response_id from response_emails where message_id in ${sql.in(ids)} order by id desc limit 1`
            responseId = rows[0]?.response_id
          }
        }
        if (responseId === undefined) {
          return yield* new ReplyNotMatched({
            message: "the message answers no e-mail of this service (no reply token, no known In-Reply-To)"
          })
        }
        return yield* store(responseId, {
          from,
          subject: withoutNul(mail.subject).slice(0, 500),
          text: withoutNul(mail.reply),
          messageId: mail.messageId === undefined ? null : withoutNul(mail.messageId).slice(0, 1_000),
          attachments: mail.attachments.flatMap((attachment) =>
            attachment.related
              ? []
              : [
                  {
                    filename: withoutNul(attachment.filename ?? ""),
                    contentType: withoutNul(attachment.contentType),
                    content: attachment.content
                  }
                ]
          )
        })
      })

      const fromPage = Effect.fn("EmailReplies.fromPage")(function* (
        responseId: number,
        reply: { readonly text: string; readonly attachments: ReadonlyArray<ReplyAttachment> }
      ) {
        const rows = yield* sql<{ readonly email: string | null }>`select email from responses where id = ${responseId}`
        if (rows[0] === undefined)
          return yield* new ReplyNotMatched({ message: `response ${responseId} no longer exists` })
        return yield* store(responseId, {
          from: rows[0].email ?? "status page",
          subject: "Reply from the status page",
          text: withoutNul(reply.text),
          messageId: null,
          attachments: reply.attachments
        })
      })

      return EmailReplies.of({ receive, fromPage })
    })
  )
    .pipe(
      Layer.provide([
        Activities.layer,
        EmailTokens.layer,
        Events.layer,
        Files.layer,
        Members.layer,
        RespondentEmails.layer,
        Responses.layer
      ])
    )
    .pipe(Layer.provide([Stages.layer]))
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

/** Polls a message may fail in a row for a reason other than an unreachable database before it is skipped. */
export const maxTries = 3

const imapFailed = (what: string) => (error: unknown) =>
  new ImapFailed({ message: `${what}: ${error instanceof Error ? error.message : String(error)}` })

/**
 * Fetches the unseen messages of the mailbox once, feeds each to
 * `EmailReplies.receive` (the path `/inbound/email` takes), and marks it seen
 * once it is stored or refused for good (unmatched, unparsable). A message
 * that could not be stored for a passing reason (the database) stays unseen
 * for the next poll, unless it failed {@link maxTries} polls in a row (counted
 * in `failures`, by UID) with the database reachable: such a poison message is
 * marked seen and logged once. A message over `mail.inboundMaxBytes` is not
 * downloaded: it is marked seen and logged. Answers how many messages were
 * taken. imapflow is loaded on the first poll.
 *
 * @example
 * ```ts
 * const taken = yield* EmailReplies.pollImap({ url: "imaps://replies:secret@imap.example.com/INBOX" })
 * ```
 */
export const pollImap = Effect.fn("EmailReplies.pollImap")(function* (
  options: ImapOptions,
  failures: Map<number, number> = new Map()
) {
  const replies = yield* EmailReplies
  const url = new URL(options.url)
  const secure = url.protocol === "imaps:"
  const mailbox = decodeURIComponent(url.pathname.replace(/^\//, "")) || "INBOX"
  return yield* Effect.scoped(
    Effect.gen(function* () {
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
      const uids =
        (yield* Effect.tryPromise({
          try: () => client.search({ seen: false }, { uid: true }),
          catch: imapFailed("searching unseen messages")
        })) || []
      const maxBytes = (yield* Mailer).inboundMaxBytes
      let taken = 0
      for (const uid of uids) {
        const skip = (why: string) =>
          Effect.logWarning(`qforms: IMAP message ${uid} skipped for good (marked seen): ${why}`)
        // The size first: a message over the limit is never downloaded.
        const head = yield* Effect.tryPromise({
          try: () => client.fetchOne(String(uid), { size: true }, { uid: true }),
          catch: imapFailed(`fetching the size of message ${uid}`)
        })
        if (head === false || head === undefined) continue
        if (typeof head.size === "number" && head.size > maxBytes) {
          yield* skip(`it is ${head.size} bytes; inbound e-mail takes at most ${maxBytes} bytes`)
        } else {
          const message = yield* Effect.tryPromise({
            try: () => client.fetchOne(String(uid), { source: true }, { uid: true }),
            catch: imapFailed(`fetching message ${uid}`)
          })
          if (message === false || message === undefined || message.source === undefined) continue
          const outcome = yield* Effect.result(replies.receive(new Uint8Array(message.source)))
          if (Result.isFailure(outcome)) {
            const error = outcome.failure
            if (error._tag === "SqlError" || error._tag === "BlobStoreError") {
              // A database that is away comes back: wait for it. Any other failure of the same
              // message, poll after poll, is the message (a poison): after a few, it is skipped.
              const tries = Database.isUnreachable(error) ? 0 : (failures.get(uid) ?? 0) + 1
              if (tries < maxTries) {
                if (tries > 0) failures.set(uid, tries)
                yield* Effect.logWarning(`qforms: IMAP message ${uid} not stored yet; trying again next poll`, error)
                continue
              }
              yield* skip(`it failed ${tries} polls in a row: ${error.message}`)
            } else if (error._tag === "MessageTooLarge" || error._tag === "StorageQuotaExceeded") {
              yield* skip(error.message)
            } else {
              yield* Effect.logInfo(`qforms: IMAP message ${uid} is not a reply to a case: ${error.message}`)
            }
          }
        }
        failures.delete(uid)
        yield* Effect.tryPromise({
          try: () => client.messageFlagsAdd(String(uid), ["\\Seen"], { uid: true }),
          catch: imapFailed(`marking message ${uid} seen`)
        })
        taken++
      }
      return taken
    })
  )
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
  Layer.effectDiscard(
    Effect.suspend(() => {
      const failures = new Map<number, number>()
      return Effect.forkScoped(
        Effect.forever(
          pollImap(options, failures).pipe(
            Effect.catchCause((cause) => Effect.logWarning("qforms: polling IMAP for replies failed", cause)),
            Effect.andThen(Effect.sleep(Duration.millis(options.intervalMs ?? 60_000)))
          )
        )
      )
    })
  )
