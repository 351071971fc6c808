/**
 * Answer tokens: the public form page keeps a respondent's answers between
 * steps in a signed token carried by the page itself (a hidden input), so the
 * page works without JavaScript and without a server-side draft.
 *
 * A token says which form it belongs to, when the respondent opened the form
 * (for the minimum-time check) and the answers given so far. It is
 * `base64url(JSON) "." base64url(HMAC-SHA256(secret, "qforms-answers.v1." JSON))`:
 * readable by whoever holds it (they typed the answers), but any change to it
 * is refused. The secret is made once, stored in the database
 * (`signing_secrets`), and so shared by every process on that database and
 * kept across restarts.
 */
import type { KeyObject } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SqlError from "effect/sql/SqlError"
import { seal, SigningSecrets, unseal } from "../kernel/index.ts"
import { AnswerInputs } from "../forms/index.ts"

/** What a token carries. */
export const AnswerState = Schema.Struct({
  /** The form's public id. */
  form: Schema.String,
  /** When the respondent opened the form (epoch milliseconds). */
  startedAt: Schema.Int,
  /** Answers so far, keyed by question id (checked again when submitted). */
  values: AnswerInputs,
  /** Values of the form's hidden fields, from the page's URL (form logic). */
  hidden: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
  /** The partial response the answers so far are saved in. */
  partialId: Schema.optionalKey(Schema.Int),
  /** The questions pre-filled from the page's link (ids), which a form with `skipPrefilled` does not ask. */
  prefilled: Schema.optionalKey(Schema.Array(Schema.String)),
  /** The tag of the form's access code, once the respondent typed it (`pages/AccessCodes.ts`). */
  access: Schema.optionalKey(Schema.String),
  /** The language the respondent answers in (`pages/Voice.ts`): the page keeps speaking it. */
  language: Schema.optionalKey(Schema.String),
  /**
   * How far the page counts (`insights/PageCounts.ts`) have counted this
   * respondent: -1 once started, then the index of the furthest question
   * answered. Absent before the start.
   */
  counted: Schema.optionalKey(Schema.Int)
}).annotate({ identifier: "AnswerState" })
export type AnswerState = typeof AnswerState.Type

/** The token is not one this service signed for this form, or it is too old. */
export class InvalidAnswerToken extends Schema.TaggedError<InvalidAnswerToken>()("InvalidAnswerToken", {
  message: Schema.String
}) {}

/** A token is refused once the form was opened longer ago than this (a day). */
export const maxAgeMs = 24 * 60 * 60 * 1000

/** The name of the secret in `signing_secrets`. */
const SECRET_NAME = "answer_tokens"
const CONTEXT = "qforms-answers.v1."

const decodeState = Schema.decodeUnknownResult(Schema.fromJsonString(AnswerState))

/** Signs a state with a secret (pure; the service supplies the stored secret). */
export const signWith = (secret: Buffer | KeyObject, state: AnswerState): string =>
  seal(secret, CONTEXT, JSON.stringify(state))

/**
 * Checks a token against a secret, the form it must belong to and the time
 * now: the state when it is genuine, else why not (pure).
 */
export const verifyWith = (
  secret: Buffer | KeyObject,
  token: string,
  publicId: string,
  now: number
): Result.Result<AnswerState, string> => {
  const opened = unseal(secret, CONTEXT, token)
  if (Result.isFailure(opened)) {
    return Result.fail(
      opened.failure === "malformed"
        ? "the answer token is malformed"
        : "the answer token was changed or was not made by this server"
    )
  }
  const state = decodeState(opened.success)
  if (Result.isFailure(state)) return Result.fail("the answer token is malformed")
  if (state.success.form !== publicId) return Result.fail("the answer token belongs to another form")
  if (now - state.success.startedAt > maxAgeMs) return Result.fail("the answer token has expired")
  return Result.succeed(state.success)
}

/**
 * Signing and checking answer tokens with the database's shared secret.
 *
 * @example
 * ```ts
 * const tokens = yield* AnswerTokens
 * const token = yield* tokens.sign({ form: publicId, startedAt: now, values: {} })
 * const state = yield* tokens.verify(token, publicId) // fails with InvalidAnswerToken when tampered with
 * ```
 */
export class AnswerTokens extends Context.Service<
  AnswerTokens,
  {
    readonly sign: (state: AnswerState) => Effect.Effect<string, SqlError.SqlError>
    readonly verify: (
      token: string,
      publicId: string
    ) => Effect.Effect<AnswerState, InvalidAnswerToken | SqlError.SqlError>
  }
>()("@qforms/core/AnswerTokens") {
  static readonly layer = Layer.effect(
    AnswerTokens,
    Effect.gen(function* () {
      const secret = yield* SigningSecrets.cached(SECRET_NAME)
      const sign = (state: AnswerState) => Effect.map(secret, (key) => signWith(key, state))
      const verify = (token: string, publicId: string) =>
        Effect.gen(function* () {
          const key = yield* secret
          const now = yield* Clock.currentTimeMillis
          const checked = verifyWith(key, token, publicId, now)
          return Result.isSuccess(checked)
            ? checked.success
            : yield* new InvalidAnswerToken({ message: checked.failure })
        })
      return AnswerTokens.of({ sign, verify })
    })
  )
}
