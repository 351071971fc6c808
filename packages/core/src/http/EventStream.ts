/**
 * The live event stream (`GET /api/events`, a WebSocket): every committed
 * event of the caller's workspace (optionally one form's), as the same JSON as
 * a webhook post, in commit order, across server processes (each process
 * LISTENs for the NOTIFY its events send). The transport (Node `ws`, h3's
 * WebSockets) only has to pass text frames in and out: see `EventStream.connect`.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type * as SqlError from "effect/sql/SqlError"
import { ApiKeys } from "../domain/ApiKeys.ts"
import { eventsChannel, Events } from "../domain/Events.ts"
import { Forms } from "../domain/Forms.ts"
import { Id } from "../domain/Ids.ts"
import { responseLink } from "../delivery/Worker.ts"
import * as Actors from "../domain/Actors.ts"
import { Sessions } from "../domain/Sessions.ts"
import { Notifications } from "../storage/Notifications.ts"
import { baseUrlOf } from "./Http.ts"
import { bearerChallenge, sessionCookie } from "./Security.ts"

/** One connected client, as the transport presents it. */
export interface StreamClient {
  readonly workspaceId: number
  readonly formId: number | undefined
  /** Where the client reached qforms (scheme, host, mount prefix): the base of each event's `link`. */
  readonly linkBase: string
  /** Sends a text frame; `false` when the client has fallen too far behind (it is then closed). */
  readonly send: (text: string) => boolean
  readonly close: (code: number, reason: string) => void
}

/** The close code for a client that does not keep up (4000–4999 are the application's). */
export const closeTooSlow = 4008

/** The subprotocol a browser offers to carry its key: `qforms.bearer.<key>`. */
export const bearerProtocolPrefix = "qforms.bearer."

/** The plain subprotocol the server selects when offered (with the key in another offer). */
export const protocol = "qforms.v1"

/** Fans committed events out to the connected clients of their workspace. */
export class EventHub extends Context.Service<EventHub, {
  /** Registers a client; the effect's result detaches it. */
  readonly attach: (client: StreamClient) => Effect.Effect<Effect.Effect<void>>
  /** Closes every stream (code 1001): the start of a graceful stop. */
  readonly closeAll: Effect.Effect<void>
}>()("@qforms/core/http/EventHub") {
  /** The hub: listens for event notices while the layer lives. `appUrl` builds each event's `link`. */
  static readonly layer = (options: { readonly appUrl: string }) =>
    Layer.effect(
      EventHub,
      Effect.gen(function*() {
        const events = yield* Events
        const notifications = yield* Notifications
        const clients = new Set<StreamClient>()

        const forward = (notice: string) =>
          Effect.gen(function*() {
            const [workspace, seq] = notice.split(":").map(Number)
            const audience = [...clients].filter((client) => client.workspaceId === workspace)
            if (audience.length === 0 || workspace === undefined || seq === undefined) return
            const event = yield* events.get(workspace, seq)
            if (event === undefined) return
            const texts = new Map<string, string>()
            for (const client of audience) {
              if (client.formId !== undefined && client.formId !== event.formId) continue
              const base = options.appUrl === "" ? client.linkBase : options.appUrl
              let text = texts.get(base)
              if (text === undefined) {
                text = JSON.stringify({ ...event.payload, link: responseLink(base, event.payload.responseId) })
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
            forward(notice).pipe(Effect.catchCause((cause) => Effect.logWarning("event stream: an event was skipped", cause)))
          ),
          Effect.retry(Schedule.spaced("1 second")),
          Effect.catchCause((cause) => Effect.logError("event stream stopped", cause)),
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
              clients.add(client)
              return Effect.sync(() => void clients.delete(client))
            }),
          closeAll
        })
      })
    )
}

/** The query of `GET /api/events`: an optional form filter. */
export const StreamQuery = Schema.Struct({ formId: Schema.optionalKey(Schema.NumberFromString.pipe(Schema.decodeTo(Id))) })

/** Why a connection is refused: the HTTP status, headers and `{error}` body to answer instead of upgrading. */
export interface Refusal {
  readonly status: 400 | 401 | 404
  readonly error: string
  readonly headers: Readonly<Record<string, string>>
}

/** An accepted connection: who it is, which form (if any), the subprotocol to select, and the base of links. */
export interface Accepted {
  readonly actor: Actors.Actor
  readonly formId: number | undefined
  readonly protocol: string | undefined
  readonly linkBase: string
}

/**
 * Checks a connection request: the key from `Authorization: Bearer …` or from
 * an offered subprotocol `qforms.bearer.<key>` (browsers cannot set headers),
 * and the `formId` filter (a form of the key's workspace).
 */
export const accept = Effect.fn("EventStream.accept")(function*(request: {
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly url: string
}): Effect.fn.Return<Accepted | Refusal, SqlError.SqlError, ApiKeys | Forms | Sessions> {
  const header = (name: string) => {
    const value = request.headers[name]
    return typeof value === "string" ? value : value?.[0]
  }
  const offered = (header("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim()).filter((p) => p !== "")
  const fromProtocol = offered.find((p) => p.startsWith(bearerProtocolPrefix))
  const authorization = header("authorization") ?? ""
  const key = /^Bearer\s+(.+)$/i.exec(authorization)?.[1]?.trim() ?? fromProtocol?.slice(bearerProtocolPrefix.length) ?? ""
  const session = key === "" ? yield* sessionActor(header("cookie"), header("origin"), header("x-forwarded-host") ?? header("host")) : undefined
  const authenticated = session === undefined
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
  const selected = offered.includes(protocol) ? protocol : fromProtocol
  return { actor, formId, protocol: selected, linkBase: baseUrlOf(request.headers, request.url, undefined) }
})

/**
 * The member of an application session cookie, when the connection comes from
 * a page of this same origin (a WebSocket is not bound by the same-origin
 * policy, so another site's page could otherwise use the cookie).
 */
const sessionActor = Effect.fnUntraced(function*(cookie: string | undefined, origin: string | undefined, host: string | undefined) {
  const id = (cookie ?? "").split(";").map((part) => part.trim().split("=")).find(([name]) => name === sessionCookie)?.[1]
  if (id === undefined || origin === undefined || host === undefined) return undefined
  if (!URL.canParse(origin) || new URL(origin).host !== host.split(",")[0]!.trim()) return undefined
  const session = yield* (yield* Sessions).resolve(id)
  return session === undefined ? undefined : Actors.member({
    workspaceId: session.workspaceId,
    accountId: session.accountId,
    role: session.role,
    name: session.name,
    via: "session"
  })
})

/** Whether a value is a refusal. */
export const isRefusal = (value: Accepted | Refusal): value is Refusal => "status" in value
