/**
 * The files the application's pages load: its own modules and style sheet
 * (the private workspace package `@qforms/app`, resolved through the package
 * like `@qforms/embed`; a build of core carries a copy of them in
 * `dist/app/`, since the package is never published), and the third-party
 * modules they import (Preact, htm, intl-messageformat, core's own
 * dependencies), each read once and then kept.
 */
import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Result from "effect/Result"

const require = createRequire(import.meta.url)

// htm exports no package.json: its root is the parent of its main file's directory (dist/).
const htmRoot = () => join(dirname(require.resolve("htm")), "..")

/** The third-party modules the client imports, by the name it imports them under. */
const vendor: Record<string, { readonly file: string; readonly resolve: () => string }> = {
  "preact.mjs": {
    file: "preact.mjs",
    resolve: () => join(dirname(require.resolve("preact/package.json")), "dist", "preact.mjs")
  },
  "hooks.mjs": {
    file: "hooks.mjs",
    resolve: () => join(dirname(require.resolve("preact/package.json")), "hooks", "dist", "hooks.mjs")
  },
  "htm.mjs": { file: "htm.mjs", resolve: () => join(htmRoot(), "dist", "htm.mjs") },
  "htm-preact.mjs": {
    file: "htm-preact.mjs",
    resolve: () => join(htmRoot(), "preact", "index.mjs")
  },
  // The package's browser build: one self-contained ES module (the parser included).
  "intl-messageformat.mjs": {
    file: "intl-messageformat.mjs",
    resolve: () => join(dirname(require.resolve("intl-messageformat")), "intl-messageformat.iife.js")
  }
}

const fileCache = new Map<string, string | null>()
/** A file's text, or null when it is absent or unreadable (read once, then kept). */
const readOnce = (key: string, locate: () => string | undefined): string | null => {
  const cached = fileCache.get(key)
  if (cached !== undefined) return cached
  const text = Result.getOrNull(
    Result.try(() => {
      const path = locate()
      return path === undefined ? null : readFileSync(path, "utf8").replace(/\/\/# sourceMappingURL=.*$/m, "")
    })
  )
  fileCache.set(key, text)
  return text
}

/**
 * Where the application's own files are: `@qforms/app`'s `src/` where the workspace package resolves (tests and
 * `npm start` from the sources, and a build inside the repository), else the copy beside a build of core
 * (`dist/app/`, what the published package carries).
 */
const appRoot = (): string | undefined => {
  const workspace = Result.getOrUndefined(
    Result.try(() => join(dirname(require.resolve("@qforms/app/package.json")), "src"))
  )
  if (workspace !== undefined) return workspace
  const copy = join(dirname(fileURLToPath(import.meta.url)), "app")
  return existsSync(join(copy, "main.js")) ? copy : undefined
}

/**
 * One of the application's own files by its path under the package's `src/` (`main.js`, `app.css`,
 * `shared/Api.js`), or null.
 */
export const readStatic = (path: string) =>
  readOnce(path, () => {
    const root = appRoot()
    return root === undefined ? undefined : join(root, path)
  })

/** A third-party module by the name the client imports it under (`preact.mjs`), or null. */
export const readVendor = (name: string) => readOnce(`vendor/${name}`, () => vendor[name]?.resolve())
