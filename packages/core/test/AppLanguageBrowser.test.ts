/**
 * The application's own interface in German and Arabic in a real browser
 * (Debian's Chromium): a browser that asks for German gets the sign-in page and
 * every screen (the inbox's summary view too) in German, with no English words
 * left in texts, labels, titles or placeholders, and dates and relative times
 * in German; the account then chooses Arabic on its page: every screen turns
 * right to left (`dir="rtl"`), fits a 360 px phone and passes axe in light and
 * dark; choosing "as the browser asks" brings German back. Screens are saved in
 * `packages/core/test-artifacts/` (`app-lang-*.png`).
 *
 * Skipped only when Chromium is absent outside CI; with CI=true a missing
 * browser fails the run.
 */
import * as Effect from "effect/Effect"
import type { Browser, Page } from "playwright-core"
import {
  launch,
  newPage as openPage,
  overflows,
  present,
  screenshotAndAxe,
  signIn as signInAs
} from "@qforms/test-kit/Browser"
import { listenFirst, type Loopback, loopbackApi } from "@qforms/test-kit/Loopback"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Sessions } from "../src/identity/Sessions.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import * as Qforms from "../src/Qforms.ts"

const password = "ein langes Passwort"

/** An element as the page functions below read it (the tests are typed without the DOM's types). */
interface DomElement {
  getAttribute(name: string): string | null
  closest(selector: string): DomElement | null
}

/** The browser's globals the page functions below use. */
interface Dom {
  readonly document: {
    readonly body: unknown
    readonly documentElement: {
      readonly dir: string
      readonly lang: string
    }
    createTreeWalker(
      root: unknown,
      what: number
    ): {
      nextNode(): { readonly parentElement: DomElement | null; readonly textContent: string | null } | null
    }
    querySelectorAll(selector: string): ArrayLike<DomElement>
  }
  getComputedStyle(element: DomElement): { readonly display: string; readonly visibility: string }
}

/** Saves a screenshot and runs axe-core in the page (0 violations expected). */
const check = (page: Page, label: string) => screenshotAndAxe(page, `app-lang-${label}`)

/**
 * English words no German or Arabic text has: what is left of the application's English in a screen's visible
 * texts and in its labels, titles, placeholders and alternative texts. The seeded data is German, so any hit is
 * the application's own.
 */
const englishWords =
  /\b(the|and|your|with|this|that|of|to|is|are|for|from|you|has|have|not|or|add|save|delete|cancel|close|new|edit|remove|show|search|loading|settings|forms|responses|account|sign|choose|no one|nobody|yet|none)\b/i

const englishLeftovers = (page: Page) =>
  page.evaluate((pattern) => {
    const dom = globalThis as unknown as Dom
    const d = dom.document
    const texts: Array<string> = []
    const walker = d.createTreeWalker(d.body, 4)
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const parent = node.parentElement
      if (parent === null || parent.closest("script,style,noscript,code,pre,.secret") !== null) continue
      const style = dom.getComputedStyle(parent)
      if (style.display === "none" || style.visibility === "hidden") continue
      const text = node.textContent?.trim() ?? ""
      if (text !== "") texts.push(text)
    }
    for (const element of Array.from(d.querySelectorAll("[aria-label],[title],[placeholder],[alt]"))) {
      for (const name of ["aria-label", "title", "placeholder", "alt"]) {
        const value = element.getAttribute(name)
        if (value) texts.push(`${name}: ${value}`)
      }
    }
    const english = new RegExp(pattern, "i")
    return texts.filter((text) => english.test(text))
  }, englishWords.source)

