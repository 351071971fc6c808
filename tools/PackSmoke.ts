/**
 * `npm run test:packages`: what a user gets from the registry, checked outside the workspace.
 *
 * Builds and packs every published package (`npm pack`; the embed kit too, which core serves at
 * `/embed.js`), installs the tarballs together with express, h3 and crossws from the registry into a host app in a temporary directory (under
 * `os.tmpdir()`, so nothing resolves from this monorepo), and runs one host per adapter there
 * (`node:http`, Express, h3; one qforms, one server per adapter), each mounting it under `/forms-service`. Against each it
 * checks: the API (create and publish a form, submit, list), the public page (GET, a step without
 * JavaScript, a step as its script posts it), `/api/docs`, `/api/openapi.json` (`servers` under the
 * prefix), `/embed.js`, the application (`/app` and its assets, preact resolved from the installed packages),
 * MCP (`initialize` and `tools/list` over HTTP) and the live event stream (a WebSocket receives the
 * submission's `response.created`); and the installed `@qforms/client` under the prefix (a form made, every response
 * paged through, a typed 404). Exits non-zero with the failed check named.
 *
 * Then the `packed*` Vitest projects run on the same tarballs (packed once): `@qforms/client`'s
 * `Packed.test.ts` installs the client's tarball (`QFORMS_PACKED_CLIENT`) into a plain project and type-checks a
 * user of it, and core's `GeneratedClient.test.ts` generates a client from the served document.
 *
 * `--keep` leaves the temporary directory in place (its path is printed); `--no-build` packs the
 * `dist` directories as they are (CI: right after `npm run lint:packages`, which builds them).
 */
import { spawn, spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const published = [
  "packages/embed",
  "packages/core",
  "packages/node-http",
  "packages/express",
  "packages/h3",
  "packages/client"
] as const
const hosts = ["node-http", "express", "h3"] as const
const prefix = "/forms-service"
const started = performance.now()
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`

const log = (line: string) => process.stdout.write(`[pack-smoke ${elapsed()}] ${line}\n`)

/** Runs a command to completion, its output shown; throws when it fails. */
const run = (command: string, args: ReadonlyArray<string>, cwd: string): string => {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? "")
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd} (exit ${result.status ?? result.signal})`)
  }
  return result.stdout
}

/** The `devDependencies` of a package of the workspace. */
const devDependencies = (dir: string) =>
  (JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as { devDependencies: Record<string, string> })
    .devDependencies

/** Fails the run with the check's name. */
const check = (condition: unknown, what: string): void => {
  if (!condition) throw new Error(`check failed: ${what}`)
}

