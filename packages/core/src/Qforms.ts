/**
 * The one entry point: `make(options)` opens the database (migrating it),
 * wires every service and route, and returns handlers a host mounts — a Web
 * `Request → Response` handler and a native Node `(req, res)` handler — plus
 * `dispose`. The adapters (`@qforms/node-http`, `@qforms/h3`,
 * `@qforms/express`) only translate their host's request to one of these.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import type * as LogLevel from "effect/LogLevel"
import * as References from "effect/References"
import * as Scope from "effect/Scope"
import * as HttpEffect from "effect/http/HttpEffect"
import * as HttpRouter from "effect/http/HttpRouter"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import type * as SqlClient from "effect/sql/SqlClient"
import * as Tracer from "effect/Tracer"
import { DeliveryConfig, type DeliverySettings } from "./deliveries/index.ts"
import { Worker } from "./worker/index.ts"
import { Digests } from "./insights/index.ts"
import { FilesModule as Files } from "./files/index.ts"
import { AuditLogModule as AuditLog } from "./audit/index.ts"
import { FormGenerator } from "./generation/index.ts"
import { EmailRepliesModule as EmailReplies } from "./email/index.ts"
import { MailerModule as Mailer } from "./mail/index.ts"
import {
  ResponseFoldModule as ResponseFold,
  ResponsesModule as Responses,
  SlaScanModule as SlaScan,
  SubmissionKeys
} from "./cases/index.ts"
import { RetentionModule as Retention } from "./privacy/index.ts"
import type { App } from "./app/index.ts"
import { EventStream } from "./http/index.ts"
import * as Http from "./Http.ts"
import * as NodeTransport from "./NodeTransport.ts"
import { IdentityBridge, type RateLimit, type ResolveActor } from "./web/index.ts"
import type { Mcp } from "./mcp/index.ts"
import type { PublicPage } from "./pages/index.ts"
import * as Options from "./Options.ts"
import * as Services from "./Services.ts"
import { type Database, RateLimitStoreModule as RateLimitStore } from "./storage/index.ts"
import { Links } from "./kernel/index.ts"
import { MessagesModule as Messages } from "./languages/index.ts"

/** Options of {@link make}. */
export interface QformsOptions {
  /**
   * The database: PostgreSQL (`{ url, schema?, maxConnections? }`) or the
   * embedded one (`{ dataDir?, schema? }`, in memory without `dataDir`).
   * Default: the embedded database in `./.qforms-data`.
   */
  readonly database?: Database.PgOptions | Database.PgliteOptions | undefined
  /**
   * Where qforms is reached, with its mount prefix, e.g.
   * `https://example.com/forms-service`: the start of every link that leaves
   * the process (each webhook and chat message's `link`, e-mails), of the
   * OpenAPI `servers` entry and of the pages' links. Required unless the
   * process sends no deliveries (`delivery: { worker: false }`) and no mail:
   * a host behind proxies cannot know its public origin, and a request's
   * `Host` is the sender's to forge. Without it, pages and the OpenAPI
   * document use each request's own host and prefix.
   */
  readonly appUrl?: string | undefined
  /** Per-key rate limit (default 20 requests/s, bursts of 100). */
  readonly rateLimit?: RateLimit.RateLimitConfig | undefined
  /**
   * Where every rate limit keeps its buckets (see `RateLimitStore`):
   * `"memory"` (default: each process limits on its own), `"database"` (a
   * table in qforms' database: every process on the same PostgreSQL shares
   * each limit) or `{ redis: "redis://…" }` (Redis, shared the same way).
   * Sign-in lockouts and upload quotas are always kept in the database.
   *
   * @example
   * ```ts
   * Qforms.make({ database: { url }, rateLimitStore: "database" })
   * ```
   */
  readonly rateLimitStore?: "memory" | "database" | { readonly redis: string; readonly prefix?: string } | undefined
  /** Largest accepted request body in bytes (default 1 MiB; a file upload has its question's own limit). */
  readonly maxBodyBytes?: number | undefined
  /**
   * Where uploaded files are kept: `{ directory }` or `{ store }` (any
   * `BlobStore` layer, e.g. S3). Default: `<dataDir>/files` on the embedded
   * database (a temporary directory when it is in memory), `./.qforms-files`
   * on PostgreSQL.
   */
  readonly files?: Services.FilesOption | undefined
  /**
   * File uploads per client address (default bursts of 30, then one every 2
   * seconds): one bucket for the upload route and the public page's file steps,
   * the address read with `publicPage.trustedProxyHops`.
   */
  readonly uploadRateLimit?: RateLimit.RateLimitConfig | undefined
  /**
   * Storage quotas of uploaded files, in bytes: `maxBytesPerForm` (default
   * 1 GiB) and `maxBytesPerWorkspace` (default 10 GiB). Every recorded file
   * counts (attached, not yet attached, e-mail attachments); an upload that
   * does not fit is refused with 413 and nothing is kept. See `Files.UploadQuotasConfig`.
   */
  readonly uploads?: Partial<Files.UploadQuotasConfig> | undefined
  /**
   * The form generator (default: the offline generator, `FormGenerator.layerOffline`); e.g.
   * `OpenAiFormGenerator.layer({ baseUrl, model })` for a model, or `FormGenerator.layerNone` to switch generation off.
   */
  readonly formGenerator?: Layer.Layer<FormGenerator> | undefined
  /**
   * The words qforms says to respondents, by language: any message of a built-in language replaced, or a
   * language added (its missing messages are said in English). Keys and values as in
   * `languages/catalogues/en.ts`, ICU MessageFormat; checked at start.
   *
   * @example
   * ```ts
   * Qforms.make({ messages: { de: { "page.submit": "Abschicken" }, sv: { "page.submit": "Skicka", "page.back": "Tillbaka" } } })
   * ```
   */
  readonly messages?: Messages.CustomMessages | undefined
  /** Maps the host's signed-in user to a qforms member (API keys keep working). */
  readonly resolveActor?: ResolveActor | undefined
  /**
   * OAuth 2.1 sign-in for assistants on `/mcp` (MCP authorization): the
   * authorization servers named by `/.well-known/oauth-protected-resource`.
   * Their access tokens reach `resolveActor`, which validates them.
   */
  readonly oauth?: Mcp.OAuthOptions | undefined
  /**
   * The least severe log level written (default `Info`): a level or its name
   * in any case (`debug`, `WARN`, `warning`, `off`, …; see `Options.logLevelNames`).
   */
  readonly logLevel?: LogLevel.LogLevel | string | undefined
  /** `pretty` (default) for people, `json` (one object a line) for log collectors. */
  readonly logFormat?: "pretty" | "json" | undefined
  /**
   * Where spans go (default: none are kept): each request's (`http.server`, continuing an incoming
   * `traceparent`), each service call's, each SQL statement's (with its text) and each transaction's,
   * and the background work's. An OpenTelemetry tracer (through `@effect/opentelemetry`) or your own.
   *
   * @example
   * ```ts
   * import { Tracer } from "effect"
   *
   * const names: Array<string> = []
   * const tracer = Tracer.make({
   *   span: (options) => {
   *     names.push(options.name)
   *     return Tracer.nativeTracer.span(options)
   *   }
   * })
   * const qforms = await Qforms.make({ tracer })
   * ```
   */
  readonly tracer?: Tracer.Tracer | undefined
  /**
   * Webhook delivery: settings (retry schedule, timeout, concurrency, private
   * targets) and whether this process runs a delivery worker (default: yes;
   * several processes on one PostgreSQL share the work).
   */
  readonly delivery?: (Partial<DeliverySettings> & { readonly worker?: boolean | undefined }) | undefined
  /**
   * The public form page (`/f/{publicId}`): who may embed it in a frame
   * (`frameAncestors`, default any site), per-IP limits on submissions and
   * steps, the minimum seconds to fill a form, and how many proxies'
   * `X-Forwarded-For` entries to trust (default none).
   */
  readonly publicPage?: PublicPage.PublicPageOptions | undefined
  /**
   * Partial responses (form logic): the public page saves answers as the
   * respondent goes, from the first real answer on (a Start step, empty
   * optional answers or hidden values alone save nothing); those never
   * submitted are deleted once unchanged for `maxAgeDays` (default 30). At
   * most `newPerAddressPerHour` new ones are saved per client address
   * (default 10, refilled over the hour; `0`: none are saved); over it the
   * respondent still goes on and submits.
   */
  readonly partialResponses?:
    | {
        readonly maxAgeDays?: number | undefined
        readonly newPerAddressPerHour?: number | undefined
      }
    | undefined
  /**
   * E-mail over SMTP, for notification channels of type `email` and e-mails to respondents:
   * `{ url: "smtp://user:pass@mail.example.com:587", from: "Forms <forms@example.com>" }`, with
   * `inboundAddress`/`inboundSecret` for replies. Without it, e-mail is not configured (such
   * channels and sends are refused with 409).
   */
  readonly mail?:
    | (Mailer.SmtpOptions & {
        /** Also fetch replies from this IMAP mailbox (`imaps://user:pass@host/INBOX`), as `/inbound/email` would take them. */
        readonly imap?: EmailReplies.ImapOptions | undefined
      })
    | undefined
  /**
   * The application at `{appUrl}/app` (sign-in, forms, builder, inbox, cases,
   * settings): `true` or options to serve it (default: not served). With
   * `resolveActor`, the host's signed-in users go straight in; set
   * `passwordSignIn: false` to offer no qforms password screen.
   */
  readonly app?: App.AppOptions | boolean | undefined
  /**
   * The live event stream (`/api/events`): streams per credential (default
   * 20) and per process (default 1000), and how often each stream's credential
   * is checked again (default one minute; revocations and sign-outs also close
   * streams at once).
   */
  readonly events?: EventStream.EventStreamOptions | undefined
}

