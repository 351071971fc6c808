/**
 * The contract's requests: plain `fetch` to `/api`, with a bearer key, a JSON
 * or raw body, and the answer read once (status, headers, text, parsed JSON),
 * shown to the suite's `onReply` (e.g. an OpenAPI validator) first.
 */

/** What came back: status, headers, raw text, and the parsed body when it is JSON. */
export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any
}

export interface RequestOptions {
  /** The bearer key; `null` sends no Authorization header. Defaults to A's owner key. */
  readonly key?: string | null | undefined
  /** Sent as JSON. */
  readonly body?: unknown
  /** Sent as is, with `Content-Type: application/json` unless `headers` say otherwise. */
  readonly raw?: string | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/** One request and the answer to it, as received (see {@link ContractSuiteOptions.onReply}). */
export interface Exchange {
  readonly method: string
  readonly url: string
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

/** Options of `httpContractSuite` (HttpContract.ts). */
export interface ContractSuiteOptions {
  /**
   * Run only the tests that exercise the transport (each group's
   * `transportTest`s): what an adapter or a server in front of core can break. Core runs the whole
   * contract on every database (`Http.test.ts`); a way of serving qforms runs
   * this smoke of it beside its own translation tests.
   */
  readonly smoke?: boolean | undefined
  /**
   * Sees every answer the suite receives (e.g. to check it against the OpenAPI
   * document); throwing fails the test that made the request.
   */
  readonly onReply?: ((exchange: Exchange) => void) | undefined
}

/** `fetch`, with the answer shown to `onReply` first. */
export const send = async (
  url: string,
  init: RequestInit = {},
  onReply?: ContractSuiteOptions["onReply"]
): Promise<Response> => {
  const response = await fetch(url, init)
  if (onReply !== undefined) {
    const text = await response.clone().text()
    onReply({ method: init.method ?? "GET", url, status: response.status, headers: response.headers, text })
  }
  return response
}

export const request = async (
  baseUrl: string,
  defaultKey: string,
  method: string,
  path: string,
  options: RequestOptions = {},
  onReply?: ContractSuiteOptions["onReply"]
): Promise<Reply> => {
  const headers: Record<string, string> = {}
  const key = options.key === undefined ? defaultKey : options.key
  if (key !== null) headers["authorization"] = `Bearer ${key}`
  let payload: string | undefined
  if (options.raw !== undefined) {
    payload = options.raw
    headers["content-type"] = "application/json"
  } else if (options.body !== undefined) {
    payload = JSON.stringify(options.body)
    headers["content-type"] = "application/json"
  }
  Object.assign(headers, options.headers ?? {})
  const response = await send(`${baseUrl}/api${path}`, { method, headers, body: payload ?? null }, onReply)
  const text = await response.text()
  const contentType = response.headers.get("content-type") ?? ""
  let body: unknown
  if (contentType.includes("json") && text !== "") {
    try {
      body = JSON.parse(text)
    } catch {
      body = undefined
    }
  }
  return { status: response.status, headers: response.headers, text, body }
}
