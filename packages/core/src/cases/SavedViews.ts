/**
 * Saved views of the workspace-wide list (issue #28): a name, the list's
 * filter (`WorkspaceResponseFilter`, as `GET /responses` takes it), a sort and
 * the columns shown. A personal view is its owner's alone (anyone else finds
 * none: 404) and goes when the owner leaves the workspace; a shared view is
 * seen by every member. Making, changing or deleting a shared view takes a
 * role above viewer; a member changes or deletes only the shared views they
 * made, owners and admins any. At most {@link maxPersonalViews} personal views
 * per member and {@link maxSharedViews} shared ones per workspace.
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Actors, Conflict, Forbidden, InvalidInput } from "../kernel/index.ts"
import { StoredJson } from "../storage/index.ts"
import {
  WorkspaceResponseFilter,
  type WorkspaceListOptions,
  workspaceListOptions,
  WorkspaceSort
} from "./ResponseModels.ts"

/** The most personal views a member keeps. */
export const maxPersonalViews = 50

/** The most shared views a workspace has. */
export const maxSharedViews = 100

/** The columns a view may show, in any order (built-in ones; a union with more kinds can follow). */
export const viewColumns = ["form", "name", "email", "stage", "assignee", "tags", "due", "submittedAt"] as const

/** One column of a view. */
export const ViewColumn = Schema.Literals(viewColumns).annotate({ identifier: "ViewColumn" })
export type ViewColumn = typeof ViewColumn.Type

/** The columns of a view, in the order shown: at least one, each once. */
export const ViewColumns = Schema.Array(ViewColumn).check(
  Schema.isMinLength(1, { message: "columns names at least one column" }),
  Schema.makeFilter(
    (columns: ReadonlyArray<string>) =>
      columns.every((column, at) => columns.indexOf(column) === at) || "columns names each column once"
  )
)

/** The columns of a view made without any. */
export const defaultViewColumns: ReadonlyArray<ViewColumn> = [
  "form",
  "name",
  "email",
  "stage",
  "assignee",
  "submittedAt"
]

/** A view's name: 1–80 characters, not only spaces (kept trimmed). */
export const ViewName = Schema.String.check(
  Schema.makeFilter(
    (name: string) => (name.trim().length >= 1 && name.trim().length <= 80) || "name must be 1–80 characters"
  )
)

/** A saved view as read (extension). */
export const SavedView = Schema.Struct({
  id: Schema.Int,
  name: Schema.String,
  shared: Schema.Boolean.annotate({ description: "Seen by every member of the workspace; else the owner's alone." }),
  filter: WorkspaceResponseFilter,
  sort: WorkspaceSort,
  columns: Schema.Array(ViewColumn),
  createdBy: Schema.Int.annotate({ description: "The account of the member who made the view." }),
  canChange: Schema.Boolean.annotate({ description: "Whether the caller may rename, change or delete it." }),
  createdAt: Schema.String,
  updatedAt: Schema.String
}).annotate({ identifier: "SavedView" })
export type SavedView = typeof SavedView.Type

/** What a new view takes: a name; the rest has defaults (personal, no filter, newest first, the usual columns). */
export const CreateSavedViewInput = Schema.Struct({
  name: ViewName,
  shared: Schema.optionalKey(Schema.Boolean).annotate({ description: "Default false: a personal view." }),
  filter: Schema.optionalKey(WorkspaceResponseFilter).annotate({ description: "Default: no filter." }),
  sort: Schema.optionalKey(WorkspaceSort).annotate({ description: "Default `newest`." }),
  columns: Schema.optionalKey(ViewColumns).annotate({
    description: "Default form, name, email, stage, assignee, submittedAt."
  })
}).annotate({ identifier: "CreateSavedViewInput" })
export type CreateSavedViewInput = typeof CreateSavedViewInput.Type

/** A change of a view: what is given replaces what it had (`filter` as a whole). */
export const UpdateSavedViewInput = Schema.Struct({
  name: Schema.optionalKey(ViewName),
  shared: Schema.optionalKey(Schema.Boolean).annotate({
    description: "true shares a personal view; false makes a shared view the caller's personal one."
  }),
  filter: Schema.optionalKey(WorkspaceResponseFilter),
  sort: Schema.optionalKey(WorkspaceSort),
  columns: Schema.optionalKey(ViewColumns)
}).annotate({ identifier: "UpdateSavedViewInput" })
export type UpdateSavedViewInput = typeof UpdateSavedViewInput.Type

/** No such view that the caller can see (another member's personal view is none). Answered as 404. */
export class SavedViewNotFound extends Schema.TaggedError<SavedViewNotFound>()("SavedViewNotFound", {
  message: Schema.String
}) {}

interface ViewRow {
  readonly id: number
  readonly owner_account_id: number | null
  readonly created_by: number
  readonly shared: boolean
  readonly name: string
  readonly filter: unknown
  readonly sort: string
  readonly columns: unknown
  readonly created_at: Date
  readonly updated_at: Date
}

