/**
 * The read side of responses: a form's list (a page, or a stream of any
 * length in constant memory), with everything the list shows beside the rows,
 * the workspace-wide list across forms (the inbox: a page at a time),
 * and one response in detail with its timeline and e-mails.
 *
 * @module
 */
import * as CaseFields from "./CaseFields.ts"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as SqlClient from "effect/sql/SqlClient"
import type * as Statement from "effect/sql/Statement"
import { type Actors, LinkBase } from "../kernel/index.ts"
import { Activities } from "./Activities.ts"
import {
  EndingsModule as Endings,
  type Field,
  FormLogic,
  Forms,
  type FormSettings,
  Sensitive,
  Stages,
  Summaries
} from "../forms/index.ts"
import { Members } from "../identity/index.ts"
import { CaseMail } from "./CaseMail.ts"
import type {
  ListOptions,
  ResponseFilter,
  ResponseListHead,
  WorkspaceListOptions,
  WorkspaceResponseList
} from "./ResponseModels.ts"
import * as ResponseQueries from "./ResponseQueries.ts"
import { columns, findRow, type Row, toRow } from "./ResponseRows.ts"

/**
 * Rows read per query when a whole list is streamed. 250 rather than 500: on
 * PGlite a page of 500 rows outlived young-generation collections (about
 * 5 MB moved to the old space per scavenge while a 100k-row XLSX export ran,
 * +93–114 MB RSS; 250 rows: 0.15 MB, +44–47 MB), at the same time to the
 * last byte; on PostgreSQL the size made no difference (100, 250, 500).
 */
const STREAM_PAGE_SIZE = 250

/** A page of the workspace-wide list when `limit` is not given. */
export const defaultWorkspacePage = 50

/** The questions whose sensitive answers `actor` reads masked (a viewer), else undefined. */
const maskedFor = (actor: Actors.Actor, fields: ReadonlyArray<Field>): ReadonlyArray<Field> | undefined =>
  Sensitive.readsMasked(actor) && fields.some(Sensitive.isSensitive) ? fields : undefined

