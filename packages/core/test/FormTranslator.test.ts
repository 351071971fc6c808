/**
 * Machine translation of a form (generation/FormTranslator.ts) over real
 * HTTP, against a chat-completions server on loopback: only the texts a
 * translation lacks are sent, in batches; the result is saved as a draft
 * that the page does not offer until it is marked ready; placeholders come
 * back as they were sent; without a language model it is refused saying so;
 * a failing or unfitting model changes nothing; viewers and other
 * workspaces are refused.
 */
import { createServer, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as OpenAiFormGenerator from "../src/generation/OpenAiFormGenerator.ts"
import * as Qforms from "../src/Qforms.ts"
import { type Api, apiOf, workspace } from "@qforms/test-kit/InProcessApi"

interface ModelCall {
  readonly body: {
    readonly messages: ReadonlyArray<{ readonly role: string; readonly content: string }>
    readonly response_format: { readonly type: string; readonly json_schema?: { readonly name: string } }
  }
}

/** The texts a translation request carries (in its last user message, after the languages line). */
const textsOf = (call: ModelCall): ReadonlyArray<{ id: string; text: string }> => {
  const last = call.body.messages.filter((m) => m.role === "user").at(-1)!.content
  return (JSON.parse(last.slice(last.indexOf("\n") + 1)) as { texts: ReadonlyArray<{ id: string; text: string }> })
    .texts
}

/** A chat-completions server whose reply each test sets. */
const modelServer = () => {
  const calls: Array<ModelCall> = []
  let reply: (call: ModelCall, res: ServerResponse) => void = (_, res) => res.writeHead(500).end()
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const call: ModelCall = { body: JSON.parse(Buffer.concat(chunks).toString("utf8")) }
      calls.push(call)
      reply(call, res)
    })
  })
  return {
    calls,
    server,
    set: (next: (call: ModelCall, res: ServerResponse) => void) => {
      reply = next
      calls.length = 0
    },
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  }
}

const completion = (res: ServerResponse, content: string) =>
  res
    .writeHead(200, { "content-type": "application/json" })
    .end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] }))

/** A "model" that writes each text as German would: prefixed, placeholders kept as sent. */
const german = (call: ModelCall, res: ServerResponse) =>
  completion(res, JSON.stringify({ translations: textsOf(call).map(({ id, text }) => ({ id, text: `DE ${text}` })) }))

