/**
 * The event catalogue: every event qforms writes to its outbox, with its body
 * as a Schema, a description and an example. Webhooks, notification channels,
 * the live stream and MCP all read events of these shapes; the OpenAPI
 * document publishes them in its `webhooks` section and
 * `GET /api/events/catalogue` lists them.
 *
 * `response.created` and `response.stage_changed` are the contract's events,
 * with its body (spec: WebhookEvent). The others are extensions; an event
 * about a response carries the same fields as the contract's body, so a
 * receiver reads every response event the same way.
 *
 * A body is stored without `link`, which depends on where qforms is reached
 * and is added when it is sent.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { formLink, formsLink, jsonSchemaOf, responseLink } from "../kernel/index.ts"

/** The form an event is about. */
export const EventForm = Schema.Struct({ id: Schema.Int, title: Schema.String }).annotate({
  identifier: "EventForm"
})

/** A stage as events name it. */
export const EventStage = Schema.Struct({ id: Schema.Int, name: Schema.String }).annotate({
  identifier: "EventStage"
})

/** A member as events name it (an assignee). */
export const EventMember = Schema.Struct({
  id: Schema.Int,
  name: Schema.NullOr(Schema.String),
  email: Schema.String
}).annotate({ identifier: "EventMember" })
export type EventMember = typeof EventMember.Type

/** A workspace member as events name them. */
export const toEventMember = (member: {
  readonly accountId: number
  readonly name: string | null
  readonly email: string
}): EventMember => ({ id: member.accountId, name: member.name, email: member.email })

/** The fields of the contract's WebhookEvent (less `event` and `link`): a response as it is now. */
const responseFields = {
  form: EventForm,
  responseId: Schema.Int,
  submittedAt: Schema.NullOr(Schema.String),
  stage: Schema.NullOr(EventStage),
  respondent: Schema.Struct({ name: Schema.NullOr(Schema.String), email: Schema.NullOr(Schema.String) }),
  answers: Schema.Record(Schema.String, Schema.String).annotate({
    description: "The answers keyed by question label, as text (as in a `flat=1` list)."
  }),
  summary: Schema.String,
  /**
   * Extension (sensitive questions): the `answers` keys whose answers were left out of this post (their text
   * and their summary block read "(sensitive, not included)"); absent when none was.
   */
  redacted: Schema.optionalKey(Schema.Array(Schema.String)).annotate({
    description:
      "Extension: the `answers` keys of sensitive questions whose answers were left out (they read " +
      '"(sensitive, not included)", in `summary` too); absent when nothing was left out.'
  }),
  /** Extension: the language the response was given in (BCP 47), when known. */
  language: Schema.optionalKey(Schema.String),
  /** Extension (case fields): the team's own fields of the case, by key; absent when none is set. */
  caseFields: Schema.optionalKey(Schema.Record(Schema.String, Schema.Union([Schema.String, Schema.Number]))).annotate({
    description:
      "Extension (case fields): the team's own fields of the case by key (`GET /forms/{formId}/case-fields`): " +
      "text, a `YYYY-MM-DD` date or a select's option as text, a number, a member's account id; absent when none is set."
  })
}

/** The events of the contract (spec: EventName). */
export const SpecEventName = Schema.Literals(["response.created", "response.stage_changed"])
export type SpecEventName = typeof SpecEventName.Type

/** The body of the contract's two events as stored (spec: WebhookEvent, less `link`). */
export const SpecEventBody = Schema.Struct({ event: SpecEventName, ...responseFields }).annotate({
  identifier: "SpecEventBody"
})
export type SpecEventBody = typeof SpecEventBody.Type

/** `response.assigned`: the assignee changed. */
export const ResponseAssignedBody = Schema.Struct({
  event: Schema.Literal("response.assigned"),
  ...responseFields,
  assignee: Schema.NullOr(EventMember).annotate({ description: "The new assignee; null when unassigned." }),
  previousAssignee: Schema.NullOr(EventMember)
}).annotate({ identifier: "ResponseAssignedBody" })

/** `response.tagged`: tags were added or removed. */
export const ResponseTaggedBody = Schema.Struct({
  event: Schema.Literal("response.tagged"),
  ...responseFields,
  tags: Schema.Array(Schema.String).annotate({ description: "The tags now." }),
  added: Schema.Array(Schema.String),
  removed: Schema.Array(Schema.String)
}).annotate({ identifier: "ResponseTaggedBody" })

