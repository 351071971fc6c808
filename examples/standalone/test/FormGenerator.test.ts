/**
 * The standalone picks its form generator from the environment: a model when
 * QFORMS_LLM_BASE_URL is set (here a local chat-completions server), the
 * offline generator otherwise.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ProcessDatabase, processTargets, type ServerProcess, spawnServer } from "./support/Processes.ts"

const modelForm = {
  title: "Conference feedback",
  description: null,
  fields: [
    {
      type: "rating",
      id: null,
      label: "How was the conference?",
      required: true,
      options: { placeholder: null, help: null, max: 5 }
    },
    { type: "long_text", id: null, label: "What should we change?", required: false, options: null }
  ]
}

describe("the standalone's form generator", () => {
  const model = createServer((req, res) => {
    req.resume()
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          choices: [{ index: 0, message: { role: "assistant", content: JSON.stringify(modelForm) } }]
        })
      )
    })
  })
  const databases: Array<ProcessDatabase> = []
  const servers: Array<ServerProcess> = []
  beforeAll(() => new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve)))
  afterAll(async () => {
    for (const server of servers) await server.stop()
    for (const db of databases) await db.cleanup()
    await new Promise<void>((resolve) => model.close(() => resolve()))
  })

  const start = async (env: Record<string, string>) => {
    const db = processTargets[0]!.make()
    databases.push(db)
    const server = spawnServer({ ...db.env, ...env })
    servers.push(server)
    const url = await server.listening
    const key = /qk_live_[A-Za-z0-9]+/.exec(server.stdout())?.[0]
    if (key === undefined) throw new Error(`no key in ${server.stdout()}`)
    const generate = (prompt: string) =>
      fetch(`${url}/api/v1/forms/generate`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ prompt })
      })
    return { server, generate }
  }

  it("QFORMS_LLM_BASE_URL + QFORMS_LLM_MODEL → the model writes the form", async () => {
    const origin = `http://127.0.0.1:${(model.address() as AddressInfo).port}`
    const { server, generate } = await start({ QFORMS_LLM_BASE_URL: `${origin}/v1`, QFORMS_LLM_MODEL: "test-model" })
    await server.waitFor(/qforms form generator: /)
    expect(server.stdout()).toContain(`qforms form generator: model test-model at ${origin}`)
    const reply = await generate("feedback on our conference")
    expect(reply.status).toBe(201)
    const form = (await reply.json()) as { title: string; fields: Array<{ label: string }> }
    expect(form.title).toBe("Conference feedback")
    expect(form.fields.map((field) => field.label)).toEqual(["How was the conference?", "What should we change?"])
  })

  it("nothing configured → the offline generator", async () => {
    const { server, generate } = await start({})
    await server.waitFor(/qforms form generator: /)
    expect(server.stdout()).toContain("qforms form generator: offline")
    const reply = await generate("A contact form. Ask for name, email and a message.")
    expect(reply.status).toBe(201)
    const form = (await reply.json()) as { fields: Array<{ type: string }> }
    expect(form.fields.map((field) => field.type)).toEqual(["short_text", "email", "long_text"])
  })
})
