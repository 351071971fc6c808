/**
 * What every reliability scenario shares: the run's size (CI or full), the
 * real standalone as a child process on a fresh database, a webhook receiver
 * that can be stopped and scripted, PostgreSQL access for the checks that read
 * the database, and the figures each scenario writes for docs/RELIABILITY.md.
 */
import { mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import pg from "pg"
import {
  firstStartKey,
  type ProcessDatabase,
  processTargets,
  type ServerProcess,
  spawnServer
} from "../../../examples/standalone/test/support/Processes.ts"

export {
  api,
  cli,
  cliOk,
  firstStartKey,
  freePort,
  probe,
  type ProcessDatabase,
  processTargets,
  publishedForm,
  type ServerProcess,
  spawnServer
} from "../../../examples/standalone/test/support/Processes.ts"

/** `QFORMS_RELIABILITY_FULL=1` (or `npm run test:reliability -- --full` through the env) runs the full-size counts. */
export const full = process.env.QFORMS_RELIABILITY_FULL === "1"

/** The counts of each scenario: CI (under 10 minutes in all) and full size. */
export const counts = {
  crashRounds: full ? 20 : 5,
  crashClients: 100,
  fuzzRequests: full ? 10_000 : 3_000,
  soakSeconds: full ? 600 : 60,
  soakRatePerSecond: 20
} as const

/** PostgreSQL (QFORMS_TEST_DATABASE_URL, else DATABASE_URL), when there is one. */
export const postgresUrl = process.env.QFORMS_TEST_DATABASE_URL ?? process.env.DATABASE_URL

/** The repository root. */
export const rootDir = fileURLToPath(new URL("../../..", import.meta.url))
/** Where each scenario leaves its figures for the report. */
export const resultsDir = join(rootDir, "reliability", "results")

/** Settings every scenario's server gets: no API rate limit in the way, quick retries, loopback receivers allowed. */
export const baseEnv: Readonly<Record<string, string>> = {
  QFORMS_RATE_LIMIT_PER_SECOND: "1000000",
  QFORMS_RATE_LIMIT_BURST: "1000000",
  QFORMS_WEBHOOK_RETRY_SCHEDULE: "0s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s",
  QFORMS_WEBHOOK_TIMEOUT_MS: "3000",
  QFORMS_ALLOW_PRIVATE_WEBHOOK_TARGETS: "true",
  QFORMS_FORM_MIN_SECONDS: "0",
  QFORMS_FORM_SUBMISSIONS_PER_MINUTE: "1000000",
  QFORMS_FORM_GENERATOR: "offline",
  // Every client of a scenario connects from 127.0.0.1: no per-address connection cap.
  QFORMS_MAX_CONNECTIONS_PER_ADDRESS: "0"
}

// ---------------------------------------------------------------------------
// Figures
// ---------------------------------------------------------------------------

/** One scenario's figures on one target, as the report shows them. */
export interface Figures {
  readonly scenario: string
  readonly target: string
  readonly figures: Readonly<Record<string, number | string | boolean>>
  readonly notes?: ReadonlyArray<string>
}

/** Writes a scenario's figures (with the load average at that moment) for the report. */
export const record = (entry: Figures): void => {
  mkdirSync(resultsDir, { recursive: true })
  const [one, five] = loadavg()
  const file = join(resultsDir, `${entry.scenario.replace(/\W+/g, "-")}.${entry.target}.json`)
  writeFileSync(
    file,
    `${JSON.stringify({ ...entry, loadavg: [round(one!, 2), round(five!, 2)], at: new Date().toISOString() }, null, 2)}\n`
  )
}

export const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits

/** Percentile of a list of numbers (nearest rank). */
export const percentile = (values: ReadonlyArray<number>, p: number): number => {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

// ---------------------------------------------------------------------------
// Processes
// ---------------------------------------------------------------------------

/** The resident set size of a process, in MiB (Linux /proc). */
export const rssMiB = (pid: number): number => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? Number.NaN)
  return kb / 1024
}

/**
 * The local TCP ports of a process's sockets (Linux /proc): PostgreSQL's `pg_stat_activity.client_port` of its
 * sessions, to tell them from other processes' sessions on the same database.
 */
