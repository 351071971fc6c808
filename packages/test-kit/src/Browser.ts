/**
 * Chromium for the browser tests: Debian's /usr/bin/chromium (or
 * `QFORMS_CHROMIUM`) driven by playwright-core, the screenshots folder and
 * axe-core's source. Under `CI=true` a missing Chromium is an error, not a skip.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { type Browser, chromium, type Page } from "playwright-core"

export const chromiumPath = process.env["QFORMS_CHROMIUM"] ?? "/usr/bin/chromium"

/** Whether Chromium is installed here; suites `describe.skipIf(!present)` outside CI. */
export const present = existsSync(chromiumPath)

if (!present && process.env["CI"] === "true") {
  throw new Error(`CI=true but Chromium is not at ${chromiumPath}: install it (apt-get install -y chromium)`)
}

/** Where screenshots go (gitignored): `packages/core/test-artifacts/`, beside the browser suites, made on first use. */
export const artifacts = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "core", "test-artifacts")

/** `artifacts/<name>`, with the folder made. */
export const artifact = (name: string): string => {
  mkdirSync(artifacts, { recursive: true })
  return join(artifacts, name)
}

/** axe-core's script, to evaluate in a page. */
export const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

/**
 * Runs axe-core in the page as it is now: each violation as one line (rule, help, the offending elements).
 *
 * @example
 * ```ts
 * expect(await axeViolations(page), "axe on the forms screen").toEqual([])
 * ```
 */
export const axeViolations = async (page: Page): Promise<ReadonlyArray<string>> => {
  await page.evaluate(axeSource)
  return page.evaluate(async () => {
    interface Violation {
      readonly id: string
      readonly help: string
      readonly nodes: ReadonlyArray<{ readonly html: string }>
    }
    const axe = (
      globalThis as unknown as { axe: { run: (context: unknown) => Promise<{ violations: ReadonlyArray<Violation> }> } }
    ).axe
    const result = await axe.run((globalThis as unknown as { document: unknown }).document)
    return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.html).join(" | ")})`)
  })
}

/**
 * Headless Chromium with the flags this machine's closed network needs
 * (no background networking, no component updates, no sync).
 */
export const launch = (): Promise<Browser> =>
  chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run"
    ]
  })
