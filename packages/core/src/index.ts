/**
 * @qforms/core: forms, responses as cases, and everything around them (public
 * form pages, webhooks, the live event stream, MCP, the application), as
 * Effect services on PostgreSQL or embedded PGlite, with the HTTP API that
 * serves them.
 *
 * The public surface is what a host needs: {@link Qforms} (start it, mount
 * its handlers) and {@link Bootstrap} (the first start); the identity bridge
 * types; the option types and the building blocks they take (database,
 * files, form generator, mail, retry schedule, public page); and, for
 * `qforms.run` and Effect applications, the services with their Schemas and
 * errors. Everything else (HTTP handlers, pages, delivery, migrations,
 * storage drivers' details) is internal and may change in any release.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http"
 * import { Bootstrap, Qforms, type ResolveActor } from "@qforms/core"
 *
 * const resolveActor: ResolveActor = ({ source }) => {
 *   const user = (source as { user?: { qformsAccountId: number } }).user
 *   return user ? { workspaceId: 1, accountId: user.qformsAccountId } : null
 * }
 * const qforms = await Qforms.make({ database: { dataDir: "./.qforms-data" }, app: true, resolveActor })
 * const first = await qforms.run(Bootstrap.ensureDefaultWorkspace({ ownerEmail: "owner@localhost" }))
 * if (first._tag === "Some") console.log(`API key (shown once): ${first.value.key}`)
 * createServer(qforms.nodeHandler).listen(3000) // or an adapter: @qforms/node-http, @qforms/express, @qforms/h3
 * ```
 *
 * @module
 */

// The entry point, and what adapters mount.

/** `Qforms.make(options)` / `Qforms.layer(options)`: start qforms; `Qforms.Qforms` is what adapters mount. */
export * as Qforms from "./Qforms.ts"
/** The first start: `Bootstrap.ensureDefaultWorkspace` creates a workspace, its owner and an API key on an empty database. */
export * as Bootstrap from "./Bootstrap.ts"
/** The identity bridge (`Qforms.make({ resolveActor })`): map the host's signed-in user to a qforms member. */
export type { HostIdentity, HostRequest, ResolveActor } from "./web/Identity.ts"
/** Why `qforms.events.connect` refused an event-stream connection: the status, `{error}` text and headers to answer with. */
export type { Refusal as EventStreamRefusal } from "./http/EventStream.ts"

// Options of `Qforms.make` and the building blocks they take.

/** The database: `PgOptions` (PostgreSQL) or `PgliteOptions` (embedded), and their layers for Effect applications. */
export * as Database from "./storage/Database.ts"
/** The embedded database's SqlClient; `MemorySize` and `defaultSharedBuffers` for its `sharedBuffers` option. */
export * as PgliteClient from "./storage/PgliteClient.ts"
/** Backups of the embedded database with its files, taken while it runs, and their verified restore: `DatabaseBackup.backup`, `DatabaseBackup.restore`. */
export * as DatabaseBackup from "./ops/DatabaseBackup.ts"
/** Copying a deployment between embedded PGlite and PostgreSQL (rows, sequences, files), verified: `DatabaseCopy.copy`. */
export * as DatabaseCopy from "./ops/DatabaseCopy.ts"
/** Where uploaded files' bytes live (`files: { store }`): implement `BlobStore` for S3 and the like, or use `layerLocal`. */
export * as BlobStore from "./files/BlobStore.ts"
/** The form generator (`formGenerator`): `FormGenerator.FormGenerator.layerOffline` (default), `.layerNone`, or your own layer. */
export * as FormGenerator from "./generation/FormGenerator.ts"
/** Form generation by any OpenAI-compatible server: `OpenAiFormGenerator.layer({ baseUrl, model })`. */
export * as OpenAiFormGenerator from "./generation/OpenAiFormGenerator.ts"
/** E-mail (`mail`): `SmtpOptions`, and `smtpUrlProblem` to check an SMTP URL before starting. */
export * as Mailer from "./mail/Mailer.ts"
/** Webhook retry schedule (`delivery.schedule`): `RetrySchedule.parse("0s,5s,5m")`, `defaultSchedule`. */
export * as RetrySchedule from "./deliveries/RetrySchedule.ts"
/** The public form page (`publicPage`): `PublicPageOptions`, `FrameAncestor`, `defaultMinSubmitSeconds`. */
export * as PublicPage from "./pages/PublicPage.ts"
/** Where every rate limit keeps its buckets (`rateLimitStore`): memory, the database or Redis, for Effect applications. */
export * as RateLimitStore from "./storage/RateLimitStore.ts"
/** Checked option values: log-level names (`parseLogLevel`) and the number Schemas every numeric option and setting is checked with. */
export * as Options from "./Options.ts"
/** `Redact.redactUrl`: a request URL with its tokens and credentials replaced, for access logs. */
export * as Redact from "./web/Redact.ts"
/** Webhook delivery settings (`delivery`). */
export type { DeliverySettings } from "./deliveries/DeliveryConfig.ts"
/** A rate limit (`rateLimit`, `uploadRateLimit`): requests per second and burst. */
export type { RateLimitConfig } from "./web/RateLimit.ts"
/** OAuth sign-in for assistants on `/mcp` (`oauth`). */
export type { OAuthOptions } from "./mcp/Mcp.ts"
/** The application at `/app` (`app`). */
export type { AppOptions } from "./app/App.ts"
/** An IMAP mailbox for replies (`mail.imap`). */
export type { ImapOptions } from "./email/EmailReplies.ts"

