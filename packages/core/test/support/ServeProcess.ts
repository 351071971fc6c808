/**
 * A qforms server as its own process, for tests that kill or duplicate
 * processes. Configured by environment: QFORMS_TEST_DB (`pglite:<dir>` or
 * `postgres:<url>|<schema>`), QFORMS_TEST_APP_URL, QFORMS_TEST_DELIVERY_TIMEOUT_MS
 * (a post's timeout, default 2 s; the delivery's lease is 5 s longer). Prints one JSON line
 * `{"url": …, "key": …}` once listening (`key` only on an empty database).
 */
import { testHttpServer } from "@qforms/test-kit/Loopback"
import type { AddressInfo } from "node:net"
import { Option } from "effect"
import * as Bootstrap from "../../src/Bootstrap.ts"
import * as Qforms from "../../src/Qforms.ts"

const db = process.env.QFORMS_TEST_DB ?? ""
const database = db.startsWith("postgres:")
  ? { url: db.slice("postgres:".length).split("|")[0]!, schema: db.split("|")[1]!, maxConnections: 4 }
  : { dataDir: db.slice("pglite:".length) }

const qforms = await Qforms.make({
  database,
  appUrl: process.env.QFORMS_TEST_APP_URL ?? "http://qforms.test",
  rateLimit: { requestsPerSecond: 100_000, burst: 100_000 },
  logLevel: "Warn",
  delivery: {
    allowPrivateTargets: true,
    schedule: [0, 100, 200, 400, 800],
    timeoutMs: Number(process.env.QFORMS_TEST_DELIVERY_TIMEOUT_MS ?? 2_000),
    pollIntervalMs: 250
  }
})
const first = await qforms.run(Bootstrap.ensureDefaultWorkspace({ ownerEmail: "owner@example.com" }))
const server = testHttpServer(qforms.nodeHandler)
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
const { port } = server.address() as AddressInfo
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, key: Option.getOrUndefined(first)?.key })}\n`)
const stop = () => server.close(() => void qforms.dispose().then(() => process.exit(0)))
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