/** The read operations of the `Responses` service. */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const forms = yield* Forms
  const stages = yield* Stages
  const members = yield* Members
  const activities = yield* Activities
  const respondentEmails = yield* CaseMail
  const { prepareList, prepareWorkspaceList } = yield* ResponseQueries.make

  /** Everything of a list but its responses. */
  const listHead = (actor: Actors.Actor, form: { readonly id: number; readonly title: string }) =>
    Effect.map(
      Effect.all(
        [
          forms.fields(actor.workspaceId, form.id),
          stages.list(actor, form.id),
          members.list(actor.workspaceId),
          sql<{ readonly tag: string }>`
          select tag from form_tags where workspace_id = ${actor.workspaceId} and form_id = ${form.id} order by tag`,
          sql<{ readonly hidden_fields: ReadonlyArray<FormLogic.HiddenField>; readonly settings: unknown }>`
          select hidden_fields, settings from forms where workspace_id = ${actor.workspaceId} and id = ${form.id}`,
          CaseFields.definitionsOf(sql, actor.workspaceId, form.id)
        ],
        { concurrency: "unbounded" }
      ),
      ([fields, stageList, memberList, tagRows, hiddenRows, caseFieldList]): ResponseListHead => {
        const hiddenFields = hiddenRows[0]?.hidden_fields ?? []
        const settings = (hiddenRows[0]?.settings ?? {}) as FormSettings
        return {
          form: { id: form.id, title: form.title },
          fields,
          stages: stageList,
          members: memberList,
          allTags: tagRows.map((r) => r.tag),
          hiddenFields,
          caseFieldDefinitions: caseFieldList,
          valueKeys: [
            ...hiddenFields.map((h) => FormLogic.hiddenKey(h.name)),
            ...FormLogic.keptVariables(settings.variables, fields).map(FormLogic.variableKey),
            ...((settings.endings ?? []).length > 0 ? [Endings.endingKey] : [])
          ]
        }
      }
    )

  const list = Effect.fn("Responses.list")(function* (actor: Actors.Actor, formId: number, options: ListOptions = {}) {
    const { form, where } = yield* prepareList(actor, formId, options)
    const now = yield* Clock.currentTimeMillis
    const limit = options.limit === undefined ? undefined : options.limit + 1
    const [rows, head] = yield* Effect.all(
      [
        sql<Row>`
        select ${sql.literal(columns)} from responses where ${where}
        order by submitted_at desc, id desc ${limit === undefined ? sql`` : sql`limit ${limit}`}`,
        listHead(actor, form)
      ],
      { concurrency: "unbounded" }
    )
    const more = options.limit !== undefined && rows.length > options.limit
    const page = more ? rows.slice(0, options.limit) : rows
    const flatten = options.flat ? Summaries.flattener(head.fields, yield* LinkBase) : undefined
    return {
      ...head,
      responses: page.map((row) => toRow(row, flatten, maskedFor(actor, head.fields), now)),
      nextCursor: more ? ResponseQueries.encodeCursor(page[page.length - 1]!) : null
    }
  })

  const stream = Effect.fn("Responses.stream")(function* (
    actor: Actors.Actor,
    formId: number,
    options: ResponseFilter & { readonly flat?: boolean | undefined } = {}
  ) {
    const { after, form, where } = yield* prepareList(actor, formId, options)
    const head = yield* listHead(actor, form)
    const flatten = options.flat ? Summaries.flattener(head.fields, yield* LinkBase) : undefined
    // Keyset pages rather than one long cursor: memory stays flat, and no
    // connection (PGlite has only one) is held while a slow client reads.
    const page = (condition: Statement.Fragment) =>
      sql<Row>`
        select ${sql.literal(columns)} from responses where ${condition}
        order by submitted_at desc, id desc limit ${STREAM_PAGE_SIZE}`
    const masked = maskedFor(actor, head.fields)
    const now = yield* Clock.currentTimeMillis
    const toRows = (batch: ReadonlyArray<Row>) => batch.map((row) => toRow(row, flatten, masked, now))
    const nextOf = (batch: ReadonlyArray<Row>) => {
      const last = batch[batch.length - 1]
      return batch.length < STREAM_PAGE_SIZE || last === undefined
        ? Option.none()
        : Option.some(after(last.submitted_at, last.id))
    }
    // The first page is read before the answer starts, so a failing query
    // is an error status, not a response cut off half-way.
    const first = yield* page(where)
    const rest = Option.match(nextOf(first), {
      onNone: () => Stream.empty,
      onSome: (start) =>
        Stream.paginate(start, (condition) =>
          Effect.map(page(condition), (batch) => [toRows(batch), nextOf(batch)] as const)
        )
    })
    const rows = Stream.concat(Stream.fromIterable(toRows(first)), rest)
    return { head, rows }
  })

  const get = Effect.fn("Responses.get")(function* (actor: Actors.Actor, responseId: number) {
    const row = yield* findRow(sql, actor.workspaceId, responseId, false)
    const [form, stageList, memberList, timeline, correspondence, caseFieldList] = yield* Effect.all(
      [
        forms.get(actor, row.form_id),
        stages.list(actor, row.form_id),
        members.list(actor.workspaceId),
        activities.listUnchecked(actor.workspaceId, responseId),
        respondentEmails.forResponse(actor.workspaceId, responseId),
        CaseFields.definitionsOf(sql, actor.workspaceId, row.form_id)
      ],
      { concurrency: "unbounded" }
    ).pipe(
      // The response exists, so its form does: a missing one is a broken invariant.
      Effect.catchTag("FormNotFound", (error) => Effect.die(error))
    )
    return {
      response: toRow(row, undefined, maskedFor(actor, form.fields), yield* Clock.currentTimeMillis),
      form: { id: form.id, title: form.title, publicId: form.publicId, status: form.status },
      fields: form.fields,
      stages: stageList,
      members: memberList,
      activities: timeline,
      emails: correspondence.emails,
      replies: correspondence.replies,
      caseFieldDefinitions: caseFieldList
    }
  })

  /**
   * The workspace-wide list: submitted responses of every form (or `formId`'s), newest first (or oldest, `sort`), a page of
   * `limit` (default 50) at a time; each row with its form's id and title.
   */
  const listWorkspace = Effect.fn("Responses.listWorkspace")(function* (
    actor: Actors.Actor,
    options: WorkspaceListOptions = {}
  ) {
    const where = yield* prepareWorkspaceList(actor, options)
    const limit = options.limit ?? defaultWorkspacePage
    const now = yield* Clock.currentTimeMillis
    const rows = yield* sql<Row>`
      select ${sql.literal(columns)} from responses where ${where}
      order by ${options.sort === "oldest" ? sql`submitted_at, id` : sql`submitted_at desc, id desc`}
      limit ${limit + 1}`
    const more = rows.length > limit
    const page = more ? rows.slice(0, limit) : rows
    const formIds = [...new Set(page.map((row) => row.form_id))]
    const titles = new Map(
      formIds.length === 0
        ? []
        : (yield* sql<{ readonly id: number; readonly title: string }>`
            select id, title from forms where workspace_id = ${actor.workspaceId} and id = any(${formIds}::int[])`).map(
            (form) => [form.id, form.title] as const
          )
    )
    const stageIds = [...new Set(page.flatMap((row) => (row.stage_id === null ? [] : [row.stage_id])))]
    const stageNames = new Map(
      stageIds.length === 0
        ? []
        : (yield* sql<{ readonly id: number; readonly name: string }>`
            select id, name from stages where workspace_id = ${actor.workspaceId} and id = any(${stageIds}::int[])`).map(
            (stage) => [stage.id, stage.name] as const
          )
    )
    // A viewer reads sensitive answers masked: each form's questions, read once per page.
    const fieldsOf = new Map(
      Sensitive.readsMasked(actor)
        ? yield* Effect.forEach(formIds, (formId) =>
            Effect.map(forms.fields(actor.workspaceId, formId), (fields) => [formId, fields] as const)
          )
        : []
    )
    return {
      responses: page.map((row) => {
        const fields = fieldsOf.get(row.form_id)
        return {
          ...toRow(row, undefined, fields === undefined ? undefined : maskedFor(actor, fields), now),
          formId: row.form_id,
          formTitle: titles.get(row.form_id) ?? "",
          stageName: row.stage_id === null ? null : (stageNames.get(row.stage_id) ?? null)
        }
      }),
      nextCursor: more ? ResponseQueries.encodeCursor(page[page.length - 1]!) : null
    } satisfies WorkspaceResponseList
  })

  return { list, listWorkspace, stream, get }
})
