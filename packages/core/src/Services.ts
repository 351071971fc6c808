/**
 * Every domain service of qforms, wired together, on the database you choose.
 */
import * as NodePath from "node:path"
import * as Layer from "effect/Layer"
import type * as SqlClient from "effect/sql/SqlClient"
import { Accounts } from "./identity/Accounts.ts"
import { Activities } from "./cases/Activities.ts"
import { AuditLog } from "./audit/AuditLog.ts"
import { AnswerTokens } from "./cases/AnswerTokens.ts"
import { ApiKeyCache } from "./identity/ApiKeyCache.ts"
import { ApiKeys } from "./identity/ApiKeys.ts"
import * as BlobStore from "./files/BlobStore.ts"
import { Contacts } from "./cases/Contacts.ts"
import { Deliveries } from "./deliveries/Deliveries.ts"
import { Events } from "./events/Events.ts"
import { Files } from "./files/Files.ts"
import { Images } from "./files/Images.ts"
import * as FilesForForms from "./files/FilesForForms.ts"
import { FormNotifications } from "./deliveries/FormNotifications.ts"
import { Forms } from "./forms/Forms.ts"
import { CaseMetrics } from "./insights/CaseMetrics.ts"
import { Digests } from "./insights/Digests.ts"
import { FormSummaries } from "./insights/FormSummaries.ts"
import { PageCounts } from "./insights/PageCounts.ts"
import { Invitations } from "./identity/Invitations.ts"
import { EmailReplies } from "./email/EmailReplies.ts"
import { EmailTokens } from "./email/EmailTokens.ts"
import { RespondentEmails } from "./email/RespondentEmails.ts"
import { Members } from "./identity/Members.ts"
import { Notes } from "./cases/Notes.ts"
import { StatusLinks } from "./cases/StatusLinks.ts"
import { Erasure } from "./privacy/Erasure.ts"
import { Retention } from "./privacy/Retention.ts"
import { SlaScan } from "./cases/SlaScan.ts"
import { PersonalDataExport } from "./privacy/PersonalDataExport.ts"
import { ResponseMerges } from "./cases/ResponseMerges.ts"
import { StatusEdits } from "./cases/StatusEdits.ts"
import { Responses } from "./cases/Responses.ts"
import { AssignmentRulesService } from "./cases/AssignmentRules.ts"
import { SavedViews } from "./cases/SavedViews.ts"
import { CaseFieldsService } from "./cases/CaseFields.ts"
import { Sessions } from "./identity/Sessions.ts"
import { Stages } from "./forms/Stages.ts"
import { Webhooks } from "./deliveries/Webhooks.ts"
import { WebhookAlerts } from "./email/WebhookAlerts.ts"
import { Workspaces } from "./identity/Workspaces.ts"
import { WorkspaceSettingsStore } from "./forms/WorkspaceSettings.ts"
import * as Database from "./storage/Database.ts"

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

/** Uploaded files and the image library kept beside them. */
const library = Images.layer.pipe(Layer.provideMerge(Files.layer))
/** Forms' port to the files context (images a form shows, a deleted form's uploads). */
const formFiles = FilesForForms.layer.pipe(Layer.provide(library))
const foundation = Layer.mergeAll(
  ApiKeyCache.layer,
  Accounts.layer,
  Stages.layer,
  StatusLinks.layer.pipe(Layer.provide(Activities.layer)),
  Contacts.layer,
  Activities.layer,
  Events.layer,
  library,
  formFiles,
  Deliveries.layer.pipe(Layer.provide(Events.layer)),
  WorkspaceSettingsStore.layer.pipe(Layer.provide(formFiles))
)
/** Respondent e-mails, and cases' port to them (a submission's confirmation, a case's thread). */
const emails = RespondentEmails.caseMail.pipe(
  Layer.provideMerge(RespondentEmails.layer.pipe(Layer.provideMerge(EmailTokens.layer)))
)
const middle = Layer.mergeAll(Members.layer, Forms.layer, Notes.layer.pipe(Layer.provide(Members.layer)), emails).pipe(
  Layer.provideMerge(foundation)
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
  ApiKeys.layer,
  AnswerTokens.layer,
  AuditLog.layer,
  Responses.layer.pipe(Layer.provideMerge(AssignmentRulesService.layer)),
  CaseFieldsService.layer,
  Webhooks.layer,
  WebhookAlerts.layer,
  Workspaces.layer,
  FormNotifications.layer,
  Sessions.layer,
  FormSummaries.layer,
  CaseMetrics.layer,
  PageCounts.layer,
  Erasure.layer,
  Retention.layer,
  SlaScan.layer,
  PersonalDataExport.layer,
  ResponseMerges.layer,
  SavedViews.layer,
  StatusEdits.layer
).pipe(Layer.provideMerge(middle), (core) =>
  Layer.mergeAll(EmailReplies.layer, Invitations.layer, Digests.layer).pipe(Layer.provideMerge(core))
)

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
