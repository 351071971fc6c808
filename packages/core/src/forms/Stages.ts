/**
 * Stages: the ordered steps a form's cases move through. Every new form gets
 * "New", "In progress" and "Done" (closed). A deleted stage's cases go back to
 * no stage.
 */
import * as Arr from "effect/Array"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import * as Sla from "./Sla.ts"
import { Actors, DisplayTrim, type Forbidden, FormNotFound, Id, InvalidInput } from "../kernel/index.ts"
import { Database } from "../storage/index.ts"

/** A stage (spec: Stage). */
export const Stage = Schema.Struct({
  id: Schema.Int,
  name: Schema.String,
  color: Schema.NullOr(Schema.String),
  isClosed: Schema.Boolean,
  publicName: Schema.NullOr(Schema.String).annotate({
    description:
      "Extension: the name the respondent sees on their status page while their case is in this stage " +
      "(null: the page says only that the response was received)."
  })
})
export type Stage = typeof Stage.Type

const StageName = DisplayTrim.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(60)))
const PublicName = Schema.NullOr(StageName)

/** A stage colour: `#rrggbb`. */
export const StageColor = Schema.String.check(Schema.isPattern(/^#[0-9a-fA-F]{6}$/, { message: "a color is #rrggbb" }))

/** What creating a stage takes. */
export const CreateStageInput = Schema.Struct({
  name: StageName,
  color: Schema.optional(Schema.NullOr(StageColor)),
  isClosed: Schema.optional(Schema.Boolean),
  publicName: Schema.optional(PublicName)
})
export type CreateStageInput = typeof CreateStageInput.Type

/** What changing a stage takes (any subset). */
export const UpdateStageInput = Schema.Struct({
  name: Schema.optional(StageName),
  color: Schema.optional(Schema.NullOr(StageColor)),
  isClosed: Schema.optional(Schema.Boolean),
  publicName: Schema.optional(PublicName)
})
export type UpdateStageInput = typeof UpdateStageInput.Type

/** The order of a form's stages: every stage id of the form, once. */
export const ReorderStagesInput = Schema.Struct({
  stageIds: Schema.Array(Id)
})
export type ReorderStagesInput = typeof ReorderStagesInput.Type

/** No such stage in this workspace. */
export class StageNotFound extends Schema.TaggedError<StageNotFound>()("StageNotFound", {
  message: Schema.String
}) {}

/** The stages every new form starts with. */
export const defaultStages: Arr.NonEmptyReadonlyArray<CreateStageInput> = [
  { name: "New", color: "#3b82f6", isClosed: false },
  { name: "In progress", color: "#f59e0b", isClosed: false },
  { name: "Done", color: "#10b981", isClosed: true }
]

interface StageRow {
  readonly id: number
  readonly name: string
  readonly color: string | null
  readonly is_closed: boolean
  readonly public_name: string | null
}

const toStage = (row: StageRow): Stage => ({
  id: row.id,
  name: row.name,
  color: row.color,
  isClosed: row.is_closed,
  publicName: row.public_name
})

type Errors = SqlError.SqlError | FormNotFound

/**
 * A form's stages.
 *
 * @example
 * ```ts
 * const stages = yield* Stages
 * const list = yield* stages.list(actor, formId)
 * ```
 */
export class Stages extends Context.Service<
  Stages,
  {
    readonly list: (actor: Actors.Actor, formId: number) => Effect.Effect<ReadonlyArray<Stage>, Errors>
    readonly create: (
      actor: Actors.Actor,
      formId: number,
      input: CreateStageInput
    ) => Effect.Effect<Stage, Errors | Forbidden>
    readonly update: (
      actor: Actors.Actor,
      stageId: number,
      input: UpdateStageInput
    ) => Effect.Effect<Stage, StageNotFound | Forbidden | SqlError.SqlError>
    /** Deletes a stage; its cases go back to no stage. */
    readonly remove: (
      actor: Actors.Actor,
      stageId: number
    ) => Effect.Effect<void, StageNotFound | Forbidden | SqlError.SqlError>
    /** Puts the form's stages in the given order (every stage id of the form, once). */
    readonly reorder: (
      actor: Actors.Actor,
      formId: number,
      input: ReorderStagesInput
    ) => Effect.Effect<ReadonlyArray<Stage>, Errors | Forbidden | InvalidInput>
    /** Writes the default stages of a new form (inside the caller's transaction). */
    readonly createDefaults: (workspaceId: number, formId: number) => Effect.Effect<void, SqlError.SqlError>
  }
>()("@qforms/core/Stages") {
  static readonly layer = Layer.effect(
    Stages,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      const requireForm = Effect.fnUntraced(function* (workspaceId: number, formId: number) {
        const rows = yield* sql`select id from forms where workspace_id = ${workspaceId} and id = ${formId}`
        if (rows.length === 0) return yield* new FormNotFound({ message: `form ${formId} not found` })
      })

      // A change to a form's stages is a change to the form: its updatedAt moves. Moving it first locks the
      // form's row before any stage's, the order a deletion of the form takes them in (its cascade reaches
      // the stages after the form), so the two do not deadlock; a collision that remains (a stage's cases
      // are updated as the stage goes) is run again.
      const lockForm = Effect.fnUntraced(function* (workspaceId: number, formId: number) {
        const now = new Date(yield* Clock.currentTimeMillis)
        const rows = yield* sql`
          update forms set updated_at = ${now} where workspace_id = ${workspaceId} and id = ${formId} returning id`
        if (rows.length === 0) return yield* new FormNotFound({ message: `form ${formId} not found` })
      })
      const stageNotFound = (stageId: number) => new StageNotFound({ message: `stage ${stageId} not found` })
      /** Locks the form of a stage (see lockForm); the stage's form id. */
      const lockFormOf = Effect.fnUntraced(function* (workspaceId: number, stageId: number) {
        const stage = yield* sql<{ readonly form_id: number }>`
          select form_id from stages where workspace_id = ${workspaceId} and id = ${stageId}`
        if (stage.length === 0) return yield* stageNotFound(stageId)
        const formId = stage[0]!.form_id
        yield* Effect.catchTag(lockForm(workspaceId, formId), "FormNotFound", () => Effect.fail(stageNotFound(stageId)))
        return formId
      })
      const inTransaction = <A, E, R>(change: Effect.Effect<A, E, R>) =>
        Database.retryingCollisions(sql.withTransaction(change))

      const listRows = (workspaceId: number, formId: number) =>
        Effect.map(
          sql<StageRow>`
            select id, name, color, is_closed, public_name from stages
            where workspace_id = ${workspaceId} and form_id = ${formId} order by position, id`,
          (rows) => rows.map(toStage)
        )

      const list = Effect.fn("Stages.list")(function* (actor: Actors.Actor, formId: number) {
        yield* requireForm(actor.workspaceId, formId)
        return yield* listRows(actor.workspaceId, formId)
      })

      const create = Effect.fn("Stages.create")(function* (
        actor: Actors.Actor,
        formId: number,
        input: CreateStageInput
      ) {
        yield* Actors.requireWrite(actor)
        return yield* inTransaction(
          Effect.gen(function* () {
            yield* lockForm(actor.workspaceId, formId)
            const rows = yield* sql<StageRow>`
            insert into stages (workspace_id, form_id, name, color, is_closed, public_name, position)
            values (${actor.workspaceId}, ${formId}, ${input.name}, ${input.color ?? null}, ${input.isClosed ?? false},
              ${input.publicName ?? null},
              (select coalesce(max(position) + 1, 0) from stages where form_id = ${formId}))
            returning id, name, color, is_closed, public_name`
            return toStage(rows[0]!)
          })
        )
      })

      const update = Effect.fn("Stages.update")(function* (
        actor: Actors.Actor,
        stageId: number,
        input: UpdateStageInput
      ) {
        yield* Actors.requireWrite(actor)
        return yield* inTransaction(
          Effect.gen(function* () {
            const formId = yield* lockFormOf(actor.workspaceId, stageId)
            const rows = yield* sql<StageRow>`
            update stages set
              name = ${input.name === undefined ? sql`name` : sql`${input.name}`},
              color = ${input.color === undefined ? sql`color` : sql`${input.color}`},
              is_closed = ${input.isClosed === undefined ? sql`is_closed` : sql`${input.isClosed}`},
              public_name = ${input.publicName === undefined ? sql`public_name` : sql`${input.publicName}`}
            where workspace_id = ${actor.workspaceId} and form_id = ${formId} and id = ${stageId}
            returning id, name, color, is_closed, public_name`
            if (rows.length === 0) return yield* stageNotFound(stageId)
            // The SLA: the cases in a stage that closes are resolved now, those in one that opens are open again.
            if (input.isClosed !== undefined) {
              const now = new Date(yield* Clock.currentTimeMillis)
              yield* Sla.stageClosedChanged(sql, actor.workspaceId, stageId, input.isClosed, now)
            }
            return toStage(rows[0]!)
          })
        )
      })

      const remove = Effect.fn("Stages.remove")(function* (actor: Actors.Actor, stageId: number) {
        yield* Actors.requireWrite(actor)
        yield* inTransaction(
          Effect.gen(function* () {
            const formId = yield* lockFormOf(actor.workspaceId, stageId)
            const rows = yield* sql`
            delete from stages where workspace_id = ${actor.workspaceId} and form_id = ${formId} and id = ${stageId}
            returning id`
            if (rows.length === 0) return yield* stageNotFound(stageId)
          })
        )
      })

      const reorder = Effect.fn("Stages.reorder")(function* (
        actor: Actors.Actor,
        formId: number,
        input: ReorderStagesInput
      ) {
        yield* Actors.requireWrite(actor)
        return yield* inTransaction(
          Effect.gen(function* () {
            yield* lockForm(actor.workspaceId, formId)
            const current = yield* listRows(actor.workspaceId, formId)
            const known = new Set(current.map((stage) => stage.id))
            const given = new Set(input.stageIds)
            if (
              given.size !== input.stageIds.length ||
              given.size !== known.size ||
              input.stageIds.some((id) => !known.has(id))
            ) {
              return yield* new InvalidInput({
                message: `stageIds must list every stage of form ${formId} exactly once (${current
                  .map((stage) => stage.id)
                  .join(", ")})`
              })
            }
            yield* Effect.forEach(
              input.stageIds,
              (id, position) =>
                sql`update stages set position = ${position} where workspace_id = ${actor.workspaceId} and id = ${id}`,
              { discard: true }
            )
            return yield* listRows(actor.workspaceId, formId)
          })
        )
      })

      const createDefaults = (workspaceId: number, formId: number) =>
        sql`insert into stages ${sql.insert(
          Arr.map(defaultStages, (stage, position) => ({
            workspace_id: workspaceId,
            form_id: formId,
            name: stage.name,
            color: stage.color ?? null,
            is_closed: stage.isClosed ?? false,
            position
          }))
        )}`.pipe(Effect.asVoid)

      return Stages.of({ list, create, update, remove, reorder, createDefaults })
    })
  )
}
