/**
 * The qforms standalone server: configuration from the environment, the
 * database (embedded PGlite by default, PostgreSQL with DATABASE_URL) built
 * and migrated before the server listens, the first-start workspace, and the
 * HTTP server.
 */
import { createServer } from "node:http"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Bootstrap, Database, FormGenerator, Http, Services } from "@qforms/core"
import { Config, Console, Effect, Layer, Option, Redacted } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"

const Settings = Config.all({
  port: Config.Port("PORT").pipe(Config.withDefault(3000)),
  host: Config.String("HOST").pipe(Config.withDefault("127.0.0.1")),
  dataDir: Config.String("QFORMS_DATA_DIR").pipe(Config.withDefault("./.qforms-data")),
  databaseUrl: Config.option(Config.Redacted("DATABASE_URL")),
  schema: Config.String("QFORMS_DB_SCHEMA").pipe(Config.withDefault(Database.defaultSchema)),
  ownerEmail: Config.String("QFORMS_OWNER_EMAIL").pipe(Config.withDefault("owner@localhost")),
  appUrl: Config.option(Config.String("APP_URL")),
  rateLimitPerSecond: Config.Number("QFORMS_RATE_LIMIT_PER_SECOND").pipe(Config.withDefault(20)),
  rateLimitBurst: Config.Int("QFORMS_RATE_LIMIT_BURST").pipe(Config.withDefault(100))
})

const json = (status: number, body: unknown) => HttpServerResponse.jsonUnsafe(body, { status })

const HealthRoutes = Layer.mergeAll(
  HttpRouter.add("GET", "/healthz", json(200, { status: "ok" })),
  HttpRouter.add(
    "GET",
    "/readyz",
    Database.ping.pipe(
      Effect.as(json(200, { status: "ready" })),
      Effect.catch((error) => Effect.succeed(json(503, { error: error.message })))
    )
  )
)

const main = Effect.gen(function*() {
  const settings = yield* Settings
  const database = Option.match(settings.databaseUrl, {
    onNone: () => Services.layerPglite({ dataDir: settings.dataDir, schema: settings.schema }),
    onSome: (url) => Services.layerPg({ url: Redacted.value(url), schema: settings.schema })
  })
  // The database is built (and migrated) before the server listens, so no
  // request can arrive while it is still starting.
  const services = yield* Layer.build(database)
  const first = yield* Bootstrap.ensureDefaultWorkspace({ ownerEmail: settings.ownerEmail }).pipe(
    Effect.provideContext(services)
  )
  if (Option.isSome(first)) {
    yield* Console.log([
      "",
      "  qforms: first start. Created the workspace \"Default\" and its first API key.",
      "  Shown once, never again; keep it somewhere safe:",
      "",
      `    ${first.value.key}`,
      ""
    ].join("\n"))
  }
  const routes = Layer.mergeAll(
    HealthRoutes,
    Http.layer({
      appUrl: Option.getOrElse(settings.appUrl, () => `http://localhost:${settings.port}`),
      rateLimit: { requestsPerSecond: settings.rateLimitPerSecond, burst: settings.rateLimitBurst }
    })
  ).pipe(Layer.provide(FormGenerator.FormGenerator.layerNone))
  const server = HttpRouter.serve(routes, { disableLogger: true }).pipe(
    Layer.provide(NodeHttpServer.layer(createServer, { port: settings.port, host: settings.host })),
    Layer.provide(Layer.succeedContext(services))
  )
  yield* Layer.build(server)
  return yield* Effect.never
})

NodeRuntime.runMain(Effect.scoped(main))
