/**
 * A form's settings: how its public page behaves beyond its questions. Kept
 * as one JSON object on the form (`forms.settings`, migration 0021), so that
 * a new setting is a new key here rather than a new column; an unknown key is
 * refused, naming the allowed ones.
 *
 * - `skipPrefilled`: questions pre-filled from the page's link
 *   (`?prefill.<questionId>=…`, see `pages/Prefill.ts`) are not asked again;
 *   by default they are shown with the value filled in.
 * - `closesAt`, `maxResponses`: the form takes no response from that moment
 *   on, or once it has that many (`cases/ResponseLimits.ts`); `closedMessage`
 *   is what its page then says.
 * - `oneResponsePerEmail`: a second response from the same e-mail address is
 *   refused (`cases/ResponseLimits.ts`).
 * - `oneResponsePerDevice`: the page leaves a signed cookie on the device a
 *   response was sent from and refuses a second one (`pages/DeviceMarks.ts`).
 * - `accessCode`: the form takes responses only from those who type it
 *   (`pages/AccessCodes.ts`).
 * - `theme`: colours, font, corner radius, light or dark of its page
 *   (`forms/Theme.ts`).
 * - `variables`: numbers and texts that the questions' `calculate` rules
 *   change (and `score`, which choices with points add to), stored on each
 *   response (`forms/LogicRules.ts`, `forms/FormLogic.ts`).
 * - `language`: the language the form is written in (`forms/Translations.ts`
 *   holds it in others).
 * - `endings`: the screens shown once a response is sent, chosen by logic
 *   or by a condition such as a score (`forms/Endings.ts`).
 * - `retention`: how long its responses are kept: older ones are deleted or
 *   anonymised by a daily run (`privacy/Retention.ts`); null or absent keeps
 *   them forever.
 * - `sla`: targets for its cases in business minutes (the workspace's
 *   `businessHours`): a first response, a resolution, and a warning before
 *   either is due (`forms/Sla.ts`); null or absent sets none.
 * - `editableForHours`: for that many hours after submitting, the respondent
 *   may change their answers from their status page (`/s/{token}/edit`,
 *   `cases/StatusEdits.ts`); null or absent: they may not.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { strictStruct } from "../kernel/index.ts"
import { LanguageTag } from "../languages/index.ts"
import { Endings } from "./Endings.ts"
import { Variables } from "./LogicRules.ts"
import { Theme } from "./Theme.ts"
import { Pages } from "./Pages.ts"

/** A moment with its offset, as ISO 8601 writes it: `2026-12-01T17:00:00Z`, `2026-12-01T18:00+01:00`. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/

const Instant = Schema.String.check(
  Schema.makeFilter(
    (s: string) =>
      INSTANT.test(s) && Number.isFinite(Date.parse(s))
        ? undefined
        : "closesAt must be a date and time with its offset, such as 2026-12-01T17:00:00Z",
    { expected: "an ISO 8601 date and time with an offset" }
  )
)

/** The longest retention a form may set: 3650 days (ten years). */
export const MAX_RETENTION_DAYS = 3650

/**
 * How long a form's responses are kept (`privacy/Retention.ts` applies it once a day):
 * `days` after a response was submitted (a partial one: after its last change), it is deleted
 * (`action: "delete"`) or anonymised (`"anonymise"`: its answers, files, e-mails, name, e-mail address
 * and contact link removed, the case itself kept with its stage, tags, assignee and times, so that
 * metrics still count it).
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(RetentionSetting)({ days: 365, action: "anonymise" })
 * ```
 */
export const RetentionSetting = strictStruct(
  {
    days: Schema.Finite.check(
      Schema.isInt({ message: `retention.days must be a whole number from 1 to ${MAX_RETENTION_DAYS}` }),
      Schema.isBetween(
        { minimum: 1, maximum: MAX_RETENTION_DAYS },
        { message: `retention.days must be a whole number from 1 to ${MAX_RETENTION_DAYS}` }
      )
    ).annotate({
      description: `How many days a response is kept: after its submission (a partial one: after its last change), 1 to ${MAX_RETENTION_DAYS}.`
    }),
    action: Schema.Literals(["delete", "anonymise"]).annotate({
      description:
        '"delete": the response goes, as if deleted by hand (`response.deleted` is sent). "anonymise": its ' +
        "answers, files, e-mails, name, e-mail address and contact link are removed; the case stays (stage, " +
        "tags, assignee, times) so that metrics still count it. A partial response is deleted either way."
    })
  },
  "retention key"
).annotate({
  identifier: "RetentionSetting",
  description: 'How long the form\'s responses are kept, e.g. `{"days": 365, "action": "anonymise"}`.'
})
export type RetentionSetting = typeof RetentionSetting.Type

