/**
 * The response list's query: the WHERE clause of a form's filtered list
 * (status, stage, assignee, tag, dates, SLA due times, the text search on the trigram index)
 * and its keyset cursor (newest first); the same across the workspace's forms.
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import { type Actors, InvalidInput } from "../kernel/index.ts"
import { dayAndWeekEnd, Forms, Sensitive, WorkspaceSettingsStore } from "../forms/index.ts"
import * as CaseFields from "./CaseFields.ts"
import type { ListOptions, ResponseFilter, WorkspaceListOptions } from "./ResponseModels.ts"
import type { Row } from "./ResponseRows.ts"

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/**
 * The part of an e-mail-like `q` to look up in the trigram index: the text
 * before its `@`, when that holds a trigram (three letters or digits in a
 * row). A domain is shared by many respondents (`@example.com`, `@gmail.com`),
 * so its trigrams are in a large share of the rows, and intersecting their
 * posting lists cost more than the rest of the search (~70 ms for one address
 * at 1M rows, against ~20 ms probing the part before the `@`).
 */
const emailLocalPart = (q: string): string | undefined => {
  const at = q.indexOf("@")
  const local = at > 0 ? q.slice(0, at) : ""
  return /[\p{L}\p{N}]{3}/u.test(local) ? local : undefined
}

const Cursor = Schema.Struct({ at: Schema.String, id: Schema.Int })
const CursorFromString = Schema.fromJsonString(Cursor)

export const encodeCursor = (row: Row): string =>
  Buffer.from(JSON.stringify({ at: row.submitted_at.toISOString(), id: row.id })).toString("base64url")

const decodeCursor = (cursor: string) =>
  Schema.decodeUnknownEffect(CursorFromString)(Buffer.from(cursor, "base64url").toString("utf8")).pipe(
    Effect.map((c) => ({ at: new Date(c.at), id: c.id })),
    Effect.filterOrFail((c) => !Number.isNaN(c.at.getTime())),
    Effect.mapError(() => new InvalidInput({ message: "cursor: not a cursor from this list" }))
  )

/** The moments the `due` filter compares the SLA's due times with: now, the ends of today and of this week. */
export interface DueBounds {
  readonly now: Date
  readonly dayEnd: Date
  readonly weekEnd: Date
}

