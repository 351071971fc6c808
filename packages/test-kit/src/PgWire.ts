/**
 * A loopback proxy in front of PostgreSQL that counts the round trips its
 * clients make, read from the wire protocol itself (not from qforms' own
 * tracing): each simple `Query` message and each `Sync` that ends an
 * extended-protocol statement is one. Tests point a `postgres://` URL at it to
 * hold the statements per request to a number.
 *
 * @example
 * ```ts
 * const counter = await startRoundTripCounter(process.env.QFORMS_TEST_DATABASE_URL!)
 * const q = await Qforms.make({ database: { url: counter.url } })
 * counter.reset()
 * await q.handler(request)
 * expect(counter.count()).toBe(4)
 * await counter.close()
 * ```
 */
import * as net from "node:net"

export interface RoundTripCounter {
  /** The database URL, with the proxy's address in place of PostgreSQL's. */
  readonly url: string
  /** Round trips (Query and Sync messages) since the last `reset`. */
  readonly count: () => number
  readonly reset: () => void
  readonly close: () => Promise<void>
}

/** SSLRequest's code in a startup-shaped message: the server answers one byte, then the real startup follows. */
const sslRequestCode = 80877103

/**
 * Follows one client's stream: the length-prefixed startup message(s) first,
 * then typed messages (`type`, int32 length including itself, body), which may
 * arrive split or joined across chunks.
 */
const messageReader = (
  onMessage: (type: number) => void,
  onStartup: (parameters: ReadonlyMap<string, string>) => void
) => {
  let buffered: Buffer = Buffer.alloc(0)
  let startup = true
  return (chunk: Buffer) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk])
    for (;;) {
      if (startup) {
        if (buffered.length < 8) return
        const length = buffered.readInt32BE(0)
        if (buffered.length < length) return
        if (buffered.readInt32BE(4) !== sslRequestCode) {
          startup = false
          // protocol version, then name\0value\0 pairs, then \0
          const fields = buffered
            .subarray(8, length - 1)
            .toString("utf8")
            .split("\0")
          const parameters = new Map<string, string>()
          for (let i = 0; i + 1 < fields.length; i += 2) parameters.set(fields[i]!, fields[i + 1]!)
          onStartup(parameters)
        }
        buffered = buffered.subarray(length)
      } else {
        if (buffered.length < 5) return
        const length = buffered.readInt32BE(1)
        if (buffered.length < 1 + length) return
        onMessage(buffered[0]!)
        buffered = buffered.subarray(1 + length)
      }
    }
  }
}

const QUERY = "Q".charCodeAt(0)
const SYNC = "S".charCodeAt(0)

/** Starts a counting proxy on 127.0.0.1 (a free port) in front of the server of `databaseUrl`. */
export const startRoundTripCounter = async (databaseUrl: string): Promise<RoundTripCounter> => {
  const target = new URL(databaseUrl)
  let count = 0
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname)
    sockets.add(client).add(upstream)
    // The link check's own session (core's storage/DatabaseLink.ts) asks every second whatever the requests do.
    let counted = true
    const read = messageReader(
      (type) => {
        if (counted && (type === QUERY || type === SYNC)) count++
      },
      (parameters) => {
        counted = parameters.get("application_name") !== "qforms link check"
      }
    )
    client.on("data", (chunk: Buffer) => {
      read(chunk)
      upstream.write(chunk)
    })
    upstream.on("data", (chunk) => client.write(chunk))
    const end = () => {
      client.destroy()
      upstream.destroy()
      sockets.delete(client)
      sockets.delete(upstream)
    }
    for (const socket of [client, upstream]) {
      socket.on("close", end)
      socket.on("error", end)
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address() as net.AddressInfo
  const url = new URL(databaseUrl)
  url.hostname = "127.0.0.1"
  url.port = String(address.port)
  return {
    url: url.toString(),
    count: () => count,
    reset: () => {
      count = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}
