/**
 * The public form page at `/f/{publicId}`: respondents answer a published
 * form one question per screen. Its routes, one family per file in `routes/`:
 *
 * - `routes/Visits.ts`: `GET /f/{publicId}`, the welcome screen (a draft or
 *   unknown form is a 404 page, a closed one says it no longer accepts
 *   responses), or where a visit with a saved partial response left off.
 * - `routes/Steps.ts`: `POST /f/{publicId}`, one step (`application/x-www-form-urlencoded`,
 *   or `multipart/form-data` when the step carries a file). The answers so
 *   far travel in a signed token (see `AnswerTokens.ts`); each answer is
 *   checked with the same validator as the API before the next screen, and
 *   the last step submits. Works without JavaScript; the page's script makes
 *   the same posts with `fetch`.
 * - `routes/Submissions.ts`: `POST /f/{publicId}/responses`, `{"values": {...}}`
 *   as JSON → 201 `{"id"}`.
 * - `routes/ResumeLinks.ts`: `POST /f/{publicId}/resume-link` (a link to go on
 *   elsewhere, e-mailed) and `GET /f/{publicId}/resume/{token}` (the link).
 * - `routes/Images.ts`: `GET /f/{publicId}/images/{imageId}`, the form's images.
 *
 * What the routes share is built once here and handed to each: the pages
 * they answer with (`FormPages.ts`), the limits (`PageLimits.ts`), the form a
 * request is about (`PublishedForms.ts`), the saved progress and resume cookie
 * (`SavedProgress.ts`), the step screens as pages (`StepPages.ts`), the step
 * reader (`StepReader.ts`), access codes and device marks.
 *
 * Abuse: a honeypot input, a per-IP rate limit on submissions, on steps and
 * on new partial responses (saved only from the first real answer on), on
 * files (the upload limiter shared with the upload route, see
 * `UploadLimits.ts`), the storage quotas of `Files`,
 * the body limit of the router, and a minimum time between opening the form
 * and submitting it (the start time is signed into the token). Rejected spam
 * is never stored.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as AccessCodes from "./AccessCodes.ts"
import * as DeviceMarks from "./DeviceMarks.ts"
import * as FormPages from "./FormPages.ts"
import * as PageLimits from "./PageLimits.ts"
import type { PublicPageOptions } from "./PublicPageOptions.ts"
import * as PublishedForms from "./PublishedForms.ts"
import * as SavedProgress from "./SavedProgress.ts"
import * as StepPages from "./StepPages.ts"
import * as StepReader from "./StepReader.ts"
import * as ImagesRoutes from "./routes/Images.ts"
import * as ResumeLinksRoutes from "./routes/ResumeLinks.ts"
import * as StepsRoutes from "./routes/Steps.ts"
import * as SubmissionsRoutes from "./routes/Submissions.ts"
import * as VisitsRoutes from "./routes/Visits.ts"

export type { PublicPageOptions } from "./PublicPageOptions.ts"
export {
  defaultSubmissionRateLimit,
  defaultStepRateLimit,
  defaultPartialResponsesPerAddressPerHour,
  defaultMinSubmitSeconds,
  FrameAncestor,
  securityHeaders,
  page,
  notFoundPage
} from "./PageSecurity.ts"
export { isMultipartStep, parseAnswer, hiddenFromUrl } from "./Steps.ts"

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
      const pages = yield* FormPages.make(options.frameAncestors)
      const limits = yield* PageLimits.make(options, pages)
      const marks = yield* DeviceMarks.make
      const codes = yield* AccessCodes.make(options.accessCodeFailures ?? {})
      const published = yield* PublishedForms.make(pages, marks)
      const progress = yield* SavedProgress.make(limits)
      const stepPages = yield* StepPages.make(pages, progress)
      const reader = yield* StepReader.make(options.maxBodyBytes ?? 1024 * 1024)
      yield* ImagesRoutes.add(router, { pages, published })
      yield* VisitsRoutes.add(router, { published, progress, stepPages, codes })
      yield* StepsRoutes.add(router, { pages, limits, published, progress, stepPages, reader, codes, marks })
      yield* ResumeLinksRoutes.add(router, { pages, limits, published, progress, codes })
      yield* SubmissionsRoutes.add(router, { limits, codes, marks })
    })
  )
