/**
 * The files the application's pages load: its own modules and style sheet
 * (`static/`), and the third-party modules they import (Preact, htm,
 * intl-messageformat), each read once and then kept.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import * as Result from "effect/Result"
import * as PackagedFiles from "../web/PackagedFiles.ts"

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

/** One of the application's own files, by name (`main.js`, `app.css`), or null. */
export const readStatic = (name: string) =>
  readOnce(name, () => PackagedFiles.locate(import.meta.url, `app/static/${name}`))

/** A third-party module by the name the client imports it under (`preact.mjs`), or null. */
export const readVendor = (name: string) => readOnce(`vendor/${name}`, () => vendor[name]?.resolve())
