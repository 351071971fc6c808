/**
 * @qforms/core: forms, responses as cases, and everything around them, as
 * Effect services on PostgreSQL or embedded PGlite, with the HTTP API that
 * serves them.
 *
 * @module
 */
export * as Accounts from "./domain/Accounts.ts"
export * as Activities from "./domain/Activities.ts"
export * as Actors from "./domain/Actors.ts"
export * as ApiKeys from "./domain/ApiKeys.ts"
export * as Contacts from "./domain/Contacts.ts"
export * as Csv from "./domain/Csv.ts"
export * as Errors from "./domain/Errors.ts"
export * as Events from "./domain/Events.ts"
export * as Fields from "./domain/Fields.ts"
export * as FormGenerator from "./domain/FormGenerator.ts"
export * as Forms from "./domain/Forms.ts"
export * as Ids from "./domain/Ids.ts"
export * as Members from "./domain/Members.ts"
export * as Notes from "./domain/Notes.ts"
export * as Responses from "./domain/Responses.ts"
export * as Stages from "./domain/Stages.ts"
export * as Summaries from "./domain/Summaries.ts"
export * as Webhooks from "./domain/Webhooks.ts"
export * as Workspaces from "./domain/Workspaces.ts"
export * as Api from "./http/Api.ts"
export * as ApiErrors from "./http/ApiErrors.ts"
export * as Http from "./http/Http.ts"
export * as RateLimit from "./http/RateLimit.ts"
export * as Bootstrap from "./Bootstrap.ts"
export * as Services from "./Services.ts"
export * as Database from "./storage/Database.ts"
export * as Migrations from "./storage/Migrations.ts"
export * as PgliteClient from "./storage/PgliteClient.ts"
export * as Qforms from "./Qforms.ts"
