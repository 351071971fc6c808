/**
 * The addresses e-mails to respondents lead to, outside the API (no key):
 * the open pixel `GET /t/o/{token}`, tracked links `GET /t/c/{token}`
 * (redirecting only to the URL recorded for that link of that e-mail), and
 * `POST /inbound/email`, where an inbound-mail service posts a raw reply
 * (authenticated by the shared secret, see `Mailer.ts` `inboundSecret`).
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Multipart from "effect/http/Multipart"
import * as Stream from "effect/Stream"
import { EmailReplies, RespondentEmails } from "../email/index.ts"
import { Mailer } from "../mail/index.ts"
import { ErrorTable } from "../web/index.ts"
import { equalStrings } from "../kernel/index.ts"

/** The routes, for the 404/405 table. */
export const routes = [
  { method: "GET", path: "/t/o/:token" },
  { method: "GET", path: "/t/c/:token" },
  { method: "POST", path: "/inbound/email" }
] as const

/** The 1×1 transparent GIF of the open pixel. */
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64")

const json = (status: number, body: object, headers?: Record<string, string>) =>
  HttpServerResponse.jsonUnsafe(body, headers === undefined ? { status } : { status, headers })

const notFound = json(404, { error: "no such link" })

/** The secret a request presents: the `x-qforms-inbound-secret` header, or the password of basic auth. */
const presentedSecret = (headers: Readonly<Record<string, string | undefined>>): string | undefined => {
  const header = headers["x-qforms-inbound-secret"]
  if (header !== undefined) return header
  const authorization = headers["authorization"] ?? ""
  if (!/^basic /i.test(authorization)) return undefined
  const decoded = Buffer.from(authorization.slice(6).trim(), "base64").toString("utf8")
  const colon = decoded.indexOf(":")
  return colon < 0 ? undefined : decoded.slice(colon + 1)
}

/** The form fields inbound-parse services put the raw message in: SendGrid's `email`, Mailgun's `body-mime`. */
const RAW_FIELDS = new Set(["email", "body-mime"])

/** The raw message of an inbound-parse form post (a field, or a file part, of one of {@link RAW_FIELDS}). */
const rawFromForm = (request: HttpServerRequest.HttpServerRequest) =>
  Stream.runFoldEffect(
    request.multipartStream,
    () => undefined as Uint8Array | undefined,
    (found, part): Effect.Effect<Uint8Array | undefined, Multipart.MultipartError> =>
      found !== undefined || !RAW_FIELDS.has(part.key)
        ? Effect.succeed(found)
        : part._tag === "Field"
          ? Effect.succeed(new Uint8Array(Buffer.from(part.value)))
          : part.contentEffect
  ).pipe(Effect.provideService(Multipart.MaxParts, 64), Effect.provideService(Multipart.FieldMimeTypes, []))

/**
 * The routes as a layer of the router (`Http.layer` includes it).
 *
 * @example
 * ```ts
 * const routes = Layer.mergeAll(Http.layer(), EmailRoutes.layer)
 * ```
 */
export const layer = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const emails = yield* RespondentEmails
    const replies = yield* EmailReplies

    yield* router.add(
      "GET",
      "/t/o/:token",
      Effect.gen(function* () {
        const token = (yield* HttpRouter.params).token ?? ""
        const recorded = yield* Effect.result(emails.recordOpen(token))
        if (Result.isFailure(recorded)) {
          if (recorded.failure._tag === "SqlError") return yield* Effect.die(recorded.failure)
          return notFound
        }
        return HttpServerResponse.uint8Array(PIXEL, {
          contentType: "image/gif",
          headers: { "cache-control": "no-store, private", "x-content-type-options": "nosniff" }
        })
      })
    )

    yield* router.add(
      "GET",
      "/t/c/:token",
      Effect.gen(function* () {
        const token = (yield* HttpRouter.params).token ?? ""
        const clicked = yield* Effect.result(emails.recordClick(token))
        if (Result.isFailure(clicked)) {
          if (clicked.failure._tag === "SqlError") return yield* Effect.die(clicked.failure)
          return notFound
        }
        // A header is Latin-1: the recorded URL (which may be `https://例え.jp/パス?q=ü`) goes in its
        // ASCII form, the host in punycode and the rest percent-encoded, as the URL standard writes it.
        if (!URL.canParse(clicked.success)) return notFound
        return HttpServerResponse.redirect(new URL(clicked.success).href, {
          status: 302,
          headers: { "cache-control": "no-store, private", "referrer-policy": "no-referrer" }
        })
      })
    )

    yield* router.add(
      "POST",
      "/inbound/email",
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const mailer = yield* Mailer
        if (mailer.inboundSecret === null) return json(404, { error: "inbound e-mail is not configured" })
        const presented = presentedSecret(request.headers)
        if (presented === undefined || !equalStrings(presented, mailer.inboundSecret)) {
          return json(
            401,
            { error: "inbound e-mail needs the shared secret (x-qforms-inbound-secret or basic auth)" },
            {
              "www-authenticate": 'Basic realm="qforms inbound e-mail"'
            }
          )
        }
        const length = Number(request.headers["content-length"] ?? "0")
        if (Number.isFinite(length) && length > mailer.inboundMaxBytes) {
          return json(
            413,
            { error: `the message is too large: inbound e-mail takes at most ${mailer.inboundMaxBytes} bytes` },
            {
              connection: "close"
            }
          )
        }
        const raw = (request.headers["content-type"] ?? "").toLowerCase().startsWith("multipart/form-data")
          ? yield* Effect.result(rawFromForm(request))
          : Result.succeed(new Uint8Array(yield* request.arrayBuffer))
        if (Result.isFailure(raw)) return json(400, { error: `the form could not be read: ${raw.failure.message}` })
        if (raw.success === undefined) {
          return json(400, {
            error:
              "send the raw message (MIME) as the body, or in a form field named email (SendGrid) or body-mime (Mailgun)"
          })
        }
        const received = yield* Effect.result(replies.receive(raw.success))
        if (Result.isFailure(received)) {
          const error = received.failure
          return ErrorTable.isAnswered(error)
            ? json(ErrorTable.statusOf(error), { error: error.message })
            : yield* Effect.die(error)
        }
        return json(201, received.success)
      })
    )
  })
)
