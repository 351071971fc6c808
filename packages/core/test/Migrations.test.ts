/**
 * Migrations as history: each migration is a file of its own, recorded with
 * the SHA-256 of its text once it lands (`storage/migrations/checksums.json`),
 * so an edit of a landed migration fails here; the loader runs exactly those
 * files, in increasing order; and the schema they build on each database is
 * the checked-in `storage/schema.sql`, the same on PostgreSQL and PGlite.
 */
import { createHash } from "node:crypto"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { Migrator, SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import * as Database from "../src/storage/Database.ts"
import { loader } from "../src/storage/Migrations.ts"
import * as PgliteClient from "../src/storage/PgliteClient.ts"
import * as SchemaSnapshot from "../src/storage/SchemaSnapshot.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"

const storage = join(import.meta.dirname, "../src/storage")
const dir = join(storage, "migrations")
const files = readdirSync(dir)
  .filter((name) => name.endsWith(".ts"))
  .sort()
const recorded: Record<string, string> = JSON.parse(readFileSync(join(dir, "checksums.json"), "utf8"))
const sha256 = (name: string) =>
  createHash("sha256")
    .update(readFileSync(join(dir, name)))
    .digest("hex")

describe("migrations", () => {
  it("are one file each, named by id, and every landed one is unchanged", () => {
    for (const name of files)
      expect(name, "a migration file is named like 0019_what_it_does.ts").toMatch(/^\d{4}_[a-z0-9_]+\.ts$/)
    const changed = files.filter((name) => {
      const sum = recorded[name.replace(/\.ts$/, "")]
      return sum !== undefined && sum !== sha256(name)
    })
    expect(changed, "a landed migration is never edited: put the change in a new migration").toEqual([])
    const unrecorded = files.map((name) => name.replace(/\.ts$/, "")).filter((id) => recorded[id] === undefined)
    expect(unrecorded, "record a new migration's checksum with npm run db:checksums").toEqual([])
    const missing = Object.keys(recorded).filter((id) => !files.includes(`${id}.ts`))
    expect(missing, "a landed migration is never removed or renamed").toEqual([])
  })

  it("are all loaded, in strictly increasing order of their ids", async () => {
    const loaded = await Effect.runPromise(loader)
    expect(loaded.map(([id, name]) => `${String(id).padStart(4, "0")}_${name}`)).toEqual(
      files.map((name) => name.replace(/\.ts$/, ""))
    )
    const ids = loaded.map(([id]) => id)
    expect(ids.every((id, index) => index === 0 || id > ids[index - 1]!)).toBe(true)
  })

  it("carry the data saved before them: a workspace's page settings saved under 0023 move to 0024's table", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "qforms-migrations-"))
    try {
      // A database as 0023 left it, with settings saved in its column of workspaces.
      const upTo0023 = Effect.map(loader, (all) => all.filter(([id]) => id <= 23))
      await Effect.runPromise(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* sql.unsafe(`create schema "${Database.defaultSchema}"`)
          yield* sql.unsafe(`set search_path to "${Database.defaultSchema}", public`)
          yield* Migrator.make({})({ loader: upTo0023, table: "qforms_migrations" })
          yield* sql`insert into workspaces (name, created_at, settings)
            values ('Kept', now(), ${JSON.stringify({ theme: { font: "serif", radius: 6 } })}::jsonb),
              ('Plain', now(), '{}'::jsonb)`
        }).pipe(
          Effect.provide(
            Layer.effectContext(PgliteClient.makeContext({ dataDir })).pipe(Layer.provide(Reactivity.layer))
          ),
          Effect.scoped
        )
      )
      // Opened by this version: the rest of the migrations run, and the settings are where 0024 keeps them.
      const rows = await Effect.runPromise(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          return yield* sql<{ readonly name: string; readonly settings: unknown }>`
            select w.name, s.settings from workspaces w
            left join workspace_page_settings s on s.workspace_id = w.id order by w.id`
        }).pipe(Effect.provide(Database.layerPglite({ dataDir })), Effect.scoped)
      )
      expect(rows).toEqual([
        { name: "Kept", settings: { theme: { font: "serif", radius: 6 } } },
        { name: "Plain", settings: null }
      ])
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  const snapshot = readFileSync(join(storage, "schema.sql"), "utf8").replace(/^(--.*\n)+\n/, "")
  for (const target of databaseTargets) {
    it(`build the checked-in schema.sql on ${target.name}`, async () => {
      const text = await Effect.runPromise(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const [row] = yield* sql<{ readonly schema: string }>`select current_schema() as schema`
          return yield* SchemaSnapshot.read(row!.schema)
        }).pipe(Effect.provide(target.layer()))
      )
      expect(text, "regenerate it with npm run db:schema").toBe(snapshot)
    })
  }
})
