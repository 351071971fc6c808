/**
 * qforms on a loopback port, reachable both at the root and under a mount
 * prefix (`/forms-service`), the way the adapters mount it: the path made
 * relative to the prefix and `x-forwarded-prefix` set. Plus a raw GET that
 * keeps the bytes as sent (no decompression), for the caching tests.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Qforms } from "@qforms/core"
import type { DatabaseTarget } from "./Databases.ts"

export const prefix = "/forms-service"

export interface PrefixServer {
  /** `http://127.0.0.1:<port>` (qforms at the root; under {@link prefix} too). */
  readonly url: string
  readonly close: () => Promise<void>
}

/** Starts qforms on the target's database with the given options, served at the root and under {@link prefix}. */
export const startPrefixServer = async (
  target: DatabaseTarget,
  options: Omit<Qforms.QformsOptions, "database"> = {}
): Promise<PrefixServer> => {
  const { database, cleanup } = target.options()
  const qforms = await Qforms.make({ logLevel: "Error", delivery: { worker: false }, ...options, database })
  const server: Server = createServer((request, response) => {
    const url = request.url ?? "/"
    if (url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`)) {
      request.url = url.slice(prefix.length).replace(/^(?!\/)/, "/")
      request.headers["x-forwarded-prefix"] = prefix
    }
    qforms.nodeHandler(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await qforms.dispose()
      await cleanup()
    }
  }
}

export interface RawReply {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  /** The body exactly as sent (still compressed when `content-encoding` says so). */
  readonly body: Buffer
}

/** A GET whose body is kept as sent. */
export const rawGet = (url: string, headers: Record<string, string> = {}, method = "GET"): Promise<RawReply> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) })
      )
      response.on("error", reject)
    })
    req.on("error", reject)
    req.end()
  })

/** The directives of a CSP header, by name. */
export const cspDirectives = (header: string | Array<string> | undefined): Map<string, ReadonlyArray<string>> =>
  new Map(
    String(header ?? "")
      .split(";")
      .map((d) => d.trim())
      .filter((d) => d !== "")
      .map((d) => {
        const [name = "", ...sources] = d.split(/\s+/)
        return [name.toLowerCase(), sources] as const
      })
  )
