/**
 * The welcome page (`GET /`) in Chromium: axe-core finds nothing at 360 px,
 * light and dark, no CSP violation, and its links lead under the mount
 * prefix. (What it answers: `WelcomePage.test.ts`.)
 */
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { artifact, axeSource, launch, present } from "@qforms/test-kit/Browser"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { prefix, type PrefixServer, startPrefixServer } from "@qforms/test-kit/PrefixServer"

describe.skipIf(!present)("the welcome page in Chromium", () => {
  let server: PrefixServer
  let browser: Browser

  beforeAll(async () => {
    server = await startPrefixServer(databaseTargets[0]!, { app: true })
    browser = await launch()
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  for (const colorScheme of ["light", "dark"] as const) {
    it(`passes axe at 360 px in the ${colorScheme} theme, with no CSP violation`, async () => {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 }, colorScheme })
      const page = await context.newPage()
      const problems: Array<string> = []
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(message.text())
      })
      await page.goto(`${server.url}${prefix}/`)
      await page.getByRole("heading", { name: "qforms", level: 1 }).waitFor()
      await page.screenshot({ path: artifact(join(`welcome-${colorScheme}.png`)), fullPage: true })
      // Its CSP allows no script of the page's own: axe is evaluated through the protocol, which the CSP does not govern.
      await page.evaluate(axeSource)
      const violations = await page.evaluate(async () => {
        const axe = (
          globalThis as unknown as {
            axe: {
              run: (
                context: unknown
              ) => Promise<{ violations: ReadonlyArray<{ id: string; nodes: ReadonlyArray<{ html: string }> }> }>
            }
          }
        ).axe
        const result = await axe.run((globalThis as unknown as { document: unknown }).document)
        return result.violations.map((v) => `${v.id} (${v.nodes.map((n) => n.html).join(" | ")})`)
      })
      expect(violations).toEqual([])
      // The links lead under the prefix.
      await page.getByRole("link", { name: "API reference" }).click()
      await page.waitForURL(`${server.url}${prefix}/api/docs`)
      expect(problems).toEqual([])
      await context.close()
    }, 120_000)
  }
})
