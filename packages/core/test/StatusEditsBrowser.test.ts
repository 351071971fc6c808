/**
 * Changing answers after sending them (issue #28) in a real browser (Debian's
 * Chromium through playwright-core). A member allows it in the form's
 * settings (hours), the respondent follows "Change your answers" from their
 * status page, with JavaScript and without it: a refused answer shows the
 * public page's message next to its question and keeps what was typed; a good
 * change is saved, said so, and the case shows it as the respondent's on its
 * timeline. Emptying the setting takes the link away. axe-core finds no
 * violation, light and dark, and the page fits a 360 px phone.
 *
 * Skipped only when Chromium is absent outside CI; with CI=true a missing
 * browser fails the run.
 */
import { overflows, present, screenshotAndAxe } from "@qforms/test-kit/Browser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as AppInBrowser from "./support/AppInBrowser.ts"

const adminPassword = "correct horse battery"

describe.skipIf(!present)("changing answers from the status page in a browser", () => {
  let app: AppInBrowser.AppInBrowser
  let formId: number
  let responseId: number
  let statusUrl: string
  let ids: { name: number; email: number; city: number }

  beforeAll(async () => {
    app = await AppInBrowser.start({
      workspace: "Edits",
      owner: { email: "owner@example.com", name: "Olive Owner" },
      members: [{ email: "ann@example.com", name: "Ann Admin", role: "admin", password: adminPassword }]
    })
    const form = await app.api("POST", "/forms", {
      title: "Moving house",
      fields: [
        { type: "short_text", label: "Name", required: true },
        { type: "email", label: "Email", required: true },
        { type: "short_text", label: "City", required: false }
      ]
    })
    formId = form.id
    await app.api("PATCH", `/forms/${formId}`, { status: "published" })
    const [name, email, city] = (await app.api("GET", `/forms/${formId}`)).fields as Array<{ id: number }>
    ids = { name: name!.id, email: email!.id, city: city!.id }
    responseId = (
      await app.api("POST", `/forms/${formId}/responses`, {
        values: { [ids.name]: "Rita Respondent", [ids.email]: "rita@example.com", [ids.city]: "Lyon" }
      })
    ).id
    statusUrl = (await app.api("POST", `/responses/${responseId}/status-link`)).url
  }, 60_000)

  afterAll(() => app?.close())

  const valuesOf = async () =>
    (await app.api("GET", `/responses/${responseId}`)).response.values as Record<string, unknown>

  it("is allowed in the form's settings; the respondent changes answers with JavaScript and without", async () => {
    // No setting yet: no link on the status page.
    const before = await app.newPage("light")
    await before.goto(statusUrl)
    await before.getByRole("heading", { name: "Moving house", level: 1 }).waitFor()
    expect(await before.getByRole("link", { name: "Change your answers" }).count()).toBe(0)
    await before.context().close()

    // An admin allows changes for 48 hours in the form's settings; a bad number is refused as the server says.
    const admin = await app.newPage("light")
    await app.signIn(admin, "ann@example.com", adminPassword)
    await admin.goto(`${app.url}/app/forms/${formId}`)
    const hours = admin.getByLabel("Respondents may change their answers for (hours)")
    await hours.fill("1000")
    await admin.getByRole("button", { name: "Save", exact: true }).click()
    await admin.getByText(/editableForHours must be a whole number of hours from 1 to 720/).waitFor()
    await hours.fill("48")
    await admin.getByRole("button", { name: "Save", exact: true }).click()
    await expect.poll(async () => (await app.api("GET", `/forms/${formId}`)).settings.editableForHours).toBe(48)
    await screenshotAndAxe(admin, "status-edits-settings")

    // With JavaScript: from the status page to the form, a refusal, then a change.
    const page = await app.newPage("light")
    await page.goto(statusUrl)
    await page.getByRole("link", { name: "Change your answers" }).click()
    await page.getByRole("button", { name: "Save changes" }).waitFor()
    expect(await page.getByLabel("Name").inputValue()).toBe("Rita Respondent")
    await screenshotAndAxe(page, "status-edits-form")
    await page.getByLabel("Email").fill("not-an-address")
    await page.getByLabel("City").fill("Paris")
    await page.getByRole("button", { name: "Save changes" }).click()
    await page.getByText("must be an email address", { exact: false }).first().waitFor()
    expect(await page.getByLabel("City").inputValue()).toBe("Paris")
    expect((await valuesOf())[String(ids.city)]).toBe("Lyon")
    await screenshotAndAxe(page, "status-edits-refused")
    await page.getByLabel("Email").fill("rita@example.com")
    await page.getByRole("button", { name: "Save changes" }).click()
    await page.getByText("Your answers were saved.").waitFor()
    expect((await valuesOf())[String(ids.city)]).toBe("Paris")
    await page.context().close()

    // Without JavaScript, in the dark: the same plain form.
    const context = await app.browser.newContext({ javaScriptEnabled: false, colorScheme: "dark" })
    const plain = await context.newPage()
    await plain.goto(statusUrl)
    await plain.getByRole("link", { name: "Change your answers" }).click()
    await plain.getByLabel("City").fill("Marseille")
    await plain.getByRole("button", { name: "Save changes" }).click()
    await plain.getByText("Your answers were saved.").waitFor()
    expect((await valuesOf())[String(ids.city)]).toBe("Marseille")
    // axe needs a script of its own: the same page is checked with JavaScript in the phone loop below.
    await context.close()

    // The case shows both changes as the respondent's.
    await admin.goto(`${app.url}/app/responses/${responseId}`)
    await admin.getByText("Marseille").first().waitFor()
    const timeline = (await app.api("GET", `/responses/${responseId}`)).activities as Array<{
      type: string
      actor: { type: string }
    }>
    expect(timeline.filter((a) => a.type === "answers_changed").map((a) => a.actor.type)).toEqual([
      "respondent",
      "respondent"
    ])

    // A phone, light and dark.
    for (const scheme of ["light", "dark"] as const) {
      const phone = await app.newPage(scheme, 360, 740)
      await phone.goto(`${statusUrl}/edit`)
      await phone.getByRole("button", { name: "Save changes" }).waitFor()
      await screenshotAndAxe(phone, `status-edits-phone-${scheme}`)
      expect(await overflows(phone), `the edit page at 360 px (${scheme})`).toEqual([])
      await phone.close()
    }

    // Emptying the setting takes the link and the page away.
    await admin.goto(`${app.url}/app/forms/${formId}`)
    await hours.fill("")
    await admin.getByRole("button", { name: "Save", exact: true }).click()
    await expect
      .poll(async () => (await app.api("GET", `/forms/${formId}`)).settings.editableForHours ?? null)
      .toBeNull()
    const after = await app.newPage("light")
    await after.goto(statusUrl)
    await after.getByRole("heading", { name: "Moving house", level: 1 }).waitFor()
    expect(await after.getByRole("link", { name: "Change your answers" }).count()).toBe(0)
    const closed = await after.goto(`${statusUrl}/edit`)
    expect(closed?.status()).toBe(403)
    await after.getByRole("heading", { name: "Answers can no longer be changed" }).waitFor()
    await after.context().close()
    await admin.context().close()
    expect(app.problems).toEqual([])
  }, 180_000)
})
