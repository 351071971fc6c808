/**
 * `@qforms/client`: a typed client of the qforms HTTP API on `fetch`, without dependencies. Every route of the
 * OpenAPI document qforms serves (`/api/openapi.json`) is a typed call by path and method; the types come from
 * that document (`openapi.ts`, generated). Auth with an API key, `for await` over every page of a list, retries
 * on 429 and 503 honouring `Retry-After`, errors as {@link QformsError}, multipart uploads, and the verification
 * of webhook signatures (Standard Webhooks) with typed event bodies.
 *
 * @example
 * ```ts
 * import { createClient } from "@qforms/client"
 * const qforms = createClient({ baseUrl: "https://forms.example.com", apiKey: process.env.QFORMS_KEY })
 * const form = await qforms.POST("/api/forms", { body: { title: "Contact us", fields: [] } })
 * for await (const row of qforms.paginate("/api/forms/{formId}/responses", { params: { path: { formId: form.id } } }, "responses"))
 *   console.log(row.id)
 * ```
 */
import type { paths } from "./openapi.ts"
import type { AllOptional, Data, Init, ItemOf, ListKey, Method, PagedPath, PathsWith } from "./types.ts"

export type { components, operations, paths, webhooks } from "./openapi.ts"
export type {
  Body,
  CallOptions,
  Data,
  ErrorBody,
  EventName,
  Init,
  ItemOf,
  ListKey,
  Method,
  Multipart,
  Operation,
  PagedPath,
  Params,
  PathsWith,
  Success,
  WebhookEvent,
  WebhookEvents
} from "./types.ts"
export {
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type HeadersLike,
  type WebhookHeaders,
  type VerifyOptions
} from "./webhooks.ts"

/** When and how often a refused call is tried again. */
export interface RetryOptions {
  /** Tries in all, the first included (default 3); 1 never retries. */
  readonly attempts?: number
  /** The longest wait before a retry, in ms (default 30 000): a longer `Retry-After` is not waited for, the error is thrown. */
  readonly maxDelayMs?: number
  /** The wait when the answer has no `Retry-After`, doubled on each retry (default 500 ms). */
  readonly baseDelayMs?: number
}

export interface ClientOptions {
  /**
   * Where qforms is reached, with the prefix it is mounted under, if any:
   * `https://forms.example.com` or `https://example.com/forms-service`. Paths (`/api/forms`) are appended to it.
   */
  readonly baseUrl: string | URL
  /** An API key (`qk_live_…`), sent as `Authorization: Bearer <key>`. Leave it out for the public routes only. */
  readonly apiKey?: string
  /** Headers sent with every call (a call's own `headers` win), or a function giving them for each call. */
  readonly headers?: HeadersInit | (() => HeadersInit | Promise<HeadersInit>)
  /** The `fetch` to use (default `globalThis.fetch`): a test double, a proxy agent's, a framework's. */
  readonly fetch?: (request: Request) => Promise<Response>
  /** Retries of 429 and 503 (see {@link RetryOptions}); `false` never retries. */
  readonly retry?: RetryOptions | false
}

/** The answer to a call that failed: its HTTP status and the server's `{"error": "…"}`. */
export class QformsError extends Error {
  override readonly name = "QformsError"
  /** The HTTP status (400, 401, 403, 404, 409, 413, 415, 429, 500, 503, …). */
  readonly status: number
  /** The server's message (`error` of the body), or the status text when the body has none. */
  readonly error: string
  /** The parsed body (`{"error": "…"}`, with `details` on some 400s and `requestId` on 500s), or its text. */
  readonly body: unknown
  /** `Retry-After` in seconds, on 429 and 503. */
  readonly retryAfter: number | undefined
  /** The request id the server logged, when it says (500s). */
  readonly requestId: string | undefined
  readonly method: string
  readonly url: string
  readonly headers: Headers

