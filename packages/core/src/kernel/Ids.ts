/**
 * Identifiers: the database's integer ids are positive 32-bit integers, so an
 * id outside that range can be refused as input instead of failing in a query.
 */
import * as Schema from "effect/Schema"

/** The largest id: 2^31 − 1. */
export const maxId = 2_147_483_647

/**
 * A positive 32-bit integer id.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(Ids.Id)(12) // 12
 * ```
 */
export const Id = Schema.Int.check(
  Schema.isBetween({ minimum: 1, maximum: maxId }, { message: `must be an id: an integer from 1 to ${maxId}` })
)
