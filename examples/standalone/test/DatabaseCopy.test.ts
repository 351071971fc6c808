/**
 * `qforms db copy`, as an operator runs it: an embedded workspace seeded
 * through the HTTP API (forms, responses with an uploaded file, notes, tags, a
 * webhook) copied into a fresh PostgreSQL database and back into a new data
 * directory, verified on the way, and served again by a server on the copy.
 */
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { PgClient } from "@effect/sql-pg"
import { postgresUrl } from "@qforms/test-kit/Databases"
import { SqlClient } from "effect/sql"
import { afterAll, describe, expect, it } from "vitest"
import { api, cli, firstStartKey, type ServerProcess, spawnServer, uploadFile } from "./support/Processes.ts"

const directories: Array<string> = []
const servers: Array<ServerProcess> = []
const databases: Array<string> = []

/** Runs statements on the test server's maintenance database. */
const admin = (statement: string) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe(statement)
    }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(postgresUrl!), maxConnections: 1 })))
  )

afterAll(async () => {
  for (const server of servers) await server.stop()
  for (const database of databases) await admin(`drop database if exists ${database} with (force)`)
  for (const dir of directories) rmSync(dir, { recursive: true, force: true })
})

const freshDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  directories.push(dir)
  return dir
}

/** A new empty PostgreSQL database on the test server: its URL. */
const freshDatabase = async () => {
  const name = `qforms_copy_${randomBytes(5).toString("hex")}`
  await admin(`create database ${name}`)
  databases.push(name)
  const url = new URL(postgresUrl!)
  url.pathname = `/${name}`
  return url.toString()
}

const serve = async (dataDir: string) => {
  const server = spawnServer({ QFORMS_DATA_DIR: dataDir })
  servers.push(server)
  return { server, url: await server.listening }
}

/** The verification table's lines: table → [source rows, target rows, digest, check]. */
const verification = (stdout: string) =>
  new Map(
    stdout
      .split("\n")
      .map((line) => line.match(/^(\w+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(ok|MISMATCH.*)$/))
      .filter((match) => match !== null)
      .map((match) => [
        match[1]!,
        { source: Number(match[2]), target: Number(match[3]), digest: match[4]!, check: match[5]! }
      ])
  )

const PDF = Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(40_000)])