describe.skipIf(!present)("the application in German and Arabic in a browser", () => {
  let browser: Browser
  let qforms: Qforms.Qforms
  let loopback: Loopback | undefined
  let url = ""
  let key = ""
  let formId = 0
  let responseId = 0
  const pageErrors: Array<string> = []

  const api = loopbackApi(() => ({ url, key }))

  beforeAll(async () => {
    loopback = await listenFirst()
    url = loopback.url
    qforms = await Qforms.make({
      database: {},
      appUrl: url,
      app: true,
      logLevel: "Error",
      publicPage: { minSubmitSeconds: 0 },
      delivery: { worker: false }
    })
    key = await qforms.run(
      Effect.gen(function* () {
        const { workspace, ownerAccountId } = yield* (yield* Workspaces).create({
          name: "Werkstatt",
          ownerEmail: "lena@example.com",
          ownerName: "Lena Lehmann"
        })
        yield* (yield* Sessions).setPassword("lena@example.com", password)
        return (yield* (yield* ApiKeys).create(workspace.id, { accountId: ownerAccountId })).key
      })
    )
    loopback.serve(qforms)
    browser = await launch()
    // German data, so that any English on a screen is the application's own.
    const form = (await api("POST", "/forms", {
      title: "Kundenumfrage",
      fields: [
        { type: "short_text", label: "Ihr Name", required: true },
        { type: "select", label: "Worum geht es?", options: { choices: ["Rechnung", "Fehler"] } },
        { type: "rating", label: "Zufriedenheit" }
      ]
    })) as { id: number; fields: Array<{ id: number }> }
    formId = form.id
    const stages = (await api("GET", `/forms/${formId}/stages`)) as { stages: Array<{ id: number }> }
    for (const [index, stage] of stages.stages.entries())
      await api("PATCH", `/stages/${stage.id}`, { name: ["Eingang", "In Arbeit", "Erledigt", "Archiv"][index] })
    await api("PATCH", `/forms/${formId}`, { status: "published" })
    const response = (await api("POST", `/forms/${formId}/responses`, {
      values: { [form.fields[0]!.id]: "Jonas Becker", [form.fields[1]!.id]: "Rechnung", [form.fields[2]!.id]: 4 }
    })) as { id: number }
    responseId = response.id
    await api("POST", `/responses/${responseId}/notes`, { body: "Rückruf am Montag" })
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await loopback?.close()
    await qforms?.dispose()
  })

  const newPage = (options: { colorScheme?: "light" | "dark"; width?: number } = {}) =>
    openPage(browser, { ...options, locale: "de-DE", problems: pageErrors })

  /** Every screen of the application, each ready when its heading (or content) shows. */
  const screens = (page: Page) => [
    { label: "forms", path: "/app", ready: () => page.getByRole("link", { name: "Kundenumfrage" }).first().waitFor() },
    { label: "builder", path: `/app/forms/${formId}`, ready: () => page.locator("main h1").waitFor() },
    {
      label: "inbox",
      path: `/app/forms/${formId}/responses`,
      ready: () => page.getByRole("link", { name: "Jonas Becker" }).first().waitFor()
    },
    {
      label: "board",
      path: `/app/forms/${formId}/responses?view=board`,
      ready: () => page.locator(".board-card").first().waitFor()
    },
    {
      label: "summary",
      path: `/app/forms/${formId}/responses?view=summary`,
      ready: () => page.locator(".summary[aria-busy=false] svg[role=img]").first().waitFor()
    },
    {
      label: "case",
      path: `/app/responses/${responseId}`,
      ready: () => page.getByRole("heading", { name: "Jonas Becker", level: 1 }).waitFor()
    },
    { label: "settings", path: "/app/settings", ready: () => page.locator("[role=tab]").first().waitFor() },
    { label: "account", path: "/app/account", ready: () => page.locator("#app-language").waitFor() }
  ]

  const signIn = (page: Page) =>
    signInAs(page, {
      url,
      email: "lena@example.com",
      password,
      labels: { email: "E-Mail", password: "Passwort" },
      submit: "Anmelden"
    })

  /** Chooses the application's language on the account page; the page reloads in it (`""`: as the browser asks). */
  const choose = async (
    language: string,
    then: { readonly lang: string; readonly dir: string; readonly heading: string }
  ) => {
    const page = await newPage()
    await signIn(page)
    await page.goto(`${url}/app/account`)
    await page.locator("#app-language").selectOption(language)
    await page.waitForFunction(
      ({ lang, dir }) => {
        const root = (globalThis as unknown as Dom).document.documentElement
        return root.lang === lang && root.dir === dir
      },
      { lang: then.lang, dir: then.dir }
    )
    await page.getByRole("heading", { name: then.heading, level: 1 }).waitFor()
    await page.context().close()
  }

  it("speaks German to a browser that asks for it, on every screen, with German dates", async () => {
    const page = await newPage()
    await page.goto(`${url}/app`)
    await page.waitForURL(/\/app\/sign-in/)
    expect(await page.getAttribute("html", "lang")).toBe("de")
    expect(await englishLeftovers(page)).toEqual([])
    await check(page, "de-sign-in")
    await signIn(page)
    expect(await page.getByRole("heading", { name: "Formulare", level: 1 }).count()).toBe(1)
    for (const screen of screens(page)) {
      await page.goto(`${url}${screen.path}`)
      await screen.ready()
      expect(await englishLeftovers(page), `English on the ${screen.label} screen`).toEqual([])
      await check(page, `de-${screen.label}`)
    }
    // Every settings tab too.
    await page.goto(`${url}/app/settings`)
    const tabs = page.locator("[role=tab]")
    await tabs.first().waitFor()
    for (let index = 0; index < (await tabs.count()); index++) {
      await tabs.nth(index).click()
      await page.waitForFunction(
        (i) =>
          (globalThis as unknown as Dom).document.querySelectorAll("[role=tab]")[i]?.getAttribute("aria-selected") ===
          "true",
        index
      )
      expect(await englishLeftovers(page), `English on settings tab ${index + 1}`).toEqual([])
      await check(page, `de-settings-${index + 1}`)
    }
    // The case's times: relative in German, the exact moment in German in the title.
    await page.goto(`${url}/app/responses/${responseId}`)
    await page.getByRole("heading", { name: "Jonas Becker", level: 1 }).waitFor()
    const times = await page
      .locator("time[datetime]")
      .evaluateAll((elements) =>
        elements.map((e) => ({ text: e.textContent ?? "", title: e.getAttribute("title") ?? "" }))
      )
    expect(times.length).toBeGreaterThan(0)
    expect(
      times.some((time) => /jetzt|vor \d+ (Sekunden|Minuten?)/.test(time.text)),
      JSON.stringify(times)
    ).toBe(true)
    expect(
      times.every((time) => /\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}/.test(time.title)),
      JSON.stringify(times)
    ).toBe(true)
    await page.context().close()
    expect(pageErrors).toEqual([])
  }, 180_000)

  it("turns right to left when the account chooses Arabic: every screen fits a phone and passes axe, light and dark", async () => {
    await choose("ar", { lang: "ar", dir: "rtl", heading: "الحساب" })

    for (const colorScheme of ["light", "dark"] as const) {
      const phone = await newPage({ colorScheme, width: 360 })
      await signIn(phone)
      expect(await phone.getAttribute("html", "dir")).toBe("rtl")
      expect(await phone.getAttribute("html", "lang")).toBe("ar")
      for (const screen of screens(phone)) {
        await phone.goto(`${url}${screen.path}`)
        await screen.ready()
        expect(await englishLeftovers(phone), `English on the Arabic ${screen.label} screen`).toEqual([])
        expect(await overflows(phone), `${screen.label} at 360 px (${colorScheme}) overflows`).toEqual([])
        await check(phone, `ar-360-${colorScheme}-${screen.label}`)
      }
      await phone.context().close()
    }

    // "As the browser asks" forgets the choice: German again.
    await choose("", { lang: "de", dir: "ltr", heading: "Konto" })
    expect(pageErrors).toEqual([])
  }, 240_000)
})
