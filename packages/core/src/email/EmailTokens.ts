/**
 * E-mail tokens: the signed, unguessable parts of the addresses an e-mail to
 * a respondent carries: its open pixel (`/t/o/{token}`), each tracked link
 * (`/t/c/{token}`), and its reply address (`reply+{token}@…`). A token names
 * what it is about (an e-mail and a link index, or a response) followed by an
 * HMAC-SHA256 of that, in lower-case hex (reply addresses may be lower-cased
 * by mail systems). The secret is made once and kept in `signing_secrets`,
 * like the answer tokens' (see `AnswerTokens.ts`).
 */
import { createHmac, type KeyObject, timingSafeEqual } from "node:crypto"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SqlError from "effect/sql/SqlError"
import { SigningSecrets } from "../kernel/index.ts"

/** What a token is about. */
export type EmailToken =
  | { readonly kind: "open"; readonly emailId: number }
  | { readonly kind: "click"; readonly emailId: number; readonly link: number }
  | { readonly kind: "reply"; readonly responseId: number }

/** The token is malformed, changed, or not made by this server. */
export class InvalidEmailToken extends Schema.TaggedError<InvalidEmailToken>()("InvalidEmailToken", {
  message: Schema.String
}) {}

const SECRET_NAME = "email_tokens"

/** Hex characters of the MAC: 128 bits for links, 80 for reply addresses (which must fit a 64-character local part). */
const macLength = (kind: EmailToken["kind"]) => (kind === "reply" ? 20 : 32)

const subjectOf = (token: EmailToken): string =>
  token.kind === "open"
    ? `${token.emailId}`
    : token.kind === "click"
      ? `${token.emailId}.${token.link}`
      : `${token.responseId}`

const mac = (secret: Buffer | KeyObject, kind: EmailToken["kind"], subject: string) =>
  createHmac("sha256", secret).update(`qforms-email-${kind}.v1.${subject}`).digest("hex").slice(0, macLength(kind))

/**
 * Signs a token with a secret (pure).
 *
 * @example
 * ```ts
 * signWith(secret, { kind: "click", emailId: 7, link: 0 }) // "7.0.3f9c…" (32 hex characters of MAC)
 * ```
 */
export const signWith = (secret: Buffer | KeyObject, token: EmailToken): string => {
  const subject = subjectOf(token)
  return `${subject}.${mac(secret, token.kind, subject)}`
}

const ids = (text: string) =>
  text.split(".").map((part) => (/^[1-9][0-9]{0,9}$|^0$/.test(part) ? Number(part) : Number.NaN))

/**
 * Checks a token of a kind against a secret (pure): what it is about, or why not.
 *
 * @example
 * ```ts
 * verifyWith(secret, "click", token) // Result.succeed({ kind: "click", emailId: 7, link: 0 })
 * ```
 */
export const verifyWith = <K extends EmailToken["kind"]>(
  secret: Buffer | KeyObject,
  kind: K,
  text: string
): Result.Result<Extract<EmailToken, { readonly kind: K }>, string> => {
  const lower = text.toLowerCase()
  const dot = lower.lastIndexOf(".")
  const subject = lower.slice(0, Math.max(dot, 0))
  const given = lower.slice(dot + 1)
  const numbers = ids(subject)
  const parts = kind === "click" ? 2 : 1
  if (
    dot <= 0 ||
    numbers.length !== parts ||
    numbers.some((n) => !Number.isSafeInteger(n)) ||
    !/^[0-9a-f]+$/.test(given)
  ) {
    return Result.fail("the token is malformed")
  }
  const expected = Buffer.from(mac(secret, kind, subject))
  const received = Buffer.from(given)
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) {
    return Result.fail("the token was changed or was not made by this server")
  }
  const token: EmailToken =
    kind === "open"
      ? { kind: "open", emailId: numbers[0]! }
      : kind === "click"
        ? { kind: "click", emailId: numbers[0]!, link: numbers[1]! }
        : { kind: "reply", responseId: numbers[0]! }
  return Result.succeed(token as Extract<EmailToken, { readonly kind: K }>)
}

/**
 * Signing and checking e-mail tokens with the database's shared secret.
 *
 * @example
 * ```ts
 * const tokens = yield* EmailTokens
 * const pixel = `${appUrl}/t/o/${yield* tokens.sign({ kind: "open", emailId })}`
 * const { emailId } = yield* tokens.verify("open", token) // InvalidEmailToken when tampered with
 * ```
 */
export class EmailTokens extends Context.Service<
  EmailTokens,
  {
    readonly sign: (token: EmailToken) => Effect.Effect<string, SqlError.SqlError>
    readonly verify: <K extends EmailToken["kind"]>(
      kind: K,
      text: string
    ) => Effect.Effect<Extract<EmailToken, { readonly kind: K }>, InvalidEmailToken | SqlError.SqlError>
  }
>()("@qforms/core/EmailTokens") {
  static readonly layer = Layer.effect(
    EmailTokens,
    Effect.gen(function* () {
      const secret = yield* SigningSecrets.cached(SECRET_NAME)
      const sign = (token: EmailToken) => Effect.map(secret, (key) => signWith(key, token))
      const verify = <K extends EmailToken["kind"]>(kind: K, text: string) =>
        Effect.flatMap(secret, (key) => {
          const checked = verifyWith(key, kind, text)
          return Result.isSuccess(checked)
            ? Effect.succeed(checked.success)
            : Effect.fail(new InvalidEmailToken({ message: checked.failure }))
        })
      return EmailTokens.of({ sign, verify })
    })
  )
}
