/**
 * Merging duplicates in the application, in a real browser (Debian's Chromium
 * through playwright-core): a member finds the other response of the same
 * person from the case page (the search starts with the respondent's e-mail),
 * merges it into this case after confirming, sees the merge on the timeline and
 * the pointer's banner on the duplicate, undoes it from the banner; then merges
 * the other way (this case into the other, which opens) and undoes it from the
 * kept case's timeline. The API agrees at each step. A viewer sees neither the
 * panel nor an undo. axe-core finds no violation, light and dark, and the page
 * fits a 360 px phone.
 *
 * Skipped only when Chromium is absent outside CI; with CI=true a missing
 * browser fails the run.
 */
import type { Page } from "playwright-core"
import { overflows, present, screenshotAndAxe } from "@qforms/test-kit/Browser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as AppInBrowser from "./support/AppInBrowser.ts"

const memberPassword = "correct horse battery"
const viewerPassword = "viewer horse battery"

describe.skipIf(!present)("merging duplicates in the application", () => {
  let app: AppInBrowser.AppInBrowser
  let url = ""

  const api: AppInBrowser.AppInBrowser["api"] = (...args) => app.api(...args)
  const newPage: AppInBrowser.AppInBrowser["newPage"] = (...args) => app.newPage(...args)
  const signIn = (page: Page) => app.signIn(page, "mia@example.com", memberPassword)

  beforeAll(async () => {
    app = await AppInBrowser.start({
      workspace: "Merges",
      owner: { email: "owner@example.com" },
      members: [
        { email: "mia@example.com", name: "Mia Member", role: "member", password: memberPassword },
        { email: "vic@example.com", name: "Vic Viewer", role: "viewer", password: viewerPassword }
      ]
    })
    url = app.url
  }, 60_000)

  afterAll(() => app?.close())

  it("merges either way, shows the pointer, and undoes from the banner and the timeline", async () => {
    const form = await api("POST", "/forms", {
      title: "Support",
      fields: [
        { type: "email", label: "Email", required: true },
        { type: "short_text", label: "Name", required: false },
        { type: "long_text", label: "Request", required: false }
      ]
    })
    await api("PATCH", `/forms/${form.id}`, { status: "published" })
    const full = await api("GET", `/forms/${form.id}`)
    const [email, name, request] = full.fields as Array<{ id: number }>
    const first = await api("POST", `/forms/${form.id}/responses`, {
      values: { [email!.id]: "ada@example.com", [name!.id]: "Ada Lovelace", [request!.id]: "The printer is broken" }
    })
    const second = await api("POST", `/forms/${form.id}/responses`, {
      values: { [email!.id]: "ada@example.com", [request!.id]: "Still broken, please help" }
    })
    const bob = await api("POST", `/forms/${form.id}/responses`, {
      values: { [email!.id]: "bob@example.com", [name!.id]: "Bob", [request!.id]: "Another matter" }
    })

    const page = await newPage("light")
    await signIn(page)
    await page.goto(`${url}/app/responses/${second.id}`)
    // The search starts with the respondent's address, so the duplicate is one click away; Bob is not listed.
    expect(await page.getByLabel("Find a response of this form").inputValue()).toBe("ada@example.com")
    await page.getByRole("button", { name: "Find", exact: true }).click()
    await page.getByRole("button", { name: `Merge #${first.id} into this case` }).waitFor()
    expect(await page.getByText("Bob").count()).toBe(0)
    await page.getByRole("button", { name: `Merge #${first.id} into this case` }).click()
    await page.getByText(`Merge response #${first.id} into response #${second.id}?`).waitFor()
    // Nothing happens before the confirmation.
    expect((await api("GET", `/responses/${first.id}`)).response.mergedInto).toBeUndefined()
    await screenshotAndAxe(page, "merge-confirm")
    await page.getByRole("button", { name: "Merge", exact: true }).click()
    await page.getByText("Merged. The other response points to this case now.").waitFor()
    expect((await api("GET", `/responses/${first.id}`)).response.mergedInto).toBe(second.id)
    // The kept case took the duplicate's name, and its timeline names the merge with its undo.
    await page.getByText(`Merged response #${first.id} into this one`, { exact: false }).waitFor()
    await page.getByRole("button", { name: `Undo the merge of #${first.id}` }).waitFor()
    await screenshotAndAxe(page, "merge-kept-case")

    // The duplicate is a pointer: its banner links to the kept case and undoes the merge.
    await page.goto(`${url}/app/responses/${first.id}`)
    await page.getByText(`This response was merged into response #${second.id}`, { exact: false }).waitFor()
    expect(await page.getByRole("link", { name: `Open response #${second.id}` }).getAttribute("href")).toMatch(
      new RegExp(`/app/responses/${second.id}$`)
    )
    expect(await page.getByLabel("Find a response of this form").count()).toBe(0)
    await screenshotAndAxe(page, "merge-pointer")
    await page.getByRole("button", { name: "Undo merge", exact: true }).click()
    await page.getByText("Merge undone: both responses are cases of their own again.").waitFor()
    expect((await api("GET", `/responses/${first.id}`)).response.mergedInto).toBeUndefined()

    // The other way: this case (the first) into the second, which then opens; undone from its timeline.
    await page.getByRole("button", { name: "Find", exact: true }).click()
    await page.getByRole("button", { name: `Merge this case into #${second.id}` }).click()
    await page.getByText(`Merge response #${first.id} into response #${second.id}?`).waitFor()
    await page.getByRole("button", { name: "Merge", exact: true }).click()
    await page.waitForURL(`${url}/app/responses/${second.id}`)
    expect((await api("GET", `/responses/${first.id}`)).response.mergedInto).toBe(second.id)
    const undo = page.getByRole("button", { name: `Undo the merge of #${first.id}` })
    await expect.poll(() => undo.count()).toBe(1)
    await undo.click()
    await page.getByText("Merge undone: both responses are cases of their own again.").waitFor()
    expect((await api("GET", `/responses/${first.id}`)).response.mergedInto).toBeUndefined()
    // Both undos are on the timeline, and no undo is offered any more.
    await expect.poll(() => page.getByText(`Undid the merge of response #${first.id}`).count()).toBe(2)
    expect(await page.getByRole("button", { name: `Undo the merge of #${first.id}` }).count()).toBe(0)

    // Merged again: the pointer is out of the lists, so the kept case finds no other response of Ada's.
    await api("POST", `/responses/${second.id}/merge`, { duplicateId: first.id })
    await page.goto(`${url}/app/responses/${second.id}`)
    await page.getByRole("button", { name: "Find", exact: true }).click()
    await page.getByText("No other response of this form matches.").waitFor()
    // A merge the server refuses shows its reason: a case with responses merged into it cannot become a duplicate.
    await page.goto(`${url}/app/responses/${bob.id}`)
    await page.getByLabel("Find a response of this form").fill("ada@example.com")
    await page.getByRole("button", { name: "Find", exact: true }).click()
    await page.getByRole("button", { name: `Merge #${second.id} into this case` }).click()
    await page.getByRole("button", { name: "Merge", exact: true }).click()
    await page.getByText(`merge into it instead`, { exact: false }).waitFor()
    expect((await api("GET", `/responses/${second.id}`)).response.mergedInto).toBeUndefined()
    await page.context().close()

    // A viewer reads the pointer but gets no merge panel and no undo.
    const viewer = await newPage("light")
    await app.signIn(viewer, "vic@example.com", viewerPassword)
    await viewer.goto(`${url}/app/responses/${first.id}`)
    await viewer.getByText(`This response was merged into response #${second.id}`, { exact: false }).waitFor()
    expect(await viewer.getByRole("button", { name: "Undo merge", exact: true }).count()).toBe(0)
    await viewer.goto(`${url}/app/responses/${second.id}`)
    await viewer.getByText(`Merged response #${first.id} into this one`, { exact: false }).first().waitFor()
    expect(await viewer.getByLabel("Find a response of this form").count()).toBe(0)
    expect(await viewer.getByRole("button", { name: `Undo the merge of #${first.id}` }).count()).toBe(0)
    await viewer.context().close()

    for (const scheme of ["light", "dark"] as const) {
      const phone = await newPage(scheme, 360)
      await signIn(phone)
      await phone.goto(`${url}/app/responses/${second.id}`)
      await phone.getByRole("button", { name: `Undo the merge of #${first.id}` }).waitFor()
      await phone.getByLabel("Find a response of this form").fill("")
      await phone.getByRole("button", { name: "Find", exact: true }).click()
      await phone.getByRole("button", { name: /^Merge #\d+ into this case$/ }).waitFor()
      await screenshotAndAxe(phone, `merge-case-360-${scheme}`)
      expect(await overflows(phone), `the case page with its merge panel at 360 px (${scheme})`).toEqual([])
      await phone.goto(`${url}/app/responses/${first.id}`)
      await phone.getByRole("button", { name: "Undo merge", exact: true }).waitFor()
      await screenshotAndAxe(phone, `merge-pointer-360-${scheme}`)
      expect(await overflows(phone), `the pointer's banner at 360 px (${scheme})`).toEqual([])
      await phone.context().close()
    }
    expect(app.problems).toEqual([])
  }, 180_000)
})
