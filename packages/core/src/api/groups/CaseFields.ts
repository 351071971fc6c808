/**
 * The API group `CaseFields`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as OpenApi from "effect/http-api/OpenApi"
import { CaseFields } from "../../cases/index.ts"
import { Forbidden, NotFound } from "../../web/index.ts"
import { FormIdParams } from "../Params.ts"

/** A form's custom case fields (extension). */
export class CaseFieldsGroup extends HttpApiGroup.make("caseFields").add(
  HttpApiEndpoint.get("get", "/forms/:formId/case-fields", {
    params: FormIdParams,
    success: CaseFields,
    error: NotFound
  }).annotate(OpenApi.Description, "Extension: the form's case fields (the team's own fields of its cases), in order."),
  HttpApiEndpoint.put("replace", "/forms/:formId/case-fields", {
    params: FormIdParams,
    payload: CaseFields,
    success: CaseFields,
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: replaces the form's case fields (owners, admins and members; at most 30, in order). Each has a " +
      "`key` unique in the form, a `label` and a `type`: `text`, `number`, `date`, `select` (with its `options`) " +
      "or `member`. Values are set with `PATCH /responses/{id}` (`caseFields`) and never shown to the respondent. " +
      "The values of a field removed (or whose type changed, or a select's option removed) are removed with it."
  )
) {}
