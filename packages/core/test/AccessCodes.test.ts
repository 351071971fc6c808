/**
 * A form's access code (pages/AccessCodes.ts), on a real server on each test
 * database: the page asks for it before the welcome screen and carries it in
 * its answer token (pre-filled and hidden values kept), a JSON submission
 * sends it as `accessCode`, a changed code shuts out pages opened with the
 * old one, and wrong codes are limited per client address and per form, with
 * every attempt refused while a limit is used up, the right code too.
 */
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

/** Types a code on an access screen, from the address `from` (X-Forwarded-For; the server trusts one proxy). */
const typeCode = (server: TestServer, publicId: string, html: string, code: string, from = "203.0.113.1") =>
  postStep(
    server,
    publicId,
    [
      ["token", tokenOf(html)],
      ["at", hidden(html, "at")],
      ["website", ""],
      ["a", code],
      ["move", "next"]
    ],
    { "x-forwarded-for": from }
  )

for (const target of databaseTargets) {
  describe(`access codes on ${target.name}`, () => {
    let server: TestServer
    let key: string

    beforeAll(async () => {
      server = await startTestServer(target, {
        rateLimit: { requestsPerSecond: 100_000, burst: 100_000 },
        publicPage: {
          minSubmitSeconds: 0,
          trustedProxyHops: 1,
          submissionRateLimit: { requestsPerSecond: 100_000, burst: 100_000 },
          stepRateLimit: { requestsPerSecond: 100_000, burst: 100_000 },
          accessCodeFailures: {
            perAddress: { requestsPerSecond: 1 / 3600, burst: 3 },
            perForm: { requestsPerSecond: 1 / 3600, burst: 6 }
          }
        }
      })
      key = (await seedWorkspace(server)).key
    })
    afterAll(async () => {
      await server?.close()
    })

    const form = async (accessCode: string) => {
      const made = await createForm(server, key, {
        title: "Members only",
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "short_text", label: "Team" }
        ]
      })
      const patched = await api(server, key, "PATCH", `/forms/${made.id}`, { settings: { accessCode } })
      expect(patched.status, patched.text).toBe(200)
      return { ...made, name: made.fields[0]!.id, team: made.fields[1]!.id }
    }

    it("refuses codes that are too short, too long or hold control characters, naming the problem", async () => {
      const made = await createForm(server, key, { title: "Codes", fields: [{ type: "short_text", label: "Q" }] })
      for (const [accessCode, message] of [
        ["abc", "accessCode must be 4 to 64 characters"],
        ["   abc   ", "accessCode must be 4 to 64 characters"],
        ["x".repeat(65), "accessCode must be 4 to 64 characters"],
        ["ab\u0007cd", "accessCode must not contain control characters"],
        [1234, "accessCode"]
      ] as const) {
        const patched = await api(server, key, "PATCH", `/forms/${made.id}`, { settings: { accessCode } })
        expect(patched.status, JSON.stringify(accessCode)).toBe(400)
        expect(patched.body.error).toContain(message)
      }
      // Trimmed when stored.
      const ok = await api(server, key, "PATCH", `/forms/${made.id}`, { settings: { accessCode: "  4321 " } })
      expect(ok.status).toBe(200)
      expect((await api(server, key, "GET", `/forms/${made.id}`)).body.settings).toEqual({ accessCode: "4321" })
    })

    it("asks for the code on the page first, keeps the link's values through it, and then works as usual", async () => {
      const made = await form("Summer-2026")
      const first = await getPage(server, `/f/${made.publicId}?prefill.${made.team}=Blue`)
      expect(first.status).toBe(200)
      expect(first.text).toContain('<label class="question" for="a">Access code</label>')
      expect(hidden(first.text, "at")).toBe("access")
      expect(first.text).not.toContain(">Start<")
      // The code appears nowhere on the page.
      expect(first.text.toLowerCase()).not.toContain("summer-2026")
      // Nothing typed: asked again, not counted as a wrong code.
      const empty = await typeCode(server, made.publicId, first.text, " ")
      expect(empty.status).toBe(400)
      expect(empty.text).toContain("Type the access code to go on.")
      const wrong = await typeCode(server, made.publicId, first.text, "winter-2026")
      expect(wrong.status).toBe(403)
      expect(wrong.text).toContain("That code is not right. Check it and try again.")
      expect(wrong.text).toContain('aria-invalid="true"')
      // Without case and surrounding spaces, as a phone's keyboard may type it.
      const welcome = await typeCode(server, made.publicId, wrong.text, "  summer-2026 ")
      expect(welcome.status).toBe(200)
      expect(welcome.text).toContain(">Start<")
      const name = await answer(server, made.publicId, welcome.text, [], "start")
      expect(hidden(name.text, "at")).toBe(String(made.name))
      const team = await answer(server, made.publicId, name.text, ["Ada"])
      expect(team.text).toContain('value="Blue"')
      const done = await answer(server, made.publicId, team.text, ["Blue"])
      expect(done.text).toContain("Thank you!")
      const list = await api(server, key, "GET", `/forms/${made.id}/responses`)
      expect(list.body.responses[0].values).toEqual({ [made.name]: "Ada", [made.team]: "Blue" })

      // A token from the code screen (no code typed) does not open the form.
      const skipped = await postStep(server, made.publicId, [
        ["token", tokenOf(first.text)],
        ["at", "welcome"],
        ["website", ""],
        ["move", "start"]
      ])
      expect(skipped.status).toBe(403)
      expect(skipped.text).toContain("access code to go on.")
      expect(hidden(skipped.text, "at")).toBe("access")

      // A new code shuts out the pages opened with the old one.
      const opened = await answer(server, made.publicId, welcome.text, [], "start")
      expect(
        (await api(server, key, "PATCH", `/forms/${made.id}`, { settings: { accessCode: "autumn-2026" } })).status
      ).toBe(200)
      const after = await answer(server, made.publicId, opened.text, ["Grace"])
      expect(after.status).toBe(403)
      expect(hidden(after.text, "at")).toBe("access")
      expect((await typeCode(server, made.publicId, after.text, "autumn-2026", "203.0.113.2")).text).toContain(
        ">Start<"
      )
      // Without a code any more, the code screen of an old page goes on to the welcome screen.
      expect((await api(server, key, "PATCH", `/forms/${made.id}`, { settings: {} })).status).toBe(200)
      const open = await typeCode(server, made.publicId, after.text, "", "203.0.113.2")
      expect(open.status).toBe(200)
      expect(open.text).toContain(">Start<")
    })

    it("takes a JSON submission with the code, or with a token from a page where it was typed", async () => {
      const made = await form("4242")
      const values = { [made.name]: "Ada" }
      const missing = await postJson(server, made.publicId, { values })
      expect(missing.status).toBe(403)
      expect(missing.body).toEqual({
        error: "accessCode: this form takes responses only with its access code; send it as accessCode"
      })
      const wrong = await postJson(
        server,
        made.publicId,
        { values, accessCode: "4243" },
        { "x-forwarded-for": "198.51.100.9" }
      )
      expect(wrong.status).toBe(403)
      expect(wrong.body).toEqual({ error: "accessCode: the access code is not right" })
      expect((await postJson(server, made.publicId, { values, accessCode: " 4242 " })).status).toBe(201)
      // The page's token after the code was typed stands for it; the code screen's does not.
      const first = await getPage(server, `/f/${made.publicId}`)
      expect((await postJson(server, made.publicId, { values, token: tokenOf(first.text) })).status).toBe(403)
      const welcome = await typeCode(server, made.publicId, first.text, "4242", "198.51.100.10")
      expect((await postJson(server, made.publicId, { values, token: tokenOf(welcome.text) })).status).toBe(201)
    })

    it("limits wrong codes per address and per form, refusing even the right one meanwhile; right codes are never limited", async () => {
      const made = await form("open sesame")
      const first = await getPage(server, `/f/${made.publicId}`)
      // Right codes from one address, as a class behind one router: none is held up.
      for (let i = 0; i < 8; i++) {
        expect((await typeCode(server, made.publicId, first.text, "Open Sesame", "192.0.2.1")).status).toBe(200)
      }
      // Three wrong ones from one address use up its bucket: then even the right code gets 429, on the page and as JSON.
      for (let i = 0; i < 3; i++) {
        expect((await typeCode(server, made.publicId, first.text, `guess ${i}`, "192.0.2.2")).status).toBe(403)
      }
      const blocked = await typeCode(server, made.publicId, first.text, "open sesame", "192.0.2.2")
      expect(blocked.status).toBe(429)
      expect(blocked.text).toContain("Too many wrong access codes were typed for this form.")
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0)
      const json = await postJson(
        server,
        made.publicId,
        { values: { [made.name]: "Ada" }, accessCode: "open sesame" },
        { "x-forwarded-for": "192.0.2.2" }
      )
      expect(json.status).toBe(429)
      expect(json.body.error).toMatch(/^too many wrong access codes; retry after \d+ seconds$/)
      // Another address is not held up by it …
      expect((await typeCode(server, made.publicId, first.text, "open sesame", "192.0.2.3")).status).toBe(200)
      // … until the form's own bucket (6) is used up by wrong codes from many addresses.
      for (let i = 0; i < 3; i++) {
        expect((await typeCode(server, made.publicId, first.text, "guess", `192.0.2.${10 + i}`)).status).toBe(403)
      }
      expect((await typeCode(server, made.publicId, first.text, "open sesame", "192.0.2.20")).status).toBe(429)
      // Another form is not affected.
      const other = await form("other code")
      const page = await getPage(server, `/f/${other.publicId}`)
      expect((await typeCode(server, other.publicId, page.text, "other code", "192.0.2.2")).status).toBe(200)
    })
  })
}
