/**
 * The client as a user installs it: built and packed (`npm pack`), installed from the tarball into a plain Node
 * ESM project in a temporary directory outside the workspace (nothing resolves from this monorepo; the client has
 * no dependencies, so no registry is asked), where a script uses it against a live server on loopback, and a
 * TypeScript file using it type-checks with `tsc` (NodeNext) against the tarball's types.
 */
import { execFile } from "node:child_process"
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { seedWorkspace } from "@qforms/test-kit/PublicForms"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const packageDir = fileURLToPath(new URL("..", import.meta.url))
const tsc = fileURLToPath(new URL("../../../node_modules/typescript/bin/tsc", import.meta.url))

/** Runs a command; resolves with its exit code and output, never rejects. */
const run = (command: string, args: ReadonlyArray<string>, cwd: string) =>
  new Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string }>((resolve) => {
    execFile(command, [...args], { cwd, timeout: 400_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
      resolve({ code, stdout, stderr })
    })
  })

/**
 * The client's tarball: the one `npm run test:packages` packed with every other package (`QFORMS_PACKED_CLIENT`),
 * or, when this file runs on its own, built and packed here.
 */
const packedClient = process.env.QFORMS_PACKED_CLIENT

const buildAndPack = async (work: string) => {
  const built = await run("npm", ["run", "build"], packageDir)
  if (built.code !== 0) throw new Error(`build failed: ${built.stdout}${built.stderr}`)
  const packed = await run("npm", ["pack", "--pack-destination", work], packageDir)
  if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`)
  return join(work, (await readdir(work)).find((name) => name.endsWith(".tgz"))!)
}

/** The user's script: plain JavaScript, importing the installed package by name. */
const script = `
import { createClient, isQformsError, signWebhook, verifyWebhook } from "@qforms/client"

const [baseUrl, apiKey] = process.argv.slice(2)
const qforms = createClient({ baseUrl, apiKey })
const form = await qforms.POST("/api/forms", {
  body: { title: "Packed", fields: [{ type: "short_text", label: "Name", required: true }, { type: "file", label: "File" }] }
})
await qforms.PATCH("/api/forms/{id}", { params: { path: { id: form.id } }, body: { status: "published" } })
const [name, file] = form.fields
const anonymous = createClient({ baseUrl })
const upload = await anonymous.POST("/f/{publicId}/uploads", {
  params: { path: { publicId: form.publicId }, query: { fieldId: file.id } },
  body: { file: new File(["hello"], "hello.txt", { type: "text/plain" }) }
})
for (const person of ["Ada", "Grace", "Hedy"])
  await anonymous.POST("/f/{publicId}/responses", {
    params: { path: { publicId: form.publicId } },
    body: { values: { [name.id]: person, [file.id]: person === "Ada" ? upload : null } }
  })
const names = []
for await (const row of qforms.paginate("/api/forms/{formId}/responses", { params: { path: { formId: form.id }, query: { limit: 2, flat: "1" } } }, "responses"))
  names.push(row.answers.Name)
let missing = null
try {
  await qforms.GET("/api/forms/{id}", { params: { path: { id: 2147483647 } } })
} catch (error) {
  missing = isQformsError(error, 404) ? error.status : String(error)
}
const secret = "whsec_" + btoa("a key of the packed client's test")
const body = JSON.stringify({ event: "form.published", form: { id: form.id, title: form.title } })
const event = await verifyWebhook(secret, body, await signWebhook(secret, "msg_1", Date.now() / 1000, body))
process.stdout.write(JSON.stringify({ names: names.sort(), missing, event: event.event, upload: upload.name }))
`

/** A TypeScript user of the package: must type-check against the tarball's declarations. */
const typed = `
import { createClient, type Data, type WebhookEvent } from "@qforms/client"

const qforms = createClient({ baseUrl: "https://forms.example.com/forms-service", apiKey: "qk_live_x" })
export const form: Promise<Data<"/api/forms/{id}", "get">> = qforms.GET("/api/forms/{id}", { params: { path: { id: 1 } } })
export const title = async (): Promise<string> => (await form).title
export const id = (event: WebhookEvent): number | undefined => (event.event === "response.created" ? event.responseId : undefined)
// @ts-expect-error: no such path
qforms.GET("/api/nothing")
`

describe("the packed client in a plain Node ESM project outside the workspace", () => {
  let server: TestServer
  let key: string
  let work: string

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "qforms-client-"))
    const tarball = packedClient ?? (await buildAndPack(work))
    const project = join(work, "project")
    await run("mkdir", [project], work)
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({
        name: "a-user",
        private: true,
        type: "module",
        dependencies: { "@qforms/client": `file:${tarball}` }
      })
    )
    await writeFile(join(project, "main.mjs"), script)
    await writeFile(join(project, "typed.ts"), typed)
    await writeFile(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          lib: ["ES2023", "DOM"],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: []
        },
        files: ["typed.ts"]
      })
    )
    const installed = await run("npm", ["install", "--offline", "--no-audit", "--no-fund"], project)
    if (installed.code !== 0) throw new Error(`npm install failed: ${installed.stdout}${installed.stderr}`)
    server = await startTestServer(databaseTargets[0]!, { publicPage: { minSubmitSeconds: 0 } })
    key = (await seedWorkspace(server)).key
  }, 480_000)

  afterAll(async () => {
    await server?.close()
    if (work !== undefined) await rm(work, { recursive: true, force: true })
  })

  it("runs against the live server: create, publish, upload, submit, page through, a typed 404, a webhook", async () => {
    const result = await run(process.execPath, ["main.mjs", server.url, key], join(work, "project"))
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({
      names: ["Ada", "Grace", "Hedy"],
      missing: 404,
      event: "form.published",
      upload: "hello.txt"
    })
  })

  it("type-checks a TypeScript user against the tarball's declarations", async () => {
    const checked = await run(process.execPath, [tsc, "-p", "tsconfig.json"], join(work, "project"))
    expect(checked.stdout + checked.stderr).toBe("")
    expect(checked.code).toBe(0)
  }, 120_000)
})
