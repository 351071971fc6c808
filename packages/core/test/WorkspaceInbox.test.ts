/**
 * The workspace-wide list (issue #28, `GET /responses`) through the API of a
 * real qforms: responses of every form newest first with their form, keyset
 * pages without duplicates or gaps while new responses arrive, the filters
 * (formId, q, tag, assignee incl. `me`, open, stage with formId), 400s for bad
 * parameters, isolation between workspaces and who may read it. On PostgreSQL,
 * the plan of "My open cases" and of the whole inbox over 30,000 responses uses
 * migration 0046's indexes. On PGlite always, on PostgreSQL too when
 * QFORMS_TEST_DATABASE_URL is set.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeys, Members } from "../src/index.ts"
import type * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { type Api, apiOf, twoWorkspaces } from "@qforms/test-kit/InProcessApi"

interface InboxRow {
  readonly id: number
  readonly formId: number
  readonly formTitle: string
  readonly assigneeId: number | null
  readonly stageId: number | null
  readonly stageName: string | null
  readonly tags: ReadonlyArray<string>
  readonly submittedAt: string
}

for (const target of databaseTargets) {
  describe(`workspace inbox on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let owner: Api
    let viewer: Api
    let other: Api
    let workspaceId: number
    let mia: { id: number; api: Api }
    let forms: ReadonlyArray<{ formId: number; nameId: number }> = []
    let otherFormId: number

    const inbox = async (api: Api, query: string) => {
      const reply = await api("GET", `/responses${query === "" ? "" : `?${query}`}`)
      return reply as {
        status: number
        json: { responses: Array<InboxRow>; nextCursor: string | null; error?: string }
      }
    }

    /** Every page of a query, following `nextCursor`. */
    const allPages = async (api: Api, query: string, limit: number, between?: () => Promise<void>) => {
      const rows: Array<InboxRow> = []
      let cursor: string | null = null
      let pages = 0
      do {
        const reply = await inbox(
          api,
          `${query}${query === "" ? "" : "&"}limit=${limit}${cursor === null ? "" : `&cursor=${cursor}`}`
        )
        expect(reply.status).toBe(200)
        rows.push(...reply.json.responses)
        cursor = reply.json.nextCursor
        pages++
        if (between !== undefined) await between()
      } while (cursor !== null)
      return { rows, pages }
    }

    const makeForm = async (api: Api, title: string) => {
      const created = await api("POST", "/forms", { title, fields: [{ type: "short_text", label: "Name" }] })
      expect(created.status).toBe(201)
      const formId = created.json.id as number
      expect((await api("PATCH", `/forms/${formId}`, { status: "published" })).status).toBe(200)
      const { json } = await api("GET", `/forms/${formId}`)
      return { formId, nameId: (json.fields as Array<{ id: number }>)[0]!.id }
    }

    const submit = async (api: Api, form: { formId: number; nameId: number }, name: string) => {
      const reply = await api("POST", `/forms/${form.formId}/responses`, { values: { [form.nameId]: name } })
      expect(reply.status).toBe(201)
      return reply.json.id as number
    }

    beforeAll(async () => {
      ;({ qforms, cleanup, owner, viewer, other, workspaceId } = await twoWorkspaces(target, "inbox"))
      mia = await qforms.run(
        Effect.gen(function* () {
          const member = yield* (yield* Members.Members).add(workspaceId, {
            email: "mia@inbox.example",
            role: "member"
          })
          const key = (yield* (yield* ApiKeys.ApiKeys).create(workspaceId, { accountId: member.accountId })).key
          return { id: member.accountId, api: apiOf(qforms, key) }
        }).pipe(Effect.orDie)
      )
      forms = [await makeForm(owner, "Support"), await makeForm(owner, "Sales"), await makeForm(owner, "Jobs")]
      // 30 responses spread over the three forms, in turn.
      for (let i = 0; i < 30; i++) await submit(owner, forms[i % 3]!, `person ${i}`)
      const foreign = await makeForm(other, "Foreign")
      otherFormId = foreign.formId
      await submit(other, foreign, "stranger")
    })

    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
    })

    it("lists every form's responses newest first, each with its form's id and title", async () => {
      const reply = await inbox(owner, "")
      expect(reply.status).toBe(200)
      const rows = reply.json.responses
      expect(rows).toHaveLength(30)
      expect(reply.json.nextCursor).toBeNull()
      const titles = new Map(forms.map((form, i) => [form.formId, ["Support", "Sales", "Jobs"][i]]))
      expect(new Set(rows.map((row) => row.formId))).toEqual(new Set(forms.map((form) => form.formId)))
      for (const row of rows) expect(row.formTitle).toBe(titles.get(row.formId))
      const order = rows.map((row) => [Date.parse(row.submittedAt), row.id] as const)
      for (let i = 1; i < order.length; i++) {
        const [at, id] = order[i]!
        const [prevAt, prevId] = order[i - 1]!
        expect(at < prevAt || (at === prevAt && id < prevId)).toBe(true)
      }
      // The default page is 50: 60 responses come back as 50 and a cursor.
      for (let i = 0; i < 30; i++) await submit(owner, forms[i % 3]!, `more ${i}`)
      const full = await inbox(owner, "")
      expect(full.json.responses).toHaveLength(50)
      expect(full.json.nextCursor).not.toBeNull()
    })

    it("pages without duplicates or gaps while new responses arrive", async () => {
      const before = (await allPages(owner, "", 100)).rows.map((row) => row.id)
      let arrivals = 0
      const { rows, pages } = await allPages(owner, "", 7, async () => {
        arrivals++
        await submit(owner, forms[arrivals % 3]!, `arrival ${arrivals}`)
      })
      const ids = rows.map((row) => row.id)
      expect(pages).toBeGreaterThan(5)
      expect(new Set(ids).size).toBe(ids.length)
      // Every response there was when paging began, once, in the same order; the arrivals are newer.
      expect(ids).toEqual(before)
      const after = (await allPages(owner, "", 100)).rows
      expect(after).toHaveLength(before.length + arrivals)
    })

    it("filters by form, text, tag, assignee (incl. me) and open", async () => {
      const [support, sales] = forms as [(typeof forms)[0], (typeof forms)[0]]
      const closed = await owner("POST", `/forms/${support.formId}/stages`, { name: "Done", isClosed: true })
      const working = await owner("POST", `/forms/${support.formId}/stages`, { name: "Working" })
      expect(closed.status).toBe(201)
      const a = await submit(owner, support, "Zelda Quux")
      const b = await submit(owner, sales, "Yorick Quux")
      const c = await submit(owner, support, "Xavier Quux")
      expect((await owner("PATCH", `/responses/${a}`, { assigneeId: mia.id, tags: ["vip"] })).status).toBe(200)
      expect((await owner("PATCH", `/responses/${b}`, { assigneeId: mia.id })).status).toBe(200)
      expect(
        (await owner("PATCH", `/responses/${c}`, { assigneeId: mia.id, stageId: closed.json.id, tags: ["vip"] })).status
      ).toBe(200)
      expect((await owner("PATCH", `/responses/${a}`, { stageId: working.json.id })).status).toBe(200)

      const ids = async (api: Api, query: string) => {
        const reply = await inbox(api, query)
        expect(reply.status).toBe(200)
        return reply.json.responses.map((row) => row.id)
      }
      expect(await ids(owner, "q=quux")).toEqual([c, b, a])
      // Each row names its stage (stages are a form's, so the list says it).
      expect((await inbox(owner, "q=quux")).json.responses.map((row) => [row.id, row.stageId, row.stageName])).toEqual([
        [c, closed.json.id, "Done"],
        [b, null, null],
        [a, working.json.id, "Working"]
      ])
      expect(await ids(owner, `q=quux&formId=${support.formId}`)).toEqual([c, a])
      expect(await ids(owner, "tag=vip")).toEqual([c, a])
      expect(await ids(owner, `assignee=${mia.id}`)).toEqual([c, b, a])
      expect(await ids(mia.api, "assignee=me")).toEqual([c, b, a])
      // My open cases: c is in a closed stage.
      expect(await ids(mia.api, "assignee=me&open=true")).toEqual([b, a])
      expect(await ids(mia.api, "assignee=me&open=false")).toEqual([c])
      expect(await ids(owner, "assignee=me")).toEqual([])
      expect((await ids(owner, "assignee=none")).length).toBeGreaterThan(50 - 1)
      expect(await ids(owner, `formId=${support.formId}&stage=${working.json.id}`)).toEqual([a])
      expect(await ids(owner, `q=quux&formId=${support.formId}&stage=none`)).toEqual([])
      const from = (await inbox(owner, "q=quux")).json.responses.find((row) => row.id === b)!.submittedAt
      expect(await ids(owner, `q=quux&from=${encodeURIComponent(from)}`)).toEqual([c, b])
    })

    it("refuses bad parameters with a 400 naming them", async () => {
      const cases: ReadonlyArray<readonly [string, RegExp]> = [
        ["stage=none", /stage.*formId/],
        ["limit=0", /limit/],
        ["limit=101", /limit/],
        ["limit=ten", /limit/],
        ["limit=99999999999999999999", /limit/],
        ["cursor=../../x", /cursor/],
        [`cursor=${Buffer.from(JSON.stringify({ at: "never", id: 1 })).toString("base64url")}`, /cursor/],
        ["formId=1e999", /formId/],
        ["formId=0", /formId/],
        ["cursor=nonsense", /cursor/],
        ["open=yes", /open/],
        ["assignee=you", /assignee/],
        ["formId=abc", /formId/],
        ["from=yesterday", /from/],
        [`q=${"x".repeat(201)}`, /q must be at most 200/],
        ["due=soon", /due/]
      ]
      for (const [query, message] of cases) {
        const reply = await inbox(owner, query)
        expect(reply.status, query).toBe(400)
        expect(reply.json.error, query).toMatch(message)
      }
    })

    it("keeps workspaces apart; every role reads", async () => {
      const foreign = await inbox(other, "")
      expect(foreign.json.responses.map((row) => row.formTitle)).toEqual(["Foreign"])
      expect((await inbox(owner, `formId=${otherFormId}`)).status).toBe(404)
      expect((await inbox(other, `formId=${forms[0]!.formId}`)).status).toBe(404)
      const mine = (await inbox(owner, "limit=100")).json.responses
      expect(mine.some((row) => row.formId === otherFormId)).toBe(false)
      // A cursor names a place in the order, not a workspace: another workspace's page stays its own.
      const page = await inbox(owner, "limit=1")
      const across = await inbox(other, `cursor=${page.json.nextCursor}`)
      expect(across.status).toBe(200)
      expect(across.json.responses.every((row) => row.formId === otherFormId)).toBe(true)
      for (const api of [viewer, mia.api]) {
        const reply = await inbox(api, "limit=5")
        expect(reply.status).toBe(200)
        expect(reply.json.responses).toHaveLength(5)
      }
    })

    it.runIf(target.name === "postgres")("uses the workspace indexes over 30,000 responses", async () => {
      const plans = await qforms.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const formId = forms[0]!.formId
          yield* sql`
            insert into responses (workspace_id, form_id, submitted_at, updated_at, tags, source, answers, search_text,
              assignee_id)
            select ${workspaceId}, ${formId}, now() - make_interval(secs => g), now(), '{}', 'api', '{}'::jsonb,
              'bulk ' || g, case when g % 10 = 0 then ${mia.id}::int else null end
            from generate_series(1, 30000) g`
          yield* sql`analyze responses`
          const plan = (query: Effect.Effect<ReadonlyArray<Record<string, unknown>>, unknown>) =>
            Effect.map(Effect.orDie(query), (rows) => rows.map((row) => String(Object.values(row)[0])).join("\n"))
          return {
            all: yield* plan(sql`explain select id from responses where workspace_id = ${workspaceId} and finished
              order by submitted_at desc, id desc limit 51`),
            mine: yield* plan(sql`explain select id from responses where workspace_id = ${workspaceId} and finished
              and assignee_id = ${mia.id} and (stage_id is null or stage_id not in
              (select id from stages where workspace_id = ${workspaceId} and is_closed))
              order by submitted_at desc, id desc limit 51`)
          }
        }).pipe(Effect.orDie)
      )
      expect(plans.all).toMatch(/responses_workspace_submitted/)
      expect(plans.all).not.toMatch(/Sort/)
      expect(plans.mine).toMatch(/responses_workspace_assignee/)
      // Through the API too: a page of "My open cases" is 50 of mia's 3,000 bulk rows and more.
      const page = await inbox(mia.api, "assignee=me&open=true")
      expect(page.json.responses).toHaveLength(50)
      expect(page.json.nextCursor).not.toBeNull()
    })
  })
}
