/** Handlers of the audit group: the workspace's audit log and its CSV export (owners and admins). */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { type AuditEntry, type AuditFilter, AuditLog } from "../../audit/index.ts"
import { Csv } from "../../cases/index.ts"
import { Api, type AuditLogQuery, CurrentActor } from "../../api/index.ts"
import { handle } from "../../web/index.ts"

/** The query as the service's filter: `actor` is `member:<id>`, `api_key:<id>`, `system` or `cli`. */
const toFilter = (query: AuditLogQuery): AuditFilter => {
  const [kind, id] = (query.actor ?? "").split(":")
  return {
    action: query.action,
    actorKind: kind === "member" || kind === "api_key" || kind === "system" || kind === "cli" ? kind : undefined,
    actorId: id === undefined ? undefined : Number(id),
    surface: query.surface,
    from: query.from === undefined ? undefined : new Date(query.from),
    to: query.to === undefined ? undefined : new Date(query.to),
    limit: query.limit,
    cursor: query.cursor
  }
}

/** The CSV export's columns. */
export const csvColumns: ReadonlyArray<string> = [
  "ID",
  "Occurred at",
  "Action",
  "Actor kind",
  "Actor ID",
  "Actor",
  "Surface",
  "Address",
  "Target type",
  "Target ID",
  "Details"
]

/** One entry as a CSV line (every cell formula-safe, as the responses' export, see `cases/Csv.ts`). */
const csvLine = (entry: AuditEntry): string =>
  `${[
    String(entry.id),
    entry.occurredAt,
    entry.action,
    entry.actor.kind,
    entry.actor.id === null ? "" : String(entry.actor.id),
    entry.actor.label ?? "",
    entry.surface,
    entry.address ?? "",
    entry.target?.type ?? "",
    entry.target?.id ?? "",
    JSON.stringify(entry.details)
  ]
    .map(Csv.cell)
    .join(",")}\r\n`

export const AuditHandlers = HttpApiBuilder.group(
  Api,
  "audit",
  Effect.fnUntraced(function* (handlers) {
    const audit = yield* AuditLog
    return handlers.handleAll({
      list: ({ query }) => Effect.flatMap(CurrentActor, (actor) => handle(audit.list(actor, toFilter(query)))),
      csv: ({ query }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          handle(
            Effect.map(audit.export(actor, toFilter(query)), (pages) =>
              HttpServerResponse.stream(
                Stream.make(`${csvColumns.map(Csv.cell).join(",")}\r\n`).pipe(
                  // One string per page of entries, as the responses' export.
                  Stream.concat(Stream.map(pages, (entries) => entries.map(csvLine).join(""))),
                  Stream.encodeText
                ),
                {
                  contentType: "text/csv; charset=utf-8",
                  headers: {
                    "content-disposition": `attachment; filename="workspace-${actor.workspaceId}-audit-log.csv"`
                  }
                }
              )
            )
          )
        )
    })
  })
)
