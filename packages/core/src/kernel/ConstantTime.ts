/**
 * Comparing secrets without telling, by how long the comparison takes, how
 * much of a guess was right.
 *
 * @module
 */
import { timingSafeEqual } from "node:crypto"

/**
 * Whether two strings are the same, in time that depends only on their
 * lengths (a length that differs is told at once; secrets of one kind share
 * theirs).
 *
 * @example
 * ```ts
 * equalStrings(request.headers["x-qforms-inbound-secret"] ?? "", inboundSecret)
 * ```
 */
export const equalStrings = (a: string, b: string): boolean => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
