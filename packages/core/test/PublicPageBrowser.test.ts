/**
 * The public form page in a real browser (Debian's Chromium through
 * playwright-core; no browser is downloaded): a form with every question
 * type (an amount of money too) is filled with the keyboard only — with JavaScript on and off —
 * including an invalid answer that is corrected; axe-core finds no
 * violation on any screen; each screen is saved as a screenshot in
 * `packages/core/test-artifacts/`; the response then shows in the API.
 * (Themes, pictures, pages, languages, quizzes and signatures:
 * `PublicPageScreensBrowser.test.ts`.)
 *
 * Skipped only when Chromium is absent outside CI; with CI=true a missing
 * browser fails the run.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { artifacts, launch, present } from "@qforms/test-kit/Browser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { createForm, listResponses, seedWorkspace } from "@qforms/test-kit/PublicForms"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"
import { check, type Flow, type PageWindow, screen } from "./support/ScreenChecks.ts"

const fields = [
  { type: "short_text", label: "Your name", required: true },
  { type: "email", label: "Email", required: true },
  { type: "long_text", label: "Tell us more" },
  { type: "number", label: "Age", options: { min: 18, max: 120, step: 1 } },
  { type: "yes_no", label: "Subscribe?" },
  { type: "checkboxes", label: "Topics", options: { choices: ["Forms", "Cases", "Webhooks"], maxSelections: 2 } },
  { type: "rating", label: "How likely are you to recommend us?", options: { max: 5 } },
  { type: "select", label: "Plan", options: { choices: ["Free", "Team", "Enterprise"], allowOther: true } },
  {
    type: "select",
    label: "Country",
    options: { choices: ["Austria", "Belgium", "Chile", "Denmark", "Estonia", "France", "Germany", "Hungary"] }
  },
  { type: "statement", label: "Nearly there", options: { help: "Three more questions." } },
  { type: "tel", label: "Phone" },
  { type: "url", label: "Website" },
  { type: "file", label: "Your photo", options: { accept: ["image/png"], maxSizeMb: 1 } },
  { type: "date", label: "Start date" },
  { type: "nps", label: "Would you tell a friend about us?" },
  {
    type: "opinion_scale",
    label: "Setting up was easy",
    options: { min: 0, max: 4, minLabel: "Strongly disagree", maxLabel: "Strongly agree" }
  },
  {
    type: "slider",
    label: "How much of your work is remote?",
    options: { min: 0, max: 100, step: 5, minLabel: "None", maxLabel: "All" }
  },
  { type: "time", label: "Best time to call" },
  { type: "datetime", label: "Meeting starts" },
  { type: "contact", label: "How can we reach you?", required: true, options: { optionalParts: ["phone"] } },
  { type: "address", label: "Where do you live?", required: true },
  {
    type: "matrix",
    label: "How was each part of your visit?",
    required: true,
    options: { rows: ["Arrival", "Food"], columns: ["Poor", "Fair", "Good"] }
  },
  {
    type: "ranking",
    label: "Put these in order of importance",
    required: true,
    options: { choices: ["Price", "Speed", "Support"] }
  },
  { type: "signature", label: "Sign to confirm", required: true },
  { type: "legal", label: "I accept the terms of service", required: true },
  {
    type: "currency",
    label: "Your budget",
    required: true,
    options: { currencies: ["EUR", "USD"], currency: "EUR", min: 0 }
  }
]

/** A 1×1 PNG: uploaded through the file question. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64"
)
const pngPath = join(artifacts, "pixel.png")

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = (globalThis as unknown as PageWindow).document.activeElement
    return el === null ? "" : `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}[${el.getAttribute("type") ?? ""}]`
  })

/** Presses Tab until the focused element matches, as a keyboard user would. */
const tabTo = async (page: Page, selector: string) => {
  for (let i = 0; i < 30; i++) {
    if (
      await page.evaluate(
        (s) => (globalThis as unknown as PageWindow).document.activeElement?.matches(s) ?? false,
        selector
      )
    )
      return
    await page.keyboard.press("Tab")
  }
  throw new Error(`could not reach ${selector} with Tab`)
}

/** Goes on: Enter, from the control (with JavaScript) or from the OK button (without). */
const goOn = async (flow: Flow, js: boolean) => {
  if (!js) await tabTo(flow.page, "button.ok")
  await flow.page.keyboard.press("Enter")
}