  constructor(init: {
    readonly status: number
    readonly body: unknown
    readonly method: string
    readonly url: string
    readonly headers: Headers
    readonly statusText?: string
  }) {
    const body = init.body as { error?: unknown; requestId?: unknown } | undefined
    const error =
      typeof body === "object" && body !== null && typeof body.error === "string"
        ? body.error
        : typeof init.body === "string" && init.body !== ""
          ? init.body
          : init.statusText || `HTTP ${init.status}`
    super(`${init.method} ${new URL(init.url).pathname}: ${init.status} ${error}`)
    this.status = init.status
    this.error = error
    this.body = init.body
    this.method = init.method
    this.url = init.url
    this.headers = init.headers
    const retryAfterMsNow = retryAfterMs(init.headers.get("retry-after"), Date.now())
    this.retryAfter = retryAfterMsNow === null ? undefined : Math.ceil(retryAfterMsNow / 1000)
    this.requestId =
      typeof body === "object" && body !== null && typeof body.requestId === "string" ? body.requestId : undefined
  }
}

/** Whether `error` is a {@link QformsError}, of the given status if one is given. */
export const isQformsError = (error: unknown, status?: number): error is QformsError =>
  error instanceof QformsError && (status === undefined || error.status === status)

/** The arguments after the path: left out when the call needs nothing. */
type Rest<P extends keyof paths, M extends Method> =
  AllOptional<Init<P, M>> extends true ? [init?: Init<P, M>] : [init: Init<P, M>]

type Call<M extends Method> = <P extends PathsWith<M>>(path: P, ...init: Rest<P, M>) => Promise<Data<P, M>>

export interface Client {
  readonly GET: Call<"get">
  readonly POST: Call<"post">
  readonly PUT: Call<"put">
  readonly PATCH: Call<"patch">
  readonly DELETE: Call<"delete">
  /** Every page of a list, one after another, following `nextCursor` until it is null. */
  readonly pages: <P extends PagedPath>(path: P, ...init: Rest<P, "get">) => AsyncIterableIterator<Data<P, "get">>
  /**
   * Every item of a list, across its pages: `for await (const row of qforms.paginate(path, init, "responses"))`.
   * `key` names the page's list (`responses`, `deliveries`); `params.query.limit` sets the page size.
   */
  readonly paginate: <P extends PagedPath, K extends ListKey<Data<P, "get">>>(
    path: P,
    init: Init<P, "get"> | undefined,
    key: K
  ) => AsyncIterableIterator<ItemOf<Data<P, "get">, K>>
  /** The URL a call would go to (the base URL, the path with its parameters, the query). */
  readonly url: <P extends keyof paths>(path: P, params?: { readonly path?: object; readonly query?: object }) => string
}

/** The statuses retried, and for which methods: 429 for every method, 503 for the idempotent ones. */
const idempotent = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"])
const retryable = (status: number, method: string) => status === 429 || (status === 503 && idempotent.has(method))

/** `Retry-After` (seconds or an HTTP date) in ms from `now`; null when absent or unreadable. */
const retryAfterMs = (value: string | null, now: number): number | null => {
  if (value === null || value.trim() === "") return null
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}

const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort)
      resolve()
    }, ms)
    signal?.addEventListener("abort", onAbort, { once: true })
  })

const appendQuery = (url: URL, query: object | undefined) => {
  if (query === undefined) return
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue
    for (const one of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(one))
  }
}

/** A body as sent: JSON, or multipart for a `FormData` or an object holding a `Blob`. */
const encode = (body: unknown, headers: Headers): BodyInit | undefined => {
  if (body === undefined) return undefined
  if (body instanceof FormData) return body
  if (
    typeof body === "object" &&
    body !== null &&
    !Array.isArray(body) &&
    Object.values(body).some((value) => value instanceof Blob)
  ) {
    const form = new FormData()
    for (const [name, value] of Object.entries(body)) {
      if (value instanceof File) form.append(name, value, value.name)
      else if (value instanceof Blob) form.append(name, value)
      else form.append(name, String(value))
    }
    return form
  }
  if (!headers.has("content-type")) headers.set("content-type", "application/json")
  return JSON.stringify(body)
}

const decode = async (response: Response): Promise<unknown> => {
  if (response.status === 204 || response.status === 205) return undefined
  const type = response.headers.get("content-type") ?? ""
  if (type.includes("json")) {
    const text = await response.text()
    return text === "" ? undefined : JSON.parse(text)
  }
  if (type.startsWith("text/")) return response.text()
  return response.blob()
}

