/**
 * A form's retention in the application, in a real browser (Debian's Chromium
 * through playwright-core): an admin chooses in the form's settings to
 * anonymise its responses after 90 days and saves, the API then answers that
 * setting; a bad number of days is refused naming the problem; once the run
 * has anonymised an old case, its timeline says so without the respondent's
 * data. axe-core finds no violation, light and dark, and the settings fit a
 * 360 px phone.
 *
 * Skipped only when Chromium is absent outside CI; with CI=true a missing
 * browser fails the run.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"
import type { Page } from "playwright-core"
import { overflows, present, screenshotAndAxe } from "@qforms/test-kit/Browser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Retention } from "../src/privacy/Retention.ts"
import * as AppInBrowser from "./support/AppInBrowser.ts"

const adminPassword = "correct horse battery"

describe.skipIf(!present)("a form's retention in the application", () => {
  let app: AppInBrowser.AppInBrowser
  let url = ""

  const api: AppInBrowser.AppInBrowser["api"] = (...args) => app.api(...args)
  const newPage: AppInBrowser.AppInBrowser["newPage"] = (...args) => app.newPage(...args)
  const signIn = (page: Page) => app.signIn(page, "ann@example.com", adminPassword)

  beforeAll(async () => {
    app = await AppInBrowser.start({
      workspace: "Retention",
      owner: { email: "owner@example.com" },
      members: [{ email: "ann@example.com", name: "Ann Admin", role: "admin", password: adminPassword }]
    })
    url = app.url
  }, 60_000)

  afterAll(() => app?.close())

  it("sets a form's retention, refuses a bad one, and shows an anonymised case", async () => {
    const form = await api("POST", "/forms", {
      title: "Support",
      fields: [
        { type: "email", label: "Email", required: true },
        { type: "short_text", label: "Name", required: false }
      ]
    })
    await api("PATCH", `/forms/${form.id}`, { status: "published" })
    const full = await api("GET", `/forms/${form.id}`)
    const [email, name] = full.fields as Array<{ id: number }>
    const ada = await api("POST", `/forms/${form.id}/responses`, {
      values: { [email!.id]: "ada@example.com", [name!.id]: "Ada Lovelace" }
    })

    const page = await newPage("light")
    await signIn(page)
    await page.goto(`${url}/app/forms/${form.id}`)
    await page.getByLabel("Keep responses").selectOption({ label: "Anonymise them after a number of days" })
    await page.getByLabel("Days").fill("4000")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await page.getByText(/retention\.days must be a whole number from 1 to 3650/).waitFor()
    expect((await api("GET", `/forms/${form.id}`)).settings.retention).toBeUndefined()
    await page.getByLabel("Days").fill("90")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await expect
      .poll(async () => (await api("GET", `/forms/${form.id}`)).settings.retention)
      .toEqual({ days: 90, action: "anonymise" })
    await screenshotAndAxe(page, "retention-settings")
    await page.context().close()

    for (const scheme of ["light", "dark"] as const) {
      const phone = await newPage(scheme, 360)
      await signIn(phone)
      await phone.goto(`${url}/app/forms/${form.id}`)
      await phone.getByLabel("Days").waitFor()
      await screenshotAndAxe(phone, `retention-settings-360-${scheme}`)
      expect(await overflows(phone), `the form's settings at 360 px (${scheme})`).toEqual([])
      await phone.context().close()
    }

    // The response becomes 91 days old, and the run anonymises it.
    await app.qforms.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`update responses set submitted_at = submitted_at - interval '91 days' where id = ${ada.id}`
        yield* (yield* Retention).run
      })
    )
    const dark = await newPage("dark")
    await signIn(dark)
    await dark.goto(`${url}/app/responses/${ada.id}`)
    await dark.getByText("Anonymised by the form's retention (90 days): answers, files and e-mails removed").waitFor()
    expect(await dark.getByText("ada@example.com").count()).toBe(0)
    expect(await dark.getByText("Ada Lovelace").count()).toBe(0)
    await screenshotAndAxe(dark, "retention-anonymised-case")
    await dark.context().close()
    expect(app.problems).toEqual([])
  }, 120_000)
})
