/**
 * Router paths (`/f/:publicId/responses`) as regular expressions: the one
 * reading of a path's segments that the route book (which route a request
 * is) and the log redaction (which segment of it is a token) both use.
 *
 * @module
 */

/**
 * The segments of a path as a regular expression's source: literal segments
 * escaped, each `:name` matching `parameter`, joined by `/`.
 *
 * @example
 * ```ts
 * segmentsSource(["", "f", ":publicId"], "[^/]+") // "/f/[^/]+"
 * ```
 */
export const segmentsSource = (segments: ReadonlyArray<string>, parameter: string): string =>
  segments
    .map((segment) => (segment.startsWith(":") ? parameter : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/")

/**
 * A router path as a pattern: `:name` is one segment, a trailing `*` any
 * rest (also none), and a trailing slash is optional.
 *
 * @example
 * ```ts
 * toPattern("/f/:publicId/responses").test("/f/abc/responses") // true
 * toPattern("/app/*").test("/app") // true
 * ```
 */
export const toPattern = (path: string): RegExp => {
  const wildcard = path.endsWith("/*")
  const segments = segmentsSource((wildcard ? path.slice(0, -2) : path).split("/"), "[^/]+")
  return new RegExp(wildcard ? `^${segments}(/.*)?$` : `^${segments}/?$`)
}
