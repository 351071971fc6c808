/**
 * The live event stream (`<mount point>/api/events`) through h3's own
 * WebSocket support (crossws): qforms accepts or refuses each upgrade, then
 * sends the workspace's events to the peer.
 */
import type { Qforms } from "@qforms/core"
import { forwardedPrefix } from "@qforms/node-http"
import { defineWebSocketHandler, type WebSocketPeer } from "h3"
import { splitPath } from "./MountPath.ts"

/** Frames a peer may have buffered before it counts as too far behind (and is closed by qforms). */
const maxBufferedBytes = 1024 * 1024

/** The event stream's hooks for one upgrade request: qforms accepts or refuses it, then registers the peer. */
export const eventStream = (qforms: Pick<Qforms.Qforms, "events">) =>
  defineWebSocketHandler((event) => ({
    upgrade: async () => {
      const { prefix, path } = splitPath(event)
      // The mount point reaches qforms as on every other request: each event's `link` names the prefix.
      const headers = Object.fromEntries(event.req.headers)
      const forwarded = forwardedPrefix(event.req.headers.get("x-forwarded-prefix"), prefix)
      if (forwarded !== "") headers["x-forwarded-prefix"] = forwarded
      const connection = await qforms.events.connect({ headers, url: path + event.url.search })
      if (!("status" in connection))
        return { context: { qforms: connection }, ...(connection.protocol && { protocol: connection.protocol }) }
      const body = JSON.stringify({ error: connection.error })
      return new Response(body, {
        status: connection.status,
        headers: {
          "content-type": "application/json",
          "content-length": String(new TextEncoder().encode(body).byteLength),
          connection: "close"
        }
      })
    },
    open: (peer: WebSocketPeer) => {
      const connection = peer.context.qforms as Qforms.EventConnection
      peer.context.detach = connection.open(
        (text) => {
          if (peer.bufferedAmount > maxBufferedBytes) return false
          peer.send(text)
          return true
        },
        (code, reason) => peer.close(code, reason)
      )
    },
    close: (peer: WebSocketPeer) => (peer.context.detach as (() => void) | undefined)?.(),
    error: (peer: WebSocketPeer) => (peer.context.detach as (() => void) | undefined)?.()
  }))