/** The mailer of the options: SMTP when `mail` is given, else "not configured". */
const mailLayer = (options: QformsOptions) =>
  options.mail === undefined ? Mailer.layerNone : Mailer.layerSmtp(options.mail)

/** The loggers and level of the options. */
const logging = (options: QformsOptions) =>
  Layer.mergeAll(
    Logger.layer([options.logFormat === "json" ? Logger.consoleJson : Logger.consolePretty()]),
    Layer.succeed(References.MinimumLogLevel)(Options.parseLogLevel(options.logLevel ?? "Info") ?? "Info"),
    options.tracer === undefined ? Layer.empty : Layer.succeed(Tracer.Tracer)(options.tracer)
  )

/** A running qforms: its handlers, a way to run Effects on its services, and `dispose`. */
export interface Qforms {
  /** Web handler: paths relative to the mount point (`/api/forms`, …). */
  readonly handler: (request: Request) => Promise<Response>
  /**
   * Native Node handler (the fast path): `req.url` relative to the mount point.
   * `body`: the request's body when the host already read it off `request`
   * (e.g. Express after `express.json()`, re-encoded); qforms reads it as if
   * it came from the socket, with `content-length` set to its length (so the
   * body limit, 413, and qforms' own 400/415 answers apply unchanged).
   *
   * @example
   * ```ts
   * createServer(qforms.nodeHandler).listen(3000)
   * // a host whose parser already read the body:
   * qforms.nodeHandler(req, res, JSON.stringify(req.body))
   * ```
   */
  readonly nodeHandler: (request: IncomingMessage, response: ServerResponse, body?: string | Uint8Array) => void
  /**
   * Node `upgrade` handler for the live event stream (`/api/events`, relative
   * to the mount point): `server.on("upgrade", (req, socket, head) => qforms.upgradeHandler(req, socket, head))`.
   * Answers `false` (touching nothing) for other paths, so a host can handle its own upgrades.
   */
  readonly upgradeHandler: (request: IncomingMessage, socket: Duplex, head: Buffer) => boolean
  /**
   * The event stream for any WebSocket transport (e.g. h3's): checks a
   * connection request, then `open(send, close)` registers the client.
   */
  readonly events: {
    /** Closes every open stream (code 1001): call it at the start of a graceful stop. `dispose` does too. */
    readonly close: () => Promise<void>
    readonly connect: (request: {
      readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
      readonly url: string
    }) => Promise<EventStream.Refusal | EventStream.EventConnection>
  }
  /** Runs an Effect against qforms' services (seeding, scripts, tests). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, Services.Services | SqlClient.SqlClient>) => Promise<A>
  /** Stops serving and closes the database. */
  readonly dispose: () => Promise<void>
}