export const tcpPortsOf = (pid: number): ReadonlySet<number> => {
  const inodes = new Set<string>()
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    const socket = /^socket:\[(\d+)\]$/.exec(readlinkOrEmpty(`/proc/${pid}/fd/${fd}`))
    if (socket !== null) inodes.add(socket[1]!)
  }
  const ports = new Set<number>()
  for (const table of ["tcp", "tcp6"]) {
    for (const line of readFileSync(`/proc/${pid}/net/${table}`, "utf8").split("\n").slice(1)) {
      const columns = line.trim().split(/\s+/)
      if (columns.length > 9 && inodes.has(columns[9]!)) ports.add(Number.parseInt(columns[1]!.split(":")[1]!, 16))
    }
  }
  return ports
}

/** A symbolic link's target, or "" when it went away meanwhile (a descriptor closed while listing). */
const readlinkOrEmpty = (path: string): string => {
  try {
    return readlinkSync(path)
  } catch {
    return ""
  }
}

/** A started standalone: its process, URL and the key of the default workspace. */
export interface Started {
  readonly server: ServerProcess
  readonly url: string
}

/** Starts the standalone and waits for its URL. */
export const start = async (env: Readonly<Record<string, string>>): Promise<Started> => {
  const server = spawnServer({ ...baseEnv, ...env })
  const url = await server.listening
  return { server, url }
}

/** Starts the standalone on an empty database and answers the first-start key too. */
export const startFresh = async (db: ProcessDatabase, env: Readonly<Record<string, string>> = {}) => {
  const started = await start({ ...db.env, ...env })
  return { ...started, key: firstStartKey(started.server) }
}

/** The targets: PGlite always, PostgreSQL when configured. */
export const targets = processTargets

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Polls `probe` every 50 ms until it answers a value; throws after `timeoutMs` with `what`. */
export const waitUntil = async <A>(
  what: string,
  probe: () => A | undefined | Promise<A | undefined>,
  timeoutMs = 30_000
): Promise<A> => {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}

// ---------------------------------------------------------------------------
// Webhook receiver
// ---------------------------------------------------------------------------

/** One post the receiver got. */
export interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly at: number
  /** The status it was answered with. */
  readonly status: number
}

/**
 * A webhook receiver on a loopback port that can be stopped (connection
 * refused) and started again on the same port, answering `status` (changeable).
 */
export const receiver = async (options: { readonly status?: number; readonly port?: number } = {}) => {
  const received: Array<Received> = []
  // The response ids of the posts, by event name, indexed as each post arrives: a
  // check like `ids.every((id) => hook.responseIds().has(id))` then costs O(ids),
  // not a parse of every post per id. (That was O(n²): at a 600 s soak's 4 800
  // posts one check took long enough to starve this receiver, which shares the
  // test's event loop, so the last delivery timed out until the wait gave up.)
  const idsByEvent = new Map<string, Set<number>>()
  const idsOf = (event: string) => {
    let ids = idsByEvent.get(event)
    if (ids === undefined) {
      ids = new Set()
      idsByEvent.set(event, ids)
    }
    return ids
  }
  const index = (body: string) => {
    let parsed: { readonly event?: unknown; readonly responseId?: unknown }
    try {
      parsed = JSON.parse(body)
    } catch {
      return
    }
    if (typeof parsed?.event === "string" && typeof parsed.responseId === "number")
      idsOf(parsed.event).add(parsed.responseId)
  }
  const state = { status: options.status ?? 200, port: options.port ?? 0 }
  let server: Server | undefined
  const listen = async () => {
    const s = createServer((request, response) => {
      let body = ""
      request.setEncoding("utf8")
      request.on("data", (chunk: string) => (body += chunk))
      request.on("end", () => {
        received.push({ headers: request.headers, body, at: performance.now(), status: state.status })
        index(body)
        response.writeHead(state.status, { "content-type": "text/plain" }).end("ok")
      })
    })
    s.keepAliveTimeout = 1_000
    await new Promise<void>((resolve) => s.listen(state.port, "127.0.0.1", resolve))
    state.port = (s.address() as AddressInfo).port
    server = s
  }
  const close = async () => {
    const s = server
    server = undefined
    if (s === undefined) return
    s.closeAllConnections()
    await new Promise<void>((resolve) => s.close(() => resolve()))
  }
  await listen()
  /** The posts of one event name, by webhook-id: how many times each came. */
  const byWebhookId = (event = "response.created") => {
    const ids = new Map<string, number>()
    for (const post of received) {
      if (JSON.parse(post.body).event !== event) continue
      const id = String(post.headers["webhook-id"])
      ids.set(id, (ids.get(id) ?? 0) + 1)
    }
    return ids
  }
  /** The response ids of the posts of one event name (a live set: cheap to call in a polling loop). */
  const responseIds = (event = "response.created"): ReadonlySet<number> => idsOf(event)
  return {
    get url() {
      return `http://127.0.0.1:${state.port}/hook`
    },
    received,
    state,
    listen,
    close,
    byWebhookId,
    responseIds
  }
}
export type Receiver = Awaited<ReturnType<typeof receiver>>

