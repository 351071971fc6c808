/**
 * What the fetch client costs a browser page: `src/index.ts` bundled for the browser with rolldown (the bundler
 * under tsdown), minified, then gzipped. The README records the figure; the ceiling here is generous, so only a
 * real regression (a dependency pulled in, the types leaking into the code) fails it.
 */
import { gzipSync } from "node:zlib"
import { fileURLToPath } from "node:url"
import { build } from "rolldown"
import { describe, expect, it } from "vitest"

/** Minified and gzipped, in bytes. */
const ceiling = 8 * 1024

describe("the browser bundle", () => {
  it(`is under ${ceiling / 1024} KiB minified and gzipped, with no import left`, async () => {
    const result = await build({
      input: fileURLToPath(new URL("../src/index.ts", import.meta.url)),
      platform: "browser",
      write: false,
      output: { format: "esm", minify: true }
    })
    const chunks = result.output.filter((o) => o.type === "chunk")
    expect(chunks).toHaveLength(1)
    const code = chunks[0]!.code
    expect(code).not.toMatch(/\bimport\s*[{(*"']/)
    const gzipped = gzipSync(code, { level: 9 }).length
    process.stdout.write(`@qforms/client browser bundle: ${code.length} B minified, ${gzipped} B gzipped\n`)
    expect(gzipped).toBeLessThan(ceiling)
  })
})
