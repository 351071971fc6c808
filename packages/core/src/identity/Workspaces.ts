/**
 * Workspaces: the tenant. Everything else belongs to exactly one workspace,
 * and every query of tenant data is scoped by its id.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { EmailAddress, PersonName } from "./Accounts.ts"
import { Members } from "./Members.ts"
import { DisplayTrim } from "../kernel/index.ts"

/** A workspace. */
export const Workspace = Schema.Struct({
  id: Schema.Int,
  name: Schema.String,
  createdAt: Schema.String
})
export type Workspace = typeof Workspace.Type

/** What creating a workspace takes: its name and its owner. */
export const CreateWorkspaceInput = Schema.Struct({
  name: DisplayTrim.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(200))),
  ownerEmail: EmailAddress,
  ownerName: Schema.optional(Schema.NullOr(PersonName))
})
export type CreateWorkspaceInput = typeof CreateWorkspaceInput.Type

/** No such workspace. */
export class WorkspaceNotFound extends Schema.TaggedError<WorkspaceNotFound>()("WorkspaceNotFound", {
  message: Schema.String
}) {}

interface WorkspaceRow {
  readonly id: number
  readonly name: string
  readonly created_at: Date
}

const toWorkspace = (row: WorkspaceRow): Workspace => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at.toISOString()
})

/**
 * Creating and reading workspaces.
 *
 * @example
 * ```ts
 * const { workspace, ownerAccountId } = yield* (yield* Workspaces).create({
 *   name: "Acme", ownerEmail: "ada@example.com"
 * })
 * ```
 */
export class Workspaces extends Context.Service<
  Workspaces,
  {
    /** Creates a workspace with its owner (account created if new), in one transaction. */
    readonly create: (
      input: CreateWorkspaceInput
    ) => Effect.Effect<{ readonly workspace: Workspace; readonly ownerAccountId: number }, SqlError.SqlError>
    readonly get: (id: number) => Effect.Effect<Workspace, WorkspaceNotFound | SqlError.SqlError>
    readonly list: Effect.Effect<ReadonlyArray<Workspace>, SqlError.SqlError>
  }
>()("@qforms/core/Workspaces") {
  static readonly layer = Layer.effect(
    Workspaces,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const members = yield* Members

      const create = Effect.fn("Workspaces.create")(function* (input: CreateWorkspaceInput) {
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const rows = yield* sql<WorkspaceRow>`
            insert into workspaces (name, created_at) values (${input.name}, ${now}) returning id, name, created_at`
            const workspace = toWorkspace(rows[0]!)
            const owner = yield* members.add(workspace.id, {
              email: input.ownerEmail,
              name: input.ownerName ?? null,
              role: "owner"
            })
            return { workspace, ownerAccountId: owner.accountId }
          })
        )
      })

      const get = Effect.fn("Workspaces.get")(function* (id: number) {
        const rows = yield* sql<WorkspaceRow>`select id, name, created_at from workspaces where id = ${id}`
        if (rows.length === 0) return yield* new WorkspaceNotFound({ message: `workspace ${id} not found` })
        return toWorkspace(rows[0]!)
      })

      const list = sql<WorkspaceRow>`select id, name, created_at from workspaces order by id`.pipe(
        Effect.map((rows) => rows.map(toWorkspace)),
        Effect.withSpan("Workspaces.list")
      )

      return Workspaces.of({ create, get, list })
    })
  ).pipe(Layer.provide([Members.layer]))
}
