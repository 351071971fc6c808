/**
 * Who may change whose role, mirrored from the server's rule: owners and admins act on themselves and on members
 * below their role, and never give a role above their own (nor raise their own).
 */
import { describe, expect, it } from "vitest"
import { givable, manages } from "../src/settings/Roles.js"

const session = (role: "owner" | "admin" | "member" | "viewer", id = 1) => ({ account: { id }, role }) as any
const member = (role: "owner" | "admin" | "member" | "viewer", accountId: number) => ({ accountId, role }) as any

describe("Roles", () => {
  it("lets an admin manage members and viewers and themself, not owners or other admins", () => {
    const admin = session("admin")
    expect(manages(admin, member("member", 2))).toBe(true)
    expect(manages(admin, member("viewer", 3))).toBe(true)
    expect(manages(admin, member("admin", 1))).toBe(true)
    expect(manages(admin, member("admin", 4))).toBe(false)
    expect(manages(admin, member("owner", 5))).toBe(false)
    expect(manages(session("owner"), member("admin", 4))).toBe(true)
  })

  it("offers only roles up to the giver's own, and never a raise of one's own", () => {
    expect(givable(session("owner"))).toEqual(["owner", "admin", "member", "viewer"])
    expect(givable(session("admin"))).toEqual(["admin", "member", "viewer"])
    expect(givable(session("admin"), member("viewer", 3))).toEqual(["admin", "member", "viewer"])
    expect(givable(session("admin", 1), member("admin", 1))).toEqual(["admin", "member", "viewer"])
    expect(givable(session("member", 2), member("member", 2))).toEqual(["member", "viewer"])
  })
})