/** Polls `probe` until it returns something, up to `ms`. */
const waitFor = async <A>(what: string, ms: number, probe: () => A | undefined): Promise<A> => {
  const deadline = performance.now() + ms
  for (;;) {
    const value = probe()
    if (value !== undefined) return value
    if (performance.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

// The host apps a user would write, in plain JavaScript: one qforms, mounted by each adapter in a server of its own
// (node:http, Express, h3), each under the prefix. It prints `READY {key, urls}` once every server listens.
const hostSource = `
import { createServer } from "node:http"
import { Bootstrap, Qforms } from "@qforms/core"
import { toNodeHandler } from "@qforms/node-http"
import { toExpressMiddleware } from "@qforms/express"
import { toH3Handler } from "@qforms/h3"
import express from "express"
import { H3, serve } from "h3"
import { plugin as ws } from "crossws/server"

const prefix = ${JSON.stringify(prefix)}
const qforms = await Qforms.make({
  database: {},                         // embedded PGlite, in memory
  app: true,                            // the application at /app
  publicPage: { minSubmitSeconds: 0 },  // the smoke answers faster than a person
  logLevel: "Warn",
  // Three servers on ports chosen at start share this qforms: there is no one address for the links that
  // deliveries carry (appUrl), so this smoke sends none.
  delivery: { worker: false }
})
const first = await qforms.run(Bootstrap.ensureDefaultWorkspace({ ownerEmail: "owner@localhost" }))
if (first._tag !== "Some") throw new Error("no first start")

// node:http
const forms = toNodeHandler(qforms, { prefix })
const plain = createServer((req, res) => {
  if (forms(req, res)) return
  res.writeHead(404).end("host: not found")
})
plain.on("upgrade", (req, socket, head) => {
  if (!forms.upgrade(req, socket, head)) socket.destroy()
})
await new Promise((resolve) => plain.listen(0, "127.0.0.1", resolve))

// Express, with its own body parser before qforms
const app = express()
app.use(express.json())
app.get("/", (_req, res) => res.send("host"))
const middleware = toExpressMiddleware(qforms)
app.use(prefix, middleware)
const expressServer = await new Promise((resolve) => { const s = app.listen(0, "127.0.0.1", () => resolve(s)) })
middleware.attach(expressServer, prefix)

// h3, with crossws for WebSockets
const h3 = new H3()
h3.get("/", () => "host")
h3.mount(prefix, toH3Handler(qforms))
const h3Server = serve(h3, { port: 0, hostname: "127.0.0.1", plugins: [ws({})], silent: true, gracefulShutdown: false })
await h3Server.ready()

const url = (server) => "http://127.0.0.1:" + server.address().port
process.stdout.write("READY " + JSON.stringify({
  key: first.value.key,
  signInToken: first.value.signInToken,
  urls: { "node-http": url(plain), express: url(expressServer), h3: url(h3Server.node.server) }
}) + "\\n")

process.on("SIGTERM", () => {
  plain.closeAllConnections()
  expressServer.closeAllConnections()
  void Promise.resolve(h3Server.close(true)).then(() => qforms.dispose()).then(() => process.exit(0), () => process.exit(1))
})
`

interface Running {
  readonly key: string
  readonly signInToken: string
  readonly urls: Readonly<Record<string, string>>
  readonly stop: () => Promise<void>
}

/** Starts the host app with the workspace's Node 24 (this process') and waits for its `READY` line. */
const startHost = (app: string): Promise<Running> =>
  new Promise((resolveStart, rejectStart) => {
    const child = spawn(process.execPath, ["host.mjs"], { cwd: app, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    let ready = false
    const exited = new Promise<void>((resolveExit) => child.once("exit", () => resolveExit()))
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      rejectStart(new Error(`the host app printed no READY line within 90 s:\n${output}`))
    }, 90_000)
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      process.stderr.write(`[host] ${chunk.toString()}`)
    })
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const line = /^READY (.*)$/m.exec(output)
      if (line === null || ready) return
      ready = true
      clearTimeout(timer)
      const { key, signInToken, urls } = JSON.parse(line[1]!) as {
        key: string
        signInToken: string
        urls: Record<string, string>
      }
      resolveStart({
        key,
        signInToken,
        urls,
        stop: async () => {
          child.kill("SIGTERM")
          const killer = setTimeout(() => child.kill("SIGKILL"), 10_000)
          await exited
          clearTimeout(killer)
        }
      })
    })
    child.once("exit", (code) => {
      if (!ready) {
        clearTimeout(timer)
        rejectStart(new Error(`the host app exited (${code}) before READY:\n${output}`))
      }
    })
  })

/** The value of a hidden input of a public page. */
const hidden = (html: string, name: string): string => {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html)
  if (match === null) throw new Error(`check failed: no input ${name} in the page: ${html.slice(0, 500)}`)
  return match[1]!
}

