/**
 * Scenario 14, cross-site writes (CSRF): every write route of the served
 * OpenAPI document, plus the application's JSON routes and `/mcp`, is sent
 * forged cross-site requests (an Origin of another site, `Sec-Fetch-Site:
 * cross-site`, no Content-Type, text/plain) with each way of signing in:
 * the application's session cookie and a bearer key on the real standalone,
 * the host's identity bridge on a small host (`Qforms.make` with a
 * `resolveActor` reading the host's own cookie). Cookie and bridge writes must
 * be refused (403/415) and change nothing; bearer writes keep working.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Bootstrap, Qforms } from "@qforms/core"
import { afterAll, describe, expect, it } from "vitest"
import {
  baseEnv,
  firstStartKey,
  type ProcessDatabase,
  publishedForm,
  record,
  type ServerProcess,
  spawnServer,
  targets
} from "./support/Harness.ts"

const target = targets[0]!

/** A forged request: the headers a page of another site makes the browser send, and how it sends the body. */
interface Forgery {
  readonly name: string
  readonly headers: Record<string, string>
  /** `json`: application/json (needs CORS, so only with a forged Origin); `none`: a typeless blob; `text`: text/plain. */
  readonly body: "json" | "none" | "text"
}

const forgeries: ReadonlyArray<Forgery> = [
  { name: "Origin of another site", headers: { origin: "https://evil.example" }, body: "json" },
  {
    name: "Sec-Fetch-Site: cross-site",
    headers: { "sec-fetch-site": "cross-site", origin: "https://evil.example" },
    body: "json"
  },
  {
    name: "no Content-Type",
    headers: { "sec-fetch-site": "cross-site", origin: "https://evil.example" },
    body: "none"
  },
  { name: "text/plain", headers: { "sec-fetch-site": "cross-site", origin: "https://evil.example" }, body: "text" }
]

/** A write route: method and path with its parameters filled in. */
interface Route {
  readonly method: string
  readonly path: string
  /** Its body is `multipart/form-data` (an upload): a page of another site can post one without asking (no preflight). */
  readonly multipart?: true
}

