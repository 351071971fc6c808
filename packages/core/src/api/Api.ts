/**
 * The qforms HTTP API, defined once (no handlers here): paths, methods,
 * request and response schemas, error statuses and security. The server, the
 * OpenAPI document and typed clients all derive from it. Each group of
 * endpoints is a module of `groups/`; this module lists them in order, adds
 * the routes the router serves beside them for the published document, and
 * re-exports the groups' Schemas (the `@qforms/core/api` entry).
 */
import * as Schema from "effect/Schema"
import * as HttpApi from "effect/http-api/HttpApi"
import type * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as OpenApi from "effect/http-api/OpenApi"
import { PersonData } from "../privacy/index.ts"
import { catalogue, catalogueDocument } from "../events/index.ts"
import { Authentication, RequestErrors } from "./Authentication.ts"
import { ApiKeysGroup } from "./groups/ApiKeys.ts"
import { AssignmentRulesGroup } from "./groups/AssignmentRules.ts"
import { AuditGroup } from "./groups/Audit.ts"
import { CaseFieldsGroup } from "./groups/CaseFields.ts"
import { EmailsGroup } from "./groups/Emails.ts"
import { EventsGroup } from "./groups/Events.ts"
import { FilesGroup } from "./groups/Files.ts"
import { FormsGroup } from "./groups/Forms.ts"
import { GenerateGroup } from "./groups/Generate.ts"
import { ImagesGroup } from "./groups/Images.ts"
import { InsightsGroup } from "./groups/Insights.ts"
import { InvitationsGroup } from "./groups/Invitations.ts"
import { MembersGroup } from "./groups/Members.ts"
import { NotificationsGroup } from "./groups/Notifications.ts"
import { PrivacyGroup } from "./groups/Privacy.ts"
import { PublicGroup } from "./groups/Public.ts"
import { ResponsesGroup } from "./groups/Responses.ts"
import { SavedViewsGroup } from "./groups/SavedViews.ts"
import { ServiceGroup } from "./groups/Service.ts"
import { StagesGroup } from "./groups/Stages.ts"
import { TranslationsGroup } from "./groups/Translations.ts"
import { WebhooksGroup } from "./groups/Webhooks.ts"
import { WorkspaceGroup } from "./groups/Workspace.ts"

export { Authentication, CurrentActor, RequestErrors } from "./Authentication.ts"
export { ApiKeysGroup } from "./groups/ApiKeys.ts"
export { AssignmentRulesGroup } from "./groups/AssignmentRules.ts"
export { AuditGroup, AuditLogQuery } from "./groups/Audit.ts"
export { CaseFieldsGroup } from "./groups/CaseFields.ts"
export { EmailsGroup } from "./groups/Emails.ts"
export { EventsGroup } from "./groups/Events.ts"
export { FilesGroup } from "./groups/Files.ts"
export { FormsGroup } from "./groups/Forms.ts"
export { GenerateGroup } from "./groups/Generate.ts"
export { ImagesGroup } from "./groups/Images.ts"
export { InsightsGroup, MetricsQuery, SummaryQuery, WorkspaceMetricsQuery } from "./groups/Insights.ts"
export { InvitationsGroup } from "./groups/Invitations.ts"
export { MembersGroup } from "./groups/Members.ts"
export { ChannelId, NotificationsGroup } from "./groups/Notifications.ts"
export { PrivacyGroup } from "./groups/Privacy.ts"
export { PublicGroup } from "./groups/Public.ts"
export {
  BulkResponseFilter,
  BulkUpdateResponsesInput,
  ResponseList,
  ResponseListQuery,
  ResponsesGroup,
  WorkspaceResponseListQuery
} from "./groups/Responses.ts"
export { SavedViewsGroup } from "./groups/SavedViews.ts"
export { ServiceGroup } from "./groups/Service.ts"
export { StagesGroup } from "./groups/Stages.ts"
export { TranslationsGroup } from "./groups/Translations.ts"
export { DeliveryLogQuery, SubscriptionId, WebhooksGroup } from "./groups/Webhooks.ts"
export { WorkspaceGroup } from "./groups/Workspace.ts"

/** The version of the API description (spec section 9), independent of the package version. */
export const apiVersion = "1.0.0"

/**
 * The whole API, under `/api`.
 *
 * @example
 * ```ts
 * import * as OpenApi from "effect/http-api/OpenApi"
 * import { Api } from "@qforms/core"
 * const document = OpenApi.fromApi(Api.Api)
 * ```
 */
export class Api extends HttpApi.make("qforms")
  .add(FormsGroup)
  .add(ResponsesGroup)
  .add(StagesGroup)
  .add(AssignmentRulesGroup)
  .add(SavedViewsGroup)
  .add(CaseFieldsGroup)
  .add(MembersGroup)
  .add(InvitationsGroup)
  .add(WebhooksGroup)
  .add(FilesGroup)
  .add(ImagesGroup)
  .add(TranslationsGroup)
  .add(GenerateGroup)
  .add(NotificationsGroup)
  .add(EmailsGroup)
  .add(ApiKeysGroup)
  .add(WorkspaceGroup)
  .add(InsightsGroup)
  .add(PrivacyGroup)
  .add(AuditGroup)
  .prefix("/api")
  .middleware(RequestErrors)
  .middleware(Authentication)
  .annotate(HttpApi.PayloadParseOptions, { onExcessProperty: "error", errors: "all" })
  .annotate(HttpApi.QueryParseOptions, { errors: "all" })
  .annotateMerge(
    OpenApi.annotations({
      title: "qforms API",
      version: apiVersion,
      description:
        "Forms, responses as cases (stage, assignee, tags, notes), and webhook subscriptions. " +
        'Every endpoint takes an API key as a bearer token; every error body is `{"error": "…"}`.'
    })
  ) {}