export type { EventConnection } from "./http/index.ts"

const databaseLayer = (database: QformsOptions["database"], files: QformsOptions["files"]) =>
  database === undefined
    ? Services.layerPglite({ dataDir: "./.qforms-data", files })
    : "url" in database
      ? Services.layerPg({ ...database, files })
      : Services.layerPglite({ ...database, files })

const httpOptions = (options: QformsOptions): Http.HttpOptions => ({
  appUrl: options.appUrl,
  rateLimit: options.rateLimit,
  maxBodyBytes: options.maxBodyBytes,
  uploadRateLimit: options.uploadRateLimit,
  publicPage:
    options.partialResponses?.newPerAddressPerHour === undefined
      ? options.publicPage
      : { ...options.publicPage, partialResponsesPerAddressPerHour: options.partialResponses.newPerAddressPerHour },
  oauth: options.oauth,
  app: options.app
})

/** Where `make` and the layers fail at once on options that cannot work, before anything is opened. */
const check = (options: QformsOptions) => {
  const invalid = Options.problem(options) ?? sentLinksProblem(options) ?? Messages.customProblem(options.messages)
  if (invalid !== undefined) throw new Error(`Invalid Qforms options: ${invalid}`)
}

/**
 * Everything qforms runs but its routes, configured by the options: the
 * database (opened and migrated), every service, the form generator, the
 * mailer, the logger, what the options configure (identity bridge, delivery
 * settings, the base of sent links, upload quotas), and the background work:
 * the delivery worker (unless `delivery: { worker: false }`), the event
 * stream's hub, the IMAP poller (with `mail.imap`), the sweep of unattached
 * files, the fold of responses into their tallies and counts, the purge of old partial responses, the digest e-mails' scheduler and the forms' daily retention. `make` and {@link layer} are
 * built on it. Throws, like `make`, on options that cannot work.
 *
 * @example
 * ```ts
 * const Runtime = Qforms.layerServices({ database: { url }, appUrl: "https://forms.example.com" })
 * ```
 */