describe("machine translation of a form", () => {
  const model = modelServer()
  let withModel: Qforms.Qforms
  let offline: Qforms.Qforms
  let owner: Api
  let viewer: Api
  let other: Api
  let offlineOwner: Api

  beforeAll(async () => {
    await new Promise<void>((resolve) => model.server.listen(0, "127.0.0.1", resolve))
    withModel = await Qforms.make({
      database: {},
      logLevel: "None",
      delivery: { worker: false },
      formGenerator: OpenAiFormGenerator.layer({ baseUrl: model.url(), model: "test-model", timeout: "5 seconds" })
    })
    offline = await Qforms.make({ database: {}, logLevel: "None", delivery: { worker: false } })
    const mine = await workspace(withModel, "translated")
    owner = apiOf(withModel, mine.owner)
    viewer = apiOf(withModel, mine.viewer)
    other = apiOf(withModel, (await workspace(withModel, "elsewhere")).owner)
    offlineOwner = apiOf(offline, (await workspace(offline, "offline")).owner)
  })
  afterAll(async () => {
    await withModel?.dispose()
    await offline?.dispose()
    await new Promise<void>((resolve) => model.server.close(() => resolve()))
  })

  /** A published form: a name, a colour (three choices) and an ending recalling the name. */
  const form = async (api: Api) => {
    const created = await api("POST", "/forms", {
      title: "Survey",
      fields: [
        { type: "short_text", label: "Your name", required: true },
        { type: "select", label: "Colour", options: { choices: ["Red", "Blue", "Green"] } }
      ]
    })
    expect(created.status).toBe(201)
    const [name, colour] = (created.json.fields as ReadonlyArray<{ id: number }>).map((f) => String(f.id))
    const published = await api("PATCH", `/forms/${created.json.id}`, {
      status: "published",
      settings: { endings: [{ key: "done", title: `Thanks, {{field:${name}}}!` }] }
    })
    expect(published.status).toBe(200)
    return { id: created.json.id as number, publicId: created.json.publicId as string, name: name!, colour: colour! }
  }

  it("translates only what the translation lacks, saves it as a draft the page does not offer, keeps placeholders", async () => {
    const f = await form(owner)
    expect(
      (
        await owner("PUT", `/forms/${f.id}/translations/de`, {
          title: "Umfrage",
          fields: { [f.name]: { label: "Ihr Name" } }
        })
      ).status
    ).toBe(200)
    model.set(german)
    const drafted = await owner("POST", `/forms/${f.id}/translations/de/draft`)
    expect(drafted.status, JSON.stringify(drafted.json)).toBe(200)
    // One request, with the four texts the translation lacked (what it had was not sent again).
    expect(model.calls).toHaveLength(1)
    expect(model.calls[0]!.body.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { name: "translations" }
    })
    expect(model.calls[0]!.body.messages.at(-1)!.content).toMatch(/^Translate from English \(en\) to Deutsch \(de\):/)
    expect(textsOf(model.calls[0]!).map((t) => t.text)).toEqual([
      "Colour",
      "Red",
      "Blue",
      "Green",
      `Thanks, {{field:${f.name}}}!`
    ])
    expect(drafted.json).toMatchObject({ language: "de", status: "draft", missing: [] })
    expect(drafted.json.translation).toEqual({
      status: "draft",
      title: "Umfrage",
      fields: {
        [f.name]: { label: "Ihr Name" },
        [f.colour]: { label: "DE Colour", choices: { Red: "DE Red", Blue: "DE Blue", Green: "DE Green" } }
      },
      endings: { done: { title: `DE Thanks, {{field:${f.name}}}!` } }
    })
    // A draft is not offered: the page stays in English for a German browser, and has no switcher.
    const page = await withModel.handler(
      new Request(`http://qforms.test/f/${f.publicId}`, { headers: { "accept-language": "de" } })
    )
    const html = await page.text()
    expect(html).toContain('<html lang="en" dir="ltr">')
    expect(html).not.toContain('name="lang"')
    // Reviewed and marked ready: now it is.
    const reviewed = { ...drafted.json.translation, status: "ready" }
    expect((await owner("PUT", `/forms/${f.id}/translations/de`, reviewed)).status).toBe(200)
    const ready = await withModel.handler(
      new Request(`http://qforms.test/f/${f.publicId}`, { headers: { "accept-language": "de" } })
    )
    expect(await ready.text()).toContain('<html lang="de" dir="ltr">')
  })

  it("sends a long form in batches", async () => {
    const choices = Array.from({ length: 100 }, (_, i) => `Choice ${i + 1}`)
    const created = await owner("POST", "/forms", {
      title: "Long",
      fields: [{ type: "select", label: "Pick one", options: { choices } }]
    })
    model.set(german)
    const drafted = await owner("POST", `/forms/${created.json.id}/translations/fr/draft`)
    expect(drafted.status).toBe(200)
    // 102 texts (title, label, 100 choices): two requests of at most 60.
    expect(model.calls.map((c) => textsOf(c).length)).toEqual([60, 42])
    expect(drafted.json).toMatchObject({ translated: 102, total: 102, status: "draft" })
  })

  it("refuses without a language model, saying so; a failing or unfitting model changes nothing; viewers and other workspaces are refused", async () => {
    const offlineForm = await form(offlineOwner)
    const refused = await offlineOwner("POST", `/forms/${offlineForm.id}/translations/de/draft`)
    expect(refused.status).toBe(409)
    expect(refused.json.error).toContain("machine translation needs a language model")
    expect(refused.json.error).toContain("the offline generator writes forms in English only")

    const f = await form(owner)
    model.set((_, res) => res.writeHead(500, { "content-type": "application/json" }).end('{"error":"boom"}'))
    const failed = await owner("POST", `/forms/${f.id}/translations/de/draft`)
    expect(failed.status).toBe(502)
    expect(failed.json.error).toContain("answered 500")
    expect((await owner("GET", `/forms/${f.id}/translations/de`)).status).toBe(404)

    // A choice of 500 characters does not fit (at most 200): refused, nothing saved.
    model.set((call, res) =>
      completion(res, JSON.stringify({ translations: textsOf(call).map(({ id }) => ({ id, text: "x".repeat(500) })) }))
    )
    const unfitting = await owner("POST", `/forms/${f.id}/translations/de/draft`)
    expect(unfitting.status).toBe(502)
    expect(unfitting.json.error).toContain("the model gave texts that do not fit the form")
    expect((await owner("GET", `/forms/${f.id}/translations/de`)).status).toBe(404)

    model.set(german)
    const byViewer = await viewer("POST", `/forms/${f.id}/translations/de/draft`)
    expect(byViewer.status).toBe(403)
    expect((await other("POST", `/forms/${f.id}/translations/de/draft`)).status).toBe(404)
    expect((await owner("POST", `/forms/${f.id}/translations/en/draft`)).status).toBe(409)
    expect(model.calls).toHaveLength(0)
  })
})
