/**
 * Assignment rules and away members in the application (issue #28), in a real
 * browser (Debian's Chromium through playwright-core): an admin adds a rule by
 * answer and a round robin in the form's builder and saves them; marks a
 * member away on the team screen; new responses are then assigned as the
 * rules say, passing the away member by. axe-core finds no violation, light
 * and dark, and the builder's rules fit a 360 px phone.
 *
 * Skipped only when Chromium is absent outside CI; with CI=true a missing
 * browser fails the run.
 */
import { overflows, present, screenshotAndAxe } from "@qforms/test-kit/Browser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as AppInBrowser from "./support/AppInBrowser.ts"

const adminPassword = "correct horse battery"

describe.skipIf(!present)("assignment rules in the application", () => {
  let app: AppInBrowser.AppInBrowser

  beforeAll(async () => {
    app = await AppInBrowser.start({
      workspace: "Assign",
      owner: { email: "owner@example.com" },
      members: [
        { email: "ann@example.com", name: "Ann Admin", role: "admin", password: adminPassword },
        { email: "mia@example.com", name: "Mia Member", role: "member", password: "member password 1" },
        { email: "max@example.com", name: "Max Member", role: "member", password: "member password 2" }
      ]
    })
  }, 60_000)

  afterAll(async () => {
    await app?.close()
  })

  it("adds rules in the builder and an away mark on the team screen; new cases follow them", async () => {
    const form = await app.api("POST", "/forms", {
      title: "Support",
      fields: [{ type: "select", label: "Topic", required: true, options: { choices: ["Billing", "Other"] } }]
    })
    await app.api("PATCH", `/forms/${form.id}`, { status: "published" })
    const [topic] = (await app.api("GET", `/forms/${form.id}`)).fields as Array<{ id: number }>
    const { members } = await app.api("GET", "/members")
    const idOf = (email: string) =>
      (members as Array<{ email: string; accountId: number }>).find((m) => m.email === email)!.accountId

    const page = await app.newPage("light")
    await app.signIn(page, "ann@example.com", adminPassword)
    await page.goto(`${app.url}/app/forms/${form.id}`)
    const section = page.getByRole("region", { name: "Assignment rules" })
    await section.getByRole("button", { name: "Add rule" }).click()
    await section.getByRole("combobox", { name: /^Rule 1/ }).selectOption("byAnswer")
    await section.getByLabel("Answer is (commas between several)").fill("Billing")
    await section.getByLabel("Answer is (commas between several)").press("Tab")
    await section.getByLabel("Assign to").selectOption(String(idOf("mia@example.com")))
    await section.getByRole("button", { name: "Add rule" }).click()
    const second = section.getByRole("listitem").nth(1)
    // A new round robin starts with the first member ticked: only Max and Mia here.
    for (const box of await second.getByRole("checkbox").all()) await box.uncheck()
    await second.getByRole("checkbox", { name: /Max Member/ }).check()
    await second.getByRole("checkbox", { name: /Mia Member/ }).check()
    await section.getByRole("button", { name: "Save rules" }).click()
    await section.getByText("Assignment rules saved.").waitFor()
    await screenshotAndAxe(page, "assignment-rules")
    const { rules } = await app.api("GET", `/forms/${form.id}/assignment-rules`)
    expect(rules).toMatchObject([
      { kind: "byAnswer", fieldId: topic!.id, equals: "Billing", assigneeId: idOf("mia@example.com") },
      { kind: "roundRobin" }
    ])
    expect([...rules[1].memberIds].sort()).toEqual([idOf("mia@example.com"), idOf("max@example.com")].sort())

    // Settings → Members: Max is away.
    await page.getByRole("link", { name: "Settings" }).click()
    await page.getByRole("checkbox", { name: "max@example.com is away" }).check()
    await page.getByText("max@example.com is marked away.").waitFor()
    await screenshotAndAxe(page, "assignment-away")

    const submit = async (answer: string) =>
      (await app.api("POST", `/forms/${form.id}/responses`, { values: { [topic!.id]: answer } })).assigneeId
    expect(await submit("Billing")).toBe(idOf("mia@example.com"))
    // The round robin passes Max by while he is away.
    expect([await submit("Other"), await submit("Other")]).toEqual([idOf("mia@example.com"), idOf("mia@example.com")])

    for (const scheme of ["light", "dark"] as const) {
      const phone = await app.newPage(scheme, 360, 740)
      await app.signIn(phone, "ann@example.com", adminPassword)
      await phone.goto(`${app.url}/app/forms/${form.id}`)
      await phone
        .getByRole("region", { name: "Assignment rules" })
        .getByRole("combobox", { name: /^Rule 2/ })
        .waitFor()
      await screenshotAndAxe(phone, `assignment-rules-phone-${scheme}`)
      expect(await overflows(phone), `the builder's rules at 360 px (${scheme})`).toEqual([])
      await phone.close()
    }
    expect(app.problems).toEqual([])
  }, 180_000)
})
