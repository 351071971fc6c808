/**
 * The images of the public page:
 *
 * - `GET /f/{publicId}/images/{imageId}`: an image the form's page shows (its
 *   theme's logo, a choice's picture), while the page can be seen (published
 *   or closed); any other image of the library is a 404 here.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Result from "effect/Result"
import { Images } from "../../files/index.ts"
import { Forms, imageIdsOf, WorkspaceSettingsStore } from "../../forms/index.ts"
import type { FormPages } from "../FormPages.ts"
import type { PublishedForms } from "../PublishedForms.ts"

/** Adds the image route to `router`. */
export const add = Effect.fnUntraced(function* (
  router: HttpRouter.HttpRouter,
  parts: { readonly pages: FormPages; readonly published: PublishedForms }
) {
  const { requestVoice, notFound } = parts.pages
  const { wearing } = parts.published
  const forms = yield* Forms
  const workspaceSettings = yield* WorkspaceSettingsStore
  const images = yield* Images

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
      const form = own.settings.theme === undefined ? wearing(own, yield* workspaceSettings.themeOf(workspaceId)) : own
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
})
