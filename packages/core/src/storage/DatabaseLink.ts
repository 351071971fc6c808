/**
 * The link to PostgreSQL, watched. A dropped link or a firewall that starts
 * dropping packets closes nothing: a statement already sent waits for an
 * answer that never comes, for as long as TCP keeps retransmitting (about 15
 * minutes on Linux), and every request waiting on it hangs that long. So a
 * process on PostgreSQL keeps one connection of its own aside and asks it
 * `select 1` every second; when no answer comes within the limit (3 s), the
 * link is taken as down: every connection of the pool is cut, which fails the
 * statements waiting on them (answered 503, see `Http.ts`), new connections
 * are refused at once instead of waiting out their connect timeout, and
 * `/readyz` answers 503 with the reason. The first answer again brings it
 * back up, without a restart. Each socket also has TCP keepalive, so a link
 * that died while a connection sat idle (a LISTEN) is noticed too.
 */
import * as Net from "node:net"
import { type Duplex, PassThrough } from "node:stream"
import type * as PgConnection from "@effect/sql-pg/PgConnection"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"
import type * as SqlError from "effect/sql/SqlError"

/** Whether the database answers, and if not, why not (for `/readyz` and the log). */
export type LinkState =
  | { readonly reachable: true }
  | { readonly reachable: false; readonly reason: string; readonly since: number }

/**
 * The watched link of a process on PostgreSQL (absent on PGlite, which is in
 * the process).
 *
 * @example
 * ```ts
 * const link = yield* Effect.serviceOption(DatabaseLink)
 * if (Option.isSome(link) && !link.value.state().reachable) return json(503, { error: "the database does not answer" })
 * ```
 */
export class DatabaseLink extends Context.Service<DatabaseLink, { readonly state: () => LinkState }>()(
  "@qforms/core/storage/DatabaseLink"
) {}

/** Idle time before a socket's keepalive probes start (then 10 probes a second apart: Node's settings). */
const keepAliveMs = 10_000

/** Where a `postgres://` URL says the server listens: a host and port, or a unix socket. */
type Address = { readonly host: string; readonly port: number } | { readonly path: string }

/**
 * The server's address as the driver reads it from a libpq URL: the `host`
 * query parameter or the URL's host (a directory when it starts with `/`),
 * `localhost` when neither; the `port` parameter or the URL's port, 5432
 * when neither. Undefined when the URL cannot be read as one address (not
 * a URL, several hosts, a port out of range): `Database.layerPg` then
 * refuses to start, naming the URL's expected form.
 */
export const addressOf = (url: string): Address | undefined => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return undefined
  }
  const hostParam = parsed.searchParams.get("host")
  const named = hostParam ?? decodeURIComponent(parsed.hostname).replace(/^\[(.*)\]$/, "$1")
  if (named.includes(",")) return undefined
  const host = named === "" ? "localhost" : named
  const port = Number(parsed.searchParams.get("port") ?? (parsed.port === "" ? "5432" : parsed.port))
  if (!Number.isInteger(port) || port < 1 || port > 65535) return undefined
  return host.startsWith("/") ? { path: `${host}/.s.PGSQL.${port}` } : { host, port }
}

/** A socket to `address`, with keepalive on TCP. */
const dial = (address: Address): Net.Socket =>
  "path" in address
    ? Net.connect({ path: address.path })
    : Net.connect({
        host: address.host,
        port: address.port,
        noDelay: true,
        keepAlive: true,
        keepAliveInitialDelay: keepAliveMs
      })

/**
 * The pool's sockets: made by `stream` (the driver's `stream` option), all
 * cut at once by `cut`, refused while the link is down.
 */
export interface Sockets {
  readonly stream: () => Duplex
  /** Ends every open socket with `reason` and refuses new ones until {@link Sockets.allow}. */
  readonly cut: (reason: string) => void
  readonly allow: () => void
  readonly address: Address
}

/**
 * @example
 * ```ts
 * const sockets = DatabaseLink.makeSockets(DatabaseLink.addressOf(url)!)
 * PgClient.make({ url, stream: sockets.stream })
 * ```
 */
export const makeSockets = (address: Address): Sockets => {
  const open = new Set<Net.Socket>()
  let refused: string | undefined
  return {
    address,
    stream: () => {
      if (refused !== undefined) {
        // Fails on the next tick, once the driver listens: a connection refused at once, not after its timeout.
        const refusal = new PassThrough()
        const reason = refused
        process.nextTick(() => refusal.destroy(new Error(`the database does not answer (${reason})`)))
        return refusal
      }
      const socket = dial(address)
      open.add(socket)
      socket.once("close", () => open.delete(socket))
      return socket
    },
    cut: (reason) => {
      refused = reason
      for (const socket of open) socket.destroy(new Error(`the database does not answer (${reason})`))
      open.clear()
    },
    allow: () => {
      refused = undefined
    }
  }
}

