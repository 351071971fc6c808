/**
 * Changing cases: one response's stage, assignee, tags and answers (`PATCH
 * /responses/{id}`), or many responses' stage, assignee and tags at once
 * (`PATCH /responses`, by ids or by the list's filters). Every change writes
 * its activities and events (`response.stage_changed`, `response.assigned`,
 * `response.tagged`, `response.updated`) in the change's transaction; a bulk
 * change is one transaction, so it applies to every case or to none.
 *
 * @module
 */
import * as Arr from "effect/Array"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Activities, type NewActivity } from "./Activities.ts"
import * as CaseFields from "./CaseFields.ts"
import { Actors, InvalidInput, ResponseNotFound, SentLinkBase } from "../kernel/index.ts"
import { Contacts } from "./Contacts.ts"
import { Events, toEventMember } from "../events/index.ts"
import { type AnswerInput, type AnswerValue, type Field, Forms, Summaries } from "../forms/index.ts"
import * as AnswerEdits from "./AnswerEdits.ts"
import { deriveRespondent } from "./Respondents.ts"
import { Members } from "../identity/index.ts"
import * as ResponseCounts from "./ResponseCounts.ts"
import * as ResponseQueries from "./ResponseQueries.ts"
import {
  type BulkUpdate,
  type BulkUpdateResult,
  normalizeTags,
  type ResponseChange,
  type UpdateResponseInput,
  type UpdateResponseResult
} from "./ResponseModels.ts"
import * as ResponseLimits from "./ResponseLimits.ts"
import { columns, findRow, type Row, responseEventFields, searchText } from "./ResponseRows.ts"
import * as SubmissionChecks from "./SubmissionChecks.ts"

/** How many cases one bulk change may touch: more is refused, naming the count, so the change stays one transaction. */
export const maxBulkResponses = 1000

/** How many tags a case may carry (as `PATCH /responses/{id}` allows). */
const maxTags = 50

const sameTags = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) =>
  a.length === b.length && a.every((tag, i) => tag === b[i])

/** A list of ids for a message: the first ten, then how many more. */
const idList = (ids: ReadonlyArray<number>) =>
  ids.length <= 10 ? ids.join(", ") : `${ids.slice(0, 10).join(", ")} and ${ids.length - 10} more`

/** `tags` less `remove` (compared case-insensitively), then `add` (a tag already there keeps its spelling). */
const retag = (tags: ReadonlyArray<string>, add: ReadonlyArray<string>, remove: ReadonlyArray<string>) => {
  const removed = new Set(remove.map((tag) => tag.trim().toLowerCase()))
  return normalizeTags([...tags.filter((tag) => !removed.has(tag.toLowerCase())), ...add])
}

const invalidAt = (path: string, message: string) =>
  new InvalidInput({ message: `${path}: ${message}`, details: [{ path, message }] })

interface StageRef {
  readonly id: number
  readonly name: string
  readonly formId: number
  readonly isClosed: boolean
}

/** What a change reads besides the case: remembered for the length of a bulk change, so 1,000 cases read it once. */
interface Lookups {
  readonly form: (
    formId: number
  ) => Effect.Effect<{ readonly title: string; readonly fields: ReadonlyArray<Field> }, SqlError.SqlError>
  readonly stage: (stageId: number) => Effect.Effect<Option.Option<StageRef>, SqlError.SqlError>
  readonly isMember: (accountId: number) => Effect.Effect<boolean, SqlError.SqlError>
  readonly caseFields: (formId: number) => Effect.Effect<ReadonlyArray<CaseFields.CaseField>, SqlError.SqlError>
}

/** One case field a change sets: its key and label, its value before and after (null: not set). */
interface CaseFieldChange {
  readonly key: string
  readonly label: string
  readonly from: CaseFields.CaseFieldValue | null
  readonly to: CaseFields.CaseFieldValue | null
}

