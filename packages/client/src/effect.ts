/**
 * `@qforms/client/effect`: for Effect users, Effect's `HttpApiClient` for qforms' own API definition
 * (`Api.Documented` of `@qforms/core/api`: the API, the public submission and uploads, the documents, the health
 * probes). Calls are Effects whose errors are the API's own errors (`NotFound`, `BadRequest`, …), decoded
 * with the same Schemas the server encodes with. Needs `effect` and `@qforms/core` (peer dependencies), and an
 * `HttpClient` (`FetchHttpClient.layer`, or the platform's).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { FetchHttpClient } from "effect/http"
 * import * as QformsEffect from "@qforms/client/effect"
 *
 * const program = Effect.gen(function* () {
 *   const qforms = yield* QformsEffect.make({ baseUrl: "https://forms.example.com", apiKey: "qk_live_…" })
 *   const form = yield* qforms.forms.get({ params: { id: 12 } })
 *   return form.title
 * })
 * Effect.runPromise(program.pipe(Effect.provide(FetchHttpClient.layer)))
 * ```
 */
import { Documented } from "@qforms/core/api"
import type * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiClient from "effect/http-api/HttpApiClient"

/** The API definition the client is made from (the one the server serves and documents). */
export const Api: typeof Documented = Documented

/** The groups of endpoints of {@link Api}. */
export type Groups = typeof Documented extends HttpApi.HttpApi<string, infer G> ? G : never

export interface EffectClientOptions {
  /** Where qforms is reached, with its mount prefix if any (`https://example.com/forms-service`). */
  readonly baseUrl: string | URL
  /** An API key, sent as `Authorization: Bearer <key>`; leave it out for the public routes only. */
  readonly apiKey?: string
  /** More changes to the `HttpClient` (retries, tracing, headers), after the key is added. */
  readonly transformClient?: (client: HttpClient.HttpClient) => HttpClient.HttpClient
}

/** The client: one method per endpoint, by group (`forms.get`, `responses.list`, `public.submit`, …). */
export type Client = HttpApiClient.Client<Groups>

/** Effect's `HttpApiClient` for the qforms API at `baseUrl`, with the key as a bearer token. */
export const make = (options: EffectClientOptions): Effect.Effect<Client, never, HttpClient.HttpClient> =>
  HttpApiClient.make(Api, {
    baseUrl: String(options.baseUrl).replace(/\/+$/, ""),
    transformClient: (client) => {
      const keyed =
        options.apiKey === undefined
          ? client
          : HttpClient.mapRequest(client, HttpClientRequest.bearerToken(options.apiKey))
      return options.transformClient === undefined ? keyed : options.transformClient(keyed)
    }
  })
