/**
 * The public form page at `/f/{publicId}`: respondents answer a published
 * form one question per screen.
 *
 * - `GET /f/{publicId}`: the welcome screen (a draft or unknown form is a 404
 *   page, a closed one says it no longer accepts responses).
 * - `POST /f/{publicId}`: one step (`application/x-www-form-urlencoded`, or
 *   `multipart/form-data` when the step carries a file). The answers so far
 *   travel in a signed token (see `AnswerTokens.ts`); each answer is checked
 *   with the same validator as the API before the next screen, and the last
 *   step submits. Works without JavaScript; the page's script makes the same
 *   posts with `fetch`.
 * - `POST /f/{publicId}/responses`: `{"values": {...}}` as JSON → 201 `{"id"}`.
 *
 * Abuse: a honeypot input, a per-IP rate limit on submissions, on steps and
 * on new partial responses (saved only from the first real answer on), on
 * files (the upload limiter shared with the upload route, see
 * `UploadLimits.ts`), the storage quotas of `Files`,
 * the body limit of the router, and a minimum time between opening the form
 * and submitting it (the start time is signed into the token). Rejected spam
 * is never stored.
 */
import * as ByteSize from "effect/ByteSize"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Sink from "effect/Sink"
import * as Stream from "effect/Stream"
import type * as SqlError from "effect/sql/SqlError"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import * as HttpRouter from "effect/http/HttpRouter"
import { Images } from "../../files/Images.ts"
import { imageIdsOf } from "../../forms/ImageRefs.ts"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Multipart from "effect/http/Multipart"
import * as Actors from "../../identity/Actors.ts"
import { type AnswerState, AnswerTokens, type InvalidAnswerToken, maxAgeMs } from "../../cases/AnswerTokens.ts"
import { type Field, quotasOf, takesUploads } from "../../forms/Fields.ts"
import { type AnswerValue, isRealAnswer } from "../../forms/Answers.ts"
import { Files } from "../../files/Files.ts"
import * as Endings from "../../forms/Endings.ts"
import * as FormLogic from "../../forms/FormLogic.ts"
import { Forms, type FormWithFields } from "../../forms/Forms.ts"
import type { Theme } from "../../forms/Theme.ts"
import { WorkspaceSettingsStore } from "../../forms/WorkspaceSettings.ts"
import { PublicSubmitInput, Responses } from "../../cases/Responses.ts"
import { PageCounts } from "../../insights/PageCounts.ts"
import * as Summaries from "../../cases/Summaries.ts"
import { domainResponse } from "../../web/ApiErrors.ts"
import * as RateLimit from "../../web/RateLimit.ts"
import { branded } from "../screens/Document.ts"
import type { Entered } from "../screens/Controls.ts"
import { message } from "../screens/Message.ts"
import * as Questions from "../screens/Questions.ts"
import { resumeOffer, resumeSent } from "../screens/Resume.ts"
import * as Start from "../screens/Start.ts"
import { thanks } from "../screens/Thanks.ts"
import {
  type StepInput,
  refusal,
  parseAnswer,
  postedProblem,
  checkOne,
  enteredOf,
  withAnswer,
  hiddenOf,
  hiddenFromUrl,
  recalled,
  recalledPage,
  pageAnswers,
  StepRefused,
  MAX_FILE_BYTES,
  collectStep
} from "../Steps.ts"
import {
  defaultSubmissionRateLimit,
  defaultStepRateLimit,
  defaultPartialResponsesPerAddressPerHour,
  defaultMinSubmitSeconds,
  FrameAncestor,
  resumeCookieName,
  page,
  pageTemplate,
  notFoundPage,
  json,
  makeLimiter
} from "../PageSecurity.ts"
import { UploadLimiter } from "../UploadLimits.ts"
import { MULTIPART_OVERHEAD_BYTES } from "../../web/MultipartUploads.ts"
import { askedPath, firstAsked, nextAsked, pageAsked, pagePlaceOf, prefillFromUrl, previousAsked } from "../Prefill.ts"
import * as ResumeLinks from "../../cases/ResumeLinks.ts"
import { RespondentEmails } from "../../email/RespondentEmails.ts"
import { Mailer } from "../../email/Mailer.ts"
import { EmailAddress } from "../../identity/Accounts.ts"
import { SentLinkBase } from "../../kernel/Links.ts"
import { type Html, html } from "../../web/Html.ts"
import * as ResponseLimits from "../../cases/ResponseLimits.ts"
import * as AccessCodes from "../AccessCodes.ts"
import { themeCss } from "../Assets.ts"
import * as DeviceMarks from "../DeviceMarks.ts"
import { clientAddress } from "../../web/RequestOrigin.ts"
import { MessageCatalogues } from "../../languages/Messages.ts"
import { type LanguageWish, languageFor, plainVoice, speaker, type Voice } from "../Voice.ts"

/** Settings of the public page. */
export interface PublicPageOptions {
  /**
   * Who may show the page in a frame: CSP `frame-ancestors` sources such as
   * `'self'`, `https://example.com`, `https://*.example.com`, or `*` (default:
   * `*`, any site may embed the form; `'none'` forbids framing).
   */
  readonly frameAncestors?: ReadonlyArray<string> | undefined
  /** Per-IP limit on submissions (default 10 per minute, bursts of 10). */
  readonly submissionRateLimit?: RateLimit.RateLimitConfig | undefined
  /** Per-IP limit on steps of the page (default 5 per second, bursts of 60). */
  readonly stepRateLimit?: RateLimit.RateLimitConfig | undefined
  /** Fewer seconds than this between opening the form and submitting it is refused as a bot (default 3). */
  readonly minSubmitSeconds?: number | undefined
  /**
   * How many reverse proxies in front of qforms append to `X-Forwarded-For`
   * (default 0: the header is ignored and the connection's address is the
   * client's). With 1, the last address of the header is the client's.
   */
  readonly trustedProxyHops?: number | undefined
  /**
   * New partial responses per client address per hour (default
   * {@link defaultPartialResponsesPerAddressPerHour}, as a bucket of that
   * many refilled over the hour; `0`: the page saves no partial responses).
   * Over the limit, the respondent goes on and can submit; only the new
   * partial row is not saved. `Qforms.make` sets it from
   * `partialResponses.newPerAddressPerHour`.
   */
  readonly partialResponsesPerAddressPerHour?: number | undefined
  /**
   * Wrong access codes allowed per client address and per form (defaults
   * {@link AccessCodes.defaultAccessCodeFailuresPerAddress}: 5, then one every
   * 3 minutes; {@link AccessCodes.defaultAccessCodeFailuresPerForm}: 100, then
   * 100 an hour). Only wrong codes count.
   */
  readonly accessCodeFailures?: AccessCodes.AccessCodeLimits | undefined
  /** The router's body limit, which the fields of a step keep to (set by `Http.layer`). */
  readonly maxBodyBytes?: number | undefined
}

