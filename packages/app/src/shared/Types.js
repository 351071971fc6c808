// @ts-check
// The JSON the application reads and writes, typed from the domain Schemas: their encoded side, which is
// what travels as JSON. Only types, for the type-checker (packages/app/tsconfig.json): nothing here runs.
// Use them in JSDoc, e.g. `/** @typedef {import("./Types.js").FormSummary} FormSummary */`.

/** @typedef {(typeof import("../../../core/src/forms/Forms.ts").FormSummary)["Encoded"]} FormSummary a form in the list (`GET /api/forms`) */
/** @typedef {(typeof import("../../../core/src/forms/Forms.ts").FormWithFields)["Encoded"]} FormWithFields a form with its questions (`GET /api/forms/{id}`) */
/** @typedef {(typeof import("../../../core/src/forms/Fields.ts").Field)["Encoded"]} Field a question as the API returns it */
/** @typedef {(typeof import("../../../core/src/forms/Fields.ts").FieldInput)["Encoded"]} FieldInput a question as the API takes it */
/** @typedef {(typeof import("../../../core/src/forms/Stages.ts").Stage)["Encoded"]} Stage a stage of the case board */
/** @typedef {(typeof import("../../../core/src/cases/ResponseModels.ts").ResponseRow)["Encoded"]} ResponseRow a response in a list */
/** @typedef {(typeof import("../../../core/src/cases/ResponseModels.ts").WorkspaceResponseRow)["Encoded"]} WorkspaceResponseRow a response in the workspace's inbox across forms, with its form and stage names */
/** @typedef {(typeof import("../../../core/src/cases/ResponseModels.ts").WorkspaceResponseList)["Encoded"]} WorkspaceResponseList a page of the workspace's inbox (`GET /api/responses`) */
/** @typedef {(typeof import("../../../core/src/cases/SavedViews.ts").SavedView)["Encoded"]} SavedView a saved view of the workspace's inbox (`GET /api/views`) */
/** @typedef {(typeof import("../../../core/src/cases/ResponseModels.ts").BulkUpdateResult)["Encoded"]} BulkUpdateResult what a bulk change changed (`PATCH /api/responses`) */
/** @typedef {(typeof import("../../../core/src/cases/ResponseModels.ts").ResponseDetail)["Encoded"]} ResponseDetail a response with its case (`GET /api/responses/{id}`) */
/** @typedef {(typeof import("../../../core/src/api/Api.ts").ResponseList)["Encoded"]} ResponseList a page of responses with the form's questions, stages and members */
/** @typedef {(typeof import("../../../core/src/insights/FormSummaries.ts").FormSummaryReport)["Encoded"]} FormSummaryReport a form's summary: totals, funnel, each question (`GET /api/forms/{id}/summary`) */
/** @typedef {(typeof import("../../../core/src/insights/AnswerTallies.ts").QuestionSummary)["Encoded"]} QuestionSummary what one question's answers say, by `kind` */
/** @typedef {(typeof import("../../../core/src/insights/CaseMetrics.ts").CaseMetricsReport)["Encoded"]} CaseMetricsReport how the cases are doing: open and closed, by stage and assignee, per period, first response, time in stage (`GET /api/forms/{id}/metrics`, `GET /api/metrics`) */
/** @typedef {(typeof import("../../../core/src/insights/Digests.ts").DigestSettings)["Encoded"]} DigestSettings the member's own digest e-mail of a form (`GET|PUT /api/forms/{id}/digest`) */
/** @typedef {(typeof import("../../../core/src/cases/Notes.ts").Note)["Encoded"]} Note an internal note */
/** @typedef {(typeof import("../../../core/src/audit/AuditLog.ts").AuditEntry)["Encoded"]} AuditEntry an entry of the workspace's audit log */
/** @typedef {(typeof import("../../../core/src/audit/AuditLog.ts").AuditLogPage)["Encoded"]} AuditLogPage a page of the audit log (`GET /api/audit-log`) */
/** @typedef {(typeof import("../../../core/src/privacy/Erasure.ts").ErasureResult)["Encoded"]} ErasureResult what erasing a person removed, per kind (`POST /api/privacy/erasures`) */
/** @typedef {(typeof import("../../../core/src/cases/Activities.ts").Activity)["Encoded"]} Activity an entry of a case's history */
/** @typedef {(typeof import("../../../core/src/identity/Members.ts").Member)["Encoded"]} Member a member of the workspace */
/** @typedef {(typeof import("../../../core/src/cases/AssignmentRules.ts").AssignmentRule)["Encoded"]} AssignmentRule a rule that gives a new case its assignee (`GET|PUT /api/forms/{id}/assignment-rules`) */
/** @typedef {(typeof import("../../../core/src/cases/CaseFields.ts").CaseField)["Encoded"]} CaseField one of a form's case fields, the team's own (`GET|PUT /api/forms/{id}/case-fields`) */
/** @typedef {(typeof import("../../../core/src/identity/Invitations.ts").Invitation)["Encoded"]} Invitation a pending invitation */
/** @typedef {(typeof import("../../../core/src/identity/Invitations.ts").CreatedInvitation)["Encoded"]} CreatedInvitation an invitation just made (with its link when no e-mail was sent) */
/** @typedef {(typeof import("../../../core/src/identity/Invitations.ts").IssuedSignInLink)["Encoded"]} IssuedSignInLink a one-time sign-in link issued for a member */
/** @typedef {(typeof import("../../../core/src/identity/ApiKeys.ts").ApiKey)["Encoded"]} ApiKey an API key (never its secret) */
/** @typedef {(typeof import("../../../core/src/deliveries/Webhooks.ts").Subscription)["Encoded"]} Subscription a webhook */
/** @typedef {(typeof import("../../../core/src/deliveries/Webhooks.ts").CreatedSubscription)["Encoded"]} CreatedSubscription a webhook just made, with its secret shown once */
/** @typedef {(typeof import("../../../core/src/deliveries/Webhooks.ts").AnySubscription)["Encoded"]} AnySubscription a form's webhook, or a workspace-wide one (every form) */
/** @typedef {(typeof import("../../../core/src/deliveries/Deliveries.ts").Delivery)["Encoded"]} Delivery a delivery with its attempts */
/** @typedef {(typeof import("../../../core/src/deliveries/Deliveries.ts").DeliveryLog)["Encoded"]} DeliveryLog a page of a delivery log */
/** @typedef {(typeof import("../../../core/src/deliveries/Deliveries.ts").DeadLetterList)["Encoded"]} DeadLetterList a page of the workspace's webhook deliveries that gave up (`GET /api/webhooks/dead-letters`) */
/** @typedef {(typeof import("../../../core/src/deliveries/Deliveries.ts").ReplayResult)["Encoded"]} ReplayResult what a bulk replay did (`POST /api/webhooks/dead-letters/replay`) */
/** @typedef {(typeof import("../../../core/src/deliveries/WebhookAlerts.ts").WebhookAlertList)["Encoded"]} WebhookAlertList a page of the workspace's webhook failure alerts (`GET /api/webhooks/alerts`) */
/** @typedef {(typeof import("../../../core/src/deliveries/FormNotifications.ts").NotificationSettings)["Encoded"]} NotificationSettings a form's notification channels */
/** @typedef {(typeof import("../../../core/src/deliveries/FormNotifications.ts").NotificationChannel)["Encoded"]} NotificationChannel one notification channel */
/** @typedef {(typeof import("../../../core/src/email/RespondentEmails.ts").ConfirmationSettings)["Encoded"]} ConfirmationSettings a form's confirmation e-mail */
/** @typedef {(typeof import("../../../core/src/email/RespondentEmails.ts").EmailSettings)["Encoded"]} EmailSettings the workspace's e-mail tracking settings */
/** @typedef {(typeof import("../../../core/src/email/RespondentEmails.ts").ResponseEmail)["Encoded"]} ResponseEmail an e-mail sent to a respondent */
/** @typedef {(typeof import("../../../core/src/forms/WorkspaceSettings.ts").WorkspaceSettings)["Encoded"]} WorkspaceSettings the workspace's settings (`GET /api/workspace/settings`) */
/** @typedef {(typeof import("../../../core/src/files/Images.ts").Image)["Encoded"]} Image an image of the workspace's library (`GET /api/images`) */
/** @typedef {(typeof import("../../../core/src/forms/Translations.ts").TranslationList)["Encoded"]} TranslationList a form's language and its translations' progress (`GET /api/forms/{id}/translations`) */
/** @typedef {(typeof import("../../../core/src/forms/Translations.ts").TranslationDetail)["Encoded"]} TranslationDetail one translation with every text of the form (`GET /api/forms/{id}/translations/{language}`) */
/** @typedef {(typeof import("../../../core/src/app/ShellData.ts").ShellData)["Encoded"]} ShellData what the page tells its scripts about the server (`#qforms-shell`) */
/** @typedef {(typeof import("../../../core/src/app/ShellData.ts").FieldTypeInfo)["Encoded"]} FieldTypeInfo a question type as the builder offers it */
/** @typedef {(typeof import("../../../core/src/forms/LogicRules.ts").LogicRule)["Encoded"]} LogicRule a jump rule of a question */
/** @typedef {(typeof import("../../../core/src/forms/LogicRules.ts").HiddenField)["Encoded"]} HiddenField a hidden field of a form */
/** @typedef {(typeof import("../../../core/src/events/EventCatalogue.ts").EventBody)["Encoded"] & { readonly link: string }} LiveEvent an event of the live stream (`/api/events`): an event of the catalogue and its link */

/** @typedef {import("../../../core/src/app/AppLanguage.ts").AppKey} AppKey the name of one of the application's messages (`app/catalogues/en/*.ts`) */
/** @typedef {(typeof import("../../../core/src/app/AppLanguage.ts").AppWords)["Encoded"]} AppWords the application's words in the account's language (`#qforms-words`) */

/** The signed-in member and workspace (`GET /app/session`). @typedef {(typeof import("../../../core/src/app/ShellData.ts").SessionInfo)["Encoded"]} SessionInfo */

export {}
