/**
 * A real qforms HTTP server on an ephemeral loopback port, on one of the test
 * databases, with a handle to seed data through the same services.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, ManagedRuntime } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import type { SqlClient } from "effect/sql"
import {
  type AppOptions,
  BlobStore,
  FormGenerator,
  type PublicPage,
  Qforms,
  type RateLimitConfig,
  type ResolveActor,
  type Services
} from "@qforms/core"
import type { DatabaseTarget } from "./Databases.ts"
import { testHttpServer } from "./Loopback.ts"

export interface TestServer {
  /** e.g. "http://127.0.0.1:54321"; the API is at `${url}/api` */
  readonly url: string
  /** Runs an effect against the server's own services and database (for seeding). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, Services.Services | SqlClient.SqlClient>) => Promise<A>
  readonly close: () => Promise<void>
}

export interface TestServerOptions {
  /** Token bucket per API key; default 20 requests/s with burst 100. */
  readonly rateLimit?: RateLimitConfig | undefined
  /** Settings of the public form page (limits, minimum time, framing). */
  readonly publicPage?: PublicPage.PublicPageOptions | undefined
  /** Uploads per client address; default bursts of 30, then one every 2 seconds. */
  readonly uploadRateLimit?: RateLimitConfig | undefined
  /** Storage quotas of uploaded files (default 1 GiB per form, 10 GiB per workspace). */
  readonly uploads?: Qforms.QformsOptions["uploads"] | undefined
  /** Where uploaded files go (default: a temporary directory removed on close). */
  readonly filesDirectory?: string | undefined
  /** A blob store for uploaded files instead (e.g. S3 on the test kit's `S3Server`); wins over `filesDirectory`. */
  readonly filesStore?: Layer.Layer<BlobStore.BlobStore, BlobStore.BlobStoreError> | undefined
  /** Serve the application at /app (sign-in, screens). */
  readonly app?: AppOptions | boolean | undefined
  /** The host's identity bridge (its signed-in users act as members). */
  readonly resolveActor?: ResolveActor | undefined
  /** Where qforms is reached (needed with `mail`: links in e-mails are absolute). */
  readonly appUrl?: string | undefined
  /** E-mail through a mailer (e.g. the test kit's SMTP sink); give `delivery.worker` to send what is queued. */
  readonly mail?: Qforms.QformsOptions["mail"] | undefined
  /** Delivery settings; by default no delivery worker runs. */
  readonly delivery?: Qforms.QformsOptions["delivery"] | undefined
  /** The host's own messages over the built-in catalogues. */
  readonly messages?: Qforms.QformsOptions["messages"] | undefined
}

/** Starts qforms one way or another, on a test database. */
export type StartServer = (target: DatabaseTarget, options?: TestServerOptions) => Promise<TestServer>

/** The options a test passes on to `Qforms` as they are, whichever way it is started. */
const passedOn = (options: TestServerOptions) => ({
  rateLimit: options.rateLimit,
  uploadRateLimit: options.uploadRateLimit,
  uploads: options.uploads,
  publicPage: options.publicPage,
  app: options.app,
  resolveActor: options.resolveActor,
  mail: options.mail,
  messages: options.messages,
  appUrl: options.appUrl
})

/** Where uploaded files go, as `Qforms` takes it: the store, the directory, or core's default. */
const filesOption = (options: TestServerOptions): { readonly files?: Qforms.QformsOptions["files"] } =>
  options.filesStore !== undefined
    ? { files: { store: options.filesStore } }
    : options.filesDirectory !== undefined
      ? { files: { directory: options.filesDirectory } }
      : {}

export const startTestServer: StartServer = async (
  target: DatabaseTarget,
  options: TestServerOptions = {}
): Promise<TestServer> => {
  const { database, cleanup } = target.options()
  // The one composition root: the services and routes `Qforms.make` runs, served here on an ephemeral port.
  const qformsOptions: Qforms.QformsOptions = {
    ...passedOn(options),
    database,
    ...filesOption(options),
    formGenerator: FormGenerator.FormGenerator.layerNone,
    delivery: { worker: false, ...options.delivery }
  }
  const runtime = ManagedRuntime.make(Qforms.layerServices(qformsOptions))
  const context = await runtime.context()
  const server = HttpRouter.serve(Qforms.layerRoutes(qformsOptions), { disableLogger: true }).pipe(
    Layer.provideMerge(NodeHttpServer.layer(testHttpServer, { port: 0, host: "127.0.0.1" })),
    Layer.provide(Layer.succeedContext(context))
  )
  const serverRuntime = ManagedRuntime.make(server)
  const address = await serverRuntime.runPromise(Effect.map(HttpServer.HttpServer, (s) => s.address))
  return {
    url: HttpServer.formatAddress(address).replace(/\/$/, ""),
    run: (effect) => runtime.runPromise(effect),
    close: async () => {
      await serverRuntime.dispose()
      await runtime.dispose()
      await cleanup()
    }
  }
}

export const startWithQforms =
  (
    mount: (qforms: Qforms.Qforms) => Promise<{ readonly url: string; readonly close: () => Promise<void> }>
  ): StartServer =>
  async (target, options = {}) => {
    const { database, cleanup } = target.options()
    const qforms = await Qforms.make({
      ...passedOn(options),
      database,
      // The contract suite checks no deliveries, and a host's address is known only once `mount` has listened.
      delivery: { worker: false },
      // Never the default directory under the working directory: a temporary one, removed on dispose.
      files: filesOption(options).files ?? { store: BlobStore.layerTemporary }
    })
    const host = await mount(qforms)
    return {
      url: host.url,
      run: qforms.run,
      close: async () => {
        await host.close()
        await qforms.dispose()
        await cleanup()
      }
    }
  }