describe.skipIf(postgresUrl === undefined)("qforms db copy", () => {
  it("copies an embedded deployment to PostgreSQL and back, verified, and the copy serves it", async () => {
    const original = freshDir("qforms-copy-a-")
    const { server, url } = await serve(original)
    const key = firstStartKey(server)

    // Seed through the API: a form with a file question, responses, a tag, a note, a webhook.
    const created = await api(url, "POST", "/forms", {
      key,
      body: {
        title: "Applications",
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "select", label: "Team", required: true, options: { choices: ["Red", "Blue"] } },
          { type: "file", label: "CV", required: false }
        ]
      }
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const formId = created.body.id as number
    expect((await api(url, "PATCH", `/forms/${formId}`, { key, body: { status: "published" } })).status).toBe(200)
    const form = await api(url, "GET", `/forms/${formId}`, { key })
    const [name, team, cv] = form.body.fields as Array<{ id: number }>
    const fileId = await uploadFile(url, form.body.publicId, cv!.id, PDF)
    const responseIds: Array<number> = []
    for (let i = 0; i < 5; i++) {
      const submitted = await api(url, "POST", `/forms/${formId}/responses`, {
        key,
        body: {
          values: {
            [name!.id]: `Person ${i}`,
            [team!.id]: i % 2 === 0 ? "Red" : "Blue",
            ...(i === 0 ? { [cv!.id]: { fileId } } : {})
          }
        }
      })
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(201)
      responseIds.push(submitted.body.id)
    }
    const first = responseIds[0]!
    expect((await api(url, "PATCH", `/responses/${first}`, { key, body: { tags: ["vip", "copy"] } })).status).toBe(200)
    expect((await api(url, "POST", `/responses/${first}/notes`, { key, body: { body: "Call back" } })).status).toBe(201)
    const hook = await api(url, "POST", "/webhooks/subscribe", {
      key,
      body: { formId, event: "response.created", targetUrl: "https://hooks.example.com/qforms" }
    })
    expect(hook.status, JSON.stringify(hook.body)).toBe(201)

    // While the server holds the data directory, the copy is refused.
    const pgUrl = await freshDatabase()
    const pgFiles = freshDir("qforms-copy-files-")
    const refused = await cli(["db", "copy", "--to", pgUrl, "--files-to", pgFiles], { QFORMS_DATA_DIR: original })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/stop the server/)
    expect(await server.stop()).toBe(0)

    const toPg = await cli(["db", "copy", "--to", pgUrl, "--files-to", pgFiles], { QFORMS_DATA_DIR: original }, 180_000)
    expect(toPg.code, toPg.stderr + toPg.stdout).toBe(0)
    expect(toPg.stdout).toMatch(/verified: every table and file matches/)
    expect(toPg.stdout).toMatch(/files: 1 copied \(40009 bytes\)/)
    const there = verification(toPg.stdout)
    expect(there.get("responses")).toMatchObject({ source: 5, target: 5, check: "ok" })
    expect(there.get("notes") ?? there.get("activities")).toBeDefined()
    expect(there.get("webhook_subscriptions")).toMatchObject({ source: 1, target: 1, check: "ok" })
    expect(there.get("files")).toMatchObject({ source: 1, target: 1, check: "ok" })
    // The tallies the response triggers keep are copied as they are, not counted again.
    expect(there.get("answer_tallies")!.source).toBeGreaterThan(0)
    expect(there.get("answer_tallies")!.check).toBe("ok")
    for (const [table, line] of there) expect(line.check, table).toBe("ok")

    // A target that holds data is refused, unless --replace.
    const again = await cli(["db", "copy", "--to", pgUrl, "--files-to", pgFiles], { QFORMS_DATA_DIR: original })
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/not empty .*--replace/)
    const replaced = await cli(
      ["db", "copy", "--to", pgUrl, "--files-to", pgFiles, "--replace"],
      { QFORMS_DATA_DIR: original },
      180_000
    )
    expect(replaced.code, replaced.stderr + replaced.stdout).toBe(0)
    for (const [table, line] of verification(replaced.stdout)) {
      expect(line, table).toMatchObject({
        target: there.get(table)!.source,
        digest: there.get(table)!.digest,
        check: "ok"
      })
    }

    // Back into a new data directory: the same digests as the original's.
    const copy = freshDir("qforms-copy-b-")
    const fromPg = await cli(
      ["db", "copy", "--from", pgUrl, "--files-from", pgFiles],
      { QFORMS_DATA_DIR: copy },
      180_000
    )
    expect(fromPg.code, fromPg.stderr + fromPg.stdout).toBe(0)
    const back = verification(fromPg.stdout)
    expect([...back.keys()].sort()).toEqual([...there.keys()].sort())
    for (const [table, line] of back) {
      expect(line.check, table).toBe("ok")
      expect(line.digest, table).toBe(there.get(table)!.digest)
      expect(line.target, table).toBe(there.get(table)!.source)
    }

    // A server on the copy serves the response and the file.
    const restarted = await serve(copy)
    const detail = await api(restarted.url, "GET", `/responses/${first}`, { key })
    expect(detail.status).toBe(200)
    expect(JSON.stringify(detail.body)).toContain("Person 0")
    expect(JSON.stringify(detail.body)).toContain('"vip"')
    const download = await fetch(`${restarted.url}/api/files/${fileId}`, {
      headers: { authorization: `Bearer ${key}` }
    })
    expect(download.status).toBe(200)
    expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true)
    // New rows get new ids: the sequences came along.
    const next = await api(restarted.url, "POST", `/forms/${formId}/responses`, {
      key,
      body: { values: { [name!.id]: "Late", [team!.id]: "Red" } }
    })
    expect(next.status, JSON.stringify(next.body)).toBe(201)
    expect(next.body.id).toBeGreaterThan(Math.max(...responseIds))
    expect(await restarted.server.stop()).toBe(0)
  }, 600_000)
})