/** One answer a member changed, as `response.updated` names it: the question, its answer before and after. */
export const EventAnswerChange = Schema.Struct({
  questionId: Schema.Int.annotate({ description: "The question's id (`fields[].id`)." }),
  question: Schema.String.annotate({ description: "The question's label." }),
  from: Schema.NullOr(Schema.String).annotate({ description: "The answer before, as text; null when unanswered." }),
  to: Schema.NullOr(Schema.String).annotate({ description: "The answer now, as text; null when cleared." })
}).annotate({ identifier: "EventAnswerChange" })

/** One case field a member changed, as `response.updated` names it (extension): its key, label, value before and after. */
export const EventCaseFieldChange = Schema.Struct({
  caseField: Schema.String.annotate({ description: "The case field's key." }),
  label: Schema.String.annotate({ description: "The case field's label." }),
  from: Schema.NullOr(Schema.Union([Schema.String, Schema.Number])).annotate({
    description: "The value before; null when not set."
  }),
  to: Schema.NullOr(Schema.Union([Schema.String, Schema.Number])).annotate({
    description: "The value now; null when cleared."
  })
}).annotate({ identifier: "EventCaseFieldChange" })

/** `response.updated`: a member changed answers (or case fields) of a submitted response. */
export const ResponseUpdatedBody = Schema.Struct({
  event: Schema.Literal("response.updated"),
  ...responseFields,
  changes: Schema.Array(Schema.Union([EventAnswerChange, EventCaseFieldChange])).annotate({
    description:
      "The questions whose answers changed (also those the form's logic now skips), in the form's order; then, " +
      "as an extension, the case fields that changed (`caseField`, `label`, `from`, `to`)."
  })
}).annotate({ identifier: "ResponseUpdatedBody" })

/**
 * `response.deleted`: a response was deleted. Only its id, its form and when:
 * what it said is gone, and is not sent on.
 */
export const ResponseDeletedBody = Schema.Struct({
  event: Schema.Literal("response.deleted"),
  form: EventForm,
  responseId: Schema.Int,
  deletedAt: Schema.String
}).annotate({ identifier: "ResponseDeletedBody" })

/** `response.merged`: a duplicate was merged into the response (`cases/ResponseMerges.ts`). */
export const ResponseMergedBody = Schema.Struct({
  event: Schema.Literal("response.merged"),
  ...responseFields,
  duplicateId: Schema.Int.annotate({
    description: "The response merged into this one: from now on a pointer to it (`mergedInto`), out of lists."
  }),
  answersTaken: Schema.Array(Schema.Int).annotate({
    description: "The ids of the questions whose answers the response took from the duplicate (it had none)."
  }),
  tagsTaken: Schema.Array(Schema.String).annotate({ description: "The duplicate's tags the response took." })
}).annotate({ identifier: "ResponseMergedBody" })

/** `response.unmerged`: a merge was undone; the duplicate is a response of its own again. */
export const ResponseUnmergedBody = Schema.Struct({
  event: Schema.Literal("response.unmerged"),
  ...responseFields,
  duplicateId: Schema.Int.annotate({ description: "The response split off again (back in lists)." })
}).annotate({ identifier: "ResponseUnmergedBody" })

/** `note.created`: a member wrote an internal note on a response. */
export const NoteCreatedBody = Schema.Struct({
  event: Schema.Literal("note.created"),
  form: EventForm,
  responseId: Schema.Int,
  note: Schema.Struct({
    id: Schema.Int,
    body: Schema.String,
    author: Schema.NullOr(EventMember).annotate({ description: "null when an API key without a member wrote it." }),
    createdAt: Schema.String
  })
}).annotate({ identifier: "NoteCreatedBody" })

/**
 * `response.partial`: a respondent gave the first answer of a response they have not submitted yet (the
 * public page keeps partial responses). Written only while a subscription of the form names it: opt-in.
 */
export const ResponsePartialBody = Schema.Struct({
  event: Schema.Literal("response.partial"),
  ...responseFields,
  submittedAt: Schema.Null.annotate({ description: "Always null: the response is not submitted yet." }),
  startedAt: Schema.String
}).annotate({ identifier: "ResponsePartialBody" })

