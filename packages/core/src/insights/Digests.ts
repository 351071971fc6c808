/**
 * Digest e-mails: a member may ask for a form's digest daily or weekly (at a
 * local hour of their time zone). When one falls due, the scheduler makes it
 * (new responses against the period before, views and completion, open cases
 * by stage, unassigned and waiting cases, top answers), stores it and queues
 * its delivery through the outbox, all in one transaction that also moves the
 * subscription's next time on; the delivery worker sends it by SMTP with a
 * one-click unsubscribe (RFC 8058). Several processes share the work (due
 * subscriptions are claimed with `skip locked`); a digest missed while no
 * process ran is sent once, for the period that ended last.
 */
import { randomUUID } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Mailer, notConfiguredMessage } from "../mail/index.ts"
import {
  Actors,
  Conflict,
  Forbidden,
  FormNotFound,
  type InvalidInput,
  seal,
  SentLinkBase,
  SigningSecrets,
  unseal
} from "../kernel/index.ts"
import { Deliveries } from "../deliveries/index.ts"
import { CaseMetrics } from "./CaseMetrics.ts"
import {
  type DigestContent,
  type DigestFrequency,
  type DigestSchedule,
  languageOf,
  nextAfter,
  previousBefore,
  renderDigest,
  TimeZone,
  type TopAnswer
} from "../email/index.ts"
import type { QuestionSummary } from "./AnswerTallies.ts"
import { FormSummaries } from "./FormSummaries.ts"
import { WorkspaceSettingsStore } from "../forms/index.ts"

/** A member's choice for a form's digest: none, daily or weekly. */
export const DigestChoice = Schema.Literals(["off", "daily", "weekly"])
export type DigestChoice = typeof DigestChoice.Type

/** A member's digest of a form. */
export const DigestSettings = Schema.Struct({
  formId: Schema.Int,
  frequency: DigestChoice.annotate({ description: "`off`, `daily`, or `weekly` (on Mondays)." }),
  hour: Schema.Int.annotate({ description: "The local hour it is sent at, 0–23." }),
  timeZone: Schema.String.annotate({ description: "The IANA time zone of `hour`." }),
  nextAt: Schema.NullOr(Schema.String).annotate({ description: "When the next digest is due; null when off." }),
  email: Schema.String.annotate({ description: "Where it is sent: the member's account e-mail." }),
  mailConfigured: Schema.Boolean.annotate({
    description: "Whether this server sends e-mail at all; without it no digest is sent."
  })
}).annotate({ identifier: "DigestSettings" })
export type DigestSettings = typeof DigestSettings.Type

/** What a member chooses for a form's digest. */
export const DigestInput = Schema.Struct({
  frequency: DigestChoice,
  hour: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 23 }))).annotate({
    description: "The local hour to send it at, 0–23 (default 8)."
  }),
  timeZone: Schema.optionalKey(TimeZone).annotate({ description: "An IANA time zone (default `UTC`)." })
}).annotate({ identifier: "DigestInput" })
export type DigestInput = typeof DigestInput.Type

/** A digest queued for sending now. */
export const DigestQueued = Schema.Struct({
  to: Schema.String,
  periodStart: Schema.String,
  periodEnd: Schema.String
}).annotate({ identifier: "DigestQueued" })
export type DigestQueued = typeof DigestQueued.Type

/** An unsubscribe link that is malformed, changed, or not made by this server. */
export class InvalidDigestToken extends Schema.TaggedError<InvalidDigestToken>()("InvalidDigestToken", {
  message: Schema.String
}) {}

const SECRET_NAME = "digest_tokens"
const TOKEN_CONTEXT = "qforms-digest-unsubscribe.v1."
const DEFAULT_HOUR = 8
const DEFAULT_ZONE = "UTC"
/** Due subscriptions one transaction takes. */
const BATCH = 50
/** The scheduler looks for due digests at least this often. */
const POLL = Duration.minutes(1)
/** Sent and failed digests are kept this long (their delivery log goes with them). */
const KEEP_DAYS = 30
/** Questions in a digest's top answers. */
const TOP_MAX = 5

const TokenBody = Schema.Struct({ w: Schema.Int, f: Schema.Int, a: Schema.Int })
const decodeToken = Schema.decodeUnknownResult(Schema.fromJsonString(TokenBody))

interface SubscriptionRow {
  readonly workspace_id: number
  readonly form_id: number
  readonly account_id: number
  readonly frequency: DigestFrequency
  readonly hour: number
  readonly time_zone: string
  readonly next_at: Date
}

