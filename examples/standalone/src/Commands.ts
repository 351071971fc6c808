/**
 * The `qforms` administration commands (workspaces, members, API keys), on the
 * same database and environment as the server. Every command but `key create`
 * prints JSON on stdout; failures are `CliFailure`s with a readable message.
 */
import { join, resolve } from "node:path"
import {
  Accounts,
  Actors,
  ApiKeys,
  AuditLog,
  BlobStore,
  Database,
  DatabaseBackup,
  DatabaseCopy,
  Members,
  Options,
  Passwords,
  Services,
  Sessions,
  Workspaces
} from "@qforms/core"
import * as Console from "effect/Console"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as References from "effect/References"
import * as Schema from "effect/Schema"
import { Argument, CliError, CliOutput, Command, Flag, GlobalFlag } from "effect/cli"
import * as SqlClient from "effect/sql/SqlClient"
import * as Settings from "./Settings.ts"

/** A command failed: the message is shown on stderr and the exit code is 1. */
export class CliFailure extends Schema.TaggedError<CliFailure>()("CliFailure", {
  message: Schema.String
}) {}

const fail = (message: string) => Effect.fail(new CliFailure({ message }))

/** Anything a command can fail with, as a `CliFailure` (domain, SQL and database errors all carry a message). */
const toFailure = (error: { readonly message: string }): CliFailure =>
  error instanceof CliFailure ? error : new CliFailure({ message: error.message })

/**
 * The arguments with the value of `--log-level` spelled as effect/cli's flag
 * takes it (lower case; `off` is `none`), so that the flag accepts every name
 * `LOG_LEVEL` and `Qforms.make` accept, in any case. Unknown names are left
 * for the flag to refuse.
 */
export const normalizeLogLevelFlag = (args: ReadonlyArray<string>): ReadonlyArray<string> => {
  const spell = (name: string) => {
    const level = Options.parseLogLevel(name)
    return level === undefined ? name : level.toLowerCase()
  }
  return args.map((arg, i) =>
    arg.startsWith("--log-level=")
      ? `--log-level=${spell(arg.slice("--log-level=".length))}`
      : i > 0 && args[i - 1] === "--log-level"
        ? spell(arg)
        : arg
  )
}

/**
 * How a command reaches the database when it runs inside the server (see
 * `AdminSocket.ts`): the running server's own services. Undefined in the CLI
 * process, which opens the database itself.
 */
export const InServer = Context.Reference<
  | (<A, E extends { readonly message: string }>(
      effect: Effect.Effect<A, E, Services.Services | SqlClient.SqlClient>
    ) => Effect.Effect<A, CliFailure>)
  | undefined
>("@qforms/standalone/InServer", { defaultValue: () => undefined })

/**
 * Runs `effect` on qforms' services over the configured database: opened (and
 * migrated) for this command only, closed before the process exits. PGlite's
 * data directory is locked by core: while a server holds it, this fails with
 * core's "in use" message and nothing is opened.
 */
const withQforms = <A, E extends { readonly message: string }>(
  effect: Effect.Effect<A, E, Services.Services | SqlClient.SqlClient>
): Effect.Effect<A, CliFailure> =>
  Effect.gen(function* () {
    const inServer = yield* InServer
    if (inServer !== undefined) return yield* inServer(effect)
    const settings = yield* Effect.mapError(Settings.load, (message) => new CliFailure({ message }))
    const database = Settings.database(settings)
    const services =
      "url" in database
        ? Services.layerPg({ ...database, maxConnections: 2, files: Settings.files(settings) })
        : Services.layerPglite({ ...database, files: Settings.files(settings) })
    // Logs go to stderr (stdout is the command's answer); `--log-level` wins over LOG_LEVEL.
    const flagLevel = Option.flatten(yield* Effect.serviceOption(GlobalFlag.LogLevel))
    const logging = Layer.mergeAll(
      Layer.succeed(Logger.LogToStderr)(true),
      Layer.succeed(References.MinimumLogLevel)(Option.getOrElse(flagLevel, () => settings.logLevel))
    )
    return yield* effect.pipe(
      Effect.provide(services),
      Effect.mapError((error: E | Database.DatabaseError | BlobStore.BlobStoreError) => toFailure(error)),
      Effect.provide(logging)
    )
  })

const printJson = (value: unknown) => Console.log(JSON.stringify(value, null, 2))

// ---------------------------------------------------------------------------
// Parameters, validated with Schemas
// ---------------------------------------------------------------------------