export const layerServices = (options: QformsOptions = {}) => {
  check(options)
  const appUrl = options.appUrl ?? ""
  const configuration = Layer.succeedContext(
    Context.make(IdentityBridge, options.resolveActor).pipe(
      Context.add(DeliveryConfig, { ...DeliveryConfig.defaultValue(), ...options.delivery }),
      Context.add(Links.SentLinkBase, appUrl),
      Context.add(Files.UploadQuotas, uploadQuotas(options)),
      Context.add(Messages.MessageCatalogues, Messages.make(options.messages))
    )
  )
  const services = databaseLayer(options.database, options.files).pipe(
    Layer.merge(options.formGenerator ?? FormGenerator.layerOffline),
    Layer.merge(mailLayer(options)),
    Layer.merge(configuration),
    (layer) => rateLimitStoreLayer(options.rateLimitStore).pipe(Layer.provideMerge(layer))
  )
  const background = Layer.mergeAll(
    Files.layerSweeper,
    AuditLog.layerPruner,
    Digests.layerScheduler,
    Retention.layerScheduler,
    SlaScan.layerScheduler,
    Responses.layerPartialPurger(options.partialResponses),
    SubmissionKeys.layerSweeper.pipe(Layer.provide(SubmissionKeys.SubmissionKeys.layer)),
    ResponseFold.layerFolder,
    EventStream.EventHub.layer({ ...options.events, appUrl }),
    options.delivery?.worker === false ? Layer.empty : Worker.layer({ appUrl }),
    // Links in what the poller stores start at appUrl; the services' context carries no LinkBase (requests set theirs).
    options.mail?.imap === undefined
      ? Layer.empty
      : EmailReplies.layerImapPoller(options.mail.imap).pipe(Layer.provide(Layer.succeed(Links.LinkBase)(appUrl)))
  )
  return background.pipe(Layer.provideMerge(services), Layer.provideMerge(logging(options)))
}