/** Whom a digest of a form goes to, and in which language. */
interface Addressee extends Pick<SubscriptionRow, "workspace_id" | "form_id" | "account_id"> {
  readonly email: string
  readonly language: string | null
}

/** A member whose digest is due: their subscription, their account and their role. */
interface Recipient extends SubscriptionRow, Addressee {
  readonly name: string | null
  readonly role: Actors.MemberRole
}

const scheduleOf = (row: Pick<SubscriptionRow, "frequency" | "hour" | "time_zone">): DigestSchedule => ({
  frequency: row.frequency,
  hour: row.hour,
  timeZone: row.time_zone
})

/** The top answer of each choice and number question (form order), at most {@link TOP_MAX}. */
const topAnswers = (questions: ReadonlyArray<QuestionSummary>) => {
  const top: Array<TopAnswer> = []
  for (const question of questions) {
    if (top.length === TOP_MAX || question.answered === 0) continue
    if (question.kind === "choices") {
      const best = [...question.choices, ...(question.other === null ? [] : [question.other])].reduce<
        (typeof question.choices)[number] | undefined
      >((found, choice) => (found === undefined || choice.count > found.count ? choice : found), undefined)
      if (best !== undefined && best.count > 0) {
        top.push({
          question: question.label,
          answer: best.choice,
          kind: "choice",
          percent: best.percent,
          answered: question.answered
        })
      }
    } else if (question.kind === "numbers" && question.mean !== null) {
      top.push(
        question.nps === null
          ? {
              question: question.label,
              answer: String(Math.round(question.mean * 10) / 10),
              kind: "mean",
              percent: null,
              answered: question.answered
            }
          : {
              question: question.label,
              answer: String(question.nps.score),
              kind: "netPromoterScore",
              percent: null,
              answered: question.answered
            }
      )
    }
  }
  return top
}

/**
 * Digest e-mails: each member's choice per form, the scheduler's step, a digest
 * sent on demand, and unsubscribing by the e-mail's link.
 *
 * @example
 * ```ts
 * const digests = yield* Digests
 * yield* digests.set(actor, formId, { frequency: "weekly", hour: 9, timeZone: "Europe/Berlin" })
 * ```
 */
export class Digests extends Context.Service<
  Digests,
  {
    /** The actor's own digest of a form (`off` when none). */
    readonly get: (
      actor: Actors.Actor,
      formId: number
    ) => Effect.Effect<DigestSettings, FormNotFound | Forbidden | SqlError.SqlError>
    /** Chooses the actor's own digest of a form (`off` removes it). Any role may: a digest only reads. */
    readonly set: (
      actor: Actors.Actor,
      formId: number,
      input: DigestInput
    ) => Effect.Effect<DigestSettings, FormNotFound | Forbidden | SqlError.SqlError>
    /**
     * Sends the actor the digest of the period that ends now (a day, or a week
     * when they chose weekly), through the outbox; a {@link Conflict} when this
     * server sends no e-mail.
     */
    readonly sendNow: (
      actor: Actors.Actor,
      formId: number
    ) => Effect.Effect<DigestQueued, FormNotFound | Forbidden | Conflict | InvalidInput | SqlError.SqlError>
    /**
     * Makes and queues every digest due now (up to a batch; the scheduler's
     * step). A period without new responses or open cases sends nothing. Answers
     * how many subscriptions were due and how many digests were queued.
     */
    readonly runDue: Effect.Effect<{ readonly due: number; readonly queued: number }, SqlError.SqlError>
    /** The form an unsubscribe link is about (for its confirmation page), or null when the form is gone. */
    readonly describeToken: (
      token: string
    ) => Effect.Effect<{ readonly form: string | null }, InvalidDigestToken | SqlError.SqlError>
    /** Ends the digest an e-mail's unsubscribe link names (done already is fine). */
    readonly unsubscribe: (
      token: string
    ) => Effect.Effect<{ readonly form: string | null }, InvalidDigestToken | SqlError.SqlError>
  }
