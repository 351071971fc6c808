/**
 * Going on with a partial response on another device:
 *
 * - `POST /f/{publicId}/resume-link`: the answer token and an e-mail address;
 *   the answers so far are saved and a single-use link to them is e-mailed
 *   (see `cases/ResumeLinks.ts`), at most 3 per partial response and per
 *   mailbox, then one every 20 minutes.
 * - `GET /f/{publicId}/resume/{token}`: a resume link, used up at once.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { AnswerTokens, ResumeLinks } from "../../cases/index.ts"
import { RespondentEmails } from "../../email/index.ts"
import { EmailAddress } from "../../identity/index.ts"
import { html } from "../../web/index.ts"
import type { AccessCodes } from "../AccessCodes.ts"
import type { FormPages } from "../FormPages.ts"
import type { PageLimits } from "../PageLimits.ts"
import { type PublishedForms, publicIdParam } from "../PublishedForms.ts"
import type { SavedProgress } from "../SavedProgress.ts"
import { message } from "../screens/Message.ts"
import { resumeOffer, resumeSent } from "../screens/Resume.ts"

/** Adds the resume-link routes to `router`. */
export const add = Effect.fnUntraced(function* (
  router: HttpRouter.HttpRouter,
  parts: {
    readonly pages: FormPages
    readonly limits: PageLimits
    readonly published: PublishedForms
    readonly progress: SavedProgress
    readonly codes: AccessCodes
  }
) {
  const { requestVoice, show, formPage, notFound, notContinued } = parts.pages
  const { resumeLinkLimiter, stepLimited } = parts.limits
  const { published } = parts.published
  const { linkBase, resumeByEmail, resumeHeaders, saveProgress } = parts.progress
  const { codes } = parts
  const tokens = yield* AnswerTokens
  const resumeLinks = yield* ResumeLinks.make
  const respondentEmails = yield* RespondentEmails

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
})