/** The SLA target an SLA event is about, and when it is (or was) due. */
export const EventSla = Schema.Struct({
  target: Schema.Literals(["firstResponse", "resolve"]).annotate({
    description: "`firstResponse`: a member's first e-mail or stage change; `resolve`: a closed stage."
  }),
  dueAt: Schema.String.annotate({ description: "When the target is due (ISO 8601)." })
}).annotate({ identifier: "EventSla" })

/** `response.sla_warning`: a target of the form's SLA is due soon (`warnBeforeMinutes` business minutes). */
export const ResponseSlaWarningBody = Schema.Struct({
  event: Schema.Literal("response.sla_warning"),
  ...responseFields,
  sla: EventSla
}).annotate({ identifier: "ResponseSlaWarningBody" })

/** `response.sla_breached`: a target of the form's SLA was not met in time. */
export const ResponseSlaBreachedBody = Schema.Struct({
  event: Schema.Literal("response.sla_breached"),
  ...responseFields,
  sla: EventSla
}).annotate({ identifier: "ResponseSlaBreachedBody" })

/** An e-mail to a respondent as events name it. */
export const EventEmail = Schema.Struct({
  id: Schema.Int,
  kind: Schema.Literals(["confirmation", "message"]).annotate({
    description: "`confirmation`: the form's automatic confirmation; `message`: written by a member."
  }),
  to: Schema.String,
  subject: Schema.String
}).annotate({ identifier: "EventEmail" })
export type EventEmail = typeof EventEmail.Type

/** `email.sent`: an e-mail to a respondent left qforms (the mail server took it). */
export const EmailSentBody = Schema.Struct({
  event: Schema.Literal("email.sent"),
  form: EventForm,
  responseId: Schema.Int,
  email: EventEmail,
  sentAt: Schema.String
}).annotate({ identifier: "EmailSentBody" })

/** `email.opened`: a respondent opened an e-mail for the first time (its image loaded, or a link in it). */
export const EmailOpenedBody = Schema.Struct({
  event: Schema.Literal("email.opened"),
  form: EventForm,
  responseId: Schema.Int,
  email: EventEmail,
  openedAt: Schema.String
}).annotate({ identifier: "EmailOpenedBody" })

/** `email.replied`: a reply to an e-mail of a response arrived and was stored on the case. */
export const EmailRepliedBody = Schema.Struct({
  event: Schema.Literal("email.replied"),
  form: EventForm,
  responseId: Schema.Int,
  reply: Schema.Struct({
    id: Schema.Int,
    from: Schema.String,
    subject: Schema.String,
    text: Schema.String.annotate({
      description: "The reply without the quoted message, cut at 10,000 characters (the case keeps it whole)."
    }),
    attachments: Schema.Int.annotate({ description: "How many files came with it (stored on the case)." }),
    receivedAt: Schema.String
  }),
  reopened: Schema.Boolean.annotate({ description: "Whether the reply moved a closed case back to an open stage." })
}).annotate({ identifier: "EmailRepliedBody" })

/** The status names of a form as events give them. */
const FormEventForm = Schema.Struct({
  id: Schema.Int,
  title: Schema.String,
  publicId: Schema.String,
  status: Schema.String
}).annotate({ identifier: "EventFormState" })

/** `form.published`: a form started taking responses. */
export const FormPublishedBody = Schema.Struct({
  event: Schema.Literal("form.published"),
  form: FormEventForm,
  previousStatus: Schema.String
}).annotate({ identifier: "FormPublishedBody" })

/** `form.closed`: a form stopped taking responses. */
export const FormClosedBody = Schema.Struct({
  event: Schema.Literal("form.closed"),
  form: FormEventForm,
  previousStatus: Schema.String
}).annotate({ identifier: "FormClosedBody" })

/**
 * `form.deleted`: a form was deleted, with its responses. Only workspace-wide subscriptions hear it: a form's own
 * subscriptions are deleted with the form.
 */
export const FormDeletedBody = Schema.Struct({
  event: Schema.Literal("form.deleted"),
  form: FormEventForm.annotate({ description: "The form as it was; `status` is its status when it was deleted." }),
  responses: Schema.Int.annotate({ description: "How many responses (submitted or partial) were deleted with it." }),
  deletedAt: Schema.String
}).annotate({ identifier: "FormDeletedBody" })

