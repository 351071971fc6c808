/**
 * The API group `AssignmentRules`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as OpenApi from "effect/http-api/OpenApi"
import { AssignmentRules } from "../../cases/index.ts"
import { Forbidden, NotFound } from "../../web/index.ts"
import { FormIdParams } from "../Params.ts"

/** A form's assignment rules (extension). */
export class AssignmentRulesGroup extends HttpApiGroup.make("assignmentRules").add(
  HttpApiEndpoint.get("get", "/forms/:formId/assignment-rules", {
    params: FormIdParams,
    success: AssignmentRules,
    error: NotFound
  }).annotate(OpenApi.Description, "Extension: the form's assignment rules, in order."),
  HttpApiEndpoint.put("replace", "/forms/:formId/assignment-rules", {
    params: FormIdParams,
    payload: AssignmentRules,
    success: AssignmentRules,
    error: [NotFound, Forbidden]
  }).annotate(
    OpenApi.Description,
    "Extension: replaces the form's assignment rules (owners, admins and members; at most 50). A new response " +
      "gets the assignee of the first rule that applies: `byAnswer`, `roundRobin` or `leastOpen`; away members " +
      "and those who left are passed by. 400 names a question not of the form or an account not a member."
  )
) {}
