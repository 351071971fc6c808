/**
 * Starting the systems under test (the qforms standalone, the adapter hosts,
 * the hand-written baseline) and setting them up through the public API.
 */
import type { DbTarget } from "./Db.ts"
import { type Proc, spawnNode } from "./Proc.ts"

/** A running HTTP server under test. */
export interface Server {
  readonly name: string
  readonly proc: Proc
  /** Origin, e.g. `http://127.0.0.1:40123`. */
  readonly origin: string
  /** Where qforms' routes start: the origin plus the mount prefix of a host. */
  readonly base: string
  /** A bearer key of the default workspace. */
  readonly key: string
  /** Milliseconds from spawn to the first 200 of /readyz. */
  readonly startMs: number
}

export type QformsKind = "standalone" | "node-http" | "h3" | "express"

const keys = new Map<string, string>()

const unlimited = {
  QFORMS_RATE_LIMIT_PER_SECOND: "100000000",
  QFORMS_RATE_LIMIT_BURST: "100000000",
  QFORMS_ALLOW_PRIVATE_WEBHOOK_TARGETS: "true",
  LOG_LEVEL: "Warn"
}

/** The environment selecting `db` (and only it: an inherited DATABASE_URL must not leak into a PGlite run). */
export const dbEnv = (db: DbTarget): Record<string, string | undefined> =>
  db.kind === "pglite"
    ? { DATABASE_URL: undefined, QFORMS_DB_SCHEMA: undefined, ...db.env }
    : { QFORMS_DATA_DIR: undefined, ...db.env }

/**
 * Starts qforms (`standalone`, or a bench host mounting it through an
 * adapter) on `db`, waits until /readyz answers, and remembers the key the
 * first start printed (later starts on the same database reuse it).
 */
export const startQforms = async (
  kind: QformsKind,
  db: DbTarget,
  options: { readonly env?: Record<string, string | undefined>; readonly nodeArgs?: ReadonlyArray<string> } = {}
): Promise<Server> => {
  const started = performance.now()
  const proc = spawnNode({
    name: `${kind}@${db.kind}`,
    script: kind === "standalone" ? "examples/standalone/src/main.ts" : "bench/src/hosts/Host.ts",
    nodeArgs: options.nodeArgs,
    env: {
      PORT: "0",
      HOST: "127.0.0.1",
      BENCH_HOST: kind,
      ...unlimited,
      ...dbEnv(db),
      ...options.env
    }
  })
  const [, origin] = await proc.waitFor(/listening on (http:\/\/[0-9.:[\]a-z]+)/, 120_000)
  const prefix = kind === "standalone" ? "" : "/forms-service"
  await waitReady(`${origin}${prefix}`)
  const startMs = performance.now() - started
  const printed = proc.output().match(/qk_live_[0-9A-Za-z]{49}/)?.[0]
  if (printed !== undefined) keys.set(db.label, printed)
  const key = keys.get(db.label)
  if (key === undefined) throw new Error(`${proc.name}: no API key (first start not seen); output:\n${proc.output()}`)
  return { name: kind, proc, origin: origin!, base: `${origin}${prefix}`, key, startMs }
}

