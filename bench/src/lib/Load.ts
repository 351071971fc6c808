/**
 * Load from autocannon (programmatic API, in the harness process), and
 * single-request timing for latency-bound measurements.
 */
import autocannon from "autocannon"
import http from "node:http"

/** What one load run measured. */
export interface LoadResult {
  /** Successful (2xx) requests per second. */
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly ok: number
  readonly non2xx: number
  readonly errors: number
  readonly seconds: number
}

export interface LoadOptions {
  readonly url: string
  readonly method?: "GET" | "POST"
  readonly headers?: Record<string, string>
  /** A body per request (called for each request). */
  readonly body?: (n: number) => string
  readonly connections?: number
  /** Seconds. */
  readonly duration?: number
  /** Stop after this many requests (instead of the duration). */
  readonly amount?: number
  /** A fixed rate for the whole run (requests/s). */
  readonly overallRate?: number
}

/** Body counter shared by every run, so each submission is a new respondent. */
let counter = 0

/** Runs autocannon against `url`; throws when every request failed. */
export const load = (options: LoadOptions): Promise<LoadResult> =>
  new Promise((resolve, reject) => {
    const headers = { ...options.headers }
    const method = options.method ?? "GET"
    if (options.body !== undefined) headers["content-type"] = "application/json"
    const body = options.body
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections ?? 50,
        ...(options.amount === undefined ? { duration: options.duration ?? 10 } : { amount: options.amount }),
        ...(options.overallRate === undefined ? {} : { overallRate: options.overallRate }),
        timeout: 30,
        requests: [
          {
            method,
            headers,
            ...(body === undefined
              ? {}
              : {
                  setupRequest: (request: autocannon.Request) => ({ ...request, body: body(++counter) })
                })
          }
        ]
      },
      (error: Error | null, result: autocannon.Result) => {
        if (error) return reject(error)
        const ok = result["2xx"]
        const seconds = result.duration
        if (ok === 0) {
          return reject(
            new Error(
              `no successful request to ${method} ${options.url} (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`
            )
          )
        }
        resolve({
          rps: ok / seconds,
          p50: result.latency.p50,
          p99: result.latency.p99,
          ok,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
          seconds
        })
      }
    )
    // autocannon keeps the process alive through its own timers only while running.
    void instance
  })

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 })

/** One request, its body read to the end (counted, not kept); answers status, bytes and milliseconds. */
export const timedRequest = (
  url: string,
  options: { readonly headers?: Record<string, string>; readonly onChunk?: (chunk: Buffer) => void } = {}
): Promise<{ readonly status: number; readonly bytes: number; readonly ms: number }> =>
  new Promise((resolve, reject) => {
    const started = performance.now()
    const request = http.get(url, { agent, headers: options.headers }, (response) => {
      let bytes = 0
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length
        options.onChunk?.(chunk)
      })
      response.on("end", () => resolve({ status: response.statusCode ?? 0, bytes, ms: performance.now() - started }))
      response.on("error", reject)
    })
    request.on("error", reject)
  })

/** The p-th percentile (0–100) of `values` (nearest rank). */
export const percentile = (values: ReadonlyArray<number>, p: number): number => {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

/** The median (the mean of the two middle values for an even count). */
export const median = (values: ReadonlyArray<number>): number => {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