/** The list's query builder, on the current `SqlClient`. */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const forms = yield* Forms
  const workspaceSettings = yield* WorkspaceSettingsStore

  /** The bounds of the `due` filter now, in the workspace's time zone (UTC without business hours). */
  const dueBounds = Effect.fnUntraced(function* (workspaceId: number) {
    const now = yield* Clock.currentTimeMillis
    const hours = yield* workspaceSettings.businessHoursOf(workspaceId)
    const { dayEnd, weekEnd } = dayAndWeekEnd(hours?.timeZone, now)
    return { now: new Date(now), dayEnd: new Date(dayEnd), weekEnd: new Date(weekEnd) }
  })

  /**
   * A viewer's text search (`readsMasked`) finds a response only by what the viewer may read: of a form
   * with sensitive questions (`Sensitive.ts`), by its tags, its other answers, and its name and e-mail
   * unless a sensitive answer gives them, never by a sensitive answer. The trigram index still narrows the
   * rows by the whole text; this rechecks those of such forms against the text a viewer reads (the
   * questions' sensitivity as it is now, so marking one sensitive hides its old answers too).
   */
  const viewerSearch = (needle: string) => {
    const sensitiveKeys = sql`coalesce((select array_agg(sf.id::text) from fields sf
      where sf.form_id = responses.form_id and sf.sensitive), '{}'::text[])`
    const inSensitive = (column: "name" | "email") => sql`exists (
      select 1 from jsonb_each_text(responses.answers) a
      where a.key = any(${sensitiveKeys}) and strpos(lower(a.value), lower(responses.${sql.literal(column)})) > 0)`
    return sql`(not exists (select 1 from fields sf where sf.form_id = responses.form_id and sf.sensitive)
      or strpos(lower(concat_ws(' ',
        array_to_string(responses.tags, ' '),
        (select string_agg(a.value, ' ') from jsonb_each_text(responses.answers) a
          where not (a.key = any(${sensitiveKeys}))),
        case when not ${inSensitive("name")} then responses.name end,
        case when not ${inSensitive("email")} then responses.email end
      )), ${needle}) > 0)`
  }

  /**
   * The conditions of the list's filters on `responses` (columns unqualified; the table not aliased), in a
   * workspace and, when given, one form. The `due` filter needs `due` (see `dueBounds`); without it, it is
   * left out. `readsMasked`: the caller reads sensitive answers masked (`Sensitive.readsMasked`), so its
   * text search does not look into them.
   */
  const filterConditions = (
    workspaceId: number,
    formId: number | undefined,
    options: ResponseFilter,
    readsMasked: boolean,
    due?: DueBounds | undefined
  ) => {
    // A response merged into another (`ResponseMerges.ts`) is a pointer: never in a list.
    const conditions = [
      sql`workspace_id = ${workspaceId}`,
      ...(formId === undefined ? [] : [sql`form_id = ${formId}`]),
      sql`merged_into is null`
    ]
    const status = options.status ?? "completed"
    if (status === "completed") conditions.push(sql`finished`)
    else if (status === "partial") conditions.push(sql`not finished`)
    if (options.stage === "none") conditions.push(sql`stage_id is null`)
    else if (options.stage !== undefined) conditions.push(sql`stage_id = ${options.stage}`)
    if (options.assignee === "none") conditions.push(sql`assignee_id is null`)
    else if (options.assignee !== undefined) conditions.push(sql`assignee_id = ${options.assignee}`)
    if (options.tag !== undefined) conditions.push(sql`tags @> ${[options.tag]}::text[]`)
    if (options.q !== undefined && options.q.trim() !== "") {
      const q = options.q.trim()
      const probe = emailLocalPart(q)
      conditions.push(
        probe === undefined
          ? sql`search_text like ${likePattern(q)}`
          : // Same rows: the probe is part of q, and strpos (which the index does not take) checks all of it.
            sql`search_text like ${likePattern(probe)} and strpos(search_text, ${q.toLowerCase()}) > 0`
      )
      if (readsMasked) conditions.push(viewerSearch(q.toLowerCase()))
    }
    if (options.from !== undefined) conditions.push(sql`submitted_at >= ${options.from}`)
    if (options.to !== undefined) conditions.push(sql`submitted_at <= ${options.to}`)
    if (options.due !== undefined && due !== undefined) {
      conditions.push(
        options.due === "overdue"
          ? sql`sla_due_at <= ${due.now}`
          : sql`sla_due_at > ${due.now} and sla_due_at < ${options.due === "today" ? due.dayEnd : due.weekEnd}`
      )
    }
    if (options.open === true) {
      conditions.push(
        sql`(stage_id is null or stage_id not in (select id from stages where workspace_id = ${workspaceId} and is_closed))`
      )
    } else if (options.open === false) {
      conditions.push(sql`stage_id in (select id from stages where workspace_id = ${workspaceId} and is_closed)`)
    }
    // Case fields (`CaseFields.ts`): the value as text equals (a number or member id as its digits), or not set.
    for (const filter of CaseFields.parseFilters(options.field)) {
      conditions.push(
        filter.value === undefined
          ? sql`case_fields -> ${filter.key}::text is null`
          : sql`case_fields ->> ${filter.key}::text = ${filter.value}`
      )
    }
    return conditions
  }

  /** The form's summary and the WHERE clause of a filtered list (keyset cursor included). */
  const prepareList = Effect.fnUntraced(function* (actor: Actors.Actor, formId: number, options: ListOptions) {
    const form = yield* forms.getSummary(actor, formId)
    const cursor = options.cursor === undefined ? undefined : yield* decodeCursor(options.cursor)
    const bounds = options.due === undefined ? undefined : yield* dueBounds(actor.workspaceId)
    const conditions = filterConditions(actor.workspaceId, formId, options, Sensitive.readsMasked(actor), bounds)
    const after = (at: Date, id: number) => sql.and([...conditions, sql`(submitted_at, id) < (${at}, ${id})`])
    return { form, where: cursor === undefined ? sql.and(conditions) : after(cursor.at, cursor.id), after }
  })

  /**
   * The WHERE clause of the workspace-wide list (submitted responses of every form, or of `formId`),
   * keyset cursor included (after the cursor in `sort`'s order). `assignee: "me"` is the caller's account;
   * `stage` needs `formId`.
   */
  const prepareWorkspaceList = Effect.fnUntraced(function* (actor: Actors.Actor, options: WorkspaceListOptions) {
    const { formId, assignee, cursor: after, limit: _limit, sort, ...filter } = options
    if (filter.stage !== undefined && formId === undefined) {
      return yield* new InvalidInput({
        message: "stage: needs formId (stages belong to one form)",
        details: [{ path: "stage", message: "needs formId (stages belong to one form)" }]
      })
    }
    if (assignee === "me" && actor.accountId === null) {
      return yield* new InvalidInput({
        message: "assignee: me needs a member's account",
        details: [{ path: "assignee", message: "me needs a member's account" }]
      })
    }
    if (formId !== undefined) yield* forms.getSummary(actor, formId)
    const cursor = after === undefined ? undefined : yield* decodeCursor(after)
    const bounds = filter.due === undefined ? undefined : yield* dueBounds(actor.workspaceId)
    const conditions = filterConditions(
      actor.workspaceId,
      formId,
      { ...filter, status: "completed", assignee: assignee === "me" ? (actor.accountId ?? undefined) : assignee },
      Sensitive.readsMasked(actor),
      bounds
    )
    if (cursor !== undefined) {
      conditions.push(
        sort === "oldest"
          ? sql`(submitted_at, id) > (${cursor.at}, ${cursor.id})`
          : sql`(submitted_at, id) < (${cursor.at}, ${cursor.id})`
      )
    }
    return sql.and(conditions)
  })

  return { prepareList, prepareWorkspaceList, filterConditions, dueBounds }
})
