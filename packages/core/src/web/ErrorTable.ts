/**
 * The one table of how an error a service fails with is answered: its HTTP
 * status, keyed by the error's tag. The API (through `ApiErrors.fromDomain`),
 * the public page and its uploads, the inbound e-mail route, the application's
 * JSON routes and the MCP tools (an error with a row is the caller's and
 * becomes a tool error result; any other is a defect) all read it, as tRPC
 * keeps one status table. An error without a row never reaches a client as
 * itself (see `internalErrors`); `test/ErrorTable.test.ts` checks that every
 * tagged error of the source is in one of the two.
 *
 * @module
 */

/** The status of every error a client is answered with, by tag. */
export const statuses = {
  InvalidInput: 400,
  InvalidApiKey: 401,
  SignInRefused: 401,
  Forbidden: 403,
  NotAMember: 403,
  FormNotFound: 404,
  ResponseNotFound: 404,
  StageNotFound: 404,
  MemberNotFound: 404,
  InvitationNotFound: 404,
  ApiKeyNotFound: 404,
  WorkspaceNotFound: 404,
  SubscriptionNotFound: 404,
  DeliveryNotFound: 404,
  FileNotFound: 404,
  ImageNotFound: 404,
  TranslationNotFound: 404,
  ChannelNotFound: 404,
  ContactNotFound: 404,
  SavedViewNotFound: 404,
  TokenUnknown: 404,
  ReplyNotMatched: 404,
  InvalidEmailToken: 404,
  InvalidDigestToken: 404,
  Conflict: 409,
  TokenGone: 410,
  FileTooLarge: 413,
  StorageQuotaExceeded: 413,
  MessageTooLarge: 413,
  UnsupportedFileType: 415,
  AccountLocked: 429,
  GeneratorFailed: 502
} as const

/** The tag of an error a client is answered with. */
export type AnsweredTag = keyof typeof statuses

/** The status of the error with this tag. */
export type StatusOf<Tag extends AnsweredTag> = (typeof statuses)[Tag]

/**
 * The errors that never reach a client as themselves, and why (kept here so
 * that every tagged error of the source is accounted for).
 */
export const internalErrors: Readonly<Record<string, string>> = {
  DatabaseError: "the database cannot be opened: the server does not start (or answers 503 while it is unreachable)",
  DatabaseCopyError: "the `qforms db copy` command's failure: printed by the CLI, never an HTTP answer",
  DatabaseBackupError: "the `qforms backup` and `restore` commands' failure: printed by the CLI, never an HTTP answer",
  DatabaseCatalogError:
    "a database's catalog unusable for a copy or backup: part of their own failure, never an HTTP answer",
  TarArchiveError: "a backup archive that cannot be read: part of the restore's failure, never an HTTP answer",
  PgliteOpenError: "the embedded database cannot be opened: the server does not start",
  BlobStoreError: "the file store failed: answered 503 with Retry-After (nothing was kept)",
  BlobNotFound: "a file record whose blob is gone: answered as FileNotFound",
  XlsxWriteFailed: "the workbook failed while it streamed, after its 200: the download is cut short, as any stream's",
  ZipWriteFailed: "an archive failed while it streamed (the XLSX export reports it as XlsxWriteFailed)",
  MailNotConfigured: "a delivery outcome: recorded on the e-mail's delivery, never an answer",
  MailFailed: "a delivery outcome: recorded on the e-mail's delivery, never an answer",
  ImapFailed: "the IMAP poller's failure: logged and retried",
  SsrfRejected: "a delivery outcome: recorded as the attempt's error",
  TargetUnresolved: "a delivery outcome: recorded as the attempt's error",
  InvalidAnswerToken: "the public page starts the form again instead",
  StepRefused: "the public page's own refusal: it carries the status of its page",
  ResourceNotFound: "an MCP protocol error (JSON-RPC code), not an HTTP status",
  InvalidPromptArguments: "an MCP protocol error (JSON-RPC code), not an HTTP status"
}

/**
 * The status of an error that has a row.
 *
 * @example
 * ```ts
 * ErrorTable.statusOf(new FormNotFound({ message: "form 3 not found" })) // 404
 * ```
 */
export const statusOf = <Tag extends AnsweredTag>(error: { readonly _tag: Tag }): StatusOf<Tag> => statuses[error._tag]

/** Whether a client is answered with this error (it has a row), rather than it being a defect. */
export const isAnswered = <E extends { readonly _tag: string }>(
  error: E
): error is E & { readonly _tag: AnsweredTag } => Object.hasOwn(statuses, error._tag)

/**
 * The message of an error status the router or the platform answered without a
 * body of its own (every error answer is `{error}`-shaped).
 */
export const defaultMessages: Readonly<Record<number, string>> = {
  400: "bad request",
  401: "missing or invalid API key",
  404: "not found",
  405: "method not allowed",
  406: "not acceptable",
  413: "request body too large",
  415: "unsupported content type: send JSON (Content-Type: application/json)",
  426: "upgrade required"
}
