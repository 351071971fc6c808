/**
 * What the client's methods take and give, derived from the generated types of the API (`openapi.ts`): for a
 * path and a method, its parameters, its body, its success body and its error bodies.
 */
import type { paths, webhooks } from "./openapi.ts"

/** The HTTP methods the API uses. */
export type Method = "get" | "put" | "post" | "patch" | "delete"

/** The paths of the API that answer `M`. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: [NonNullable<paths[P][M]>] extends [never] ? never : P
}[keyof paths]

/** The operation (parameters, request body, responses) of `M` on `P`. */
export type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>

// biome-ignore lint/complexity/noBannedTypes: "no keys", as the conditional types below need it
type Empty = {}

type PathParams<O> = O extends { parameters: { path: infer X } } ? { path: X } : Empty
type QueryParams<O> = O extends { parameters: { query: infer X } }
  ? { query: X }
  : O extends { parameters: { query?: infer X } }
    ? [NonNullable<X>] extends [never]
      ? Empty
      : { query?: NonNullable<X> }
    : Empty

/** The path and query parameters of an operation. */
export type Params<O> = PathParams<O> & QueryParams<O>

/** A multipart body: a `FormData`, or its fields as an object (files as `Blob`s, a `File` keeps its name). */
export type Multipart<J> = FormData | { [K in keyof J]: Blob | string | number }

type BodyContent<C> = C extends { "application/json": infer J }
  ? J
  : C extends { "multipart/form-data": infer J }
    ? Multipart<J>
    : never

/** The request body of an operation. */
export type Body<O> = O extends { requestBody: { content: infer C } }
  ? BodyContent<C>
  : O extends { requestBody?: { content: infer C } }
    ? BodyContent<C> | undefined
    : never

type BodyInit<O> = [Body<O>] extends [never]
  ? { body?: undefined }
  : undefined extends Body<O>
    ? { body?: Body<O> }
    : { body: Body<O> }

type ParamsInit<O> = Empty extends Params<O> ? { params?: Params<O> } : { params: Params<O> }

/** What every call may add: headers of its own, and a signal to abort it (its retries and their waits too). */
export interface CallOptions {
  readonly headers?: HeadersInit
  readonly signal?: AbortSignal
}

/** The second argument of a call of `M` on `P`: its parameters, its body and the call's options. */
export type Init<P extends keyof paths, M extends Method> = ParamsInit<Operation<P, M>> &
  BodyInit<Operation<P, M>> &
  CallOptions

/** `true` when every key of `T` is optional, so the call's second argument may be left out. */
export type AllOptional<T> = Empty extends T ? true : false

type Content<R> = R extends { content: infer C }
  ? C extends { "application/json": infer J }
    ? J
    : [Extract<keyof C, `text/${string}`>] extends [never]
      ? Blob
      : string
  : undefined

type SuccessStatus = 200 | 201 | 202 | 204
type Responses<O> = O extends { responses: infer R } ? R : Record<number, unknown>

/** The body of a successful answer (JSON parsed; `text/*` as a string; other types as a `Blob`; 204 as `undefined`). */
export type Success<O> = {
  [S in keyof Responses<O>]: S extends SuccessStatus ? Content<Responses<O>[S]> : never
}[keyof Responses<O>]

/** The error bodies an operation documents (every one `{"error": "…"}`, some with more). */
export type ErrorBody<O> = {
  [S in keyof Responses<O>]: S extends SuccessStatus ? never : Content<Responses<O>[S]>
}[keyof Responses<O>]

/** The success body of `M` on `P`. */
export type Data<P extends keyof paths, M extends Method> = Success<Operation<P, M>>

/** The GET paths that page: they take a `cursor` and answer with a `nextCursor`. */
export type PagedPath = {
  [P in PathsWith<"get">]: Operation<P, "get"> extends { parameters: { query?: { cursor?: string } } }
    ? Data<P, "get"> extends { nextCursor: string | null }
      ? P
      : never
    : never
}[PathsWith<"get">]

/** The keys of a page that hold a list. */
export type ListKey<T> = { [K in keyof T]-?: NonNullable<T[K]> extends ReadonlyArray<unknown> ? K : never }[keyof T] &
  string

/** The items of a page's list under `K`. */
export type ItemOf<T, K extends keyof T> = NonNullable<T[K]> extends ReadonlyArray<infer I> ? I : never

/** The events qforms posts to webhooks, by name, each with its body (`event` names it). */
export type WebhookEvents = {
  [N in keyof webhooks]: NonNullable<webhooks[N]["post"]> extends {
    requestBody: { content: { "application/json": infer J } }
  }
    ? J & { readonly event: N }
    : never
}

/** The name of an event (`response.created`, `form.published`, …). */
export type EventName = keyof WebhookEvents

/** The body of any event (narrow it on `event`), or of the event `N`. */
export type WebhookEvent<N extends EventName = EventName> = WebhookEvents[N]
