/**
 * Sensitive questions end to end (issue #27): a real qforms (Qforms.make, with
 * its delivery worker), a real webhook receiver on loopback and a real SMTP
 * server. The mark round-trips through the forms API; webhook posts and an
 * e-mail notification leave the answer out unless the receiver allows it; a
 * respondent's confirmation never echoes it; a viewer reads it masked through
 * the API (get, flat list, CSV, summary) and MCP, an owner whole. On PGlite always, on
 * PostgreSQL too when QFORMS_TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { type Api, apiOf, workspace } from "@qforms/test-kit/InProcessApi"
import { waitFor } from "@qforms/test-kit/Conditions"
import { receiver } from "@qforms/test-kit/Receiver"
import { smtpSink } from "@qforms/test-kit/SmtpSink"

const SECRET = "AB-123-SECRET"
const LEFT_OUT = "(sensitive, not included)"

for (const target of databaseTargets) {
  describe(`sensitive questions on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let smtp: Awaited<ReturnType<typeof smtpSink>>
    let api: Api
    let viewerApi: Api
    let viewerKey: string
    let ownerKey: string

    /** A published form: Name, Email, and a sensitive "ID number". */
    const sensitiveForm = async (title: string) => {
      const created = await api("POST", "/forms", {
        title,
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "email", label: "Email", required: false },
          { type: "short_text", label: "ID number", required: false, sensitive: true }
        ]
      })
      expect(created.status).toBe(201)
      const formId = created.json.id as number
      const { json: full } = await api("GET", `/forms/${formId}`)
      const [name, email, id] = full.fields as Array<{ id: number; sensitive?: boolean }>
      return { formId, name: name!, email: email!, id: id! }
    }

    const publish = async (formId: number) =>
      expect((await api("PATCH", `/forms/${formId}`, { status: "published" })).status).toBe(200)

    const submit = async (formId: number, values: Record<string, unknown>) => {
      const reply = await api("POST", `/forms/${formId}/responses`, { values })
      expect(reply.status).toBe(201)
      return reply.json.id as number
    }

    const csvOf = async (key: string, formId: number) => {
      const response = await qforms.handler(
        new Request(`http://qforms.test/api/forms/${formId}/responses.csv`, {
          headers: { authorization: `Bearer ${key}` }
        })
      )
      expect(response.status).toBe(200)
      return response.text()
    }

    beforeAll(async () => {
      smtp = await smtpSink()
      const { database, cleanup: drop } = target.options()
      cleanup = drop
      qforms = await Qforms.make({
        database,
        appUrl: "https://forms.example.com",
        rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
        delivery: { allowPrivateTargets: true, schedule: [0, 50, 100, 150], timeoutMs: 2_000, pollIntervalMs: 100 },
        mail: { url: smtp.url, from: "Forms <forms@example.com>" }
      })
      const mine = await workspace(qforms, "sensitive")
      api = apiOf(qforms, mine.owner)
      viewerKey = mine.viewer
      ownerKey = mine.owner
      viewerApi = apiOf(qforms, mine.viewer)
    })

    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
      await smtp?.close()
    })

    it("the mark round-trips through the forms API: set, kept, cleared; absent on ordinary questions", async () => {
      const { formId, name, id } = await sensitiveForm("Round trip")
      expect(id.sensitive).toBe(true)
      expect("sensitive" in name).toBe(false)
      const { json: form } = await api("GET", `/forms/${formId}`)
      const fields = form.fields.map((f: { id: number; type: string; label: string; required: boolean }) => ({
        id: f.id,
        type: f.type,
        label: f.label,
        required: f.required,
        ...(f.id === name.id ? { sensitive: true } : f.id === id.id ? { sensitive: false } : {})
      }))
      const put = await api("PATCH", `/forms/${formId}`, { fields })
      expect(put.status).toBe(200)
      const { json: again } = await api("GET", `/forms/${formId}`)
      expect(again.fields.map((f: { sensitive?: boolean }) => f.sensitive === true)).toEqual([true, false, false])
      const bad = await api("PATCH", `/forms/${formId}`, {
        fields: [{ type: "short_text", label: "X", sensitive: "yes" }]
      })
      expect(bad.status).toBe(400)
    })

    it("webhook posts leave the answer out unless the subscription allows it", async () => {
      const { formId, name, email, id } = await sensitiveForm("Webhooks")
      await publish(formId)
      const plain = await receiver()
      const allowed = await receiver()
      try {
        const one = await api("POST", "/webhooks/subscribe", {
          formId,
          event: "response.created",
          targetUrl: plain.url
        })
        expect(one.status).toBe(201)
        expect("includeSensitive" in one.json).toBe(false)
        const two = await api("POST", "/webhooks/subscribe", {
          formId,
          event: "response.created",
          targetUrl: allowed.url,
          includeSensitive: true
        })
        expect(two.status).toBe(201)
        expect(two.json.includeSensitive).toBe(true)
        await submit(formId, { [name.id]: "Ada", [email.id]: "ada@example.com", [id.id]: SECRET })
        await waitFor(() => plain.received.length >= 1 && allowed.received.length >= 1)
        const left = JSON.parse(plain.received[0]!.body)
        expect(plain.received[0]!.body).not.toContain(SECRET)
        expect(left.answers).toEqual({ Name: "Ada", Email: "ada@example.com", "ID number": LEFT_OUT })
        expect(left.summary).toBe(`■ Name\nAda\n\n■ Email\nada@example.com\n\n■ ID number\n${LEFT_OUT}`)
        expect(left.redacted).toEqual(["ID number"])
        const whole = JSON.parse(allowed.received[0]!.body)
        expect(whole.answers["ID number"]).toBe(SECRET)
        expect(whole.summary).toContain(SECRET)
        expect("redacted" in whole).toBe(false)
        // Allowed later through PATCH: the next post carries it; a viewer cannot change it.
        expect(
          (await viewerApi("PATCH", `/webhooks/subscribe/${one.json.id}`, { includeSensitive: true })).status
        ).toBe(403)
        const patched = await api("PATCH", `/webhooks/subscribe/${one.json.id}`, { includeSensitive: true })
        expect(patched.status).toBe(200)
        expect(patched.json).toMatchObject({ includeSensitive: true, disabled: false })
        await submit(formId, { [name.id]: "Grace", [id.id]: "GH-2" })
        await waitFor(() => plain.received.length >= 2)
        expect(JSON.parse(plain.received[1]!.body).answers["ID number"]).toBe("GH-2")
      } finally {
        await plain.close()
        await allowed.close()
      }
    })

    it("an e-mail notification leaves the answer out; a confirmation e-mail never echoes it", async () => {
      const { formId, name, email, id } = await sensitiveForm("Mails")
      const put = await api("PUT", `/forms/${formId}/notifications`, {
        channels: [{ type: "email", to: ["team@example.com"] }]
      })
      expect(put.status).toBe(200)
      const confirmation = await api("PUT", `/forms/${formId}/confirmation`, {
        enabled: true,
        subject: "Thanks",
        body: `Your ID: {{field:${id.id}}}\n\n{{answers}}`
      })
      expect(confirmation.status).toBe(200)
      await publish(formId)
      await submit(formId, { [name.id]: "Ada", [email.id]: "ada@example.com", [id.id]: SECRET })
      const team = await waitFor(() => smtp.received.find((m) => m.to.includes("team@example.com")))
      const ada = await waitFor(() => smtp.received.find((m) => m.to.includes("ada@example.com")))
      for (const mail of [team, ada]) {
        expect(mail.raw).not.toContain(SECRET)
        expect(mail.parsed.text).toContain(LEFT_OUT)
      }
      expect(team.parsed.text).toContain("Ada")
      expect(ada.parsed.text).toContain(`Your ID: ${LEFT_OUT}`)
    })

    it("a viewer does not read the name or e-mail a sensitive question gave; another question's stays", async () => {
      const created = await api("POST", "/forms", {
        title: "Private contact",
        fields: [
          { type: "short_text", label: "Name", required: true, sensitive: true },
          { type: "email", label: "Email", required: false, sensitive: true },
          { type: "email", label: "Work e-mail", required: false }
        ]
      })
      expect(created.status).toBe(201)
      const formId = created.json.id as number
      await publish(formId)
      const [name, email, work] = (await api("GET", `/forms/${formId}`)).json.fields as Array<{ id: number }>
      const both = await submit(formId, {
        [name!.id]: "Ada Lovelace",
        [email!.id]: "ada@private.example",
        [work!.id]: "ada@work.example"
      })
      const alone = await submit(formId, { [name!.id]: "Grace Hopper", [email!.id]: "grace@private.example" })
      const owned = (await api("GET", `/responses/${both}`)).json.response
      expect(owned).toMatchObject({ name: "Ada Lovelace", email: "ada@private.example" })
      const viewed = (await viewerApi("GET", `/responses/${both}`)).json.response
      // The name had no other question: masked; the e-mail falls back to the question that is not sensitive.
      expect(viewed).toMatchObject({ name: "•••", email: "ada@work.example" })
      expect((await viewerApi("GET", `/responses/${alone}`)).json.response).toMatchObject({
        name: "•••",
        email: "•••"
      })
      const listed = JSON.stringify((await viewerApi("GET", `/forms/${formId}/responses`)).json)
      const csv = await csvOf(viewerKey, formId)
      for (const secret of ["Ada Lovelace", "ada@private.example", "Grace Hopper", "grace@private.example"]) {
        expect(listed).not.toContain(secret)
        expect(csv).not.toContain(secret)
      }
      expect(await csvOf(ownerKey, formId)).toContain("grace@private.example")
    })

    it("a viewer finds no response by a sensitive answer, and no summary narrowed to one person tells it (#52)", async () => {
      const created = await api("POST", "/forms", {
        title: "Clinic",
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "select", label: "Diagnosis", options: { choices: ["Flu", "Measles"] }, sensitive: true },
          { type: "short_text", label: "ID number", sensitive: true },
          { type: "short_text", label: "Ward" }
        ]
      })
      expect(created.status).toBe(201)
      const formId = created.json.id as number
      await publish(formId)
      const [name, diagnosis, idNumber, ward] = (await api("GET", `/forms/${formId}`)).json.fields as Array<{
        id: number
      }>
      await submit(formId, {
        [name!.id]: "Ada Clinic",
        [diagnosis!.id]: "Measles",
        [idNumber!.id]: SECRET,
        [ward!.id]: "North"
      })
      await submit(formId, { [name!.id]: "Grace Clinic", [diagnosis!.id]: "Flu", [ward!.id]: "South" })
      const found = async (call: Api, path: string) => {
        const reply = await call("GET", path)
        expect(reply.status, JSON.stringify(reply.json)).toBe(200)
        return (reply.json.responses as Array<{ name: string }>).map((r) => r.name).sort()
      }
      for (const q of ["AB-123", "measles", "secret"]) {
        // The owner finds Ada by the answer; the viewer, by the form's list or the inbox, does not.
        expect(await found(api, `/forms/${formId}/responses?q=${q}`), q).toEqual(["Ada Clinic"])
        expect(await found(viewerApi, `/forms/${formId}/responses?q=${q}`), q).toEqual([])
        expect(await found(viewerApi, `/responses?formId=${formId}&q=${q}`), q).toEqual([])
        expect(await found(viewerApi, `/responses?q=${q}`), q).toEqual([])
        const metrics = await viewerApi("GET", `/forms/${formId}/metrics?q=${q}`)
        expect(metrics.status).toBe(200)
        expect(JSON.stringify(metrics.json)).not.toMatch(/"(?:total|received|open)":\s*[1-9]/)
      }
      // What the viewer reads still finds: the name, another question's answer.
      expect(await found(viewerApi, `/forms/${formId}/responses?q=ada clinic`)).toEqual(["Ada Clinic"])
      expect(await found(viewerApi, `/forms/${formId}/responses?q=north`)).toEqual(["Ada Clinic"])
      expect(await found(viewerApi, `/responses?q=south`)).toEqual(["Grace Clinic"])

      // Narrowed to Ada, the summary tells the owner her diagnosis and the viewer only that she answered.
      const question = async (call: Api) =>
        (await call("GET", `/forms/${formId}/summary?q=ada`)).json.questions.find(
          (q: { fieldId: number }) => q.fieldId === diagnosis!.id
        )
      expect((await question(api)).choices).toContainEqual(expect.objectContaining({ choice: "Measles", count: 1 }))
      expect(await question(viewerApi)).toMatchObject({ answered: 1, withheld: true, choices: [], other: null })
      const unfiltered = (await viewerApi("GET", `/forms/${formId}/summary`)).json
      expect(JSON.stringify(unfiltered)).not.toContain("Measles")
      const csv = await qforms.handler(
        new Request(`http://qforms.test/api/forms/${formId}/summary.csv?q=ada`, {
          headers: { authorization: `Bearer ${viewerKey}` }
        })
      )
      expect(csv.status).toBe(200)
      expect(await csv.text()).not.toContain("Measles")
    })

    it("a viewer reads the answer masked (get, flat list, CSV, MCP); the owner reads it whole", async () => {
      const { formId, name, id } = await sensitiveForm("Viewer")
      await publish(formId)
      const responseId = await submit(formId, { [name.id]: "Ada", [id.id]: SECRET })
      const owned = await api("GET", `/responses/${responseId}`)
      expect(owned.json.response.values[String(id.id)]).toBe(SECRET)
      expect("redacted" in owned.json.response).toBe(false)
      const viewed = await viewerApi("GET", `/responses/${responseId}`)
      expect(viewed.status).toBe(200)
      expect(viewed.json.response.values).toEqual({ [name.id]: "Ada", [id.id]: "•••" })
      expect(viewed.json.response.redacted).toEqual([id.id])
      const list = await viewerApi("GET", `/forms/${formId}/responses?flat=1`)
      expect(JSON.stringify(list.json)).not.toContain(SECRET)
      expect(list.json.responses[0].answers["ID number"]).toBe("•••")
      expect(list.json.responses[0].summary).toContain("■ ID number\n•••")
      expect((await api("GET", `/forms/${formId}/responses?flat=1`)).json.responses[0].answers["ID number"]).toBe(
        SECRET
      )
      const viewerCsv = await csvOf(viewerKey, formId)
      expect(viewerCsv).not.toContain(SECRET)
      expect(viewerCsv).toContain("•••")
      expect(await csvOf(ownerKey, formId)).toContain(SECRET)
      // The summary: the question withheld for the viewer (how many answered, nothing else), whole for the owner.
      const viewerSummary = await viewerApi("GET", `/forms/${formId}/summary`)
      expect(viewerSummary.status).toBe(200)
      expect(JSON.stringify(viewerSummary.json)).not.toContain(SECRET)
      const withheld = viewerSummary.json.questions.find((q: { fieldId: number }) => q.fieldId === id.id)
      expect(withheld).toMatchObject({ answered: 1, withheld: true, latest: [], words: [] })
      expect(JSON.stringify((await api("GET", `/forms/${formId}/summary`)).json)).toContain(SECRET)
      // MCP with the viewer's key: the same masking.
      const mcp = await qforms.handler(
        new Request("http://qforms.test/mcp", {
          method: "POST",
          headers: {
            authorization: `Bearer ${viewerKey}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream"
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name: "get_response", arguments: { responseId } }
          })
        })
      )
      expect(mcp.status).toBe(200)
      const text = await mcp.text()
      expect(text).toContain("•••")
      expect(text).not.toContain(SECRET)
    })
  })
}
