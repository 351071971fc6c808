/**
 * The API group `Translations`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { Id } from "../../kernel/index.ts"
import { LanguageTag } from "../../languages/index.ts"
import { Translation, TranslationDetail, TranslationList } from "../../forms/index.ts"
import { BadGateway, Conflict, Forbidden, NotFound } from "../../web/index.ts"
import { FormIdParams } from "../Params.ts"

const TranslationParams = {
  formId: Id,
  language: LanguageTag.annotate({ description: "The translation's language: a BCP 47 tag (de, pt-BR, zh-Hans)." })
}

/** A form in other languages (see `forms/Translations.ts`). */
export class TranslationsGroup extends HttpApiGroup.make("translations").add(
  HttpApiEndpoint.get("list", "/forms/:formId/translations", {
    params: FormIdParams,
    success: TranslationList,
    error: NotFound
  }).annotate(
    OpenApi.Description,
    "Extension: the form's own language and how far each translation is (texts translated of the form's total)."
  ),
  HttpApiEndpoint.get("get", "/forms/:formId/translations/:language", {
    params: TranslationParams,
    success: TranslationDetail,
    error: NotFound
  }).annotate(
    OpenApi.Description,
    "Extension: one translation, with the form's texts it does not have yet (`missing`: where each goes and the " +
      "form's own words)."
  ),
  HttpApiEndpoint.put("put", "/forms/:formId/translations/:language", {
    params: TranslationParams,
    payload: Translation,
    success: TranslationDetail,
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: sets the form's translation into a language (owners, admins and members), replacing the one " +
      "there was. Questions by id, choices, rows and columns by the form's own text; 400 naming anything the form " +
      "does not have. `status: draft` keeps it off the page until it is reviewed."
  ),
  HttpApiEndpoint.delete("remove", "/forms/:formId/translations/:language", {
    params: TranslationParams,
    success: HttpApiSchema.NoContent,
    error: [NotFound, Forbidden]
  }).annotate(OpenApi.Description, "Extension: takes the translation away (the page no longer offers it)."),
  HttpApiEndpoint.post("draft", "/forms/:formId/translations/:language/draft", {
    params: TranslationParams,
    success: TranslationDetail,
    error: [NotFound, Forbidden, Conflict, BadGateway]
  }).annotate(
    OpenApi.Description,
    "Extension: machine translation, as a draft to review: the configured language model translates the texts the " +
      "translation lacks (all of them for a new one); the result is saved with `status: draft`, which the page does " +
      "not offer until it is set `ready`. 409 without a language model (the offline generator writes English only); " +
      "502 when the model fails."
  )
) {}
