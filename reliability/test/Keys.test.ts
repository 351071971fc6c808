/**
 * Scenario 7, keys and secrets (PostgreSQL: the checks read the database while
 * the server runs): keys stored only hashed, never in the logs of a debug run
 * with request logging, revocation effective on the next request, and a typo
 * rejected by the checksum without a database lookup.
 */
import { ApiKeys } from "@qforms/core"
import { afterAll, describe, expect, it } from "vitest"
import {
  call,
  cliOk,
  postgresUrl,
  publishedForm,
  query,
  receiver,
  record,
  sleep,
  startFresh,
  subscribeHook,
  targets,
  tcpPortsOf,
  type ProcessDatabase,
  type Receiver,
  type ServerProcess
} from "./support/Harness.ts"
import { mcp } from "./support/Seed.ts"

const postgres = targets.find((target) => target.name === "postgres")
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** One character of the key's body changed (the checksum then no longer matches). */
const typo = (key: string): string => {
  const at = "qk_live_".length + Math.floor(Math.random() * 20)
  const next = ALPHABET[(ALPHABET.indexOf(key[at]!) + 1 + Math.floor(Math.random() * 60)) % 62]!
  return key.slice(0, at) + next + key.slice(at + 1)
}

describe.skipIf(postgres === undefined || postgresUrl === undefined)("keys and secrets on postgres", () => {
  let db: ProcessDatabase | undefined
  let server: ServerProcess | undefined
  let hook: Receiver | undefined
  afterAll(async () => {
    await server?.stop()
    await hook?.close()
    await db?.cleanup()
  })

  it("hashed at rest, absent from logs, revoked at once, typos refused without a lookup", async () => {
    db = postgres!.make()
    const schema = db.env.QFORMS_DB_SCHEMA!
    const url0 = db.env.DATABASE_URL!
    hook = await receiver()
    const started = await startFresh(db, { LOG_LEVEL: "Debug", LOG_REQUESTS: "true", LOG_FORMAT: "json" })
    server = started.server
    const { url, key } = started
    const second = (await cliOk(["key", "create", "--workspace", "1", "--name", "second"], db.env)).trim()
    expect(ApiKeys.isWellFormed(second)).toBe(true)

    // Use every key-carrying surface: API, MCP, event stream subprotocol, a webhook (its secret), wrong keys.
    const form = await publishedForm(url, key)
    const subscribed = await subscribeHook(url, key, form.formId, hook.url)
    expect(subscribed.status).toBe(201)
    const secret: string = subscribed.body.secret
    for (const k of [key, second]) {
      expect(
        (
          await call(url, "POST", `/api/forms/${form.formId}/responses`, {
            key: k,
            body: { values: { [form.nameId]: "Ada", [form.emailId]: "ada@example.com" } }
          })
        ).status
      ).toBe(201)
      expect((await mcp(url, k, "tools/call", { name: "list_forms", arguments: {} })).status).toBe(200)
    }
    const socket = new WebSocket(`${url.replace(/^http/, "ws")}/api/events`, ["qforms.v1", `qforms.bearer.${second}`])
    await new Promise<void>((resolve) => {
      socket.addEventListener("open", () => resolve())
      socket.addEventListener("error", () => resolve())
    })
    socket.close()
    const wrong = [typo(key), typo(second), `${key}x`, key.slice(0, -1), ApiKeys.generate()]
    const wrongAnswers = []
    for (const k of wrong) wrongAnswers.push(await call(url, "GET", "/api/forms", { key: k }))
    expect(wrongAnswers.map((answer) => answer.status)).toEqual(wrong.map(() => 401))
    for (const answer of wrongAnswers) expect(typeof answer.body.error).toBe("string")
    while (hook.received.length < 2) await sleep(50)

    // Revocation: the very next request is refused.
    expect((await call(url, "GET", "/api/forms", { key: second })).status).toBe(200)
    const listed = JSON.parse(await cliOk(["key", "list", "--workspace", "1"], db.env)) as Array<{
      id: number
      name: string | null
    }>
    const secondId = listed.find((entry) => entry.name === "second")!.id
    await cliOk(["key", "revoke", String(secondId)], db.env)
    const afterRevoke = await call(url, "GET", "/api/forms", { key: second })
    const mcpAfterRevoke = await mcp(url, second, "tools/list")

    // At rest: no table holds either key, whole or its secret part.
    const tables = await query<{ table_name: string }>(
      url0,
      "select table_name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE'",
      [schema]
    )
    const found: Array<string> = []
    for (const { table_name } of tables) {
      for (const k of [key, second]) {
        const rows = await query<{ n: string }>(
          url0,
          `select count(*) as n from "${schema}"."${table_name}" t where t::text like '%' || $1 || '%'`,
          [k.slice("qk_live_".length, "qk_live_".length + 16)]
        )
        if (Number(rows[0]!.n) > 0) found.push(`${table_name} holds a key`)
      }
    }

    // A typo is refused by the checksum: PostgreSQL's scan counters of api_keys do not move; unknown
    // well-formed keys (the control) move them.
    const scans = async () => {
      const rows = await query<{ n: string }>(
        url0,
        "select coalesce(seq_scan, 0) + coalesce(idx_scan, 0) as n from pg_stat_user_tables where schemaname = $1 and relname = 'api_keys'",
        [schema]
      )
      return Number(rows[0]?.n ?? 0)
    }
    // A session publishes its counters when idle, but at most once a second (else 10 s later), and at once when it
    // ends: the server's sessions are ended (found by their ports), and it opens new ones for its next requests.
    const settle = async () => {
      const ports = [...tcpPortsOf(server!.pid)]
      await query(
        url0,
        "select pg_terminate_backend(pid, 10000) from pg_stat_activity where datname = current_database() and client_port = any($1::int[])",
        [ports]
      )
      return scans()
    }
    const before = await settle()
    const typoAnswers = []
    for (let i = 0; i < 50; i++) typoAnswers.push((await call(url, "GET", "/api/forms", { key: typo(key) })).status)
    const afterTypos = await settle()
    for (let i = 0; i < 50; i++) await call(url, "GET", "/api/forms", { key: ApiKeys.generate() })
    const afterControl = await settle()

    // Logs: the key appears once on stdout (the first-start banner shows it), the second key and the secret never.
    const logs = `${server.stdout()}\n${server.stderr()}`
    const occurrences = (text: string, needle: string) => text.split(needle).length - 1
    const inLogs = {
      first: occurrences(logs, key) + occurrences(logs, key.slice(8, 30)) - 2,
      second: occurrences(logs, second) + occurrences(logs, second.slice(8, 30)),
      secret: occurrences(logs, secret) + occurrences(logs, secret.slice(6, 30)),
      // (the first key less its last character is inside the banner's key: counted apart)
      wrong: wrong.reduce((n, k) => n + occurrences(logs, k), 0) - occurrences(logs, key)
    }
    const logLines = logs.split("\n").filter((line) => line.trim() !== "").length
    const secrets = [key, second, secret, ...wrong, key.slice(8, 30), second.slice(8, 30), secret.slice(6, 30)]
    const leakingLines = logs
      .split("\n")
      .filter((line) => secrets.some((s) => line.includes(s)) && line.trim() !== key)
      .map((line) => secrets.reduce((masked, s) => masked.split(s).join("«SECRET»"), line).slice(0, 300))

    record({
      scenario: "7 keys and secrets",
      target: "postgres",
      figures: {
        "tables searched": tables.length,
        "tables holding a key": found.length,
        "log lines captured": logLines,
        "keys or secret in logs": inLogs.first + inLogs.second + inLogs.secret + inLogs.wrong,
        "after revocation (API, MCP)": `${afterRevoke.status}, ${mcpAfterRevoke.status}`,
        "typos refused": typoAnswers.filter((status) => status === 401).length,
        "api_keys scans by 50 typos": afterTypos - before,
        "api_keys scans by 50 unknown keys (control)": afterControl - afterTypos
      },
      notes: leakingLines.map((line) => `log line with a secret: ${line}`)
    })
    expect(found).toEqual([])
    expect(logLines).toBeGreaterThan(10)
    expect(inLogs).toEqual({ first: 0, second: 0, secret: 0, wrong: 0 })
    expect(afterRevoke.status).toBe(401)
    expect(mcpAfterRevoke.status).toBe(401)
    expect(typoAnswers.every((status) => status === 401)).toBe(true)
    expect(afterTypos).toBe(before)
    expect(afterControl).toBeGreaterThan(afterTypos)
  })
})
