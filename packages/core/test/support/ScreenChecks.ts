/**
 * What the public page's browser suites check on every screen they reach
 * (`PublicPageBrowser`, `PublicPageScreensBrowser`): axe-core finds no
 * violation, a screenshot is saved in `packages/core/test-artifacts/`, and
 * the page fits its viewport's width.
 */
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { expect } from "vitest"
import { artifacts, axeSource } from "@qforms/test-kit/Browser"

/** The little of the DOM these tests read inside the page (the project compiles without the DOM library). */
export interface PageElement {
  readonly tagName: string
  readonly id: string
  getAttribute(name: string): string | null
  matches(selector: string): boolean
}
export interface PageWindow {
  readonly document: { readonly activeElement: PageElement | null }
}

export interface Flow {
  readonly page: Page
  readonly name: string
  /** The theme the page is shown in (and axe checks contrast in). */
  readonly colorScheme: "light" | "dark"
  step: number
}

/** Whether the page fits its viewport's width (no sideways scrolling). */
export const fitsWidth = (page: Page) =>
  page.evaluate(() => {
    const d = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } })
      .document.documentElement
    return d.scrollWidth <= d.clientWidth
  })

/** How {@link phoneFlow} opens its page. */
export interface PhoneFlowOptions {
  readonly colorScheme: "light" | "dark"
  /** Whether the page runs its JavaScript; default true. */
  readonly js?: boolean | undefined
  /** The browser's language (`Accept-Language`); default Playwright's. */
  readonly locale?: string | undefined
}

/**
 * A flow on a 360 × 740 px phone: a page in a browser context of its own, named `name` in the screenshots;
 * `flow.page.context().close()` ends it.
 *
 * @example
 * ```ts
 * const flow = await phoneFlow(browser, "pages-nojs-dark", { colorScheme: "dark", js: false })
 * await flow.page.goto(url)
 * await check(flow, "welcome")
 * ```
 */
export const phoneFlow = async (browser: Browser, name: string, options: PhoneFlowOptions): Promise<Flow> => {
  const context = await browser.newContext({
    javaScriptEnabled: options.js ?? true,
    colorScheme: options.colorScheme,
    ...(options.locale === undefined ? {} : { locale: options.locale }),
    viewport: { width: 360, height: 740 }
  })
  return { page: await context.newPage(), name, colorScheme: options.colorScheme, step: 0 }
}

/** Each flow's page for axe: one per flow (its theme), opened on its first check, closed with the flow's context. */
const axePages = new WeakMap<Flow, Promise<Page>>()
const axePageOf = (flow: Flow): Promise<Page> => {
  const known = axePages.get(flow)
  if (known !== undefined) return known
  const opened = flow.page
    .context()
    .browser()!
    .newPage({ javaScriptEnabled: true, bypassCSP: true, colorScheme: flow.colorScheme })
  axePages.set(flow, opened)
  // (When the whole browser closes, its contexts go with it: nothing left to close then.)
  flow.page.context().once("close", () => void opened.then((page) => page.context().close()).catch(() => undefined))
  return opened
}

/** Runs axe-core on the current screen (0 violations expected) and saves a screenshot. */
export const check = async (flow: Flow, label: string) => {
  flow.step += 1
  const file = join(artifacts, `${flow.name}-${String(flow.step).padStart(2, "0")}-${label}.png`)
  await flow.page.screenshot({ path: file, fullPage: true })
  const html = await flow.page.content()
  // axe runs in a page of its own with the same markup, so it works with the form's JavaScript off too.
  const axePage = await axePageOf(flow)
  await axePage.setContent(html)
  // The page keeps its window through setContent, so axe is loaded once per flow.
  if (await axePage.evaluate(() => (globalThis as unknown as { axe?: unknown }).axe === undefined))
    await axePage.addScriptTag({ content: axeSource })
  const result = await axePage.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (context: unknown) => Promise<{
            violations: ReadonlyArray<{ id: string; help: string; nodes: ReadonlyArray<{ html: string }> }>
          }>
        }
      }
    ).axe
    const r = await axe.run((globalThis as unknown as PageWindow).document)
    return r.violations.map(
      (v: { id: string; help: string; nodes: ReadonlyArray<{ html: string }> }) =>
        `${v.id}: ${v.help} (${v.nodes.map((n) => n.html).join(" | ")})`
    )
  })
  expect(result, `axe on ${label}`).toEqual([])
}

/** Waits for the screen of a question (its label or legend). */
export const screen = async (page: Page, text: string) => {
  await page.locator("#question, h1").filter({ hasText: text }).first().waitFor({ timeout: 10_000 })
}
