/**
 * The HTTP contract: MCP endpoint.
 */
import { afterAll, expect } from "vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { group, contactFields } from "./Contract.ts"
import { send } from "./Requests.ts"
import { expectStatus, expectFormSummary } from "./Expectations.ts"

export const mcpEndpoint = group("MCP endpoint", { transport: true }, (c) => {
  const { api, test, transportTest } = c
  const clients: Array<Client> = []
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()))
  })
  const connect = async (key: string) => {
    const client = new Client({ name: "contract-suite", version: "1.0.0" })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${c.server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } }
      })
    )
    clients.push(client)
    return client
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const structured = (result: any) => {
    expect(result.isError, JSON.stringify(result.content)).toBe(false)
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent)
    return result.structuredContent
  }

  transportTest(
    "an MCP client builds a form, reads a response and moves it to a stage; the API sees the same",
    async () => {
      const client = await connect(c.seed.keys.owner)
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(["create_form", "list_responses", "update_response"])
      )
      const created = structured(
        await client.callTool({
          name: "create_form",
          arguments: { title: "Via MCP", fields: contactFields }
        })
      )
      expectFormSummary(created)
      structured(await client.callTool({ name: "update_form", arguments: { formId: created.id, status: "published" } }))
      const full = await api("GET", `/forms/${created.id}`)
      expectStatus(full, 200)
      expect(full.body.title).toBe("Via MCP")
      const [name, email] = full.body.fields as Array<{ id: number }>
      const submitted = await api("POST", `/forms/${created.id}/responses`, {
        body: { values: { [name!.id]: "Mia", [email!.id]: "mia@example.com" } }
      })
      expectStatus(submitted, 201)
      const list = structured(await client.callTool({ name: "list_responses", arguments: { formId: created.id } }))
      expect(list.responses.map((r: { id: number }) => r.id)).toEqual([submitted.body.id])
      const stage = list.stages[1] as { id: number }
      const updated = structured(
        await client.callTool({
          name: "update_response",
          arguments: { responseId: submitted.body.id, stageId: stage.id }
        })
      )
      expect(updated).toMatchObject({
        ok: true,
        formId: created.id,
        changes: [{ field: "stageId", from: null, to: stage.id }]
      })
      const detail = await api("GET", `/responses/${submitted.body.id}`)
      expect(detail.body.response.stageId).toBe(stage.id)
      expect(detail.body.activities.find((a: { type: string }) => a.type === "stage_changed").actor.via).toBe("mcp")
      const read = await client.readResource({ uri: `qforms://forms/${created.id}` })
      expect(JSON.parse((read.contents[0] as { text: string }).text).fields).toEqual(full.body.fields)
    }
  )

  test("a viewer's writes are tool errors; no key → 401 with WWW-Authenticate; GET → 405", async () => {
    const viewer = await connect(c.seed.keys.viewer)
    const refused = await viewer.callTool({ name: "create_form", arguments: { title: "Nope" } })
    expect(refused.isError).toBe(true)
    expect(JSON.stringify(refused.content)).toContain("viewer")
    const anonymous = await send(
      `${c.server.url}/mcp`,
      {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
      },
      c.settings.onReply
    )
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer /)
    const get = await send(
      `${c.server.url}/mcp`,
      { headers: { authorization: `Bearer ${c.seed.keys.owner}` } },
      c.settings.onReply
    )
    expect(get.status).toBe(405)
    expect(get.headers.get("allow")).toBe("POST")
  })
})
