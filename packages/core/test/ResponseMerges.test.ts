/**
 * Merging duplicate responses (issue #28) through the API of a real qforms:
 * what moves, the pointer left behind, counts, an exact undo, the undo
 * window, refusals, and two concurrent merges of one pair. On PGlite always,
 * on PostgreSQL too when QFORMS_TEST_DATABASE_URL is set.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { type Api, twoWorkspaces } from "@qforms/test-kit/InProcessApi"

for (const target of databaseTargets) {
  describe(`response merges on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let owner: Api
    let viewer: Api
    let other: Api

    const run = <A>(effect: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
      qforms.run(effect.pipe(Effect.orDie) as Effect.Effect<A, never, never>)

    const makeForm = async (title: string) => {
      const created = await owner("POST", "/forms", {
        title,
        fields: [
          { type: "short_text", label: "Name" },
          { type: "short_text", label: "Phone" },
          { type: "long_text", label: "Request" }
        ]
      })
      expect(created.status).toBe(201)
      const formId = created.json.id as number
      expect((await owner("PATCH", `/forms/${formId}`, { status: "published" })).status).toBe(200)
      const fields = (await owner("GET", `/forms/${formId}`)).json.fields as Array<{ id: number }>
      return { formId, name: fields[0]!.id, phone: fields[1]!.id, request: fields[2]!.id }
    }

    const submit = async (formId: number, values: Record<string, unknown>, tags: Array<string> = []) => {
      const reply = await owner("POST", `/forms/${formId}/responses`, { values })
      expect(reply.status).toBe(201)
      const id = reply.json.id as number
      if (tags.length > 0) expect((await owner("PATCH", `/responses/${id}`, { tags })).status).toBe(200)
      return id
    }

    /** An e-mail and a reply in the response's thread, as the delivery worker and the inbox write them. */
    const addThread = (responseId: number, subject: string) =>
      run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const [row] = yield* sql<{ readonly workspace_id: number }>`
            select workspace_id from responses where id = ${responseId}`
          const now = new Date()
          yield* sql`insert into response_emails (workspace_id, response_id, kind, to_address, subject, text, html,
              message_id, links, status, opens, created_at)
            values (${row!.workspace_id}, ${responseId}, 'message', 'ada@example.com', ${subject}, 'Hi', '<p>Hi</p>',
              ${`<${subject}-${responseId}@merge.example>`}, '[]'::jsonb, 'sent', 0, ${now})`
          yield* sql`insert into response_replies (workspace_id, response_id, from_address, subject, text, file_ids,
              received_at)
            values (${row!.workspace_id}, ${responseId}, 'ada@example.com', ${`Re: ${subject}`}, 'Thanks', '{}', ${now})`
        })
      )

    const responseCount = async (formId: number) => {
      const forms = (await owner("GET", "/forms")).json as Array<{ id: number; responseCount: number }>
      return forms.find((form) => form.id === formId)!.responseCount
    }

    const listed = async (formId: number) => {
      const { json } = await owner("GET", `/forms/${formId}/responses?limit=100`)
      return {
        ids: (json.responses as Array<{ id: number }>).map((r) => r.id),
        allTags: json.allTags as Array<string>
      }
    }

    /** A case as read, less what a merge and its undoing write on purpose (their own activities, `updatedAt`). */
    const snapshot = async (id: number) => {
      const { json } = await owner("GET", `/responses/${id}`)
      const { updatedAt: _, ...response } = json.response
      return {
        response,
        activities: (json.activities as Array<{ type: string }>).filter(
          (a) => a.type !== "merged" && a.type !== "unmerged"
        ),
        emails: json.emails,
        replies: json.replies
      }
    }

    beforeAll(async () => {
      ;({ qforms, cleanup, owner, viewer, other } = await twoWorkspaces(target, "merges"))
    })

    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
    })

    it("merges answers, tags, notes, activities and e-mails, hides the duplicate, and undoes exactly", async () => {
      const form = await makeForm("Merge and undo")
      const kept = await submit(form.formId, { [form.name]: "Ada", [form.request]: "Refund please" }, ["billing"])
      const duplicate = await submit(
        form.formId,
        { [form.name]: "Ada L.", [form.phone]: "+44 20 7946 0000", [form.request]: "Refund, again" },
        ["urgent", "billing"]
      )
      expect((await owner("POST", `/responses/${duplicate}/notes`, { body: "Called twice" })).status).toBe(201)
      await addThread(duplicate, "About your refund")
      const beforeKept = await snapshot(kept)
      const beforeDuplicate = await snapshot(duplicate)
      expect(await responseCount(form.formId)).toBe(2)
      expect(await listed(form.formId)).toEqual({ ids: [duplicate, kept], allTags: ["billing", "urgent"] })

      const merged = await owner("POST", `/responses/${kept}/merge`, { duplicateId: duplicate })
      expect(merged.status).toBe(200)
      expect(merged.json).toMatchObject({
        keptId: kept,
        duplicateId: duplicate,
        answersTaken: [form.phone],
        tagsTaken: ["urgent"],
        moved: { emails: 1, replies: 1 },
        undoneAt: null
      })
      expect(merged.json.moved.activities).toBe(beforeDuplicate.activities.length)

      const after = (await owner("GET", `/responses/${kept}`)).json
      // Its own answers win; the one it had none for is taken.
      expect(after.response.values).toMatchObject({
        [form.name]: "Ada",
        [form.request]: "Refund please",
        [form.phone]: "+44 20 7946 0000"
      })
      expect(after.response.tags).toEqual(["billing", "urgent"])
      expect(
        after.activities.some((a: { type: string; payload: { body?: string } }) => a.payload.body === "Called twice")
      ).toBe(true)
      expect(after.activities[0]).toMatchObject({
        type: "merged",
        payload: { duplicateId: duplicate, questions: ["Phone"] }
      })
      expect(after.emails.map((e: { subject: string }) => e.subject)).toEqual(["About your refund"])
      expect(after.replies).toHaveLength(1)
      const pointer = (await owner("GET", `/responses/${duplicate}`)).json
      expect(pointer.response.mergedInto).toBe(kept)
      expect(pointer.activities).toEqual([])
      expect(pointer.emails).toEqual([])
      expect(await responseCount(form.formId)).toBe(1)
      expect(await listed(form.formId)).toEqual({ ids: [kept], allTags: ["billing", "urgent"] })
      const events = await run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          return yield* sql<{ readonly type: string; readonly payload: { readonly duplicateId?: number } }>`
            select type, payload from events where response_id = ${kept} order by seq`
        })
      )
      expect(events.filter((e) => e.type === "response.merged").map((e) => e.payload.duplicateId)).toEqual([duplicate])

      // A member's later change to another part stays through the undo.
      expect((await owner("PATCH", `/responses/${kept}`, { tags: ["billing", "urgent", "later"] })).status).toBe(200)
      const undone = await owner("DELETE", `/responses/${kept}/merges/${duplicate}`)
      expect(undone.status).toBe(200)
      expect(undone.json.undoneAt).not.toBeNull()
      const restoredKept = await snapshot(kept)
      expect(restoredKept.activities[0]).toMatchObject({ type: "tags_changed", payload: { added: ["later"] } })
      expect(restoredKept.response.tags).toEqual(["billing", "later"])
      expect({ ...restoredKept, response: { ...restoredKept.response, tags: beforeKept.response.tags } }).toEqual({
        ...beforeKept,
        // The member's later tag change, newest; then exactly the activities it had.
        activities: [restoredKept.activities[0], ...beforeKept.activities]
      })
      expect(await snapshot(duplicate)).toEqual(beforeDuplicate)
      expect(await responseCount(form.formId)).toBe(2)
      expect((await listed(form.formId)).ids).toEqual([duplicate, kept])
      expect((await listed(form.formId)).allTags).toEqual(["billing", "later", "urgent"])

      const twice = await owner("DELETE", `/responses/${kept}/merges/${duplicate}`)
      expect(twice.status).toBe(409)
      expect(twice.json.error).toMatch(/undone already/)
    })

    it("the kept case's name and e-mail follow the answers it took, and go back with the undo", async () => {
      const created = await owner("POST", "/forms", {
        title: "Who",
        fields: [
          { type: "short_text", label: "Name" },
          { type: "email", label: "Email" },
          { type: "long_text", label: "Request" }
        ]
      })
      const formId = created.json.id as number
      expect((await owner("PATCH", `/forms/${formId}`, { status: "published" })).status).toBe(200)
      const [name, email, request] = (await owner("GET", `/forms/${formId}`)).json.fields as Array<{ id: number }>
      const kept = await submit(formId, { [request!.id]: "The heating is off" })
      const duplicate = await submit(formId, { [name!.id]: "Grace Hopper", [email!.id]: "grace@example.com" })
      const read = async (id: number) => {
        const { response } = (await owner("GET", `/responses/${id}`)).json
        return { name: response.name, email: response.email }
      }
      expect(await read(kept)).toEqual({ name: null, email: null })

      expect((await owner("POST", `/responses/${kept}/merge`, { duplicateId: duplicate })).status).toBe(200)
      expect(await read(kept)).toEqual({ name: "Grace Hopper", email: "grace@example.com" })
      // The search finds the kept case by the address it took.
      const found = (await owner("GET", `/forms/${formId}/responses?q=grace%40example`)).json.responses as Array<{
        id: number
      }>
      expect(found.map((r) => r.id)).toEqual([kept])

      expect((await owner("DELETE", `/responses/${kept}/merges/${duplicate}`)).status).toBe(200)
      expect(await read(kept)).toEqual({ name: null, email: null })
      expect(await read(duplicate)).toEqual({ name: "Grace Hopper", email: "grace@example.com" })
      const after = (await owner("GET", `/forms/${formId}/responses?q=grace%40example`)).json.responses as Array<{
        id: number
      }>
      expect(after.map((r) => r.id)).toEqual([duplicate])

      // A case with its own name keeps it: its answers win over the duplicate's.
      const named = await submit(formId, { [name!.id]: "G. Hopper", [request!.id]: "Again" })
      const other = await submit(formId, { [name!.id]: "Grace Hopper", [email!.id]: "grace@example.com" })
      expect((await owner("POST", `/responses/${named}/merge`, { duplicateId: other })).status).toBe(200)
      expect(await read(named)).toEqual({ name: "G. Hopper", email: "grace@example.com" })
    })

    it("refuses an undo after 24 hours with a 409", async () => {
      const form = await makeForm("Window")
      const kept = await submit(form.formId, { [form.name]: "Bo" })
      const duplicate = await submit(form.formId, { [form.name]: "Bo", [form.phone]: "123" })
      expect((await owner("POST", `/responses/${kept}/merge`, { duplicateId: duplicate })).status).toBe(200)
      await run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* sql`update response_merges set merged_at = merged_at - interval '24 hours 1 minute'
            where kept_id = ${kept}`
        })
      )
      const late = await owner("DELETE", `/responses/${kept}/merges/${duplicate}`)
      expect(late.status).toBe(409)
      expect(late.json.error).toMatch(/could be undone for 24 hours/)
      expect((await owner("GET", `/responses/${duplicate}`)).json.response.mergedInto).toBe(kept)
      expect((await owner("DELETE", `/responses/${duplicate}/merges/${kept}`)).status).toBe(404)
    })

    it("refuses what cannot merge, naming why", async () => {
      const form = await makeForm("Refusals")
      const second = await makeForm("Refusals, another form")
      const a = await submit(form.formId, { [form.name]: "Cy" })
      const b = await submit(form.formId, { [form.name]: "Cy" })
      const c = await submit(form.formId, { [form.name]: "Cy" })
      const elsewhere = await submit(second.formId, { [second.name]: "Cy" })
      const foreignForm = (
        await other("POST", "/forms", { title: "Theirs", fields: [{ type: "short_text", label: "N" }] })
      ).json.id as number
      expect((await other("PATCH", `/forms/${foreignForm}`, { status: "published" })).status).toBe(200)
      const foreign = (await other("POST", `/forms/${foreignForm}/responses`, { values: {} })).json.id as number

      const self = await owner("POST", `/responses/${a}/merge`, { duplicateId: a })
      expect([self.status, self.json.error]).toEqual([400, expect.stringMatching(/cannot be merged into itself/)])
      const otherForm = await owner("POST", `/responses/${a}/merge`, { duplicateId: elsewhere })
      expect([otherForm.status, otherForm.json.error]).toEqual([
        400,
        expect.stringMatching(/only responses of the same form/)
      ])
      expect((await owner("POST", `/responses/${a}/merge`, { duplicateId: foreign })).status).toBe(404)
      expect((await other("POST", `/responses/${foreign}/merge`, { duplicateId: a })).status).toBe(404)
      expect((await owner("POST", `/responses/${a}/merge`, {})).status).toBe(400)
      expect((await viewer("POST", `/responses/${a}/merge`, { duplicateId: b })).status).toBe(403)

      expect((await owner("POST", `/responses/${a}/merge`, { duplicateId: b })).status).toBe(200)
      expect((await viewer("DELETE", `/responses/${a}/merges/${b}`)).status).toBe(403)
      const again = await owner("POST", `/responses/${c}/merge`, { duplicateId: b })
      expect([again.status, again.json.error]).toEqual([400, expect.stringMatching(/was merged into response/)])
      const intoPointer = await owner("POST", `/responses/${b}/merge`, { duplicateId: c })
      expect(intoPointer.status).toBe(400)
      const absorbed = await owner("POST", `/responses/${c}/merge`, { duplicateId: a })
      expect([absorbed.status, absorbed.json.error]).toEqual([400, expect.stringMatching(/merge into it instead/)])
      expect((await owner("DELETE", `/responses/${c}/merges/${a}`)).status).toBe(404)
    })

    it("two concurrent merges of one pair: one wins, nothing is counted twice", async () => {
      const form = await makeForm("Concurrent")
      const a = await submit(form.formId, { [form.name]: "Di" }, ["x"])
      const b = await submit(form.formId, { [form.name]: "Di", [form.phone]: "9" }, ["y"])
      const replies = await Promise.all([
        owner("POST", `/responses/${a}/merge`, { duplicateId: b }),
        owner("POST", `/responses/${b}/merge`, { duplicateId: a }),
        owner("POST", `/responses/${a}/merge`, { duplicateId: b })
      ])
      expect(replies.map((r) => r.status).sort()).toEqual([200, 400, 400])
      expect(await responseCount(form.formId)).toBe(1)
      const { ids, allTags } = await listed(form.formId)
      expect(ids).toHaveLength(1)
      expect(allTags).toEqual(["x", "y"])
      const merges = await run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          return yield* sql`select id from response_merges where kept_id in (${a}, ${b})`
        })
      )
      expect(merges).toHaveLength(1)
    })
  })
}