/** The longest SLA target: 100,000 business minutes (about 208 working days of 8 hours). */
export const MAX_SLA_MINUTES = 100_000

const slaMinutes = (key: string, minimum: number) =>
  Schema.optionalKey(
    Schema.Finite.check(
      Schema.isInt({ message: `sla.${key} must be a whole number of minutes from ${minimum} to ${MAX_SLA_MINUTES}` }),
      Schema.isBetween(
        { minimum, maximum: MAX_SLA_MINUTES },
        { message: `sla.${key} must be a whole number of minutes from ${minimum} to ${MAX_SLA_MINUTES}` }
      )
    )
  )

/**
 * A form's SLA targets, in business minutes (the workspace's business hours; 24/7 without them), counted
 * from each response's submission (`forms/Sla.ts`).
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(SlaSetting)({ firstResponseMinutes: 240, resolveMinutes: 2400, warnBeforeMinutes: 60 })
 * ```
 */
export const SlaSetting = strictStruct(
  {
    firstResponseMinutes: slaMinutes("firstResponseMinutes", 1).annotate({
      description:
        "Business minutes until a member first answers the case: an e-mail to the respondent, or a stage change."
    }),
    resolveMinutes: slaMinutes("resolveMinutes", 1).annotate({
      description: "Business minutes until the case is in a closed stage (`isClosed`)."
    }),
    warnBeforeMinutes: slaMinutes("warnBeforeMinutes", 0).annotate({
      description:
        "Business minutes before a target is due when `response.sla_warning` is sent (none when absent, or when " +
        "not shorter than the target)."
    })
  },
  "sla key"
).annotate({
  identifier: "SlaSetting",
  description: 'SLA targets in business minutes, e.g. `{"firstResponseMinutes": 240, "resolveMinutes": 2400}`.'
})
export type SlaSetting = typeof SlaSetting.Type

/** The longest time after a submission in which a respondent may change their answers: 720 hours (30 days). */
export const MAX_EDITABLE_HOURS = 720

/** The most responses a limit may name: ten million. */
export const MAX_RESPONSES_LIMIT = 10_000_000