// Services for `qforms.run` and Effect applications, with their Schemas and errors.

/** Every service wired together on the database you choose: `Services.layerPg`, `layerPglite`; `Services.Services` is what `qforms.run` provides. */
export * as Services from "./Services.ts"
/** Who acts (`Actors.system(workspaceId)`, a member, a respondent): every service call takes one. */
export * as Actors from "./kernel/Actors.ts"
/** Workspaces, the tenant. */
export * as Workspaces from "./identity/Workspaces.ts"
/** Accounts: people who sign in. */
export * as Accounts from "./identity/Accounts.ts"
/** Members: the accounts of a workspace with their roles. */
export * as Members from "./identity/Members.ts"
/** API keys: create, revoke, check the format. */
export * as ApiKeys from "./identity/ApiKeys.ts"
/** The workspace audit log: `AuditLog.record(sql, actor, entry)` inside a change's transaction, its Schemas, `AuditOrigin`. */
export * as AuditLog from "./audit/AuditLog.ts"
/** Password hashing of application accounts. */
export * as Passwords from "./identity/Passwords.ts"
/** Sessions of the application (`/app`) and one-time sign-in links. */
export * as Sessions from "./identity/Sessions.ts"
/** Forms and their Schemas (`CreateFormInput`, `Form`, …). */
export * as Forms from "./forms/Forms.ts"
/** Questions: types, options and the input Schema. */
export * as Fields from "./forms/Fields.ts"
/** Answers to questions: their Schemas and validation against a form's questions. */
export * as Answers from "./forms/Answers.ts"
/** A form in other languages: the `Translation` Schema, what a translation lacks, a form in a language. */
export * as Translations from "./forms/Translations.ts"
/** Language tags, their direction and the choice of a language (`?lang=`, `Accept-Language`). */
export * as Languages from "./languages/Languages.ts"
/** The page's own words in 13 languages (ICU MessageFormat); a host's messages over them (`Qforms.make({ messages })`). */
export * as Messages from "./languages/Messages.ts"
/** Responses (cases): submit, list, triage; their Schemas. */
export * as Responses from "./cases/Responses.ts"
/** Stages a form's cases move through. */
export * as Stages from "./forms/Stages.ts"
/** Internal notes on a case. */
export * as Notes from "./cases/Notes.ts"
/** Webhook subscriptions. */
export * as Webhooks from "./deliveries/Webhooks.ts"
/** The errors every service shares (`InvalidInput`, `Forbidden`, `Conflict`, …); each concept's "not found" is in its module. */
export * as Errors from "./kernel/Errors.ts"
/** Ids: the integer id Schema and its bounds. */
export * as Ids from "./kernel/Ids.ts"
/** The HTTP API definition (paths, Schemas, error statuses), e.g. for a typed client: `HttpApiClient.make(Api.Api, { baseUrl })`. */
export * as Api from "./api/Api.ts"
