/**
 * Respondent e-mails: what a case sends to the person who answered — the
 * form's confirmation e-mail, and e-mails members write from the case — and
 * what they open and click. Each e-mail is stored with a delivery row in the
 * transaction that queues it, and sent by the delivery worker (see
 * `worker/Worker.ts`) with the webhooks' retry schedule; so none is lost
 * on a crash, and none is sent twice in normal operation.
 *
 * Bodies are "markdown-ish": paragraphs, `**bold**`, `*italic*`, `[text](url)`
 * and bare `https://` links, rendered to text and HTML. With tracking on (the
 * workspace's default), the HTML carries a 1×1 pixel (`/t/o/{token}`) and its
 * links go through `/t/c/{token}`, which redirects only to the URL recorded
 * for that link of that e-mail.
 */
import { randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import {
  Activities,
  CaseMail,
  type ConfirmedForm,
  type ResponseEmail,
  type ResponseReply,
  StatusLinks,
  statusPath,
  type SubmittedResponse
} from "../cases/index.ts"
import { Actors, Conflict, type Forbidden, FormNotFound, ResponseNotFound, SentLinkBase } from "../kernel/index.ts"
import { Deliveries } from "../deliveries/index.ts"
import { Events } from "../events/index.ts"
import { EmailTokens, InvalidEmailToken } from "./EmailTokens.ts"
import { DEFAULT_LANGUAGE, entryOf, forDisplay, localize, Sla } from "../forms/index.ts"
import { Mailer, notConfiguredMessage } from "../mail/index.ts"
import { MessageCatalogues, type Messages } from "../languages/index.ts"

import { extractLinks, fillTemplate, fillTemplateParts, render, STATUS_LINK } from "./EmailTemplates.ts"

export { extractLinks, fillTemplate, fillTemplateParts, render } from "./EmailTemplates.ts"
export { type ConfirmedForm, ResponseEmail, ResponseReply, type SubmittedResponse } from "../cases/index.ts"

// ---------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------

const Subject = Schema.String.check(
  Schema.isMinLength(1, { message: "subject must not be empty" }),
  Schema.isMaxLength(200, { message: "subject must be at most 200 characters" }),
  Schema.isPattern(/^[^\r\n]*$/, { message: "subject must be one line" })
)

const Body = Schema.String.check(
  Schema.isMinLength(1, { message: "body must not be empty" }),
  Schema.isMaxLength(20_000, { message: "body must be at most 20000 characters" })
)

/** What a member writes to the respondent from the case (`POST /responses/{id}/emails`). */
export const SendEmailInput = Schema.Struct({
  subject: Subject,
  body: Body.annotate({
    description: "Markdown-ish: paragraphs, **bold**, *italic*, [text](https://…) and bare https:// links."
  })
}).annotate({ identifier: "SendEmail" })
export type SendEmailInput = typeof SendEmailInput.Type

/** A form's confirmation e-mail (`GET/PUT /forms/{id}/confirmation`). */
export const ConfirmationSettings = Schema.Struct({
  enabled: Schema.Boolean,
  subject: Subject,
  body: Body.annotate({
    description:
      "A template: `{{field:<id>}}` is that question's answer, `{{answers}}` the answers summary, " +
      "`{{statusLink}}` a new link to the respondent's status page."
  })
}).annotate({ identifier: "ConfirmationSettings" })
export type ConfirmationSettings = typeof ConfirmationSettings.Type

/** The default confirmation (off until enabled). */
export const defaultConfirmation: ConfirmationSettings = {
  enabled: false,
  subject: "We received your response",
  body: "Thank you for your response. This is what you sent:\n\n{{answers}}"
}

/** The workspace's e-mail settings (`GET/PUT /email/settings`). */
export const EmailSettings = Schema.Struct({
  tracking: Schema.Boolean.annotate({
    description: "Record opens (a 1×1 pixel) and clicks (links through /t/c/…). Default true."
  }),
  reopenOnReply: Schema.Boolean.annotate({
    description: "A reply moves a case in a closed stage back to the form's first open stage. Default true."
  })
}).annotate({ identifier: "EmailSettings" })
export type EmailSettings = typeof EmailSettings.Type

/** The default e-mail settings of a workspace. */
export const defaultEmailSettings: EmailSettings = { tracking: true, reopenOnReply: true }

// ---------------------------------------------------------------------------
// Service
// ---------------------------------------------------------------------------

interface EmailRow {
  readonly id: number
  readonly to_address: string
  readonly subject: string
  readonly text: string
  readonly sent_at: Date | null
  readonly status: ResponseEmail["status"]
  readonly opened_at: Date | null
  readonly opens: number
  readonly clicks: ReadonlyArray<{ readonly url: string; readonly at: string }> | null
}

interface ReplyRow {
  readonly id: number
  readonly from_address: string
  readonly subject: string
  readonly text: string
  readonly received_at: Date
  readonly files: ReadonlyArray<{
    readonly fileId: string
    readonly name: string
    readonly size: number
    readonly type: string
  }> | null
}

const toEmail = (row: EmailRow): ResponseEmail => ({
  id: row.id,
  to: row.to_address,
  subject: row.subject,
  text: row.text,
  sentAt: row.sent_at?.toISOString() ?? null,
  status: row.status,
  openedAt: row.opened_at?.toISOString() ?? null,
  opens: row.opens,
  clicks: (row.clicks ?? []).map((click) => ({ url: click.url, at: new Date(click.at).toISOString() }))
})

const toReply = (row: ReplyRow): ResponseReply => ({
  id: row.id,
  from: row.from_address,
  subject: row.subject,
  text: row.text,
  receivedAt: row.received_at.toISOString(),
  files: row.files ?? []
})

/**
 * A confirmation as the respondent reads it: in the language of their
 * response, the form's translation of its subject and body, else (for the
 * default confirmation, whatever language the form is in) the built-in one in
 * that language, else the form's own; questions and answers in that language.
 */
const inLanguage = (
  form: ConfirmedForm,
  response: SubmittedResponse,
  confirmation: ConfirmationSettings,
  messages: Messages
) => {
  const own = form.settings.language ?? DEFAULT_LANGUAGE
  const language = response.language ?? own
  const translation = language === own ? undefined : entryOf(form.translations, language)
  const { form: localized, wording } = localize(
    { title: "", description: null, fields: form.fields, settings: {} },
    translation
  )
  const shown =
    language === own
      ? { fields: form.fields, values: response.values }
      : forDisplay(localized.fields, response.values, wording, {
          yes: messages.say(language, "question.yes"),
          no: messages.say(language, "question.no")
        })
  const builtIn = (key: "email.confirmationSubject" | "email.confirmationBody", text: string, standard: string) =>
    text === standard ? messages.say(language, key, { answers: "{{answers}}" }) : text
  return {
    subject:
      translation?.confirmation?.subject ??
      builtIn("email.confirmationSubject", confirmation.subject, defaultConfirmation.subject),
    body:
      translation?.confirmation?.body ?? builtIn("email.confirmationBody", confirmation.body, defaultConfirmation.body),
    fields: shown.fields,
    values: shown.values
  }
}

/** The host part of an address like `Forms <forms@example.com>` (for Message-IDs). */
const domainOf = (from: string | null) => /@([A-Za-z0-9.-]+)>?\s*$/.exec(from ?? "")?.[1] ?? "qforms.invalid"

/**
 * Queues e-mails to respondents, keeps their settings, records opens and
 * clicks, and lists a response's e-mails and replies.
 *
 * @example
 * ```ts
 * const emails = yield* RespondentEmails
 * const sent = yield* emails.send(actor, responseId, { subject: "Your request", body: "Hi **Ada**, …" })
 * ```
 */
export class RespondentEmails extends Context.Service<
  RespondentEmails,
  {
    /** Queues an e-mail from a member to the response's respondent (409 when e-mail is not configured). */
    readonly send: (
      actor: Actors.Actor,
      responseId: number,
      input: SendEmailInput
    ) => Effect.Effect<ResponseEmail, ResponseNotFound | Forbidden | Conflict | SqlError.SqlError>
    /**
     * Queues the form's confirmation to a new response, if the form has one
     * enabled, the response has an address and e-mail is configured (inside the
     * submission's transaction), in the language the response was given in:
     * the form's translation of the subject and body (else, for the default
     * confirmation, the built-in one in that language), with the questions and
     * answers in that language.
     */
    readonly queueConfirmation: CaseMail["Service"]["queueConfirmation"]
    /**
     * Queues the e-mail with a resume link to a partial response (`cases/ResumeLinks.ts`, in the caller's
     * transaction): untracked (its one link is single-use, and must not pass through a click redirect), without
     * a reply address, and with no activity (a partial response has none until it is submitted).
     */
    readonly queueResumeLink: (
      workspaceId: number,
      responseId: number,
      mail: { readonly to: string; readonly subject: string; readonly body: string },
      at: Date
    ) => Effect.Effect<void, SqlError.SqlError>
    readonly getConfirmation: (
      actor: Actors.Actor,
      formId: number
    ) => Effect.Effect<ConfirmationSettings, FormNotFound | SqlError.SqlError>
    /** The confirmation's subject and body when the form sends one (then its translations have them to translate too). */
    readonly confirmationTexts: (
      actor: Actors.Actor,
      formId: number
    ) => Effect.Effect<
      { readonly subject: string; readonly body: string } | undefined,
      FormNotFound | SqlError.SqlError
    >
    readonly putConfirmation: (
      actor: Actors.Actor,
      formId: number,
      input: ConfirmationSettings
    ) => Effect.Effect<ConfirmationSettings, FormNotFound | Forbidden | Conflict | SqlError.SqlError>
    readonly getSettings: (workspaceId: number) => Effect.Effect<EmailSettings, SqlError.SqlError>
    readonly putSettings: (
      actor: Actors.Actor,
      input: EmailSettings
    ) => Effect.Effect<EmailSettings, Forbidden | SqlError.SqlError>
    /** A response's e-mails and replies, oldest first (as cases ask for them: `CaseMail.forResponse`). */
    readonly forResponse: CaseMail["Service"]["forResponse"]
    /** Moves a response's e-mail thread to another response (as a merge asks: `CaseMail.moveThread`). */
    readonly moveThread: CaseMail["Service"]["moveThread"]
    /** Records an open of the e-mail the token names. */
    readonly recordOpen: (token: string) => Effect.Effect<void, InvalidEmailToken | SqlError.SqlError>
    /** Records a click and answers the URL recorded for that link of that e-mail. */
    readonly recordClick: (token: string) => Effect.Effect<string, InvalidEmailToken | SqlError.SqlError>
  }
>()("@qforms/core/RespondentEmails") {
  static readonly layer = Layer.effect(
    RespondentEmails,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const tokens = yield* EmailTokens
      const activities = yield* Activities
      const deliveries = yield* Deliveries
      const events = yield* Events
      const statusLinks = yield* StatusLinks

      const getSettings = Effect.fn("RespondentEmails.getSettings")(function* (workspaceId: number) {
        const rows = yield* sql<{ readonly tracking: boolean; readonly reopen_on_reply: boolean }>`
          select tracking, reopen_on_reply from workspace_email_settings where workspace_id = ${workspaceId}`
        const row = rows[0]
        return row === undefined ? defaultEmailSettings : { tracking: row.tracking, reopenOnReply: row.reopen_on_reply }
      })

      const putSettings = Effect.fn("RespondentEmails.putSettings")(function* (
        actor: Actors.Actor,
        input: EmailSettings
      ) {
        yield* Actors.requireAdmin(actor)
        yield* sql`
          insert into workspace_email_settings (workspace_id, tracking, reopen_on_reply)
          values (${actor.workspaceId}, ${input.tracking}, ${input.reopenOnReply})
          on conflict (workspace_id) do update set tracking = excluded.tracking, reopen_on_reply = excluded.reopen_on_reply`
        return input
      })

      const formExists = (workspaceId: number, formId: number) =>
        Effect.flatMap(sql`select 1 from forms where workspace_id = ${workspaceId} and id = ${formId}`, (rows) =>
          rows.length === 0 ? Effect.fail(new FormNotFound({ message: `form ${formId} not found` })) : Effect.void
        )

      const readConfirmation = (workspaceId: number, formId: number) =>
        Effect.map(
          sql<ConfirmationSettings>`
            select enabled, subject, body from form_confirmations where workspace_id = ${workspaceId} and form_id = ${formId}`,
          (rows) =>
            rows[0] === undefined
              ? defaultConfirmation
              : { enabled: rows[0].enabled, subject: rows[0].subject, body: rows[0].body }
        )

      const getConfirmation = Effect.fn("RespondentEmails.getConfirmation")(function* (
        actor: Actors.Actor,
        formId: number
      ) {
        yield* formExists(actor.workspaceId, formId)
        return yield* readConfirmation(actor.workspaceId, formId)
      })

      const confirmationTexts = Effect.fn("RespondentEmails.confirmationTexts")(function* (
        actor: Actors.Actor,
        formId: number
      ) {
        const confirmation = yield* getConfirmation(actor, formId)
        return confirmation.enabled ? { subject: confirmation.subject, body: confirmation.body } : undefined
      })

      const putConfirmation = Effect.fn("RespondentEmails.putConfirmation")(function* (
        actor: Actors.Actor,
        formId: number,
        input: ConfirmationSettings
      ) {
        yield* Actors.requireWrite(actor)
        // Switched on without a mailer it would send nothing, silently: refused like the e-mail channel.
        if (input.enabled && !(yield* Mailer).configured) return yield* new Conflict({ message: notConfiguredMessage })
        const rows = yield* sql`
          insert into form_confirmations (form_id, workspace_id, enabled, subject, body)
          select id, workspace_id, ${input.enabled}, ${input.subject}, ${input.body} from forms
          where workspace_id = ${actor.workspaceId} and id = ${formId}
          on conflict (form_id) do update set enabled = excluded.enabled, subject = excluded.subject, body = excluded.body
          returning form_id`
        if (rows.length === 0) return yield* new FormNotFound({ message: `form ${formId} not found` })
        return input
      })

      /** Stores an e-mail with its delivery and activity, and wakes the workers (in the caller's transaction). */
      const queue = Effect.fnUntraced(function* (
        actor: Actors.Actor,
        responseId: number,
        kind: "confirmation" | "message",
        to: string,
        subject: string,
        body: string,
        at: Date,
        answers: ReadonlyArray<string> = []
      ) {
        const mailer = yield* Mailer
        const linkBase = (yield* SentLinkBase).replace(/\/$/, "")
        const { tracking } = yield* getSettings(actor.workspaceId)
        const messageId = `<${randomBytes(16).toString("hex")}@${domainOf(mailer.from)}>`
        const replyTo =
          mailer.inboundAddress === null
            ? null
            : mailer.inboundAddress.replace("{token}", yield* tokens.sign({ kind: "reply", responseId }))
        const links = extractLinks(body)
        const plain = render(body, { answers })
        const [inserted] = yield* sql<{ readonly id: number }>`
          insert into response_emails (workspace_id, response_id, kind, to_address, subject, text, html, reply_to,
            message_id, links, status, opens, created_at)
          values (${actor.workspaceId}, ${responseId}, ${kind}, ${to}, ${subject}, ${plain.text}, ${plain.html},
            ${replyTo}, ${messageId}, ${JSON.stringify(links)}::jsonb, 'queued', 0, ${at})
          returning id`
        const emailId = inserted!.id
        if (tracking) {
          const tracked = yield* Effect.forEach(links, (_, link) =>
            Effect.map(tokens.sign({ kind: "click", emailId, link }), (token) => `${linkBase}/t/c/${token}`)
          )
          const pixel = `${linkBase}/t/o/${yield* tokens.sign({ kind: "open", emailId })}`
          yield* sql`update response_emails set html = ${render(body, { tracked, pixel, answers }).html} where id = ${emailId}`
        }
        yield* deliveries.queueMail(actor.workspaceId, { emailId }, at)
        yield* activities.record(actor, responseId, at, [
          {
            type: "email_sent",
            payload: { emailId, kind, to, subject }
          }
        ])
        return emailId
      })

      const queueResumeLink = Effect.fn("RespondentEmails.queueResumeLink")(function* (
        workspaceId: number,
        responseId: number,
        mail: { readonly to: string; readonly subject: string; readonly body: string },
        at: Date
      ) {
        const mailer = yield* Mailer
        const messageId = `<${randomBytes(16).toString("hex")}@${domainOf(mailer.from)}>`
        const plain = render(mail.body, {})
        const [inserted] = yield* sql<{ readonly id: number }>`
          insert into response_emails (workspace_id, response_id, kind, to_address, subject, text, html, reply_to,
            message_id, links, status, opens, created_at)
          values (${workspaceId}, ${responseId}, 'resume_link', ${mail.to}, ${mail.subject}, ${plain.text},
            ${plain.html}, ${null}, ${messageId}, ${JSON.stringify([])}::jsonb, 'queued', 0, ${at})
          returning id`
        yield* deliveries.queueMail(workspaceId, { emailId: inserted!.id }, at)
      })

      const selectEmails = (workspaceId: number, condition: ReturnType<typeof sql.and>) =>
        sql<EmailRow>`
          select e.id, e.to_address, e.subject, e.text, e.sent_at, e.status, e.opened_at, e.opens,
            (select json_agg(json_build_object('url', c.url, 'at', c.clicked_at) order by c.id)
             from response_email_clicks c where c.email_id = e.id) as clicks
          from response_emails e
          where e.workspace_id = ${workspaceId} and ${condition}
          order by e.id`

      const send = Effect.fn("RespondentEmails.send")(function* (
        actor: Actors.Actor,
        responseId: number,
        input: SendEmailInput
      ) {
        yield* Actors.requireWrite(actor)
        if (!(yield* Mailer).configured) return yield* new Conflict({ message: notConfiguredMessage })
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const rows = yield* sql<{ readonly email: string | null }>`
            select email from responses where workspace_id = ${actor.workspaceId} and id = ${responseId} for key share`
            const row = rows[0]
            if (row === undefined) return yield* new ResponseNotFound({ message: `response ${responseId} not found` })
            if (row.email === null) {
              return yield* new Conflict({ message: `response ${responseId} has no e-mail address to write to` })
            }
            const emailId = yield* queue(actor, responseId, "message", row.email, input.subject, input.body, now)
            // A member's e-mail to the respondent is the case's first response (the SLA's, `forms/Sla.ts`).
            yield* Sla.markFirstResponse(sql, actor.workspaceId, responseId, now)
            const [email] = yield* selectEmails(actor.workspaceId, sql.and([sql`e.id = ${emailId}`]))
            return toEmail(email!)
          })
        )
      })

      const queueConfirmation = Effect.fn("RespondentEmails.queueConfirmation")(function* (
        actor: Actors.Actor,
        response: SubmittedResponse,
        form: ConfirmedForm,
        at: Date
      ) {
        if (response.email === null || !(yield* Mailer).configured) return
        const confirmation = yield* readConfirmation(actor.workspaceId, response.formId)
        if (!confirmation.enabled) return
        const linkBase = yield* SentLinkBase
        const written = inLanguage(form, response, confirmation, yield* MessageCatalogues)
        const subject = fillTemplate(written.subject, written.fields, written.values, linkBase)
          .replace(/[\r\n]+/g, " ")
          .slice(0, 200)
        // The answers go in as literal text: only the owner's links are links (and tracked). A status link is
        // issued only when the body asks for one.
        const withStatus =
          written.body.search(STATUS_LINK) >= 0
            ? written.body.replace(
                STATUS_LINK,
                `${linkBase.replace(/\/$/, "")}${statusPath(yield* statusLinks.issueFor(actor.workspaceId, response.id, at))}`
              )
            : written.body
        const body = fillTemplateParts(withStatus, written.fields, written.values, linkBase)
        yield* queue(actor, response.id, "confirmation", response.email, subject, body.template, at, body.answers)
      })

      const forResponse = Effect.fn("RespondentEmails.forResponse")(function* (
        workspaceId: number,
        responseId: number
      ) {
        const [emails, replies] = yield* Effect.all(
          [
            selectEmails(workspaceId, sql.and([sql`e.response_id = ${responseId}`])),
            sql<ReplyRow>`
            select r.id, r.from_address, r.subject, r.text, r.received_at,
              (select json_agg(json_build_object('fileId', f.id, 'name', f.name, 'size', f.size, 'type', f.type)
                 order by array_position(r.file_ids, f.id))
               from files f where f.id = any(r.file_ids) and f.workspace_id = r.workspace_id) as files
            from response_replies r
            where r.workspace_id = ${workspaceId} and r.response_id = ${responseId}
            order by r.id`
          ],
          { concurrency: "unbounded" }
        )
        return { emails: emails.map(toEmail), replies: replies.map(toReply) }
      })

      /**
       * Marks an e-mail opened (counting an open when `counted`: the image loaded, not a followed link) and,
       * the first time, writes `email.opened` in the same transaction.
       */
      const markOpened = (emailId: number, now: Date, counted: boolean) =>
        sql.withTransaction(
          Effect.gen(function* () {
            const rows = yield* sql<{
              readonly workspace_id: number
              readonly response_id: number
              readonly kind: "confirmation" | "message"
              readonly to_address: string
              readonly subject: string
              readonly first: boolean
            }>`
              with old as (select id, opened_at from response_emails where id = ${emailId} for update)
              update response_emails e set opens = e.opens + ${counted ? 1 : 0}, opened_at = coalesce(e.opened_at, ${now})
              from old where e.id = old.id
              returning e.workspace_id, e.response_id, e.kind, e.to_address, e.subject, old.opened_at is null as first`
            const row = rows[0]
            if (row === undefined || !row.first) return
            const form = yield* sql<{ readonly id: number; readonly title: string }>`
              select f.id, f.title from responses r join forms f on f.id = r.form_id
              where r.workspace_id = ${row.workspace_id} and r.id = ${row.response_id}`
            yield* events.record(row.workspace_id, now, {
              event: "email.opened",
              form: form[0]!,
              responseId: row.response_id,
              email: { id: emailId, kind: row.kind, to: row.to_address, subject: row.subject },
              openedAt: now.toISOString()
            })
          })
        )

      const recordOpen = Effect.fn("RespondentEmails.recordOpen")(function* (token: string) {
        const { emailId } = yield* tokens.verify("open", token)
        yield* markOpened(emailId, new Date(yield* Clock.currentTimeMillis), true)
      })

      const recordClick = Effect.fn("RespondentEmails.recordClick")(function* (token: string) {
        const { emailId, link } = yield* tokens.verify("click", token)
        const now = new Date(yield* Clock.currentTimeMillis)
        // The URL is the one recorded for this link of this e-mail: never one from the request. The click and
        // the open it implies commit together.
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const rows = yield* sql<{ readonly url: string | null }>`
          with email as (
            select workspace_id, links ->> ${link}::integer as url from response_emails where id = ${emailId}
          ), click as (
            insert into response_email_clicks (workspace_id, email_id, url, clicked_at)
            select workspace_id, ${emailId}, url, ${now} from email where url is not null
          )
          select url from email`
            const url = rows[0]?.url ?? null
            if (url === null) return yield* new InvalidEmailToken({ message: "no such link in this e-mail" })
            // A followed link means the e-mail was opened, even with its images blocked.
            yield* markOpened(emailId, now, false)
            return url
          })
        )
      })

      const moveThread = Effect.fn("RespondentEmails.moveThread")(function* (
        workspaceId: number,
        fromId: number,
        toId: number,
        only?: { readonly emailIds: ReadonlyArray<number>; readonly replyIds: ReadonlyArray<number> }
      ) {
        const emails = yield* sql<{ readonly id: number }>`
          update response_emails set response_id = ${toId}
          where workspace_id = ${workspaceId} and response_id = ${fromId}
            ${only === undefined ? sql`` : sql`and id = any(${only.emailIds}::int[])`}
          returning id`
        const replies = yield* sql<{ readonly id: number }>`
          update response_replies set response_id = ${toId}
          where workspace_id = ${workspaceId} and response_id = ${fromId}
            ${only === undefined ? sql`` : sql`and id = any(${only.replyIds}::int[])`}
          returning id`
        return { emailIds: emails.map((row) => row.id), replyIds: replies.map((row) => row.id) }
      })

      return RespondentEmails.of({
        send,
        moveThread,
        queueConfirmation,
        queueResumeLink,
        getConfirmation,
        confirmationTexts,
        putConfirmation,
        getSettings,
        putSettings,
        forResponse,
        recordOpen,
        recordClick
      })
    })
  ).pipe(Layer.provide([Activities.layer, Deliveries.layer, EmailTokens.layer, Events.layer, StatusLinks.layer]))

  /**
   * Cases' e-mail port (`cases/CaseMail.ts`), served by this service.
   *
   * @example
   * ```ts
   * const casesWithMail = Responses.layer.pipe(Layer.provide(RespondentEmails.caseMail))
   * ```
   */
  static readonly caseMail = Layer.effect(
    CaseMail,
    Effect.gen(function* () {
      const emails = yield* RespondentEmails
      return CaseMail.of({
        queueConfirmation: emails.queueConfirmation,
        forResponse: emails.forResponse,
        moveThread: emails.moveThread
      })
    })
  )
}
