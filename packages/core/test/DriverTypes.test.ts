/**
 * What `storage/StoredJson.ts` states about casts rests on this: both drivers
 * turn each SQL type qforms stores into the same JavaScript type, so a row
 * interface naming `number`, `string`, `boolean` or `Date` for a column of
 * that type is exact, on PGlite and on PostgreSQL alike. The one type they do
 * not agree on is int8 (what count() and sum() of integers return): a bigint
 * on PostgreSQL, a number on PGlite while it is safe, so queries cast counts to
 * int in SQL or read them with Number().
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { databaseTargets } from "@qforms/test-kit/Databases"

for (const target of databaseTargets) {
  describe(`driver types on ${target.name}`, () => {
    it.layer(target.layer())((it) => {
      it.effect("int4, smallint, text, boolean, timestamptz, jsonb and arrays map alike; int8 does not", () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const [row] = yield* sql<Record<string, unknown>>`
            select 2147483647::int4 as int4, 7::smallint as int2, 'é'::text as text, true as bool,
              '2026-11-25T12:00:00.123Z'::timestamptz as timestamptz, null::text as "null",
              '{"a":[1,"x",null,true]}'::jsonb as jsonb, '"s"'::jsonb as jsonb_string,
              array['a','b']::text[] as text_array, array[1,2]::int4[] as int4_array,
              9007199254740993::int8 as int8, count(*) as count, 1.5::numeric as numeric,
              (select count(*) from forms)::int as count_int`
          const { int8, count, ...same } = row!
          expect(same).toEqual({
            int4: 2147483647,
            int2: 7,
            text: "é",
            bool: true,
            timestamptz: new Date("2026-11-25T12:00:00.123Z"),
            null: null,
            jsonb: { a: [1, "x", null, true] },
            jsonb_string: "s",
            text_array: ["a", "b"],
            int4_array: [1, 2],
            numeric: "1.5",
            count_int: 0
          })
          expect(row!["timestamptz"]).toBeInstanceOf(Date)
          // Beyond 2^53 a bigint on both; a small int8 is a bigint on PostgreSQL and a number on PGlite.
          expect(int8).toBe(9007199254740993n)
          expect(typeof count).toBe(target.name === "postgres" ? "bigint" : "number")
          expect(Number(count)).toBe(1)
        })
      )
    })
  })
}