/**
 * `ping`: a test a member sends to a subscription's URL (`POST /api/webhooks/subscribe/{id}/test`), never
 * written to the outbox and never subscribed to. Its `webhook-id` starts with `msg_test_`.
 */
export const PingBody = Schema.Struct({
  event: Schema.Literal("ping"),
  subscriptionId: Schema.String,
  form: Schema.NullOr(EventForm).annotate({ description: "The subscription's form; null for a workspace-wide one." }),
  events: Schema.Array(Schema.String).annotate({ description: "The events the subscription receives." }),
  sentAt: Schema.String
}).annotate({ identifier: "PingBody" })
export type PingBody = typeof PingBody.Type

/** `link`, added to every body when it is sent. */
const Link = Schema.String.annotate({
  description: "The response in the application (or, for a form or a deleted response, the form's responses)."
})

/** A body as posted: the stored body and its `link`. */
const posted = <Fields extends Schema.Struct.Fields>(body: Schema.Struct<Fields>, identifier: string) =>
  Schema.Struct({ ...body.fields, link: Link }).annotate({ identifier })

/** The contract's body of `response.created` and `response.stage_changed` as posted (spec: WebhookEvent). */
export const WebhookEvent = posted(SpecEventBody, "WebhookEvent")
/** `response.assigned` as posted. */
export const ResponseAssignedEvent = posted(ResponseAssignedBody, "ResponseAssignedEvent")
/** `response.tagged` as posted. */
export const ResponseTaggedEvent = posted(ResponseTaggedBody, "ResponseTaggedEvent")
/** `response.updated` as posted. */
export const ResponseUpdatedEvent = posted(ResponseUpdatedBody, "ResponseUpdatedEvent")
/** `response.deleted` as posted. */
export const ResponseDeletedEvent = posted(ResponseDeletedBody, "ResponseDeletedEvent")
/** `response.sla_warning` as posted. */
export const ResponseSlaWarningEvent = posted(ResponseSlaWarningBody, "ResponseSlaWarningEvent")
/** `response.sla_breached` as posted. */
export const ResponseSlaBreachedEvent = posted(ResponseSlaBreachedBody, "ResponseSlaBreachedEvent")
/** `response.merged` as posted. */
export const ResponseMergedEvent = posted(ResponseMergedBody, "ResponseMergedEvent")
/** `response.unmerged` as posted. */
export const ResponseUnmergedEvent = posted(ResponseUnmergedBody, "ResponseUnmergedEvent")
/** `note.created` as posted. */
export const NoteCreatedEvent = posted(NoteCreatedBody, "NoteCreatedEvent")
/** `response.partial` as posted. */
export const ResponsePartialEvent = posted(ResponsePartialBody, "ResponsePartialEvent")
/** `email.sent` as posted. */
export const EmailSentEvent = posted(EmailSentBody, "EmailSentEvent")
/** `email.opened` as posted. */
export const EmailOpenedEvent = posted(EmailOpenedBody, "EmailOpenedEvent")
/** `email.replied` as posted. */
export const EmailRepliedEvent = posted(EmailRepliedBody, "EmailRepliedEvent")
/** `form.published` as posted. */
export const FormPublishedEvent = posted(FormPublishedBody, "FormPublishedEvent")
/** `form.closed` as posted. */
export const FormClosedEvent = posted(FormClosedBody, "FormClosedEvent")
/** `form.deleted` as posted. */
export const FormDeletedEvent = posted(FormDeletedBody, "FormDeletedEvent")

/** Any event's body as stored in the outbox (without `link`). */
export const EventBody = Schema.Union([
  SpecEventBody,
  ResponseAssignedBody,
  ResponseTaggedBody,
  ResponseUpdatedBody,
  ResponseDeletedBody,
  ResponsePartialBody,
  ResponseSlaWarningBody,
  ResponseSlaBreachedBody,
  ResponseMergedBody,
  ResponseUnmergedBody,
  NoteCreatedBody,
  EmailSentBody,
  EmailOpenedBody,
  EmailRepliedBody,
  FormPublishedBody,
  FormClosedBody,
  FormDeletedBody
]).annotate({ identifier: "EventBody" })
export type EventBody = typeof EventBody.Type

