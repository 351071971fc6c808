/**
 * Every domain service of qforms, wired together, on the database you choose.
 * Each service's layer provides the services it needs itself (a layer built
 * twice in one build is built once), so the list below is in no order; only
 * the ports, where a context asks a later one, are wired here.
 */
import * as NodePath from "node:path"
import * as Layer from "effect/Layer"
import type * as SqlClient from "effect/sql/SqlClient"
import { Accounts, ApiKeyCache, ApiKeys, Invitations, Members, Sessions, Workspaces } from "./identity/index.ts"
import {
  Activities,
  AnswerTokens,
  AssignmentRulesService,
  CaseFieldsService,
  Contacts,
  Notes,
  ResponseMerges,
  ResponseFold,
  Responses,
  SavedViews,
  SlaScan,
  StatusEdits,
  StatusLinks
} from "./cases/index.ts"
import { AuditLog } from "./audit/index.ts"
import { BlobStoreModule as BlobStore, Files, FilesForForms, Images } from "./files/index.ts"
import { Deliveries, FormNotifications, WebhookAlerts, Webhooks } from "./deliveries/index.ts"
import { Events } from "./events/index.ts"
import { Forms, Stages, WorkspaceSettingsStore } from "./forms/index.ts"
import { CaseMetrics, Digests, FormSummaries, PageCounts } from "./insights/index.ts"
import { EmailReplies, EmailTokens, RespondentEmails } from "./email/index.ts"
import { Erasure, PersonalDataExport, Retention } from "./privacy/index.ts"
import { Database } from "./storage/index.ts"

/** The services this module provides. */
export type Services =
  | Accounts
  | Activities
  | AnswerTokens
  | ApiKeys
  | AuditLog
  | Contacts
  | Deliveries
  | Erasure
  | PersonalDataExport
  | Events
  | Files
  | Images
  | FormNotifications
  | EmailTokens
  | EmailReplies
  | RespondentEmails
  | Forms
  | FormSummaries
  | CaseMetrics
  | Digests
  | PageCounts
  | Invitations
  | Members
  | Notes
  | StatusLinks
  | ResponseFold
  | Responses
  | AssignmentRulesService
  | SavedViews
  | CaseFieldsService
  | Retention
  | SlaScan
  | Sessions
  | Stages
  | Webhooks
  | WebhookAlerts
  | Workspaces
  | WorkspaceSettingsStore
  | ResponseMerges
  | StatusEdits

/**
 * The ports, where a context asks a later one (see docs/architecture.md): forms ask the files context
 * (`FormFiles`), cases ask e-mail (`CaseMail`). Every other service's layer provides what it needs itself.
 */
const ports = Layer.mergeAll(
  FilesForForms.layer.pipe(Layer.provide([Files.layer, Images.layer])),
  RespondentEmails.caseMail.pipe(Layer.provide(RespondentEmails.layer))
)

/**
 * Every domain service, on whatever `SqlClient` you provide (migrated with
 * `Database`) and a `BlobStore` for uploaded files.
 *
 * @example
 * ```ts
 * import { BlobStore, Services, Database } from "@qforms/core"
 * const Live = Services.layer.pipe(
 *   Layer.provideMerge(Database.layerPglite({ dataDir: "./data" })),
 *   Layer.provideMerge(BlobStore.layerLocal({ directory: "./data/files" }))
 * )
 * ```
 */
export const layer: Layer.Layer<Services, never, SqlClient.SqlClient | BlobStore.BlobStore> = Layer.mergeAll(
  Accounts.layer,
  Activities.layer,
  AnswerTokens.layer,
  ApiKeyCache.layer,
  ApiKeys.layer,
  AssignmentRulesService.layer,
  AuditLog.layer,
  CaseFieldsService.layer,
  CaseMetrics.layer,
  Contacts.layer,
  Deliveries.layer,
  Digests.layer,
  EmailReplies.layer,
  EmailTokens.layer,
  Erasure.layer,
  Events.layer,
  Files.layer,
  FormNotifications.layer,
  Forms.layer,
  FormSummaries.layer,
  Images.layer,
  Invitations.layer,
  Members.layer,
  Notes.layer,
  PageCounts.layer,
  PersonalDataExport.layer,
  RespondentEmails.layer,
  ResponseMerges.layer,
  ResponseFold.layer,
  Responses.layer,
  Retention.layer,
  SavedViews.layer,
  Sessions.layer,
  SlaScan.layer,
  Stages.layer,
  StatusEdits.layer,
  StatusLinks.layer,
  WebhookAlerts.layer,
  Webhooks.layer,
  Workspaces.layer,
  WorkspaceSettingsStore.layer
).pipe(Layer.provideMerge(ports))

/**
 * Where uploaded files are kept: a directory, or any `BlobStore` layer (an S3
 * store, …). Defaults: `<dataDir>/files` on embedded PGlite, a temporary
 * directory removed on close for an in-memory PGlite, and
 * {@link defaultPgFilesDirectory} on PostgreSQL.
 */
export type FilesOption =
  | { readonly directory: string }
  | { readonly store: Layer.Layer<BlobStore.BlobStore, BlobStore.BlobStoreError> }

/** Where uploads go on PostgreSQL when no `files` option is given: `./.qforms-files`. */
export const defaultPgFilesDirectory = "./.qforms-files"

const blobStore = (
  files: FilesOption | undefined,
  fallback: () => Layer.Layer<BlobStore.BlobStore, BlobStore.BlobStoreError>
) =>
  files === undefined
    ? fallback()
    : "store" in files
      ? files.store
      : BlobStore.layerLocal({ directory: files.directory })

/** Every service on PostgreSQL (uploads in `files`, default {@link defaultPgFilesDirectory}). */
export const layerPg = (options: Database.PgOptions & { readonly files?: FilesOption | undefined }) =>
  layer.pipe(
    Layer.provideMerge(Database.layerPg(options)),
    Layer.provideMerge(blobStore(options.files, () => BlobStore.layerLocal({ directory: defaultPgFilesDirectory })))
  )

/**
 * Every service on embedded PGlite (in memory when `dataDir` is absent);
 * uploads in `files`, by default `<dataDir>/files` (a temporary directory in memory).
 */
export const layerPglite = (options: Database.PgliteOptions & { readonly files?: FilesOption | undefined } = {}) =>
  layer.pipe(
    Layer.provideMerge(Database.layerPglite(options)),
    Layer.provideMerge(
      blobStore(options.files, () =>
        options.dataDir === undefined
          ? BlobStore.layerTemporary
          : BlobStore.layerLocal({ directory: NodePath.join(options.dataDir, "files") })
      )
    )
  )

/** Every service on a fresh in-memory PGlite: for tests of code built on qforms. */
export const layerTest = layerPglite()
