/**
 * Files core ships in its sources and reads at run time (the public page's
 * script). Run from the sources, a module in
 * `src/<folder>/` finds them beside it; from a build, the module is
 * `dist/index.js` and the package's `src/` (published with it) holds them.
 */
import { existsSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

/**
 * Where a file of core's sources may be, for the module at `moduleUrl`:
 * `srcPath` is its path under `src/`.
 *
 * @example
 * ```ts
 * PackagedFiles.candidates(import.meta.url, "pages/static/page.js")
 * ```
 */
export const candidates = (moduleUrl: string, srcPath: string): ReadonlyArray<string> => {
  const here = dirname(fileURLToPath(moduleUrl))
  return [join(here, "..", srcPath), join(here, "..", "src", srcPath)]
}

/**
 * The first of {@link candidates} that exists, or undefined.
 *
 * @example
 * ```ts
 * const path = PackagedFiles.locate(import.meta.url, "pages/static/page.js")
 * ```
 */
export const locate = (moduleUrl: string, srcPath: string): string | undefined =>
  candidates(moduleUrl, srcPath).find((path) => existsSync(path))
