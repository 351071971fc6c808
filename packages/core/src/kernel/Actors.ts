/**
 * Actors: who is doing something. Every service call takes one; its
 * `workspaceId` scopes every query and its `role` decides what it may change.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { Forbidden } from "./Errors.ts"

/** A member's role: `owner`, `admin`, `member` or `viewer`. */
export const MemberRole = Schema.Literals(["owner", "admin", "member", "viewer"])
export type MemberRole = typeof MemberRole.Type

/**
 * Who acts: a member through an API key, a signed-in member (session), a
 * respondent on the public page, or the system itself.
 */
export interface Actor {
  readonly workspaceId: number
  readonly kind: "api_key" | "session" | "respondent" | "system"
  /** The member's account; null for respondents and the system. */
  readonly accountId: number | null
  /** The member's role; null for respondents and the system. */
  readonly role: MemberRole | null
  readonly name: string | null
  /** The API key used, when `kind` is `api_key`. */
  readonly apiKeyId?: number | undefined
  /** The member acts through an assistant on the MCP endpoint: activities record `via: "mcp"`. */
  readonly channel?: "mcp" | undefined
}

/** How an actor is recorded in an activity. */
export const ActivityActor = Schema.Struct({
  type: Schema.Literals(["member", "respondent", "system"]),
  accountId: Schema.NullOr(Schema.Int),
  name: Schema.NullOr(Schema.String),
  via: Schema.optional(Schema.Literals(["api_key", "session", "form", "mcp", "import"]))
})
export type ActivityActor = typeof ActivityActor.Type

/**
 * The system itself acting in a workspace (migrations, imports, the CLI).
 *
 * @example
 * ```ts
 * const actor = Actors.system(workspaceId)
 * ```
 */
export const system = (workspaceId: number): Actor => ({
  workspaceId,
  kind: "system",
  accountId: null,
  role: null,
  name: null
})

/** A respondent answering a public form of the workspace. */
export const respondent = (workspaceId: number): Actor => ({
  workspaceId,
  kind: "respondent",
  accountId: null,
  role: null,
  name: null
})

/** A member acting through an API key or a session. */
export const member = (options: {
  readonly workspaceId: number
  readonly accountId: number
  readonly role: MemberRole
  readonly name: string | null
  readonly via: "api_key" | "session"
  readonly apiKeyId?: number | undefined
}): Actor => ({
  workspaceId: options.workspaceId,
  kind: options.via,
  accountId: options.accountId,
  role: options.role,
  name: options.name,
  apiKeyId: options.apiKeyId
})

/** The actor as an activity records it. */
export const toActivityActor = (actor: Actor): ActivityActor => {
  switch (actor.kind) {
    case "api_key":
    case "session":
      return { type: "member", accountId: actor.accountId, name: actor.name, via: actor.channel ?? actor.kind }
    case "respondent":
      return { type: "respondent", accountId: null, name: null }
    case "system":
      return { type: "system", accountId: null, name: null }
  }
}

/**
 * Succeeds when the actor may change cases and forms: owners, admins, members
 * and the system. Viewers (and respondents) get `Forbidden`.
 */
export const requireWrite = (actor: Actor): Effect.Effect<void, Forbidden> =>
  actor.kind === "system" || actor.role === "owner" || actor.role === "admin" || actor.role === "member"
    ? Effect.void
    : Effect.fail(
        new Forbidden({
          message:
            actor.role === "viewer" ? "this key belongs to a viewer, who can only read" : "not allowed to change this"
        })
      )

/** Succeeds when the actor may manage the workspace (members, keys, webhooks): owners, admins, the system. */
export const requireAdmin = (actor: Actor): Effect.Effect<void, Forbidden> =>
  actor.kind === "system" || actor.role === "owner" || actor.role === "admin"
    ? Effect.void
    : Effect.fail(new Forbidden({ message: "only an owner or admin can manage the workspace" }))

/** Roles from the least to the most powerful: a role may act on the roles below it. */
export const roleRank: Readonly<Record<MemberRole, number>> = { viewer: 0, member: 1, admin: 2, owner: 3 }

/**
 * The one rule for acting on a member of the workspace: issuing or revoking
 * their API keys, changing their role, removing them, re-adding them. Every
 * path (API, MCP, application, services) goes through it, with the caller's
 * and the target's roles as they are in the database now (see
 * `Members.authorize`). `target` undefined: a new member is added with `grant`.
 *
 * - Only owners and admins (and the system) manage members and keys.
 * - On themselves they may act, but never give themselves a higher role.
 * - On anyone else only when that member's role is strictly below theirs
 *   (an owner acts on admins, members and viewers; an admin on members and
 *   viewers; nobody on an equal or higher role).
 * - A role given (`grant`) is never above the caller's own.
 * - With `ownersOverOwners` (changing a role, removing a member), an owner
 *   acts on another owner too: co-owners are peers, so one can demote or
 *   remove another (audited; never the last owner). Not for keys: a key
 *   acts as its member.
 *
 * So no caller can make a key that acts as someone of equal or higher rank,
 * nor raise anyone (itself included) above itself.
 *
 * @example
 * ```ts
 * yield* Actors.requireAuthorityOver(actor, "owner", { accountId: 7, role: "admin" }, "member")
 * ```
 */
export const requireAuthorityOver = (
  actor: Actor,
  callerRole: MemberRole | null,
  target: { readonly accountId: number; readonly role: MemberRole } | undefined,
  grant?: MemberRole | undefined,
  options?: { readonly ownersOverOwners?: boolean | undefined }
): Effect.Effect<void, Forbidden> => {
  if (actor.kind === "system") return Effect.void
  if (callerRole !== "owner" && callerRole !== "admin") {
    return Effect.fail(new Forbidden({ message: "only an owner or admin can manage the workspace" }))
  }
  const own = roleRank[callerRole]
  if (grant !== undefined && roleRank[grant] > own) {
    return Effect.fail(
      new Forbidden({ message: `an ${callerRole} cannot give the role ${grant}, which is above their own` })
    )
  }
  // No target: someone new is added, only the role given matters.
  if (target === undefined) return Effect.void
  if (target.accountId === actor.accountId) {
    return grant !== undefined && roleRank[grant] > roleRank[target.role]
      ? Effect.fail(new Forbidden({ message: "nobody can raise their own role" }))
      : Effect.void
  }
  // Owners are peers: one may change another's role or remove them (never the last owner: Members.keepAnOwner).
  if (options?.ownersOverOwners === true && callerRole === "owner" && target.role === "owner") return Effect.void
  return roleRank[target.role] < own
    ? Effect.void
    : Effect.fail(
        new Forbidden({
          message: `an ${callerRole} can manage only members whose role is below their own (member ${target.accountId} is ${
            target.role === "owner" ? "an owner" : target.role === "admin" ? "an admin" : `a ${target.role}`
          })`
        })
      )
}

/** Succeeds when the actor may submit a response: a respondent, the system, or a member who may write. */
export const requireSubmit = (actor: Actor): Effect.Effect<void, Forbidden> =>
  actor.kind === "respondent" ? Effect.void : requireWrite(actor)