/** Every write of the served OpenAPI document, each `{param}` filled with `id`, plus /mcp and the application's writes. */
const writeRoutes = async (url: string, id: (name: string) => string): Promise<ReadonlyArray<Route>> => {
  const document = (await (await fetch(`${url}/api/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>
  }
  const routes: Array<Route> = []
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const method of Object.keys(operations)) {
      if (!["post", "put", "patch", "delete"].includes(method)) continue
      // Public routes (the form page's JSON submit and uploads) take no credentials, so there is nothing to forge.
      const security = (operations[method] as { readonly security?: ReadonlyArray<unknown> }).security
      if (security !== undefined && security.length === 0) continue
      const content = (operations[method] as { readonly requestBody?: { readonly content?: Record<string, unknown> } })
        .requestBody?.content
      routes.push({
        method: method.toUpperCase(),
        path: `${path.replace(/\{([^}]+)\}/g, (_, name: string) => id(name))}`,
        ...(content !== undefined && "multipart/form-data" in content ? { multipart: true as const } : {})
      })
    }
  }
  return [
    ...routes,
    { method: "POST", path: "/mcp" },
    { method: "POST", path: "/app/password" },
    { method: "PUT", path: "/app/account/language" }
  ]
}

const bodyOf = (route: Route): string =>
  route.path === "/mcp"
    ? JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "create_form", arguments: { title: "Forged" } }
      })
    : route.path === "/app/password"
      ? JSON.stringify({ currentPassword: "x", newPassword: "a password the attacker chose" })
      : route.path === "/app/account/language"
        ? JSON.stringify({ language: "ar" })
        : JSON.stringify({
            title: "Forged",
            name: "Forged",
            email: "forged@example.com",
            role: "owner",
            body: "Forged"
          })

/** A 1×1 PNG: the file part of an upload route's body. */
const pixel = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64"
)

const send = (url: string, route: Route, credentials: Record<string, string>, forgery: Forgery | undefined) => {
  if (route.multipart) {
    // Every forgery of an upload is the multipart post an HTML form of another site makes.
    const upload = new FormData()
    upload.append("file", new Blob([pixel], { type: "image/png" }), "forged.png")
    return fetch(`${url}${route.path}`, {
      method: route.method,
      redirect: "manual",
      headers: { accept: "application/json", ...credentials, ...(forgery?.headers ?? {}) },
      body: upload
    })
  }
  const body = bodyOf(route)
  const type = forgery?.body ?? "json"
  return fetch(`${url}${route.path}`, {
    method: route.method,
    redirect: "manual",
    headers: {
      accept: "application/json, text/event-stream",
      ...credentials,
      ...(forgery?.headers ?? {}),
      ...(type === "json"
        ? { "content-type": "application/json" }
        : type === "text"
          ? { "content-type": "text/plain;charset=UTF-8" }
          : {})
    },
    ...(route.method === "DELETE" && type === "json"
      ? {}
      : { body: type === "none" ? new TextEncoder().encode(body) : body })
  })
}

/** Everything a forged write could change, read with the bearer key. */
const snapshot = async (url: string, key: string, formId: number) => {
  const read = async (path: string) =>
    (await fetch(`${url}/api${path}`, { headers: { authorization: `Bearer ${key}` } })).text()
  return JSON.stringify(
    await Promise.all([
      read("/forms"),
      read(`/forms/${formId}`),
      read(`/forms/${formId}/responses`),
      read(`/forms/${formId}/stages`),
      read("/members"),
      read("/webhooks"),
      read("/api-keys"),
      read(`/forms/${formId}/notifications`),
      read("/images")
    ])
  )
}

interface Tally {
  sent: number
  refused: number
  /** Forged writes answered otherwise than 403/415. */
  readonly accepted: Array<string>
}

/** Sends every forgery of every route with `credentials`; counts the refusals. */
const forge = async (url: string, routes: ReadonlyArray<Route>, credentials: Record<string, string>, tally: Tally) => {
  for (const route of routes) {
    for (const forgery of forgeries) {
      const response = await send(url, route, credentials, forgery)
      const text = await response.text()
      tally.sent++
      // A bridge user has no qforms password to change: /app/password answers it 401 whatever the origin.
      const refused =
        response.status === 403 ||
        response.status === 415 ||
        (route.path === "/app/password" && response.status === 401)
      if (refused) tally.refused++
      else
        tally.accepted.push(`${route.method} ${route.path} (${forgery.name}): ${response.status} ${text.slice(0, 120)}`)
    }
  }
}

describe(`cross-site writes on ${target.name}`, () => {
  let db: ProcessDatabase | undefined
  let server: ServerProcess | undefined
  let host: { close: () => Promise<void> } | undefined
  afterAll(async () => {
    await server?.stop()
    await host?.close()
    await db?.cleanup()
  })

  it("cookie and bridge writes from another site are refused and change nothing; bearer writes keep working", async () => {
    db = target.make()
    // Started by hand to wait longer than the harness' minute for it to listen (a loaded machine).
    server = spawnServer({ ...baseEnv, ...db.env })
    const url = (await server.waitFor(/qforms listening on (\S+)/, 240_000))[1]!
    const key = firstStartKey(server)
    const form = await publishedForm(url, key)
    const ids: Record<string, string> = { id: String(form.formId), formId: String(form.formId), accountId: "1" }
    const routes = await writeRoutes(url, (name) => ids[name] ?? "1")

    // The application's session: the first start's one-time sign-in link, redeemed from the app's own page.
    const token = server.stdout().match(/\/app\/sign-in\/link\/([A-Za-z0-9_-]+)/)![1]!
    const signedIn = await fetch(`${url}/app/sign-in/link/${token}`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: url }
    })
    const cookie = signedIn.headers
      .getSetCookie()
      .find((c) => c.startsWith("qforms_session="))!
      .split(";")[0]!
    const session = (await (await fetch(`${url}/app/session`, { headers: { cookie } })).json()) as { csrfToken: string }
    const sessionCredentials = { cookie, "x-csrf-token": session.csrfToken }

    const before = await snapshot(url, key, form.formId)
    const sessionTally: Tally = { sent: 0, refused: 0, accepted: [] }
    await forge(url, routes, sessionCredentials, sessionTally)
    const afterSession = await snapshot(url, key, form.formId)

    // The bridge: a small host on its own in-memory database, its users signed in by its own cookie.
    let workspaceId = 0
    const bridged = await Qforms.make({
      database: {},
      app: { passwordSignIn: false },
      delivery: { worker: false },
      rateLimit: { requestsPerSecond: 1_000_000, burst: 1_000_000 },
      resolveActor: ({ headers }) => {
        const account = /(?:^|;\s*)host_user=(\d+)/.exec(headers["cookie"] ?? "")?.[1]
        return account === undefined ? null : { workspaceId, accountId: Number(account) }
      }
    })
    const listener = createServer(bridged.nodeHandler)
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve))
    const hostUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`
    host = {
      close: async () => {
        await new Promise<void>((resolve) => listener.close(() => resolve()))
        listener.closeAllConnections()
        await bridged.dispose()
      }
    }
    const hostFirst = await bridged.run(Bootstrap.ensureDefaultWorkspace({ ownerEmail: "host-owner@example.com" }))
    if (hostFirst._tag !== "Some") throw new Error("the host's database was not empty")
    workspaceId = hostFirst.value.workspaceId
    const hostKey = hostFirst.value.key
    const hostForm = await publishedForm(hostUrl, hostKey)
    const hostRoutes = await writeRoutes(hostUrl, (name) =>
      name === "id" || name === "formId" ? String(hostForm.formId) : "1"
    )
    const hostBefore = await snapshot(hostUrl, hostKey, hostForm.formId)
    const bridgeTally: Tally = { sent: 0, refused: 0, accepted: [] }
    await forge(hostUrl, hostRoutes, { cookie: `host_user=${hostFirst.value.ownerAccountId}` }, bridgeTally)
    const hostAfter = await snapshot(hostUrl, hostKey, hostForm.formId)

    // Bearer keys: the same cross-site headers (with a JSON body) are no reason to refuse.
    const created = await fetch(`${url}/api/forms`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...forgeries[1]!.headers },
      body: JSON.stringify({ title: "Bearer from anywhere" })
    })
    const bearerRefused: Array<string> = []
    let bearerSent = 0
    for (const [base, bearer, routeList] of [
      [url, key, routes],
      [hostUrl, hostKey, hostRoutes]
    ] as const) {
      for (const route of routeList) {
        // Not the application's own routes (a key signs no one in to them) nor the key revocation (the key would
        // be gone for the next calls).
        if (route.path.startsWith("/app/") || route.path.startsWith("/api/api-keys/")) continue
        const response = await send(base, route, { authorization: `Bearer ${bearer}` }, forgeries[1])
        const text = await response.text()
        bearerSent++
        if (response.status === 401 || response.status === 415 || /cross-site/.test(text))
          bearerRefused.push(`${route.method} ${route.path}: ${response.status} ${text.slice(0, 120)}`)
      }
    }
    // Same-origin writes of the session still work (the control).
    const own = await fetch(`${url}/api/forms`, {
      method: "POST",
      headers: {
        ...sessionCredentials,
        "content-type": "application/json",
        "sec-fetch-site": "same-origin",
        origin: url
      },
      body: JSON.stringify({ title: "From the app" })
    })

    record({
      scenario: "14 cross-site writes",
      target: target.name,
      figures: {
        "write routes (OpenAPI + /mcp + app)": routes.length,
        "forged session writes refused": `${sessionTally.refused} / ${sessionTally.sent}`,
        "forged bridge writes refused": `${bridgeTally.refused} / ${bridgeTally.sent}`,
        "state changed by forged writes": before !== afterSession || hostBefore !== hostAfter,
        "bearer writes refused as cross-site": `${bearerRefused.length} / ${bearerSent}`,
        "bearer POST /api/forms with a foreign Origin": created.status,
        "same-origin session POST /api/forms": own.status
      },
      notes: [...sessionTally.accepted, ...bridgeTally.accepted, ...bearerRefused].slice(0, 20)
    })
    expect(sessionTally.accepted).toEqual([])
    expect(bridgeTally.accepted).toEqual([])
    expect(afterSession).toBe(before)
    expect(hostAfter).toBe(hostBefore)
    expect(bearerRefused).toEqual([])
    expect(created.status).toBe(201)
    expect(own.status).toBe(201)
  }, 300_000)
})
