/**
 * The respondent's status page (`/s/{token}`, issue #28) in a real browser
 * (Debian's Chromium through playwright-core): with JavaScript and without
 * it, the respondent reads the stage's public name and the team's e-mail, and
 * replies with a file; the team then reads the reply on the case. axe-core
 * finds no violation, light and dark, and the page fits a 360 px phone. A
 * revoked link is the plain 404 page.
 *
 * Skipped only when Chromium is absent outside CI; with CI=true a missing
 * browser fails the run.
 */
import { overflows, present, screenshotAndAxe } from "@qforms/test-kit/Browser"
import { waitFor } from "@qforms/test-kit/Conditions"
import { smtpSink } from "@qforms/test-kit/SmtpSink"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as AppInBrowser from "./support/AppInBrowser.ts"

describe.skipIf(!present)("the respondent's status page in a browser", () => {
  let app: AppInBrowser.AppInBrowser
  let smtp: Awaited<ReturnType<typeof smtpSink>>
  let responseId: number
  let statusUrl: string

  beforeAll(async () => {
    smtp = await smtpSink()
    app = await AppInBrowser.start({
      workspace: "Status",
      owner: { email: "owner@example.com", name: "Olive Owner" },
      qforms: { mail: { url: smtp.url, from: "Help <help@example.com>" } }
    })
    const form = await app.api("POST", "/forms", {
      title: "Repair request",
      fields: [
        { type: "short_text", label: "Name", required: true },
        { type: "email", label: "Email", required: true }
      ]
    })
    await app.api("PATCH", `/forms/${form.id}`, { status: "published" })
    const [name, email] = (await app.api("GET", `/forms/${form.id}`)).fields as Array<{ id: number }>
    responseId = (
      await app.api("POST", `/forms/${form.id}/responses`, {
        values: { [name!.id]: "Rita Respondent", [email!.id]: "rita@example.com" }
      })
    ).id
    const { stages } = await app.api("GET", `/forms/${form.id}/stages`)
    const inProgress = (stages as Array<{ id: number; name: string }>).find((s) => s.name === "In progress")!
    await app.api("PATCH", `/stages/${inProgress.id}`, { publicName: "A technician is on it" })
    await app.api("PATCH", `/responses/${responseId}`, { stageId: inProgress.id })
    await app.api("POST", `/responses/${responseId}/emails`, {
      subject: "Your repair",
      body: "We will come on Tuesday."
    })
    await waitFor(() => smtp.received.length > 0 || undefined)
    statusUrl = (await app.api("POST", `/responses/${responseId}/status-link`)).url
    expect(statusUrl).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/)
  }, 60_000)

  afterAll(async () => {
    await app?.close()
    await smtp?.close()
  })

  const repliesOnCase = async () =>
    ((await app.api("GET", `/responses/${responseId}`)).replies as Array<{ text: string }>).map((r) => r.text)

  it("shows the case and takes a reply with a file, with JavaScript and without", async () => {
    const page = await app.newPage("light")
    await page.goto(statusUrl)
    await page.getByRole("heading", { name: "Repair request", level: 1 }).waitFor()
    await page.getByText("A technician is on it").waitFor()
    await page.getByText("We will come on Tuesday.").waitFor()
    await screenshotAndAxe(page, "status-page")
    await page.getByLabel("Your message").fill("Tuesday suits me. Photo attached.")
    await page.getByLabel(/Attach files/).setInputFiles({
      name: "kettle.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("a picture of the kettle")
    })
    await page.getByRole("button", { name: "Send" }).click()
    await page.getByText("Tuesday suits me. Photo attached.").waitFor()
    expect(new URL(page.url()).pathname).toBe(new URL(statusUrl).pathname)
    expect(await repliesOnCase()).toContain("Tuesday suits me. Photo attached.")
    const { replies } = await app.api("GET", `/responses/${responseId}`)
    expect(replies.find((r: { text: string }) => r.text.startsWith("Tuesday")).files).toMatchObject([
      { name: "kettle.txt" }
    ])

    // Without JavaScript: the same page, the same form, a plain POST and a redirect.
    const context = await app.browser.newContext({ javaScriptEnabled: false, colorScheme: "dark" })
    const plain = await context.newPage()
    await plain.goto(statusUrl)
    await plain.getByText("A technician is on it").waitFor()
    await plain.getByLabel("Your message").fill("Also, the lid is cracked.")
    await plain.getByRole("button", { name: "Send" }).click()
    await plain.getByText("Also, the lid is cracked.").waitFor()
    expect(await repliesOnCase()).toContain("Also, the lid is cracked.")
    await context.close()
    expect(app.problems).toEqual([])
  }, 120_000)

  it("is clean for axe in the dark and fits a phone; a revoked link is the 404 page", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const phone = await app.newPage(scheme, 360, 740)
      await phone.goto(statusUrl)
      await phone.getByText("A technician is on it").waitFor()
      await screenshotAndAxe(phone, `status-page-phone-${scheme}`)
      expect(await overflows(phone), `the status page at 360 px (${scheme})`).toEqual([])
      await phone.close()
    }
    await app.api("DELETE", `/responses/${responseId}/status-link`)
    const page = await app.newPage("light")
    const answer = await page.goto(statusUrl)
    expect(answer?.status()).toBe(404)
    await page.getByRole("heading", { name: "Page not found" }).waitFor()
    expect(await page.getByText("A technician is on it").count()).toBe(0)
    await screenshotAndAxe(page, "status-page-revoked")
    expect(app.problems).toEqual([])
  }, 120_000)
})
