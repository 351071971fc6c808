/**
 * What a case asks of e-mail, which comes after cases in the context order
 * (`email/` knows cases: a reply reopens one, an e-mail is recorded on its
 * timeline): the confirmation a submission queues, a case's thread of
 * e-mails and replies, and moving a thread when cases are merged. `email/`
 * provides it (`RespondentEmails.caseMail`); the models a case shows of its
 * e-mails live here, with the port.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type * as SqlError from "effect/sql/SqlError"
import type { AnswerValue, Field, Translations } from "../forms/index.ts"
import type { Actors } from "../kernel/index.ts"

/** One e-mail sent to the respondent (spec: ResponseDetail `emails` item). */
export const ResponseEmail = Schema.Struct({
  id: Schema.Int,
  to: Schema.String,
  subject: Schema.String,
  text: Schema.String,
  sentAt: Schema.NullOr(Schema.String),
  status: Schema.Literals(["queued", "retrying", "sent", "failed"]),
  openedAt: Schema.NullOr(Schema.String),
  opens: Schema.Int,
  clicks: Schema.Array(Schema.Struct({ url: Schema.String, at: Schema.String }))
}).annotate({ identifier: "ResponseEmail" })
export type ResponseEmail = typeof ResponseEmail.Type

/** One reply from the respondent (spec: ResponseDetail `replies` item). */
export const ResponseReply = Schema.Struct({
  id: Schema.Int,
  from: Schema.String,
  subject: Schema.String,
  text: Schema.String,
  receivedAt: Schema.String,
  files: Schema.Array(
    Schema.Struct({ fileId: Schema.String, name: Schema.String, size: Schema.Int, type: Schema.String })
  )
}).annotate({ identifier: "ResponseReply" })
export type ResponseReply = typeof ResponseReply.Type

/** A response the confirmation is about, as `Responses.submit` has it. */
export interface SubmittedResponse {
  readonly id: number
  readonly formId: number
  readonly email: string | null
  readonly values: Readonly<Record<string, AnswerValue>>
  /** The language it was given in (null: the form's own). */
  readonly language: string | null
}

/** What a confirmation is written from: the form's questions, its own language and its translations. */
export interface ConfirmedForm {
  readonly fields: ReadonlyArray<Field>
  readonly settings: { readonly language?: string | undefined }
  readonly translations?: Translations | undefined
}

/**
 * The e-mail port of cases.
 *
 * @example
 * ```ts
 * const mail = yield* CaseMail
 * const { emails, replies } = yield* mail.forResponse(workspaceId, responseId)
 * ```
 */
export class CaseMail extends Context.Service<
  CaseMail,
  {
    /**
     * Queues the form's confirmation to a new response, if the form has one enabled, the response has an
     * address and e-mail is configured (inside the submission's transaction).
     */
    readonly queueConfirmation: (
      actor: Actors.Actor,
      response: SubmittedResponse,
      form: ConfirmedForm,
      at: Date
    ) => Effect.Effect<void, SqlError.SqlError>
    /** A response's e-mails and replies, oldest first (no workspace check beyond the ids: callers read the response first). */
    readonly forResponse: (
      workspaceId: number,
      responseId: number
    ) => Effect.Effect<
      { readonly emails: ReadonlyArray<ResponseEmail>; readonly replies: ReadonlyArray<ResponseReply> },
      SqlError.SqlError
    >
    /**
     * Moves a response's e-mail thread to another response of the workspace (inside the caller's transaction):
     * all its e-mails and replies, or, with `only`, just those (a merge undone). Returns the ids moved.
     */
    readonly moveThread: (
      workspaceId: number,
      fromId: number,
      toId: number,
      only?: { readonly emailIds: ReadonlyArray<number>; readonly replyIds: ReadonlyArray<number> }
    ) => Effect.Effect<
      { readonly emailIds: ReadonlyArray<number>; readonly replyIds: ReadonlyArray<number> },
      SqlError.SqlError
    >
  }
>()("@qforms/core/CaseMail") {}