const fill = async (flow: Flow, js: boolean) => {
  const { page } = flow
  await screen(page, "Keyboard form")
  await check(flow, "welcome")
  expect(await focused(page)).toBe("button[submit]")
  await page.keyboard.press("Enter")

  await screen(page, "Your name")
  expect(await focused(page)).toBe("input#a[text]")
  await check(flow, "name")
  await page.keyboard.type("Ada Lovelace")
  await page.keyboard.press("Enter")

  await screen(page, "Email")
  expect(await focused(page)).toBe("input#a[email]")
  await page.keyboard.type("ada-at-example")
  await page.keyboard.press("Enter")
  await page.locator("#error").filter({ hasText: "must be an email address" }).waitFor()
  expect(await page.getAttribute("#a", "aria-invalid")).toBe("true")
  expect(await focused(page)).toBe("input#a[email]")
  await check(flow, "email-invalid")
  await page.keyboard.press("Control+A")
  await page.keyboard.type("ada@example.com")
  await page.keyboard.press("Enter")

  await screen(page, "Tell us more")
  expect(await focused(page)).toBe("textarea#a[]")
  await check(flow, "long-text")
  await page.keyboard.type("First line")
  await page.keyboard.press("Shift+Enter")
  await page.keyboard.type("Second line")
  if (!js) {
    await tabTo(page, "button.ok")
  }
  await page.keyboard.press("Enter")

  await screen(page, "Age")
  await check(flow, "number")
  await page.keyboard.type("36")
  await page.keyboard.press("Enter")

  await screen(page, "Subscribe?")
  expect(await focused(page)).toBe("input[radio]")
  await check(flow, "yes-no")
  await page.keyboard.press("Space")
  await goOn(flow, js)

  await screen(page, "Topics")
  await check(flow, "checkboxes")
  await page.keyboard.press("Space")
  await page.keyboard.press("Tab")
  await page.keyboard.press("Tab")
  await page.keyboard.press("Space")
  await goOn(flow, js)

  await screen(page, "recommend")
  await check(flow, "rating")
  await page.keyboard.press("ArrowRight")
  await page.keyboard.press("ArrowRight")
  await page.keyboard.press("ArrowRight")
  expect(await page.locator("input[name=a]:checked").getAttribute("value")).toBe("4")
  await goOn(flow, js)

  await screen(page, "Plan")
  await check(flow, "select-radios")
  if (js) {
    // Typing in Other's box chooses Other.
    await page.keyboard.press("Tab")
    expect(await focused(page)).toBe("input#a-other[text]")
    await page.keyboard.type("Startup")
    expect(await page.locator("input[name=a][value=Other]").isChecked()).toBe(true)
    await page.keyboard.press("Enter")
  } else {
    await page.keyboard.press("ArrowDown")
    await goOn(flow, js)
  }

  await screen(page, "Country")
  expect(await focused(page)).toBe("select#a[]")
  await check(flow, "select-dropdown")
  await page.keyboard.type("Ger")
  await goOn(flow, js)

  await screen(page, "Nearly there")
  await check(flow, "statement")
  await goOn(flow, js)

  await screen(page, "Phone")
  await check(flow, "tel")
  await page.keyboard.type("+44 20 7946 0000")
  await page.keyboard.press("Enter")

  await screen(page, "Website")
  await page.keyboard.type("https://example.com")
  await page.keyboard.press("Enter")

  await screen(page, "Your photo")
  expect(await focused(page)).toBe("input#a[file]")
  await check(flow, "file")
  // Space on the focused file input opens the chooser, as it would for a keyboard user.
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.keyboard.press("Space")])
  await chooser.setFiles(pngPath)
  if (js) {
    // Uploaded ahead of the step, with progress; Enter then goes on.
    await page.locator("#upload-status").filter({ hasText: "Uploaded pixel.png" }).waitFor()
    expect(
      await page.locator("progress.upload").evaluate((el) => (el as unknown as { readonly value: number }).value)
    ).toBe(1)
    await check(flow, "file-uploaded")
    await page.keyboard.press("Enter")
  } else {
    // Sent with the step post itself (multipart).
    await goOn(flow, js)
  }

  await screen(page, "Start date")
  expect(await focused(page)).toBe("input#a[date]")
  await check(flow, "date")
  await page.keyboard.type("03152026")
  expect(await page.inputValue("#a")).toBe("2026-03-15")
  await page.keyboard.press("Enter")

  await screen(page, "tell a friend")
  await check(flow, "nps")
  expect(await page.locator("#choice-hint").textContent()).toBe("0 is Not at all likely, 10 is Extremely likely")
  for (let i = 0; i < 9; i++) await page.keyboard.press("ArrowRight")
  expect(await page.locator("input[name=a]:checked").getAttribute("value")).toBe("9")
  await goOn(flow, js)

  await screen(page, "Setting up was easy")
  await check(flow, "opinion-scale")
  expect(await page.locator("input[name=a]").count()).toBe(5)
  await page.keyboard.press("ArrowRight")
  await page.keyboard.press("ArrowRight")
  expect(await page.locator("input[name=a]:checked").getAttribute("value")).toBe("2")
  await goOn(flow, js)

  await screen(page, "work is remote")
  expect(await page.locator("#slider-hint").textContent()).toBe("From 0 (None) to 100 (All), in steps of 5")
  if (js) {
    // The track beside the number box, from its middle: two steps right, then Enter goes on.
    expect(await focused(page)).toBe("input[range]")
    expect(await page.inputValue("#a")).toBe("")
    await check(flow, "slider")
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("ArrowRight")
    expect(await page.inputValue("#a")).toBe("60")
  } else {
    expect(await focused(page)).toBe("input#a[number]")
    await check(flow, "slider")
    await page.keyboard.type("60")
  }
  await page.keyboard.press("Enter")

  await screen(page, "Best time to call")
  expect(await focused(page)).toBe("input#a[time]")
  await check(flow, "time")
  await page.keyboard.type("0930A")
  expect(await page.inputValue("#a")).toBe("09:30")
  await page.keyboard.press("Enter")

  await screen(page, "Meeting starts")
  expect(await focused(page)).toBe("input#a[datetime-local]")
  await check(flow, "datetime")
  // The year takes up to six digits, so the keyboard moves on to the time itself.
  await page.keyboard.type("03152026")
  await page.keyboard.press("ArrowRight")
  await page.keyboard.type("0230P")
  expect(await page.inputValue("#a")).toBe("2026-03-15T14:30")
  await page.keyboard.press("Enter")

  await screen(page, "How can we reach you?")
  expect(await focused(page)).toBe("input#a-name[text]")
  await check(flow, "contact")
  await page.keyboard.type("Ada Lovelace")
  // With JavaScript, Enter moves from part to part; without, Tab does (Enter would send the step).
  await page.keyboard.press(js ? "Enter" : "Tab")
  expect(await focused(page)).toBe("input#a-email[email]")
  await page.keyboard.type("ada@example.com")
  if (js) {
    await page.keyboard.press("Enter")
    expect(await focused(page)).toBe("input#a-phone[tel]")
  }
  // The phone may be left empty: Enter goes on.
  await page.keyboard.press("Enter")

  await screen(page, "Where do you live?")
  expect(await focused(page)).toBe("input#a-line1[text]")
  await check(flow, "address")
  await page.keyboard.type("221B Baker Street")
  await tabTo(page, "button.ok")
  await page.keyboard.press("Enter")
  await page.locator("#error").filter({ hasText: '"Where do you live?" (City) is required' }).waitFor()
  expect(await focused(page)).toBe("input#a-line1[text]")
  expect(await page.inputValue("#a-line1")).toBe("221B Baker Street")
  await check(flow, "address-invalid")
  await page.keyboard.press("Tab")
  await page.keyboard.press("Tab")
  await page.keyboard.type("London")
  await page.keyboard.press("Tab")
  await page.keyboard.press("Tab")
  await page.keyboard.type("NW1 6XE")
  await page.keyboard.press("Tab")
  expect(await focused(page)).toBe("input#a-country[text]")
  await page.keyboard.type("United Kingdom")
  await page.keyboard.press("Enter")

  await screen(page, "each part of your visit")
  expect(await focused(page)).toBe("input[radio]")
  expect(await page.locator("#choice-hint").textContent()).toBe("Choose one in each row")
  await check(flow, "matrix")
  // The first row's radio group: arrows choose; Tab goes to the next row's group.
  await page.keyboard.press("ArrowRight")
  await page.keyboard.press("ArrowRight")
  await tabTo(page, "button.ok")
  await page.keyboard.press("Enter")
  await page.locator("#error").filter({ hasText: '"How was each part of your visit?" (Food) is required' }).waitFor()
  expect(await page.locator("input[name='a.Arrival']:checked").getAttribute("value")).toBe("Good")
  await check(flow, "matrix-invalid")
  await page.locator("input[name='a.Food'][value=Fair]").focus()
  await page.keyboard.press("Space")
  await goOn(flow, js)

  await screen(page, "order of importance")
  expect(await page.locator("#choice-hint").textContent()).toBe("Give every choice its place: 1 is first")
  if (js) {
    // A list with Move up / Move down buttons; focus stays with the moved item.
    expect(await focused(page)).toBe("button[button]")
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as PageWindow).document.activeElement?.getAttribute("aria-label")
      )
    ).toBe("Move Price down")
    await check(flow, "ranking")
    await page.keyboard.press("Enter")
    await page.keyboard.press("Enter")
    expect(await page.locator(".rank-list .name").allTextContents()).toEqual(["Speed", "Support", "Price"])
    await tabTo(page, "button.ok")
    await page.keyboard.press("Enter")
  } else {
    // A place select per choice; a place given twice is refused with a message naming both.
    expect(await focused(page)).toBe("select#rank-0[]")
    await check(flow, "ranking")
    await page.keyboard.type("3")
    await page.keyboard.press("Tab")
    await page.keyboard.type("1")
    await page.keyboard.press("Tab")
    await page.keyboard.type("1")
    await goOn(flow, js)
    await page
      .locator("#error")
      .filter({ hasText: '"Put these in order of importance": "Speed" and "Support" both have place 1' })
      .waitFor()
    await check(flow, "ranking-invalid")
    expect(await page.inputValue("#rank-0")).toBe("3")
    await page.locator("#rank-2").focus()
    await page.keyboard.type("2")
    await goOn(flow, js)
  }

  await screen(page, "Sign to confirm")
  expect(await focused(page)).toBe("input#a-typedName[text]")
  if (js) {
    // A pad to draw on with the pointer; Clear empties it; what is drawn when OK is pressed is the answer.
    const pad = page.locator("canvas.pad")
    await pad.waitFor()
    const stroke = async () => {
      const box = (await pad.boundingBox())!
      await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.6)
      await page.mouse.down()
      for (let i = 1; i <= 10; i++) {
        await page.mouse.move(box.x + box.width * (0.1 + i * 0.07), box.y + box.height * (0.6 - (i % 2) * 0.3))
      }
      await page.mouse.up()
    }
    await stroke()
    await page.locator("#signature-status").filter({ hasText: "Signature drawn" }).waitFor()
    await check(flow, "signature-drawn")
    await page.locator("button.clear").click()
    await page.locator("#signature-status").filter({ hasText: "Drawing cleared" }).waitFor()
    await stroke()
    await page.locator("#a-typedName").focus()
    await page.keyboard.press("Enter")
  } else {
    // Without JavaScript: the typed full name and the consent box; no pad that could not work.
    expect(await page.locator("canvas.pad").isVisible()).toBe(false)
    await check(flow, "signature")
    await page.keyboard.type("Ada Lovelace")
    await page.keyboard.press("Enter")
    await page.locator("#error").filter({ hasText: "tick the box to agree" }).waitFor()
    await check(flow, "signature-refused")
    await tabTo(page, "input[name='a.consent']")
    await page.keyboard.press("Space")
    await goOn(flow, js)
  }

  await screen(page, "terms of service")
  expect(await focused(page)).toBe("input[checkbox]")
  await check(flow, "legal")
  await goOn(flow, js)
  await page.locator("#error").filter({ hasText: "must be accepted" }).waitFor()
  expect(await focused(page)).toBe("input[checkbox]")
  await check(flow, "legal-refused")
  await page.keyboard.press("Space")
  await goOn(flow, js)

  await screen(page, "Your budget")
  expect(await focused(page)).toBe("input#a[number]")
  await check(flow, "currency")
  await page.keyboard.type("250.555")
  await goOn(flow, js)
  await page.locator("#error").filter({ hasText: '"Your budget" in EUR takes at most 2 decimals' }).waitFor()
  await check(flow, "currency-refused")
  await tabTo(page, "input#a")
  await page.keyboard.press("Control+A")
  await page.keyboard.type("250.5")
  // The currency beside the amount: typed to, as in a dropdown.
  await tabTo(page, "select#a-currency")
  await page.keyboard.type("USD")
  expect(await page.inputValue("#a-currency")).toBe("USD")
  await goOn(flow, js)

  await screen(page, "Thank you!")
  await check(flow, "thanks")
}

