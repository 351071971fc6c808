/**
 * Passwords of application accounts: hashed with scrypt from `node:crypto`
 * (N=2^15, r=8, p=1, 16-byte salt, 32-byte key), stored as
 * `scrypt$N$r$p$salt$hash` (base64url), compared in constant time.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

/** A new password: 10 to 200 characters. */
export const NewPassword = Schema.String.check(
  Schema.isMinLength(10, { message: "the password must be at least 10 characters" }),
  Schema.isMaxLength(200, { message: "the password must be at most 200 characters" })
)

const N = 1 << 15
const R = 8
const P = 1
const KEY_LENGTH = 32
// scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is exactly that at N=2^15, so raise it a little.
const MAX_MEMORY = 64 * 1024 * 1024

const derive = (password: string, salt: Buffer, n: number, r: number, p: number) =>
  Effect.callback<Buffer>((resume) => {
    scrypt(password.normalize("NFC"), salt, KEY_LENGTH, { N: n, r, p, maxmem: MAX_MEMORY }, (error, key) => {
      resume(error === null ? Effect.succeed(key) : Effect.die(error))
    })
  })

/**
 * Hashes a password for storage.
 *
 * @example
 * ```ts
 * const stored = yield* Passwords.hash("correct horse battery")
 * ```
 */
export const hash = Effect.fn("Passwords.hash")(function* (password: string) {
  const salt = randomBytes(16)
  const key = yield* derive(password, salt, N, R, P)
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64url")}$${key.toString("base64url")}`
})

/** A stored hash of nothing anyone knows: verified against when an account is unknown, so timing tells nothing. */
const decoy = `scrypt$${N}$${R}$${P}$${randomBytes(16).toString("base64url")}$${randomBytes(32).toString("base64url")}`

/**
 * Whether `password` matches `stored` (a hash made by {@link hash}); with no
 * stored hash the same work is done against a decoy and the answer is false.
 *
 * @example
 * ```ts
 * const ok = yield* Passwords.verify("correct horse battery", account.passwordHash)
 * ```
 */
export const verify = Effect.fn("Passwords.verify")(function* (password: string, stored: string | null) {
  const parts = (stored ?? decoy).split("$")
  if (parts.length !== 6 || parts[0] !== "scrypt") return false
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])]
  const expected = Buffer.from(parts[5]!, "base64url")
  const key = yield* derive(password, Buffer.from(parts[4]!, "base64url"), n, r, p)
  return stored !== null && key.length === expected.length && timingSafeEqual(key, expected)
})

/** A random password for a generated sign-in (20 base64url characters, 120 bits). */
export const generate = (): string => randomBytes(15).toString("base64url")
