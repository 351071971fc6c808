/**
 * Posts one webhook request to a vetted target: connects only to the vetted
 * address, follows no redirects, bounds time and response size, never fails.
 *
 * @module
 */
import type { IncomingMessage, RequestOptions } from "node:http"
import { Agent as HttpAgent, request as httpRequest, validateHeaderName, validateHeaderValue } from "node:http"
import { Agent as HttpsAgent, request as httpsRequest } from "node:https"
import type { LookupFunction } from "node:net"
import { isIP } from "node:net"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import type * as Scope from "effect/Scope"
import type { VettedTarget } from "./SsrfGuard.ts"

/**
 * How much of a response body is read and kept (64 KiB); the connection is
 * closed once that much has arrived.
 *
 * @example
 * ```ts
 * result.body.length <= MAX_RESPONSE_BODY_BYTES // for ASCII bodies
 * ```
 */
export const MAX_RESPONSE_BODY_BYTES = 64 * 1024

/**
 * The outcome of one post. `status` is set only when a complete response
 * (status line, headers and the body up to {@link MAX_RESPONSE_BODY_BYTES}) was
 * received; then `error` is `null`. Otherwise `status` is `null` and `error`
 * says why (`"timed out after 10000 ms"`, `"connection refused: ..."`).
 *
 * @example
 * ```ts
 * const ok = result.status !== null && result.status >= 200 && result.status < 300
 * ```
 */
export interface SendResult {
  readonly status: number | null
  /** The first 64 KiB of the response body, decoded as UTF-8. */
  readonly body: string
  readonly durationMs: number
  readonly error: string | null
  /** The raw `Retry-After` header of the response, if any. */
  readonly retryAfter: string | undefined
}

/**
 * Options of {@link post}.
 *
 * @example
 * ```ts
 * const options: PostOptions = { timeoutMs: 10_000, userAgent: "qforms-webhooks/1.0.0" }
 * ```
 */
export interface PostOptions {
  /** Deadline for the whole exchange: connecting, sending, the response and its body. */
  readonly timeoutMs: number
  readonly userAgent: string
  /** Keep-alive connections to reuse (see {@link makeConnections}); without it each post uses its own connection. */
  readonly connections?: Connections | undefined
}

/**
 * Keep-alive connections of one worker, one `http.Agent` per vetted
 * destination: scheme, host name, port and the vetted address. A pooled
 * connection was opened to that address only, so reusing it never reaches
 * another address, even when the name resolves elsewhere by now (the next
 * vetting then picks another agent).
 *
 * @example
 * ```ts
 * const connections = yield* Sender.makeConnections({ maxDestinations: 256 })
 * yield* Sender.post(target, body, headers, { timeoutMs: 10_000, userAgent: "qforms-webhooks/1.0", connections })
 * ```
 */
export interface Connections {
  /** The agent for a vetted destination (created on first use). */
  readonly agentFor: (target: VettedTarget) => HttpAgent
}

/** How long an idle pooled connection is kept, in ms (below the 5 s `keepAliveTimeout` of Node servers). */
const IDLE_CONNECTION_MS = 4_000

/**
 * Keep-alive connections for {@link post}, closed with the scope. At most
 * `maxDestinations` agents are kept; the one used longest ago is closed first.
 *
 * @example
 * ```ts
 * const connections = yield* Sender.makeConnections({ maxDestinations: 256 })
 * ```
 */
export const makeConnections = (options: {
  readonly maxDestinations: number
}): Effect.Effect<Connections, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => {
      // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
      const agents = new Map<string, HttpAgent>()
      const agentFor = (target: VettedTarget): HttpAgent => {
        const url = target.url
        const key = `${url.protocol}//${url.hostname}:${url.port}@${target.address}`
        let agent = agents.get(key)
        if (agent !== undefined) {
          agents.delete(key)
          agents.set(key, agent)
          return agent
        }
        // `timeout` only closes idle pooled sockets here: post() enforces its own deadline.
        const agentOptions = { keepAlive: true, timeout: IDLE_CONNECTION_MS, scheduling: "lifo" as const }
        agent = url.protocol === "https:" ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions)
        agents.set(key, agent)
        if (agents.size > options.maxDestinations) {
          const [oldestKey, oldest] = agents.entries().next().value!
          agents.delete(oldestKey)
          oldest.destroy()
        }
        return agent
      }
      return { agentFor, agents }
    }),
    ({ agents }) =>
      Effect.sync(() => {
        for (const agent of agents.values()) agent.destroy()
        agents.clear()
      })
  ).pipe(Effect.map(({ agentFor }): Connections => ({ agentFor })))

type Outcome = Omit<SendResult, "durationMs">

const failure = (error: string): Outcome => ({ status: null, body: "", error, retryAfter: undefined })

const ERROR_TEXT: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset by the receiver",
  EPIPE: "connection closed by the receiver",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "DNS lookup failed temporarily"
}

const describeError = (error: unknown): string => {
  const message =
    Predicate.hasProperty(error, "message") && Predicate.isString(error.message) ? error.message : String(error)
  const code = Predicate.hasProperty(error, "code") && Predicate.isString(error.code) ? error.code : undefined
  const text = code === undefined ? undefined : ERROR_TEXT[code]
  return text === undefined ? message : `${text}: ${message}`
}

