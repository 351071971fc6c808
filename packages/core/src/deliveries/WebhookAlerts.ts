/**
 * Webhook failure alerts: when a subscription's deliveries keep giving up
 * (`DeliveryConfig.alertAfterFailures` in a row), and when it is disabled by
 * its receiver (410 Gone) or by failures (`disableAfterFailures` in a row),
 * the workspace gets an activity entry (`webhook_alerts`, listed by
 * `GET /api/webhooks/alerts`) and each owner and admin an e-mail in their own language
 * (`alert_emails`, sent by the outbox). Once per incident: a delivered
 * delivery ends a failing incident, re-enabling ends a disabled one.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { type Actors, escapeHtml, type InvalidInput, oneLine, SentLinkBase } from "../kernel/index.ts"
import { type DigestLanguage, languageOf, Mailer, sayer } from "../mail/index.ts"
import { cursorBefore, Deliveries, failuresReason, goneReason, newestFirstPage } from "./Deliveries.ts"
import { DeliveryConfig } from "./DeliveryConfig.ts"
import { maskedUrl, memberDisabledReason } from "./Webhooks.ts"

/** What an alert says: deliveries keep giving up, or the subscription was disabled. */
export const WebhookAlertKind = Schema.Literals(["failing", "disabled"])
export type WebhookAlertKind = typeof WebhookAlertKind.Type

/** One alert: a workspace activity entry about a webhook subscription. */
export const WebhookAlert = Schema.Struct({
  id: Schema.Int,
  kind: WebhookAlertKind,
  subscriptionId: Schema.String,
  formId: Schema.NullOr(Schema.Int).annotate({
    description: "The subscription's form; null for a workspace-wide one."
  }),
  formTitle: Schema.NullOr(Schema.String),
  target: Schema.String.annotate({ description: "The receiver's scheme and host, then `…`." }),
  failures: Schema.Int.annotate({ description: "Deliveries in a row that gave up when the alert was raised." }),
  reason: Schema.NullOr(Schema.String).annotate({ description: "Why it was disabled (`disabled` only)." }),
  createdAt: Schema.String
}).annotate({ identifier: "WebhookAlert" })
export type WebhookAlert = typeof WebhookAlert.Type

/** A page of alerts, newest first. */
export const WebhookAlertList = Schema.Struct({
  alerts: Schema.Array(WebhookAlert),
  nextCursor: Schema.NullOr(Schema.String)
}).annotate({ identifier: "WebhookAlertList" })
export type WebhookAlertList = typeof WebhookAlertList.Type

/** The words of an alert e-mail. */
export interface AlertMessage {
  readonly subject: string
  readonly text: string
  readonly html: string
}