/** Server states that mean it is going away or not up yet: its answer is no sign of a working link. */
const leavingStates: ReadonlySet<string> = new Set(["57P01", "57P02", "57P03"])

/**
 * Whether a failed check shows the server answered after all: an error it
 * sent (too many connections, a refused password) proves the link works, and
 * cutting the pool's working connections for it would make an outage of it.
 */
const serverAnswered = (error: SqlError.SqlError): boolean => {
  const cause = (error.reason as { readonly cause?: unknown }).cause
  if (typeof cause !== "object" || cause === null || !("code" in cause) || typeof cause.code !== "string") return false
  return /^[0-9A-Z]{5}$/.test(cause.code) && !leavingStates.has(cause.code)
}

/** Options of {@link watch}. */
export interface WatchOptions {
  /** How long the check waits for its answer (default 3 s). */
  readonly answerWithin?: Duration.Input | undefined
  /** The pause between checks (default 1 s). */
  readonly every?: Duration.Input | undefined
}

/**
 * The layer that watches the link of `sockets` (see the module's comment),
 * checking on a connection of its own to `url`, never one of the pool's.
 */
export const watch = (
  PgConnectionModule: typeof PgConnection,
  url: string,
  sockets: Sockets,
  options: WatchOptions = {}
): Layer.Layer<DatabaseLink> =>
  Layer.effect(
    DatabaseLink,
    Effect.gen(function* () {
      const answerWithin = Duration.fromInputUnsafe(options.answerWithin ?? "3 seconds")
      const every = Duration.fromInputUnsafe(options.every ?? "1 second")
      let state: LinkState = { reachable: true }
      let held: { readonly connection: PgConnection.PgConnection; readonly scope: Scope.Closeable } | undefined
      const drop = Effect.suspend(() => {
        const was = held
        held = undefined
        return was === undefined ? Effect.void : Scope.close(was.scope, Exit.void)
      })
      const connect = Effect.gen(function* () {
        const scope = yield* Scope.make()
        const connection = yield* Scope.provide(
          PgConnectionModule.make({
            url: Redacted.make(url),
            connectTimeout: answerWithin,
            applicationName: "qforms link check",
            stream: () => dial(sockets.address)
          }),
          scope
        ).pipe(Effect.onError(() => Scope.close(scope, Exit.void)))
        return { connection, scope }
      })
      /** One question, answered or not within the limit; a stuck one is left to end when its socket is closed. */
      const ask = Effect.gen(function* () {
        const answered = yield* Deferred.make<void, SqlError.SqlError>()
        let abandoned = false
        yield* Effect.forkDetach(
          Deferred.into(
            Effect.gen(function* () {
              if (held === undefined) {
                const made = yield* connect
                if (abandoned) return yield* Scope.close(made.scope, Exit.void)
                held = made
              }
              yield* Effect.asVoid(held.connection.query("select 1", [], false))
            }),
            answered
          )
        )
        const outcome = yield* Deferred.await(answered).pipe(Effect.timeoutOption(answerWithin), Effect.result)
        if (outcome._tag === "Success" && Option.isSome(outcome.success)) return undefined
        abandoned = true
        yield* drop
        if (outcome._tag === "Failure") {
          return serverAnswered(outcome.failure) ? undefined : outcome.failure.message
        }
        return `no answer within ${Duration.toMillis(answerWithin) / 1000} s`
      })
      // A failure that came at once (the check's own session ended by an administrator, say) is asked again
      // before the link is taken as down; a silence is not: it already took the whole limit.
      const check = Effect.gen(function* () {
        const started = yield* Effect.clockWith((clock) => clock.currentTimeMillis)
        const first = yield* ask
        if (first === undefined) return undefined
        const now = yield* Effect.clockWith((clock) => clock.currentTimeMillis)
        return now - started < Duration.toMillis(answerWithin) ? yield* ask : first
      })
      const round = Effect.gen(function* () {
        const failure = yield* check
        const now = yield* Effect.clockWith((clock) => clock.currentTimeMillis)
        if (failure === undefined && !state.reachable) {
          yield* Effect.logInfo("the database answers again").pipe(
            Effect.annotateLogs({ downForMs: now - state.since })
          )
          state = { reachable: true }
          sockets.allow()
        } else if (failure !== undefined && state.reachable) {
          state = { reachable: false, reason: failure, since: now }
          sockets.cut(failure)
          yield* Effect.logWarning("the database does not answer: its connections are cut until it does").pipe(
            Effect.annotateLogs({ reason: failure })
          )
        }
        yield* Effect.sleep(every)
      })
      // On the real clock whatever the context's: a test's TestClock moved past 3 s would otherwise time out a
      // check still waiting on a healthy server, and cut the pool under the test.
      yield* Effect.forkScoped(
        Effect.forever(round).pipe(Effect.provideService(Clock.Clock, Clock.Clock.defaultValue()))
      )
      yield* Effect.addFinalizer(() => drop)
      return DatabaseLink.of({ state: () => state })
    })
  )
