/**
 * Scenario 19, `pg_dump`/`pg_restore` as docs/operations.md gives them
 * (PostgreSQL): qforms' schema dumped from one database and restored into an
 * empty one, once as documented (`pg_trgm` created first: a clean restore)
 * and once without (the extension is not in the dump: `pg_restore` reports
 * the text search index's error and goes on). Either way the server started
 * on the restored database has every response, and its search has its index
 * (made again at start when it is missing).
 */
import { execFileSync, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import {
  call,
  freshDatabase,
  postgresUrl,
  publishedForm,
  query,
  record,
  type ServerProcess,
  start,
  startFresh
} from "./support/Harness.ts"

const tools = spawnSync("pg_dump", ["--version"]).status === 0 && spawnSync("pg_restore", ["--version"]).status === 0

describe.skipIf(postgresUrl === undefined || !tools)("pg_dump and pg_restore on postgres", () => {
  const databases: Array<Awaited<ReturnType<typeof freshDatabase>>> = []
  const servers: Array<ServerProcess> = []
  const dir = mkdtempSync(join(tmpdir(), "qforms-dump-"))
  afterAll(async () => {
    for (const server of servers) await server.stop()
    for (const database of databases) await database.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  const fresh = async () => {
    const database = await freshDatabase(postgresUrl!)
    databases.push(database)
    return database
  }
  const env = (url: string) => ({ DATABASE_URL: url, QFORMS_DB_SCHEMA: "qforms" })

  it("a restored dump serves every response, and search has its index, with or without pg_trgm made first", async () => {
    const source = await fresh()
    const first = await startFresh({ name: "postgres", env: env(source.url), cleanup: async () => {} })
    servers.push(first.server)
    const key = first.key
    const form = await publishedForm(first.url, key)
    for (const name of ["Ada Lovelace", "Grace Hopper", "Katherine Johnson"]) {
      const made = await call(first.url, "POST", `/api/forms/${form.formId}/responses`, {
        key,
        body: { values: { [form.nameId]: name, [form.emailId]: `${name.split(" ")[0]!.toLowerCase()}@example.com` } }
      })
      expect(made.status).toBe(201)
    }
    await first.server.stop()
    const dump = join(dir, "qforms.dump")
    execFileSync("pg_dump", ["--format=custom", "--schema=qforms", `--file=${dump}`, source.url])

    const figures: Record<string, string | number> = {}
    for (const documented of [true, false]) {
      const target = await fresh()
      if (documented) await query(target.url, "create extension if not exists pg_trgm")
      const restored = spawnSync("pg_restore", ["--no-owner", "--dbname", target.url, dump], { encoding: "utf8" })
      const label = documented ? "pg_trgm first" : "without pg_trgm"
      figures[`pg_restore exit, ${label}`] = restored.status ?? -1
      if (documented) expect(restored.stderr).toBe("")
      else expect(restored.stderr).toContain("gin_trgm_ops")
      const indexBefore = await query(
        target.url,
        "select 1 from pg_indexes where schemaname = 'qforms' and indexname = 'responses_search'"
      )
      figures[`search index after the restore, ${label}`] = indexBefore.length === 1 ? "yes" : "no"

      const again = await start(env(target.url))
      servers.push(again.server)
      const index = await query<{ indexdef: string }>(
        target.url,
        "select indexdef from pg_indexes where schemaname = 'qforms' and indexname = 'responses_search'"
      )
      expect(index).toHaveLength(1)
      expect(index[0]!.indexdef).toContain("gin_trgm_ops")
      expect((await call(again.url, "GET", "/readyz")).status).toBe(200)
      const listed = await call(again.url, "GET", `/api/forms/${form.formId}/responses`, { key })
      expect(listed.status).toBe(200)
      expect(listed.body.responses).toHaveLength(3)
      const found = await call(again.url, "GET", `/api/forms/${form.formId}/responses?q=hopper`, { key })
      expect((found.body.responses as Array<{ name: string }>).map((row) => row.name)).toEqual(["Grace Hopper"])
      figures[`search index once served, ${label}`] = "yes"
      await again.server.stop()
    }
    record({ scenario: "19 pg_dump and pg_restore", target: "postgres", figures, notes: [] })
  })
})
