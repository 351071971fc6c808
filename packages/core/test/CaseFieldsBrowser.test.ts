/**
 * Case fields in the application, in a real browser (Debian's Chromium
 * through playwright-core): a case whose fields were set through the API shows
 * each change on its timeline in words (the field's label, the value before
 * and after, a member by name). axe-core finds no violation, light and dark,
 * and the page fits a 360 px phone. (The settings section and the case page's
 * Fields panel are not built yet.)
 *
 * Skipped only when Chromium is absent outside CI; with CI=true a missing
 * browser fails the run.
 */
import { overflows, present, screenshotAndAxe } from "@qforms/test-kit/Browser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as AppInBrowser from "./support/AppInBrowser.ts"

const memberPassword = "correct horse battery"

describe.skipIf(!present)("case fields on the case timeline", () => {
  let app: AppInBrowser.AppInBrowser

  beforeAll(async () => {
    app = await AppInBrowser.start({
      workspace: "Case fields",
      owner: { email: "owner@example.com" },
      members: [{ email: "mia@example.com", name: "Mia Member", role: "member", password: memberPassword }]
    })
  }, 60_000)

  afterAll(() => app?.close())

  it("words each case field change on the timeline, light and dark at 360 px", async () => {
    const form = await app.api("POST", "/forms", {
      title: "Claims",
      fields: [{ type: "short_text", label: "Name", required: false }]
    })
    await app.api("PATCH", `/forms/${form.id}`, { status: "published" })
    await app.api("PUT", `/forms/${form.id}/case-fields`, {
      fields: [
        { key: "priority", label: "Priority", type: "select", options: ["low", "high"] },
        { key: "owner", label: "Handled by", type: "member" }
      ]
    })
    const full = await app.api("GET", `/forms/${form.id}`)
    const [name] = full.fields as Array<{ id: number }>
    const response = await app.api("POST", `/forms/${form.id}/responses`, { values: { [name!.id]: "Ada" } })
    const { members } = await app.api("GET", "/members")
    const mia = (members as Array<{ accountId: number; email: string }>).find((m) => m.email === "mia@example.com")!
    await app.api("PATCH", `/responses/${response.id}`, { caseFields: { priority: "low", owner: mia.accountId } })
    await app.api("PATCH", `/responses/${response.id}`, { caseFields: { priority: "high" } })

    for (const scheme of ["light", "dark"] as const) {
      const page = await app.newPage(scheme, 360)
      await app.signIn(page, "mia@example.com", memberPassword)
      await page.goto(`${app.url}/app/responses/${response.id}`)
      await page.getByText("Case field Priority changed from low to high").waitFor()
      await page.getByText("Case field Priority changed from — to low").waitFor()
      await page.getByText("Case field Handled by changed from — to Mia Member").waitFor()
      await screenshotAndAxe(page, `case-fields-timeline-360-${scheme}`)
      expect(await overflows(page), `the case page with case field changes at 360 px (${scheme})`).toEqual([])
      await page.context().close()
    }
    expect(app.problems).toEqual([])
  }, 180_000)
})
