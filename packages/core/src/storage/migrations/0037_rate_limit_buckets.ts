/**
 * Migration 0037_rate_limit_buckets. Token buckets shared by every process on
 * the database (`web/RateLimitStore.ts`, `layerDatabase`): one row per bucket
 * (`<limit name>:<key>`), its tokens after the last request and when it was
 * taken from (milliseconds of the processes' clocks), whether that request was
 * allowed (read back by the same statement), and when the bucket is full again
 * at the latest (`stale_ms`, what the sweep deletes by).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table rate_limit_buckets (
      key text primary key,
      tokens double precision not null,
      updated_ms double precision not null,
      stale_ms double precision not null,
      allowed boolean not null
    )`
  yield* sql`create index rate_limit_buckets_stale on rate_limit_buckets (stale_ms)`
})
