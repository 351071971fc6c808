/**
 * Chromium for the browser tests: Debian's /usr/bin/chromium (or
 * `QFORMS_CHROMIUM`) driven by playwright-core, the screenshots folder and
 * axe-core's source, and what the suites do with a page: open one in a
 * context of its own (locale, light or dark, viewport) that collects the
 * page's errors, sign in to the application, save a screenshot and run axe,
 * find what reaches past the page's sides. Under `CI=true` a missing Chromium
 * is an error, not a skip.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { type Browser, chromium, type Page } from "playwright-core"
import { expect } from "vitest"

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
  // Loaded once per document: parsing axe costs more than a run, and a single-page screen keeps its document.
  if (await page.evaluate(() => (globalThis as unknown as { axe?: unknown }).axe === undefined))
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

/** How {@link newPage} opens a page. */
export interface PageOptions {
  /** The browser's language (`Accept-Language`, `navigator.language`); default `en-US`. */
  readonly locale?: string
  /** The theme the page is shown in (and axe checks contrast in); default `light`. */
  readonly colorScheme?: "light" | "dark"
  /** The viewport's width in CSS pixels; default 1280. */
  readonly width?: number
  /** The viewport's height in CSS pixels; default 900. */
  readonly height?: number
  /** Permissions granted to the page's context (e.g. `clipboard-read`). */
  readonly permissions?: ReadonlyArray<string>
  /**
   * Where the page's problems go, if anywhere: every uncaught error (`page error: …`) and the console's
   * Content Security Policy violations, and its other errors too unless `consoleErrors` is false.
   */
  readonly problems?: Array<string>
  /** Whether console errors other than CSP violations are problems; default true. */
  readonly consoleErrors?: boolean
}

/**
 * A new page in a browser context of its own (no cookies shared with other pages), with the locale, theme and
 * viewport asked for; its problems are pushed to `options.problems` when given.
 *
 * @example
 * ```ts
 * const problems: Array<string> = []
 * const phone = await newPage(browser, { colorScheme: "dark", width: 360, problems })
 * // … the steps …
 * expect(problems).toEqual([])
 * ```
 */
export const newPage = async (browser: Browser, options: PageOptions = {}): Promise<Page> => {
  const context = await browser.newContext({
    locale: options.locale ?? "en-US",
    colorScheme: options.colorScheme ?? "light",
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    ...(options.permissions === undefined ? {} : { permissions: [...options.permissions] })
  })
  const page = await context.newPage()
  const problems = options.problems
  if (problems !== undefined) {
    const consoleErrors = options.consoleErrors ?? true
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`))
    page.on("console", (message) => {
      if ((consoleErrors && message.type() === "error") || /Content Security Policy/i.test(message.text()))
        problems.push(message.text())
    })
  }
  return page
}

/** Who signs in with {@link signIn}, where, and through which words of the sign-in form. */
export interface SignIn {
  /** The server's address, e.g. a Loopback's `url`: the sign-in starts at `<url>/app`. */
  readonly url: string
  readonly email: string
  readonly password: string
  /**
   * The fields' labels, to find them by (which checks the form's words too); without, the e-mail and password
   * inputs are found by their types, in any language.
   */
  readonly labels?: { readonly email: string; readonly password: string }
  /** The submit button's name, to click; without, Enter is pressed in the password field. */
  readonly submit?: string
}

/**
 * Signs in to the application in `page`: opens `/app`, which sends a visitor to the sign-in screen, fills in the
 * e-mail address and password, submits, and waits for the screen signed in to (its `main h1`).
 *
 * @example
 * ```ts
 * await signIn(page, { url: loopback.url, email: "olivia@example.com", password })
 * ```
 */
export const signIn = async (page: Page, who: SignIn): Promise<void> => {
  await page.goto(`${who.url}/app`)
  await page.waitForURL(/\/app\/sign-in/)
  await (who.labels ? page.getByLabel(who.labels.email) : page.locator("input[type=email]")).fill(who.email)
  await (who.labels ? page.getByLabel(who.labels.password) : page.locator("input[type=password]")).fill(who.password)
  if (who.submit === undefined) await page.keyboard.press("Enter")
  else await page.getByRole("button", { name: who.submit }).click()
  await page.locator("main h1").waitFor()
}

/**
 * Saves a screenshot of the whole page as `artifacts/<name>.png` and runs axe-core in it: the test fails on any
 * violation (each listed with its elements).
 *
 * @example
 * ```ts
 * await screenshotAndAxe(page, "summary-dark")
 * ```
 */
export const screenshotAndAxe = async (page: Page, name: string): Promise<void> => {
  await page.screenshot({ path: artifact(`${name}.png`), fullPage: true })
  expect(await axeViolations(page), `axe on ${name}`).toEqual([])
}

/**
 * The elements that reach past the page's sides (up to 12, as `tag#id.class`), or none when the page does not
 * scroll sideways: a page must fit its viewport's width (a 360 px phone, right to left too).
 *
 * @example
 * ```ts
 * expect(await overflows(phone), "the forms screen at 360 px overflows").toEqual([])
 * ```
 */
export const overflows = (page: Page): Promise<ReadonlyArray<string>> =>
  page.evaluate(() => {
    interface Element {
      readonly tagName: string
      readonly id: string
      readonly className: string | { readonly baseVal: string }
      getBoundingClientRect(): { readonly left: number; readonly right: number }
    }
    const d = (
      globalThis as unknown as {
        document: {
          readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number }
          querySelectorAll(selector: string): ArrayLike<Element>
        }
      }
    ).document
    const width = d.documentElement.clientWidth
    if (d.documentElement.scrollWidth <= width) return []
    return Array.from(d.querySelectorAll("body *"))
      .filter((el) => {
        const box = el.getBoundingClientRect()
        return box.right > width + 1 || box.left < -1
      })
      .slice(0, 12)
      .map((el) => {
        const name = typeof el.className === "string" ? el.className : el.className.baseVal
        return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${name ? `.${name.split(" ").join(".")}` : ""}`
      })
  })
