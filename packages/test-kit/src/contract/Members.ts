/**
 * The HTTP contract: members.
 */
import { expect } from "vitest"
import { group } from "./Contract.ts"
import { expectStatus, expectMember } from "./Expectations.ts"

export const members = group("members", { transport: false }, (c) => {
  const { api, test } = c
  test("GET /members → {members} of this workspace only", async () => {
    const reply = await api("GET", "/members")
    expectStatus(reply, 200)
    const members = reply.body.members as Array<{ accountId: number }>
    members.forEach(expectMember)
    // Extension: `away` (assignment rules pass an away member by); false until a member says otherwise.
    expect(members).toHaveLength(3)
    expect(members).toEqual(
      expect.arrayContaining([
        {
          accountId: c.seed.a.ownerAccountId,
          name: "Owner A",
          email: "owner-a@example.com",
          role: "owner",
          away: false
        },
        {
          accountId: c.seed.a.viewerAccountId,
          name: "Viewer A",
          email: "viewer-a@example.com",
          role: "viewer",
          away: false
        },
        {
          accountId: c.seed.a.memberAccountId,
          name: "Member A",
          email: "member-a@example.com",
          role: "member",
          away: false
        }
      ])
    )
    const other = await api("GET", "/members", { key: c.seed.keys.other })
    expectStatus(other, 200)
    expect(other.body.members).toEqual([
      { accountId: c.seed.b.ownerAccountId, name: "Owner B", email: "owner-b@example.com", role: "owner", away: false }
    ])
  })
})