export {
  defaultSubmissionRateLimit,
  defaultStepRateLimit,
  defaultPartialResponsesPerAddressPerHour,
  defaultMinSubmitSeconds,
  FrameAncestor,
  securityHeaders,
  page,
  notFoundPage
} from "../PageSecurity.ts"
export { isMultipartStep, parseAnswer, hiddenFromUrl } from "../Steps.ts"

// ---------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------

/** The ending a stored response was given (`values.ending`), its recall filled in from the response. */
const endingOf = (form: FormWithFields, values: Readonly<Record<string, AnswerValue>>) => {
  const key = values[Endings.endingKey]
  const chosen = Predicate.isString(key) ? form.settings.endings?.find((e) => e.key === key) : undefined
  return chosen === undefined
    ? undefined
    : Endings.fill(chosen, form.fields, Endings.factsOfStored(values), Summaries.formatAnswer)
}

/** What a JSON submission from such a device gets, with 409. */
const DEVICE_SENT_ERROR =
  "this device has already sent a response to this form, which takes one per device (setting oneResponsePerDevice)"

/**
 * The routes of the public page (mounted by `Http.layer`).
 *
 * @example
 * ```ts
 * const Routes = PublicPage.layer({ frameAncestors: ["'self'", "https://example.com"], minSubmitSeconds: 5 })
 * ```
 */
