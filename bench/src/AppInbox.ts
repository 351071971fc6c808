/**
 * The application's inbox with 10,000 responses on the embedded database
 * (the standalone's): how long the first page of the list takes through the
 * API with a session, and how long the inbox screen takes in Chromium until
 * its first rows show. Run: `node --conditions=source bench/src/AppInbox.ts`.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Actors, Forms, Qforms, Responses, Sessions, Workspaces } from "@qforms/core"
import * as Effect from "effect/Effect"
import { chromium } from "playwright-core"

const count = Number(process.env["INBOX_RESPONSES"] ?? 10_000)
const dataDir = mkdtempSync(join(tmpdir(), "qforms-inbox-"))
const qforms = await Qforms.make({ database: { dataDir }, app: true, logLevel: "Error", delivery: { worker: false } })
const formId = await qforms.run(
  Effect.gen(function* () {
    const { workspace } = yield* (yield* Workspaces.Workspaces).create({
      name: "Bench",
      ownerEmail: "bench@example.com"
    })
    yield* (yield* Sessions.Sessions).setPassword("bench@example.com", "bench password 1")
    const actor = Actors.system(workspace.id)
    const form = yield* (yield* Forms.Forms).create(actor, {
      title: "Inbox bench",
      fields: [
        { type: "short_text", label: "Name", required: true, options: null },
        { type: "email", label: "Email", required: true, options: null },
        { type: "long_text", label: "Message", required: false, options: null }
      ]
    })
    yield* (yield* Forms.Forms).update(actor, form.id, { status: "published" })
    const full = yield* (yield* Forms.Forms).get(actor, form.id)
    const [name, email, message] = full.fields.map((f) => String(f.id))
    const responses = yield* Responses.Responses
    const started = performance.now()
    for (let i = 0; i < count; i++) {
      yield* responses.submit(
        actor,
        form.id,
        {
          values: { [name!]: `Person ${i}`, [email!]: `person${i}@example.com`, [message!]: `Message number ${i}` }
        },
        "api"
      )
    }
    console.log(`seeded ${count} responses in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    return form.id
  })
)
const server = createServer(qforms.nodeHandler)
server.on("upgrade", (request, socket, head) => void (qforms.upgradeHandler(request, socket, head) || socket.destroy()))
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

const signIn = await fetch(`${url}/app/sign-in`, {
  method: "POST",
  redirect: "manual",
  headers: { "content-type": "application/x-www-form-urlencoded", origin: url },
  body: "email=bench%40example.com&password=bench+password+1"
})
const cookie = signIn.headers.getSetCookie()[0]!.split(";")[0]!
const times: Array<number> = []
for (let i = 0; i < 10; i++) {
  const t = performance.now()
  const response = await fetch(`${url}/api/forms/${formId}/responses?limit=100`, { headers: { cookie } })
  await response.json()
  times.push(performance.now() - t)
}
times.sort((a, b) => a - b)
console.log(`API first page (100 of ${count}): median ${times[5]!.toFixed(1)} ms, max ${times[9]!.toFixed(1)} ms`)

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu"]
})
const context = await browser.newContext()
await context.addCookies([{ name: "qforms_session", value: cookie.split("=")[1]!, url }])
const page = await context.newPage()
const loads: Array<number> = []
for (let i = 0; i < 5; i++) {
  const t = performance.now()
  await page.goto(`${url}/app/forms/${formId}/responses`)
  await page.getByRole("link", { name: `Person ${count - 1}`, exact: true }).waitFor()
  loads.push(performance.now() - t)
}
loads.sort((a, b) => a - b)
console.log(
  `inbox screen until the first rows show: first ${loads[loads.length - 1]!.toFixed(0)} ms (cold), median ${loads[2]!.toFixed(0)} ms`
)
await browser.close()
server.close()
await qforms.dispose()
rmSync(dataDir, { recursive: true, force: true })