/**
 * Documents each path and query parameter whose value is a number (an id,
 * `limit`) with the JSON Schema of its decoded type (`integer`, with its
 * bounds) rather than that of the text the URL carries, so that a generated
 * client takes the ids the API returns. Derived from the endpoints' Schemas.
 */
const numericParameters =
  <Id extends string, Groups extends HttpApiGroup.Constraint>(api: HttpApi.HttpApi<Id, Groups>) =>
  (spec: Record<string, unknown>): Record<string, unknown> => {
    const paths = spec["paths"] as Record<
      string,
      Record<string, { parameters?: Array<{ name: string; in: string; schema: unknown }> }>
    >
    HttpApi.reflect(api, {
      onGroup: () => undefined,
      onEndpoint: ({ endpoint }) => {
        const path = endpoint.path.replace(/:(\w+)/g, "{$1}")
        const operation = paths[path]?.[endpoint.method.toLowerCase()]
        if (operation?.parameters === undefined) return
        for (const [where, schema] of [
          ["path", endpoint.params],
          ["query", endpoint.query]
        ] as const) {
          if (schema === undefined) continue
          const decoded = Schema.toJsonSchemaDocument(Schema.toType(schema))
          const properties = (decoded.schema["properties"] ?? {}) as Record<string, unknown>
          for (const parameter of operation.parameters) {
            const typed = properties[parameter.name]
            if (
              parameter.in === where &&
              typed !== undefined &&
              /"type":"(?:integer|number)"/.test(JSON.stringify(typed))
            ) {
              parameter.schema = typed
            }
          }
        }
      }
    })
    return spec
  }

/**
 * Publishes `person.json` of the personal-data export (`GET /api/privacy/export`) in `components.schemas`
 * (`PersonData` and the schemas it names): an entry of a ZIP, so no operation refers to it.
 */
const personDataSchemas = (spec: Record<string, unknown>): Record<string, unknown> => {
  const components = (spec["components"] ?? {}) as { schemas?: Record<string, unknown> }
  const schemas = (components.schemas ??= {})
  const document = Schema.toJsonSchemaDocument(PersonData)
  for (const [name, definition] of Object.entries(document.definitions)) {
    schemas[name] ??= JSON.parse(JSON.stringify(definition).replaceAll('"#/$defs/', '"#/components/schemas/'))
  }
  return { ...spec, components: { ...components, schemas } }
}

/**
 * Publishes the event catalogue as the document's `webhooks` (OpenAPI 3.1): one POST per event, its body the
 * event's Schema (the contract's WebhookEvent for its two events), with an example. The Schemas' definitions
 * join `components.schemas`.
 */
const eventWebhooks = (spec: Record<string, unknown>): Record<string, unknown> => {
  const components = (spec["components"] ?? {}) as { schemas?: Record<string, unknown> }
  const schemas = (components.schemas ??= {})
  const toComponents = (json: unknown): unknown =>
    JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/'))
  const webhooks: Record<string, unknown> = {}
  const examples = catalogueDocument().events
  for (const entry of catalogue) {
    const document = Schema.toJsonSchemaDocument(entry.schema)
    for (const [name, definition] of Object.entries(document.definitions)) schemas[name] ??= toComponents(definition)
    webhooks[entry.name] = {
      post: {
        operationId: `event.${entry.name}`,
        summary: entry.name,
        description: `${entry.spec ? "" : "Extension: "}${entry.description}`,
        tags: ["events"],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: toComponents(document.schema),
              example: examples.find((e) => e.name === entry.name)!.example
            }
          }
        },
        responses: {
          "200": {
            description:
              entry.name === "ping"
                ? "Any 2xx answer passes the test; the answer is reported to whoever sent it, and nothing is retried."
                : "Any 2xx answer acknowledges the event; anything else is retried."
          }
        }
      }
    }
  }
  return { ...spec, components: { ...components, schemas }, webhooks }
}

const described = Api.add(PublicGroup).add(EventsGroup).add(ServiceGroup)

/**
 * The API as published in the OpenAPI document (`/api/openapi.json`) and on
 * the reference page: {@link Api} plus the routes served beside it — the public
 * page's JSON submission and uploads, the event stream, the documents and the
 * health probes.
 *
 * @example
 * ```ts
 * import * as OpenApi from "effect/http-api/OpenApi"
 * import { Api } from "@qforms/core"
 * const document = OpenApi.fromApi(Api.Documented)
 * ```
 */
export const Documented = described.annotateMerge(
  OpenApi.annotations({ transform: (spec) => eventWebhooks(personDataSchemas(numericParameters(described)(spec))) })
)