const parsed = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value)
const decodeFilter = StoredJson.decode(WorkspaceResponseFilter, "saved_views.filter")
const decodeSort = StoredJson.decode(WorkspaceSort, "saved_views.sort")
const decodeColumns = StoredJson.decode(Schema.Array(ViewColumn), "saved_views.columns")

/** Whether the actor may change a shared view made by `createdBy`: owners and admins any, members their own. */
const maySharedChange = (actor: Actors.Actor, createdBy: number) =>
  actor.role === "owner" || actor.role === "admin" || (actor.role === "member" && actor.accountId === createdBy)

const canChange = (actor: Actors.Actor, row: ViewRow) =>
  row.shared ? maySharedChange(actor, row.created_by) : row.owner_account_id === actor.accountId

const toView = (actor: Actors.Actor, row: ViewRow) =>
  Effect.map(
    Effect.all([decodeFilter(parsed(row.filter)), decodeSort(row.sort), decodeColumns(parsed(row.columns))]),
    ([filter, sort, columns]): SavedView => ({
      id: row.id,
      name: row.name,
      shared: row.shared,
      filter,
      sort,
      columns,
      createdBy: row.created_by,
      canChange: canChange(actor, row),
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString()
    })
  )

/** The caller's account: views are a member's (an API key's member, a signed-in one). */
const accountOf = (actor: Actors.Actor) =>
  actor.accountId === null
    ? Effect.fail(new Forbidden({ message: "saved views belong to members" }))
    : Effect.succeed(actor.accountId)

/** The filter's own rules beyond its Schema: `stage` needs `formId`. */
const checkFilter = (filter: WorkspaceResponseFilter) =>
  filter.stage !== undefined && filter.formId === undefined
    ? Effect.fail(
        new InvalidInput({
          message: "filter.stage: needs filter.formId (stages belong to one form)",
          details: [{ path: "filter.stage", message: "needs filter.formId (stages belong to one form)" }]
        })
      )
    : Effect.void

/**
 * The saved views of the workspace-wide list.
 *
 * @example
 * ```ts
 * const views = yield* SavedViews
 * const view = yield* views.create(actor, { name: "Urgent", filter: { tag: "urgent", open: "true" }, sort: "oldest" })
 * const page = yield* responses.listWorkspace(actor, yield* views.listOptions(actor, view.id, { limit: 20 }))
 * ```
 */
export class SavedViews extends Context.Service<
  SavedViews,
  {
    /** The caller's personal views and the workspace's shared ones, by name. */
    readonly list: (actor: Actors.Actor) => Effect.Effect<ReadonlyArray<SavedView>, Forbidden | SqlError.SqlError>
    readonly get: (
      actor: Actors.Actor,
      id: number
    ) => Effect.Effect<SavedView, SavedViewNotFound | Forbidden | SqlError.SqlError>
    readonly create: (
      actor: Actors.Actor,
      input: CreateSavedViewInput
    ) => Effect.Effect<SavedView, InvalidInput | Forbidden | Conflict | SqlError.SqlError>
    readonly update: (
      actor: Actors.Actor,
      id: number,
      input: UpdateSavedViewInput
    ) => Effect.Effect<SavedView, SavedViewNotFound | InvalidInput | Forbidden | Conflict | SqlError.SqlError>
    readonly remove: (
      actor: Actors.Actor,
      id: number
    ) => Effect.Effect<void, SavedViewNotFound | Forbidden | SqlError.SqlError>
    /**
     * The workspace list's options of a view with `explicit` laid over them (what the caller gives explicitly
     * wins over the view's filter and sort).
     */
    readonly listOptions: (
      actor: Actors.Actor,
      id: number,
      explicit: WorkspaceListOptions
    ) => Effect.Effect<WorkspaceListOptions, SavedViewNotFound | Forbidden | SqlError.SqlError>
  }
