/**
 * The databases a scenario runs on: a fresh PGlite data directory, or a fresh
 * schema on PostgreSQL (dropped afterwards). Seeding goes straight to the
 * database with SQL; on PGlite only while no server holds the directory.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"

export type DbKind = "pglite" | "pg"

/** A query function: text with $1… parameters, answers the rows. */
export type Query = <R = Record<string, unknown>>(text: string, params?: ReadonlyArray<unknown>) => Promise<Array<R>>

/** One database of a scenario. */
export interface DbTarget {
  readonly kind: DbKind
  /** What to put in the environment of a qforms process. */
  readonly env: Record<string, string>
  /** A label for reports: the directory or the schema. */
  readonly label: string
  /** PostgreSQL only: the connection URL and schema. */
  readonly url?: string
  readonly schema: string
  /** Runs `fn` with a connection to the database (on PGlite: opens the directory in this process). */
  readonly withQuery: <A>(fn: (query: Query) => Promise<A>) => Promise<A>
  /** Deletes the directory or drops the schema. */
  readonly cleanup: () => Promise<void>
}

/** The PostgreSQL URL of the run, if any. */
export const pgUrl = (): string | undefined =>
  process.env.DATABASE_URL || process.env.QFORMS_TEST_DATABASE_URL || undefined

const tempDirs = new Set<string>()

const randomSuffix = () => Math.random().toString(36).slice(2, 8)

export const pglite = (name: string): DbTarget => {
  const dir = mkdtempSync(join(tmpdir(), `qforms-bench-${name}-`))
  tempDirs.add(dir)
  return {
    kind: "pglite",
    env: { QFORMS_DATA_DIR: dir },
    label: dir,
    schema: "qforms",
    withQuery: async (fn) => {
      const { PGlite } = await import("@electric-sql/pglite")
      const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm")
      const db = new PGlite(dir, { extensions: { pg_trgm } })
      try {
        await db.exec(`set search_path to "qforms", public`)
        const query: Query = async (text, params) =>
          (await db.query(text, params as Array<unknown> | undefined)).rows as never
        return await fn(query)
      } finally {
        await db.close()
      }
    },
    cleanup: async () => {
      rmSync(dir, { recursive: true, force: true })
      tempDirs.delete(dir)
    }
  }
}

export const postgres = (name: string, url: string): DbTarget => {
  const schema = `bench_${name.replace(/[^a-z0-9_]/g, "_")}_${randomSuffix()}`
  const connect = async () => {
    const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema},public` })
    await client.connect()
    return client
  }
  return {
    kind: "pg",
    env: { DATABASE_URL: url, QFORMS_DB_SCHEMA: schema },
    label: `schema ${schema}`,
    url,
    schema,
    withQuery: async (fn) => {
      const client = await connect()
      try {
        const query: Query = async (text, params) => (await client.query(text, params as Array<unknown>)).rows
        return await fn(query)
      } finally {
        await client.end()
      }
    },
    cleanup: async () => {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        await client.query(`drop schema if exists ${schema} cascade`)
      } finally {
        await client.end()
      }
    }
  }
}

/** A fresh database of `kind` for `name`. */
export const make = (kind: DbKind, name: string): DbTarget => {
  if (kind === "pglite") return pglite(name)
  const url = pgUrl()
  if (url === undefined) throw new Error("PostgreSQL: set DATABASE_URL or QFORMS_TEST_DATABASE_URL")
  return postgres(name, url)
}

/** Removes temporary directories left by an interrupted run. */
export const cleanupTempDirs = () => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
  tempDirs.clear()
}