>()("@qforms/core/Digests") {
  static readonly layer = Layer.effect(
    Digests,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const summaries = yield* FormSummaries
      const metrics = yield* CaseMetrics
      const deliveries = yield* Deliveries
      const secret = yield* SigningSecrets.cached(SECRET_NAME)

      const requireMember = (actor: Actors.Actor) =>
        actor.accountId === null || actor.role === null
          ? Effect.fail(new Forbidden({ message: "a digest belongs to a member: use a member's API key or session" }))
          : Effect.succeed(actor.accountId)

      const formTitle = Effect.fnUntraced(function* (workspaceId: number, formId: number) {
        const rows = yield* sql<{ readonly title: string }>`
          select title from forms where workspace_id = ${workspaceId} and id = ${formId}`
        if (rows[0] === undefined) return yield* new FormNotFound({ message: `form ${formId} not found` })
        return rows[0].title
      })

      /** The member's digest of a form and whom it goes to, in one query. */
      const subscriptionOf = Effect.fnUntraced(function* (actor: Actors.Actor, formId: number, accountId: number) {
        const rows = yield* sql<{
          readonly email: string
          readonly language: string | null
          readonly frequency: DigestFrequency | null
          readonly hour: number | null
          readonly time_zone: string | null
          readonly next_at: Date | null
        }>`
          select a.email, a.language, s.frequency, s.hour, s.time_zone, s.next_at
          from accounts a
          left join digest_subscriptions s
            on s.workspace_id = ${actor.workspaceId} and s.form_id = ${formId} and s.account_id = a.id
          where a.id = ${accountId}`
        const row = rows[0]
        const email = row?.email ?? ""
        return {
          settings: {
            formId,
            frequency: row?.frequency ?? "off",
            hour: row?.hour ?? DEFAULT_HOUR,
            timeZone: row?.time_zone ?? DEFAULT_ZONE,
            nextAt: row?.next_at?.toISOString() ?? null,
            email,
            mailConfigured: (yield* Mailer).configured
          } satisfies DigestSettings,
          addressee: {
            workspace_id: actor.workspaceId,
            form_id: formId,
            account_id: accountId,
            email,
            language: row?.language ?? null
          } satisfies Addressee
        }
      })

      const settingsOf = (actor: Actors.Actor, formId: number, accountId: number) =>
        Effect.map(subscriptionOf(actor, formId, accountId), ({ settings }) => settings)

      const get = Effect.fn("Digests.get")(function* (actor: Actors.Actor, formId: number) {
        const accountId = yield* requireMember(actor)
        yield* formTitle(actor.workspaceId, formId)
        return yield* settingsOf(actor, formId, accountId)
      })

      const set = Effect.fn("Digests.set")(function* (actor: Actors.Actor, formId: number, input: DigestInput) {
        const accountId = yield* requireMember(actor)
        yield* formTitle(actor.workspaceId, formId)
        const now = new Date(yield* Clock.currentTimeMillis)
        if (input.frequency === "off") {
          yield* sql`
            delete from digest_subscriptions
            where workspace_id = ${actor.workspaceId} and form_id = ${formId} and account_id = ${accountId}`
        } else {
          const schedule: DigestSchedule = {
            frequency: input.frequency,
            hour: input.hour ?? DEFAULT_HOUR,
            timeZone: input.timeZone ?? DEFAULT_ZONE
          }
          const nextAt = nextAfter(schedule, now)
          // The form's row is checked in the statement too: a form deleted meanwhile inserts nothing.
          yield* sql`
            insert into digest_subscriptions (workspace_id, form_id, account_id, frequency, hour, time_zone, next_at,
              created_at, updated_at)
            select ${actor.workspaceId}, f.id, m.account_id, ${schedule.frequency}, ${schedule.hour},
              ${schedule.timeZone}, ${nextAt}, ${now}, ${now}
            from forms f join members m on m.workspace_id = f.workspace_id and m.account_id = ${accountId}
            where f.workspace_id = ${actor.workspaceId} and f.id = ${formId}
            on conflict (form_id, account_id) do update set frequency = excluded.frequency, hour = excluded.hour,
              time_zone = excluded.time_zone, next_at = excluded.next_at, updated_at = excluded.updated_at`
        }
        return yield* settingsOf(actor, formId, accountId)
      })

      /** What a form's period looked like, as the member may see it. */
      const contentOf = Effect.fnUntraced(function* (
        actor: Actors.Actor,
        formId: number,
        schedule: DigestSchedule,
        periodStart: Date,
        periodEnd: Date
      ) {
        const length = periodEnd.getTime() - periodStart.getTime()
        const summary = yield* summaries.summarize(actor, formId, {
          from: periodStart,
          to: new Date(periodEnd.getTime() - 1),
          texts: 0
        })
        const previousRows = yield* sql<{ readonly count: number }>`
          select count(*)::int as count from responses
          where workspace_id = ${actor.workspaceId} and form_id = ${formId} and finished
            and submitted_at >= ${new Date(periodStart.getTime() - length)} and submitted_at < ${periodStart}`
        const cases = yield* metrics.measure(actor, formId, {})
        return {
          form: summary.form,
          frequency: schedule.frequency,
          periodStart,
          periodEnd,
          timeZone: schedule.timeZone,
          responses: summary.totals.responses,
          previous: Number(previousRows[0]?.count ?? 0),
          views: summary.totals.views,
          completionRate: summary.totals.completionRate,
          open: cases.open,
          unassigned: cases.byAssignee.find((assignee) => assignee.accountId === null)?.open ?? 0,
          waiting: cases.firstResponse.waiting,
          byStage: cases.byStage
            .filter((stage) => !stage.closed && stage.count > 0)
            .map((stage) => ({ name: stage.name ?? "", count: stage.count })),
          top: topAnswers(summary.questions)
        } satisfies DigestContent
      })

      const tokenFor = (workspaceId: number, formId: number, accountId: number) =>
        Effect.map(secret, (key) =>
          seal(key, TOKEN_CONTEXT, JSON.stringify({ w: workspaceId, f: formId, a: accountId }))
        )

      /** Stores a digest and queues its delivery (in the caller's transaction). */
      const queue = Effect.fnUntraced(function* (recipient: Addressee, content: DigestContent, now: Date) {
        const base = (yield* SentLinkBase).replace(/\/$/, "")
        const inbox = `${base}/app/forms/${recipient.form_id}/responses`
        const unsubscribe = `${base}/digest/unsubscribe/${yield* tokenFor(recipient.workspace_id, recipient.form_id, recipient.account_id)}`
        const message = renderDigest(content, languageOf(recipient.language), {
          inbox,
          summary: `${inbox}?view=summary`,
          unsubscribe
        })
        const host = /@([^>\s]+)>?$/.exec((yield* Mailer).from ?? "")?.[1] ?? "qforms.invalid"
        const rows = yield* sql<{ readonly id: number }>`
          insert into digest_emails (workspace_id, form_id, account_id, to_address, subject, text, html, message_id,
            unsubscribe_url, period_start, period_end, status, created_at)
          values (${recipient.workspace_id}, ${recipient.form_id}, ${recipient.account_id}, ${recipient.email},
            ${message.subject}, ${message.text}, ${message.html}, ${`<digest.${randomUUID()}@${host}>`}, ${unsubscribe},
            ${content.periodStart}, ${content.periodEnd}, 'queued', ${now})
          returning id`
        yield* deliveries.queueMail(recipient.workspace_id, { digestId: rows[0]!.id }, now)
      })

      const actorOf = (recipient: Recipient) =>
        Actors.member({
          workspaceId: recipient.workspace_id,
          accountId: recipient.account_id,
          role: recipient.role,
          name: recipient.name,
          via: "session"
        })

      const sendNow = Effect.fn("Digests.sendNow")(function* (actor: Actors.Actor, formId: number) {
        const accountId = yield* requireMember(actor)
        yield* formTitle(actor.workspaceId, formId)
        if (!(yield* Mailer).configured) return yield* new Conflict({ message: notConfiguredMessage })
        const { settings, addressee } = yield* subscriptionOf(actor, formId, accountId)
        const now = new Date(yield* Clock.currentTimeMillis)
        const schedule: DigestSchedule = {
          frequency: settings.frequency === "weekly" ? "weekly" : "daily",
          hour: settings.hour,
          timeZone: settings.timeZone
        }
        const periodStart = new Date(now.getTime() - (schedule.frequency === "weekly" ? 7 : 1) * 86_400_000)
        const content = yield* contentOf(actor, formId, schedule, periodStart, now)
        yield* sql.withTransaction(queue(addressee, content, now))
        return { to: addressee.email, periodStart: periodStart.toISOString(), periodEnd: now.toISOString() }
      })

      const runDue = Effect.gen(function* () {
        const now = new Date(yield* Clock.currentTimeMillis)
        const configured = (yield* Mailer).configured
        const queued = yield* sql.withTransaction(
          Effect.gen(function* () {
            const due = yield* sql<Recipient>`
              select s.workspace_id, s.form_id, s.account_id, s.frequency, s.hour, s.time_zone, s.next_at,
                a.email, a.language, a.name, m.role
              from digest_subscriptions s
              join accounts a on a.id = s.account_id
              join members m on m.workspace_id = s.workspace_id and m.account_id = s.account_id
              where s.next_at <= ${now}
              order by s.next_at, s.form_id, s.account_id
              limit ${BATCH}
              for update of s skip locked`
            let count = 0
            // Members of one form due at the same time share one computation, whatever their roles: every
            // role reads all of a form (the summary and the case metrics scope by workspace and form only).
            const contents = new Map<string, DigestContent>()
            for (const recipient of due) {
              const schedule = scheduleOf(recipient)
              if (configured) {
                const key = `${recipient.form_id}|${recipient.frequency}|${recipient.time_zone}|${recipient.next_at.getTime()}`
                let content = contents.get(key)
                if (content === undefined) {
                  const periodStart = previousBefore(schedule, recipient.next_at)
                  content = yield* contentOf(
                    actorOf(recipient),
                    recipient.form_id,
                    schedule,
                    periodStart,
                    recipient.next_at
                  )
                  contents.set(key, content)
                }
                if (content.responses > 0 || content.open > 0) {
                  yield* queue(recipient, content, now)
                  count++
                }
              }
              // A digest missed while nothing ran is not sent for every period missed: the next is after now.
              yield* sql`
                update digest_subscriptions set next_at = ${nextAfter(schedule, now)}
                where form_id = ${recipient.form_id} and account_id = ${recipient.account_id}`
            }
            return { due: due.length, queued: count }
          })
        )
        yield* sql`
          delete from digest_emails
          where created_at < ${new Date(now.getTime() - KEEP_DAYS * 86_400_000)} and status in ('sent', 'failed')`
        return queued
      }).pipe(
        // A form deleted while its digest was being made: its subscriptions went with it (the next step goes on).
        Effect.catchTags({
          FormNotFound: () => Effect.succeed({ due: 0, queued: 0 }),
          InvalidInput: () => Effect.succeed({ due: 0, queued: 0 })
        }),
        Effect.withSpan("Digests.runDue")
      )

      const openToken = Effect.fnUntraced(function* (token: string) {
        const key = yield* secret
        const opened = token.length > 512 ? Result.fail("malformed" as const) : unseal(key, TOKEN_CONTEXT, token)
        const body = Result.isSuccess(opened) ? decodeToken(opened.success) : undefined
        if (body === undefined || Result.isFailure(body)) {
          return yield* new InvalidDigestToken({ message: "this unsubscribe link is not valid" })
        }
        return body.success
      })

      const titleOf = (workspaceId: number, formId: number) =>
        Effect.map(
          sql<{
            readonly title: string
          }>`select title from forms where workspace_id = ${workspaceId} and id = ${formId}`,
          (rows) => ({ form: rows[0]?.title ?? null })
        )

      const describeToken = Effect.fn("Digests.describeToken")(function* (token: string) {
        const body = yield* openToken(token)
        return yield* titleOf(body.w, body.f)
      })

      const unsubscribe = Effect.fn("Digests.unsubscribe")(function* (token: string) {
        const body = yield* openToken(token)
        yield* sql`
          delete from digest_subscriptions
          where workspace_id = ${body.w} and form_id = ${body.f} and account_id = ${body.a}`
        return yield* titleOf(body.w, body.f)
      })

      return Digests.of({ get, set, sendNow, runDue, describeToken, unsubscribe })
    })
  ).pipe(Layer.provide([CaseMetrics.layer, Deliveries.layer, FormSummaries.layer, WorkspaceSettingsStore.layer]))

  /**
   * The scheduler: makes the digests that fall due, every minute (and at once
   * when a batch was full), for the layer's lifetime.
   *
   * @example
   * ```ts
   * const Background = Layer.mergeAll(Digests.layerScheduler, Worker.layer({ appUrl }))
   * ```
   */
  static readonly layerScheduler = Layer.effectDiscard(
    Effect.gen(function* () {
      const digests = yield* Digests
      const step = digests.runDue.pipe(
        Effect.catchCause((cause) =>
          Effect.as(Effect.logError("digest e-mails could not be made", cause), { due: 0, queued: 0 })
        )
      )
      yield* Effect.forkScoped(
        Effect.forever(Effect.flatMap(step, ({ due }) => (due >= BATCH ? Effect.void : Effect.sleep(POLL))))
      )
    })
  )
}
