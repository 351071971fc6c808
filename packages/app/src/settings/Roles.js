// @ts-check
// The roles of a workspace and who may change whose: the server's rule (Actors.requireAuthorityOver), mirrored so
// the members' screen offers only what it would allow. Pure.

/** @typedef {import("../shared/Types.js").SessionInfo} SessionInfo */
/** @typedef {import("../shared/Types.js").Member} Member */
/** @typedef {SessionInfo["role"]} Role */

/** @type {ReadonlyArray<Role>} */
export const roles = ["owner", "admin", "member", "viewer"]

/** @type {Record<Role, number>} */
const rank = { viewer: 0, member: 1, admin: 2, owner: 3 }
/** @param {SessionInfo} session @param {Member} m */
export const manages = (session, m) => m.accountId === session.account.id || rank[m.role] < rank[session.role]
/**
 * Whether the caller may change `m`'s role or remove them: whom it manages, and co-owners each other (peers;
 * never the last owner, which the server refuses). A sign-in link or key acting as another owner stays refused.
 * @param {SessionInfo} session @param {Member} m
 */
export const changesRoleOf = (session, m) => manages(session, m) || (session.role === "owner" && m.role === "owner")
/** @param {SessionInfo} session @param {Member} [m] */
export const givable = (session, m) =>
  roles.filter(
    (r) =>
      rank[r] <= rank[session.role] &&
      (m === undefined || m.accountId !== session.account.id || rank[r] <= rank[m.role])
  )