/**
 * The routes of qforms (API, OpenAPI document, docs, MCP, public pages, the
 * application), on the services of {@link layerServices}.
 */
export const layerRoutes = (options: QformsOptions = {}) => Http.layer(httpOptions(options))

/**
 * The whole of qforms as one layer, for Effect applications that build their
 * own server: its routes on {@link layerServices} (services, configuration and
 * background work, delivery worker included).
 *
 * @example
 * ```ts
 * import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
 * import { Layer } from "effect"
 * import { HttpRouter } from "effect/http"
 * import { createServer } from "node:http"
 * import { Qforms } from "@qforms/core"
 *
 * HttpRouter.serve(Qforms.layer({ database: { dataDir: "./data" }, appUrl: "http://localhost:3000" })).pipe(
 *   Layer.provide(NodeHttpServer.layer(createServer, { port: 3000 })),
 *   Layer.launch,
 *   NodeRuntime.runMain
 * )
 * ```
 */
export const layer = (options: QformsOptions = {}) =>
  layerRoutes(options).pipe(Layer.provideMerge(layerServices(options)))

/**
 * The store of every rate limit's buckets. Redis is reached through
 * `@effect/platform-node/NodeRedis`, loaded only when configured.
 */
const rateLimitStoreLayer = (option: QformsOptions["rateLimitStore"]) =>
  option === undefined || option === "memory"
    ? RateLimitStore.layerMemory
    : option === "database"
      ? RateLimitStore.layerDatabase
      : RateLimitStore.layerRedis({ prefix: option.prefix }).pipe(
          Layer.provide(
            Layer.unwrap(
              Effect.map(
                Effect.promise(() => import("@effect/platform-node/NodeRedis")),
                (NodeRedis) => NodeRedis.layer({ url: option.redis })
              )
            )
          )
        )

/** The storage quotas in force: the options over the defaults. */
const uploadQuotas = (options: QformsOptions): Files.UploadQuotasConfig => ({
  maxBytesPerForm: options.uploads?.maxBytesPerForm ?? Files.defaultUploadQuotas.maxBytesPerForm,
  maxBytesPerWorkspace: options.uploads?.maxBytesPerWorkspace ?? Files.defaultUploadQuotas.maxBytesPerWorkspace
})

/**
 * Links that leave the process must be absolute, prefix-correct, and never
 * taken from a request's headers (a forged Host or X-Forwarded-Host would
 * otherwise reach someone else's inbox or chat): e-mail, webhook and chat
 * deliveries (each event's `link`) need `appUrl`. A host cannot know its
 * public origin behind proxies, so qforms refuses to start without one rather
 * than send links that point nowhere.
 */
