/**
 * Webhook signatures as Standard Webhooks defines them (https://www.standardwebhooks.com), which qforms signs
 * with: `webhook-signature` holds `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under the
 * subscription's secret (`whsec_<base64 key>`). Web Crypto only, so it runs in browsers, Node, Deno, Bun and
 * workers alike.
 */
import type { WebhookEvent } from "./types.ts"

/** The three headers of a signed delivery. */
export type WebhookHeaders = {
  readonly "webhook-id": string
  readonly "webhook-timestamp": string
  readonly "webhook-signature": string
}

/** A request's headers: a `Headers`, or an object of them (Node's `req.headers`, {@link WebhookHeaders}). */
export type HeadersLike = Headers | { readonly [name: string]: string | ReadonlyArray<string> | undefined }

export interface VerifyOptions {
  /** How far the timestamp may be from now, in seconds, either way (default 300, as Standard Webhooks advises). */
  readonly toleranceSeconds?: number
  /** Now, in ms since the epoch (default `Date.now()`). */
  readonly now?: number
}

/** A delivery that is not signed by the secret, or signed too long ago (or in the future). */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError"
}

const prefix = "whsec_"
const encoder = new TextEncoder()

const fromBase64 = (text: string): Uint8Array<ArrayBuffer> => {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

const toBase64 = (bytes: Uint8Array): string => {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

const hmac = async (secret: string, content: string): Promise<Uint8Array> => {
  let key: Uint8Array<ArrayBuffer>
  try {
    key = fromBase64(secret.startsWith(prefix) ? secret.slice(prefix.length) : secret)
  } catch {
    throw new TypeError("the webhook secret is not `whsec_` followed by base64")
  }
  const cryptoKey = await globalThis.crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign"
  ])
  return new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(content)))
}

/** Equal in time independent of where they differ. */
const same = (a: Uint8Array, b: Uint8Array) => {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!
  return diff === 0
}

const header = (headers: HeadersLike, name: string) => {
  if (headers instanceof Headers) return headers.get(name)
  const value = headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1]
  return value === undefined ? null : typeof value === "string" ? value : value.join(", ")
}

/**
 * Signs `body` as qforms does (for tests of a receiver): the three headers to send with it.
 *
 * @example
 * ```ts
 * const headers = await signWebhook("whsec_…", "msg_1", Math.floor(Date.now() / 1000), JSON.stringify(event))
 * ```
 */
export const signWebhook = async (
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string
): Promise<WebhookHeaders> => {
  const timestamp = String(Math.floor(timestampSeconds))
  const signature = toBase64(await hmac(secret, `${id}.${timestamp}.${body}`))
  return { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": `v1,${signature}` }
}

/**
 * Checks a delivery and gives its event, typed: the body must be the raw text received (not re-serialised JSON),
 * the headers those of the request (a `Headers`, or Node's `req.headers`). Throws
 * {@link WebhookVerificationError} when no `v1` signature matches or the timestamp is outside the tolerance.
 * Deliveries may come more than once: `webhook-id` is the same on every attempt, so a receiver can skip repeats.
 *
 * @example
 * ```ts
 * const event = await verifyWebhook(process.env.QFORMS_WEBHOOK_SECRET, await request.text(), request.headers)
 * if (event.event === "response.created") console.log(event.responseId, event.answers)
 * ```
 */
export const verifyWebhook = async (
  secret: string,
  body: string,
  headers: HeadersLike,
  options: VerifyOptions = {}
): Promise<WebhookEvent> => {
  const id = header(headers, "webhook-id")
  const timestamp = header(headers, "webhook-timestamp")
  const signatures = header(headers, "webhook-signature")
  if (id === null || timestamp === null || signatures === null)
    throw new WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature")
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError("webhook-timestamp is not a number of seconds")
  const tolerance = options.toleranceSeconds ?? 300
  const now = Math.floor((options.now ?? Date.now()) / 1000)
  const sent = Number(timestamp)
  if (sent < now - tolerance) throw new WebhookVerificationError("the delivery's timestamp is too old")
  if (sent > now + tolerance) throw new WebhookVerificationError("the delivery's timestamp is in the future")
  const expected = await hmac(secret, `${id}.${timestamp}.${body}`)
  const matches = signatures.split(" ").some((entry) => {
    const [version, signature] = entry.split(",", 2)
    if (version !== "v1" || signature === undefined) return false
    try {
      return same(fromBase64(signature), expected)
    } catch {
      return false
    }
  })
  if (!matches) throw new WebhookVerificationError("no signature matches")
  return JSON.parse(body) as WebhookEvent
}
