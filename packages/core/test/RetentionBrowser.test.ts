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
import { Retention } from "../src/cases/Retention.ts"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Members } from "../src/identity/Members.ts"
import { Sessions } from "../src/identity/Sessions.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import * as Qforms from "../src/Qforms.ts"

const adminPassword = "correct horse battery"

describe.skipIf(!present)("a form's retention in the application", () => {
  let browser: Browser
  let qforms: Qforms.Qforms
  let loopback: Loopback | undefined
  let url = ""
  let key = ""
  const problems: Array<string> = []

  const api = loopbackApi(() => ({ url, key }))

  const newPage = (colorScheme: "light" | "dark", width = 1280) =>
    openPage(browser, { colorScheme, width, height: 900, problems, consoleErrors: false })

  const signIn = async (page: Page) => {
    await signInAs(page, {
      url,
      email: "ann@example.com",
      password: adminPassword,
      labels: { email: "E-mail", password: "Password" }
    })
    await page.getByRole("heading", { name: "Forms", level: 1 }).waitFor()
  }

  beforeAll(async () => {
    loopback = await listenFirst()
    url = loopback.url
    qforms = await Qforms.make({ database: {}, appUrl: url, app: true, logLevel: "Error" })
    await qforms.run(
      Effect.gen(function* () {
        const { workspace, ownerAccountId } = yield* (yield* Workspaces).create({
          name: "Retention",
          ownerEmail: "owner@example.com"
        })
        yield* (yield* Members).add(workspace.id, { email: "ann@example.com", name: "Ann Admin", role: "admin" })
        yield* (yield* Sessions).setPassword("ann@example.com", adminPassword)
        key = (yield* (yield* ApiKeys).create(workspace.id, { accountId: ownerAccountId })).key
      })
    )
    loopback.serve(qforms)
    browser = await launch()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await loopback?.close()
    await qforms?.dispose()
  })

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
    await qforms.run(
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
    expect(problems).toEqual([])
  }, 120_000)
})
