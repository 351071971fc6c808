/**
 * A form's closing time and response limit (cases/ResponseLimits.ts), on a
 * real server on each test database: submissions after `closesAt` and beyond
 * `maxResponses` get 409, the page says so (with the form's own message when
 * it has one), and concurrent submissions racing for the last places never
 * take the form past its limit; one response per e-mail address and per
 * device (its signed cookie).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseTargets } from "@qforms/test-kit/Databases"
import {
  answer,
  api,
  createForm,
  getPage,
  hidden,
  postJson,
  postStep,
  seedWorkspace,
  tokenOf
} from "@qforms/test-kit/PublicForms"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

/**
 * Makes each new response row wait 20 ms before it is written, until the
 * returned function is called: the moment between a submission counting the
 * responses and its own being counted is then wide enough that, without the
 * lock, racing submissions would all see room for them (a fault injected in
 * the database, not a mock).
 */
const slowInserts = async (server: TestServer): Promise<() => Promise<void>> => {
  await server.run(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.andThen(
        sql`create or replace function qforms_test_slow_insert() returns trigger language plpgsql as $$
          begin perform pg_sleep(0.02); return new; end $$`,
        sql`create trigger responses_slow_insert before insert on responses
          for each row execute function qforms_test_slow_insert()`
      )
    )
  )
  return () =>
    server.run(
      Effect.asVoid(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`drop trigger responses_slow_insert on responses`))
    )
}