const expected = (ids: ReadonlyArray<number>, js: boolean) => ({
  [ids[0]!]: "Ada Lovelace",
  [ids[1]!]: "ada@example.com",
  [ids[2]!]: "First line\nSecond line",
  [ids[3]!]: 36,
  [ids[4]!]: true,
  [ids[5]!]: ["Forms", "Webhooks"],
  [ids[6]!]: 4,
  [ids[7]!]: js ? "Startup" : "Team",
  [ids[8]!]: "Germany",
  [ids[10]!]: "+44 20 7946 0000",
  [ids[11]!]: "https://example.com",
  [ids[12]!]: { fileId: expect.any(String), name: "pixel.png", size: PNG.length, type: "image/png" },
  [ids[13]!]: "2026-03-15",
  [ids[14]!]: 9,
  [ids[15]!]: 2,
  [ids[16]!]: 60,
  [ids[17]!]: "09:30",
  [ids[18]!]: "2026-03-15T14:30",
  [ids[19]!]: { name: "Ada Lovelace", email: "ada@example.com" },
  [ids[20]!]: { line1: "221B Baker Street", city: "London", postalCode: "NW1 6XE", country: "United Kingdom" },
  [ids[21]!]: { Arrival: "Good", Food: "Fair" },
  [ids[22]!]: ["Speed", "Support", "Price"],
  // Drawn with the pointer when the script runs, typed with consent without it.
  [ids[23]!]: js
    ? { fileId: expect.any(String), name: "signature.png", size: expect.any(Number), type: "image/png" }
    : { typedName: "Ada Lovelace", consent: true },
  [ids[24]!]: true,
  [ids[25]!]: { amount: 250.5, currency: "USD" }
})