const fields = {
  skipPrefilled: Schema.optionalKey(Schema.Boolean).annotate({
    description:
      "Skip the questions pre-filled from the page's link (`?prefill.<questionId>=…`) with a valid answer; " +
      "by default they are shown, filled in."
  }),
  closesAt: Schema.optionalKey(Instant).annotate({
    description: "The form takes no response from this moment on (ISO 8601 with an offset, e.g. 2026-12-01T17:00:00Z)."
  }),
  maxResponses: Schema.optionalKey(
    Schema.Finite.check(
      Schema.isInt({ message: `maxResponses must be a whole number from 1 to ${MAX_RESPONSES_LIMIT}` }),
      Schema.isBetween(
        { minimum: 1, maximum: MAX_RESPONSES_LIMIT },
        { message: `maxResponses must be a whole number from 1 to ${MAX_RESPONSES_LIMIT}` }
      )
    )
  ).annotate({ description: "The form takes no response once it has this many (checked when each one is stored)." }),
  oneResponsePerEmail: Schema.optionalKey(Schema.Boolean).annotate({
    description:
      "Take one response per e-mail address (the respondent's, from the first answered email or contact question): " +
      "a second one is refused with 400 on that question. Responses without an e-mail address are not limited."
  }),
  oneResponsePerDevice: Schema.optionalKey(Schema.Boolean).annotate({
    description:
      "Take one response per device: the public page leaves a signed cookie (400 days) on the device a response " +
      "was sent from, and a second one from it gets 409. A private window or another browser goes around it."
  }),
  accessCode: Schema.optionalKey(
    Schema.Trim.check(
      Schema.isMinLength(4, { message: "accessCode must be 4 to 64 characters" }),
      Schema.isMaxLength(64, { message: "accessCode must be 4 to 64 characters" }),
      Schema.isPattern(/^[^\p{Cc}\p{Cf}]*$/u, { message: "accessCode must not contain control characters" })
    )
  ).annotate({
    description:
      "The form takes responses only from those who type this code (4 to 64 characters, compared without case): " +
      "the page asks for it first, and a JSON submission sends it as `accessCode`. Wrong codes are limited per " +
      "address and per form (429)."
  }),
  theme: Schema.optionalKey(Theme),
  variables: Schema.optionalKey(Variables).annotate({
    description:
      'Numbers and texts changed by the questions\' `calculate` rules, read by conditions as "var:<name>", ' +
      "recalled as {{var:<name>}} and stored on each response as `var:<name>` (`score`, which choices with " +
      "`points` add to, needs no declaration)."
  }),
  endings: Schema.optionalKey(Endings).annotate({
    description:
      'The screens shown once a response is sent: the one a logic rule jumps to ("ending:<key>"), else the ' +
      "first whose `when` holds, else the first without `when`. Each with recall, an optional button and redirect."
  }),
  pages: Schema.optionalKey(Pages).annotate({
    description:
      'Pages of several questions shown on one screen: a question names its page with `page: "<key>"` (the ' +
      'questions of a page follow one another), logic jumps to one with "page:<key>". A question without a page ' +
      "is asked on its own (the default)."
  }),
  language: Schema.optionalKey(LanguageTag).annotate({
    description:
      "The language the form is written in (BCP 47, default en): the page's own words are in it, and its " +
      "translations (`translations`) are into other languages."
  }),
  closedMessage: Schema.optionalKey(
    Schema.Trim.check(
      Schema.isNonEmpty({ message: "closedMessage must not be empty" }),
      Schema.isMaxLength(1000, { message: "closedMessage must be at most 1000 characters" })
    )
  ).annotate({ description: "What the page says once the form is closed or full, instead of the default." }),
  retention: Schema.optionalKey(Schema.NullOr(RetentionSetting)).annotate({
    description:
      "How long responses are kept: `{days, action}` deletes (`delete`) or anonymises (`anonymise`) those older " +
      "than `days` once a day; null (the default) keeps them forever."
  }),
  sla: Schema.optionalKey(Schema.NullOr(SlaSetting)).annotate({
    description:
      "SLA targets of the form's cases in business minutes (the workspace's `businessHours`, else 24/7): " +
      "`firstResponseMinutes`, `resolveMinutes`, `warnBeforeMinutes`. Due times are set when a response is " +
      "submitted: a change applies to new responses only. null (the default) sets none."
  }),
  editableForHours: Schema.optionalKey(
    Schema.NullOr(
      Schema.Finite.check(
        Schema.isInt({ message: `editableForHours must be a whole number of hours from 1 to ${MAX_EDITABLE_HOURS}` }),
        Schema.isBetween(
          { minimum: 1, maximum: MAX_EDITABLE_HOURS },
          { message: `editableForHours must be a whole number of hours from 1 to ${MAX_EDITABLE_HOURS}` }
        )
      )
    )
  ).annotate({
    description:
      `For this many hours after submitting (1 to ${MAX_EDITABLE_HOURS}), the respondent may change their answers ` +
      "from their status page (`/s/{token}/edit`): checked as a submission is, recorded as an `answers_changed` " +
      "activity by the respondent and sent as `response.updated`. Answers to file, signature and consent " +
      "questions are kept as submitted. null (the default): answers cannot be changed after submitting."
  })
}

/**
 * A form's settings (an extension of the spec's form): every key optional,
 * unknown keys refused. `PATCH /forms/{id}` with `settings` replaces them all.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(FormSettings)({ skipPrefilled: true }) // { skipPrefilled: true }
 * ```
 */
export const FormSettings = strictStruct(fields, "setting").annotate({
  identifier: "FormSettings",
  description: "Extension: how the form's public page behaves (pre-fill, closing, limits), every key optional."
})

/** Decoded {@link FormSettings}. @example `const s: FormSettings = { skipPrefilled: true }` */
export type FormSettings = typeof FormSettings.Type
