/**
 * Case fields in the application, in a real browser (Debian's Chromium
 * through playwright-core): a member defines a form's case fields in its
 * settings (a new field's key follows its label; a choice's options one per
 * line; order; delete; a question and a stage move with the same buttons), and
 * sets a case's values in the case page's Fields panel (the API agrees,
 * clearing included); a viewer sees them disabled. A case whose fields were
 * set through the API shows each change on its timeline in words (the field's
 * label, the value before and after, a member by name). axe-core finds no
 * violation, light and dark, and the pages fit a 360 px phone.
 *
 * Skipped only when Chromium is absent outside CI; with CI=true a missing
 * browser fails the run.
 */
import { overflows, present, screenshotAndAxe } from "@qforms/test-kit/Browser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as AppInBrowser from "./support/AppInBrowser.ts"

const memberPassword = "correct horse battery"
const viewerPassword = "viewer horse battery"

describe.skipIf(!present)("case fields in the application", () => {
  let app: AppInBrowser.AppInBrowser

  beforeAll(async () => {
    app = await AppInBrowser.start({
      workspace: "Case fields",
      owner: { email: "owner@example.com" },
      members: [
        { email: "mia@example.com", name: "Mia Member", role: "member", password: memberPassword },
        { email: "vic@example.com", name: "Vic Viewer", role: "viewer", password: viewerPassword }
      ]
    })
  }, 120_000)

  it("defines a form's case fields in its settings and sets a case's values in the Fields panel", async () => {
    const form = await app.api("POST", "/forms", {
      title: "Returns",
      fields: [
        { type: "short_text", label: "Name", required: false },
        { type: "long_text", label: "Reason", required: false }
      ]
    })
    await app.api("PATCH", `/forms/${form.id}`, { status: "published" })
    const page = await app.newPage("light")
    await app.signIn(page, "mia@example.com", memberPassword)
    await page.goto(`${app.url}/app/forms/${form.id}`)
    // The settings' other ordered lists move with the same ↑ / ↓ (ordering.js): a question, a stage.
    await page.getByRole("button", { name: "Move question 2 up" }).click()
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await expect
      .poll(async () => (await app.api("GET", `/forms/${form.id}`)).fields.map((f: { label: string }) => f.label), {
        timeout: 15_000
      })
      .toEqual(["Reason", "Name"])
    await page.getByRole("button", { name: "Move In progress up" }).click()
    await expect
      .poll(
        async () => (await app.api("GET", `/forms/${form.id}/stages`)).stages.map((s: { name: string }) => s.name),
        { timeout: 15_000 }
      )
      .toEqual(["In progress", "New", "Done"])
    const section = page.getByRole("region", { name: "Case fields" })
    await section.getByText("No case fields yet.").waitFor()
    await section.getByRole("button", { name: "Add a case field" }).click()
    await section.getByRole("textbox", { name: "Field 1", exact: true }).fill("Due back")
    await section.getByRole("combobox", { name: "Type" }).first().selectOption({ label: "Date" })
    await section.getByText("key: due_back").waitFor()
    await section.getByRole("button", { name: "Add a case field" }).click()
    await section.getByRole("textbox", { name: "Field 2", exact: true }).fill("Channel")
    await section.getByRole("combobox", { name: "Type" }).nth(1).selectOption({ label: "Choice" })
    await section.getByLabel("Choices, one per line").fill("phone\nmail\n\n")
    await section.getByRole("button", { name: "Add a case field" }).click()
    await section.getByRole("textbox", { name: "Field 3", exact: true }).fill("Scrap me")
    await section.getByRole("button", { name: "Move field 2 up" }).click()
    await section.getByRole("button", { name: "Delete field 3" }).click()
    await screenshotAndAxe(page, "case-fields-settings")
    await section.getByRole("button", { name: "Save case fields" }).click()
    await section.getByText("Case fields saved.").waitFor()
    expect((await app.api("GET", `/forms/${form.id}/case-fields`)).fields).toEqual([
      { key: "channel", label: "Channel", type: "select", options: ["phone", "mail"] },
      { key: "due_back", label: "Due back", type: "date" }
    ])
    // A refusal is the server's own words.
    await section.getByRole("textbox", { name: "Field 1", exact: true }).fill("")
    await section.getByRole("button", { name: "Save case fields" }).click()
    await section.getByText("a label is not empty", { exact: false }).waitFor()

    const full = await app.api("GET", `/forms/${form.id}`)
    const response = await app.api("POST", `/forms/${form.id}/responses`, {
      values: { [full.fields[0].id]: "Grace" }
    })
    await page.goto(`${app.url}/app/responses/${response.id}`)
    const panel = page.getByRole("region", { name: "Fields" })
    await panel.getByLabel("Channel").selectOption("mail")
    await page.getByText("Channel saved.").waitFor()
    await panel.getByLabel("Due back").fill("2026-12-24")
    await page.getByText("Due back saved.").waitFor()
    expect((await app.api("GET", `/responses/${response.id}`)).response.caseFields).toEqual({
      channel: "mail",
      due_back: "2026-12-24"
    })
    await page.getByText("Case field Channel changed from — to mail").waitFor()
    await panel.getByLabel("Channel").selectOption({ label: "Not set" })
    await page.getByText("Case field Channel changed from mail to —").waitFor()
    expect((await app.api("GET", `/responses/${response.id}`)).response.caseFields).toEqual({ due_back: "2026-12-24" })
    await screenshotAndAxe(page, "case-fields-panel")
    await page.context().close()

    // A viewer reads the values but changes nothing.
    const viewer = await app.newPage("light")
    await app.signIn(viewer, "vic@example.com", viewerPassword)
    await viewer.goto(`${app.url}/app/responses/${response.id}`)
    const seen = viewer.getByRole("region", { name: "Fields" }).getByLabel("Due back")
    await seen.waitFor()
    expect(await seen.inputValue()).toBe("2026-12-24")
    expect(await seen.isDisabled()).toBe(true)
    await viewer.goto(`${app.url}/app/forms/${form.id}`)
    await viewer
      .getByRole("region", { name: "Case fields" })
      .getByRole("textbox", { name: "Field 1", exact: true })
      .waitFor()
    expect(await viewer.getByRole("button", { name: "Save case fields" }).count()).toBe(0)
    await viewer.context().close()
    expect(app.problems).toEqual([])
  }, 180_000)

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
