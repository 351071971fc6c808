/**
 * Form logic in a real browser (Debian's Chromium through playwright-core),
 * with JavaScript on and off: a choice branches to different questions, a
 * hidden field comes from the URL into the response, a label recalls an
 * earlier answer, and leaving mid-way leaves a partial response that the
 * list shows with `status=partial`, with no `response.created` event until
 * the respondent comes back and submits.
 *
 * Skipped only when Chromium is absent outside CI.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Browser, Page } from "playwright-core"
import { artifacts, launch, present } from "@qforms/test-kit/Browser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { api, createForm, seedWorkspace } from "@qforms/test-kit/PublicForms"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

describe.skipIf(!present)("form logic in the browser", () => {
  let server: TestServer
  let key: string
  let browser: Browser
  let form: { id: number; publicId: string }
  let ids: { plan: number; team: number; why: number; email: number }

  const events = () =>
    server.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ readonly n: number }>`
        select count(*)::int as n from events where form_id = ${form.id} and type = 'response.created'`
        return rows[0]!.n
      })
    )

  const list = async (status: string) => {
    const reply = await api(server, key, "GET", `/forms/${form.id}/responses?status=${status}`)
    expect(reply.status).toBe(200)
    return reply.body.responses as ReadonlyArray<{ id: number; finished: boolean; values: Record<string, unknown> }>
  }

  beforeAll(async () => {
    server = await startTestServer(databaseTargets[0]!, { publicPage: { minSubmitSeconds: 0 } })
    key = (await seedWorkspace(server)).key
    const created = await createForm(server, key, {
      title: "Branching form",
      fields: [
        { type: "select", label: "Plan", required: true, options: { choices: ["Free", "Pro"] } },
        { type: "number", label: "Team size", required: true },
        { type: "short_text", label: "Why" },
        { type: "email", label: "Email", required: true }
      ]
    })
    const [plan, team, why, email] = created.fields.map((f) => f.id) as [number, number, number, number]
    ids = { plan, team, why, email }
    const patched = await api(server, key, "PATCH", `/forms/${created.id}`, {
      hiddenFields: [{ name: "ref" }],
      fields: [
        {
          id: plan,
          type: "select",
          label: "Plan",
          required: true,
          options: { choices: ["Free", "Pro"] },
          logic: [{ if: { field: plan, equals: "Free" }, then: { jumpTo: email } }]
        },
        { id: team, type: "number", label: "Team size", required: true },
        { id: why, type: "short_text", label: `Why {{field:${plan}}} for {{field:${team}}} people?` },
        { id: email, type: "email", label: "Email", required: true }
      ]
    })
    expect(patched.status, patched.text).toBe(200)
    form = created
    browser = await launch()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  /** Waits for the question (or heading) with this text. */
  const screen = (page: Page, text: string) =>
    page.locator("#question, h1").filter({ hasText: text }).first().waitFor({ timeout: 10_000 })

  const ok = (page: Page) => page.locator("button.ok").click()

  for (const js of [true, false]) {
    it(`branches, recalls, keeps hidden fields and partial responses with JavaScript ${js ? "on" : "off"}`, async () => {
      const ref = js ? "newsletter-js" : "newsletter-nojs"
      const context = await browser.newContext({ javaScriptEnabled: js, locale: "en-US" })
      const page = await context.newPage()
      const errors: Array<string> = []
      page.on("pageerror", (error) => errors.push(error.message))
      const partialBefore = (await list("partial")).length
      const eventsBefore = await events()

      // The Pro branch: Plan → Team size → Why (recalling both answers) → Email.
      await page.goto(`${server.url}/f/${form.publicId}?ref=${ref}`)
      await screen(page, "Branching form")
      await ok(page)
      await screen(page, "Plan")
      await page.locator("input[value=Pro]").check()
      await ok(page)
      await screen(page, "Team size")

      // Left mid-way: a partial response, listed with status=partial only, and no event.
      const partial = (await list("partial")).filter((r) => r.values["hidden:ref"] === ref)
      expect(partial).toHaveLength(1)
      expect(partial[0]).toMatchObject({ finished: false, values: { [ids.plan]: "Pro", "hidden:ref": ref } })
      expect((await list("completed")).some((r) => r.id === partial[0]!.id)).toBe(false)
      expect(await events()).toBe(eventsBefore)

      // Coming back later on the same device resumes it.
      await page.goto(`${server.url}/f/${form.publicId}`)
      await page.getByText("Welcome back").waitFor()
      await ok(page)
      await screen(page, "Plan")
      await ok(page)
      await screen(page, "Team size")
      await page.locator("#a").fill("7")
      await ok(page)
      await screen(page, "Why Pro for 7 people?")
      mkdirSync(artifacts, { recursive: true })
      await page.screenshot({ path: join(artifacts, `logic-${js ? "js" : "nojs"}-recall.png`), fullPage: true })
      await page.locator("#a").fill("growing")
      await ok(page)
      await screen(page, "Email")
      await page.locator("#a").fill("pro@example.com")
      await ok(page)
      await screen(page, "Thank you!")

      const done = (await list("completed")).find((r) => r.id === partial[0]!.id)
      expect(done).toMatchObject({
        finished: true,
        values: {
          [ids.plan]: "Pro",
          [ids.team]: 7,
          [ids.why]: "growing",
          [ids.email]: "pro@example.com",
          "hidden:ref": ref
        }
      })
      expect(await events()).toBe(eventsBefore + 1)
      expect((await list("partial")).length).toBe(partialBefore)

      // The Free branch jumps from Plan straight to Email.
      await page.goto(`${server.url}/f/${form.publicId}`)
      await ok(page)
      await screen(page, "Plan")
      await page.locator("input[value=Free]").check()
      await ok(page)
      await screen(page, "Email")
      expect(await page.locator("button.ok").textContent()).toBe("Submit")
      await page.locator("#a").fill("free@example.com")
      await ok(page)
      await screen(page, "Thank you!")
      const free = (await list("completed")).find(
        (r) => r.values[ids.email] === "free@example.com" && r.values["hidden:ref"] === undefined
      )
      expect(free?.values).toEqual({ [ids.plan]: "Free", [ids.email]: "free@example.com" })
      expect(errors).toEqual([])
      await context.close()
      // The free response of the other run is told apart by clearing it here.
      await api(server, key, "DELETE", `/responses/${free!.id}`)
    }, 120_000)
  }
})