const words = {
  en: {
    subjectFailing: "Webhook failing: {target} ({form})",
    subjectDisabled: "Webhook disabled: {target} ({form})",
    failing: "{count, plural, one {# delivery in a row} other {# deliveries in a row}} to {target} ({form}) gave up.",
    disabled: "The webhook to {target} ({form}) was disabled: {reason}.",
    reasonGone: "the receiver answered 410 Gone",
    reasonFailures: "{count, plural, one {# delivery in a row gave up} other {# deliveries in a row gave up}}",
    failingNext: "qforms keeps trying new events. The dead letters can be replayed once the receiver works again.",
    disabledNext:
      "No events are sent to it until an owner or admin enables it again; its dead letters can then be replayed.",
    settings: "Webhook settings",
    formNamed: 'form "{title}"',
    allForms: "all forms"
  },
  de: {
    subjectFailing: "Webhook schlägt fehl: {target} ({form})",
    subjectDisabled: "Webhook deaktiviert: {target} ({form})",
    failing:
      "{count, plural, one {# Zustellung in Folge} other {# Zustellungen in Folge}} an {target} ({form}) {count, plural, one {wurde} other {wurden}} aufgegeben.",
    disabled: "Der Webhook an {target} ({form}) wurde deaktiviert: {reason}.",
    reasonGone: "Der Empfänger hat mit 410 Gone geantwortet",
    reasonFailures:
      "{count, plural, one {# Zustellung in Folge wurde aufgegeben} other {# Zustellungen in Folge wurden aufgegeben}}",
    failingNext:
      "qforms versucht es mit neuen Ereignissen weiter. Die unzustellbaren Zustellungen können erneut gesendet werden, sobald der Empfänger wieder funktioniert.",
    disabledNext:
      "Er erhält keine Ereignisse mehr, bis ein Inhaber oder Administrator ihn wieder aktiviert; danach können seine unzustellbaren Zustellungen erneut gesendet werden.",
    settings: "Webhook-Einstellungen",
    formNamed: "Formular „{title}“",
    allForms: "alle Formulare"
  },
  ar: {
    subjectFailing: "فشل الويب هوك: {target} ({form})",
    subjectDisabled: "عُطّل الويب هوك: {target} ({form})",
    failing:
      "{count, plural, zero {لم تفشل أي عملية تسليم} one {فشلت عملية تسليم واحدة} two {فشلت عمليتا تسليم متتاليتان} few {فشلت # عمليات تسليم متتالية} many {فشلت # عملية تسليم متتالية} other {فشلت # عملية تسليم متتالية}} إلى {target} ({form}).",
    disabled: "عُطّل الويب هوك إلى {target} ({form}): {reason}.",
    reasonGone: "ردّ المستقبِل بـ 410 Gone",
    reasonFailures:
      "{count, plural, zero {لم تفشل أي عملية تسليم} one {فشلت عملية تسليم واحدة} two {فشلت عمليتا تسليم متتاليتان} few {فشلت # عمليات تسليم متتالية} many {فشلت # عملية تسليم متتالية} other {فشلت # عملية تسليم متتالية}}",
    failingNext:
      "يواصل qforms محاولة إرسال الأحداث الجديدة. ويمكن إعادة إرسال عمليات التسليم المتعذرة بعد أن يعمل المستقبِل من جديد.",
    disabledNext:
      "لن تُرسل إليه أي أحداث حتى يفعّله مالك أو مسؤول من جديد؛ وبعدها يمكن إعادة إرسال عمليات التسليم المتعذرة.",
    settings: "إعدادات Webhooks",
    formNamed: "النموذج «{title}»",
    allForms: "كل النماذج"
  }
} as const satisfies Record<DigestLanguage, Record<string, string>>

type AlertWordKey = keyof (typeof words)["en"]

const say = sayer<AlertWordKey>(words)

/** Every language's words of the alert e-mails, for the tests (each language has every key). */
export const alertCatalogue: Readonly<Record<DigestLanguage, Readonly<Record<AlertWordKey, string>>>> = words

/** The stored reason in the reader's words when it is one qforms wrote, else as stored. */
const reasonIn = (language: DigestLanguage, reason: string | null): string => {
  if (reason === goneReason) return say(language, "reasonGone")
  const failures = /^(\d+) deliveries in a row gave up$/.exec(reason ?? "")
  if (failures !== null && reason === failuresReason(Number(failures[1]))) {
    return say(language, "reasonFailures", { count: Number(failures[1]) })
  }
  return reason ?? ""
}

/**
 * The e-mail of an alert in a member's language (English, German or Arabic,
 * as the digest: `languageOf(accounts.language)`), in plain text and HTML
 * (the form title and target are escaped; the subject is one line; Arabic
 * is marked right to left).
 *
 * @example
 * ```ts
 * alertMessage({ kind: "failing", formTitle: "Support", target: "https://hooks.example.com/…", failures: 3,
 *   reason: null }, "https://forms.example.com/app/settings", "de").subject
 * // "Webhook schlägt fehl: https://hooks.example.com/… (Support)"
 * ```
 */
