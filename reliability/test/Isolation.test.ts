/**
 * Scenario 6, tenant isolation: workspace B's key on every operation of the
 * served OpenAPI document and every MCP tool with workspace A's ids, on A's
 * files, delivery logs and event stream; A's drafts' public pages without a
 * key. Nothing of A may show, nothing of A may change (its files and its
 * image library included). Public ids and file ids must not be guessable.
 */
import { afterAll, describe, expect, it } from "vitest"
import {
  call,
  cliOk,
  type ProcessDatabase,
  receiver,
  type Receiver,
  record,
  type ServerProcess,
  sleep,
  start,
  startFresh,
  targets
} from "./support/Harness.ts"
import { type Json, operations, resolver, validValue } from "./support/JsonSchema.ts"
import { idHints, mcp, pathParam, seed, type Seeded, upload } from "./support/Seed.ts"

const order = (method: string) => ["GET", "POST", "PUT", "PATCH", "DELETE"].indexOf(method)

/** The events of a workspace's stream, by WebSocket with the key in the subprotocol. */
const listen = (url: string, key: string, query = "") => {
  const messages: Array<string> = []
  const socket = new WebSocket(`${url.replace(/^http/, "ws")}/api/events${query}`, [
    "qforms.v1",
    `qforms.bearer.${key}`
  ])
  /** Whether the stream opened (a refused one is closed at once). */
  const opened = new Promise<boolean>((resolve) => {
    socket.addEventListener("open", () => resolve(true))
    socket.addEventListener("error", () => resolve(false))
  })
  socket.addEventListener("message", (event) => messages.push(String(event.data)))
  return { messages, opened, close: () => socket.close() }
}

