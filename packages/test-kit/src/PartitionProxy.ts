/**
 * A TCP proxy that can partition the network between the standalone and its
 * database, as a dropped link or a firewall that starts dropping packets does:
 * nothing is closed or reset, bytes simply stop arriving. While partitioned,
 * both directions of every open connection stop (what was sent waits, as TCP
 * would keep retransmitting it), and a new connection is accepted but reaches
 * nothing. `heal` lets everything through again, in order.
 *
 * No root and no firewall rule: it runs on any machine CI has (the
 * reliability suite's partition scenario, DatabaseLink.test.ts).
 */
import { connect, createServer, type Socket } from "node:net"
import type { AddressInfo } from "node:net"

/** A running partition proxy in front of `target`. */
export interface PartitionProxy {
  /** The port to connect to instead of the target's. */
  readonly port: number
  /** Stops every byte, both ways, on every connection, open or new. */
  readonly partition: () => void
  /** Lets the held bytes and connections through again. */
  readonly heal: () => void
  /** Connections made through the proxy so far. */
  readonly connections: () => number
  /** The local ports of the open connections to the target (PostgreSQL's `client_port` of their sessions). */
  readonly upstreamPorts: () => ReadonlySet<number>
  readonly close: () => Promise<void>
}

interface Link {
  readonly client: Socket
  upstream: Socket | undefined
}

/**
 * Starts a proxy on a free loopback port that forwards to `host:port`.
 *
 * @example
 * ```ts
 * const proxy = await partitionProxy("127.0.0.1", 5432)
 * proxy.partition() // the database stops answering, nothing is closed
 * proxy.heal()
 * ```
 */
export const partitionProxy = async (host: string, port: number): Promise<PartitionProxy> => {
  let partitioned = false
  let made = 0
  const links = new Set<Link>()
  const end = (link: Link) => {
    links.delete(link)
    link.client.destroy()
    link.upstream?.destroy()
  }
  const flow = (link: Link) => {
    const upstream = link.upstream!
    link.client.pipe(upstream)
    upstream.pipe(link.client)
  }
  const hold = (link: Link) => {
    if (link.upstream === undefined) return
    link.client.unpipe(link.upstream)
    link.upstream.unpipe(link.client)
    link.client.pause()
    link.upstream.pause()
  }
  const open = (link: Link) => {
    const upstream = connect({ host, port, noDelay: true })
    link.upstream = upstream
    upstream.on("error", () => end(link))
    upstream.on("close", () => end(link))
    if (!partitioned) flow(link)
  }
  const server = createServer({ noDelay: true, pauseOnConnect: true }, (client) => {
    made++
    const link: Link = { client, upstream: undefined }
    links.add(link)
    client.on("error", () => end(link))
    client.on("close", () => end(link))
    // A connection made during the partition reaches nothing until it heals.
    if (!partitioned) open(link)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    port: (server.address() as AddressInfo).port,
    partition: () => {
      partitioned = true
      for (const link of links) hold(link)
    },
    heal: () => {
      partitioned = false
      for (const link of links) {
        if (link.upstream === undefined) open(link)
        else flow(link)
      }
    },
    connections: () => made,
    upstreamPorts: () =>
      new Set([...links].flatMap((link) => (link.upstream?.localPort === undefined ? [] : [link.upstream.localPort]))),
    close: async () => {
      for (const link of links) end(link)
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
