/**
 * Saved views of the workspace-wide list (issue #28, `/views`) through the API
 * of a real qforms: create, list, get, change and delete; personal views seen
 * only by their owner and gone with them; the rules of shared views per role;
 * the limits; `GET /responses?view=` applying a view's filter and sort with
 * explicit parameters winning; `sort=oldest` with keyset pages; another
 * workspace's views not found. On PGlite always, on PostgreSQL too when
 * QFORMS_TEST_DATABASE_URL is set.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeys, Members } from "../src/index.ts"
import type * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { type Api, apiOf, twoWorkspaces } from "@qforms/test-kit/InProcessApi"

interface View {
  readonly id: number
  readonly name: string
  readonly shared: boolean
  readonly filter: Record<string, unknown>
  readonly sort: string
  readonly columns: ReadonlyArray<string>
  readonly createdBy: number
  readonly canChange: boolean
}

interface InboxRow {
  readonly id: number
  readonly formId: number
  readonly assigneeId: number | null
  readonly submittedAt: string
}

for (const target of databaseTargets) {
  describe(`saved views on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let owner: Api
    let viewer: Api
    let other: Api
    let workspaceId: number
    let mia: { id: number; api: Api }
    let leo: { id: number; api: Api }
    let admin: { id: number; api: Api }
    let forms: Array<{ formId: number; nameId: number }> = []
    const responseIds: Array<number> = []

    const addMember = (email: string, role: "admin" | "member" | "viewer") =>
      qforms.run(
        Effect.gen(function* () {
          const member = yield* (yield* Members.Members).add(workspaceId, { email, role })
          const key = (yield* (yield* ApiKeys.ApiKeys).create(workspaceId, { accountId: member.accountId })).key
          return { id: member.accountId, api: apiOf(qforms, key) }
        }).pipe(Effect.orDie)
      )

    const makeForm = async (api: Api, title: string) => {
      const created = await api("POST", "/forms", { title, fields: [{ type: "short_text", label: "Name" }] })
      expect(created.status).toBe(201)
      const formId = created.json.id as number
      expect((await api("PATCH", `/forms/${formId}`, { status: "published" })).status).toBe(200)
      const { json } = await api("GET", `/forms/${formId}`)
      return { formId, nameId: (json.fields as Array<{ id: number }>)[0]!.id }
    }

    const inbox = async (api: Api, query: string) =>
      (await api("GET", `/responses?${query}`)) as {
        status: number
        json: { responses: Array<InboxRow>; nextCursor: string | null; error?: string }
      }

    const create = async (api: Api, body: Record<string, unknown>) => {
      const reply = await api("POST", "/views", body)
      return reply as { status: number; json: View & { error?: string } }
    }

    const names = async (api: Api) => {
      const reply = await api("GET", "/views")
      expect(reply.status).toBe(200)
      return (reply.json.views as Array<View>).map((view) => view.name)
    }

    beforeAll(async () => {
      ;({ qforms, cleanup, owner, viewer, other, workspaceId } = await twoWorkspaces(target, "views"))
      mia = await addMember("mia@views.example", "member")
      leo = await addMember("leo@views.example", "member")
      admin = await addMember("ada@views.example", "admin")
      forms = [await makeForm(owner, "Support"), await makeForm(owner, "Sales")]
      // 12 responses over two forms; every third assigned to Mia, the first form's tagged "urgent".
      for (let i = 0; i < 12; i++) {
        const form = forms[i % 2]!
        const reply = await owner("POST", `/forms/${form.formId}/responses`, { values: { [form.nameId]: `p${i}` } })
        expect(reply.status).toBe(201)
        const id = reply.json.id as number
        responseIds.push(id)
        const change: Record<string, unknown> = {}
        if (i % 3 === 0) change.assigneeId = mia.id
        if (i % 2 === 0) change.tags = ["urgent"]
        if (Object.keys(change).length > 0) expect((await owner("PATCH", `/responses/${id}`, change)).status).toBe(200)
      }
    })

    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
    })

    it("creates, lists, reads, changes and deletes a personal view", async () => {
      const made = await create(mia.api, {
        name: "  Mine urgent ",
        filter: { assignee: "me", tag: "urgent" },
        sort: "oldest",
        columns: ["name", "form", "tags"]
      })
      expect(made.status).toBe(201)
      expect(made.json).toMatchObject({
        name: "Mine urgent",
        shared: false,
        filter: { assignee: "me", tag: "urgent" },
        sort: "oldest",
        columns: ["name", "form", "tags"],
        createdBy: mia.id,
        canChange: true
      })
      const defaults = await create(mia.api, { name: "Everything" })
      expect(defaults.status).toBe(201)
      expect(defaults.json).toMatchObject({ filter: {}, sort: "newest", shared: false })
      expect(defaults.json.columns.length).toBeGreaterThan(0)
      expect(await names(mia.api)).toEqual(["Everything", "Mine urgent"])
      expect((await mia.api("GET", `/views/${made.json.id}`)).json.name).toBe("Mine urgent")
      const renamed = await mia.api("PATCH", `/views/${made.json.id}`, { name: "Urgent of mine", sort: "newest" })
      expect(renamed.status).toBe(200)
      expect(renamed.json).toMatchObject({ name: "Urgent of mine", sort: "newest", filter: { tag: "urgent" } })
      // The same name again, ignoring case: 409.
      const twice = await create(mia.api, { name: "EVERYTHING" })
      expect(twice.status).toBe(409)
      expect(twice.json.error).toMatch(/already/)
      expect((await mia.api("PATCH", `/views/${made.json.id}`, { name: "everything" })).status).toBe(409)
      expect((await mia.api("DELETE", `/views/${defaults.json.id}`)).status).toBe(204)
      expect((await mia.api("GET", `/views/${defaults.json.id}`)).status).toBe(404)
      expect(await names(mia.api)).toEqual(["Urgent of mine"])
    })

    it("answers 400 naming the problem for bad input", async () => {
      for (const [body, pattern] of [
        [{ name: "" }, /name/],
        [{ name: "x".repeat(81) }, /name/],
        [{ name: "bad sort", sort: "random" }, /sort/],
        [{ name: "no columns", columns: [] }, /columns/],
        [{ name: "twice", columns: ["name", "name"] }, /columns/],
        [{ name: "unknown column", columns: ["salary"] }, /columns/],
        [{ name: "stage alone", filter: { stage: 3 } }, /stage/],
        [{ name: "bad open", filter: { open: "maybe" } }, /open/]
      ] as const) {
        const reply = await create(mia.api, body)
        expect(reply.status, JSON.stringify(body)).toBe(400)
        expect(reply.json.error).toMatch(pattern)
      }
    })

    it("keeps personal views to their owner: another member gets 404 and sees none", async () => {
      const mine = await create(leo.api, { name: "Leo's own" })
      expect(mine.status).toBe(201)
      expect(await names(mia.api)).not.toContain("Leo's own")
      expect(await names(owner)).not.toContain("Leo's own")
      for (const api of [mia.api, owner, admin.api]) {
        expect((await api("GET", `/views/${mine.json.id}`)).status).toBe(404)
        expect((await api("PATCH", `/views/${mine.json.id}`, { name: "taken" })).status).toBe(404)
        expect((await api("DELETE", `/views/${mine.json.id}`)).status).toBe(404)
        expect((await inbox(api, `view=${mine.json.id}`)).status).toBe(404)
      }
      // The same name is free for another member.
      expect((await create(mia.api, { name: "Leo's own" })).status).toBe(201)
    })

    it("lets viewers keep personal views but not shared ones", async () => {
      const own = await create(viewer, { name: "Viewer's", filter: { open: "true" } })
      expect(own.status).toBe(201)
      expect((await viewer("PATCH", `/views/${own.json.id}`, { name: "Viewer's list" })).status).toBe(200)
      expect((await create(viewer, { name: "For all", shared: true })).status).toBe(403)
      expect((await viewer("PATCH", `/views/${own.json.id}`, { shared: true })).status).toBe(403)
      expect((await viewer("DELETE", `/views/${own.json.id}`)).status).toBe(204)
    })

    it("shows shared views to every member; their maker, owners and admins change them", async () => {
      const shared = await create(mia.api, { name: "Team urgent", shared: true, filter: { tag: "urgent" } })
      expect(shared.status).toBe(201)
      expect(shared.json).toMatchObject({ shared: true, createdBy: mia.id, canChange: true })
      for (const api of [viewer, leo.api, owner, admin.api]) expect(await names(api)).toContain("Team urgent")
      const seen = await viewer("GET", `/views/${shared.json.id}`)
      expect(seen.json.canChange).toBe(false)
      expect((await leo.api("GET", `/views/${shared.json.id}`)).json.canChange).toBe(false)
      expect((await admin.api("GET", `/views/${shared.json.id}`)).json.canChange).toBe(true)
      // Another member and a viewer may not change or delete it.
      for (const api of [leo.api, viewer]) {
        expect((await api("PATCH", `/views/${shared.json.id}`, { name: "Mine now" })).status).toBe(403)
        expect((await api("DELETE", `/views/${shared.json.id}`)).status).toBe(403)
      }
      expect((await mia.api("PATCH", `/views/${shared.json.id}`, { sort: "oldest" })).status).toBe(200)
      expect((await admin.api("PATCH", `/views/${shared.json.id}`, { name: "Team: urgent" })).status).toBe(200)
      expect((await owner("PATCH", `/views/${shared.json.id}`, { columns: ["form", "name"] })).status).toBe(200)
      // A shared name is unique in the workspace; a personal view may carry it.
      expect((await create(leo.api, { name: "team: URGENT", shared: true })).status).toBe(409)
      expect((await create(leo.api, { name: "Team: urgent" })).status).toBe(201)
      const leos = await create(leo.api, { name: "Leo shares", shared: true })
      expect(leos.status).toBe(201)
      expect((await owner("DELETE", `/views/${leos.json.id}`)).status).toBe(204)
      expect((await admin.api("DELETE", `/views/${shared.json.id}`)).status).toBe(204)
      expect(await names(mia.api)).not.toContain("Team: urgent")
    })

    it("applies a view's filter and sort with ?view=, explicit parameters winning", async () => {
      const view = await create(mia.api, {
        name: "Mine, oldest",
        filter: { assignee: "me", open: "true" },
        sort: "oldest"
      })
      expect(view.status).toBe(201)
      const mine = responseIds.filter((_, i) => i % 3 === 0)
      const listed = await inbox(mia.api, `view=${view.json.id}`)
      expect(listed.status).toBe(200)
      expect(listed.json.responses.map((row) => row.id)).toEqual(mine)
      // The view's sort, overridden.
      const newest = await inbox(mia.api, `view=${view.json.id}&sort=newest`)
      expect(newest.json.responses.map((row) => row.id)).toEqual([...mine].reverse())
      // The view's filter, one field overridden: the first form only.
      const firstForm = await inbox(mia.api, `view=${view.json.id}&formId=${forms[0]!.formId}`)
      expect(firstForm.json.responses.map((row) => row.id)).toEqual(mine.filter((_, i) => (i * 3) % 2 === 0))
      // Someone else's "me": a shared view of assignee=me lists the caller's own cases.
      const shared = await create(mia.api, { name: "Everyone's mine", shared: true, filter: { assignee: "me" } })
      expect((await inbox(leo.api, `view=${shared.json.id}`)).json.responses).toEqual([])
      expect((await inbox(mia.api, `view=${shared.json.id}`)).json.responses).toHaveLength(mine.length)
      expect((await inbox(mia.api, "view=999999")).status).toBe(404)
      // A JSON filter takes open as a boolean too, beside formId as a number (#52).
      const typed = await create(mia.api, {
        name: "Typed",
        filter: { assignee: "me", open: true, formId: forms[0]!.formId }
      })
      expect(typed.status, JSON.stringify(typed.json)).toBe(201)
      expect(typed.json.filter).toEqual({ assignee: "me", open: true, formId: forms[0]!.formId })
      // (Newest first, the default sort.)
      expect((await inbox(mia.api, `view=${typed.json.id}`)).json.responses.map((row) => row.id)).toEqual(
        firstForm.json.responses.map((row) => row.id).reverse()
      )
      expect((await mia.api("GET", `/views/${typed.json.id}`)).json.filter.open).toBe(true)
    })

    it("pages oldest first and newest first by cursor without gaps or duplicates", async () => {
      for (const sort of ["oldest", "newest"] as const) {
        const seen: Array<number> = []
        let cursor: string | null = null
        let pages = 0
        do {
          const reply = await inbox(owner, `sort=${sort}&limit=5${cursor === null ? "" : `&cursor=${cursor}`}`)
          expect(reply.status).toBe(200)
          seen.push(...reply.json.responses.map((row) => row.id))
          cursor = reply.json.nextCursor
          pages++
        } while (cursor !== null)
        expect(pages).toBe(3)
        expect(seen).toEqual(sort === "oldest" ? responseIds : [...responseIds].reverse())
      }
      expect((await inbox(owner, "sort=sideways")).status).toBe(400)
    })

    it("keeps at most 50 personal views per member and 100 shared per workspace", async () => {
      const have = (await names(leo.api)).length
      const personal = (await leo.api("GET", "/views")).json.views as Array<View>
      const ownCount = personal.filter((view) => !view.shared).length
      for (let i = ownCount; i < 50; i++) expect((await create(leo.api, { name: `leo ${i}` })).status).toBe(201)
      const past = await create(leo.api, { name: "leo 51st" })
      expect(past.status).toBe(400)
      expect(past.json.error).toMatch(/at most 50/)
      expect((await names(leo.api)).length).toBe(have + 50 - ownCount)
      const sharedNow = ((await owner("GET", "/views")).json.views as Array<View>).filter((view) => view.shared).length
      for (let i = sharedNow; i < 100; i++) {
        expect((await create(owner, { name: `shared ${i}`, shared: true })).status).toBe(201)
      }
      const tooMany = await create(admin.api, { name: "shared 101st", shared: true })
      expect(tooMany.status).toBe(400)
      expect(tooMany.json.error).toMatch(/at most 100/)
      // A personal view cannot become the 101st shared one either.
      const own = await create(admin.api, { name: "admin's" })
      expect((await admin.api("PATCH", `/views/${own.json.id}`, { shared: true })).status).toBe(400)
    })

    it("removes a member's personal views with the member and keeps the shared ones they made", async () => {
      const gone = await addMember("gone@views.example", "member")
      const personal = await create(gone.api, { name: "Gone's own" })
      expect(personal.status).toBe(201)
      const before = await qforms.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          return (yield* sql`select id from saved_views where workspace_id = ${workspaceId} and created_by = ${gone.id}`)
            .length
        }).pipe(Effect.orDie)
      )
      expect(before).toBe(1)
      await qforms.run(
        Effect.flatMap(Members.Members, (members) => members.remove(workspaceId, gone.id)).pipe(Effect.orDie)
      )
      const after = await qforms.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          return (yield* sql`select id from saved_views where workspace_id = ${workspaceId} and created_by = ${gone.id}`)
            .length
        }).pipe(Effect.orDie)
      )
      expect(after).toBe(0)
    })

    it("never shows or changes another workspace's views", async () => {
      // (The workspace has 100 shared views by now: one makes room.)
      const full = (await owner("GET", "/views")).json.views as Array<View>
      expect((await owner("DELETE", `/views/${full.find((view) => view.name === "shared 99")!.id}`)).status).toBe(204)
      const shared = await create(owner, { name: "Ours only", shared: true })
      expect(shared.status).toBe(201)
      expect(await names(other)).toEqual([])
      expect((await other("GET", `/views/${shared.json.id}`)).status).toBe(404)
      expect((await other("PATCH", `/views/${shared.json.id}`, { name: "theirs" })).status).toBe(404)
      expect((await other("DELETE", `/views/${shared.json.id}`)).status).toBe(404)
      expect((await inbox(other, `view=${shared.json.id}`)).status).toBe(404)
      expect((await owner("GET", `/views/${shared.json.id}`)).status).toBe(200)
    })
  })
}
