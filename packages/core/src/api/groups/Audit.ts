/**
 * The API group `Audit`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import * as Schema from "effect/Schema"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { IsoDateTime } from "../../cases/index.ts"
import { AuditAction, AuditLogPage, AuditSurface } from "../../audit/index.ts"
import { Forbidden } from "../../web/index.ts"

/** The filters and paging of the audit log (query string). */
export const AuditLogQuery = Schema.Struct({
  action: Schema.optionalKey(AuditAction).annotate({ description: "Only entries of this action." }),
  actor: Schema.optionalKey(
    Schema.String.check(
      Schema.isPattern(/^(?:(?:member|api_key):[1-9]\d{0,9}|system|cli)$/, {
        message: "actor must be member:<accountId>, api_key:<keyId>, system or cli"
      }),
      Schema.makeFilter((value: string) => Number(value.split(":")[1] ?? 0) <= 2147483647 || "actor: no such id")
    )
  ).annotate({
    description: "Only entries of this actor: `member:<accountId>`, `api_key:<keyId>`, `system` or `cli`."
  }),
  surface: Schema.optionalKey(AuditSurface).annotate({ description: "Only entries that came through this surface." }),
  from: Schema.optionalKey(IsoDateTime).annotate({ description: "At or after this moment." }),
  to: Schema.optionalKey(IsoDateTime).annotate({ description: "At or before this moment." }),
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 200 }))).annotate({
    description: "At most this many entries (1–200, default 50); `nextCursor` then leads to the next page."
  }),
  cursor: Schema.optionalKey(
    Schema.String.check(
      Schema.isPattern(/^[1-9]\d{0,9}$/, { message: "cursor must be a nextCursor of this list" }),
      Schema.makeFilter((value: string) => Number(value) <= 2147483647 || "cursor must be a nextCursor of this list")
    )
  ).annotate({ description: "`nextCursor` of the previous page." })
})
export type AuditLogQuery = typeof AuditLogQuery.Type

/** The workspace's audit log (extension; owners and admins). */
export class AuditGroup extends HttpApiGroup.make("audit").add(
  HttpApiEndpoint.get("list", "/audit-log", { query: AuditLogQuery, success: AuditLogPage, error: Forbidden }).annotate(
    OpenApi.Description,
    "Extension: the workspace's audit log of security-relevant events, newest first (owners and admins)."
  ),
  HttpApiEndpoint.get("csv", "/audit-log/export.csv", {
    query: AuditLogQuery,
    success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv" })),
    error: Forbidden
  }).annotate(
    OpenApi.Description,
    "Extension: the filtered audit log as CSV, newest first (RFC 4180, formula-safe cells); `limit` is ignored, " +
      "`cursor` starts below that entry. The export is itself recorded (`audit.exported`)."
  )
) {}