const sentLinksProblem = (options: QformsOptions): string | undefined => {
  if (options.appUrl !== undefined && options.appUrl !== "") return undefined
  if (options.mail !== undefined) {
    return "mail needs appUrl: links in e-mails are absolute and are never taken from a request's Host or X-Forwarded-Host"
  }
  if (options.delivery?.worker !== false) {
    return (
      "appUrl is required for deliveries: each webhook and chat message carries an absolute link to the response, " +
      'so give where qforms is reached with its mount prefix (appUrl: "https://example.com/forms-service"), ' +
      "or pass delivery: { worker: false } to run without sending deliveries"
    )
  }
  return undefined
}

/**
 * Starts qforms: the database is opened and migrated before this resolves,
 * so no request can arrive while it starts.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http"
 * import { Qforms } from "@qforms/core"
 *
 * const qforms = await Qforms.make({ database: { dataDir: "./data" }, appUrl: "http://localhost:3000" })
 * createServer(qforms.nodeHandler).listen(3000)
 * process.on("SIGTERM", () => void qforms.dispose())
 * ```
 */
export const make = async (options: QformsOptions = {}): Promise<Qforms> => {
  // Bad numbers and log levels are refused before anything is opened.
  check(options)
  const scope = Scope.makeUnsafe()
  const build = Effect.gen(function* () {
    const services = yield* Layer.buildWithScope(
      layerServices(options).pipe(Layer.merge(NodeHttpServer.layerHttpServices)),
      scope
    )
    const httpEffect = yield* HttpRouter.toHttpEffect(layerRoutes(options)).pipe(
      Effect.provideContext(services),
      Effect.provideService(Scope.Scope, scope)
    )
    const hub = Context.get(services, EventStream.EventHub)
    const nodeHandler = yield* NodeHttpServer.makeHandler(httpEffect, { scope }).pipe(Effect.provideContext(services))
    const handler: (request: Request) => Promise<Response> = HttpEffect.toWebHandlerWith<
      Services.Services | SqlClient.SqlClient,
      Scope.Scope | HttpServerRequest.HttpServerRequest
    >(services)(httpEffect)
    return { services, nodeHandler, handler, hub }
  })
  const exit = await Effect.runPromiseExit(build)
  if (Exit.isFailure(exit)) {
    await Effect.runPromise(Scope.close(scope, exit))
    const error = Cause.squash(exit.cause)
    throw new Error(error instanceof Error ? error.message : String(error), { cause: error })
  }
  const { handler, hub, nodeHandler, services } = exit.value
  // Links to files made outside a request start at appUrl (requests set their own: the layer
  // context must not carry one, or it would be captured by the routes and win over the request's).
  const run = <A, E>(effect: Effect.Effect<A, E, Services.Services | SqlClient.SqlClient>) =>
    Effect.runPromise(Effect.provideContext(effect, Context.add(services, Links.LinkBase, options.appUrl ?? "")))

  const connect = async (request: Parameters<Qforms["events"]["connect"]>[0]) => {
    const result = await run(EventStream.accept(request))
    if (EventStream.isRefusal(result)) return result
    const full = Effect.runSync(hub.admit(result.credential))
    if (full !== undefined) return full
    return {
      protocol: result.protocol,
      open: (send: (text: string) => boolean, close: (code: number, reason: string) => void) => {
        const detach = Effect.runSync(
          hub.attach({
            workspaceId: result.actor.workspaceId,
            formId: result.formId,
            credential: result.credential,
            role: result.actor.role,
            linkBase: result.linkBase,
            send,
            close
          })
        )
        return () => Effect.runSync(detach)
      }
    }
  }

  const webSockets = NodeTransport.makeWebSockets(connect)

  let disposing: Promise<void> | undefined
  return {
    handler: (request) => handler(request),
    nodeHandler: (request, response, body) =>
      nodeHandler(body === undefined ? request : NodeTransport.withBody(request, body), response),
    upgradeHandler: webSockets.upgradeHandler,
    events: { connect, close: () => Effect.runPromise(hub.closeAll) },
    run,
    dispose: () => (disposing ??= webSockets.close().then(() => Effect.runPromise(Scope.close(scope, Exit.void))))
  }
}