/** Every check against one running host. */
const smoke = async (
  host: string,
  key: string,
  url: string,
  session: { readonly signInToken: string; cookie?: string }
): Promise<void> => {
  const base = `${url}${prefix}`
  const auth = { authorization: `Bearer ${key}` }
  const json = { ...auth, "content-type": "application/json" }

  // The host's own routes still work beside qforms (node-http has none: its 404).
  const own = await fetch(`${url}/`)
  check(host === "node-http" ? own.status === 404 : own.status === 200, `${host}: the host's own GET / (${own.status})`)

  // OpenAPI document and docs page, under the prefix.
  const openapi = await fetch(`${base}/api/openapi.json`)
  check(openapi.status === 200, `${host}: GET ${prefix}/api/openapi.json is 200 (${openapi.status})`)
  const document = (await openapi.json()) as { servers?: ReadonlyArray<{ url: string }>; paths?: object }
  check(
    document.servers?.[0]?.url === base,
    `${host}: openapi servers[0].url is ${base} (${JSON.stringify(document.servers)})`
  )
  check(Object.keys(document.paths ?? {}).length > 10, `${host}: openapi has the paths`)
  const docs = await fetch(`${base}/api/docs`)
  const docsHtml = await docs.text()
  check(
    docs.status === 200 && /<html/i.test(docsHtml),
    `${host}: GET ${prefix}/api/docs is an HTML page (${docs.status})`
  )
  // Its script (Scalar's bundle, read from the installed effect package) under the prefix too.
  const scriptSrc = /<script src="([^"]+)"><\/script>/.exec(docsHtml)?.[1] ?? ""
  check(
    scriptSrc.startsWith(`${prefix}/api/docs/scalar-`),
    `${host}: the docs page names its script under ${prefix} (${scriptSrc})`
  )
  const script = await fetch(`${new URL(base).origin}${scriptSrc}`)
  check(
    script.status === 200 && (await script.text()).includes("createApiReference"),
    `${host}: GET ${scriptSrc} is Scalar's script (${script.status})`
  )
  // The welcome page: the prefix's root.
  const welcome = (await (await fetch(`${base}/`)).json()) as { docs?: string }
  check(
    welcome.docs === `${base}/api/docs`,
    `${host}: GET ${prefix}/ names the docs at ${base}/api/docs (${welcome.docs})`
  )

  // The live event stream: open before the submission, so it must carry its event.
  const events: Array<{ event: string; responseId: number }> = []
  const socket = new WebSocket(`${base.replace(/^http/, "ws")}/api/events`, ["qforms.v1", `qforms.bearer.${key}`])
  let socketError: string | undefined
  socket.onmessage = (message) => events.push(JSON.parse(String(message.data)) as { event: string; responseId: number })
  socket.onerror = () => (socketError = "error")
  await waitFor(`${host}: the event stream to open`, 10_000, () => {
    if (socketError !== undefined) throw new Error(`check failed: ${host}: the event stream upgrade was refused`)
    return socket.readyState === WebSocket.OPEN ? true : undefined
  })
  check(socket.protocol === "qforms.v1", `${host}: the event stream selects qforms.v1 (${socket.protocol})`)

  // API: a form with two questions, published; a response; the list.
  const created = await fetch(`${base}/api/forms`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({
      title: "Packaging smoke",
      fields: [
        { type: "short_text", label: "Name", required: true },
        { type: "email", label: "Email", required: true }
      ]
    })
  })
  check(
    created.status === 201,
    `${host}: POST ${prefix}/api/forms is 201 (${created.status} ${await created.clone().text()})`
  )
  const form = (await created.json()) as { id: number }
  const published = await fetch(`${base}/api/forms/${form.id}`, {
    method: "PATCH",
    headers: json,
    body: JSON.stringify({ status: "published" })
  })
  check(published.status === 200, `${host}: PATCH the form to published (${published.status})`)
  const detail = (await (await fetch(`${base}/api/forms/${form.id}`, { headers: auth })).json()) as {
    publicId: string
    fields: ReadonlyArray<{ id: number; label: string }>
  }
  const [name, email] = detail.fields
  check(name !== undefined && email !== undefined, `${host}: the form has its two questions`)
  const submitted = await fetch(`${base}/api/forms/${form.id}/responses`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ values: { [name!.id]: "Ada Lovelace", [email!.id]: "ada@example.com" } })
  })
  check(
    submitted.status === 201,
    `${host}: POST a response is 201 (${submitted.status} ${await submitted.clone().text()})`
  )
  const response = (await submitted.json()) as { id: number }
  const event = await waitFor(`${host}: response.created of response ${response.id} on the event stream`, 10_000, () =>
    events.find((e) => e.event === "response.created" && e.responseId === response.id)
  )
  check(event !== undefined, `${host}: the event stream carried the submission`)
  socket.close()

  // The embed kit, served from the installed @qforms/embed under the prefix.
  const embed = await fetch(`${base}/embed.js`)
  const embedText = await embed.text()
  check(
    embed.status === 200 &&
      embedText.includes("export const inline") &&
      embed.headers.get("access-control-allow-origin") === "*",
    `${host}: GET ${prefix}/embed.js is the embed kit (${embed.status})`
  )

  // Public page without JavaScript: GET, then the steps as url-encoded posts, to the thank-you screen.
  const pagePath = `${base}/f/${detail.publicId}`
  const page = await fetch(pagePath)
  let html = await page.text()
  check(
    page.status === 200 && html.includes("Packaging smoke"),
    `${host}: GET ${prefix}/f/{publicId} shows the form (${page.status})`
  )
  check(
    /<script nonce="/.test(html) && html.includes('"x-qforms-page": "1"'),
    `${host}: the page carries its script (the JavaScript path, pages/static/page.js from the tarball)`
  )
  const step = async (answers: ReadonlyArray<string>, move: "start" | "next") => {
    const body = new URLSearchParams([
      ["token", hidden(html, "token")],
      ["at", hidden(html, "at")],
      ["website", ""]
    ])
    for (const answer of answers) body.append("a", answer)
    body.append("move", move)
    const reply = await fetch(pagePath, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body
    })
    check(reply.status === 200, `${host}: a no-JS step (${move}) is 200 (${reply.status})`)
    html = await reply.text()
  }
  await step([], "start")
  check(html.includes("Name"), `${host}: the no-JS start shows the first question`)
  await step(["Grace Hopper"], "next")
  check(html.includes("Email"), `${host}: the no-JS step shows the second question`)

  // The same step as the page's script posts it (multipart, x-qforms-page): the next screen in <main id="qf">.
  const data = new FormData()
  data.set("token", hidden(html, "token"))
  data.set("at", hidden(html, "at"))
  data.set("website", "")
  data.set("a", "grace@example.com")
  data.set("move", "next")
  const scripted = await fetch(pagePath, { method: "POST", headers: { "x-qforms-page": "1" }, body: data })
  const done = await scripted.text()
  check(
    scripted.status === 200 && done.includes(`id="qf"`),
    `${host}: a step as the page's script posts it (${scripted.status})`
  )

  const list = await fetch(`${base}/api/forms/${form.id}/responses`, { headers: auth })
  check(list.status === 200, `${host}: GET the responses is 200 (${list.status})`)
  const responses = ((await list.json()) as { responses: ReadonlyArray<{ id: number; source: string }> }).responses
  check(responses.length === 2, `${host}: the list has the API's and the page's responses (${responses.length})`)
  check(
    responses.some((r) => r.source === "form"),
    `${host}: the page's response has source "form"`
  )

  // The application: signed out, a redirect to its sign-in page; signed in (the owner's one-time link, redeemed on the
  // first host, its session shared by all, as they share one qforms), the shell and its assets, the vendor modules
  // resolved from the installed preact and htm.
  const signedOut = await fetch(`${base}/app`, { redirect: "manual" })
  check(
    signedOut.status === 303 && signedOut.headers.get("location")?.startsWith(`${prefix}/app/sign-in`),
    `${host}: GET ${prefix}/app signed out redirects to ${prefix}/app/sign-in (${signedOut.status} ${signedOut.headers.get("location")})`
  )
  if (session.cookie === undefined) {
    const link = await fetch(`${base}/app/sign-in/link/${session.signInToken}`)
    check(
      link.status === 200 && (await link.text()).includes(`action="${prefix}/app/sign-in/link/`),
      `${host}: the sign-in link page posts under the prefix`
    )
    const redeemed = await fetch(`${base}/app/sign-in/link/${session.signInToken}`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: url }
    })
    check(
      redeemed.status === 303,
      `${host}: redeeming the sign-in link is 303 (${redeemed.status} ${await redeemed.text()})`
    )
    session.cookie = redeemed.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ")
  }
  const shell = await fetch(`${base}/app`, { redirect: "manual", headers: { cookie: session.cookie } })
  const shellHtml = await shell.text()
  check(
    shell.status === 200 && shellHtml.includes(`${prefix}/app/assets/main.js`),
    `${host}: GET ${prefix}/app signed in is the shell under the prefix (${shell.status})`
  )
  // The application's modules are @qforms/app's, which is never published: core's tarball carries them.
  for (const asset of [
    "main.js",
    "app.css",
    "shared/Api.js",
    "settings/SettingsScreen.js",
    "vendor/preact.mjs",
    "vendor/htm.mjs"
  ]) {
    const reply = await fetch(`${base}/app/assets/${asset}`)
    const text = await reply.text()
    check(
      reply.status === 200 && text.length > 0,
      `${host}: GET ${prefix}/app/assets/${asset} is 200 (${reply.status})`
    )
  }

  // MCP over HTTP: initialize, then tools/list.
  const mcp = async (id: number, method: string, params: object) => {
    const reply = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { ...json, accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id, method, params })
    })
    check(reply.status === 200, `${host}: MCP ${method} is 200 (${reply.status})`)
    return (await reply.json()) as { result?: { serverInfo?: unknown; tools?: ReadonlyArray<{ name: string }> } }
  }
  const initialized = await mcp(1, "initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "pack-smoke", version: "1" }
  })
  check(initialized.result?.serverInfo !== undefined, `${host}: MCP initialize answers serverInfo`)
  const tools = await mcp(2, "tools/list", {})
  const names = (tools.result?.tools ?? []).map((t) => t.name)
  check(
    names.includes("create_form") && names.includes("list_responses"),
    `${host}: MCP tools/list has the tools (${names.join(", ")})`
  )
}