describe.skipIf(!present)("public form page in Chromium", () => {
  let server: TestServer
  let key: string
  let browser: Browser
  let form: Awaited<ReturnType<typeof createForm>>

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true })
    writeFileSync(pngPath, PNG)
    // Steps are not limited here (the themed form's screens are many steps in a few seconds); submissions
    // within a second of opening the form are refused (the default is 3).
    server = await startTestServer(databaseTargets[0]!, {
      publicPage: { minSubmitSeconds: 1, stepRateLimit: { requestsPerSecond: 1_000, burst: 1_000 } }
    })
    key = (await seedWorkspace(server)).key
    form = await createForm(server, key, {
      title: "Keyboard form",
      description: "Every question type, answered with the keyboard.",
      fields
    })
    browser = await launch()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  for (const js of [true, false]) {
    it(`is filled with the keyboard with JavaScript ${js ? "on" : "off"}, and the response shows in the API`, async () => {
      const context: BrowserContext = await browser.newContext({
        javaScriptEnabled: js,
        locale: "en-US",
        // The dark theme with JavaScript off, the light one with it on: axe checks the contrast of both.
        colorScheme: js ? "light" : "dark",
        viewport: { width: 800, height: 900 }
      })
      const page = await context.newPage()
      // File choosers are intercepted from the start: turning interception on is a round trip to the browser,
      // and a chooser opened before it lands (the Space below racing waitForEvent) would be a native one, never seen.
      page.on("filechooser", () => undefined)
      // Script errors and CSP refusals; a 400 for the deliberately invalid answer is expected.
      const violations: Array<string> = []
      page.on("pageerror", (error) => violations.push(error.message))
      page.on("console", (message) => {
        if (message.type() === "error" && !/status of 400/.test(message.text())) violations.push(message.text())
      })
      const navigations: Array<string> = []
      page.on("framenavigated", (frame) => {
        if (frame === page.mainFrame()) navigations.push(frame.url())
      })
      const before = (await listResponses(server, key, form.id)).length
      await page.goto(`${server.url}/f/${form.publicId}`)
      await fill({ page, name: js ? "js" : "nojs-dark", colorScheme: js ? "light" : "dark", step: 0 }, js)
      // With JavaScript the steps are fetched, not loaded: one navigation only.
      if (js) expect(navigations).toHaveLength(1)
      else expect(navigations.length).toBeGreaterThan(10)
      expect(violations, "script errors and CSP violations").toEqual([])
      await context.close()

      const responses = await listResponses(server, key, form.id)
      expect(responses).toHaveLength(before + 1)
      expect(responses[0]!.source).toBe("form")
      expect(responses[0]!.values).toEqual(
        expected(
          form.fields.map((f) => f.id),
          js
        )
      )
      // About thirty screens, each checked by axe in a page of its own: a minute on an idle two-core
      // machine, and more than two when other test files share it.
    }, 300_000)
  }
})
