/**
 * The steps of the public page, one question (or page of questions) per screen:
 *
 * - `POST /f/{publicId}`: one step (`application/x-www-form-urlencoded`, or
 *   `multipart/form-data` when the step carries a file). The answers so far
 *   travel in a signed token (see `AnswerTokens.ts`); each answer is checked
 *   with the same validator as the API before the next screen, and the last
 *   step submits. Works without JavaScript; the page's script makes the same
 *   posts with `fetch`. A step is also where the access code is typed, the
 *   page's language changed (the same screen again) and Back taken.
 *
 * Abuse: a honeypot input, a per-IP rate limit on steps, on submissions and
 * on new partial responses (saved only from the first real answer on), and
 * a minimum time between opening the form and submitting it (the start time
 * is signed into the token). Rejected spam is never stored.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as Predicate from "effect/Predicate"
import * as Result from "effect/Result"
import { type AnswerState, AnswerTokens, ResponseLimits, Responses } from "../../cases/index.ts"
import {
  type AnswerValue,
  EndingsModule as Endings,
  type Field,
  type FormWithFields,
  Summaries,
  takesUploads,
  QuestionTypes
} from "../../forms/index.ts"
import { Actors } from "../../kernel/index.ts"
import { PageCounts } from "../../insights/index.ts"
import { clientAddress } from "../../web/index.ts"
import type { AccessCodes } from "../AccessCodes.ts"
import type { DeviceMarks } from "../DeviceMarks.ts"
import type { FormPages } from "../FormPages.ts"
import type { PageLimits } from "../PageLimits.ts"
import { firstAsked, nextAsked, pageAsked, previousAsked } from "../Prefill.ts"
import { type Found, type PublishedForms, publicIdParam } from "../PublishedForms.ts"
import type { SavedProgress } from "../SavedProgress.ts"
import { message } from "../screens/Message.ts"
import { thanks } from "../screens/Thanks.ts"
import type { StepPages } from "../StepPages.ts"
import type { StepReader } from "../StepReader.ts"
import {
  type StepInput,
  parseAnswer,
  postedProblem,
  checkOne,
  enteredOf,
  withAnswer,
  hiddenOf,
  pageAnswers
} from "../Steps.ts"

/** The ending a stored response was given (`values.ending`), its recall filled in from the response. */
const endingOf = (form: FormWithFields, values: Readonly<Record<string, AnswerValue>>) => {
  const key = values[Endings.endingKey]
  const chosen = Predicate.isString(key) ? form.settings.endings?.find((e) => e.key === key) : undefined
  return chosen === undefined
    ? undefined
    : Endings.fill(chosen, form.fields, Endings.factsOfStored(values), Summaries.formatAnswer)
}

/** Adds the step route to `router`. */
export const add = Effect.fnUntraced(function* (
  router: HttpRouter.HttpRouter,
  parts: {
    readonly pages: FormPages
    readonly limits: PageLimits
    readonly published: PublishedForms
    readonly progress: SavedProgress
    readonly stepPages: StepPages
    readonly reader: StepReader
    readonly codes: AccessCodes
    readonly marks: DeviceMarks
  }
) {
  const { requestVoice, show, formPage, notFound, closed, full, tooMany, notContinued } = parts.pages
  const { submissionConfig, submissions, minSubmitMs, hops, stepLimited } = parts.limits
  const { published, sentBefore } = parts.published
  const { resumeHeaders, saveProgress } = parts.progress
  const { accessPage, questionPage, welcomePage } = parts.stepPages
  const { readStep } = parts.reader
  const { codes, marks } = parts
  const responses = yield* Responses
  const tokens = yield* AnswerTokens
  const pageCounts = yield* PageCounts
  const limits = yield* ResponseLimits.make

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
        return yield* questionPage(shown, voice, started, indexOf(first), enteredOf(started.values[String(first.id)]))
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
      // The file of a question whose page without JavaScript sends it with the step.
      const withStep = QuestionTypes.typeOf(field).upload?.withStep === true
      if (withStep && input.upload !== undefined && Result.isFailure(input.upload)) {
        return yield* questionPage(shown, voice, state, index, enteredOf(state.values[String(field.id)]), {
          error: input.upload.failure.message,
          status: input.upload.failure.status,
          headers: input.upload.failure.headers
        })
      }
      // A file sent with the step (no JavaScript) is the answer; else the page's hidden answer.
      const raw =
        withStep && input.upload !== undefined && Result.isSuccess(input.upload)
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
})
