/**
 * What both hand-written floors (MinimalServer.ts, PgServer.ts) do alike,
 * written once: their `pg` pool from the environment, the question row they
 * read, reading a body, answering JSON, the API key's hash, and serving on
 * PORT until SIGTERM.
 *
 * Env: PORT (0: ephemeral), DATABASE_URL, BASELINE_SCHEMA, BASELINE_POOL (10).
 */
import { createHash } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import pg from "pg"

/** The pool of a floor: BASELINE_POOL connections (10) to DATABASE_URL, on BASELINE_SCHEMA's tables. */
export const makePool = () =>
  new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: Number(process.env.BASELINE_POOL ?? 10),
    options: `-c search_path="${process.env.BASELINE_SCHEMA ?? "qforms"}",public`
  })

/** A question as both floors read it from the database. */
export interface Question {
  id: number
  type: string
  label: string
  required: boolean
  position: number
  options: { choices?: Array<string>; max?: number } | null
}

/** The answer of `GET /api/forms/{id}` both floors send: the form row and its questions. */
export const formBody = (
  form: { id: number; public_id: string; title: string; description: string | null; status: string },
  fields: Array<Question>
) => ({
  id: form.id,
  publicId: form.public_id,
  title: form.title,
  description: form.description,
  status: form.status,
  fields
})

const KEY = /^qk_live_[0-9A-Za-z]{49}$/

/** A plain e-mail check, as a hand-written server would make it. */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export const send = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

export const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

/** The SHA-256 (hex) of the request's bearer key, or undefined when it has no well-formed one. */
export const keyHash = (req: IncomingMessage): string | undefined => {
  const header = req.headers.authorization ?? ""
  const key = header.startsWith("Bearer ") ? header.slice(7) : ""
  return KEY.test(key) ? createHash("sha256").update(key).digest("hex") : undefined
}

/**
 * Serves `handle` on 127.0.0.1:PORT (a failure is a 500, logged), prints
 * `<name> listening on <origin>` for the bench, and on SIGTERM closes the
 * server and the pool, then exits.
 */
export const serve = (
  name: string,
  pool: pg.Pool,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>
) => {
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      process.stderr.write(`${name}: ${String(error)}\n`)
      if (!res.headersSent) send(res, 500, { error: "internal error" })
      else res.destroy()
    })
  })
  server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo
    process.stdout.write(`${name} listening on http://127.0.0.1:${port}\n`)
  })
  process.on("SIGTERM", () => {
    server.close()
    server.closeIdleConnections()
    void pool.end().then(() => process.exit(0))
  })
}
