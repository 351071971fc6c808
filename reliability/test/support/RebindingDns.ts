/**
 * Loaded into the server process (`node --import`) by the SSRF scenario: a DNS
 * of the test's own for names under `.rebind.qforms.test`, answering what the
 * file named by QFORMS_RELIABILITY_DNS holds at that moment
 * (`{"name": "address" | null}`; null: no such name). Every other name goes to
 * the system resolver. This lets a name change its address between the
 * subscription and the delivery, as a rebinding attack would.
 */
import dns from "node:dns"
import { readFileSync } from "node:fs"
import { syncBuiltinESMExports } from "node:module"
import { isIP } from "node:net"

const file = process.env.QFORMS_RELIABILITY_DNS ?? ""
const original = dns.lookup
type Callback = (error: NodeJS.ErrnoException | null, address: unknown, family?: number) => void

const patched = (hostname: string, options: unknown, callback?: unknown): void => {
  const done = (typeof options === "function" ? options : callback) as Callback
  const opts = (typeof options === "object" && options !== null ? options : {}) as { all?: boolean }
  if (!hostname.endsWith(".rebind.qforms.test")) {
    // biome-ignore lint/correctness/noVoidTypeReturn: hands the call to the original lookup unchanged
    return (original as any)(hostname, options, callback)
  }
  const table = JSON.parse(readFileSync(file, "utf8")) as Record<string, string | null>
  const address = table[hostname] ?? null
  process.nextTick(() => {
    if (address === null) {
      const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`)
      error.code = "ENOTFOUND"
      return done(error, undefined)
    }
    const family = isIP(address)
    if (opts.all === true) done(null, [{ address, family }])
    else done(null, address, family)
  })
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
;(dns as any).lookup = patched
syncBuiltinESMExports()