// ---------------------------------------------------------------------------
// PostgreSQL
// ---------------------------------------------------------------------------

/** Runs one query on a short-lived connection. */
export const query = async <R extends Record<string, unknown>>(
  url: string,
  text: string,
  values: ReadonlyArray<unknown> = []
) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<R>(text, [...values])).rows
  } finally {
    await client.end()
  }
}

/**
 * What the outage scenarios check of a database after the fault: its responses, those without their
 * `response.created` event and the events without their response (both must be 0: a change and its event
 * commit together), and the ids stored.
 */
export const responseIntegrity = async (url: string) => {
  const [counts] = await query<{ responses: string; orphanResponses: string; orphanEvents: string }>(
    url,
    `
    select (select count(*) from qforms.responses) as "responses",
      (select count(*) from qforms.responses r where not exists
        (select 1 from qforms.events e where e.type = 'response.created' and e.response_id = r.id)) as "orphanResponses",
      (select count(*) from qforms.events e where e.type = 'response.created' and not exists
        (select 1 from qforms.responses r where r.id = e.response_id)) as "orphanEvents"`
  )
  const stored = new Set((await query<{ id: number }>(url, "select id from qforms.responses")).map((row) => row.id))
  return {
    responses: Number(counts!.responses),
    orphanResponses: Number(counts!.orphanResponses),
    orphanEvents: Number(counts!.orphanEvents),
    stored
  }
}

/** A fresh PostgreSQL database of its own (for scenarios that cut connections by database), dropped by `drop`. */
export const freshDatabase = async (url: string) => {
  const name = `qforms_rel_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
  await query(url, `create database "${name}"`)
  const own = new URL(url)
  own.pathname = `/${name}`
  return {
    name,
    url: own.toString(),
    drop: async () => {
      await query(url, `alter database "${name}" allow_connections true`).catch(() => undefined)
      await query(url, `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1`, [name])
      await query(url, `drop database if exists "${name}"`)
    }
  }
}

// ---------------------------------------------------------------------------
// HTTP with a keep-alive-free fetch and a deadline
// ---------------------------------------------------------------------------

/** A JSON API request that never throws: status 0 with the error's text when it could not be made. */
export const call = async (
  url: string,
  method: string,
  path: string,
  options: {
    readonly key?: string | undefined
    readonly body?: unknown
    readonly timeoutMs?: number
    readonly headers?: Readonly<Record<string, string>>
  } = {}
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ readonly status: number; readonly body: any; readonly ms: number }> => {
  const started = performance.now()
  try {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...options.headers,
        ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
        ...(options.body === undefined ? {} : { "content-type": "application/json" })
      },
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000)
    })
    const text = await response.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {}
    return { status: response.status, body, ms: performance.now() - started }
  } catch (error) {
    return { status: 0, body: String((error as Error).cause ?? error), ms: performance.now() - started }
  }
}

/**
 * Subscribes `targetUrl` to a form's `response.created` events (`POST /api/webhooks/subscribe`) and answers the
 * call, whose `status` is 201 when it took (the body holds the subscription's `id` and `secret`).
 */
export const subscribeHook = (url: string, key: string, formId: number, targetUrl: string) =>
  call(url, "POST", "/api/webhooks/subscribe", {
    key,
    body: { formId, event: "response.created", targetUrl }
  })