/**
 * A client of the qforms API at `baseUrl`.
 *
 * Retries (`retry`, 3 tries by default): a 429 is retried for every method (qforms refuses it before doing
 * anything: rate limits of keys, of public submissions and uploads); a 503 (the database out of reach) only for
 * GET, HEAD, PUT, DELETE and OPTIONS, since a POST or a PATCH may have been carried out before the connection was
 * lost. Each retry waits `Retry-After` (or 0.5 s, 1 s, 2 s… when absent), never longer than `maxDelayMs`.
 */
export const createClient = (options: ClientOptions): Client => {
  const base = String(options.baseUrl).replace(/\/+$/, "")
  const doFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request))
  const retry = options.retry === false ? { attempts: 1 } : (options.retry ?? {})
  const attempts = Math.max(1, retry.attempts ?? 3)
  const maxDelayMs = retry.maxDelayMs ?? 30_000
  const baseDelayMs = retry.baseDelayMs ?? 500

  const url = (path: string, params?: { readonly path?: object; readonly query?: object }): string => {
    const values = (params?.path ?? {}) as Record<string, unknown>
    const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = values[name]
      if (value === undefined || value === null) throw new TypeError(`${path}: the path parameter ${name} is missing`)
      return encodeURIComponent(String(value))
    })
    const target = new URL(base + filled)
    appendQuery(target, params?.query)
    return target.href
  }

  const request = async (method: string, path: string, init: Record<string, unknown> | undefined) => {
    const {
      params,
      body,
      headers: own,
      signal
    } = (init ?? {}) as {
      params?: { path?: object; query?: object }
      body?: unknown
      headers?: HeadersInit
      signal?: AbortSignal
    }
    const target = url(path, params)
    const shared = typeof options.headers === "function" ? await options.headers() : options.headers
    const headers = new Headers(shared)
    if (options.apiKey !== undefined) headers.set("authorization", `Bearer ${options.apiKey}`)
    for (const [name, value] of new Headers(own)) headers.set(name, value)
    if (!headers.has("accept")) headers.set("accept", "application/json")
    const encoded = encode(body, headers)
    for (let attempt = 1; ; attempt++) {
      const response = await doFetch(
        new Request(target, {
          method,
          headers,
          ...(encoded === undefined ? {} : { body: encoded }),
          signal: signal ?? null
        })
      )
      if (response.ok) return decode(response)
      if (attempt < attempts && retryable(response.status, method)) {
        const wait = retryAfterMs(response.headers.get("retry-after"), Date.now()) ?? baseDelayMs * 2 ** (attempt - 1)
        if (wait <= maxDelayMs) {
          await response.body?.cancel()
          await sleep(wait, signal)
          continue
        }
      }
      let parsed: unknown
      try {
        parsed = await decode(response)
      } catch {
        parsed = undefined
      }
      throw new QformsError({
        status: response.status,
        statusText: response.statusText,
        body: parsed,
        method,
        url: target,
        headers: response.headers
      })
    }
  }

  const call =
    <M extends Method>(method: M): Call<M> =>
    (path, ...init) =>
      request(method.toUpperCase(), path, init[0] as Record<string, unknown> | undefined) as never

  async function* pages(path: string, init?: Record<string, unknown>): AsyncIterableIterator<unknown> {
    const params = (init?.params ?? {}) as { path?: object; query?: Record<string, unknown> }
    let cursor = params.query?.cursor as string | undefined
    for (;;) {
      const page = (await request("GET", path, {
        ...init,
        params: { ...params, query: { ...params.query, cursor } }
      })) as { nextCursor?: string | null }
      yield page
      if (typeof page?.nextCursor !== "string") return
      cursor = page.nextCursor
    }
  }

  async function* paginate(path: string, init: Record<string, unknown> | undefined, key: string) {
    for await (const page of pages(path, init)) yield* ((page as Record<string, unknown>)[key] ?? []) as Array<unknown>
  }

  return {
    GET: call("get"),
    POST: call("post"),
    PUT: call("put"),
    PATCH: call("patch"),
    DELETE: call("delete"),
    pages: pages as Client["pages"],
    paginate: paginate as Client["paginate"],
    url: url as Client["url"]
  }
}