/** The installed `@qforms/client` (imported from the host app's node_modules, not the workspace) under the prefix. */
const clientSmoke = async (host: string, app: string, key: string, url: string): Promise<void> => {
  const entry = join(app, "node_modules", "@qforms", "client", "dist", "index.js")
  const { createClient, isQformsError } = (await import(pathToFileURL(entry).href)) as typeof import("@qforms/client")
  const qforms = createClient({ baseUrl: `${url}${prefix}`, apiKey: key })
  const form = await qforms.POST("/api/forms", {
    body: { title: "Client smoke", fields: [{ type: "short_text", label: "Name" }] }
  })
  await qforms.PATCH("/api/forms/{id}", { params: { path: { id: form.id } }, body: { status: "published" } })
  const name = form.fields[0]!
  for (const person of ["Ada", "Grace", "Hedy"])
    await qforms.POST("/api/forms/{formId}/responses", {
      params: { path: { formId: form.id } },
      body: { values: { [name.id]: person } }
    })
  const ids: Array<number> = []
  const init = { params: { path: { formId: form.id }, query: { limit: 2 } } }
  for await (const row of qforms.paginate("/api/forms/{formId}/responses", init, "responses")) ids.push(row.id)
  check(
    ids.length === 3,
    `${host}: @qforms/client pages through the form's 3 responses under the prefix (${ids.length})`
  )
  const missing = await qforms.GET("/api/forms/{id}", { params: { path: { id: 2147483647 } } }).catch((e: unknown) => e)
  check(isQformsError(missing, 404), `${host}: @qforms/client throws a QformsError 404 for a missing form`)
}

