/**
 * The application's paths under the mount prefix: the prefix of a base URL,
 * and where a browser may be sent after sign-in (no open redirect).
 */

/** The path prefix qforms is mounted under ("" at the root). */
export const prefixOf = (base: string): string =>
  (/^https?:\/\//.test(base) ? new URL(base).pathname : base).replace(/\/$/, "")

/** Only a path of the application may be the target after sign-in (no open redirect). */
export const safeNext = (prefix: string, next: string | undefined) =>
  next !== undefined && /^\/app(\/[A-Za-z0-9/_-]*)?(\?[A-Za-z0-9=&_%.-]*)?$/.test(next)
    ? `${prefix}${next}`
    : `${prefix}/app`
