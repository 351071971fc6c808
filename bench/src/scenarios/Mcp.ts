/**
 * The MCP endpoint: `tools/call get_form` as one stateless JSON-RPC POST to
 * `/mcp` (key auth, `Accept: application/json, text/event-stream`, no
 * `initialize` first: the endpoint keeps no session) against
 * `GET /api/forms/{id}` on the same standalone, the same data through the
 * HTTP API. Target (issue #22): at least 0.8× of the API GET on PostgreSQL.
 */
import * as Db from "../lib/Db.ts"
import type { LoadOptions } from "../lib/Load.ts"
import {
  alternate,
  type Context,
  fmtLatency,
  fmtMb,
  fmtRate,
  fmtRatio,
  medianRatio,
  type Row,
  type Scenario
} from "../lib/Scenario.ts"
import { type BenchForm, createForm, type Server, startQforms } from "../lib/Servers.ts"
import { getOptions } from "./Api.ts"
import { expectAnswer } from "./Public.ts"

const getFormCall = (form: BenchForm) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "get_form", arguments: { formId: form.id } }
  })

export const mcpOptions =
  (form: BenchForm) =>
  (server: Server): LoadOptions => {
    const body = getFormCall(form)
    return {
      url: `${server.base}/mcp`,
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, accept: "application/json, text/event-stream" },
      body: () => body
    }
  }

/** A tools/call answer carrying the form (a tool error is a 200 too, with `isError`). */
const isForm = (form: BenchForm) => (text: string) => {
  const reply = JSON.parse(text) as {
    result?: { isError?: boolean; structuredContent?: { id?: number }; content?: Array<{ text?: string }> }
  }
  const result = reply.result
  if (result === undefined || result.isError === true) return false
  return (
    result.structuredContent?.id === form.id ||
    (result.content ?? []).some((c) => (c.text ?? "").includes("Contact us"))
  )
}

const as = (server: Server, name: string): Server => ({ ...server, name })

export const mcp: Scenario = {
  name: "mcp",
  title: "10. MCP: tools/call get_form vs GET /api/forms/{id} on the same server",
  run: async (ctx: Context) => {
    const rows: Array<Row> = []
    const raw: Record<string, unknown> = {}
    for (const kind of ctx.dbs) {
      const db = Db.make(kind, "mcp")
      const servers: Array<Server> = []
      try {
        ctx.log(`[mcp/${kind}] starting qforms standalone`)
        const qforms = await startQforms("standalone", db, { nodeArgs: ctx.qformsNodeArgs })
        servers.push(qforms)
        const form = await createForm(qforms)
        const options = mcpOptions(form)(qforms)
        // The first call also loads the MCP SDK (McpServer.ts is imported on the first /mcp request).
        await expectAnswer(
          "mcp get_form",
          options.url,
          {
            method: "POST",
            headers: { ...options.headers, "content-type": "application/json" },
            body: getFormCall(form)
          },
          200,
          isForm(form)
        )
        ctx.log(`[mcp/${kind}] tools/call get_form vs GET /api/forms/{id}`)
        const results = await alternate(
          ctx,
          [
            { label: "mcp", server: as(qforms, "mcp") },
            { label: "api", server: as(qforms, "api") }
          ],
          (server) => (server.name === "mcp" ? mcpOptions(form)(server) : getOptions(form)(server))
        )
        const m = results[0]!
        const a = results[1]!
        const ratio = medianRatio(m, a)
        rows.push({
          scenario: "10. MCP tools/call get_form (POST /mcp)",
          db: kind,
          qforms: fmtRate(m.rps),
          baseline: `${fmtRate(a.rps)} (GET /api/forms/{id}, same server)`,
          ratio: fmtRatio(ratio),
          latency: `${fmtLatency(m.p50, m.p99)} (API ${fmtLatency(a.p50, a.p99)})`,
          peakRss: fmtMb(Math.max(m.peakRss, a.peakRss)),
          target: kind === "pg" ? "≥ 0.80×" : "≥ 0.80× (PostgreSQL)",
          met: kind === "pg" ? ratio >= 0.8 : undefined
        })
        raw[kind] = results
      } finally {
        for (const server of servers) await server.proc.stop()
        await db.cleanup()
      }
    }
    return {
      rows,
      raw,
      notes: [
        `${ctx.connections} connections. Each MCP request is a bare JSON-RPC \`tools/call\` of get_form (no initialize: the ` +
          `endpoint is stateless), answered as JSON (the SDK's enableJsonResponse): key auth, a Web Request built from the ` +
          `body, a fresh SDK server and transport per request, the tool on the same Forms service as the API.`
      ]
    }
  }
}