/** Polls `<base>/readyz` until it answers 200. */
export const waitReady = async (base: string, timeoutMs = 60_000) => {
  const until = Date.now() + timeoutMs
  for (;;) {
    try {
      const response = await fetch(`${base}/readyz`)
      await response.arrayBuffer()
      if (response.ok) return
    } catch {
      // not yet
    }
    if (Date.now() > until) throw new Error(`${base}/readyz did not answer 200 within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/**
 * Starts a hand-written node:http + pg baseline on the schema of `db` (PostgreSQL only): `minimal`, the floor
 * doing only what the contract needs on tables of its own (baselines/MinimalServer.ts), or `same-statements`,
 * qforms' own statements on qforms' schema (baselines/PgServer.ts). Start it once qforms has made the form:
 * the minimal floor copies forms, questions and keys at start.
 */
export const startBaseline = async (
  db: DbTarget,
  key: string,
  kind: "minimal" | "same-statements" = "same-statements"
): Promise<Server> => {
  const started = performance.now()
  const proc = spawnNode({
    name: `${kind} floor@pg`,
    script: kind === "minimal" ? "bench/src/baselines/MinimalServer.ts" : "bench/src/baselines/PgServer.ts",
    env: { PORT: "0", DATABASE_URL: db.url, BASELINE_SCHEMA: db.schema }
  })
  const [, origin] = await proc.waitFor(/listening on (http:\/\/[0-9.:]+)/, 60_000)
  return { name: `${kind} floor`, proc, origin: origin!, base: origin!, key, startMs: performance.now() - started }
}

// ---------------------------------------------------------------------------
// The API
// ---------------------------------------------------------------------------

const call = async <A>(server: Server, method: string, path: string, body?: unknown): Promise<A> => {
  const response = await fetch(`${server.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
    body: body === undefined ? null : JSON.stringify(body)
  })
  const text = await response.text()
  if (!response.ok)
    throw new Error(`${server.name}: ${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`)
  return (text === "" ? undefined : JSON.parse(text)) as A
}

/** The benchmark form: five questions, published. */
export interface BenchForm {
  readonly id: number
  /** The id of its public page (`/f/{publicId}`). */
  readonly publicId: string
  readonly fields: {
    readonly name: number
    readonly email: number
    readonly topic: number
    readonly score: number
    readonly message: number
  }
  readonly workspaceId: number
}

export const topics = ["Sales", "Support", "Billing", "Partnership", "Other"] as const

/** Creates and publishes the five-question form. */
export const createForm = async (server: Server, title = "Contact us"): Promise<BenchForm> => {
  const created = await call<{ id: number }>(server, "POST", "/api/forms", {
    title,
    fields: [
      { type: "short_text", label: "Name", required: true },
      { type: "email", label: "Email", required: true },
      { type: "select", label: "Topic", required: true, options: { choices: topics } },
      { type: "rating", label: "Score", required: false },
      { type: "long_text", label: "Message", required: false }
    ]
  })
  await call(server, "PATCH", `/api/forms/${created.id}`, { status: "published" })
  const form = await call<{ publicId: string; fields: Array<{ id: number; label: string }> }>(
    server,
    "GET",
    `/api/forms/${created.id}`
  )
  const id = (label: string) => form.fields.find((field) => field.label === label)!.id
  return {
    id: created.id,
    publicId: form.publicId,
    fields: { name: id("Name"), email: id("Email"), topic: id("Topic"), score: id("Score"), message: id("Message") },
    workspaceId: 1
  }
}

/** The stage ids of a form. */
export const stagesOf = async (server: Server, formId: number): Promise<Array<number>> =>
  (await call<{ stages: Array<{ id: number }> }>(server, "GET", `/api/forms/${formId}/stages`)).stages.map((s) => s.id)

/** Subscribes `targetUrl` to `response.created` of the form; answers the signing secret. */
export const subscribe = async (server: Server, formId: number, targetUrl: string): Promise<string> =>
  (
    await call<{ secret: string }>(server, "POST", "/api/webhooks/subscribe", {
      formId,
      event: "response.created",
      targetUrl,
      source: "bench"
    })
  ).secret

/** A submission body; `n` makes the respondent (and so the contact row) unique. */
/** Submission `n`: a new respondent each time, or with `sameRespondent` always the same person. */
export const submission = (form: BenchForm, n: number, sameRespondent = false): string =>
  JSON.stringify({
    values: {
      [form.fields.name]: sameRespondent ? "Ada Lovelace" : `Ada Lovelace ${n}`,
      [form.fields.email]: sameRespondent ? "ada@example.com" : `ada.${n}@example.com`,
      [form.fields.topic]: topics[n % topics.length],
      [form.fields.score]: (n % 5) + 1,
      [form.fields.message]: `Hello, I would like to know more about the analytical engine (request ${n}).`
    }
  })

export { call }
