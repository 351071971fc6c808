/** Handlers of the responses group. */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import {
  Csv,
  type ListOptions,
  Notes,
  ResponseMerges,
  Responses,
  SavedViews,
  SubmissionKeys,
  workspaceListOptions,
  Xlsx
} from "../../cases/index.ts"
import { type Actors, LinkBase } from "../../kernel/index.ts"
import { Api, CurrentActor, type ResponseListQuery } from "../../api/index.ts"
import { handle } from "../../web/index.ts"
import { AuditLog } from "../../audit/index.ts"

const toListOptions = (query: ResponseListQuery): ListOptions => ({
  q: query.q,
  stage: query.stage,
  assignee: query.assignee,
  tag: query.tag,
  from: query.from === undefined ? undefined : new Date(query.from),
  to: query.to === undefined ? undefined : new Date(query.to),
  flat: query.flat === "1",
  limit: query.limit,
  cursor: query.cursor,
  status: query.status,
  due: query.due,
  field: query.field
})

/**
 * A whole list as one JSON document written page by page from the database:
 * the envelope first, then each page of responses (the stream's chunks) as
 * one string, so a long list makes one string and one buffer per page
 * rather than per row.
 */
const jsonListStream = (head: object, rows: Stream.Stream<object, unknown>): Stream.Stream<Uint8Array, unknown> => {
  const opening = JSON.stringify({ ...head, responses: [] }).slice(0, -2)
  return Stream.make(opening).pipe(
    Stream.concat(
      Stream.suspend(() => {
        let first = true
        return Stream.mapArray(rows, (page) => {
          let text = first ? "" : ","
          first = false
          for (let i = 0; i < page.length; i++)
            text += i === 0 ? JSON.stringify(page[i]) : `,${JSON.stringify(page[i])}`
          return [text]
        })
      })
    ),
    Stream.concat(Stream.make('],"nextCursor":null}')),
    Stream.encodeText
  )
}

export const ResponsesHandlers = HttpApiBuilder.group(
  Api,
  "responses",
  Effect.fnUntraced(function* (handlers) {
    const responses = yield* Responses
    const notes = yield* Notes
    const merges = yield* ResponseMerges
    const views = yield* SavedViews
    const audit = yield* AuditLog
    // A whole list leaving qforms is an export: recorded in the audit log before it streams.
    const exported = (actor: Actors.Actor, formId: number, format: "csv" | "xlsx" | "json", query: ResponseListQuery) =>
      audit.recordNow(actor, {
        action: "responses.exported",
        target: { type: "form", id: formId },
        details: { format, filters: Object.keys(query).filter((key) => key !== "cursor" && key !== "limit") }
      })
    return handlers.handleAll({
      list: ({ params, query }) =>
        Effect.gen(function* () {
          const actor = yield* CurrentActor
          const options = toListOptions(query)
          if (options.limit !== undefined || options.cursor !== undefined) {
            return yield* handle(responses.list(actor, params.formId, options))
          }
          const { head, rows } = yield* handle(responses.stream(actor, params.formId, options))
          yield* Effect.orDie(exported(actor, params.formId, "json", query))
          return HttpServerResponse.stream(jsonListStream(head, rows), { contentType: "application/json" })
        }),
      csv: ({ params, query }) =>
        Effect.flatMap(Effect.all([CurrentActor, LinkBase]), ([actor, linkBase]) =>
          handle(
            Effect.map(
              Effect.tap(responses.stream(actor, params.formId, toListOptions(query)), () =>
                exported(actor, params.formId, "csv", query)
              ),
              ({ head, rows }) => {
                const writer = Csv.writer(
                  head.fields,
                  head.stages,
                  head.members,
                  linkBase,
                  head.valueKeys,
                  head.caseFieldDefinitions
                )
                return HttpServerResponse.stream(
                  Stream.make(writer.header).pipe(
                    // One string per page of rows, as for the JSON list.
                    Stream.concat(Stream.mapArray(rows, (page) => [page.map(writer.row).join("")])),
                    Stream.encodeText
                  ),
                  {
                    contentType: "text/csv; charset=utf-8",
                    headers: { "content-disposition": `attachment; filename="form-${head.form.id}-responses.csv"` }
                  }
                )
              }
            )
          )
        ),
      xlsx: ({ params, query }) =>
        Effect.flatMap(Effect.all([CurrentActor, LinkBase]), ([actor, linkBase]) =>
          handle(
            // No `flat` answers: the sheet has its own columns.
            Effect.map(
              Effect.tap(responses.stream(actor, params.formId, { ...toListOptions(query), flat: false }), () =>
                exported(actor, params.formId, "xlsx", query)
              ),
              ({ head, rows }) =>
                HttpServerResponse.stream(
                  Xlsx.stream(
                    Xlsx.columns(
                      head.fields,
                      head.stages,
                      head.members,
                      linkBase,
                      head.valueKeys,
                      head.caseFieldDefinitions
                    ),
                    rows
                  ),
                  {
                    contentType: Xlsx.contentType,
                    headers: { "content-disposition": `attachment; filename="form-${head.form.id}-responses.xlsx"` }
                  }
                )
            )
          )
        ),
      submit: ({ params, payload }) =>
        Effect.gen(function* () {
          const actor = yield* CurrentActor
          const request = yield* HttpServerRequest.HttpServerRequest
          const idempotencyKey = yield* SubmissionKeys.keyOf(request.headers)
          return yield* responses.submit(actor, params.formId, payload, "api", { idempotencyKey })
        }).pipe(handle),
      get: ({ params }) => Effect.flatMap(CurrentActor, (actor) => handle(responses.get(actor, params.id))),
      update: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(responses.update(actor, params.id, payload))),
      listWorkspace: ({ query }) =>
        Effect.flatMap(CurrentActor, (actor) => {
          const { view, sort, limit, cursor, ...filter } = query
          const explicit = { ...workspaceListOptions(filter, sort), limit, cursor }
          return handle(
            Effect.flatMap(
              view === undefined ? Effect.succeed(explicit) : views.listOptions(actor, view, explicit),
              (options) => responses.listWorkspace(actor, options)
            )
          )
        }),
      updateMany: ({ payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(responses.updateMany(actor, payload))),
      remove: ({ params }) => Effect.flatMap(CurrentActor, (actor) => handle(responses.remove(actor, params.id))),
      addNote: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(notes.add(actor, params.id, payload))),
      merge: ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(merges.merge(actor, params.id, payload))),
      unmerge: ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(merges.undo(actor, params.id, params.duplicateId)))
    })
  })
)
