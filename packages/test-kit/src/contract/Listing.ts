/**
 * The HTTP contract: listing responses.
 */
import { expect } from "vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { group, sleep } from "./Contract.ts"
import { send } from "./Requests.ts"
import {
  expectStatus,
  expectError,
  softError,
  expectField,
  expectStage,
  expectMember,
  expectResponseRow
} from "./Expectations.ts"

export const listing = group("listing responses", { transport: true }, (c) => {
  const { api, publishedForm, submit, test, transportTest } = c
  /** Ivy (stage New, tag billing), Jon (nothing), Kim (assigned to the owner, tags urgent+billing), in that order. */
  const threeCases = async () => {
    const form = await publishedForm("Filters")
    const newStage = form.stages[0]!
    const ivy = await submit(form, "Ivy", { [form.ids.message]: "The invoice is wrong" })
    await sleep(5)
    const jon = await submit(form, "Jon", { [form.ids.message]: "All good" })
    await sleep(5)
    const kim = await submit(form, "Kim", { [form.ids.message]: "Please call me" })
    expectStatus(await api("PATCH", `/responses/${ivy.id}`, { body: { stageId: newStage.id, tags: ["billing"] } }), 200)
    expectStatus(
      await api("PATCH", `/responses/${kim.id}`, {
        body: { assigneeId: c.seed.a.ownerAccountId, tags: ["urgent", "billing"] }
      }),
      200
    )
    return { form, newStage, ivy, jon, kim }
  }

  const ids = async (formId: number, query: string) => {
    const reply = await api("GET", `/forms/${formId}/responses${query}`)
    expectStatus(reply, 200)
    return (reply.body.responses as Array<{ id: number }>).map((r) => r.id)
  }

  test("GET /forms/{formId}/responses → ResponseList, newest first", async () => {
    const { form, ivy, jon, kim } = await threeCases()
    const reply = await api("GET", `/forms/${form.formId}/responses`)
    expectStatus(reply, 200)
    const list = reply.body
    expect(list.form).toEqual({ id: form.formId, title: "Filters" })
    list.fields.forEach(expectField)
    expect(list.fields.map((f: { label: string }) => f.label)).toEqual(["Name", "Email", "Plan", "Message"])
    list.stages.forEach(expectStage)
    expect(list.stages.map((s: { name: string }) => s.name)).toEqual(["New", "In progress", "Done"])
    list.members.forEach(expectMember)
    expect(list.members.map((m: { accountId: number }) => m.accountId)).toEqual(
      expect.arrayContaining([c.seed.a.ownerAccountId, c.seed.a.viewerAccountId, c.seed.a.memberAccountId])
    )
    expect(list.members.map((m: { accountId: number }) => m.accountId)).not.toContain(c.seed.b.ownerAccountId)
    expect([...list.allTags].sort()).toEqual(["billing", "urgent"])
    list.responses.forEach((r: unknown) => expectResponseRow(r))
    expect(list.responses.map((r: { id: number }) => r.id)).toEqual([kim.id, jon.id, ivy.id])
    expect(list.responses[0]).toMatchObject({
      name: "Kim",
      email: "kim@example.com",
      assigneeId: c.seed.a.ownerAccountId,
      source: "api"
    })
    expect([...list.responses[0].tags].sort()).toEqual(["billing", "urgent"])
  })

  test("filters by q, stage, assignee, tag, from and to", async () => {
    const { form, newStage, ivy, jon, kim } = await threeCases()
    const f = form.formId
    expect(await ids(f, "?q=INVOICE")).toEqual([ivy.id])
    expect(await ids(f, "?q=jon%40example")).toEqual([jon.id])
    expect(await ids(f, "?q=urgent")).toEqual([kim.id])
    expect(await ids(f, "?q=kim")).toEqual([kim.id])
    expect(await ids(f, "?q=nothing-matches-this")).toEqual([])
    expect(await ids(f, `?stage=${newStage.id}`)).toEqual([ivy.id])
    expect(await ids(f, "?stage=none")).toEqual([kim.id, jon.id])
    expect(await ids(f, `?assignee=${c.seed.a.ownerAccountId}`)).toEqual([kim.id])
    expect(await ids(f, "?assignee=none")).toEqual([jon.id, ivy.id])
    expect(await ids(f, "?tag=billing")).toEqual([kim.id, ivy.id])
    expect(await ids(f, "?tag=urgent")).toEqual([kim.id])
    expect(await ids(f, `?from=${encodeURIComponent(jon.submittedAt)}`)).toEqual([kim.id, jon.id])
    expect(await ids(f, `?to=${encodeURIComponent(jon.submittedAt)}`)).toEqual([jon.id, ivy.id])
    expect(
      await ids(f, `?from=${encodeURIComponent(jon.submittedAt)}&to=${encodeURIComponent(jon.submittedAt)}`)
    ).toEqual([jon.id])
    expect(await ids(f, `?tag=billing&stage=none`)).toEqual([kim.id])
    expect(await ids(f, "?from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z")).toEqual([])
  })

  test('flat=1 adds answers keyed by label and a summary of "■ " blocks', async () => {
    const { form, kim } = await threeCases()
    const reply = await api("GET", `/forms/${form.formId}/responses?flat=1`)
    expectStatus(reply, 200)
    reply.body.responses.forEach((r: unknown) => expectResponseRow(r, true))
    const first = reply.body.responses[0]
    expect(first.id).toBe(kim.id)
    expect(first.answers).toEqual({ Name: "Kim", Email: "kim@example.com", Message: "Please call me" })
    const blocks = (first.summary as string).split("\n\n")
    expect(blocks.length).toBe(3)
    for (const block of blocks) expect(block.startsWith("■ ")).toBe(true)
    expect(blocks[0]).toBe("■ Name\nKim")
    expect(blocks[2]).toBe("■ Message\nPlease call me")
  })

  transportTest("limit and cursor page through the list; nextCursor is null on the last page", async () => {
    const { form, ivy, jon, kim } = await threeCases()
    const page1 = await api("GET", `/forms/${form.formId}/responses?limit=2`)
    expectStatus(page1, 200)
    expect(page1.body.responses.map((r: { id: number }) => r.id)).toEqual([kim.id, jon.id])
    expect(page1.body.nextCursor).toBeTypeOf("string")
    const page2 = await api(
      "GET",
      `/forms/${form.formId}/responses?limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`
    )
    expectStatus(page2, 200)
    expect(page2.body.responses.map((r: { id: number }) => r.id)).toEqual([ivy.id])
    expect(page2.body.nextCursor).toBeNull()
    const exact = await api("GET", `/forms/${form.formId}/responses?limit=3`)
    expect(exact.body.responses).toHaveLength(3)
    expect(exact.body.nextCursor).toBeNull()
    const max = await api("GET", `/forms/${form.formId}/responses?limit=1000`)
    expectStatus(max, 200)
    expect(max.body.responses).toHaveLength(3)
    expect(max.body.nextCursor).toBeNull()
    // Filters and flat apply to pages too.
    const filtered = await api("GET", `/forms/${form.formId}/responses?tag=billing&limit=1&flat=1`)
    expect(filtered.body.responses.map((r: { id: number }) => r.id)).toEqual([kim.id])
    expectResponseRow(filtered.body.responses[0], true)
    const rest = await api(
      "GET",
      `/forms/${form.formId}/responses?tag=billing&limit=1&cursor=${encodeURIComponent(filtered.body.nextCursor)}`
    )
    expect(rest.body.responses.map((r: { id: number }) => r.id)).toEqual([ivy.id])
  })

  transportTest(
    "a whole list longer than a page is one JSON document: the rows of the paged list, byte for byte, and the CSV too",
    async () => {
      const form = await publishedForm("Long list")
      // 1203 rows: the whole list is streamed in several pages of rows.
      await c.server.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* sql`
        insert into responses (workspace_id, form_id, submitted_at, updated_at, name, email, tags, source,
          answers, search_text)
        select f.workspace_id, f.id, timestamptz '2026-01-01' + (g / 3) * interval '1 second', now(), 'P' || g,
          'p' || g || '@example.com', case when g % 2 = 0 then array['even'] else '{}'::text[] end, 'import',
          jsonb_build_object(${String(form.ids.name)}::text, 'P "' || g || '"', ${String(form.ids.message)}::text,
            E'line 1\nline ' || g),
          ''
        from forms f, generate_series(1, 1203) g where f.id = ${form.formId}`
        })
      )
      let ids: Array<number> = []
      for (const query of ["flat=1", "tag=even"]) {
        const whole = await api("GET", `/forms/${form.formId}/responses?${query}`)
        expectStatus(whole, 200)
        const paged: Array<unknown> = []
        let cursor: string | null = null
        do {
          const page: Awaited<ReturnType<typeof api>> = await api(
            "GET",
            `/forms/${form.formId}/responses?${query}&limit=500${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
          )
          expectStatus(page, 200)
          paged.push(...page.body.responses)
          cursor = page.body.nextCursor
        } while (cursor !== null)
        expect(paged).toHaveLength(query === "flat=1" ? 1203 : 601)
        if (query === "flat=1") ids = (paged as Array<{ id: number }>).map((row) => row.id)
        const { responses: _rows, nextCursor: _next, ...head } = whole.body
        expect(whole.text).toBe(JSON.stringify({ ...head, responses: paged, nextCursor: null }))
      }
      const csv = await send(
        `${c.server.url}/api/forms/${form.formId}/responses.csv`,
        {
          headers: { authorization: `Bearer ${c.seed.keys.owner}` }
        },
        c.settings.onReply
      )
      expect(csv.status).toBe(200)
      const records = (await csv.text())
        .split("\r\n")
        .filter((line) => line !== "")
        .slice(1) // after the header
      expect(records.map((record) => Number(record.split(",")[0]))).toEqual(ids)
    }
  )

  test("invalid filter values → 400 naming the parameter", async () => {
    const form = await publishedForm("Bad filters")
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["from=yesterday", "from"],
      ["to=yesterday", "to"],
      ["stage=abc", "stage"],
      ["assignee=x", "assignee"],
      ["flat=2", "flat"],
      ["flat=true", "flat"],
      ["limit=0", "limit"],
      ["limit=1001", "limit"],
      ["limit=abc", "limit"],
      ["cursor=garbage", "cursor"]
    ]
    for (const [query, name] of cases) {
      const reply = await api("GET", `/forms/${form.formId}/responses?${query}`)
      softError(`?${query}`, reply, 400, name)
    }
  })

  test("404 for an absent form", async () => {
    expectError(await api("GET", "/forms/987654/responses"), 404)
  })
})
