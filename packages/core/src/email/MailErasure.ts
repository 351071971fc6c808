/**
 * The e-mail side of erasing a person (`privacy/Erasure.ts`): the e-mails sent
 * to their address and the replies received from it, and those of their
 * responses, deleted inside the erasure's transaction. Deleting an e-mail
 * deletes its unsent delivery and its tracked clicks with it (foreign keys).
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

/** What {@link make}'s `forget` deleted: e-mail and reply ids, and the files the replies carried. */
export interface ForgottenMail {
  readonly emailIds: ReadonlyArray<number>
  readonly replyIds: ReadonlyArray<number>
  /** The deliveries of the deleted e-mails that were not sent yet (deleted with them). */
  readonly cancelledDeliveryIds: ReadonlyArray<number>
  /** Files attached to the deleted replies (their records are the files context's to delete). */
  readonly replyFileIds: ReadonlyArray<string>
}

/**
 * The statements, on the current `SqlClient` (inside the caller's transaction).
 *
 * @example
 * ```ts
 * const mail = yield* MailErasure.make
 * const { emailIds } = yield* mail.forget(workspaceId, "ada@example.com", [12, 13])
 * ```
 */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  /** Deletes the workspace's e-mails to `address` or about `responseIds`, and replies from it or to them. */
  const forget = Effect.fn("MailErasure.forget")(function* (
    workspaceId: number,
    address: string,
    responseIds: ReadonlyArray<number>
  ) {
    const unsent = yield* sql<{ readonly id: number }>`
      select d.id from deliveries d join response_emails m on m.workspace_id = d.workspace_id and m.id = d.email_id
      where m.workspace_id = ${workspaceId} and d.status in ('pending', 'retrying')
        and (lower(m.to_address) = lower(${address}) or m.response_id = any(${responseIds}::int[]))`
    const emails = yield* sql<{ readonly id: number }>`
      delete from response_emails
      where workspace_id = ${workspaceId}
        and (lower(to_address) = lower(${address}) or response_id = any(${responseIds}::int[]))
      returning id`
    const replies = yield* sql<{ readonly id: number; readonly file_ids: ReadonlyArray<string> }>`
      delete from response_replies
      where workspace_id = ${workspaceId}
        and (lower(from_address) = lower(${address}) or response_id = any(${responseIds}::int[]))
      returning id, file_ids`
    return {
      emailIds: emails.map((row) => row.id).sort((a, b) => a - b),
      replyIds: replies.map((row) => row.id).sort((a, b) => a - b),
      cancelledDeliveryIds: unsent.map((row) => row.id),
      replyFileIds: replies.flatMap((row) => row.file_ids)
    } satisfies ForgottenMail
  })

  return { forget }
})
