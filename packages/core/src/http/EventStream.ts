/**
 * The live event stream (`GET /api/events`, a WebSocket): every committed
 * event of the caller's workspace (optionally one form's), as the same JSON as
 * a webhook post, in commit order, across server processes (each process
 * LISTENs for the NOTIFY its events send). The transport (Node `ws`, h3's
 * WebSockets) only has to pass text frames in and out: see `EventStream.connect`.
 *
 * A stream is only as good as the credential that opened it: when a key is
 * revoked, a member removed or given another role, or a session ends (in any
 * process: the database sends the notice, see migration
 * `0016_stream_hardening`), the workspace's streams check their credential
 * again before any later event, and every stream is checked again on a timer
 * too (`recheckInterval`). Streams are capped per credential and per process.
 */
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type * as SqlError from "effect/sql/SqlError"
import { ApiKeys, type MemberRole, Sessions } from "../identity/index.ts"
import { Events, eventsChannel, sentBody } from "../events/index.ts"
import { Forms } from "../forms/index.ts"
import { Actors, Id } from "../kernel/index.ts"
import { credentialsNotice, Notifications } from "../storage/index.ts"
import { baseUrlOf, bearerChallenge, sessionCookie } from "../web/index.ts"

/** What opened a stream: a bearer API key or an application session (kept to check it again later). */
export type Credential =
  | { readonly _tag: "ApiKey"; readonly key: string }
  | { readonly _tag: "Session"; readonly id: string }

/** One connected client, as the transport presents it. */
export interface StreamClient {
  readonly workspaceId: number
  readonly formId: number | undefined
  /** The credential the stream was opened with, and the member's role then: a change of either closes it. */
  readonly credential: Credential
  readonly role: MemberRole | null
  /** Where the client reached qforms (scheme, host, mount prefix): the base of each event's `link`. */
  readonly linkBase: string
  /** Sends a text frame; `false` when the client has fallen too far behind (it is then closed). */
  readonly send: (text: string) => boolean
  readonly close: (code: number, reason: string) => void
}

/** The close code for a client that does not keep up (4000–4999 are the application's). */
export const closeTooSlow = 4008

/** The close code when the stream's key was revoked, its member removed, or its session ended (sign in or get a key again). */
export const closeUnauthorized = 4401

/** The close code when the member's role changed since the stream opened (reconnect: the stream opens with the new role). */
export const closeForbidden = 4403

/** The close code of a stream over its credential's or the process's limit (a race the handshake's 429/503 did not catch). */
export const closeTooManyStreams = 4429

/** Limits of the event stream. */
export interface EventStreamOptions {
  /** Streams one credential (an API key, an application session) may hold open in this process (default 20). */
  readonly maxStreamsPerCredential?: number | undefined
  /** Streams this process holds open in all (default 1000). */
  readonly maxStreams?: number | undefined
  /**
   * How often every open stream's credential is checked again (default one
   * minute). Revocations, removals, role changes and sign-outs are also heard
   * at once through the database; this bounds what they cannot announce (an
   * expired session, a lost notice).
   */
  readonly recheckInterval?: Duration.Input | undefined
}

/** The defaults of {@link EventStreamOptions}. */
export const defaultOptions = { maxStreamsPerCredential: 20, maxStreams: 1000, recheckInterval: "1 minute" } as const

/** Two clients share a credential when this is equal. */
const credentialKey = (credential: Credential) =>
  `${credential._tag}:${credential._tag === "ApiKey" ? credential.key : credential.id}`

/** The subprotocol a browser offers to carry its key: `qforms.bearer.<key>`. */
export const bearerProtocolPrefix = "qforms.bearer."

/** The plain subprotocol the server selects when offered (with the key in another offer). */
export const protocol = "qforms.v1"

/** Fans committed events out to the connected clients of their workspace. */
export class EventHub extends Context.Service<
  EventHub,
  {
    /**
     * Registers a client; the effect's result detaches it. A client over the
     * limits (another stream got in since `admit`) is closed at once with
     * {@link closeTooManyStreams}.
     */
    readonly attach: (client: StreamClient) => Effect.Effect<Effect.Effect<void>>
    /** Whether one more stream of this credential fits the limits: a 429/503 refusal when not. */
    readonly admit: (credential: Credential) => Effect.Effect<Refusal | undefined>
    /** Closes every stream (code 1001): the start of a graceful stop. */
    readonly closeAll: Effect.Effect<void>
  }