const main = async () => {
  const work = mkdtempSync(join(tmpdir(), "qforms-pack-smoke-"))
  const keep = process.argv.includes("--keep")
  try {
    if (process.argv.includes("--no-build")) log("using the packages' dist as built (--no-build)")
    else {
      log(`building ${published.join(", ")}`)
      for (const dir of published) run("npm", ["run", "build", "-w", dir], root)
    }

    log(`packing into ${work}`)
    const tarballs: Record<string, string> = {}
    for (const dir of published) {
      const [packed] = JSON.parse(
        run("npm", ["pack", "--json", "--pack-destination", work], join(root, dir))
      ) as Array<{
        name: string
        filename: string
        files: ReadonlyArray<{ path: string }>
      }>
      const files = packed!.files.map((f) => f.path)
      for (const required of ["LICENSE", "README.md", "package.json", "dist/index.js", "dist/index.d.ts"]) {
        check(files.includes(required), `${packed!.name}: the tarball has ${required}`)
      }
      tarballs[packed!.name] = `file:${join(work, packed!.filename)}`
    }

    // The host app: the tarballs, and the hosts' frameworks at the versions the adapters are tested with.
    const app = join(work, "host")
    const versions = { ...devDependencies("packages/express"), ...devDependencies("packages/h3") }
    mkdirSync(app)
    writeFileSync(
      join(app, "package.json"),
      JSON.stringify(
        {
          name: "qforms-pack-smoke-host",
          private: true,
          type: "module",
          dependencies: {
            ...tarballs,
            express: versions["express"],
            h3: versions["h3"],
            crossws: versions["crossws"]
          }
        },
        null,
        2
      )
    )
    writeFileSync(join(app, "host.mjs"), hostSource)
    log("npm install (tarballs + express, h3, crossws from the registry)")
    run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], app)

    log("starting the host app")
    const running = await startHost(app)
    try {
      const session: { readonly signInToken: string; cookie?: string } = { signInToken: running.signInToken }
      for (const host of hosts) {
        await smoke(host, running.key, running.urls[host]!, session)
        await clientSmoke(host, app, running.key, running.urls[host]!)
        log(`${host}: every check passed`)
      }
    } finally {
      await running.stop()
    }
    log("all hosts passed")
    log("the packed* test projects, on the same tarballs")
    const client = tarballs["@qforms/client"]!.slice("file:".length)
    const vitest = spawnSync("npx", ["vitest", "run", "--project", "packed*"], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, QFORMS_PACKED_CLIENT: client }
    })
    check(vitest.status === 0, "the packed* test projects pass")
  } finally {
    if (keep) log(`kept ${work}`)
    else rmSync(work, { recursive: true, force: true })
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `[pack-smoke ${elapsed()}] FAILED: ${error instanceof Error ? error.message : String(error)}\n`
    )
    process.exit(1)
  }
)
