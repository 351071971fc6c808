/**
 * Status links: the respondent's own link to their case (`/s/{token}`, the
 * status page of `pages/StatusPage.ts`). A token is 32 random bytes; only
 * its SHA-256 is stored, so the table never holds a working link. A response
 * has at most one live link: issuing one revokes the one before; a revoked
 * link keeps its row (`revoked_at`) and never works again. A member's issue
 * and revocation are activities on the case's timeline (the link a
 * confirmation e-mail carries is recorded as that e-mail).
 *
 * @module
 */
import { createHash, randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Activities } from "./Activities.ts"
import { Actors, type Forbidden, ResponseNotFound } from "../kernel/index.ts"

/** The path of a status page, under the public pages' prefix. */
export const statusPath = (token: string) => `/s/${token}`

/** A status link as the team gets it (`POST /responses/{id}/status-link`). */
export const StatusLink = Schema.Struct({
  url: Schema.String.annotate({ description: "The respondent's status page; shown once, only its hash is stored." }),
  createdAt: Schema.String
}).annotate({ identifier: "StatusLink" })
export type StatusLink = typeof StatusLink.Type

/** Whose case a live token opens. */
export interface StatusTarget {
  readonly workspaceId: number
  readonly responseId: number
}

// A token is 43 base64url characters; anything else is never looked up.
const TOKEN = /^[A-Za-z0-9_-]{43}$/

const hashOf = (token: string) => createHash("sha256").update(token, "utf8").digest("hex")

/** The case a status link opens, as its page heads it. */
export interface StatusHeadline {
  readonly formTitle: string
  readonly submittedAt: Date
  /** The stage's name for respondents; null when it has none (the page says nothing of the stage). */
  readonly stageName: string | null
}

/**
 * Issuing, revoking and resolving status links.
 *
 * @example
 * ```ts
 * const links = yield* StatusLinks
 * const { token } = yield* links.issue(actor, responseId)
 * const target = yield* links.resolve(token) // { workspaceId, responseId } or undefined
 * ```
 */
export class StatusLinks extends Context.Service<
  StatusLinks,
  {
    /** A new link for a response of the actor's workspace (the one before it stops working). */
    readonly issue: (
      actor: Actors.Actor,
      responseId: number
    ) => Effect.Effect<
      { readonly token: string; readonly createdAt: Date },
      ResponseNotFound | Forbidden | SqlError.SqlError
    >
    /** Revokes the response's links (a response with none is no error). */
    readonly revoke: (
      actor: Actors.Actor,
      responseId: number
    ) => Effect.Effect<void, ResponseNotFound | Forbidden | SqlError.SqlError>
    /**
     * A new link for a response that is being written (the submission's confirmation e-mail, in the caller's
     * transaction): no actor's rights to check.
     */
    readonly issueFor: (workspaceId: number, responseId: number, at: Date) => Effect.Effect<string, SqlError.SqlError>
    /** The response a live token opens, or undefined (unknown, malformed and revoked alike). */
    readonly resolve: (token: string) => Effect.Effect<StatusTarget | undefined, SqlError.SqlError>
    /** What the status page shows of the case a link opens: its form's title, when it came, its stage's public name. */
    readonly headline: (target: StatusTarget) => Effect.Effect<StatusHeadline | undefined, SqlError.SqlError>
  }
>()("@qforms/core/StatusLinks") {
  static readonly layer = Layer.effect(
    StatusLinks,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      const activities = yield* Activities

      /** Ends the response's live link; whether there was one. */
      const revokeRows = (workspaceId: number, responseId: number, at: Date) =>
        sql`update response_status_links set revoked_at = ${at}
          where workspace_id = ${workspaceId} and response_id = ${responseId} and revoked_at is null
          returning id`.pipe(Effect.map((rows) => rows.length > 0))

      /** A new link in place of the live one, if any: its token, and whether one was replaced. */
      const replace = Effect.fnUntraced(function* (workspaceId: number, responseId: number, at: Date) {
        const token = randomBytes(32).toString("base64url")
        const replaced = yield* revokeRows(workspaceId, responseId, at)
        yield* sql`insert into response_status_links (workspace_id, response_id, token_hash, created_at)
          values (${workspaceId}, ${responseId}, ${hashOf(token)}, ${at})`
        return { token, replaced }
      })

      const issueFor = (workspaceId: number, responseId: number, at: Date) =>
        replace(workspaceId, responseId, at).pipe(Effect.map(({ token }) => token))

      const requireResponse = Effect.fnUntraced(function* (workspaceId: number, responseId: number) {
        const rows = yield* sql`
          select 1 from responses where workspace_id = ${workspaceId} and id = ${responseId} for key share`
        if (rows.length === 0) return yield* new ResponseNotFound({ message: `response ${responseId} not found` })
      })

      const issue = Effect.fn("StatusLinks.issue")(function* (actor: Actors.Actor, responseId: number) {
        yield* Actors.requireWrite(actor)
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* requireResponse(actor.workspaceId, responseId)
            const { token, replaced } = yield* replace(actor.workspaceId, responseId, now)
            yield* activities.record(actor, responseId, now, [{ type: "status_link_issued", payload: { replaced } }])
            return { token, createdAt: now }
          })
        )
      })

      const revoke = Effect.fn("StatusLinks.revoke")(function* (actor: Actors.Actor, responseId: number) {
        yield* Actors.requireWrite(actor)
        const now = new Date(yield* Clock.currentTimeMillis)
        yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* requireResponse(actor.workspaceId, responseId)
            // Revoking with no live link changes nothing, and is not recorded.
            if (yield* revokeRows(actor.workspaceId, responseId, now))
              yield* activities.record(actor, responseId, now, [{ type: "status_link_revoked", payload: {} }])
          })
        )
      })

      const resolve = Effect.fn("StatusLinks.resolve")(function* (token: string) {
        if (!TOKEN.test(token)) return undefined
        const rows = yield* sql<{ readonly workspace_id: number; readonly response_id: number }>`
          select workspace_id, response_id from response_status_links
          where token_hash = ${hashOf(token)} and revoked_at is null`
        const row = rows[0]
        return row === undefined ? undefined : { workspaceId: row.workspace_id, responseId: row.response_id }
      })

      const headline = Effect.fn("StatusLinks.headline")(function* (target: StatusTarget) {
        const rows = yield* sql<{
          readonly title: string
          readonly submitted_at: Date
          readonly public_name: string | null
        }>`
          select f.title, r.submitted_at, s.public_name
          from responses r join forms f on f.id = r.form_id and f.workspace_id = r.workspace_id
            left join stages s on s.id = r.stage_id and s.workspace_id = r.workspace_id
          where r.workspace_id = ${target.workspaceId} and r.id = ${target.responseId}`
        const row = rows[0]
        return row === undefined
          ? undefined
          : { formTitle: row.title, submittedAt: row.submitted_at, stageName: row.public_name }
      })

      return StatusLinks.of({ issue, revoke, issueFor, resolve, headline })
    })
  ).pipe(Layer.provide([Activities.layer]))
}