const Id = Schema.Int.check(Schema.isGreaterThan(0, { message: "must be a positive integer" }))
const IdFromString = Schema.NumberFromString.pipe(Schema.decodeTo(Id))

const workspaceFlag = Flag.String("workspace").pipe(
  Flag.withSchema(IdFromString),
  Flag.withDescription("The workspace id (see `workspace list`)")
)
const emailFlag = (name: string, description: string) =>
  Flag.String(name).pipe(Flag.withSchema(Accounts.EmailAddress), Flag.withDescription(description))
const nameFlag = (flag: string, description: string) =>
  Flag.String(flag).pipe(Flag.withSchema(Accounts.PersonName), Flag.withDescription(description), Flag.optional)

// ---------------------------------------------------------------------------
// Helpers on top of the services
// ---------------------------------------------------------------------------

const requireWorkspace = Effect.fn(function* (workspaceId: number) {
  return yield* (yield* Workspaces.Workspaces).get(workspaceId)
})

/** The workspace's owner: the earliest owner account (the one created with it). */
const ownerOf = Effect.fn(function* (workspaceId: number) {
  const members = yield* (yield* Members.Members).list(workspaceId)
  const owners = members.filter((member) => member.role === "owner").map((member) => member.accountId)
  if (owners.length === 0) return yield* fail(`workspace ${workspaceId} has no owner: pass --account`)
  return Math.min(...owners)
})

/** Runs a change and its audit log entry (actor and surface `cli`) in one transaction. */
const audited = <A, E, R>(
  workspaceId: (value: A) => number,
  change: Effect.Effect<A, E, R>,
  entry: (value: A) => AuditLog.AuditRecord
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(
      Effect.tap(change, (value) => AuditLog.record(sql, Actors.system(workspaceId(value)), entry(value)))
    )
  }).pipe(Effect.provideService(AuditLog.AuditOrigin, { address: null, surface: "cli" }))

const listedKey = (key: ApiKeys.ApiKey) => ({
  id: key.id,
  prefix: key.prefix,
  name: key.name,
  accountId: key.accountId,
  createdAt: key.createdAt,
  lastUsedAt: key.lastUsedAt,
  revoked: key.revokedAt !== null,
  revokedAt: key.revokedAt
})

// ---------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------

const workspaceCreate = Command.make(
  "create",
  {
    name: Flag.String("name").pipe(
      Flag.withSchema(Workspaces.CreateWorkspaceInput.fields.name),
      Flag.withDescription("The workspace's name")
    ),
    ownerEmail: emailFlag("owner-email", "The owner's e-mail (the account is created if new)"),
    ownerName: nameFlag("owner-name", "The owner's name")
  },
  ({ name, ownerEmail, ownerName }) =>
    withQforms(
      Effect.gen(function* () {
        const created = yield* (yield* Workspaces.Workspaces).create({
          name,
          ownerEmail,
          ownerName: Option.getOrNull(ownerName)
        })
        return { workspaceId: created.workspace.id, ownerAccountId: created.ownerAccountId }
      })
    ).pipe(Effect.flatMap(printJson))
).pipe(Command.withDescription("Create a workspace with its owner"))

const workspaceList = Command.make("list", {}, () =>
  withQforms(
    Effect.gen(function* () {
      return yield* (yield* Workspaces.Workspaces).list
    })
  ).pipe(Effect.flatMap(printJson))
).pipe(Command.withDescription("List the workspaces"))

const workspace = Command.make("workspace").pipe(
  Command.withDescription("Create and list workspaces"),
  Command.withSubcommands([workspaceCreate, workspaceList])
)

const memberAdd = Command.make(
  "add",
  {
    workspace: workspaceFlag,
    email: emailFlag("email", "The member's e-mail (the account is created if new)"),
    name: nameFlag("name", "The member's name"),
    role: Flag.Literals("role", Members.MemberRole.literals).pipe(Flag.withDescription("The member's role"))
  },
  ({ workspace, email, name, role }) =>
    withQforms(
      Effect.gen(function* () {
        yield* requireWorkspace(workspace)
        return yield* audited(
          () => workspace,
          (yield* Members.Members).add(workspace, { email, name: Option.getOrNull(name), role }),
          (added) => ({
            action: "member.added",
            target: { type: "account", id: added.accountId },
            details: { email: added.email, role: added.role }
          })
        )
      })
    ).pipe(Effect.flatMap(printJson))
).pipe(Command.withDescription("Add a member to a workspace (an existing member gets the new role)"))