/** Every event name of the catalogue. */
export const EventName = Schema.Literals([
  "response.created",
  "response.stage_changed",
  "response.assigned",
  "response.tagged",
  "response.updated",
  "response.deleted",
  "response.partial",
  "response.sla_warning",
  "response.sla_breached",
  "response.merged",
  "response.unmerged",
  "note.created",
  "email.sent",
  "email.opened",
  "email.replied",
  "form.published",
  "form.closed",
  "form.deleted"
]).annotate({ identifier: "EventName" })
export type EventName = typeof EventName.Type

/** The body of an event about a response with the response's fields (everything but `response.deleted`). */
export type ResponseEventBody = Extract<EventBody, { readonly respondent: unknown }>

/** Whether an event's body carries the whole response (the contract's body and the other response events). */
export const isResponseEvent = (body: EventBody): body is ResponseEventBody => "respondent" in body

/** The response an event is about, if any. */
export const responseIdOf = (body: EventBody): number | null => ("responseId" in body ? body.responseId : null)

/**
 * An event's `link`, added when it is sent: the response in the application, the form's responses for
 * an event about the form or about a deleted response, or the list of forms for a deleted form.
 */
export const eventLink = (appUrl: string, body: EventBody): string =>
  body.event === "form.deleted"
    ? formsLink(appUrl)
    : body.event === "response.deleted" || !("responseId" in body)
      ? formLink(appUrl, body.form.id)
      : responseLink(appUrl, body.responseId)

/** An event's body as it is posted and streamed: the stored body and its `link`. */
export const sentBody = (appUrl: string, body: EventBody): string =>
  JSON.stringify({ ...body, link: eventLink(appUrl, body) })

const exampleResponse = {
  form: { id: 12, title: "Contact us" },
  responseId: 3481,
  submittedAt: "2026-11-27T09:14:03.000Z",
  stage: { id: 41, name: "New" },
  respondent: { name: "Ada Lovelace", email: "ada@example.com" },
  answers: { Name: "Ada Lovelace", Email: "ada@example.com", Topic: "Billing", Message: "My invoice is wrong." },
  summary: "Name: Ada Lovelace\nEmail: ada@example.com\nTopic: Billing\nMessage: My invoice is wrong."
}
const mia: EventMember = { id: 7, name: "Mia Chen", email: "mia@example.com" }
const exampleEmail: EventEmail = { id: 880, kind: "message", to: "ada@example.com", subject: "Your invoice" }
const exampleForm = { id: 12, title: "Contact us", publicId: "p8Xq2LmV0aBcDeFgHiJk", status: "published" }

/** The names the catalogue lists: every event, and `ping`. */
export const CatalogueName = Schema.Literals([...EventName.literals, "ping"]).annotate({ identifier: "CatalogueName" })
export type CatalogueName = typeof CatalogueName.Type

/** One entry of the catalogue. */
export interface CatalogueEntry {
  readonly name: CatalogueName
  readonly description: string
  /** Whether the contract names it (the others are extensions). */
  readonly spec: boolean
  /** The body as posted (with `link`). */
  readonly schema: Schema.Top
  /** An example body as stored (without `link`; a ping has none). */
  readonly example: EventBody | PingBody
}

/**
 * Every event, in the order the catalogue lists them.
 *
 * @example
 * ```ts
 * catalogue.map((entry) => entry.name) // ["response.created", "response.stage_changed", …]
 * ```
 */
