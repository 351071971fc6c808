/**
 * Every domain service of qforms, wired together, on the database you choose.
 */
import { Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { Accounts } from "./domain/Accounts.ts"
import { Activities } from "./domain/Activities.ts"
import { AnswerTokens } from "./domain/AnswerTokens.ts"
import { ApiKeys } from "./domain/ApiKeys.ts"
import { Contacts } from "./domain/Contacts.ts"
import { Deliveries } from "./domain/Deliveries.ts"
import { Events } from "./domain/Events.ts"
import { Forms } from "./domain/Forms.ts"
import { Members } from "./domain/Members.ts"
import { Notes } from "./domain/Notes.ts"
import { Responses } from "./domain/Responses.ts"
import { Stages } from "./domain/Stages.ts"
import { Webhooks } from "./domain/Webhooks.ts"
import { Workspaces } from "./domain/Workspaces.ts"
import * as Database from "./storage/Database.ts"

/** The services this module provides. */
export type Services =
  | Accounts
  | Activities
  | AnswerTokens
  | ApiKeys
  | Contacts
  | Deliveries
  | Events
  | Forms
  | Members
  | Notes
  | Responses
  | Stages
  | Webhooks
  | Workspaces

const foundation = Layer.mergeAll(Accounts.layer, Stages.layer, Contacts.layer, Activities.layer, Events.layer)
const middle = Layer.mergeAll(Members.layer, Forms.layer, Notes.layer).pipe(Layer.provideMerge(foundation))

/**
 * Every domain service, on whatever `SqlClient` you provide (migrated with
 * `Database`).
 *
 * @example
 * ```ts
 * import { Services, Database } from "@qforms/core"
 * const Live = Services.layer.pipe(Layer.provideMerge(Database.layerPglite({ dataDir: "./data" })))
 * ```
 */
export const layer: Layer.Layer<Services, never, SqlClient.SqlClient> = Layer.mergeAll(
  ApiKeys.layer,
  AnswerTokens.layer,
  Responses.layer,
  Webhooks.layer,
  Workspaces.layer,
  Deliveries.layer
)
  .pipe(Layer.provideMerge(middle))

/** Every service on PostgreSQL. */
export const layerPg = (options: Database.PgOptions) => layer.pipe(Layer.provideMerge(Database.layerPg(options)))

/** Every service on embedded PGlite (in memory when `dataDir` is absent). */
export const layerPglite = (options: Database.PgliteOptions = {}) =>
  layer.pipe(Layer.provideMerge(Database.layerPglite(options)))

/** Every service on a fresh in-memory PGlite: for tests of code built on qforms. */
export const layerTest = layerPglite()
