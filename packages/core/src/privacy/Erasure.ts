/**
 * Erasure of a person (GDPR Article 17): one call removes everything a
 * workspace holds about one e-mail address (or one contact): their responses,
 * partial ones too, with their files; the e-mails sent to them and the replies
 * received from them; their contact. Internal notes on other cases that name
 * them are flagged for review (who, when), their text left as written. The
 * unsent webhook and notification deliveries about their responses are
 * cancelled (the events, which carry their answers, are deleted); a submitted
 * response's deletion is announced as `response.deleted`, so subscribers can
 * erase their copy.
 *
 * The database part is one transaction; the files' bytes are deleted from the
 * blob store only once it has committed (as a response's deletion does). The
 * erasure is recorded without personal data: what was removed (counts) and a
 * salted SHA-256 of the address.
 *
 * @module
 */
import { createHash, randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { AuditLogModule as AuditLog } from "../audit/index.ts"
import { Actors, type Forbidden } from "../kernel/index.ts"
import { MailErasure } from "../email/index.ts"
import { Files } from "../files/index.ts"
import { EventErasure, Events } from "../events/index.ts"
import { CaseErasure, type ContactNotFound, PersonLookup, ResponseDeletions } from "../cases/index.ts"

export { ContactNotFound } from "../cases/index.ts"

/**
 * Whom to erase: `{ "email": … }` (every response, e-mail and contact with
 * that address, case-insensitive) or `{ "contactId": … }` (the contact, its
 * address, and every response linked to it). Exactly one of the two.
 */
export const ErasureRequest = Schema.Struct({
  email: Schema.optionalKey(PersonLookup.PersonEmail),
  contactId: Schema.optionalKey(PersonLookup.PersonContactId)
})
  .check(PersonLookup.exactlyOne)
  .annotate({
    identifier: "ErasureRequest",
    description: 'Exactly one of `email` and `contactId`, e.g. `{"email": "ada@example.com"}`.'
  })
export type ErasureRequest = typeof ErasureRequest.Type

const removedOf = <S extends Schema.Top>(id: S) => Schema.Struct({ count: Schema.Int, ids: Schema.Array(id) })

/** What an erasure removed, per kind: how many and which ids (the audit log records this object). */
export const ErasureResult = Schema.Struct({
  /** The erasure's record (it holds counts and a salted hash of the address, no personal data). */
  erasureId: Schema.Int,
  erasedAt: Schema.String,
  /** Responses deleted, submitted and partial. */
  responses: removedOf(Schema.Int),
  /** Of those, the partial (unfinished) ones. */
  partialResponses: removedOf(Schema.Int),
  /** Files deleted: uploads of their responses and attachments of their replies. */
  files: removedOf(Schema.String),
  /** E-mails sent to them (confirmations and case e-mails). */
  emailsSent: removedOf(Schema.Int),
  /** E-mail replies received from them. */
  emailReplies: removedOf(Schema.Int),
  /** Their contact. */
  contacts: removedOf(Schema.Int),
  /** Webhook, notification and e-mail deliveries about them that were not sent yet. */
  deliveriesCancelled: removedOf(Schema.Int),
  /** Internal notes on other cases that name them: flagged for review, not edited. */
  notesFlagged: removedOf(Schema.Int)
}).annotate({ identifier: "ErasureResult" })
export type ErasureResult = typeof ErasureResult.Type

const removed = <A>(ids: ReadonlyArray<A>) => ({ count: ids.length, ids })

/** The salted hash an erasure record keeps instead of the address. */
export const subjectHash = (salt: string, email: string): string =>
  createHash("sha256").update(`${salt}:${email.trim().toLowerCase()}`).digest("hex")

/**
 * Erasing a person in a workspace (owners and admins).
 *
 * @example
 * ```ts
 * const result = yield* (yield* Erasure).erase(actor, { email: "ada@example.com" })
 * // result.responses.count, result.files.ids, …
 * ```
 */
export class Erasure extends Context.Service<
  Erasure,
  {
    readonly erase: (
      actor: Actors.Actor,
      request: ErasureRequest
    ) => Effect.Effect<ErasureResult, ContactNotFound | Forbidden | SqlError.SqlError>
  }
>()("@qforms/core/Erasure") {
  static readonly layer = Layer.effect(
    Erasure,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const files = yield* Files
      const mail = yield* MailErasure.make
      const outbox = yield* EventErasure.make
      const settleDeleted = yield* ResponseDeletions.make
      const lookup = yield* PersonLookup.make
      const cases = yield* CaseErasure.make

      const erase = Effect.fn("Erasure.erase")(function* (actor: Actors.Actor, request: ErasureRequest) {
        yield* Actors.requireAdmin(actor)
        const workspaceId = actor.workspaceId
        const now = new Date(yield* Clock.currentTimeMillis)
        const salt = randomBytes(16).toString("hex")
        const { result, blobKeys } = yield* sql.withTransaction(
          Effect.gen(function* () {
            const { email, contacts, responses } = yield* lookup.find(workspaceId, request, { lock: true })
            const contactIds = contacts.map((row) => row.id)
            const responseIds = responses.map((row) => row.id)

            // E-mails and replies first (their deliveries go with them), then the events about the responses.
            const forgottenMail = yield* mail.forget(workspaceId, email, responseIds)
            const outboxForgotten = yield* outbox.forgetResponses(workspaceId, responseIds)
            const forgottenFiles = yield* files.forgetResponsesFiles(
              workspaceId,
              responseIds,
              forgottenMail.replyFileIds
            )

            yield* cases.deleteResponses(workspaceId, responseIds)
            yield* settleDeleted(
              workspaceId,
              now,
              responses.map((row) => ({
                id: row.id,
                formId: row.form_id,
                formTitle: row.form_title,
                finished: row.finished,
                stageId: row.stage_id,
                tags: row.tags
              }))
            )
            yield* cases.deleteContacts(workspaceId, contactIds)

            // Notes elsewhere that name them: the address, or a name they gave (3 characters or more).
            const needles = [
              ...new Set(
                [email, ...contacts.map((row) => row.name), ...responses.map((row) => row.name)]
                  .filter((text): text is string => text !== null && text.trim().length >= 3)
                  .map((text) => text.trim().toLowerCase())
              )
            ]
            const flagged = yield* cases.flagNotesNaming(workspaceId, needles, actor, now)

            const partialIds = responses.filter((row) => !row.finished).map((row) => row.id)
            const cancelled = [...forgottenMail.cancelledDeliveryIds, ...outboxForgotten.cancelledDeliveryIds].sort(
              (a, b) => a - b
            )
            const counts = {
              responses: responseIds.length,
              partialResponses: partialIds.length,
              files: forgottenFiles.length,
              emailsSent: forgottenMail.emailIds.length,
              emailReplies: forgottenMail.replyIds.length,
              contacts: contactIds.length,
              deliveriesCancelled: cancelled.length,
              notesFlagged: flagged.length
            }
            const [record] = yield* sql<{ readonly id: number }>`
            insert into erasures (workspace_id, subject_salt, subject_hash, counts, actor, created_at)
            values (${workspaceId}, ${salt}, ${subjectHash(salt, email)}, ${JSON.stringify(counts)}::jsonb,
              ${JSON.stringify(Actors.toActivityActor(actor))}::jsonb, ${now})
            returning id`
            // The audit log says who erased how much, never whom (the record's id leads to the counts).
            yield* AuditLog.record(sql, actor, {
              action: "privacy.erasure",
              target: { type: "erasure", id: record!.id },
              details: counts
            })
            const result: ErasureResult = {
              erasureId: record!.id,
              erasedAt: now.toISOString(),
              responses: removed(responseIds),
              partialResponses: removed(partialIds),
              files: removed(forgottenFiles.map((row) => row.id).sort()),
              emailsSent: removed(forgottenMail.emailIds),
              emailReplies: removed(forgottenMail.replyIds),
              contacts: removed(contactIds),
              deliveriesCancelled: removed(cancelled),
              notesFlagged: removed(flagged.map((row) => row.id).sort((a, b) => a - b))
            }
            return { result, blobKeys: forgottenFiles.map((row) => row.storage_key) }
          })
        )
        // Only once the erasure has committed: a blob is never gone while its record is still there.
        yield* files.deleteBlobs(blobKeys)
        return result
      })

      return Erasure.of({ erase })
    })
  ).pipe(Layer.provide([Events.layer, Files.layer]))
}