export const catalogue: ReadonlyArray<CatalogueEntry> = [
  {
    name: "response.created",
    description:
      "A response was submitted (the public page, the API or an import). Its body is the contract's WebhookEvent.",
    spec: true,
    schema: WebhookEvent,
    example: { event: "response.created", ...exampleResponse }
  },
  {
    name: "response.stage_changed",
    description:
      "A response moved to another stage (or to none). Its body is the contract's WebhookEvent, with the new stage.",
    spec: true,
    schema: WebhookEvent,
    example: { event: "response.stage_changed", ...exampleResponse, stage: { id: 42, name: "In progress" } }
  },
  {
    name: "response.assigned",
    description: "A response was assigned to a member, to another one, or unassigned.",
    spec: false,
    schema: ResponseAssignedEvent,
    example: { event: "response.assigned", ...exampleResponse, assignee: mia, previousAssignee: null }
  },
  {
    name: "response.tagged",
    description: "Tags were added to a response or removed from it.",
    spec: false,
    schema: ResponseTaggedEvent,
    example: { event: "response.tagged", ...exampleResponse, tags: ["vip", "invoice"], added: ["invoice"], removed: [] }
  },
  {
    name: "response.updated",
    description:
      "A member changed answers of a submitted response. The body is the response as it is now, and `changes`: " +
      "each changed question with its answer before and after.",
    spec: false,
    schema: ResponseUpdatedEvent,
    example: {
      event: "response.updated",
      ...exampleResponse,
      answers: { ...exampleResponse.answers, Topic: "Refund" },
      summary: "Name: Ada Lovelace\nEmail: ada@example.com\nTopic: Refund\nMessage: My invoice is wrong.",
      changes: [{ questionId: 3, question: "Topic", from: "Billing", to: "Refund" }]
    }
  },
  {
    name: "response.deleted",
    description: "A response was deleted. The body names it only: what it said is not sent on.",
    spec: false,
    schema: ResponseDeletedEvent,
    example: {
      event: "response.deleted",
      form: { id: 12, title: "Contact us" },
      responseId: 3481,
      deletedAt: "2026-11-27T10:02:51.000Z"
    }
  },
  {
    name: "response.partial",
    description:
      "A respondent gave the first answer of a response not submitted yet (the public page keeps partial " +
      "responses). Opt-in: written only while a subscription of the form names it. The answers are those so far.",
    spec: false,
    schema: ResponsePartialEvent,
    example: {
      event: "response.partial",
      ...exampleResponse,
      submittedAt: null,
      stage: null,
      answers: { Name: "Ada Lovelace" },
      summary: "Name: Ada Lovelace",
      startedAt: "2026-11-27T09:12:40.000Z"
    }
  },
  {
    name: "response.sla_warning",
    description:
      "A target of the form's SLA (`settings.sla`) is due soon: `warnBeforeMinutes` business minutes before the " +
      "first response or the resolution is due, and it has not happened yet. Sent once per case and target " +
      "(not at all when the breach came first). `sla` names the target and its due time.",
    spec: false,
    schema: ResponseSlaWarningEvent,
    example: {
      event: "response.sla_warning",
      ...exampleResponse,
      sla: { target: "firstResponse", dueAt: "2026-11-27T13:14:03.000Z" }
    }
  },
  {
    name: "response.sla_breached",
    description:
      "A target of the form's SLA was missed: the first response (a member's e-mail to the respondent or stage " +
      "change) or the resolution (a closed stage) had not happened when it was due. Sent once per case and target.",
    spec: false,
    schema: ResponseSlaBreachedEvent,
    example: {
      event: "response.sla_breached",
      ...exampleResponse,
      sla: { target: "resolve", dueAt: "2026-11-30T09:14:03.000Z" }
    }
  },
  {
    name: "response.merged",
    description:
      "A duplicate (same person, same request) was merged into the response: it took the duplicate's answers to " +
      "questions it had none for and its tags, notes, activities and e-mails; the duplicate is now a pointer " +
      "(`mergedInto`). Undoable for 24 hours (then `response.unmerged`).",
    spec: false,
    schema: ResponseMergedEvent,
    example: { event: "response.merged", ...exampleResponse, duplicateId: 3479, answersTaken: [7], tagsTaken: ["vip"] }
  },
  {
    name: "response.unmerged",
    description:
      "A merge was undone: what the duplicate brought left the response, and the duplicate is a response of its own again.",
    spec: false,
    schema: ResponseUnmergedEvent,
    example: { event: "response.unmerged", ...exampleResponse, duplicateId: 3479 }
  },
  {
    name: "note.created",
    description: "A member wrote an internal note on a response (never shown to the respondent).",
    spec: false,
    schema: NoteCreatedEvent,
    example: {
      event: "note.created",
      form: { id: 12, title: "Contact us" },
      responseId: 3481,
      note: { id: 90211, body: "Called back, refund on its way.", author: mia, createdAt: "2026-11-27T09:40:12.000Z" }
    }
  },
  {
    name: "email.sent",
    description: "An e-mail to a respondent (the form's confirmation, or one a member wrote) left qforms.",
    spec: false,
    schema: EmailSentEvent,
    example: {
      event: "email.sent",
      form: { id: 12, title: "Contact us" },
      responseId: 3481,
      email: exampleEmail,
      sentAt: "2026-11-27T09:41:02.000Z"
    }
  },
  {
    name: "email.opened",
    description:
      "A respondent opened an e-mail for the first time (its image loaded, or a link in it was followed); " +
      "only while tracking is on (workspace e-mail settings).",
    spec: false,
    schema: EmailOpenedEvent,
    example: {
      event: "email.opened",
      form: { id: 12, title: "Contact us" },
      responseId: 3481,
      email: exampleEmail,
      openedAt: "2026-11-27T10:15:47.000Z"
    }
  },
  {
    name: "email.replied",
    description: "A reply to an e-mail of a response arrived and was stored on the case.",
    spec: false,
    schema: EmailRepliedEvent,
    example: {
      event: "email.replied",
      form: { id: 12, title: "Contact us" },
      responseId: 3481,
      reply: {
        id: 512,
        from: "ada@example.com",
        subject: "Re: Your invoice",
        text: "Thank you, the refund arrived.",
        attachments: 0,
        receivedAt: "2026-11-28T08:03:19.000Z"
      },
      reopened: false
    }
  },
  {
    name: "form.published",
    description: "A form was published: its public page takes responses.",
    spec: false,
    schema: FormPublishedEvent,
    example: { event: "form.published", form: exampleForm, previousStatus: "draft" }
  },
  {
    name: "form.closed",
    description: "A form was closed: its public page takes no more responses.",
    spec: false,
    schema: FormClosedEvent,
    example: { event: "form.closed", form: { ...exampleForm, status: "closed" }, previousStatus: "published" }
  },
  {
    name: "form.deleted",
    description:
      "A form was deleted, with its responses. Only workspace-wide subscriptions " +
      "(POST /api/webhooks/workspace-subscriptions) hear it: a form's own subscriptions are deleted with the form.",
    spec: false,
    schema: FormDeletedEvent,
    example: { event: "form.deleted", form: exampleForm, responses: 214, deletedAt: "2026-11-27T11:30:00.000Z" }
  },
  {
    name: "ping",
    description:
      "A test a member sent (POST /api/webhooks/subscribe/{id}/test without a chosen event), to check that the " +
      "URL receives and verifies qforms' posts. Never subscribed to; its webhook-id starts with msg_test_.",
    spec: false,
    schema: PingBody,
    example: {
      event: "ping",
      subscriptionId: "sub_9Xk2LmQ0aBcDeFgH",
      form: { id: 12, title: "Contact us" },
      events: ["response.created"],
      sentAt: "2026-11-27T09:00:00.000Z"
    }
  }
]

