/**
 * The API reference page (`/api/docs`) in Chromium: the reference renders the
 * operations without one request to another origin and without one CSP
 * violation. (Its caching and compression: `DocsPage.test.ts`.)
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, present } from "@qforms/test-kit/Browser"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { prefix, type PrefixServer, startPrefixServer } from "@qforms/test-kit/PrefixServer"

describe.skipIf(!present)("the API reference page in Chromium", () => {
  let server: PrefixServer
  let browser: Browser

  beforeAll(async () => {
    server = await startPrefixServer(databaseTargets[0]!)
    browser = await launch()
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  /** The reference has rendered: the API's title and an operation (its path as the title, its method beside it). */
  const rendered = async (page: Page) => {
    await page.getByRole("heading", { name: "qforms API", level: 1 }).waitFor({ timeout: 60_000 })
    await page.locator("h3", { hasText: "/api/forms" }).first().waitFor({ timeout: 60_000 })
  }

  /**
   * What the drawn reference asks for has been asked: the page has loaded, and
   * every font its style sheets made the browser load has loaded (or failed).
   */
  const settled = async (page: Page) => {
    await page.waitForLoadState("load", { timeout: 60_000 })
    await page.evaluate(() =>
      (globalThis as unknown as { document: { fonts: { ready: Promise<unknown> } } }).document.fonts.ready.then(
        () => true
      )
    )
  }

  it("renders the operations without one request to another origin (CSP off, so nothing is hidden by it)", async () => {
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const requests: Array<string> = []
    page.on("request", (request) => requests.push(request.url()))
    await page.goto(`${server.url}${prefix}/api/docs`)
    await rendered(page)
    await settled(page)
    const origin = new URL(server.url).origin
    const elsewhere = requests.filter(
      (url) => !url.startsWith("data:") && !url.startsWith("blob:") && new URL(url).origin !== origin
    )
    expect(elsewhere).toEqual([])
    const paths = requests.filter((url) => url.startsWith(origin)).map((url) => new URL(url).pathname)
    expect(paths).toContain(`${prefix}/api/docs`)
    expect(paths).toContain(`${prefix}/api/openapi.json`)
    expect(paths.some((path) => path.startsWith(`${prefix}/api/docs/scalar-`))).toBe(true)
    await context.close()
  }, 120_000)

  it("renders under its CSP without a violation, an error, or a refused request", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const problems: Array<string> = []
    page.on("console", (message) => {
      if (message.type() === "error" || /Content Security Policy/i.test(message.text()))
        problems.push(`console: ${message.text()}`)
    })
    page.on("pageerror", (error) => problems.push(`page error: ${String(error)}`))
    page.on("requestfailed", (request) =>
      problems.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ""}`)
    )
    await page.addInitScript(() => {
      const record: Array<string> = []
      ;(globalThis as unknown as { __violations: Array<string> }).__violations = record
      ;(
        globalThis as unknown as {
          document: {
            addEventListener: (
              name: string,
              listener: (event: { violatedDirective: string; blockedURI: string }) => void
            ) => void
          }
        }
      ).document.addEventListener("securitypolicyviolation", (event) =>
        record.push(`${event.violatedDirective} ${event.blockedURI}`)
      )
    })
    await page.goto(`${server.url}${prefix}/api/docs`)
    await rendered(page)
    await settled(page)
    const violations = await page.evaluate(
      () => (globalThis as unknown as { __violations: Array<string> }).__violations
    )
    expect(violations).toEqual([])
    expect(problems).toEqual([])
    await context.close()
  }, 120_000)
})