const memberList = Command.make("list", { workspace: workspaceFlag }, ({ workspace }) =>
  withQforms(
    Effect.gen(function* () {
      yield* requireWorkspace(workspace)
      return yield* (yield* Members.Members).list(workspace)
    })
  ).pipe(Effect.flatMap(printJson))
).pipe(Command.withDescription("List a workspace's members"))

const member = Command.make("member").pipe(
  Command.withDescription("Add and list members"),
  Command.withSubcommands([memberAdd, memberList])
)

const keyCreate = Command.make(
  "create",
  {
    workspace: workspaceFlag,
    account: Flag.String("account").pipe(
      Flag.withSchema(IdFromString),
      Flag.withDescription("The member the key acts as (default: the workspace's owner)"),
      Flag.optional
    ),
    name: Flag.String("name").pipe(
      Flag.withSchema(Schema.NonEmptyString.pipe(Schema.decodeTo(Schema.Trim), Schema.check(Schema.isMaxLength(100)))),
      Flag.withDescription("A label for the key"),
      Flag.optional
    )
  },
  ({ workspace, account, name }) =>
    withQforms(
      Effect.gen(function* () {
        yield* requireWorkspace(workspace)
        const accountId = Option.isSome(account) ? account.value : yield* ownerOf(workspace)
        const created = yield* audited(
          () => workspace,
          (yield* ApiKeys.ApiKeys).create(workspace, { accountId, name: Option.getOrNull(name) }),
          ({ apiKey }) => ({
            action: "api_key.created",
            target: { type: "api_key", id: apiKey.id },
            details: { accountId, name: apiKey.name }
          })
        )
        return created.key
      })
    ).pipe(Effect.flatMap((key) => Console.log(key)))
).pipe(Command.withDescription("Issue an API key; prints the key alone (it is shown this once)"))

const keyList = Command.make("list", { workspace: workspaceFlag }, ({ workspace }) =>
  withQforms(
    Effect.gen(function* () {
      yield* requireWorkspace(workspace)
      return (yield* (yield* ApiKeys.ApiKeys).list(workspace)).map(listedKey)
    })
  ).pipe(Effect.flatMap(printJson))
).pipe(Command.withDescription("List a workspace's API keys (prefixes only, never the keys)"))

const keyRevoke = Command.make(
  "revoke",
  {
    keyId: Argument.String("keyId").pipe(
      Argument.withSchema(IdFromString),
      Argument.withDescription("The key's id (see `key list`)")
    )
  },
  ({ keyId }) =>
    withQforms(
      Effect.gen(function* () {
        const keys = yield* ApiKeys.ApiKeys
        const workspaceId = yield* keys.locate(keyId)
        const revoked = yield* audited(
          () => workspaceId,
          keys.revoke(workspaceId, keyId),
          (key) => ({
            action: "api_key.revoked",
            target: { type: "api_key", id: key.id },
            details: { accountId: key.accountId, name: key.name }
          })
        )
        return listedKey(revoked)
      })
    ).pipe(Effect.flatMap(printJson))
).pipe(Command.withDescription("Revoke an API key: it stops working on the next request"))

const key = Command.make("key").pipe(
  Command.withDescription("Issue, list and revoke API keys"),
  Command.withSubcommands([keyCreate, keyList, keyRevoke])
)

const accountSetPassword = Command.make(
  "set-password",
  {
    email: emailFlag("email", "The account's e-mail"),
    password: Flag.String("password").pipe(
      Flag.withSchema(Passwords.NewPassword),
      Flag.withDescription("The new password (10-200 characters); without it one is generated and printed"),
      Flag.optional
    )
  },
  ({ email, password }) =>
    withQforms(
      Effect.gen(function* () {
        const chosen = Option.getOrElse(password, Passwords.generate)
        yield* (yield* Sessions.Sessions).setPassword(email, chosen)
        return { email, ...(Option.isNone(password) ? { password: chosen } : {}), sessionsEnded: true }
      })
    ).pipe(Effect.flatMap(printJson))
).pipe(Command.withDescription("Set an account's application password (ends its sessions, lifts a lockout)"))

const account = Command.make("account").pipe(
  Command.withDescription("Application accounts: passwords"),
  Command.withSubcommands([accountSetPassword])
)

const whileServing =
  "the embedded database is in use by the running server: stop the server first (`db copy` needs the data directory to itself)"