/** The catalogue as `GET /api/events/catalogue` answers it. */
export const EventCatalogueDocument = Schema.Struct({
  events: Schema.Array(
    Schema.Struct({
      name: CatalogueName,
      description: Schema.String,
      spec: Schema.Boolean.annotate({
        description: "Whether the contract names the event (the others are extensions)."
      }),
      schema: Schema.Record(Schema.String, Schema.Unknown).annotate({
        description: "The JSON Schema of the body as posted (with `link`), definitions in `$defs`."
      }),
      example: Schema.Record(Schema.String, Schema.Unknown).annotate({ description: "An example body." })
    })
  )
}).annotate({ identifier: "EventCatalogue" })
export type EventCatalogueDocument = typeof EventCatalogueDocument.Type

/** Where the examples' links point. */
const exampleAppUrl = "https://forms.example.com"

/**
 * The catalogue with each body's JSON Schema and an example as posted.
 *
 * @example
 * ```ts
 * catalogueDocument().events.find((e) => e.name === "response.tagged")?.example.added // ["invoice"]
 * ```
 */
export const catalogueDocument = (): EventCatalogueDocument => ({
  events: catalogue.map((entry) => ({
    name: entry.name,
    description: entry.description,
    spec: entry.spec,
    schema: jsonSchemaOf(entry.schema, "ignore") as Record<string, unknown>,
    example:
      entry.example.event === "ping"
        ? entry.example
        : { ...entry.example, link: eventLink(exampleAppUrl, entry.example) }
  }))
})
