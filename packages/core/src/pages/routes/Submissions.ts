/**
 * Submissions as JSON, without an API key (a respondent's browser or any site
 * embedding the form; described by the API definition, `api/groups/Public.ts`):
 *
 * - `POST /f/{publicId}/responses`: `{"values": {...}}` as JSON → 201
 *   `{"id"}`, through the same submission path as the API. With the page's
 *   answer token (`token`) the minimum time holds, and so does the access code
 *   the token carries; without it, a form's access code is sent as
 *   `accessCode`. A filled honeypot (`website`) is refused and not stored;
 *   submissions are limited per client address.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { type AnswerState, AnswerTokens, PublicSubmitInput, Responses, SubmissionKeys } from "../../cases/index.ts"
import { Forms } from "../../forms/index.ts"
import { Actors } from "../../kernel/index.ts"
import { clientAddress, domainResponse, RateLimit, RouteBook } from "../../web/index.ts"
import type { AccessCodes } from "../AccessCodes.ts"
import type { DeviceMarks } from "../DeviceMarks.ts"
import type { PageLimits } from "../PageLimits.ts"
import { json } from "../PageSecurity.ts"
import { publicIdParam } from "../PublishedForms.ts"

/** What a JSON submission from such a device gets, with 409. */
const DEVICE_SENT_ERROR =
  "this device has already sent a response to this form, which takes one per device (setting oneResponsePerDevice)"

/** Adds the JSON submission route to `router`. */
export const add = Effect.fnUntraced(function* (
  router: HttpRouter.HttpRouter,
  parts: {
    readonly limits: PageLimits
    readonly codes: AccessCodes
    readonly marks: DeviceMarks
  }
) {
  const { submissionConfig, submissions, minSubmitMs, hops } = parts.limits
  const { codes, marks } = parts
  const forms = yield* Forms
  const responses = yield* Responses
  const tokens = yield* AnswerTokens

  // POST /f/{publicId}/responses: a submission as JSON (sent as anything else, the guard refuses it).
  const book = yield* RouteBook
  book.takesJson("POST", "/f/:publicId/responses", { payload: true })
  yield* router.add(
    "POST",
    "/f/:publicId/responses",
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const publicId = yield* publicIdParam
      const decision = yield* submissions.take(`submit:${clientAddress(request, hops)}`)
      if (!decision.allowed) {
        return json(
          429,
          { error: `too many submissions; retry after ${decision.retryAfterSeconds} seconds` },
          {
            ...RateLimit.headers(submissionConfig, decision)
          }
        )
      }
      if (!(request.headers["content-type"] ?? "").toLowerCase().includes("json")) {
        return json(415, { error: "unsupported content type: send JSON (Content-Type: application/json)" })
      }
      const body = yield* Effect.result(request.json)
      if (Result.isFailure(body)) return json(400, { error: "the request body is not valid JSON" })
      const decoded = Schema.decodeUnknownResult(PublicSubmitInput)(body.success)
      if (Result.isFailure(decoded)) {
        return json(400, {
          error: `the body must be {"values": {"<questionId>": answer, ...}}: ${decoded.failure.message}`
        })
      }
      const input = decoded.success
      const key = yield* Effect.result(SubmissionKeys.keyOf(request.headers))
      if (Result.isFailure(key)) return json(400, { error: key.failure.message })
      const target = yield* forms.getPublic(publicId).pipe(
        Effect.map(Option.some),
        Effect.catchTag("FormNotFound", () => Effect.succeed(Option.none()))
      )
      // A draft does not exist for the public, as on its page (409 would tell that it does).
      if (Option.isNone(target) || target.value.form.status === "draft")
        return json(404, { error: `form ${publicId} not found` })
      if ((input.website ?? "") !== "") {
        yield* Effect.logInfo("public page: honeypot filled; submission refused").pipe(
          Effect.annotateLogs({ form: publicId })
        )
        return json(400, { error: "website: this field must be left empty; the submission was not stored" })
      }
      let fromPage: AnswerState | undefined
      if (input.token !== undefined) {
        const verified = yield* Effect.result(tokens.verify(input.token, publicId))
        if (Result.isFailure(verified)) {
          const error = verified.failure
          if (error._tag === "SqlError") return yield* Effect.die(error)
          return json(400, { error: `token: ${error.message}` })
        }
        const now = yield* Clock.currentTimeMillis
        if (now - verified.success.startedAt < minSubmitMs) {
          return json(400, {
            error: `token: submitted too soon after opening the form (under ${minSubmitMs / 1000} s); the submission was not stored`
          })
        }
        fromPage = verified.success
      }
      const { form, workspaceId } = target.value
      if (form.settings.accessCode !== undefined && !(fromPage !== undefined && (yield* codes.holds(form, fromPage)))) {
        const attempt = yield* codes.attempt(form, input.accessCode ?? "", clientAddress(request, hops))
        if (attempt._tag === "Empty")
          return json(403, {
            error: "accessCode: this form takes responses only with its access code; send it as accessCode"
          })
        if (attempt._tag === "Blocked") {
          return json(
            429,
            { error: `too many wrong access codes; retry after ${attempt.decision.retryAfterSeconds} seconds` },
            RateLimit.headers(attempt.config, attempt.decision)
          )
        }
        if (attempt._tag === "Wrong") return json(403, { error: "accessCode: the access code is not right" })
      }
      const devicePerResponse = form.settings.oneResponsePerDevice === true
      if (devicePerResponse && (yield* marks.sent(request.cookies, publicId)))
        return json(409, { error: DEVICE_SENT_ERROR })
      const submitted = yield* Effect.result(
        responses.submit(
          Actors.respondent(workspaceId),
          form.id,
          input.hidden === undefined ? { values: input.values } : { values: input.values, hidden: input.hidden },
          "form",
          {
            form,
            language: fromPage?.language ?? input.language,
            startedAt: fromPage === undefined ? undefined : new Date(fromPage.startedAt),
            idempotencyKey: key.success
          }
        )
      )
      if (Result.isSuccess(submitted)) {
        const created = json(201, { id: submitted.success.id })
        return devicePerResponse ? yield* marks.mark(created, publicId) : created
      }
      const error = submitted.failure
      if (error._tag === "SqlError") return yield* Effect.die(error)
      return domainResponse(error, { "x-content-type-options": "nosniff" })
    })
  )
})
