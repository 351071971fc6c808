/**
 * A webhook receiver on a loopback port, shared by the tests that watch
 * deliveries arrive (wait for them with `waitFor` from Conditions.ts).
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"

/** One post the receiver got. */
export interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/** A receiver answering each post with the next status of its script (the last one repeats), keeping what it got. */
export const receiver = async (script: ReadonlyArray<number> = [200], headers: Record<string, string> = {}) => {
  const received: Array<Received> = []
  const server: Server = createServer((request, response) => {
    let body = ""
    request.setEncoding("utf8")
    request.on("data", (chunk: string) => (body += chunk))
    request.on("end", () => {
      received.push({ headers: request.headers, body })
      const status = script[Math.min(received.length - 1, script.length - 1)]!
      response.writeHead(status, { "content-type": "text/plain", ...headers }).end(`answer ${received.length}`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
