/**
 * The MCP tools of the workspace audit log: each a domain service call, with
 * its input Schema taken from the HTTP API's (see `../McpTool.ts`).
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { AuditAction, AuditLog, AuditLogPage, AuditSurface } from "../../audit/index.ts"
import { define, type McpTool } from "../McpTool.ts"

/** The tools of the workspace audit log, bound to their services. */
export const tools = Effect.gen(function* () {
  const auditLog = yield* AuditLog

  const tools: ReadonlyArray<McpTool> = [
    define("list_audit_log", {
      title: "Read the workspace's audit log",
      description:
        "Reads the workspace's audit log of security-relevant events (sign-ins, API keys, members and roles, " +
        "invitations, exports, settings, webhooks), newest first (owners and admins only; read-only). Filter by " +
        "`action` or `surface`; pass `nextCursor` back as `cursor` for the next page.",
      input: Schema.Struct({
        action: Schema.optionalKey(AuditAction),
        surface: Schema.optionalKey(AuditSurface),
        limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 200 }))).annotate({
          description: "At most this many entries (1–200, default 50)."
        }),
        cursor: Schema.optionalKey(
          Schema.String.check(
            Schema.isPattern(/^[1-9]\d{0,9}$/, { message: "cursor must be a nextCursor of this list" }),
            Schema.makeFilter(
              (value: string) => Number(value) <= 2147483647 || "cursor must be a nextCursor of this list"
            )
          )
        )
      }),
      output: AuditLogPage,
      write: false,
      run: (actor, input) => auditLog.list(actor, input)
    })
  ]
  return tools
})