export const alertMessage = (
  alert: Pick<WebhookAlert, "kind" | "formTitle" | "target" | "failures" | "reason">,
  settingsUrl: string,
  language: DigestLanguage = "en"
): AlertMessage => {
  // A workspace-wide subscription has no form of its own.
  const title = alert.formTitle === null ? say(language, "allForms") : oneLine(alert.formTitle, 120)
  const values = { target: alert.target, form: title }
  const named = {
    target: alert.target,
    form: alert.formTitle === null ? title : say(language, "formNamed", { title })
  }
  const what =
    alert.kind === "failing"
      ? say(language, "failing", { ...named, count: alert.failures })
      : say(language, "disabled", { ...named, reason: reasonIn(language, alert.reason) })
  const next = say(language, alert.kind === "failing" ? "failingNext" : "disabledNext")
  const subject = oneLine(say(language, alert.kind === "failing" ? "subjectFailing" : "subjectDisabled", values), 200)
  const settings = say(language, "settings")
  const direction = language === "ar" ? "rtl" : "ltr"
  return {
    subject,
    text: `${what}\n\n${next}\n\n${settings}: ${settingsUrl}\n`,
    html:
      `<!doctype html><html lang="${language}" dir="${direction}"><head><meta charset="utf-8">` +
      `<title>${escapeHtml(subject)}</title></head><body style="font-family:system-ui,sans-serif;line-height:1.5">` +
      `<p>${escapeHtml(what)}</p><p>${escapeHtml(next)}</p>` +
      `<p><a href="${escapeHtml(settingsUrl)}">${escapeHtml(settings)}</a></p></body></html>`
  }
}

interface AlertRow {
  readonly id: number
  readonly kind: WebhookAlertKind
  readonly subscription_id: string
  readonly form_id: number | null
  readonly form_title: string | null
  readonly target: string
  readonly failures: number
  readonly reason: string | null
  readonly created_at: Date
}

const toAlert = (row: AlertRow): WebhookAlert => ({
  id: row.id,
  kind: row.kind,
  subscriptionId: row.subscription_id,
  formId: row.form_id,
  formTitle: row.form_title,
  target: row.target,
  failures: row.failures,
  reason: row.reason,
  createdAt: row.created_at.toISOString()
})

/**
 * Raising alerts (worker use) and the workspace's list of them.
 *
 * @example
 * ```ts
 * const page = yield* (yield* WebhookAlerts).list(actor, { limit: 20 })
 * ```
 */
export class WebhookAlerts extends Context.Service<
  WebhookAlerts,
  {
    /**
     * Raises the alerts due for these subscriptions (any workspace), in the
     * caller's transaction: an entry and an e-mail to each owner and admin
     * per alert. Does nothing for a subscription already alerted in this incident.
     */
    readonly raise: (subscriptionIds: ReadonlyArray<string>) => Effect.Effect<void, SqlError.SqlError>
    /** The workspace's alerts, newest first (every role). */
    readonly list: (
      actor: Actors.Actor,
      options?: { readonly limit?: number | undefined; readonly cursor?: string | undefined }
    ) => Effect.Effect<WebhookAlertList, InvalidInput | SqlError.SqlError>
  }
