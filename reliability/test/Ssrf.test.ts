/**
 * Scenario 8, the SSRF matrix, with the default rule (private targets
 * refused): every internal spelling is refused when subscribing, a name that
 * turns into a loopback address by delivery time is not posted to, and a
 * redirect to a private address is not followed. A receiver listens on the
 * loopback port every URL names, so a leak would show as a post.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Effect from "effect/Effect"
import { afterAll, describe, expect, it } from "vitest"
import * as Sender from "../../packages/core/src/deliveries/Sender.ts"
import {
  call,
  publishedForm,
  receiver,
  record,
  sleep,
  startFresh,
  subscribeHook,
  targets,
  type ProcessDatabase,
  type Receiver,
  type ServerProcess,
  waitUntil
} from "./support/Harness.ts"

const preload = fileURLToPath(new URL("./support/RebindingDns.ts", import.meta.url))

describe("SSRF matrix (default rule)", () => {
  let db: ProcessDatabase | undefined
  let server: ServerProcess | undefined
  const hooks: Array<Receiver> = []
  const dnsDir = mkdtempSync(join(tmpdir(), "qforms-rel-dns-"))
  const dnsFile = join(dnsDir, "dns.json")
  afterAll(async () => {
    await server?.stop()
    for (const hook of hooks) await hook.close()
    await db?.cleanup()
    rmSync(dnsDir, { recursive: true, force: true })
  })

  it("refuses every internal target, at subscription and at delivery; follows no redirect", async () => {
    const hook = await receiver()
    hooks.push(hook)
    const port = hook.state.port
    writeFileSync(
      dnsFile,
      JSON.stringify({ "late.rebind.qforms.test": null, "flip.rebind.qforms.test": "93.184.216.34" })
    )
    db = targets[0]!.make()
    const started = await startFresh(db, {
      QFORMS_ALLOW_PRIVATE_WEBHOOK_TARGETS: "false",
      QFORMS_RELIABILITY_DNS: dnsFile,
      NODE_OPTIONS: `--import=${preload}`
    })
    server = started.server
    const { url, key } = started
    const form = await publishedForm(url, key)
    const subscribe = (targetUrl: string) => subscribeHook(url, key, form.formId, targetUrl)

    const matrix = [
      "127.0.0.1",
      "127.255.255.254",
      "localhost",
      "LOCALHOST.",
      "0.0.0.0",
      "0",
      "[::1]",
      "[::]",
      "[::ffff:127.0.0.1]",
      "[::ffff:7f00:1]",
      "[::ffff:10.0.0.1]",
      "[64:ff9b::7f00:1]",
      "10.0.0.1",
      "10.255.255.255",
      "172.16.0.1",
      "172.31.255.254",
      "192.168.0.1",
      "192.168.255.254",
      "100.64.0.1",
      "100.127.255.254",
      "169.254.169.254",
      "[fc00::1]",
      "[fd00:ec2::254]",
      "[fe80::1]",
      "[febf::1]",
      "2130706433",
      "017700000001",
      "0177.0.0.1",
      "0x7f.0.0.1",
      "0x7f000001",
      "127.1",
      "0xa.0.0.1",
      "012.0.0.1",
      "167772161",
      "0xA9FEA9FE"
    ]
    const outcomes: Array<{ host: string; status: number; error: string }> = []
    for (const host of matrix) {
      const answer = await subscribe(`http://${host}:${port}/hook`)
      outcomes.push({
        host,
        status: answer.status,
        error: typeof answer.body?.error === "string" ? answer.body.error : JSON.stringify(answer.body)
      })
    }
    // https and a user-info trick on the same addresses.
    for (const spelled of [
      `https://127.0.0.1:${port}/hook`,
      `http://example.com@127.0.0.1:${port}/hook`,
      `http://127.0.0.1%2f@example.com/`
    ]) {
      const answer = await subscribe(spelled)
      outcomes.push({
        host: spelled,
        status: answer.status,
        error: String(answer.body?.error ?? JSON.stringify(answer.body))
      })
    }
    const accepted = outcomes.filter((outcome) => outcome.status !== 400)

    // Control: a public address is accepted (removed at once; no response is submitted while it exists).
    const control = await subscribe("http://93.184.216.34/hook")
    expect(control.status).toBe(201)
    expect((await call(url, "DELETE", `/api/webhooks/subscribe/${control.body.id}`, { key })).status).toBe(204)

    // A name that resolves to nothing now (accepted: delivery checks again) or to a public address now,
    // and to loopback by delivery time.
    const late = await subscribe(`http://late.rebind.qforms.test:${port}/hook`)
    const flip = await subscribe(`http://flip.rebind.qforms.test:${port}/hook`)
    expect(late.status).toBe(201)
    expect(flip.status).toBe(201)
    writeFileSync(
      dnsFile,
      JSON.stringify({ "late.rebind.qforms.test": "127.0.0.1", "flip.rebind.qforms.test": "127.0.0.1" })
    )
    const submitted = await call(url, "POST", `/api/forms/${form.formId}/responses`, {
      key,
      body: { values: { [form.nameId]: "Mallory", [form.emailId]: "m@example.com" } }
    })
    expect(submitted.status).toBe(201)
    const finalStatus = async (id: string) => {
      const log = await call(url, "GET", `/api/webhooks/subscribe/${id}/deliveries`, { key })
      const delivery = log.body.deliveries?.[0]
      return delivery?.status === "failed" ? (delivery as { attempts: Array<{ error: string | null }> }) : undefined
    }
    const lateLog = await waitUntil("the rebound delivery to fail", () => finalStatus(late.body.id), 20_000)
    const flipLog = await waitUntil("the flipped delivery to fail", () => finalStatus(flip.body.id), 20_000)
    await sleep(500)

    // A 302 to a private address is not followed (the sender itself, with a target vetted as if public).
    const inner = await receiver()
    hooks.push(inner)
    const redirecting = await receiver({ status: 302 })
    hooks.push(redirecting)
    const redirectServer = await import("node:http").then(({ createServer }) => {
      const s = createServer((_request, response) => {
        response.writeHead(302, { location: `http://127.0.0.1:${inner.state.port}/hook` }).end()
      })
      return new Promise<typeof s>((resolve) => s.listen(0, "127.0.0.1", () => resolve(s)))
    })
    const redirectPort = (redirectServer.address() as { port: number }).port
    const sent = await Effect.runPromise(
      Sender.post(
        { url: new URL(`http://hooks.example.com:${redirectPort}/hook`), address: "127.0.0.1", family: 4 },
        "{}",
        {},
        { timeoutMs: 2_000, userAgent: "qforms-reliability" }
      )
    )
    redirectServer.close()

    record({
      scenario: "8 SSRF matrix",
      target: "pglite",
      figures: {
        "targets tried": outcomes.length,
        "refused at subscription (400)": outcomes.length - accepted.length,
        accepted: accepted.length,
        "rebound names posted to": hook.received.length,
        "redirect followed": inner.received.length > 0,
        "public control accepted": control.status === 201
      },
      notes: [
        `rebound name refused at delivery: "${lateLog.attempts.at(-1)?.error ?? ""}"`,
        `the redirect row runs core's Sender in the suite's process with a target vetted as if public (a public receiver is not available here); it answered status ${sent.status}`,
        ...accepted.map((outcome) => `ACCEPTED ${outcome.host}: ${outcome.status} ${outcome.error}`)
      ]
    })
    expect(accepted).toEqual([])
    for (const outcome of outcomes) expect(outcome.error).toMatch(/\w/)
    expect(hook.received).toEqual([])
    expect(lateLog.attempts.at(-1)?.error).toMatch(/loopback/)
    expect(flipLog.attempts.at(-1)?.error).toMatch(/loopback/)
    expect(sent.status).toBe(302)
    expect(inner.received).toEqual([])
    expect(redirecting.received).toEqual([])
  })
})