const requestHeaders = (
  target: VettedTarget,
  body: string,
  headers: Readonly<Record<string, string>>,
  options: PostOptions
): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value
  out["content-type"] = "application/json"
  out["user-agent"] = options.userAgent
  out["content-length"] = String(Buffer.byteLength(body, "utf8"))
  out["host"] = target.url.host
  return out
}

const validateHeaders = (headers: Readonly<Record<string, string>>) =>
  Effect.try({
    try: () => {
      for (const [name, value] of Object.entries(headers)) {
        validateHeaderName(name)
        validateHeaderValue(name, value)
      }
    },
    catch: (error) => `invalid request header: ${describeError(error)}`
  })

const exchange = (
  target: VettedTarget,
  body: string,
  headers: Record<string, string>,
  connections: Connections | undefined
): Effect.Effect<Outcome> =>
  Effect.callback<Outcome>((resume) => {
    const url = target.url
    const https = url.protocol === "https:"
    const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname
    const literal = isIP(hostname) !== 0
    // Connect only to the vetted address: an IP-literal host is replaced by it, a DNS name
    // is "resolved" by a lookup that answers with it. Host header and SNI keep the URL's name.
    const lookup: LookupFunction = (_name, lookupOptions, callback) => {
      if (lookupOptions.all === true) callback(null, [{ address: target.address, family: target.family }])
      else callback(null, target.address, target.family)
    }
    const requestOptions: RequestOptions & { servername?: string } = {
      method: "POST",
      hostname: literal ? target.address : hostname,
      port: url.port === "" ? (https ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers,
      agent: connections === undefined ? false : connections.agentFor(target),
      lookup,
      ...(https && !literal ? { servername: hostname } : {})
    }
    let settled = false
    // Set once the whole response has arrived: a connection error after that does not undo it.
    let received: (() => void) | undefined
    const settle = (outcome: Outcome) => {
      if (settled) return
      settled = true
      resume(Effect.succeed(outcome))
    }
    const req = https ? httpsRequest(requestOptions) : httpRequest(requestOptions)
    req.on("error", (error) => (received === undefined ? settle(failure(describeError(error))) : received()))
    req.on("response", (res: IncomingMessage) => {
      const chunks: Array<Buffer> = []
      let size = 0
      const retryAfter = res.headers["retry-after"]
      const complete = () =>
        settle({
          status: res.statusCode ?? null,
          body: Buffer.concat(chunks).toString("utf8"),
          error: null,
          retryAfter
        })
      res.on("data", (chunk: Buffer) => {
        if (settled) return
        const room = MAX_RESPONSE_BODY_BYTES - size
        if (chunk.length >= room) {
          chunks.push(chunk.subarray(0, room))
          size = MAX_RESPONSE_BODY_BYTES
          complete()
          req.destroy()
          return
        }
        chunks.push(chunk)
        size += chunk.length
      })
      // Resume after the agent has taken the connection back (it does so right after "end"),
      // so that the next post to the destination can reuse it.
      res.on("end", () => {
        received = complete
        setImmediate(complete)
      })
      res.on("error", (error) => settle(failure(`error reading the response body: ${describeError(error)}`)))
      res.on("close", () => {
        if (res.complete) complete()
        else settle(failure("connection closed before the response body was complete"))
      })
    })
    req.end(body)
    return Effect.sync(() => {
      settled = true
      req.destroy()
    })
  }).pipe(Effect.catchDefect((defect) => Effect.succeed(failure(describeError(defect)))))

/**
 * POSTs `body` to `target.url`, connecting only to `target.address` (the Host
 * header and TLS SNI/certificate name stay the URL's host name), with
 * `content-type: application/json`, `user-agent` and the given headers.
 * Redirects are not followed (a 3xx is returned as is). The whole exchange
 * must finish within `timeoutMs`; at most 64 KiB of the response body is read,
 * then the connection is closed. Never fails: timeouts, refused or reset
 * connections and TLS errors come back as `{ status: null, error }`.
 * Each call uses its own connection unless `options.connections` is given,
 * then connections to the same vetted destination are kept alive and reused.
 *
 * @example
 * ```ts
 * const target = yield* SsrfGuard.vet(subscription.targetUrl, { allowPrivate: false })
 * const result = yield* post(target, body, Signatures.headers(secret, id, nowSeconds, body), {
 *   timeoutMs: 10_000,
 *   userAgent: "qforms-webhooks/1.0.0"
 * })
 * if (result.status === 429 || result.status === 503) parseRetryAfter(result.retryAfter, nowMs)
 * ```
 */
export const post = Effect.fn("Sender.post")(function* (
  target: VettedTarget,
  body: string,
  headers: Readonly<Record<string, string>>,
  options: PostOptions
): Effect.fn.Return<SendResult> {
  const started = yield* Clock.currentTimeMillis
  const allHeaders = requestHeaders(target, body, headers, options)
  const outcome = yield* validateHeaders(allHeaders).pipe(
    Effect.matchEffect({
      onFailure: (error) => Effect.succeed(failure(error)),
      onSuccess: () =>
        exchange(target, body, allHeaders, options.connections).pipe(
          Effect.timeoutOption(Math.max(0, options.timeoutMs)),
          Effect.map(Option.getOrElse(() => failure(`timed out after ${options.timeoutMs} ms`)))
        )
    })
  )
  const finished = yield* Clock.currentTimeMillis
  return { ...outcome, durationMs: finished - started }
})