>()("@qforms/core/WebhookAlerts") {
  static readonly layer = Layer.effect(
    WebhookAlerts,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const deliveries = yield* Deliveries

      const raise = Effect.fn("WebhookAlerts.raise")(function* (subscriptionIds: ReadonlyArray<string>) {
        if (subscriptionIds.length === 0) return
        const config = yield* DeliveryConfig
        const now = new Date(yield* Clock.currentTimeMillis)
        // Marked alerted in the statement that finds them due: a concurrent worker raises nothing twice.
        const due = yield* sql<{
          readonly id: string
          readonly workspace_id: number
          readonly form_id: number | null
          readonly form_title: string | null
          readonly target_url: string
          readonly failures: number
          readonly reason: string | null
          readonly kind: WebhookAlertKind
        }>`
          with due as (
            select s.id,
              s.disabled_at is not null and s.disabled_alerted_at is null
                and s.disabled_reason is distinct from ${memberDisabledReason} as disabled,
              s.disabled_at is null and s.failing_alerted_at is null
                and s.consecutive_failures >= ${config.alertAfterFailures} as failing
            from webhook_subscriptions s
            where s.id = any(${subscriptionIds}::text[])
            for update
          ), marked as (
            update webhook_subscriptions s set
              disabled_alerted_at = case when due.disabled then ${now} else s.disabled_alerted_at end,
              failing_alerted_at = case when due.failing then ${now} else s.failing_alerted_at end
            from due
            where s.id = due.id and (due.disabled or due.failing)
            returning s.id, s.workspace_id, s.form_id, s.target_url, s.consecutive_failures as failures,
              case when due.disabled then s.disabled_reason end as reason,
              case when due.disabled then 'disabled' else 'failing' end as kind
          )
          select m.*, f.title as form_title from marked m left join forms f on f.id = m.form_id
          order by m.id`
        if (due.length === 0) return
        const base = (yield* SentLinkBase).replace(/\/$/, "")
        const settingsUrl = `${base}/app/settings?tab=webhooks`
        const host = /@([^>\s]+)>?$/.exec((yield* Mailer).from ?? "")?.[1] ?? "qforms.invalid"
        for (const subscription of due) {
          const target = maskedUrl(subscription.target_url)
          const alert = yield* sql<{ readonly id: number }>`
            insert into webhook_alerts (workspace_id, subscription_id, form_id, kind, target, failures, reason,
              created_at)
            values (${subscription.workspace_id}, ${subscription.id}, ${subscription.form_id}, ${subscription.kind},
              ${target}, ${subscription.failures}, ${subscription.reason}, ${now})
            returning id`
          const alertFields = {
            kind: subscription.kind,
            formTitle: subscription.form_title,
            target,
            failures: subscription.failures,
            reason: subscription.reason
          }
          const recipients = yield* sql<{
            readonly account_id: number
            readonly email: string
            readonly language: string | null
          }>`
            select m.account_id, a.email, a.language
            from members m join accounts a on a.id = m.account_id
            where m.workspace_id = ${subscription.workspace_id} and m.role in ('owner', 'admin')
            order by m.account_id`
          // Each recipient reads it in the language of their account (as the digest), else English.
          const messages = new Map<DigestLanguage, AlertMessage>()
          const written = recipients.map((recipient) => {
            const language = languageOf(recipient.language)
            const message = messages.get(language) ?? alertMessage(alertFields, settingsUrl, language)
            messages.set(language, message)
            return message
          })
          // All of them in one statement, each with the words of its recipient's language.
          const emails = yield* sql<{ readonly id: number }>`
            insert into alert_emails (workspace_id, alert_id, account_id, to_address, subject, text, html,
              message_id, status, created_at)
            select ${subscription.workspace_id}, ${alert[0]!.id}, r.account_id, r.email, r.subject, r.text, r.html,
              '<alert.' || gen_random_uuid()::text || ${`@${host}>`}, 'queued', ${now}
            from unnest(${recipients.map((r) => r.account_id)}::integer[], ${recipients.map((r) => r.email)}::text[],
              ${written.map((m) => m.subject)}::text[], ${written.map((m) => m.text)}::text[],
              ${written.map((m) => m.html)}::text[]) as r(account_id, email, subject, text, html)
            returning id`
          for (const email of emails) {
            yield* deliveries.queueMail(subscription.workspace_id, { alertEmailId: email.id }, now)
          }
        }
      })

      const list = Effect.fn("WebhookAlerts.list")(function* (
        actor: Actors.Actor,
        options: { readonly limit?: number | undefined; readonly cursor?: string | undefined } = {}
      ) {
        const before = yield* cursorBefore(options.cursor)
        const limit = options.limit ?? 50
        const rows = yield* sql<AlertRow>`
          select w.id, w.kind, w.subscription_id, w.form_id, f.title as form_title, w.target, w.failures, w.reason,
            w.created_at
          from webhook_alerts w left join forms f on f.id = w.form_id
          where w.workspace_id = ${actor.workspaceId} ${before === undefined ? sql`` : sql`and w.id < ${before}`}
          order by w.id desc
          limit ${limit + 1}`
        const { shown, nextCursor } = newestFirstPage(rows, limit)
        return { alerts: shown.map(toAlert), nextCursor }
      })

      return WebhookAlerts.of({ raise, list })
    })
  ).pipe(Layer.provide([Deliveries.layer]))
}
