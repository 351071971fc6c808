/**
 * A visit to the public page:
 *
 * - `GET /f/{publicId}`: the welcome screen with a fresh token (`?lang=`
 *   chooses the page's language, `?prefill.<id>=` pre-fills answers, other
 *   parameters are hidden values); the access code screen first for a form
 *   with a code; a draft or unknown form is a 404 page, a closed one says it
 *   no longer accepts responses. A device with a partial response (its resume
 *   cookie) is welcomed back to it, and with `?continue=1` goes straight on at
 *   the first question not answered.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { PageCounts } from "../../insights/index.ts"
import type { AccessCodes } from "../AccessCodes.ts"
import { askedPath, prefillFromUrl } from "../Prefill.ts"
import { type PublishedForms, publicIdParam } from "../PublishedForms.ts"
import type { SavedProgress } from "../SavedProgress.ts"
import type { StepPages } from "../StepPages.ts"
import { enteredOf, hiddenFromUrl } from "../Steps.ts"

/** Adds the visit route to `router`. */
export const add = Effect.fnUntraced(function* (
  router: HttpRouter.HttpRouter,
  parts: {
    readonly published: PublishedForms
    readonly progress: SavedProgress
    readonly stepPages: StepPages
    readonly codes: AccessCodes
  }
) {
  const { published, sentBefore } = parts.published
  const { resumeCookieOf, resume } = parts.progress
  const { accessPage, questionPage, freshWelcomePage, welcomePage } = parts.stepPages
  const { codes } = parts
  const pageCounts = yield* PageCounts

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
})