/** A response's changes, on the current `SqlClient` (inside the caller's transaction). */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const forms = yield* Forms
  const members = yield* Members
  const contacts = yield* Contacts
  const activities = yield* Activities
  const events = yield* Events
  const { countTags } = yield* ResponseCounts.make
  const { invalid } = yield* SubmissionChecks.make
  const { dueBounds, filterConditions } = yield* ResponseQueries.make
  const limits = yield* ResponseLimits.make

  /** The lookups of one change in `workspaceId`, each answer kept for the change's length. */
  const lookupsFor = (workspaceId: number): Lookups => {
    const formCache = new Map<number, { readonly title: string; readonly fields: ReadonlyArray<Field> }>()
    const stageCache = new Map<number, Option.Option<StageRef>>()
    const memberCache = new Map<number, boolean>()
    const caseFieldCache = new Map<number, ReadonlyArray<CaseFields.CaseField>>()
    return {
      caseFields: (formId) => {
        const known = caseFieldCache.get(formId)
        if (known !== undefined) return Effect.succeed(known)
        return Effect.tap(CaseFields.definitionsOf(sql, workspaceId, formId), (found) =>
          Effect.sync(() => caseFieldCache.set(formId, found))
        )
      },
      form: (formId) => {
        const known = formCache.get(formId)
        if (known !== undefined) return Effect.succeed(known)
        return Effect.gen(function* () {
          const rows = yield* sql<{ readonly title: string }>`
            select title from forms where workspace_id = ${workspaceId} and id = ${formId}`
          const form = { title: rows[0]?.title ?? "", fields: yield* forms.fields(workspaceId, formId) }
          formCache.set(formId, form)
          return form
        })
      },
      stage: (stageId) => {
        const known = stageCache.get(stageId)
        if (known !== undefined) return Effect.succeed(known)
        return Effect.map(
          sql<{ readonly id: number; readonly name: string; readonly form_id: number; readonly is_closed: boolean }>`
            select id, name, form_id, is_closed from stages where workspace_id = ${workspaceId} and id = ${stageId}`,
          (rows) => {
            const found = Option.map(Option.fromNullishOr(rows[0]), (r) => ({
              id: r.id,
              name: r.name,
              formId: r.form_id,
              isClosed: r.is_closed
            }))
            stageCache.set(stageId, found)
            return found
          }
        )
      },
      isMember: (accountId) => {
        const known = memberCache.get(accountId)
        if (known !== undefined) return Effect.succeed(known)
        return Effect.map(Effect.option(members.get(workspaceId, accountId)), (found) => {
          memberCache.set(accountId, Option.isSome(found))
          return Option.isSome(found)
        })
      }
    }
  }

  /** A member as events name them; null for none, or one who has left the workspace. */
  const eventMember = (workspaceId: number, accountId: number | null) =>
    Effect.map(members.find(workspaceId, accountId), (member) => (member === null ? null : toEventMember(member)))

  /**
   * The events of an update, in its transaction: `response.stage_changed` (the contract's), then
   * `response.assigned` and `response.tagged` (extensions), each with the response as it is now.
   */
  const recordChangeEvents = Effect.fnUntraced(function* (
    lookups: Lookups,
    workspaceId: number,
    now: Date,
    updated: Row,
    change: {
      readonly stage: { readonly id: number; readonly name: string } | null | undefined
      readonly assignee: boolean
      readonly previousAssigneeId: number | null
      readonly previousTags: ReadonlyArray<string>
      readonly answers: AnswerEdits.AnswerEdit | undefined
      readonly caseFields: ReadonlyArray<CaseFieldChange>
    }
  ) {
    const tagsChanged = !sameTags(updated.tags, change.previousTags)
    if (
      change.stage === undefined &&
      !change.assignee &&
      !tagsChanged &&
      change.answers === undefined &&
      change.caseFields.length === 0
    ) {
      return
    }
    const form = yield* lookups.form(updated.form_id)
    const linkBase = yield* SentLinkBase
    const stage =
      change.stage !== undefined
        ? change.stage
        : updated.stage_id === null
          ? null
          : Option.getOrNull(yield* lookups.stage(updated.stage_id))
    const response = responseEventFields(
      { id: updated.form_id, title: form.title },
      form.fields,
      updated,
      stage,
      linkBase
    )
    const match = { tags: updated.tags }
    if (change.stage !== undefined) {
      yield* events.record(workspaceId, now, { event: "response.stage_changed", ...response }, match)
    }
    if (change.assignee) {
      yield* events.record(
        workspaceId,
        now,
        {
          event: "response.assigned",
          ...response,
          assignee: yield* eventMember(workspaceId, updated.assignee_id),
          previousAssignee: yield* eventMember(workspaceId, change.previousAssigneeId)
        },
        match
      )
    }
    if (tagsChanged) {
      const before = new Set(change.previousTags)
      const after = new Set(updated.tags)
      yield* events.record(
        workspaceId,
        now,
        {
          event: "response.tagged",
          ...response,
          tags: updated.tags,
          added: updated.tags.filter((t) => !before.has(t)),
          removed: change.previousTags.filter((t) => !after.has(t))
        },
        match
      )
    }
    const edit = change.answers
    if (edit !== undefined || change.caseFields.length > 0) {
      const text = (field: Field, value: AnswerValue | null) =>
        value === null ? null : Summaries.formatAnswer(field, value, linkBase)
      yield* events.record(
        workspaceId,
        now,
        {
          event: "response.updated",
          ...response,
          changes: [
            ...(edit === undefined
              ? []
              : edit.changed.map((field) => ({
                  questionId: field.id,
                  question: field.label,
                  from: text(field, edit.from[String(field.id)] ?? null),
                  to: text(field, edit.to[String(field.id)] ?? null)
                }))),
            ...change.caseFields.map((one) => ({ caseField: one.key, label: one.label, from: one.from, to: one.to }))
          ]
        },
        match
      )
    }
  })

  /**
   * A change of a submitted response's answers, in the update's transaction: the values to store (checked,
   * with the variables and ending worked out again), the respondent's name and e-mail read from them and
   * their contact; undefined when the answers stay as they are.
   */
  const editAnswers = Effect.fnUntraced(function* (
    workspaceId: number,
    row: Row,
    edits: Readonly<Record<string, AnswerInput>>,
    now: Date
  ) {
    if (!row.finished) {
      const message = `response ${row.id} is not submitted yet: only a submitted response's answers can be edited`
      return yield* new InvalidInput({ message, details: [{ path: "answers", message }] })
    }
    const found = yield* forms.forSubmission(workspaceId, row.form_id)
    if (Option.isNone(found)) return yield* new ResponseNotFound({ message: `response ${row.id} not found` })
    const form = found.value
    const applied = AnswerEdits.apply(form, row.answers, edits)
    if (Result.isFailure(applied)) return yield* invalid(applied.failure)
    const edit = applied.success
    if (edit.changed.length === 0) return undefined
    const respondent = deriveRespondent(form.fields, edit.values)
    // An edit takes no place a submission could not: another response's address, a full choice.
    yield* limits.claimEdit(workspaceId, row.form_id, form, edit.values, respondent.email, row)
    const contact =
      respondent.email === null
        ? undefined
        : (yield* contacts.upsertStatement(workspaceId, { email: respondent.email, name: respondent.name }, now))[0]
    return {
      ...edit,
      fields: form.fields,
      name: respondent.name ?? contact?.name ?? null,
      email: respondent.email,
      contactId: contact?.id ?? null
    }
  })

  /**
   * The case fields `input` sets on `row`, each checked by its form's definition (an unknown key, a value not
   * of its type, an account not a member: 400 naming the key): the values after and what changed.
   */
  const changeCaseFields = Effect.fnUntraced(function* (
    row: Row,
    input: CaseFields.CaseFieldChanges,
    lookups: Lookups
  ) {
    const definitions = yield* lookups.caseFields(row.form_id)
    const before = row.case_fields ?? {}
    const values: Record<string, CaseFields.CaseFieldValue> = { ...before }
    const changed: Array<CaseFieldChange> = []
    for (const [key, value] of Object.entries(input)) {
      const field = definitions.find((one) => one.key === key)
      if (field === undefined) {
        return yield* CaseFields.invalidValue(key, `form ${row.form_id} has no case field ${JSON.stringify(key)}`)
      }
      if (value !== null) {
        const problem = CaseFields.problemOf(field, value)
        if (problem !== undefined) return yield* CaseFields.invalidValue(key, problem)
        if (field.type === "member" && typeof value === "number" && !(yield* lookups.isMember(value))) {
          return yield* CaseFields.invalidValue(key, `account ${value} is not a member of this workspace`)
        }
      }
      const from = before[key] ?? null
      if (from === value) continue
      if (value === null) delete values[key]
      else values[key] = value
      changed.push({ key, label: field.label, from, to: value })
    }
    return { values, changed }
  })

  /**
   * Applies `input` to the locked `row`: the activities, the events and the
   * row's new values for each real change; nothing for a change that changes
   * nothing. Inside the caller's transaction.
   */
  const change = Effect.fnUntraced(function* (
    actor: Actors.Actor,
    row: Row,
    input: UpdateResponseInput,
    now: Date,
    lookups: Lookups
  ) {
    const changes: Array<ResponseChange> = []
    const written: Array<NewActivity> = []
    let newStage: { readonly id: number; readonly name: string } | null | undefined
    // The SLA (see `Sla.ts`): a closed stage resolves the case, an open one (or none) reopens it.
    let closes = false
    if (input.stageId !== undefined && input.stageId !== row.stage_id) {
      if (input.stageId !== null) {
        const found = yield* lookups.stage(input.stageId)
        if (Option.isNone(found) || found.value.formId !== row.form_id) {
          return yield* invalidAt("stageId", `stage ${input.stageId} does not belong to form ${row.form_id}`)
        }
        newStage = { id: found.value.id, name: found.value.name }
        closes = found.value.isClosed
      } else {
        newStage = null
      }
      changes.push({ field: "stageId", from: row.stage_id, to: input.stageId })
      written.push({ type: "stage_changed", payload: { from: row.stage_id, to: input.stageId } })
    }
    if (input.assigneeId !== undefined && input.assigneeId !== row.assignee_id) {
      if (input.assigneeId !== null && !(yield* lookups.isMember(input.assigneeId))) {
        return yield* invalidAt("assigneeId", `account ${input.assigneeId} is not a member of this workspace`)
      }
      changes.push({ field: "assigneeId", from: row.assignee_id, to: input.assigneeId })
      written.push({ type: "assigned", payload: { from: row.assignee_id, to: input.assigneeId } })
    }
    const edit =
      input.answers === undefined ? undefined : yield* editAnswers(actor.workspaceId, row, input.answers, now)
    if (edit !== undefined) {
      changes.push({ field: "answers", from: edit.from, to: edit.to })
      written.push({
        type: "answers_changed",
        payload: { questions: edit.changed.map((field) => field.label), from: edit.from, to: edit.to }
      })
    }
    const caseFields =
      input.caseFields === undefined ? undefined : yield* changeCaseFields(row, input.caseFields, lookups)
    if (caseFields !== undefined && caseFields.changed.length > 0) {
      changes.push({
        field: "caseFields",
        from: Object.fromEntries(caseFields.changed.map((one) => [one.key, one.from])),
        to: Object.fromEntries(caseFields.changed.map((one) => [one.key, one.to]))
      })
      for (const one of caseFields.changed) {
        written.push({
          type: "case_field_changed",
          payload: { key: one.key, label: one.label, from: one.from, to: one.to }
        })
      }
    }
    const tags = input.tags === undefined ? row.tags : normalizeTags(input.tags)
    if (!sameTags(tags, row.tags)) {
      const before = new Set(row.tags)
      const after = new Set(tags)
      changes.push({ field: "tags", from: row.tags, to: tags })
      written.push({
        type: "tags_changed",
        payload: {
          from: row.tags,
          to: tags,
          added: tags.filter((t) => !before.has(t)),
          removed: row.tags.filter((t) => !after.has(t))
        }
      })
    }
    if (Arr.isArrayNonEmpty(written)) {
      const tagLine = tags.join(" ").toLowerCase()
      // A member's stage change is a first response; the system's (a reply reopening the case) is not.
      const byMember = actor.kind === "api_key" || actor.kind === "session"
      const sla =
        newStage === undefined
          ? sql``
          : sql`resolved_at = ${closes ? sql`coalesce(resolved_at, ${now})` : sql`null`},
            ${byMember ? sql`first_responded_at = coalesce(first_responded_at, ${now}),` : sql``}`
      const updated = yield* sql<Row>`
        update responses set
          ${sla}
          stage_id = ${input.stageId === undefined ? row.stage_id : input.stageId},
          assignee_id = ${input.assigneeId === undefined ? row.assignee_id : input.assigneeId},
          tags = ${tags}::text[],
          ${
            caseFields === undefined || caseFields.changed.length === 0
              ? sql``
              : sql`case_fields = ${JSON.stringify(caseFields.values)}::jsonb,`
          }
          ${
            edit === undefined
              ? sql`search_text = ${tagLine} || substr(search_text, strpos(search_text, ${"\n"})),`
              : sql`answers = ${JSON.stringify(edit.values)}::jsonb, name = ${edit.name}, email = ${edit.email},
                contact_id = ${edit.contactId},
                search_text = ${searchText(tags, edit.name, edit.email, edit.fields, edit.values)},`
          }
          updated_at = ${now}
        where workspace_id = ${actor.workspaceId} and id = ${row.id}
        returning ${sql.literal(columns)}`
      yield* countTags(actor.workspaceId, row.form_id, tags, 1)
      yield* countTags(actor.workspaceId, row.form_id, row.tags, -1)
      yield* activities.record(actor, row.id, now, written)
      yield* recordChangeEvents(lookups, actor.workspaceId, now, updated[0]!, {
        stage: newStage,
        assignee: input.assigneeId !== undefined && input.assigneeId !== row.assignee_id,
        previousAssigneeId: row.assignee_id,
        previousTags: row.tags,
        answers: edit,
        caseFields: caseFields?.changed ?? []
      })
    }
    return changes
  })

  const update = Effect.fn("Responses.update")(function* (
    actor: Actors.Actor,
    responseId: number,
    input: UpdateResponseInput
  ) {
    yield* Actors.requireWrite(actor)
    const now = new Date(yield* Clock.currentTimeMillis)
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const row = yield* findRow(sql, actor.workspaceId, responseId, true)
        const changes = yield* change(actor, row, input, now, lookupsFor(actor.workspaceId))
        return { ok: true, formId: row.form_id, changes } satisfies UpdateResponseResult
      })
    )
  })

  /**
   * The cases a bulk change applies to, locked in the order of their ids (so
   * two bulk changes over the same cases wait for each other rather than
   * deadlock): every one of `ids`, or those the filters match.
   */
  const targets = Effect.fnUntraced(function* (workspaceId: number, target: BulkUpdate) {
    if (target.ids !== undefined) {
      const ids = [...new Set(target.ids)]
      const rows = yield* sql<Row>`
        select ${sql.literal(columns)} from responses
        where workspace_id = ${workspaceId} and id = any(${ids}::int[])
        order by id
        for update`
      if (rows.length < ids.length) {
        const found = new Set(rows.map((row) => row.id))
        const missing = ids.filter((id) => !found.has(id))
        return yield* new ResponseNotFound({
          message: `ids: response${missing.length === 1 ? "" : "s"} ${idList(missing)} not found; nothing was changed`
        })
      }
      return rows
    }
    const { formId, from, to, ...filter } = target.filter ?? {}
    const bounds = filter.due === undefined ? undefined : yield* dueBounds(workspaceId)
    const conditions = filterConditions(
      workspaceId,
      formId,
      {
        ...filter,
        from: from === undefined ? undefined : new Date(from),
        to: to === undefined ? undefined : new Date(to)
      },
      // A bulk change is a writer's (never a viewer's, who reads sensitive answers masked).
      false,
      bounds
    )
    const rows = yield* sql<Row>`
      select ${sql.literal(columns)} from responses
      where ${sql.and(conditions)}
      order by id
      limit ${maxBulkResponses + 1}
      for update`
    if (rows.length > maxBulkResponses) {
      return yield* invalidAt(
        "filter",
        `matches more than ${maxBulkResponses} responses; narrow it (e.g. by formId, stage or from/to) or send ids in batches`
      )
    }
    return rows
  })

  const updateMany = Effect.fn("Responses.updateMany")(function* (actor: Actors.Actor, input: BulkUpdate) {
    yield* Actors.requireWrite(actor)
    const now = new Date(yield* Clock.currentTimeMillis)
    const lookups = lookupsFor(actor.workspaceId)
    if ((input.ids === undefined) === (input.filter === undefined)) {
      return yield* invalidAt("ids", "give either ids or filter, not both or neither")
    }
    const add = input.addTags ?? []
    const remove = input.removeTags ?? []
    const both = add.filter((tag) => remove.some((r) => r.toLowerCase() === tag.toLowerCase()))
    if (both.length > 0) {
      return yield* invalidAt("addTags", `${JSON.stringify(both[0])} is also in removeTags; name a tag in one of them`)
    }
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const rows = yield* targets(actor.workspaceId, input)
        if (input.stageId !== undefined && input.stageId !== null) {
          const stage = yield* lookups.stage(input.stageId)
          if (Option.isNone(stage)) return yield* invalidAt("stageId", `stage ${input.stageId} not found`)
          const others = rows.filter((row) => row.form_id !== stage.value.formId).map((row) => row.id)
          if (others.length > 0) {
            return yield* invalidAt(
              "stageId",
              `stage ${input.stageId} belongs to form ${stage.value.formId}; responses ${idList(others)} are of other ` +
                "forms, and a stage moves only its own form's responses"
            )
          }
        }
        if (
          input.assigneeId !== undefined &&
          input.assigneeId !== null &&
          !(yield* lookups.isMember(input.assigneeId))
        ) {
          return yield* invalidAt("assigneeId", `account ${input.assigneeId} is not a member of this workspace`)
        }
        const changed: Array<{
          readonly id: number
          readonly formId: number
          readonly changes: Array<ResponseChange>
        }> = []
        for (const row of rows) {
          const tags = add.length === 0 && remove.length === 0 ? undefined : retag(row.tags, add, remove)
          if (tags !== undefined && tags.length > maxTags) {
            return yield* invalidAt(
              "addTags",
              `response ${row.id} would carry ${tags.length} tags; a response has at most ${maxTags}; nothing was changed`
            )
          }
          const changes = yield* change(
            actor,
            row,
            {
              ...(input.stageId === undefined ? {} : { stageId: input.stageId }),
              ...(input.assigneeId === undefined ? {} : { assigneeId: input.assigneeId }),
              ...(tags === undefined ? {} : { tags }),
              ...(input.caseFields === undefined ? {} : { caseFields: input.caseFields })
            },
            now,
            lookups
          )
          if (changes.length > 0) changed.push({ id: row.id, formId: row.form_id, changes })
        }
        return {
          ok: true,
          matched: rows.length,
          changed: changed.length,
          responses: changed
        } satisfies BulkUpdateResult
      })
    )
  })

  /**
   * A change of one response's answers by `actor` outside the API (the respondent on their status page,
   * `cases/StatusEdits.ts`), in its own transaction: `check` sees the locked row and answers the edits to apply
   * (or fails); the activity (`answers_changed` by that actor) and `response.updated` are written as for a
   * member's edit. The changes, empty when the answers stay as they are (then nothing is written).
   */
  const editAnswersAs = <E, R>(
    actor: Actors.Actor,
    responseId: number,
    check: (row: Row, now: Date) => Effect.Effect<Readonly<Record<string, AnswerInput>>, E, R>
  ) =>
    Effect.gen(function* () {
      const now = new Date(yield* Clock.currentTimeMillis)
      return yield* sql.withTransaction(
        Effect.gen(function* () {
          const row = yield* findRow(sql, actor.workspaceId, responseId, true)
          const answers = yield* check(row, now)
          return yield* change(actor, row, { answers }, now, lookupsFor(actor.workspaceId))
        })
      )
    })

  return { update, updateMany, eventMember, editAnswersAs }
})
