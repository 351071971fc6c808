/**
 * Keyboard shortcuts of the inbox and the case page (issue #28), in a real
 * browser (Debian's Chromium through playwright-core): j/k move through the
 * rows and, on a case page, through the cases of the list the inbox showed;
 * x selects; a, s, t reach the bulk actions (selecting the focused row when
 * nothing is); n, a, s, t reach the case page's controls; / the search; ?
 * opens the help panel, which axe-core finds clean, light and dark, at 360 px.
 * A key typed into a field stays the field's. A viewer's case page has no
 * control for s to reach.
 *
 * Skipped only when Chromium is absent outside CI; with CI=true a missing
 * browser fails the run.
 */
import { overflows, present, screenshotAndAxe } from "@qforms/test-kit/Browser"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as AppInBrowser from "./support/AppInBrowser.ts"

const ownerPassword = "owner password 1"
const viewerPassword = "viewer password 1"

/** The id of the focused element, or its text when it has none. */
const focused = (page: Page): Promise<string | null> =>
  page.evaluate(
    "document.activeElement === null ? null : document.activeElement.id || (document.activeElement.textContent ?? '').trim()"
  )

describe.skipIf(!present)("keyboard shortcuts in the application", () => {
  let app: AppInBrowser.AppInBrowser
  let formId: number
  const ids: Array<number> = []

  beforeAll(async () => {
    app = await AppInBrowser.start({
      workspace: "Shortcuts",
      owner: { email: "owner@example.com", name: "Olive Owner", password: ownerPassword },
      members: [{ email: "vic@example.com", name: "Vic Viewer", role: "viewer", password: viewerPassword }]
    })
    const form = await app.api("POST", "/forms", {
      title: "Helpdesk",
      fields: [{ type: "short_text", label: "Name", required: true }]
    })
    formId = form.id
    await app.api("PATCH", `/forms/${formId}`, { status: "published" })
    const [name] = (await app.api("GET", `/forms/${formId}`)).fields as Array<{ id: number }>
    // Newest first in the inbox: Cleo, Bob, Ada.
    for (const who of ["Ada", "Bob", "Cleo"]) {
      ids.push((await app.api("POST", `/forms/${formId}/responses`, { values: { [name!.id]: who } })).id)
    }
  }, 60_000)

  afterAll(async () => {
    await app?.close()
  })

  it("moves, selects and acts on the inbox's rows and the case page from the keyboard", async () => {
    const page = await app.newPage("light")
    await app.signIn(page, "owner@example.com", ownerPassword)
    await page.goto(`${app.url}/app/forms/${formId}/responses`)
    await page.getByRole("link", { name: "Cleo" }).waitFor()

    await page.keyboard.press("j")
    expect(await focused(page)).toBe("Cleo")
    await page.keyboard.press("j")
    await page.keyboard.press("j")
    await page.keyboard.press("j")
    expect(await focused(page)).toBe("Ada")
    await page.keyboard.press("k")
    expect(await focused(page)).toBe("Bob")

    // x ticks the focused row; t goes to the tag of the bulk actions.
    await page.keyboard.press("x")
    await expect.poll(() => page.getByLabel("Select Bob").isChecked()).toBe(true)
    await page.keyboard.press("t")
    await expect.poll(() => focused(page)).toBe("b-tag")
    // Typed into the field, j and k are letters, not moves.
    await page.keyboard.type("jk")
    expect(await page.locator("#b-tag").inputValue()).toBe("jk")
    await page.getByRole("button", { name: "Add tag" }).click()
    await page.getByText("Tagged: 1 of 1 responses updated.").waitFor()
    await expect.poll(async () => (await app.api("GET", `/responses/${ids[1]}`)).response.tags).toEqual(["jk"])

    // With nothing selected, s selects the focused row and goes to the stage of the bulk actions.
    await page.keyboard.press("j")
    expect(await focused(page)).toBe("Cleo")
    await page.keyboard.press("s")
    await expect.poll(() => focused(page)).toBe("b-stage")
    expect(await page.getByLabel("Select Cleo").isChecked()).toBe(true)
    expect(await page.getByLabel("Select Bob").isChecked()).toBe(false)

    // / goes to the search; ? opens the help panel, Escape closes it.
    await page.locator("body").click({ position: { x: 1, y: 1 } })
    await page.keyboard.press("/")
    expect(await focused(page)).toBe("f-q")
    await page.locator("body").click({ position: { x: 1, y: 1 } })
    await page.keyboard.press("?")
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" })
    await help.waitFor()
    expect(await help.getByText("Tag the selected responses (or this one)").count()).toBe(1)
    await screenshotAndAxe(page, "shortcuts-inbox-help")
    await page.keyboard.press("Escape")
    await help.waitFor({ state: "hidden" })
    // The panel's button opens it too.
    await page.getByRole("button", { name: "Keyboard shortcuts" }).click()
    await help.waitFor()
    await help.getByRole("button", { name: "Close" }).click()
    await help.waitFor({ state: "hidden" })

    // The case page: j and k follow the inbox's list; n, a, s, t reach the case's controls.
    await page.getByRole("link", { name: "Cleo" }).click()
    await page.getByRole("heading", { name: "Cleo", level: 1 }).waitFor()
    await page.keyboard.press("j")
    await page.getByRole("heading", { name: "Bob", level: 1 }).waitFor()
    expect(page.url()).toContain(`/app/responses/${ids[1]}`)
    await page.keyboard.press("j")
    await page.getByRole("heading", { name: "Ada", level: 1 }).waitFor()
    await page.keyboard.press("j")
    await page.getByText("This is the last response of the list.").waitFor()
    await page.keyboard.press("k")
    await page.getByRole("heading", { name: "Bob", level: 1 }).waitFor()
    for (const [key, control] of [
      ["n", "note"],
      ["a", "case-assignee"],
      ["s", "case-stage"],
      ["t", "case-tag"]
    ] as const) {
      await page.locator("h1").click()
      await page.keyboard.press(key)
      expect(await focused(page), key).toBe(control)
    }
    // Ctrl or Alt with a key is the browser's: nothing moves.
    await page.locator("h1").click()
    await page.keyboard.press("Alt+j")
    expect(page.url()).toContain(`/app/responses/${ids[1]}`)
  }, 120_000)

  it("opens the help panel on a phone, light and dark, and a viewer's s reaches nothing", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const phone = await app.newPage(scheme, 360, 740)
      await app.signIn(phone, "vic@example.com", viewerPassword)
      await phone.goto(`${app.url}/app/responses/${ids[0]}`)
      await phone.getByRole("heading", { name: "Ada", level: 1 }).waitFor()
      await phone.locator("h1").click()
      await phone.keyboard.press("s")
      expect(await focused(phone)).not.toBe("case-stage")
      await phone.keyboard.press("?")
      await phone.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor()
      await screenshotAndAxe(phone, `shortcuts-case-help-${scheme}`)
      expect(await overflows(phone), `the case page's help at 360 px (${scheme})`).toEqual([])
      await phone.close()
    }
    expect(app.problems).toEqual([])
  }, 120_000)
})