>()("@qforms/core/http/EventHub") {
  /** The hub: listens for event notices while the layer lives. `appUrl` builds each event's `link`. */
  static readonly layer = (options: { readonly appUrl: string } & EventStreamOptions) =>
    Layer.effect(
      EventHub,
      Effect.gen(function* () {
        const events = yield* Events
        const notifications = yield* Notifications
        const apiKeys = yield* ApiKeys
        const sessions = yield* Sessions
        const clients = new Set<StreamClient>()
        const perCredential = options.maxStreamsPerCredential ?? defaultOptions.maxStreamsPerCredential
        const perProcess = options.maxStreams ?? defaultOptions.maxStreams

        const refusal = (credential: Credential): Refusal | undefined => {
          if (clients.size >= perProcess) {
            return {
              status: 503,
              error: `this server holds its limit of ${perProcess} event streams: try again later`,
              headers: { "retry-after": "30" }
            }
          }
          const key = credentialKey(credential)
          let held = 0
          for (const client of clients) if (credentialKey(client.credential) === key) held++
          if (held >= perCredential) {
            return {
              status: 429,
              error: `this ${
                credential._tag === "ApiKey" ? "API key" : "session"
              } already holds ${perCredential} event streams, the limit: close one first`,
              headers: {}
            }
          }
          return undefined
        }

        // Why a client may no longer stream, if it may not: its credential checked again.
        const verdict = Effect.fnUntraced(function* (client: StreamClient) {
          let role: MemberRole | null
          if (client.credential._tag === "ApiKey") {
            const actor = yield* Effect.result(apiKeys.authenticate(client.credential.key, { fresh: true }))
            if (actor._tag === "Failure") {
              if (actor.failure._tag === "SqlError") return yield* Effect.fail(actor.failure)
              return { code: closeUnauthorized, reason: `key no longer valid: ${actor.failure.message}` }
            }
            role = actor.success.role
          } else {
            const session = yield* sessions.resolve(client.credential.id)
            if (session === undefined || session.workspaceId !== client.workspaceId) {
              return { code: closeUnauthorized, reason: "the session has ended: sign in again" }
            }
            role = session.role
          }
          if (role !== client.role) return { code: closeForbidden, reason: "the member's role changed: reconnect" }
          return undefined
        })

        const recheck = (workspaceId: number | undefined) =>
          Effect.suspend(() =>
            Effect.forEach(
              [...clients].filter((client) => workspaceId === undefined || client.workspaceId === workspaceId),
              (client) =>
                verdict(client).pipe(
                  Effect.map((closing) => {
                    if (closing === undefined || !clients.delete(client)) return
                    client.close(closing.code, closing.reason)
                  }),
                  // The database is unreachable: the stream stays, the next check decides.
                  Effect.catchCause((cause) =>
                    Effect.logWarning("event stream: a credential could not be checked", cause)
                  )
                ),
              { concurrency: 8, discard: true }
            )
          )

        const forward = (notice: string) =>
          Effect.gen(function* () {
            // Checked before the next notice is read: no later event reaches a stream on a dead credential.
            if (notice.startsWith(credentialsNotice))
              return yield* recheck(Number(notice.slice(credentialsNotice.length)))
            // Other notices on the channel (a changed form, the form cache's own) are not events.
            if (!/^\d+:\d+$/.test(notice)) return
            const [workspace, seq] = notice.split(":").map(Number)
            const audience = [...clients].filter((client) => client.workspaceId === workspace)
            if (audience.length === 0 || workspace === undefined || seq === undefined) return
            const event = yield* events.get(workspace, seq)
            if (event === undefined) return
            const texts = new Map<string, string>()
            for (const client of audience) {
              if (client.formId !== undefined && client.formId !== event.payload.form.id) continue
              const base = options.appUrl === "" ? client.linkBase : options.appUrl
              let text = texts.get(base)
              if (text === undefined) {
                text = sentBody(base, event.payload)
                texts.set(base, text)
              }
              if (!client.send(text)) {
                clients.delete(client)
                client.close(closeTooSlow, "too far behind: reconnect and catch up through the API")
              }
            }
          })

        // One notice at a time, so each client sees its events in commit order.
        yield* notifications.listen(eventsChannel).pipe(
          Stream.runForEach((notice) =>
            forward(notice).pipe(
              Effect.catchCause((cause) => Effect.logWarning("event stream: an event was skipped", cause))
            )
          ),
          Effect.retry(Schedule.spaced("1 second")),
          Effect.catchCause((cause) => Effect.logError("event stream stopped", cause)),
          Effect.forkScoped
        )
        // And every stream on a timer: what no notice announces (an expired session, a notice lost with a connection).
        yield* recheck(undefined).pipe(
          Effect.delay(options.recheckInterval ?? defaultOptions.recheckInterval),
          Effect.forever,
          Effect.forkScoped
        )

        const closeAll = Effect.sync(() => {
          for (const client of clients) client.close(1001, "server stopping")
          clients.clear()
        })
        // Stopping qforms closes every stream, whatever transport carries it.
        yield* Effect.addFinalizer(() => closeAll)

        return EventHub.of({
          attach: (client) =>
            Effect.sync(() => {
              const over = refusal(client.credential)
              if (over !== undefined) {
                client.close(
                  closeTooManyStreams,
                  over.status === 429 ? "too many streams for this credential" : "too many streams"
                )
                return Effect.void
              }
              clients.add(client)
              return Effect.sync(() => void clients.delete(client))
            }),
          admit: (credential) => Effect.sync(() => refusal(credential)),
          closeAll
        })
      })
    )
}

/** The query of `GET /api/events`: an optional form filter. */
export const StreamQuery = Schema.Struct({
  formId: Schema.optionalKey(Schema.NumberFromString.pipe(Schema.decodeTo(Id)))
})

