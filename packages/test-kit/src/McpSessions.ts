/**
 * Sessions of the official MCP SDK client (`@modelcontextprotocol/sdk`'s
 * `Client` over `StreamableHTTPClientTransport`), as an assistant opens them:
 * for tests that run many in a row or at once and count how each ended.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"

/**
 * One session against `{base}/mcp` with an API key: connect, list the tools, call `list_forms`, close.
 * Answers `"ok"`, or how it failed (the error and its cause, as the SDK reported them).
 *
 * @example
 * ```ts
 * expect(await sdkSession(url, key)).toBe("ok")
 * ```
 */
export const sdkSession = async (base: string, key: string): Promise<string> => {
  const client = new Client({ name: "qforms-test-kit", version: "1.0.0" })
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } }
  })
  try {
    await client.connect(transport)
    const { tools } = await client.listTools()
    if (!tools.some((tool) => tool.name === "list_forms")) return "list_forms is not listed"
    const result = await client.callTool({ name: "list_forms", arguments: {} })
    return result.isError === true ? `tool error ${JSON.stringify(result.content)}` : "ok"
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause
    return `${String(error)}${cause === undefined ? "" : ` (${String(cause)})`}`
  } finally {
    await client.close().catch(() => undefined)
  }
}
