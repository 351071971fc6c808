/**
 * jsonb columns decoded with their Schemas where rows leave the database.
 *
 * What is cast and why that is safe: rows are typed by the interface each
 * query names (`sql<Row>`). For columns of plain SQL types (int4, text,
 * boolean, timestamptz, …) that is exact, not hoped for: their types are fixed
 * by the migrations (`schema.sql`, checked in CI) and both drivers map them
 * the same way, which `DriverTypes.test.ts` checks on PGlite and PostgreSQL
 * (int4 → number, boolean → boolean, timestamptz → Date, text → string,
 * numeric → string, jsonb → parsed JSON). The one exception is int8, what
 * count() and sum() return: a bigint on PostgreSQL, a number on PGlite while
 * it is safe; so counts are cast to int in SQL, and the one int8 read as such
 * (the sum of file sizes) goes through Number(). A jsonb column is different: the database only knows it is JSON,
 * not its shape. Those values are decoded here with the Schema of what was
 * written (its type side, the form in which it was stored); a value that does
 * not match is a defect naming the column (a 500 with a generic message),
 * never a wrong value handed on.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

/** A stored value that does not match the Schema it was written with. */
export class StoredValueMismatch extends Error {
  override readonly name = "StoredValueMismatch"
}

/**
 * Decodes a jsonb value read from `column` with the type side of `schema`;
 * dies with {@link StoredValueMismatch} when it does not match.
 *
 * @example
 * ```ts
 * const options = yield* StoredJson.decode(AnyFieldOptions, "fields.options")(row.options)
 * ```
 */
export const decode =
  <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, column: string) =>
  (value: unknown): Effect.Effect<S["Type"]> =>
    Schema.decodeUnknownEffect(Schema.toType(schema))(value).pipe(
      Effect.mapError((error) => new StoredValueMismatch(`${column} does not match its schema: ${error.message}`)),
      Effect.orDie
    )

/** {@link decode} for a nullable column: null stays null. */
export const decodeNullable =
  <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, column: string) =>
  (value: unknown): Effect.Effect<S["Type"] | null> =>
    value === null ? Effect.succeed(null) : decode(schema, column)(value)
