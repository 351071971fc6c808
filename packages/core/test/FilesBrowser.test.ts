/**
 * In real Chromium: files uploaded through the public page as a script, a web
 * page and an SVG, then referenced from a page of the same origin as qforms
 * (a host page whose signed-in user the identity bridge lets read files), do
 * not run: `<script src>`, `<iframe>`, `<object>` and `<img>` all stay inert.
 * A script of the host's own, from the same origin, runs (the control).
 */
import { mkdtempSync, rmSync } from "node:fs"
import type { Server } from "node:http"
import { testHttpServer } from "@qforms/test-kit/Loopback"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import * as Qforms from "../src/Qforms.ts"
import { launch, present } from "@qforms/test-kit/Browser"

/** What the test reads and writes on the page's window. */
interface PageWindow {
  ran?: Array<string>
  messages: Array<string>
  hostScriptRan?: boolean
  addEventListener: (type: "message", listener: (event: { readonly data: unknown }) => void) => void
}

describe.skipIf(!present)("uploaded files in a browser, under qforms' origin", () => {
  let qforms: Qforms.Qforms
  let server: Server
  let browser: Browser
  let base = ""
  let directory = ""
  const identity = { workspaceId: 0, accountId: 0 }
  const fileIds: Record<"js" | "html" | "svg", string> = { js: "", html: "", svg: "" }

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), "qforms-files-browser-"))
    qforms = await Qforms.make({
      database: {},
      delivery: { worker: false },
      files: { directory },
      rateLimit: { requestsPerSecond: 100_000, burst: 100_000 },
      uploadRateLimit: { requestsPerSecond: 100_000, burst: 100_000 },
      resolveActor: ({ headers }) => (String(headers["cookie"] ?? "").includes("host_user=owner") ? identity : null)
    })
    const key = await qforms.run(
      Effect.gen(function* () {
        const { workspace, ownerAccountId } = yield* (yield* Workspaces).create({
          name: "B",
          ownerEmail: "b@example.com"
        })
        identity.workspaceId = workspace.id
        identity.accountId = ownerAccountId
        return (yield* (yield* ApiKeys).create(workspace.id, { accountId: ownerAccountId })).key
      })
    )
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await qforms.handler(
        new Request(`http://host/api${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
      )
      return (await response.json()) as {
        readonly id: number
        readonly publicId: string
        readonly fields: Array<{ readonly id: number }>
      }
    }
    const form = await api("POST", "/forms", { title: "Uploads", fields: [{ type: "file", label: "Anything" }] })
    await api("PATCH", `/forms/${form.id}`, { status: "published" })
    const fieldId = (await api("GET", `/forms/${form.id}`)).fields[0]!.id

    server = testHttpServer((request, response) => {
      if (request.url === "/host") {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
        response.end(`<!doctype html><title>host</title>
          <script src="/host.js"></script>
          <script src="/api/files/${fileIds.js}"></script>
          <iframe id="html" src="/api/files/${fileIds.html}"></iframe>
          <iframe id="svgframe" src="/api/files/${fileIds.svg}"></iframe>
          <object data="/api/files/${fileIds.svg}" type="image/svg+xml"></object>
          <img src="/api/files/${fileIds.svg}">`)
      } else if (request.url === "/host.js") {
        response.writeHead(200, { "content-type": "text/javascript" })
        response.end("window.hostScriptRan = true")
      } else {
        qforms.nodeHandler(request, response)
      }
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

    const upload = async (name: string, type: string, content: string) => {
      const body = new FormData()
      body.append("file", new Blob([content], { type }), name)
      const response = await fetch(`${base}/f/${form.publicId}/uploads?fieldId=${fieldId}`, { method: "POST", body })
      expect(response.status).toBe(201)
      return ((await response.json()) as { fileId: string }).fileId
    }
    // Each payload reports to the top window by every route a script would have.
    const report = (what: string) =>
      `try { (window.top || window).ran = ((window.top || window).ran || []).concat("${what}") } catch (e) {}` +
      `try { (window.top || window).postMessage("${what}", "*") } catch (e) {}`
    fileIds.js = await upload("evil.js", "text/javascript", report("js"))
    fileIds.html = await upload("evil.html", "text/html", `<!doctype html><script>${report("html")}</script>`)
    fileIds.svg = await upload(
      "evil.svg",
      "image/svg+xml",
      `<svg xmlns="http://www.w3.org/2000/svg" onload='${report("svg-onload")}'><script>${report("svg")}</script></svg>`
    )
    browser = await launch()
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => server?.close(resolve))
    await qforms?.dispose()
    rmSync(directory, { recursive: true, force: true })
  })

  it("a script, page or SVG upload does not run from <script>, <iframe>, <object> or <img>; the host's own script does", async () => {
    const context = await browser.newContext()
    await context.addCookies([{ name: "host_user", value: "owner", url: base }])
    const page = await context.newPage()
    await page.addInitScript(() => {
      const seen: Array<string> = []
      const page = globalThis as unknown as PageWindow
      page.messages = seen
      page.addEventListener("message", (event) => seen.push(String(event.data)))
    })
    // The files are readable under this origin with the host's cookie (so a <script src> would load them).
    const fetched = await page.request.get(`${base}/api/files/${fileIds.js}`)
    expect(fetched.status()).toBe(200)
    expect(fetched.headers()["content-type"]).toBe("application/octet-stream")

    await page.goto(`${base}/host`, { waitUntil: "load" })
    await page.waitForFunction(() => (globalThis as unknown as PageWindow).hostScriptRan === true)
    // Every subresource has finished (the load event covers iframes, objects and images); give messages a turn.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)))
    const outcome = await page.evaluate(() => {
      const page = globalThis as unknown as PageWindow
      return { ran: page.ran ?? [], messages: page.messages }
    })
    expect(outcome).toEqual({ ran: [], messages: [] })
    await context.close()
  }, 120_000)
})