/** The embedded side of `db copy`: the configured data directory and its files directory. */
const embeddedEndpoint = Effect.gen(function* () {
  if ((yield* InServer) !== undefined) return yield* fail(whileServing)
  const settings = yield* Effect.mapError(Settings.load, (message) => new CliFailure({ message }))
  return {
    database: { dataDir: settings.dataDir, sharedBuffers: settings.pgliteSharedBuffers },
    filesDirectory: Option.getOrElse(settings.filesDir, () => join(settings.dataDir, "files"))
  } satisfies DatabaseCopy.Endpoint
})

const PostgresUrl = Schema.String.check(
  Schema.isPattern(/^postgres(ql)?:\/\//, { message: "a PostgreSQL URL starts with postgres:// or postgresql://" })
)

const dbCopy = Command.make(
  "copy",
  {
    to: Flag.String("to").pipe(
      Flag.withSchema(PostgresUrl),
      Flag.withDescription("Copy the embedded database (QFORMS_DATA_DIR) into this PostgreSQL database"),
      Flag.optional
    ),
    from: Flag.String("from").pipe(
      Flag.withSchema(PostgresUrl),
      Flag.withDescription("Copy this PostgreSQL database into the embedded database (QFORMS_DATA_DIR)"),
      Flag.optional
    ),
    schema: Flag.String("schema").pipe(
      Flag.withSchema(Database.SchemaName),
      Flag.withDescription("The PostgreSQL schema of qforms' tables"),
      Flag.withDefault(Database.defaultSchema)
    ),
    filesTo: Flag.String("files-to").pipe(
      Flag.withDescription(
        `The PostgreSQL deployment's files directory (with --to; default ${Services.defaultPgFilesDirectory})`
      ),
      Flag.optional
    ),
    filesFrom: Flag.String("files-from").pipe(
      Flag.withDescription(
        `The PostgreSQL deployment's files directory (with --from; default ${Services.defaultPgFilesDirectory})`
      ),
      Flag.optional
    ),
    replace: Flag.Boolean("replace").pipe(
      Flag.withDescription("Empty a target that holds data instead of refusing it"),
      Flag.withDefault(false)
    )
  },
  ({ to, from, schema, filesTo, filesFrom, replace }) =>
    Effect.gen(function* () {
      if (Option.isSome(to) === Option.isSome(from))
        return yield* fail("give one of --to <postgres://…> or --from <postgres://…>")
      if (Option.isSome(to) && Option.isSome(filesFrom)) return yield* fail("--files-from goes with --from")
      if (Option.isSome(from) && Option.isSome(filesTo)) return yield* fail("--files-to goes with --to")
      const embedded = yield* embeddedEndpoint
      const postgres = (url: string, files: Option.Option<string>): DatabaseCopy.Endpoint => ({
        database: { url, schema },
        filesDirectory: Option.getOrElse(files, () => Services.defaultPgFilesDirectory)
      })
      const report = yield* DatabaseCopy.copy(
        Option.isSome(to)
          ? { from: embedded, to: postgres(to.value, filesTo), replace }
          : { from: postgres(Option.getOrThrow(from), filesFrom), to: embedded, replace }
      ).pipe(
        Effect.mapError(
          (error) =>
            new CliFailure({
              message: / is in use by /.test(error.message) ? `${error.message}\n${whileServing}` : error.message
            })
        )
      )
      yield* Console.log(DatabaseCopy.formatReport(report))
      if (!report.verified) return yield* fail("the copy does not match its source (see the table above)")
    })
).pipe(
  Command.withDescription(
    "Copy every table and file between the embedded database and PostgreSQL (server stopped), then verify them"
  )
)

const db = Command.make("db").pipe(
  Command.withDescription("Move data between the embedded database and PostgreSQL"),
  Command.withSubcommands([dbCopy])
)

/** The embedded database's settings, or a failure naming what to do on PostgreSQL instead. */
const embeddedSettings = (instead: string) =>
  Effect.gen(function* () {
    const settings = yield* Effect.mapError(Settings.load, (message) => new CliFailure({ message }))
    const database = Settings.database(settings)
    if ("url" in database || database.dataDir === undefined) {
      return yield* fail(`this command is for the embedded database; on PostgreSQL ${instead} (docs/operations.md)`)
    }
    return { settings, dataDir: database.dataDir }
  })

/** Runs `effect` with the blob store of qforms' services (every layer of them has one). */
const withBlobStore = <A, E>(
  effect: Effect.Effect<A, E, SqlClient.SqlClient | BlobStore.BlobStore>
): Effect.Effect<A, E | CliFailure, SqlClient.SqlClient> =>
  Effect.flatMap(
    Effect.serviceOption(BlobStore.BlobStore),
    (store): Effect.Effect<A, E | CliFailure, SqlClient.SqlClient> =>
      Option.isSome(store)
        ? Effect.provideService(effect, BlobStore.BlobStore, store.value)
        : fail("qforms' services have no file store")
  )

const backup = Command.make(
  "backup",
  {
    file: Argument.String("file").pipe(
      Argument.withDescription("The backup to write: a new file, gzip-compressed unless it ends in .tar")
    )
  },
  ({ file }) =>
    Effect.gen(function* () {
      const { dataDir } = yield* embeddedSettings("back up with pg_dump and a copy of the files directory")
      const report = yield* withQforms(withBlobStore(DatabaseBackup.backup({ file: resolve(file), dataDir })))
      yield* Console.log(DatabaseBackup.formatBackup(report))
    })
).pipe(
  Command.withDescription(
    "Back up the embedded database and its files into one file, while the server runs (a consistent snapshot)"
  )
)

const restore = Command.make(
  "restore",
  {
    file: Argument.String("file").pipe(Argument.withDescription("A backup written by `qforms backup`")),
    replace: Flag.Boolean("replace").pipe(
      Flag.withDescription("Replace the database in a data directory that holds one (default: refuse it)"),
      Flag.withDefault(false)
    )
  },
  ({ file, replace }) =>
    Effect.gen(function* () {
      if ((yield* InServer) !== undefined) {
        return yield* fail("the server is running on this data directory: stop it, then restore")
      }
      const { settings, dataDir } = yield* embeddedSettings("restore with pg_restore and a copy of the files directory")
      const report = yield* DatabaseBackup.restore({
        file: resolve(file),
        dataDir,
        files: Settings.files(settings),
        replace
      }).pipe(Effect.mapError(toFailure))
      yield* Console.log(DatabaseBackup.formatRestore(report))
    })
).pipe(
  Command.withDescription(
    "Restore a backup into the embedded data directory (server stopped), verified before anything is replaced"
  )
)

/**
 * The arguments with the file of `backup` made absolute: a command forwarded
 * to the running server runs there, in the server's working directory.
 */
export const absolutePaths = (args: ReadonlyArray<string>, cwd: string): ReadonlyArray<string> => {
  const command = args.findIndex((arg) => !arg.startsWith("-"))
  if (args[command] !== "backup") return args
  return args.map((arg, i) => (i > command && !arg.startsWith("-") && arg !== "" ? resolve(cwd, arg) : arg))
}

/** The `qforms` command. */
export const qforms = Command.make("qforms").pipe(
  Command.withDescription(
    "Administer qforms (workspaces, members, API keys) on the database configured by the environment " +
      "(QFORMS_DATA_DIR, or DATABASE_URL and QFORMS_DB_SCHEMA)"
  ),
  Command.withSubcommands([workspace, member, key, account, db, backup, restore])
)

/** Usage problems (and the usage shown for a missing subcommand) go to stderr; `--help` stays on stdout. */
const presenter = CliOutput.layerPresenter({
  present: (event) =>
    event._tag === "InvalidInvocation"
      ? Effect.gen(function* () {
          const formatter = yield* CliOutput.Formatter
          yield* Console.error(formatter.formatHelpDoc(event.helpDoc))
          yield* Console.error(formatter.formatErrors(event.errors))
        })
      : event._tag === "Help" && event.reason === "Implicit"
        ? Effect.gen(function* () {
            const formatter = yield* CliOutput.Formatter
            yield* Console.error(formatter.formatHelpDoc(event.helpDoc))
          })
        : CliOutput.defaultPresenter.present(event)
})

/**
 * Runs the `qforms` command on these arguments; answers the exit code: 0
 * done, 1 the command failed (message on stderr), 2 bad arguments. The same
 * in the CLI process and inside a running server (see `AdminSocket.ts`).
 */
export const execute = (args: ReadonlyArray<string>) =>
  Command.runWith(qforms, { version: "0.0.0" })(normalizeLogLevelFlag(args)).pipe(
    Effect.as(0),
    Effect.catch((error) =>
      CliError.isCliError(error)
        ? // Already rendered by effect/cli (the problem, then the usage).
          Effect.succeed(2)
        : Effect.as(Console.error(`qforms: ${error instanceof CliFailure ? error.message : String(error)}`), 1)
    ),
    Effect.provide(presenter)
  )