for (const target of databaseTargets) {
  describe(`response limits on ${target.name}`, () => {
    let server: TestServer
    let key: string

    beforeAll(async () => {
      server = await startTestServer(target, {
        rateLimit: { requestsPerSecond: 100_000, burst: 100_000 },
        publicPage: { minSubmitSeconds: 0, submissionRateLimit: { requestsPerSecond: 100_000, burst: 100_000 } }
      })
      key = (await seedWorkspace(server)).key
    })
    afterAll(async () => {
      await server?.close()
    })

    const form = async (settings: Record<string, unknown>) => {
      const made = await createForm(server, key, {
        title: "Limited",
        fields: [{ type: "short_text", label: "Name", required: true }]
      })
      const patched = await api(server, key, "PATCH", `/forms/${made.id}`, { settings })
      expect(patched.status, patched.text).toBe(200)
      return { ...made, name: made.fields[0]!.id }
    }

    it("refuses settings that are not a closing time or a limit, naming the problem", async () => {
      const made = await createForm(server, key, { title: "Bad settings", fields: [] })
      const cases: ReadonlyArray<readonly [unknown, string]> = [
        [{ closesAt: "tomorrow" }, "closesAt must be a date and time with its offset, such as 2026-12-01T17:00:00Z"],
        [{ closesAt: "2026-12-01T17:00:00" }, "closesAt must be a date and time with its offset"],
        [{ closesAt: "2026-13-45T17:00:00Z" }, "closesAt must be a date and time with its offset"],
        [{ maxResponses: 0 }, "maxResponses must be a whole number from 1 to 10000000"],
        [{ maxResponses: 2.5 }, "maxResponses must be a whole number"],
        [{ closedMessage: "  " }, "closedMessage must not be empty"]
      ]
      for (const [settings, message] of cases) {
        const reply = await api(server, key, "PATCH", `/forms/${made.id}`, { settings })
        expect(reply.status, JSON.stringify(settings)).toBe(400)
        expect(reply.body.error).toContain(message)
      }
    })

    it("takes no response after closesAt: 409 through the API, a kind page (its own message if set)", async () => {
      const open = await form({ closesAt: "2999-01-01T00:00:00+01:00" })
      expect(
        (await api(server, key, "POST", `/forms/${open.id}/responses`, { values: { [open.name]: "Ada" } })).status
      ).toBe(201)
      expect((await getPage(server, `/f/${open.publicId}`)).status).toBe(200)

      const past = await form({ closesAt: "2020-01-01T00:00:00Z" })
      const refused = await api(server, key, "POST", `/forms/${past.id}/responses`, { values: { [past.name]: "Ada" } })
      expect(refused.status).toBe(409)
      expect(refused.body.error).toBe("this form closed at 2020-01-01T00:00:00Z and takes no more responses")
      const viaPage = await postJson(server, past.publicId, { values: { [past.name]: "Ada" } })
      expect(viaPage.status).toBe(409)
      const page = await getPage(server, `/f/${past.publicId}`)
      expect(page.status).toBe(410)
      expect(page.text).toContain("This form is no longer accepting responses.")

      const kind = await form({
        closesAt: "2020-01-01T00:00:00Z",
        closedMessage: "Registration has closed — see you next year!"
      })
      const kindPage = await getPage(server, `/f/${kind.publicId}`)
      expect(kindPage.status).toBe(410)
      expect(kindPage.text).toContain("Registration has closed — see you next year!")
    })

    it("fills each choice only up to its quota, under racing submissions; a full choice is shown as full", async () => {
      for (const [quotas, message] of [
        [{ B: 2 }, 'quotas names "B", which is not a choice'],
        [{ A: 0 }, "a quota must be a whole number from 1 to 1000000"]
      ] as const) {
        const bad = await api(server, key, "POST", "/forms", {
          title: "Bad quotas",
          fields: [{ type: "select", label: "S", options: { choices: ["A"], quotas } }]
        })
        expect(bad.status).toBe(400)
        expect(bad.body.error).toContain(message)
      }

      const made = await createForm(server, key, {
        title: "Workshops",
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "select", label: "Session", options: { choices: ["Keynote", "Panel"], quotas: { Keynote: 3 } } },
          { type: "checkboxes", label: "Extras", options: { choices: ["Lunch", "Dinner"], quotas: { Lunch: 2 } } }
        ]
      })
      const [name, session, extras] = made.fields.map((f) => f.id) as [number, number, number]
      const fast = await slowInserts(server)
      const replies = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          postJson(server, made.publicId, { values: { [name]: `Racer ${i}`, [session]: "Keynote" } })
        )
      )
      await fast()
      expect(replies.filter((r) => r.status === 201)).toHaveLength(3)
      const refused = replies.filter((r) => r.status !== 201)
      expect(refused).toHaveLength(37)
      for (const r of refused) {
        expect(r.status).toBe(400)
        expect(r.body.error).toBe('"Session": "Keynote" is full')
      }
      // Another choice, and no choice, still go in.
      expect((await postJson(server, made.publicId, { values: { [name]: "Eve", [session]: "Panel" } })).status).toBe(
        201
      )
      expect((await postJson(server, made.publicId, { values: { [name]: "Mallory" } })).status).toBe(201)
      // Checkboxes: a list holding the full choice is refused.
      for (const expected of [201, 201, 400]) {
        const reply = await api(server, key, "POST", `/forms/${made.id}/responses`, {
          values: { [name]: "Lunch-goer", [extras]: ["Lunch", "Dinner"] }
        })
        expect(reply.status).toBe(expected)
        if (expected === 400) expect(reply.body.error).toBe('"Extras": "Lunch" is full')
      }
      // The page shows the full choice as full, and it cannot be chosen.
      const welcome = await getPage(server, `/f/${made.publicId}`)
      let page = await answer(server, made.publicId, welcome.text, [], "start")
      page = await answer(server, made.publicId, page.text, ["Trudy"])
      expect(page.text).toMatch(/value="Keynote"[^>]* disabled="disabled"> <span>Keynote \(full\)<\/span>/)
      expect(page.text).toMatch(/value="Panel"> <span>Panel<\/span>/)
    })

    it("with oneResponsePerEmail takes one response per e-mail address, also when the same address races", async () => {
      const made = await createForm(server, key, {
        title: "One each",
        fields: [{ type: "email", label: "Email" }]
      })
      const email = made.fields[0]!.id
      expect(
        (await api(server, key, "PATCH", `/forms/${made.id}`, { settings: { oneResponsePerEmail: true } })).status
      ).toBe(200)
      expect((await postJson(server, made.publicId, { values: { [email]: "ada@example.com" } })).status).toBe(201)
      const again = await postJson(server, made.publicId, { values: { [email]: "ADA@example.com" } })
      expect(again.status).toBe(400)
      expect(again.body.error).toBe("a response with this e-mail address was already submitted to this form")
      expect(again.body.details).toEqual([
        { path: `values.${email}`, message: "a response with this e-mail address was already submitted to this form" }
      ])
      // Without an e-mail address, nothing to compare: both go in.
      expect((await postJson(server, made.publicId, { values: {} })).status).toBe(201)
      expect((await postJson(server, made.publicId, { values: {} })).status).toBe(201)
      // The page goes back to the e-mail question with the message.
      const welcome = await getPage(server, `/f/${made.publicId}`)
      const page = await answer(server, made.publicId, welcome.text, [], "start")
      const refused = await answer(server, made.publicId, page.text, ["ada@example.com"])
      expect(refused.status).toBe(400)
      expect(refused.text).toContain("a response with this e-mail address was already submitted to this form")
      // Ten submissions with one new address at once: one goes in.
      const fast = await slowInserts(server)
      const racers = await Promise.all(
        Array.from({ length: 10 }, () => postJson(server, made.publicId, { values: { [email]: "grace@example.com" } }))
      )
      await fast()
      expect(racers.map((r) => r.status).sort()).toEqual([201, ...Array.from({ length: 9 }, () => 400)])
    })

    it("with oneResponsePerDevice marks the device a response was sent from and refuses it a second one", async () => {
      const made = await form({ oneResponsePerDevice: true })
      const cookieName = `qf_sent_${made.publicId}`
      const markOf = (headers: Headers) => {
        const cookie = headers.getSetCookie().find((c) => c.startsWith(`${cookieName}=`))
        expect(cookie, "the mark's Set-Cookie").toBeDefined()
        expect(cookie).toContain(`Path=/f/${made.publicId}`)
        expect(cookie).toMatch(/HttpOnly/i)
        expect(cookie).toMatch(/SameSite=Lax/i)
        expect(cookie).toContain(`Max-Age=${400 * 24 * 60 * 60}`)
        return cookie!.split(";")[0]!
      }
      // On the page without JavaScript: the thanks page marks the device, which then gets the kind refusal.
      const welcome = await getPage(server, `/f/${made.publicId}`)
      const question = await answer(server, made.publicId, welcome.text, [], "start")
      const done = await answer(server, made.publicId, question.text, ["Ada"])
      expect(done.text).toContain("Thank you!")
      const mark = markOf(done.headers)
      // The resume cookie is forgotten in the same answer.
      expect(done.headers.getSetCookie().some((c) => c.startsWith(`qf_${made.publicId}=;`))).toBe(true)
      const again = await getPage(server, `/f/${made.publicId}`, { cookie: mark })
      expect(again.status).toBe(409)
      expect(again.text).toContain("You have already sent a response to this form from this device. Thank you!")
      // A step of a page opened before (another tab) is refused as well.
      const step = await postStep(
        server,
        made.publicId,
        [
          ["token", tokenOf(question.text)],
          ["at", hidden(question.text, "at")],
          ["website", ""],
          ["a", "Ada again"],
          ["move", "next"]
        ],
        { cookie: mark }
      )
      expect(step.status).toBe(409)
      // As JSON: 409 with the reason; the same device without its cookie is not known.
      const json = await postJson(server, made.publicId, { values: { [made.name]: "Ada" } }, { cookie: mark })
      expect(json.status).toBe(409)
      expect(json.body).toEqual({
        error:
          "this device has already sent a response to this form, which takes one per device (setting oneResponsePerDevice)"
      })
      const other = await postJson(server, made.publicId, { values: { [made.name]: "Grace" } })
      expect(other.status).toBe(201)
      markOf(other.headers)
      // A changed or made-up mark, or another form's, counts for nothing.
      const value = mark.slice(cookieName.length + 1)
      const [payload, mac] = value.split(".") as [string, string]
      const forged = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), sentAt: 0 })
      ).toString("base64url")
      for (const cookie of [`${cookieName}=${forged}.${mac}`, `${cookieName}=x.y`, `${cookieName}=`]) {
        expect((await getPage(server, `/f/${made.publicId}`, { cookie })).status, cookie).toBe(200)
      }
      const second = await form({ oneResponsePerDevice: true })
      expect(
        (await getPage(server, `/f/${second.publicId}`, { cookie: `qf_sent_${second.publicId}=${value}` })).status
      ).toBe(200)
      // Without the setting no mark is left, and a marked device is not refused.
      const open = await form({})
      const free = await postJson(server, open.publicId, { values: { [open.name]: "Ada" } })
      expect(free.status).toBe(201)
      expect(free.headers.getSetCookie()).toEqual([])
      expect(
        (
          await postJson(
            server,
            open.publicId,
            { values: { [open.name]: "Ada" } },
            { cookie: `qf_sent_${open.publicId}=${value}` }
          )
        ).status
      ).toBe(201)
    })

    it("never takes more than maxResponses, however many submissions race for the last places", async () => {
      const limit = 5
      const limited = await form({ maxResponses: limit })
      const fast = await slowInserts(server)
      // 3 in first, then 80 at once for the last 2 places (through the API and the page's JSON route).
      for (let i = 0; i < 3; i++) {
        const reply = await api(server, key, "POST", `/forms/${limited.id}/responses`, {
          values: { [limited.name]: `Early ${i}` }
        })
        expect(reply.status).toBe(201)
      }
      const replies = await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          i % 2 === 0
            ? api(server, key, "POST", `/forms/${limited.id}/responses`, { values: { [limited.name]: `Racer ${i}` } })
            : postJson(server, limited.publicId, { values: { [limited.name]: `Racer ${i}` } })
        )
      )
      const statuses = replies.map((r) => r.status).sort()
      expect(statuses.filter((s) => s === 201)).toHaveLength(limit - 3)
      expect(statuses.filter((s) => s === 409)).toHaveLength(80 - (limit - 3))
      for (const refused of replies.filter((r) => r.status === 409)) {
        expect(refused.body.error).toBe(`this form has reached its limit of ${limit} responses`)
      }
      const list = await api(server, key, "GET", `/forms/${limited.id}/responses`)
      expect(list.body.responses).toHaveLength(limit)
      const page = await getPage(server, `/f/${limited.publicId}`)
      expect(page.status).toBe(410)
      expect(page.text).toContain("This form has received all the responses it can take.")

      await fast()

      // Deleting a response frees a place.
      const freed = await api(server, key, "DELETE", `/responses/${list.body.responses[0].id}`)
      expect(freed.status).toBe(204)
      expect((await getPage(server, `/f/${limited.publicId}`)).status).toBe(200)
      const again = await api(server, key, "POST", `/forms/${limited.id}/responses`, {
        values: { [limited.name]: "Late" }
      })
      expect(again.status).toBe(201)
    })
  })
}