/** An accepted event-stream connection, waiting for its transport. */
export interface EventConnection {
  /** The subprotocol to select in the handshake, if any. */
  readonly protocol: string | undefined
  /** Registers the client: `send` a text frame (false when it is too far behind), `close` it. Returns a detach function. */
  readonly open: (send: (text: string) => boolean, close: (code: number, reason: string) => void) => () => void
}

/** Why a connection is refused: the HTTP status, headers and `{error}` body to answer instead of upgrading. */
export interface Refusal {
  readonly status: 400 | 401 | 404 | 429 | 503
  readonly error: string
  readonly headers: Readonly<Record<string, string>>
}

/** An accepted connection: who it is (and by which credential), which form (if any), the subprotocol to select, and the base of links. */
export interface Accepted {
  readonly actor: Actors.Actor
  readonly credential: Credential
  readonly formId: number | undefined
  readonly protocol: string | undefined
  readonly linkBase: string
}

/**
 * Checks a connection request: the key from `Authorization: Bearer …` or from
 * an offered subprotocol `qforms.bearer.<key>` (browsers cannot set headers;
 * `qforms.v1` must be offered with it, and is the one selected: the server
 * never sends the key back), and the `formId` filter (a form of the key's
 * workspace).
 */
export const accept = Effect.fn("EventStream.accept")(function* (request: {
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly url: string
}): Effect.fn.Return<Accepted | Refusal, SqlError.SqlError, ApiKeys | Forms | Sessions> {
  const header = (name: string) => {
    const value = request.headers[name]
    return typeof value === "string" ? value : value?.[0]
  }
  const offered = (header("sec-websocket-protocol") ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "")
  const fromProtocol = offered.find((p) => p.startsWith(bearerProtocolPrefix))
  if (fromProtocol !== undefined && !offered.includes(protocol)) {
    // The handshake answers one of the offered subprotocols: without qforms.v1, that would be the key.
    return {
      status: 400,
      error: `offer the subprotocol ${protocol} next to ${bearerProtocolPrefix}<key>: the server selects ${protocol}`,
      headers: {}
    }
  }
  const authorization = header("authorization") ?? ""
  const key =
    /^Bearer\s+(.+)$/i.exec(authorization)?.[1]?.trim() ?? fromProtocol?.slice(bearerProtocolPrefix.length) ?? ""
  const signedIn =
    key === ""
      ? yield* sessionActor(header("cookie"), header("origin"), header("x-forwarded-host") ?? header("host"))
      : undefined
  const session = signedIn?.actor
  const authenticated =
    session === undefined
      ? yield* Effect.result((yield* ApiKeys).authenticate(key))
      : { _tag: "Success" as const, success: session }
  if (authenticated._tag === "Failure") {
    if (authenticated.failure._tag === "SqlError") return yield* Effect.fail(authenticated.failure)
    return {
      status: 401,
      error: authenticated.failure.message,
      headers: { "www-authenticate": bearerChallenge(authenticated.failure.message) }
    }
  }
  const actor = authenticated.success
  const search = new URL(request.url, "http://qforms").searchParams
  const query = Schema.decodeUnknownExit(StreamQuery)(Object.fromEntries(search))
  if (query._tag === "Failure") {
    return { status: 400, error: "formId: must be an id: an integer from 1 to 2147483647", headers: {} }
  }
  const formId = query.value.formId
  if (formId !== undefined) {
    const found = yield* Effect.result((yield* Forms).getSummary(actor, formId))
    if (found._tag === "Failure") {
      if (found.failure._tag === "SqlError") return yield* Effect.fail(found.failure)
      return { status: 404, error: found.failure.message, headers: {} }
    }
  }
  return {
    actor,
    credential: signedIn === undefined ? { _tag: "ApiKey", key } : { _tag: "Session", id: signedIn.id },
    formId,
    protocol: offered.includes(protocol) ? protocol : undefined,
    linkBase: baseUrlOf(request.headers, request.url, undefined)
  }
})

/**
 * The member of an application session cookie, when the connection comes from
 * a page of this same origin (a WebSocket is not bound by the same-origin
 * policy, so another site's page could otherwise use the cookie).
 */
const sessionActor = Effect.fnUntraced(function* (
  cookie: string | undefined,
  origin: string | undefined,
  host: string | undefined
) {
  const id = (cookie ?? "")
    .split(";")
    .map((part) => part.trim().split("="))
    .find(([name]) => name === sessionCookie)?.[1]
  if (id === undefined || origin === undefined || host === undefined) return undefined
  if (!URL.canParse(origin) || new URL(origin).host !== host.split(",")[0]!.trim()) return undefined
  const session = yield* (yield* Sessions).resolve(id)
  return session === undefined
    ? undefined
    : {
        id,
        actor: Actors.member({
          workspaceId: session.workspaceId,
          accountId: session.accountId,
          role: session.role,
          name: session.name,
          via: "session"
        })
      }
})

/** Whether a value is a refusal. */
export const isRefusal = (value: Accepted | Refusal): value is Refusal => "status" in value
