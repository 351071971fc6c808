/**
 * Scenario 15, partial rows: one address hammers the first steps of a
 * public form on the real standalone (the Start step alone, and the first
 * question answered then left). Partial responses must stay bounded by
 * `QFORMS_PARTIAL_RESPONSES_PER_ADDRESS_PER_HOUR` (a Start step creates
 * none), no step may answer ≥ 500, and a respondent from the same address
 * must still submit afterwards.
 */
import { afterAll, describe, expect, it } from "vitest"
import { hidden, tokenOf } from "@qforms/test-kit/PublicForms"
import {
  call,
  type ProcessDatabase,
  publishedForm,
  record,
  type ServerProcess,
  startFresh,
  targets,
  waitUntil
} from "./support/Harness.ts"

const perHour = 5
const respondents = 120

/** One step post as a browser without JavaScript sends it. */
const step = async (
  url: string,
  publicId: string,
  html: string,
  answers: ReadonlyArray<string>,
  move: "start" | "next"
) => {
  const response = await fetch(`${url}/f/${publicId}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams([
      ["token", tokenOf(html)],
      ["at", hidden(html, "at")],
      ["website", ""],
      ...answers.map((a): [string, string] => ["a", a]),
      ["move", move]
    ]).toString(),
    signal: AbortSignal.timeout(30_000)
  })
  return { status: response.status, text: await response.text() }
}

for (const target of targets) {
  describe(`partial rows from one address on ${target.name}`, () => {
    let db: ProcessDatabase | undefined
    let server: ServerProcess | undefined
    afterAll(async () => {
      await server?.stop()
      await db?.cleanup()
    })

    it("keeps the partial responses of one address bounded; the address still submits", async () => {
      db = target.make()
      const started = await startFresh(db, { QFORMS_PARTIAL_RESPONSES_PER_ADDRESS_PER_HOUR: String(perHour) })
      server = started.server
      const { url, key } = started
      const form = await publishedForm(url, key)
      const publicId = (await call(url, "GET", `/api/forms/${form.formId}`, { key })).body.publicId as string
      const statuses = new Map<number, number>()
      const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1)
      for (let i = 0; i < respondents; i++) {
        const welcome = await fetch(`${url}/f/${publicId}`, { signal: AbortSignal.timeout(30_000) })
        const first = await step(url, publicId, await welcome.text(), [], "start")
        count(first.status)
        // Every other respondent leaves after the Start step; the others answer the first question, then leave.
        if (i % 2 === 1 && first.status === 200)
          count((await step(url, publicId, first.text, [`Visitor ${i}`], "next")).status)
      }
      const partial = await call(url, "GET", `/api/forms/${form.formId}/responses?status=partial`, { key })
      expect(partial.status).toBe(200)
      const rows = (partial.body.responses as ReadonlyArray<unknown>).length
      expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([])
      expect(rows).toBeGreaterThan(0)
      expect(rows).toBeLessThanOrEqual(perHour)

      // The same address still submits: each step waits out the step limiter (a 429 costs no token), then goes on.
      const patient = (what: string, post: () => Promise<{ readonly status: number; readonly text: string }>) =>
        waitUntil(
          what,
          async () => {
            const answered = await post()
            return answered.status === 429 ? undefined : answered
          },
          60_000
        )
      const welcome = await (await fetch(`${url}/f/${publicId}`)).text()
      const first = await patient("the Start step", () => step(url, publicId, welcome, [], "start"))
      expect(first.status).toBe(200)
      const second = await patient("the name step", () => step(url, publicId, first.text, ["Ada"], "next"))
      expect(second.status).toBe(200)
      const last = await patient("the submission", () => step(url, publicId, second.text, ["ada@example.com"], "next"))
      expect(last.status).toBe(200)
      const done = last.text
      expect(done).toContain("Thank you!")
      const completed = await call(url, "GET", `/api/forms/${form.formId}/responses`, { key })
      expect((completed.body.responses as ReadonlyArray<unknown>).length).toBe(1)

      record({
        scenario: "15 partial rows",
        target: target.name,
        figures: {
          respondents,
          steps: [...statuses.values()].reduce((a, b) => a + b, 0),
          "steps 200": statuses.get(200) ?? 0,
          "steps 429": statuses.get(429) ?? 0,
          "partial rows": rows,
          "limit per hour": perHour
        }
      })
    })
  })
}
