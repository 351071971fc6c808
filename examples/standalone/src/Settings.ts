/**
 * The standalone's configuration, from the environment (shared by the server
 * and the CLI). A bad value stops the process with a message naming it.
 */
import { Config, Effect, Option, Redacted } from "effect"
import type { Qforms } from "@qforms/core"

/** The settings, read and checked. */
export const Settings = Config.all({
  port: Config.Port("PORT").pipe(Config.withDefault(3000)),
  host: Config.String("HOST").pipe(Config.withDefault("127.0.0.1")),
  appUrl: Config.option(Config.URL("APP_URL")),
  dataDir: Config.String("QFORMS_DATA_DIR").pipe(Config.withDefault("./.qforms-data")),
  databaseUrl: Config.option(Config.Redacted("DATABASE_URL")),
  schema: Config.String("QFORMS_DB_SCHEMA").pipe(Config.withDefault("qforms")),
  logLevel: Config.LogLevel("LOG_LEVEL").pipe(Config.withDefault("Info" as const)),
  logFormat: Config.Literals(["pretty", "json"], "LOG_FORMAT").pipe(Config.withDefault("pretty" as const)),
  logRequests: Config.Boolean("LOG_REQUESTS").pipe(Config.withDefault(false)),
  ownerEmail: Config.String("QFORMS_OWNER_EMAIL").pipe(Config.withDefault("owner@localhost")),
  rateLimitPerSecond: Config.Number("QFORMS_RATE_LIMIT_PER_SECOND").pipe(Config.withDefault(20)),
  rateLimitBurst: Config.Int("QFORMS_RATE_LIMIT_BURST").pipe(Config.withDefault(100)),
  shutdownTimeoutMs: Config.Int("QFORMS_SHUTDOWN_TIMEOUT_MS").pipe(Config.withDefault(10_000))
})
export type Settings = Config.Success<typeof Settings>

/** Reads the settings from the environment; a bad value fails with a readable message. */
export const load: Effect.Effect<Settings, string> = Effect.mapError(
  Settings,
  (error) => `Invalid configuration: ${error.message.replace(/^SchemaError\((.*)\)$/s, "$1").replace(/\n\s*at \["?([^"\]]+)"?\]/g, " (in $1)")}`
)

/** The database part of the settings, as `Qforms.make` takes it. */
export const database = (settings: Settings): NonNullable<Qforms.QformsOptions["database"]> =>
  Option.match(settings.databaseUrl, {
    onNone: () => ({ dataDir: settings.dataDir, schema: settings.schema }),
    onSome: (url) => ({ url: Redacted.value(url), schema: settings.schema })
  })

/** Where the service is reached. */
export const appUrl = (settings: Settings): string =>
  Option.match(settings.appUrl, {
    onNone: () => `http://localhost:${settings.port}`,
    onSome: (url) => url.toString().replace(/\/$/, "")
  })
