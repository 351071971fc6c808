/**
 * Signed JSON: `base64url(JSON) "." base64url(HMAC-SHA256(secret, context JSON))`,
 * the format of the tokens and cookies the public page hands out (answer
 * tokens, device marks). Readable by whoever holds one, but any change to it
 * is caught; the context (`"qforms-answers.v1."`) keeps a token of one kind
 * from passing for another.
 *
 * @module
 */
import { createHmac, type KeyObject, timingSafeEqual } from "node:crypto"
import * as Result from "effect/Result"

const mac = (secret: Buffer | KeyObject, context: string, json: string) =>
  createHmac("sha256", secret)
    .update(context + json)
    .digest()

/**
 * Signs a JSON text (pure).
 *
 * @example
 * ```ts
 * const token = seal(secret, "qforms-device-mark.v1.", JSON.stringify({ form: "abc", sentAt: 0 }))
 * ```
 */
export const seal = (secret: Buffer | KeyObject, context: string, json: string): string =>
  `${Buffer.from(json).toString("base64url")}.${mac(secret, context, json).toString("base64url")}`

/**
 * The JSON text of a token signed with this secret and context, or why not:
 * `"malformed"` (not two base64url parts) or `"forged"` (changed, or signed
 * with another secret or context). Pure.
 *
 * @example
 * ```ts
 * const opened = unseal(secret, "qforms-device-mark.v1.", token)
 * if (Result.isSuccess(opened)) JSON.parse(opened.success)
 * ```
 */
export const unseal = (
  secret: Buffer | KeyObject,
  context: string,
  token: string
): Result.Result<string, "malformed" | "forged"> => {
  const parts = token.split(".")
  if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]!) || !/^[A-Za-z0-9_-]+$/.test(parts[1]!)) {
    return Result.fail("malformed")
  }
  const json = Buffer.from(parts[0]!, "base64url").toString("utf8")
  const given = Buffer.from(parts[1]!, "base64url")
  const expected = mac(secret, context, json)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return Result.fail("forged")
  return Result.succeed(json)
}