export const layer = (options: PublicPageOptions = {}) =>
  HttpRouter.use(
    Effect.fnUntraced(function* (router) {
      const forms = yield* Forms
      const workspaceSettings = yield* WorkspaceSettingsStore
      const images = yield* Images
      const responses = yield* Responses
      const tokens = yield* AnswerTokens
      const pageCounts = yield* PageCounts
      const frameAncestors = options.frameAncestors
      yield* Effect.orDie(Schema.decodeUnknownEffect(Schema.Array(FrameAncestor))(frameAncestors ?? []))
      const submissionConfig = options.submissionRateLimit ?? defaultSubmissionRateLimit
      const stepConfig = options.stepRateLimit ?? defaultStepRateLimit
      const submissions = yield* makeLimiter(submissionConfig, "page-submit")
      const steps = yield* makeLimiter(stepConfig, "page-step")
      const partialsPerHour = options.partialResponsesPerAddressPerHour ?? defaultPartialResponsesPerAddressPerHour
      const newPartials =
        partialsPerHour > 0
          ? Option.some(
              yield* makeLimiter({ requestsPerSecond: partialsPerHour / 3600, burst: partialsPerHour }, "page-partial")
            )
          : Option.none<RateLimit.RateLimiter["Service"]>()
      const files = yield* Files
      const uploadLimiter = yield* UploadLimiter
      const limits = yield* ResponseLimits.make
      const marks = yield* DeviceMarks.make
      const codes = yield* AccessCodes.make(options.accessCodeFailures ?? {})
      const maxFieldBytes = options.maxBodyBytes ?? 1024 * 1024
      const messages = yield* MessageCatalogues
      const speak = speaker(messages)
      const resumeLinks = yield* ResumeLinks.make
      const respondentEmails = yield* RespondentEmails
      // Resume links go by e-mail, with absolute links: offered only when both can work.
      const linkBase = (yield* SentLinkBase).replace(/\/$/, "")
      const resumeByEmail = (yield* Mailer).configured && linkBase !== ""
      // However the requests come, a partial response and a mailbox get few links: 3, then one every 20 minutes.
      const resumeLinkConfig: RateLimit.RateLimitConfig = { requestsPerSecond: 3 / 3600, burst: 3 }
      const resumeLinkLimiter = yield* makeLimiter(resumeLinkConfig, "page-resume-link")
      /** The page's voice for a request before its form is known: the browser's language, if qforms speaks it. */
      const requestVoice = (request: HttpServerRequest.HttpServerRequest) =>
        plainVoice(messages, request.headers["accept-language"])

      /**
       * Reads a step post: url-encoded (under the router's body limit), or
       * multipart, whose fields together stay under that limit and whose file
       * part (the no-JavaScript upload) streams into the blob store under its
       * question's own limit. The hidden inputs come first in the page, so the
       * question is known when the file arrives.
       */
      const readStep = (publicId: string, voice: Voice) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const type = (request.headers["content-type"] ?? "").toLowerCase()
          const unreadable = () => new StepRefused({ status: 400, message: voice.say("page.unreadable") })
          if (type.startsWith("application/x-www-form-urlencoded")) {
            const params = yield* Effect.mapError(request.urlParamsBody, unreadable)
            const step = collectStep(
              params.params.map(([k, v]) => [k, typeof v === "string" ? v : ""] as const),
              undefined
            )
            return Result.isSuccess(step)
              ? step.success
              : yield* new StepRefused({ status: 400, message: step.failure })
          }
          if (!type.startsWith("multipart/form-data")) {
            return yield* new StepRefused({ status: 415, message: voice.say("page.notAForm") })
          }
          const pairs: Array<readonly [string, string]> = []
          let fieldBytes = 0
          let upload: StepInput["upload"]
          const tooLarge = () =>
            new StepRefused({ status: 413, message: voice.say("page.tooLong", { bytes: maxFieldBytes }) })
          yield* Stream.runForEach(
            request.multipartStream,
            (part): Effect.Effect<void, StepRefused | Multipart.MultipartError> => {
              if (Multipart.isField(part)) {
                fieldBytes += part.key.length + part.value.length
                if (fieldBytes > maxFieldBytes) return Effect.fail(tooLarge())
                pairs.push([part.key, part.value])
                return Effect.void
              }
              const file = part as Multipart.File
              const at = pairs.find(([k]) => k === "at")?.[1] ?? ""
              // A second file, or not at a question: nothing to store.
              if (file.key !== "file" || upload !== undefined || !/^[1-9][0-9]{0,9}$/.test(at)) {
                return Stream.runDrain(file.content)
              }
              // A browser sends an empty part when no file was chosen: that is no answer, not an empty file.
              const store = Effect.scoped(
                Effect.gen(function* () {
                  const [first, rest] = yield* Stream.peel(file.content, Sink.take<Uint8Array>(1))
                  if (first.length === 0) return Option.none()
                  // The same bucket as the upload route's: a file is a file, however it is sent.
                  const decision = yield* uploadLimiter.take(request)
                  if (!decision.allowed) {
                    yield* Stream.runDrain(rest)
                    upload = Result.fail(
                      refusal(
                        voice.say("page.fileNotStored", {
                          reason: voice.say("page.uploadsLimited", { seconds: decision.retryAfterSeconds })
                        }),
                        429,
                        RateLimit.headers(uploadLimiter.config, decision)
                      )
                    )
                    return Option.none()
                  }
                  return Option.some(
                    yield* files.upload({
                      publicId,
                      fieldId: Number(at),
                      filename: file.name,
                      contentType: file.contentType,
                      content: Stream.concat(Stream.fromIterable(first), rest)
                    })
                  )
                })
              )
              return store.pipe(
                Effect.map((answer) => {
                  if (Option.isSome(answer)) upload = Result.succeed(answer.value)
                }),
                Effect.catchTags({
                  FileTooLarge: (e) => Effect.sync(() => (upload = Result.fail(refusal(e.message)))),
                  StorageQuotaExceeded: (e) =>
                    Effect.sync(
                      () => (upload = Result.fail(refusal(voice.say("page.fileNotStored", { reason: e.message }), 413)))
                    ),
                  UnsupportedFileType: (e) => Effect.sync(() => (upload = Result.fail(refusal(e.message)))),
                  InvalidInput: (e) => Effect.sync(() => (upload = Result.fail(refusal(e.message)))),
                  Conflict: (e) => Effect.sync(() => (upload = Result.fail(refusal(e.message)))),
                  FormNotFound: (e) => Effect.sync(() => (upload = Result.fail(refusal(e.message)))),
                  BlobStoreError: (e) => Effect.die(e),
                  SqlError: (e) => Effect.die(e)
                }),
                // A file over its limit stops the parser mid-body: what was read of the fields still counts.
                Effect.catchTag("MultipartError", (e) =>
                  e.reason._tag === "FileTooLarge" || e.reason._tag === "BodyTooLarge"
                    ? Effect.sync(() => (upload = Result.fail(refusal(voice.say("page.fileTooLarge")))))
                    : Effect.fail(e)
                )
              )
            }
          ).pipe(
            Effect.provideService(Multipart.MaxParts, 512),
            Effect.provideService(Multipart.MaxFieldSize, ByteSize.bytes(maxFieldBytes)),
            Effect.provideService(Multipart.MaxFileSize, undefined),
            Effect.provideService(Multipart.FieldMimeTypes, []),
            Effect.provideService(
              HttpIncomingMessage.MaxBodySize,
              ByteSize.bytes(MAX_FILE_BYTES + maxFieldBytes + MULTIPART_OVERHEAD_BYTES)
            ),
            Effect.catchTag("MultipartError", (e) =>
              Effect.fail(
                e.reason._tag === "FileTooLarge" ||
                  e.reason._tag === "BodyTooLarge" ||
                  e.reason._tag === "FieldTooLarge"
                  ? tooLarge()
                  : unreadable()
              )
            )
          )
          const step = collectStep(pairs, upload)
          return Result.isSuccess(step) ? step.success : yield* new StepRefused({ status: 400, message: step.failure })
        })

      const minSubmitMs = (options.minSubmitSeconds ?? defaultMinSubmitSeconds) * 1000
      const hops = options.trustedProxyHops ?? 0

      const show = (
        status: number,
        title: string,
        body: Html,
        voice: Voice,
        script = false,
        headers?: Record<string, string>
      ) => page({ status, title, body, script, frameAncestors, headers, voice })
      /**
       * A page of a form, in its theme; titled with the form's title unless `title` is given. Every one carries
       * the page's script, the thank-you and message screens too: in a frame of the embed kit it is what answers
       * the kit's hello, tells `submitted` and the frame's height, also for a document answering a full-page post.
       */
      const formPage = (
        form: FormWithFields,
        voice: Voice,
        status: number,
        body: Html,
        headers?: Record<string, string>,
        title = form.title,
        redirect?: string
      ) =>
        page({
          status,
          title,
          body: branded(form, body),
          script: true,
          frameAncestors,
          headers,
          style: themeCss(form.settings.theme),
          redirect,
          voice
        })
      const notFound = (voice: Voice) => notFoundPage(frameAncestors, voice)
      const closed = (form: FormWithFields, voice: Voice, status = 410) =>
        formPage(form, voice, status, message(form.title, form.settings.closedMessage ?? voice.say("page.closed")))
      const full = (form: FormWithFields, voice: Voice, status = 410) =>
        formPage(form, voice, status, message(form.title, form.settings.closedMessage ?? voice.say("page.full")))
      /**
       * The 429 page of a limit used up: what was limited, and when to try again; in the form's theme when the
       * form is known (a step is limited before its form is read).
       */
      const tooMany = (
        limited: { readonly decision: RateLimit.Decision; readonly config: RateLimit.RateLimitConfig },
        voice: Voice,
        what: { readonly title: string; readonly text: string } = {
          title: voice.say("page.tooManyTitle"),
          text: voice.say("page.tooManyText")
        },
        form?: FormWithFields
      ) => {
        const body = message(
          what.title,
          voice.say("page.waitSeconds", { text: what.text, seconds: limited.decision.retryAfterSeconds })
        )
        const headers = RateLimit.headers(limited.config, limited.decision)
        return form === undefined
          ? show(429, what.title, body, voice, false, headers)
          : formPage(form, voice, 429, body, headers, what.title)
      }

      /** The per-address limit of the page's steps (its posts and its resume links): the 429 page once used up. */
      const stepLimited = (request: HttpServerRequest.HttpServerRequest) =>
        Effect.map(steps.take(`step:${clientAddress(request, hops)}`), (limit) =>
          limit.allowed ? undefined : tooMany({ decision: limit, config: stepConfig }, requestVoice(request))
        )

      /** The 400 page of an answer token that does not verify: why, and a way to start again. */
      const notContinued = (
        error: InvalidAnswerToken | SqlError.SqlError,
        shown: FormWithFields,
        voice: Voice,
        startAgain: { readonly href: string; readonly label: string }
      ) =>
        error._tag === "SqlError"
          ? Effect.die(error)
          : Effect.succeed(
              formPage(
                shown,
                voice,
                400,
                message(shown.title, voice.say("page.notContinued", { reason: error.message }), startAgain)
              )
            )

      /** The published form that still takes responses (before its closing time, not full), or the page to answer instead. */
      /**
       * The form as its page wears it: a form without a theme of its own wears its workspace's. The same object
       * while neither changes, so the page's caches keyed by the form (the welcome template) keep working.
       */
      const themed = new WeakMap<FormWithFields, { readonly theme: Theme; readonly form: FormWithFields }>()
      const wearing = (form: FormWithFields, theme: Theme | undefined): FormWithFields => {
        if (theme === undefined || form.settings.theme !== undefined) return form
        const known = themed.get(form)
        if (known !== undefined && known.theme === theme) return known.form
        const worn = { ...form, settings: { ...form.settings, theme } }
        themed.set(form, { theme, form: worn })
        return worn
      }

      /**
       * The published form that still takes responses (before its closing time, not full), or the page to answer
       * instead, in the language the request asks for: `form` as stored (what a submission is checked against),
       * `shown` as the page shows it (in the respondent's language), and the page's voice.
       */
      const published = (publicId: string, request: HttpServerRequest.HttpServerRequest, wish: LanguageWish = {}) =>
        forms.getPublic(publicId).pipe(
          Effect.flatMap(({ form: own, workspaceId }) =>
            Effect.gen(function* () {
              const form =
                own.settings.theme === undefined ? wearing(own, yield* workspaceSettings.themeOf(workspaceId)) : own
              const { form: shown, voice } = speak(
                form,
                languageFor(form, { ...wish, acceptLanguage: request.headers["accept-language"] })
              )
              if (form.status !== "published")
                return Result.fail(form.status === "closed" ? closed(shown, voice) : notFound(requestVoice(request)))
              if (ResponseLimits.pastClosing(form.settings, yield* Clock.currentTimeMillis) !== undefined) {
                return Result.fail(closed(shown, voice))
              }
              if ((yield* limits.full(workspaceId, form.id, form.settings)) !== undefined)
                return Result.fail(full(shown, voice))
              return Result.succeed({ form, workspaceId, shown, voice })
            })
          ),
          Effect.catchTag("FormNotFound", () => Effect.succeed(Result.fail(notFound(requestVoice(request)))))
        )

      /** With `oneResponsePerDevice`: the page that says this device has sent its response, when it has. */
      const sentBefore = (request: HttpServerRequest.HttpServerRequest, form: FormWithFields, voice: Voice) =>
        form.settings.oneResponsePerDevice === true
          ? Effect.map(marks.sent(request.cookies, form.publicId), (sent) =>
              sent ? formPage(form, voice, 409, message(form.title, voice.say("page.alreadySent"))) : undefined
            )
          : Effect.succeed(undefined)

      /** The access code screen of a form with `accessCode`, keeping the state (pre-fill, hidden values) for after it. */
      const accessPage = (form: FormWithFields, voice: Voice, state: AnswerState, status: number, error?: string) =>
        Effect.map(tokens.sign(state), (token) =>
          formPage(form, voice, status, Start.accessCode(form, token, voice, error))
        )
      const publicIdParam = Effect.map(HttpRouter.params, (params) => params["publicId"] ?? "")

      /** The header that keeps (or, after the submission, forgets) the partial response on this device. */
      const resumeHeaders = (form: FormWithFields, state: AnswerState | undefined) => {
        const where = `Path=/f/${encodeURIComponent(form.publicId)}; HttpOnly; SameSite=Lax`
        if (state === undefined)
          return Effect.succeed({ "set-cookie": `${resumeCookieName(form.publicId)}=; ${where}; Max-Age=0` })
        if (state.partialId === undefined) return Effect.succeed(undefined)
        return Effect.map(
          tokens.sign({
            form: form.publicId,
            startedAt: state.startedAt,
            values: {},
            partialId: state.partialId,
            // The questions pre-filled from the link stay passed over when the respondent comes back.
            ...(state.prefilled === undefined ? {} : { prefilled: state.prefilled }),
            // So is the access code, typed once on this device, and the language chosen.
            ...(state.access === undefined ? {} : { access: state.access }),
            ...(state.language === undefined ? {} : { language: state.language })
          }),
          (token): Record<string, string> => ({
            "set-cookie": `${resumeCookieName(form.publicId)}=${token}; ${where}; Max-Age=${maxAgeMs / 1000}`
          })
        )
      }

      const questionPage = (
        form: FormWithFields,
        voice: Voice,
        state: AnswerState,
        index: number,
        entered: Entered,
        extra: {
          readonly error?: string
          readonly notice?: string
          readonly status?: number | undefined
          readonly headers?: Record<string, string> | undefined
          /** On a page of several questions: what each shows as entered (default: its answer so far). */
          readonly entered?: ((fieldId: number) => Entered) | undefined
          /** On a page of several questions: the message beside each question refused. */
          readonly errors?: ReadonlyMap<number, string> | undefined
        } = {}
      ) =>
        Effect.gen(function* () {
          const token = yield* tokens.sign(state)
          const headers = yield* resumeHeaders(form, state)
          // Once something is saved, the respondent may ask for a link to go on elsewhere.
          const withOffer = (screen: Html) =>
            resumeByEmail && state.partialId !== undefined
              ? html`${screen}${resumeOffer(form.publicId, token, voice, "")}`
              : screen
          const field = form.fields[index]!
          const shown = pageAsked(form, state, field)
          if (shown.length > 1) {
            const workspaceId = (yield* forms.getPublic(form.publicId)).workspaceId
            const fullOf = new Map<number, ReadonlySet<string>>()
            for (const f of shown) {
              if (quotasOf(f).length > 0) fullOf.set(f.id, yield* limits.fullChoices(workspaceId, form.id, f))
            }
            const place = pagePlaceOf(form, state, shown)
            const declared = form.settings.pages?.find((p) => p.key === field.page)
            const errors = extra.errors ?? new Map<number, string>()
            return formPage(
              form,
              voice,
              extra.status ?? (errors.size === 0 && extra.notice === undefined ? 200 : 400),
              withOffer(
                Questions.page({
                  form: recalledPage(form, state, shown),
                  indexes: shown.map((f) => form.fields.findIndex((g) => g.id === f.id)),
                  token,
                  entered: extra.entered ?? ((id) => enteredOf(state.values[String(id)])),
                  errors,
                  notice: extra.notice,
                  last: place.last,
                  first: place.first,
                  seed: state.startedAt % 2 ** 32,
                  full: (id) => fullOf.get(id) ?? new Set(),
                  place,
                  title: declared?.title,
                  description: declared?.description,
                  voice
                })
              ),
              extra.headers === undefined ? headers : { ...headers, ...extra.headers },
              `${form.title} (${voice.say("page.progressPlace", { at: place.at + 1, of: place.of })})`
            )
          }
          const full =
            quotasOf(field).length === 0
              ? undefined
              : yield* Effect.flatMap(forms.getPublic(form.publicId), ({ workspaceId }) =>
                  limits.fullChoices(workspaceId, form.id, field)
                )
          // Progress counts the respondent's path (logic and skipped questions) by pages, not every question of the form.
          const place = pagePlaceOf(form, state, [field])
          return formPage(
            form,
            voice,
            extra.status ?? (extra.error === undefined && extra.notice === undefined ? 200 : 400),
            withOffer(
              Questions.question({
                form: recalled(form, state),
                index,
                token,
                entered,
                error: extra.error,
                notice: extra.notice,
                last: place.last,
                first: place.first,
                seed: state.startedAt % 2 ** 32,
                full,
                place,
                voice
              })
            ),
            extra.headers === undefined ? headers : { ...headers, ...extra.headers },
            `${form.title} (${voice.say("page.progressPlace", { at: place.at + 1, of: place.of })})`
          )
        })

      // A fresh visit's welcome screen differs only by its token and nonce (no answers or hidden values to
      // recall): rendered once per form. A cached form stays one object until it changes, so a changed form
      // gets a new one.
      const welcomeTemplates = new WeakMap<FormWithFields, (token: string) => HttpServerResponse.HttpServerResponse>()
      const freshWelcomePage = (form: FormWithFields, voice: Voice, state: AnswerState) =>
        Effect.map(tokens.sign(state), (token) => {
          let template = welcomeTemplates.get(form)
          if (template === undefined) {
            const shown = recalled(form, state)
            template = pageTemplate({
              status: 200,
              title: form.title,
              body: (value) => branded(shown, Start.welcome(shown, value, voice)),
              script: true,
              frameAncestors,
              style: themeCss(form.settings.theme),
              voice
            })
            welcomeTemplates.set(form, template)
          }
          return template(token)
        })

      const welcomePage = (form: FormWithFields, voice: Voice, state: AnswerState, notice?: string, note?: string) =>
        Effect.map(tokens.sign(state), (token) =>
          formPage(
            form,
            voice,
            notice === undefined ? 200 : 400,
            Start.welcome(recalled(form, state), token, voice, notice, note)
          )
        )

      /** What this device's resume cookie for the form says (checked), if it has a genuine one. */
      const resumeCookieOf = (request: HttpServerRequest.HttpServerRequest, publicId: string) =>
        Effect.gen(function* () {
          const cookie = request.cookies[resumeCookieName(publicId)]
          if (cookie === undefined || cookie === "") return undefined
          const verified = yield* Effect.result(tokens.verify(cookie, publicId))
          if (Result.isSuccess(verified)) return verified.success
          return verified.failure._tag === "SqlError" ? yield* Effect.die(verified.failure) : undefined
        })

      /** The partial response this device left unfinished (its resume cookie's), if any: its answers back in a state. */
      const resume = (cookie: AnswerState | undefined, form: FormWithFields, workspaceId: number) =>
        Effect.gen(function* () {
          if (cookie === undefined) return Option.none<AnswerState>()
          const partialId = cookie.partialId
          if (partialId === undefined) return Option.none<AnswerState>()
          const answers = yield* Effect.orDie(responses.partialAnswers(workspaceId, form.id, partialId))
          return Option.map(answers, (stored): AnswerState => {
            const values: Record<string, AnswerValue | null> = {}
            const hidden: Record<string, string> = {}
            for (const [key, value] of Object.entries(stored)) {
              if (key.startsWith(FormLogic.hiddenPrefix)) {
                if (Predicate.isString(value)) hidden[key.slice(FormLogic.hiddenPrefix.length)] = value
              } else values[key] = value
            }
            const { prefilled, access, language } = cookie
            return {
              form: form.publicId,
              startedAt: cookie.startedAt,
              values,
              hidden,
              partialId,
              ...(prefilled === undefined ? {} : { prefilled }),
              ...(access === undefined ? {} : { access }),
              ...(language === undefined ? {} : { language })
            }
          })
        })

      /**
       * Saves the answers so far as the partial response (best effort: the step
       * goes on whatever happens). A new row needs a real answer (not a Start
       * step, an empty optional answer or hidden values alone) and a token of
       * the address's bucket of new partial responses; without either the
       * respondent goes on with nothing saved.
       */
      const saveProgress = (
        request: HttpServerRequest.HttpServerRequest,
        found: { readonly form: FormWithFields; readonly workspaceId: number },
        state: AnswerState
      ) =>
        Effect.gen(function* () {
          if (state.partialId === undefined) {
            const files = new Set(found.form.fields.filter(takesUploads).map((f) => String(f.id)))
            const real = Object.entries(state.values).some(([key, value]) => !files.has(key) && isRealAnswer(value))
            if (!real || Option.isNone(newPartials)) return state
            const decision = yield* newPartials.value.take(`partial:${clientAddress(request, hops)}`)
            if (!decision.allowed) {
              yield* Effect.logDebug(
                "public page: new partial responses over the limit for this address; not saved"
              ).pipe(Effect.annotateLogs({ form: found.form.publicId }))
              return state
            }
          }
          const partialId = yield* responses.savePartial(
            Actors.respondent(found.workspaceId),
            found.form.id,
            { values: state.values, hidden: hiddenOf(found.form, state) },
            state.partialId
          )
          if (partialId !== undefined) return { ...state, partialId }
          const { partialId: _, ...rest } = state
          return rest
        }).pipe(
          Effect.catchTags({
            InvalidInput: () => Effect.succeed(state),
            Conflict: () => Effect.succeed(state),
            FormNotFound: () => Effect.succeed(state),
            Forbidden: () => Effect.succeed(state),
            SqlError: (e) => Effect.die(e)
          })
        )

      // GET /f/{publicId}/images/{imageId}: an image the form's page shows (its theme's logo, a choice's
      // picture), while the page can be seen (published or closed); any other image of the library is a 404 here.
      yield* router.add(
        "GET",
        "/f/:publicId/images/:imageId",
        Effect.gen(function* () {
          const params = yield* HttpRouter.params
          const imageId = params.imageId ?? ""
          const found = yield* Effect.result(forms.getPublic(params.publicId ?? ""))
          const request = yield* HttpServerRequest.HttpServerRequest
          if (Result.isFailure(found)) return notFound(requestVoice(request))
          const { form: own, workspaceId } = found.success
          const form =
            own.settings.theme === undefined ? wearing(own, yield* workspaceSettings.themeOf(workspaceId)) : own
          if (form.status === "draft" || !imageIdsOf(form.fields, form.settings).includes(imageId))
            return notFound(requestVoice(request))
          const shown = yield* Effect.result(images.content(workspaceId, imageId))
          if (Result.isFailure(shown)) {
            return shown.failure._tag === "ImageNotFound"
              ? notFound(requestVoice(request))
              : yield* Effect.die(shown.failure)
          }
          return HttpServerResponse.stream(shown.success.content, {
            contentType: shown.success.image.type,
            contentLength: shown.success.image.size,
            headers: {
              "x-content-type-options": "nosniff",
              "content-security-policy": "default-src 'none'; sandbox",
              "cache-control": "public, max-age=3600"
            }
          })
        })
      )

      // GET /f/{publicId}: the welcome screen with a fresh token (`?lang=` chooses the page's language).
      yield* router.add(
        "GET",
        "/f/:publicId",
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const publicId = yield* publicIdParam
          const cookie = yield* resumeCookieOf(request, publicId)
          const query = new URL(request.url, "http://qforms").searchParams
          const chosen = query.get("lang") ?? undefined
          const found = yield* published(publicId, request, { chosen, kept: cookie?.language })
          if (Result.isFailure(found)) return found.failure
          const { form, workspaceId, shown, voice } = found.success
          const sent = yield* sentBefore(request, shown, voice)
          if (sent !== undefined) return sent
          yield* pageCounts.add(workspaceId, form.id, "view")
          const hidden = hiddenFromUrl(form, request.url)
          const prefill = prefillFromUrl(form, request.url)
          const linked = form.settings.skipPrefilled === true ? Object.keys(prefill) : []
          const resumed = yield* resume(cookie, form, workspaceId)
          if (Option.isSome(resumed)) {
            // Answers given before win over the link's.
            const kept = resumed.value.prefilled ?? []
            const state = {
              ...resumed.value,
              ...(kept.length + linked.length === 0 ? {} : { prefilled: [...new Set([...kept, ...linked])] }),
              values: { ...prefill, ...resumed.value.values },
              hidden: { ...resumed.value.hidden, ...hidden },
              language: voice.language
            }
            if (!(yield* codes.holds(form, state))) return yield* accessPage(shown, voice, state, 200)
            // `?continue=1` (a resume link, or "Continue answering"): straight to the first question not answered.
            if (query.get("continue") === "1") {
              const path = askedPath(form, state)
              const at = path.find((f) => !Object.hasOwn(state.values, String(f.id))) ?? path.at(-1)
              if (at !== undefined) {
                return yield* questionPage(
                  shown,
                  voice,
                  state,
                  form.fields.findIndex((f) => f.id === at.id),
                  enteredOf(state.values[String(at.id)])
                )
              }
            }
            return yield* welcomePage(shown, voice, state, undefined, voice.say("page.welcomeBack"))
          }
          const now = yield* Clock.currentTimeMillis
          const state = {
            form: form.publicId,
            startedAt: now,
            values: prefill,
            hidden,
            ...(linked.length === 0 ? {} : { prefilled: linked }),
            language: voice.language
          }
          if (form.settings.accessCode !== undefined) return yield* accessPage(shown, voice, state, 200)
          return yield* Object.keys(hidden).length === 0 && Object.keys(prefill).length === 0
            ? freshWelcomePage(shown, voice, state)
            : welcomePage(shown, voice, state)
        })
      )

      /** The page as a request sees it: the form as stored and as shown, the page's voice, the workspace. */
      interface Found {
        readonly form: FormWithFields
        readonly shown: FormWithFields
        readonly voice: Voice
        readonly workspaceId: number
      }

      /** The last step: honeypot, rate limit, minimum time, then the one submission path of the API. */
      const submitFromPage = (
        request: HttpServerRequest.HttpServerRequest,
        found: Found,
        state: AnswerState,
        input: StepInput,
        index: number
      ) =>
        Effect.gen(function* () {
          const { form, shown, voice } = found
          if (input.honeypot !== "") {
            yield* Effect.logInfo("public page: honeypot filled; submission dropped").pipe(
              Effect.annotateLogs({ form: form.publicId })
            )
            return formPage(shown, voice, 200, thanks(shown, voice))
          }
          const decision = yield* submissions.take(`submit:${clientAddress(request, hops)}`)
          if (!decision.allowed) return tooMany({ decision, config: submissionConfig }, voice, undefined, shown)
          const now = yield* Clock.currentTimeMillis
          const here = form.fields[index]
          const enteredHere = here === undefined ? { texts: [] } : enteredOf(state.values[String(here.id)])
          if (now - state.startedAt < minSubmitMs) {
            const notice = voice.say("page.tooQuick")
            return here === undefined
              ? yield* welcomePage(shown, voice, state, notice)
              : yield* questionPage(shown, voice, state, index, enteredHere, { notice })
          }
          const forget = yield* resumeHeaders(form, undefined)
          return yield* responses
            .submit(
              Actors.respondent(found.workspaceId),
              form.id,
              { values: state.values, hidden: hiddenOf(form, state) },
              "form",
              { partialId: state.partialId, form, language: voice.language, startedAt: new Date(state.startedAt) }
            )
            .pipe(
              Effect.flatMap((response) => {
                const ending = endingOf(shown, response.values)
                const thanked = formPage(
                  shown,
                  voice,
                  200,
                  thanks(shown, voice, ending, response.id),
                  forget,
                  ending?.title ?? shown.title,
                  ending?.redirectUrl
                )
                return form.settings.oneResponsePerDevice === true
                  ? marks.mark(thanked, form.publicId)
                  : Effect.succeed(thanked)
              }),
              Effect.catchTags({
                InvalidInput: (error) => {
                  // Back to the first question with a problem, its message beside it (in the page's language
                  // when it is an answer's: the answers are checked again as the page checked them).
                  const issue = error.details?.find((d) => /^values\.\d+$/.test(d.path))
                  const at = issue === undefined ? -1 : form.fields.findIndex((f) => `values.${f.id}` === issue.path)
                  const target = at === -1 ? Math.max(0, index) : at
                  const field = shown.fields[target]
                  if (field === undefined) return welcomePage(shown, voice, state, error.message)
                  const again = checkOne(field, state.values[String(field.id)], voice.say)
                  return questionPage(shown, voice, state, target, enteredOf(state.values[String(field.id)]), {
                    error: Result.isFailure(again) ? again.failure : (issue?.message ?? error.message)
                  })
                },
                // Closed or filled up while the respondent answered.
                Conflict: () =>
                  Effect.map(limits.full(found.workspaceId, form.id, form.settings), (stop) =>
                    stop === undefined ? closed(shown, voice, 409) : full(shown, voice, 409)
                  ),
                FormNotFound: () => Effect.succeed(notFound(voice)),
                Forbidden: () => Effect.succeed(notFound(voice))
              })
            )
        })

      /**
       * Counts a respondent's progress for the summary's funnel (`PageCounts`),
       * once each however often they go back: the start (the first step past
       * the first screen), then each question of `step` further than the token
       * has counted. Answers the state with how far it has counted.
       */
      const counted = (found: Found, state: AnswerState, step: ReadonlyArray<Field>) =>
        Effect.gen(function* () {
          const { form, workspaceId } = found
          let reached = state.counted
          if (reached === undefined) {
            yield* pageCounts.add(workspaceId, form.id, "start")
            reached = -1
          }
          for (const field of step) {
            const at = form.fields.findIndex((f) => f.id === field.id)
            if (at > reached) {
              yield* pageCounts.add(workspaceId, form.id, field.id)
              reached = at
            }
          }
          return reached === state.counted ? state : { ...state, counted: reached }
        })

      /**
       * After the answers of a step were taken (the questions of `step`, in order): the next question on the path,
       * with the answers so far kept as a partial response (not a bot's: the honeypot is empty); or, at the end,
       * the submission.
       */
      const goOn = (
        request: HttpServerRequest.HttpServerRequest,
        found: Found,
        given: AnswerState,
        input: StepInput,
        step: ReadonlyArray<Field>
      ) =>
        Effect.gen(function* () {
          const last = step.at(-1)!
          const index = found.form.fields.findIndex((f) => f.id === last.id)
          // A bot's step (its honeypot filled) counts for nothing.
          const answered = input.honeypot === "" ? yield* counted(found, given, step) : given
          const following = nextAsked(found.form, answered, last.id)
          if (following === undefined) return yield* submitFromPage(request, found, answered, input, index)
          const next = input.honeypot === "" ? yield* saveProgress(request, found, answered) : answered
          return yield* questionPage(
            found.shown,
            found.voice,
            next,
            found.form.fields.findIndex((f) => f.id === following.id),
            enteredOf(next.values[String(following.id)])
          )
        })

      // POST /f/{publicId}: one step.
      yield* router.add(
        "POST",
        "/f/:publicId",
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const publicId = yield* publicIdParam
          const limited = yield* stepLimited(request)
          if (limited !== undefined) return limited
          const input = yield* readStep(publicId, requestVoice(request))
          const verified = yield* Effect.result(tokens.verify(input.token, publicId))
          const kept = Result.isSuccess(verified) ? verified.success.language : undefined
          const chosen = input.action === "lang" ? input.pairs.find(([k]) => k === "lang")?.[1] : undefined
          const published_ = yield* published(publicId, request, { chosen, kept })
          if (Result.isFailure(published_)) return published_.failure
          const found = published_.success
          const { form, shown, voice } = found
          const sent = yield* sentBefore(request, shown, voice)
          if (sent !== undefined) return sent
          if (Result.isFailure(verified))
            return yield* notContinued(verified.failure, shown, voice, {
              href: encodeURIComponent(publicId),
              label: voice.say("page.startAgain")
            })
          const state = { ...verified.success, language: voice.language }
          if (input.at === "access") {
            // A form without a code (any more) goes straight on to its welcome screen.
            if (form.settings.accessCode === undefined) return yield* welcomePage(shown, voice, state)
            if (input.action === "lang") return yield* accessPage(shown, voice, state, 200)
            const attempt = yield* codes.attempt(form, input.answers[0] ?? "", clientAddress(request, hops))
            switch (attempt._tag) {
              case "Granted":
                return yield* welcomePage(shown, voice, { ...state, access: attempt.tag })
              case "Wrong":
                return yield* accessPage(shown, voice, state, 403, voice.say("page.accessCodeWrong"))
              case "Empty":
                return yield* accessPage(shown, voice, state, 400, voice.say("page.accessCodeEmpty"))
              case "Blocked":
                return tooMany(
                  attempt,
                  voice,
                  { title: voice.say("page.accessCodeBlockedTitle"), text: voice.say("page.accessCodeBlocked") },
                  shown
                )
            }
          }
          // A page opened with a code the form no longer has (or none) asks for the code again.
          if (!(yield* codes.holds(form, state)))
            return yield* accessPage(shown, voice, state, 403, voice.say("page.accessCodeEmpty"))
          const fields = form.fields
          const indexOf = (field: Field) => fields.findIndex((f) => f.id === field.id)
          if (input.at === "welcome") {
            if (input.action === "lang") return yield* welcomePage(shown, voice, state)
            const started = input.honeypot === "" ? yield* counted(found, state, []) : state
            const first = firstAsked(form, started)
            if (first === undefined) return yield* submitFromPage(request, found, started, input, -1)
            return yield* questionPage(
              shown,
              voice,
              started,
              indexOf(first),
              enteredOf(started.values[String(first.id)])
            )
          }
          const index = fields.findIndex((f) => String(f.id) === input.at)
          if (index === -1) return yield* welcomePage(shown, voice, state, voice.say("page.formChanged"))
          // The question in the page's language: its label names it in the messages of its checks.
          const field = shown.fields[index]!
          const asked = pageAsked(form, state, field)
          if (asked.length > 1) {
            // A page of several questions: each read from its own names, all kept or all shown again.
            const posted = pageAnswers(
              input.pairs,
              asked.map((f) => f.id)
            )
            const onPage = asked.map((f) => shown.fields[indexOf(f)]!)
            if (input.action === "lang") {
              // The same page in the other language, with what was typed on it.
              return yield* questionPage(shown, voice, state, index, enteredOf(undefined), {
                entered: (id) => {
                  const p = posted.get(id)
                  return p === undefined ? enteredOf(state.values[String(id)]) : { texts: p.answers, parts: p.parts }
                }
              })
            }
            const read = onPage.map((f) => {
              const p = posted.get(f.id) ?? { answers: [], parts: {} }
              const raw = parseAnswer(f, p.answers, p.parts)
              const problem = postedProblem(f, p.answers, p.parts, voice.say)
              return {
                field: f,
                posted: p,
                checked: problem === undefined ? checkOne(f, raw, voice.say) : Result.fail(problem)
              }
            })
            let values = state.values
            for (const r of read) {
              if (Result.isSuccess(r.checked)) values = withAnswer(values, r.field, r.checked.success)
            }
            if (input.action === "back") {
              const previous = { ...state, values }
              const before = previousAsked(form, previous, asked[0]!.id)
              return before === undefined
                ? yield* welcomePage(shown, voice, previous)
                : yield* questionPage(shown, voice, previous, indexOf(before), enteredOf(values[String(before.id)]))
            }
            const errors = new Map<number, string>()
            for (const r of read) if (Result.isFailure(r.checked)) errors.set(r.field.id, r.checked.failure)
            if (errors.size > 0) {
              const byId = new Map(read.map((r) => [r.field.id, r.posted]))
              return yield* questionPage(shown, voice, state, index, enteredOf(undefined), {
                errors,
                entered: (id) => {
                  const p = byId.get(id)
                  return p === undefined ? enteredOf(state.values[String(id)]) : { texts: p.answers, parts: p.parts }
                }
              })
            }
            return yield* goOn(request, found, { ...state, values }, input, asked)
          }
          if (field.type === "file" && input.upload !== undefined && Result.isFailure(input.upload)) {
            return yield* questionPage(shown, voice, state, index, enteredOf(state.values[String(field.id)]), {
              error: input.upload.failure.message,
              status: input.upload.failure.status,
              headers: input.upload.failure.headers
            })
          }
          // A file sent with the step (no JavaScript) is the answer; else the page's hidden answer.
          const raw =
            field.type === "file" && input.upload !== undefined && Result.isSuccess(input.upload)
              ? input.upload.success
              : parseAnswer(field, input.answers, input.parts)
          const typed = {
            texts: input.answers,
            file: takesUploads(field) ? enteredOf(raw).file : undefined,
            parts: input.parts
          }
          // The same screen in the other language, with what was typed on it.
          if (input.action === "lang") return yield* questionPage(shown, voice, state, index, typed)
          const problem = postedProblem(field, input.answers, input.parts, voice.say)
          const checked = problem === undefined ? checkOne(field, raw, voice.say) : Result.fail(problem)
          if (input.action === "back") {
            const values = Result.isSuccess(checked) ? withAnswer(state.values, field, checked.success) : state.values
            const previous = { ...state, values }
            const before = previousAsked(form, previous, field.id)
            return before === undefined
              ? yield* welcomePage(shown, voice, previous)
              : yield* questionPage(shown, voice, previous, indexOf(before), enteredOf(values[String(before.id)]))
          }
          if (Result.isFailure(checked)) {
            return yield* questionPage(shown, voice, state, index, typed, { error: checked.failure })
          }
          return yield* goOn(
            request,
            found,
            { ...state, values: withAnswer(state.values, field, checked.success) },
            input,
            [form.fields[index]!]
          )
        }).pipe(
          Effect.catchTag("StepRefused", (refused) =>
            Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
              const voice = requestVoice(request)
              const title = voice.say("page.notAcceptedTitle")
              return show(refused.status, title, message(title, refused.message), voice)
            })
          )
        )
      )

      // POST /f/{publicId}/resume-link: the answer token and an e-mail address; the answers so far are saved and
      // a single-use link to them is e-mailed (see `cases/ResumeLinks.ts`). The answer says "sent" whatever
      // happens after the address is read (limits included), so it tells nothing about the mailbox.
      yield* router.add(
        "POST",
        "/f/:publicId/resume-link",
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const publicId = yield* publicIdParam
          const limited = yield* stepLimited(request)
          if (limited !== undefined) return limited
          if (!(request.headers["content-type"] ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded"))
            return show(
              415,
              requestVoice(request).say("page.notAcceptedTitle"),
              message(requestVoice(request).say("page.notAcceptedTitle"), requestVoice(request).say("page.notAForm")),
              requestVoice(request)
            )
          const body = yield* Effect.result(request.urlParamsBody)
          const params = Result.isSuccess(body) ? body.success.params : []
          const param = (name: string) => {
            const value = params.find(([k]) => k === name)?.[1]
            return typeof value === "string" ? value : ""
          }
          const verified = yield* Effect.result(tokens.verify(param("token"), publicId))
          const published_ = yield* published(publicId, request, {
            kept: Result.isSuccess(verified) ? verified.success.language : undefined
          })
          if (Result.isFailure(published_)) return published_.failure
          const found = published_.success
          const { form, shown, voice } = found
          if (!resumeByEmail) return notFound(voice)
          // Links are relative to the document: the form's page when the script posted, else this address.
          const base = request.headers["x-qforms-page"] === "1" ? "" : "../"
          const startAgain = { href: `${base}${encodeURIComponent(publicId)}`, label: voice.say("page.startAgain") }
          if (Result.isFailure(verified)) return yield* notContinued(verified.failure, shown, voice, startAgain)
          const state = verified.success
          if (!(yield* codes.holds(form, state)))
            return formPage(shown, voice, 403, message(shown.title, voice.say("page.accessCodeEmpty"), startAgain))
          const typed = param("email")
          const address = Schema.decodeUnknownResult(EmailAddress)(typed)
          if (Result.isFailure(address)) {
            return formPage(
              shown,
              voice,
              400,
              html`<p class="form-title">${shown.title}</p>
<h1 id="title" tabindex="-1" data-focus>${voice.say("page.resumeLinkLegend")}</h1>
${resumeOffer(form.publicId, param("token"), voice, base, { error: voice.say("page.resumeLinkBadEmail"), email: typed.slice(0, 254) })}`
            )
          }
          const saved = yield* saveProgress(request, found, state)
          const partialId = "partialId" in saved ? saved.partialId : undefined
          if (partialId === undefined) {
            return formPage(shown, voice, 400, message(shown.title, voice.say("page.resumeLinkNothingYet"), startAgain))
          }
          const to = address.success
          const forResponse = yield* resumeLinkLimiter.take(`response:${partialId}`)
          const forMailbox = forResponse.allowed ? yield* resumeLinkLimiter.take(`to:${to.toLowerCase()}`) : forResponse
          if (forMailbox.allowed) {
            yield* resumeLinks
              .issue(found.workspaceId, form.id, partialId, state.access, (token, at) =>
                respondentEmails.queueResumeLink(
                  found.workspaceId,
                  partialId,
                  {
                    to,
                    subject: voice
                      .say("email.resumeLinkSubject", { title: shown.title })
                      .replace(/[\r\n]+/g, " ")
                      .slice(0, 200),
                    body: voice.say("email.resumeLinkBody", {
                      title: shown.title,
                      link: `${linkBase}${ResumeLinks.resumePath(form.publicId, token)}`
                    })
                  },
                  at
                )
              )
              .pipe(Effect.orDie)
          } else {
            yield* Effect.logInfo("public page: resume links over the limit; none sent").pipe(
              Effect.annotateLogs({ form: publicId })
            )
          }
          const headers = yield* resumeHeaders(form, saved)
          return formPage(shown, voice, 200, resumeSent(shown, voice, base), headers)
        })
      )

      // GET /f/{publicId}/resume/{token}: a resume link, used up at once: the partial response becomes this
      // browser's (its resume cookie), and the page goes on at the first question not answered.
      yield* router.add(
        "GET",
        "/f/:publicId/resume/:token",
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const publicId = yield* publicIdParam
          const token = (yield* HttpRouter.params)["token"] ?? ""
          const limited = yield* stepLimited(request)
          if (limited !== undefined) return limited
          const published_ = yield* published(publicId, request)
          if (Result.isFailure(published_)) return published_.failure
          const { form, shown, voice, workspaceId } = published_.success
          const private_ = { "cache-control": "no-store", "referrer-policy": "no-referrer" }
          const consumed = yield* Effect.orDie(resumeLinks.consume(workspaceId, form.id, token))
          if (consumed._tag !== "Opened") {
            const unknown = consumed._tag === "Unknown"
            const title = voice.say(unknown ? "page.resumeLinkUnknownTitle" : "page.resumeLinkGoneTitle")
            return formPage(
              shown,
              voice,
              unknown ? 404 : 410,
              message(title, voice.say(unknown ? "page.resumeLinkUnknownText" : "page.resumeLinkGoneText"), {
                href: `../../${encodeURIComponent(publicId)}`,
                label: voice.say("page.startAgain")
              }),
              private_,
              title
            )
          }
          const headers = yield* resumeHeaders(form, {
            form: form.publicId,
            startedAt: yield* Clock.currentTimeMillis,
            values: {},
            partialId: consumed.responseId,
            language: voice.language,
            ...(consumed.access === undefined ? {} : { access: consumed.access })
          })
          return HttpServerResponse.empty({
            status: 303,
            headers: { ...headers, ...private_, location: `../../${encodeURIComponent(publicId)}?continue=1` }
          })
        })
      )

      // POST /f/{publicId}/responses: a submission as JSON.
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
          if (
            form.settings.accessCode !== undefined &&
            !(fromPage !== undefined && (yield* codes.holds(form, fromPage)))
          ) {
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
                startedAt: fromPage === undefined ? undefined : new Date(fromPage.startedAt)
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
  )
