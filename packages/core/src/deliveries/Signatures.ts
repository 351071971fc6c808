/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com).
 *
 * A subscription secret is `whsec_<base64 of the key bytes>`; the signature of
 * a message is `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the
 * decoded bytes.
 *
 * @module
 */
import { createHmac, randomBytes } from "node:crypto"
import * as Effect from "effect/Effect"

const SECRET_PREFIX = "whsec_"

/**
 * The three headers of a signed Standard Webhooks message (a type literal, so it
 * is assignable to `Record<string, string>`).
 *
 * @example
 * ```ts
 * const h: WebhookHeaders = headers(secret, "evt_1", 1700000000, body)
 * h["webhook-signature"] // "v1,..."
 * ```
 */
export type WebhookHeaders = {
  readonly "webhook-id": string
  readonly "webhook-timestamp": string
  readonly "webhook-signature": string
}

/**
 * The key bytes of a secret: the base64 part of `whsec_<base64>` decoded (a
 * secret without the prefix is taken as bare base64, as `standardwebhooks` does).
 *
 * @example
 * ```ts
 * secretKey("whsec_AAEC").length // 3
 * ```
 */
export const secretKey = (secret: string): Buffer =>
  Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64")

/**
 * Signs one message: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`.
 * A fractional `timestampSeconds` is floored.
 *
 * @example
 * ```ts
 * const signature = sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_1", 1674087231, '{"a":1}')
 * // "v1,..."
 * ```
 */
export const sign = (secret: string, messageId: string, timestampSeconds: number, body: string): string => {
  const toSign = `${messageId}.${Math.floor(timestampSeconds)}.${body}`
  return `v1,${createHmac("sha256", secretKey(secret)).update(toSign, "utf8").digest("base64")}`
}

/**
 * The `webhook-id`, `webhook-timestamp` and `webhook-signature` headers for a
 * message. Keep `messageId` identical across retries (it is the receiver's
 * idempotency key); use the time of each attempt as the timestamp.
 *
 * @example
 * ```ts
 * const h = headers(subscription.secret, delivery.eventId, nowSeconds, body)
 * // { "webhook-id": "evt_1", "webhook-timestamp": "1700000000", "webhook-signature": "v1,..." }
 * ```
 */
export const headers = (secret: string, messageId: string, timestampSeconds: number, body: string): WebhookHeaders => ({
  "webhook-id": messageId,
  "webhook-timestamp": String(Math.floor(timestampSeconds)),
  "webhook-signature": sign(secret, messageId, timestampSeconds, body)
})

/**
 * A fresh subscription secret: `whsec_<base64 of 32 random bytes>`.
 *
 * @example
 * ```ts
 * const secret = yield* generateSecret // "whsec_..."
 * ```
 */
export const generateSecret: Effect.Effect<string> = Effect.sync(
  () => `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`
)
