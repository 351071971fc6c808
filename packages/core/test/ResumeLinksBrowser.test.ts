/**
 * Save and resume across devices by e-mail (issue #28) in a real browser
 * (Debian's Chromium through playwright-core): a respondent asks for a link
 * under a question with JavaScript, opens it in another browser without
 * JavaScript (no cookie of the first) and finishes there; the same request
 * works without JavaScript. axe-core finds no violation, light and dark, and
 * the screens fit a 360 px phone. A used link is a 410 page.
 *
 * Skipped only when Chromium is absent outside CI; with CI=true a missing
 * browser fails the run.
 */
import { overflows, present, screenshotAndAxe } from "@qforms/test-kit/Browser"
import { waitFor } from "@qforms/test-kit/Conditions"
import { smtpSink } from "@qforms/test-kit/SmtpSink"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as AppInBrowser from "./support/AppInBrowser.ts"

describe.skipIf(!present)("resume links in a browser", () => {
  let app: AppInBrowser.AppInBrowser
  let smtp: Awaited<ReturnType<typeof smtpSink>>
  let formId: number
  let publicId: string

  beforeAll(async () => {
    smtp = await smtpSink()
    app = await AppInBrowser.start({
      workspace: "Resume",
      owner: { email: "owner@example.com" },
      qforms: {
        mail: { url: smtp.url, from: "Forms <forms@example.com>" },
        publicPage: { minSubmitSeconds: 0 }
      }
    })
    const form = await app.api("POST", "/forms", {
      title: "Moving house",
      fields: [
        { type: "short_text", label: "Name", required: true },
        { type: "short_text", label: "City" },
        { type: "long_text", label: "Note" }
      ]
    })
    formId = form.id
    publicId = form.publicId
    await app.api("PATCH", `/forms/${formId}`, { status: "published" })
  }, 60_000)

  afterAll(async () => {
    await app?.close()
    await smtp?.close()
  })

  /** Starts the form and answers the name: the page then shows City, with the offer under it. */
  const toCity = async (page: Page, name: string) => {
    await page.goto(`${app.url}/f/${publicId}`)
    await page.getByRole("button", { name: "Start" }).click()
    await page.getByLabel("Name").fill(name)
    await page.getByRole("button", { name: "OK" }).click()
    await page.getByLabel("City").waitFor()
  }

  /** Opens the offer and asks for a link to `email`; answers the link of the e-mail that arrives. */
  const askForLink = async (page: Page, email: string) => {
    const before = smtp.received.length
    await page.getByText("Continue on another device").click()
    await page.getByLabel("Your e-mail address").fill(email)
    await page.getByRole("button", { name: "Email me a link to continue" }).click()
    await page.getByRole("heading", { name: "Check your e-mail" }).waitFor()
    const mail = await waitFor(() => smtp.received.slice(before).find((m) => m.to.includes(email)))
    const link = new RegExp(`${app.url}/f/${publicId}/resume/[A-Za-z0-9_-]{43}`).exec(String(mail.parsed.text))
    expect(link).not.toBeNull()
    return link![0]
  }

  const names = async () =>
    ((await app.api("GET", `/forms/${formId}/responses`)).responses as Array<{ values: Record<string, unknown> }>).map(
      (r) => Object.values(r.values)
    )

  it("asked with JavaScript, opened without it in another browser: goes on at City and finishes", async () => {
    const page = await app.newPage("light")
    await toCity(page, "Ada Lovelace")
    await screenshotAndAxe(page, "resume-offer-folded")
    await page.getByText("Continue on another device").click()
    await page.getByLabel("Your e-mail address").waitFor()
    await screenshotAndAxe(page, "resume-offer-open")
    await page.getByText("Continue on another device").click()
    const link = await askForLink(page, "ada@example.com")
    // The script swapped the screen: still the form's address.
    expect(new URL(page.url()).pathname).toBe(`/f/${publicId}`)
    await screenshotAndAxe(page, "resume-sent")

    const context = await app.browser.newContext({ javaScriptEnabled: false, colorScheme: "dark" })
    const other = await context.newPage()
    await other.goto(link)
    expect(new URL(other.url()).pathname).toBe(`/f/${publicId}`)
    await other.getByLabel("City").fill("Paris")
    await other.getByRole("button", { name: "OK" }).click()
    await other.getByLabel("Note").fill("Boxes on Monday")
    await other.getByRole("button", { name: "Submit" }).click()
    await other.getByRole("heading", { name: "Thank you!" }).waitFor()
    expect(await names()).toEqual([["Ada Lovelace", "Paris", "Boxes on Monday"]])

    await context.close()
    // axe runs in the page: the used link is checked in a browser with JavaScript (and dark).
    const again = await app.newPage("dark")
    const used = await again.goto(link)
    expect(used?.status()).toBe(410)
    await again.getByRole("heading", { name: "This link no longer works" }).waitFor()
    await screenshotAndAxe(again, "resume-link-used")
    expect(app.problems).toEqual([])
  }, 180_000)

  it("works without JavaScript; clean for axe in the dark and at 360 px", async () => {
    const context = await app.browser.newContext({ javaScriptEnabled: false, colorScheme: "dark" })
    const plain = await context.newPage()
    await toCity(plain, "Grace Hopper")
    const link = await askForLink(plain, "grace@example.com")
    expect(new URL(plain.url()).pathname).toBe(`/f/${publicId}/resume-link`)
    await plain.getByRole("link", { name: "Continue answering" }).click()
    await plain.getByLabel("City").waitFor()
    await context.close()
    expect(link).toContain("/resume/")

    for (const scheme of ["light", "dark"] as const) {
      const phone = await app.newPage(scheme, 360, 740)
      await toCity(phone, `Phone ${scheme}`)
      await phone.getByText("Continue on another device").click()
      await phone.getByLabel("Your e-mail address").fill("not an address")
      await phone.getByRole("button", { name: "Email me a link to continue" }).click()
      await phone.getByText("Enter an e-mail address such as name@example.com.").waitFor()
      await screenshotAndAxe(phone, `resume-problem-phone-${scheme}`)
      expect(await overflows(phone), `the resume request at 360 px (${scheme})`).toEqual([])
      await phone.getByLabel("Your e-mail address").fill(`phone-${scheme}@example.com`)
      await phone.getByRole("button", { name: "Email me a link to continue" }).click()
      await phone.getByRole("heading", { name: "Check your e-mail" }).waitFor()
      await screenshotAndAxe(phone, `resume-sent-phone-${scheme}`)
      expect(await overflows(phone), `the sent page at 360 px (${scheme})`).toEqual([])
      await phone.close()
    }
    expect(app.problems).toEqual([])
  }, 180_000)
})