>()("@qforms/core/SavedViews") {
  static readonly layer = Layer.effect(
    SavedViews,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      /** A view the caller sees: their personal ones and every shared one of the workspace. */
      const visible = Effect.fnUntraced(function* (actor: Actors.Actor, id: number, lock: boolean) {
        const accountId = yield* accountOf(actor)
        const rows = yield* sql<ViewRow>`
          select * from saved_views
          where workspace_id = ${actor.workspaceId} and id = ${id} and (shared or owner_account_id = ${accountId})
          ${lock ? sql`for update` : sql``}`
        const row = rows[0]
        if (row === undefined) return yield* new SavedViewNotFound({ message: `view ${id} not found` })
        return row
      })

      /** One writer of a workspace's views at a time: the limits and the names are checked against settled rows. */
      const lockViews = (workspaceId: number) =>
        sql`select pg_advisory_xact_lock(hashtext('qforms.saved_views'), ${workspaceId})`

      /** The limit and the unique name of the view a change would make: `except` is the view being changed. */
      const checkRoom = Effect.fnUntraced(function* (
        actor: Actors.Actor,
        accountId: number,
        shared: boolean,
        name: string,
        except: number | null
      ) {
        const scope = shared ? sql`shared` : sql`not shared and owner_account_id = ${accountId}`
        const others = yield* sql<{ readonly id: number; readonly name: string }>`
          select id, name from saved_views where workspace_id = ${actor.workspaceId} and ${scope}
          ${except === null ? sql`` : sql`and id <> ${except}`}`
        if (others.some((other) => other.name.toLowerCase() === name.toLowerCase())) {
          return yield* new Conflict({
            message: `name: ${shared ? "a shared view" : "one of your views"} is called "${name}" already`
          })
        }
        const max = shared ? maxSharedViews : maxPersonalViews
        if (others.length >= max) {
          return yield* new InvalidInput({
            message: shared
              ? `a workspace has at most ${maxSharedViews} shared views`
              : `a member has at most ${maxPersonalViews} views`
          })
        }
      })

      const list = Effect.fn("SavedViews.list")(function* (actor: Actors.Actor) {
        const accountId = yield* accountOf(actor)
        const rows = yield* sql<ViewRow>`
          select * from saved_views
          where workspace_id = ${actor.workspaceId} and (shared or owner_account_id = ${accountId})
          order by lower(name), shared, id`
        return yield* Effect.forEach(rows, (row) => toView(actor, row))
      })

      const get = Effect.fn("SavedViews.get")(function* (actor: Actors.Actor, id: number) {
        return yield* toView(actor, yield* visible(actor, id, false))
      })

      const create = Effect.fn("SavedViews.create")(function* (actor: Actors.Actor, input: CreateSavedViewInput) {
        const accountId = yield* accountOf(actor)
        const shared = input.shared ?? false
        if (shared) yield* Actors.requireWrite(actor)
        const filter = input.filter ?? {}
        yield* checkFilter(filter)
        const name = input.name.trim()
        const now = new Date(yield* Clock.currentTimeMillis)
        const row = yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* lockViews(actor.workspaceId)
            yield* checkRoom(actor, accountId, shared, name, null)
            const rows = yield* sql<ViewRow>`
              insert into saved_views ${sql.insert({
                workspace_id: actor.workspaceId,
                owner_account_id: shared ? null : accountId,
                created_by: accountId,
                shared,
                name,
                filter: JSON.stringify(filter),
                sort: input.sort ?? "newest",
                columns: JSON.stringify(input.columns ?? defaultViewColumns),
                created_at: now,
                updated_at: now
              })}
              returning *`
            return rows[0]!
          })
        )
        return yield* toView(actor, row)
      })

      const update = Effect.fn("SavedViews.update")(function* (
        actor: Actors.Actor,
        id: number,
        input: UpdateSavedViewInput
      ) {
        const accountId = yield* accountOf(actor)
        if (input.filter !== undefined) yield* checkFilter(input.filter)
        const now = new Date(yield* Clock.currentTimeMillis)
        const row = yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* lockViews(actor.workspaceId)
            const before = yield* visible(actor, id, true)
            if (before.shared) yield* Actors.requireWrite(actor)
            if (!canChange(actor, before)) {
              return yield* new Forbidden({ message: "only its maker, an owner or an admin changes a shared view" })
            }
            const shared = input.shared ?? before.shared
            if (shared) yield* Actors.requireWrite(actor)
            const name = input.name?.trim() ?? before.name
            const owner = shared ? null : before.shared ? accountId : before.owner_account_id
            if (name !== before.name || shared !== before.shared) {
              yield* checkRoom(actor, owner ?? accountId, shared, name, id)
            }
            const rows = yield* sql<ViewRow>`
              update saved_views set ${sql.update({
                name,
                shared,
                owner_account_id: owner,
                ...(input.filter === undefined ? {} : { filter: JSON.stringify(input.filter) }),
                ...(input.sort === undefined ? {} : { sort: input.sort }),
                ...(input.columns === undefined ? {} : { columns: JSON.stringify(input.columns) }),
                updated_at: now
              })}
              where workspace_id = ${actor.workspaceId} and id = ${id}
              returning *`
            return rows[0]!
          })
        )
        return yield* toView(actor, row)
      })

      const remove = Effect.fn("SavedViews.remove")(function* (actor: Actors.Actor, id: number) {
        const before = yield* visible(actor, id, false)
        if (before.shared) yield* Actors.requireWrite(actor)
        if (!canChange(actor, before)) {
          return yield* new Forbidden({ message: "only its maker, an owner or an admin deletes a shared view" })
        }
        yield* sql`delete from saved_views where workspace_id = ${actor.workspaceId} and id = ${id}`
      })

      const listOptions = Effect.fn("SavedViews.listOptions")(function* (
        actor: Actors.Actor,
        id: number,
        explicit: WorkspaceListOptions
      ) {
        const view = yield* get(actor, id)
        const given = Object.fromEntries(Object.entries(explicit).filter(([, value]) => value !== undefined))
        return { ...workspaceListOptions(view.filter, view.sort), ...given } satisfies WorkspaceListOptions
      })

      return SavedViews.of({ list, get, create, update, remove, listOptions })
    })
  )
}