for (const target of targets) {
  describe(`tenant isolation on ${target.name}`, () => {
    let db: ProcessDatabase | undefined
    const servers: Array<ServerProcess> = []
    let hook: Receiver | undefined
    afterAll(async () => {
      for (const server of servers) await server.stop()
      await hook?.close()
      await db?.cleanup()
    })

    it("workspace B's key finds nothing of workspace A on any surface, and changes nothing", async () => {
      db = target.make()
      hook = await receiver()
      const first = await startFresh(db)
      servers.push(first.server)
      const keyA = first.key
      const markerA = `ZZA${Math.random().toString(36).slice(2, 10).toUpperCase()}`
      const markerB = `ZZB${Math.random().toString(36).slice(2, 10).toUpperCase()}`
      const a = await seed(first.url, keyA, markerA, hook.url)
      await first.server.stop()
      const created = JSON.parse(
        await cliOk(["workspace", "create", "--name", "B", "--owner-email", "b@example.com"], db.env)
      )
      const keyB = (await cliOk(["key", "create", "--workspace", String(created.workspaceId)], db.env)).trim()
      const { server, url } = await start(db.env)
      servers.push(server)
      const b: Seeded = await seed(url, keyB, markerB, hook.url)

      const leaks: Array<string> = []
      /** Statuses of the answers to requests with A's ids (404 expected; 400 would mean the probe did not reach the lookup). */
      const onA = new Map<number, number>()
      const check = (
        what: string,
        status: number,
        text: string,
        touchesA: boolean,
        documented5xx: ReadonlyArray<number> = []
      ) => {
        if (text.includes(markerA)) leaks.push(`${what}: ${status} carries A's data`)
        if (touchesA && status >= 200 && status < 300) leaks.push(`${what}: ${status} on A's ids`)
        if (touchesA) onA.set(status, (onA.get(status) ?? 0) + 1)
        if (status >= 500 && !documented5xx.includes(status)) leaks.push(`${what}: ${status}`)
      }

      // Every operation of the API description, with A's ids in the path and body.
      const doc = (await call(url, "GET", "/api/openapi.json")).body
      const resolve = resolver(doc)
      const hints = idHints(a)
      const ops = operations(doc).sort((x, y) => order(x.method) - order(y.method))
      let requests = 0
      for (const op of ops) {
        const path = op.pathParams.reduce(
          (p, name) => p.replace(`{${name}}`, encodeURIComponent(pathParam(a, op.path, name))),
          op.path
        )
        const body = op.body === undefined ? undefined : validValue(op.body, resolve, hints)
        const plain = op.body === undefined ? undefined : validValue(op.body, resolve, {})
        const touchesA = op.pathParams.length > 0 || JSON.stringify(body) !== JSON.stringify(plain)
        const answer = await call(url, op.method, path, { key: keyB, body })
        requests++
        check(`${op.method} ${path}`, answer.status, JSON.stringify(answer.body), touchesA, op.documented5xx)
        // The draft form's id too, where a form id goes.
        if (op.path.includes("{id}") && op.path.startsWith("/api/forms/")) {
          const draft = await call(url, op.method, op.path.replace("{id}", String(a.draftFormId)), { key: keyB, body })
          requests++
          check(`${op.method} ${op.path} (A's draft)`, draft.status, JSON.stringify(draft.body), true)
        }
      }

      // Every MCP tool, with A's ids in its arguments; A's form as a resource; the prompt for A's form.
      const tools = (await mcp(url, keyB, "tools/list")).body.result.tools as Array<{ name: string; inputSchema: Json }>
      for (const tool of tools) {
        // A tool's `id` is a saved view's in the view tools, else a form's.
        const args = validValue(tool.inputSchema, (s) => s, {
          ...hints,
          id: tool.name.endsWith("_view") ? a.viewId : a.formId
        })
        const plain = validValue(tool.inputSchema, (s) => s, {})
        const touchesA = JSON.stringify(args) !== JSON.stringify(plain)
        const answer = await mcp(url, keyB, "tools/call", { name: tool.name, arguments: args })
        requests++
        const succeeded =
          answer.status === 200 && answer.body?.result !== undefined && answer.body.result.isError !== true
        check(`mcp ${tool.name}`, succeeded ? 200 : answer.status === 200 ? 404 : answer.status, answer.text, touchesA)
      }
      for (const [method, params] of [
        ["resources/read", { uri: `qforms://forms/${a.formId}` }],
        ["resources/read", { uri: `qforms://forms/${a.draftFormId}` }],
        ["resources/list", {}],
        ["prompts/get", { name: "triage_new_responses", arguments: { formId: String(a.formId) } }]
      ] as const) {
        const answer = await mcp(url, keyB, method, params)
        requests++
        check(`mcp ${method} ${JSON.stringify(params)}`, answer.status >= 500 ? answer.status : 0, answer.text, false)
      }

      // The event stream: B's (all, and filtered on A's form) hears nothing of A; A's own hears it (the probe works).
      const ownA = listen(url, keyA)
      const bAll = listen(url, keyB)
      const bOnA = listen(url, keyB, `?formId=${a.formId}`)
      const [ownOpened, bAllOpened, bOnAOpened] = await Promise.all([ownA.opened, bAll.opened, bOnA.opened])
      expect([ownOpened, bAllOpened]).toEqual([true, true])
      const submitted = await call(url, "POST", `/api/forms/${a.formId}/responses`, {
        key: keyA,
        body: { values: { [a.fieldIds.name]: `Again ${markerA}` } }
      })
      expect(submitted.status).toBe(201)
      const deadline = performance.now() + 10_000
      while (!ownA.messages.some((m) => m.includes(markerA)) && performance.now() < deadline) await sleep(50)
      await sleep(500)
      for (const socket of [ownA, bAll, bOnA]) socket.close()
      for (const message of [...bAll.messages, ...bOnA.messages]) check("event stream", 200, message, false)

      // A's drafts' public pages (no key), and uploads to them.
      for (const [method, path] of [
        ["GET", `/f/${a.draftPublicId}`],
        ["POST", `/f/${a.draftPublicId}/responses`]
      ] as const) {
        const answer = await fetch(`${url}${path}`, {
          method,
          headers: { "content-type": "application/json" },
          ...(method === "POST" ? { body: JSON.stringify({ values: {} }) } : {})
        })
        const text = await answer.text()
        requests++
        if (answer.status !== 404) leaks.push(`${method} ${path}: ${answer.status} (a draft must be 404)`)
        check(`${method} ${path}`, answer.status, text, false)
      }
      const draftUpload = await upload(url, a.draftPublicId, a.fieldIds.file, "x")
      if (draftUpload.status !== 404) leaks.push(`upload to A's draft: ${draftUpload.status}`)

      // Ids that are public: long, random, distinct.
      const publicIds = [a.publicId, a.draftPublicId, b.publicId, b.draftPublicId]
      for (let i = 0; i < 20; i++)
        publicIds.push((await call(url, "POST", "/api/forms", { key: keyB, body: { title: `P${i}` } })).body.publicId)
      const fileIds = [a.fileId, b.fileId]
      for (let i = 0; i < 10; i++) fileIds.push((await upload(url, b.publicId, b.fieldIds.file, `f${i}`)).body.fileId)
      // Only file ids carry a prefix; a public id is 20 base64url characters, which may
      // themselves begin with lowercase letters and an underscore (seen in CI: "tkuad_…").
      const randomPart = (id: string) => id.replace(/^file_/, "")
      const weak = [...publicIds, ...fileIds].filter(
        (id) => typeof id !== "string" || !/^[A-Za-z0-9_-]{16,}$/.test(randomPart(id))
      )

      // Nothing of A changed.
      const formA = await call(url, "GET", `/api/forms/${a.formId}`, { key: keyA })
      const detail = await call(url, "GET", `/api/responses/${a.responseId}`, { key: keyA })
      const subs = await call(url, "GET", "/api/webhooks", { key: keyA })
      const stages = await call(url, "GET", `/api/forms/${a.formId}/stages`, { key: keyA })
      const file = await fetch(`${url}/api/files/${a.fileId}`, { headers: { authorization: `Bearer ${keyA}` } })
      const fileText = await file.text()
      const image = await fetch(`${url}/api/images/${a.imageId}`, { headers: { authorization: `Bearer ${keyA}` } })
      const images = await call(url, "GET", "/api/images", { key: keyA })
      const intact =
        formA.status === 200 &&
        formA.body.title === `Form ${markerA}` &&
        formA.body.status === "published" &&
        detail.status === 200 &&
        detail.body.response.tags.includes(markerA.slice(0, 30)) &&
        detail.body.response.stageId === a.stageId &&
        JSON.stringify(detail.body.activities).includes(`Note ${markerA}`) &&
        subs.body.some((s: { id: string; disabled?: boolean }) => s.id === a.subscriptionId && s.disabled !== true) &&
        stages.body.stages.some((s: { id: number }) => s.id === a.stageId) &&
        file.status === 200 &&
        fileText === `file content ${markerA}` &&
        image.status === 200 &&
        images.body.data.some((i: { id: string; name: string }) => i.id === a.imageId && i.name === `${markerA}.png`)

      record({
        scenario: "6 tenant isolation",
        target: target.name,
        figures: {
          "API operations": ops.length,
          "MCP tools": tools.length,
          "requests with B's key": requests,
          "stream messages to B": bAll.messages.length + bOnA.messages.length,
          "B's stream on A's form": bOnAOpened ? "opened" : "refused",
          "A's own stream got the event": ownA.messages.some((m) => m.includes(markerA)),
          "ids checked (publicId, fileId)": publicIds.length + fileIds.length,
          "guessable ids": weak.length,
          "answers on A's ids": [...onA]
            .sort(([x], [y]) => x - y)
            .map(([status, n]) => `${status}×${n}`)
            .join(", "),
          leaks: leaks.length,
          "A intact": intact
        },
        notes: [
          "notification settings: no such surface in this version's API description; any that is added is probed by the OpenAPI loop",
          ...leaks
        ]
      })
      expect(leaks).toEqual([])
      expect(weak).toEqual([])
      expect(new Set(publicIds).size).toBe(publicIds.length)
      expect(new Set(fileIds).size).toBe(fileIds.length)
      expect(ownA.messages.some((m) => m.includes(markerA))).toBe(true)
      expect(intact).toBe(true)
    })
  })
}
