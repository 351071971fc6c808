/**
 * The workspace's inbox across forms in the application (`/app/inbox`), in a
 * real browser (Debian's Chromium through playwright-core): a member opens it
 * from the navigation on "My open cases", switches to "All open cases",
 * filters by form, state and sort, chooses columns, tags and stages cases in
 * bulk (across forms; the stage once a form is chosen), saves the list as a shared
 * view (the API keeps its filter, sort and columns), finds it again after a
 * reload (the address keeps it), renames and deletes it; a response submitted
 * meanwhile appears without a reload; j moves through the rows. A viewer keeps
 * a personal view but cannot share one, nor change the team's. axe-core finds
 * no violation, light and dark, and the screen fits a 360 px phone.
 *
 * Skipped only when Chromium is absent outside CI; with CI=true a missing
 * browser fails the run.
 */
import type { Page } from "playwright-core"
import { overflows, present, screenshotAndAxe } from "@qforms/test-kit/Browser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type * as SavedViews from "../src/cases/SavedViews.ts"
import * as AppInBrowser from "./support/AppInBrowser.ts"

/** The list loads over HTTP on a loaded machine: a poll waits longer than Vitest's default second. */
const patiently = { timeout: 15_000 }
const memberPassword = "correct horse battery"
const viewerPassword = "viewer horse battery"

type View = SavedViews.SavedView

describe.skipIf(!present)("the workspace's inbox in the application", () => {
  let app: AppInBrowser.AppInBrowser
  let url = ""
  let support = 0
  let billing = 0

  const api: AppInBrowser.AppInBrowser["api"] = (...args) => app.api(...args)
  const newPage: AppInBrowser.AppInBrowser["newPage"] = (...args) => app.newPage(...args)
  const signIn = (page: Page) => app.signIn(page, "mia@example.com", memberPassword)
  /** The names of the case links of the table, in order. */
  const shownCases = (page: Page) => page.locator("#cases tbody a.case-link").allInnerTexts()
  const submit = async (formId: number, name: string) => {
    const form = await api("GET", `/forms/${formId}`)
    const response = await api("POST", `/forms/${formId}/responses`, {
      values: { [form.fields[0].id]: name, [form.fields[1].id]: `${name.toLowerCase()}@example.com` }
    })
    return response.id as number
  }

  beforeAll(async () => {
    app = await AppInBrowser.start({
      workspace: "Inbox",
      owner: { email: "owner@example.com" },
      members: [
        { email: "mia@example.com", name: "Mia Member", role: "member", password: memberPassword },
        { email: "vic@example.com", name: "Vic Viewer", role: "viewer", password: viewerPassword }
      ]
    })
    url = app.url
    const fields = [
      { type: "short_text", label: "Name", required: true },
      { type: "email", label: "Email", required: true }
    ]
    support = (await api("POST", "/forms", { title: "Support", fields })).id
    billing = (await api("POST", "/forms", { title: "Billing", fields })).id
    for (const id of [support, billing]) await api("PATCH", `/forms/${id}`, { status: "published" })
    // A new form's stages: New, In progress, Done (closed).
    const { stages } = await api("GET", `/forms/${support}/stages`)
    const [working, done] = [stages[1], stages[2]]
    const { members } = await api("GET", "/members")
    const mia = members.find((m: { email: string }) => m.email === "mia@example.com").accountId
    // Submitted in this order: Ada, Bob, Cy, Dee (newest last).
    await api("PATCH", `/responses/${await submit(support, "Ada")}`, { assigneeId: mia, stageId: working.id })
    await api("PATCH", `/responses/${await submit(support, "Bob")}`, { assigneeId: mia, stageId: done.id })
    await api("PATCH", `/responses/${await submit(billing, "Cy")}`, { assigneeId: mia, tags: ["vip"] })
    await submit(billing, "Dee")
    await api("POST", "/views", { name: "Team VIP", shared: true, filter: { tag: "vip" } })
  }, 120_000)

  afterAll(() => app?.close())

  it("shows my open cases, filters, saves a shared view, keeps it in the address, renames and deletes it", async () => {
    const page = await newPage("light")
    await signIn(page)
    await page.getByRole("link", { name: "Inbox" }).click()
    await page.getByRole("heading", { name: "Inbox", level: 1 }).waitFor()
    expect(new URL(page.url()).searchParams.get("view")).toBe("mine")
    await expect.poll(() => shownCases(page), patiently).toEqual(["Cy", "Ada"])
    // Each row names its form and its stage (stages are a form's).
    const ada = page.locator("#cases tbody tr", { hasText: "Ada" })
    await expect
      .poll(() => ada.locator("td").allInnerTexts(), patiently)
      .toEqual(["", "Support", "Ada", "ada@example.com", "In progress", "Mia Member", expect.any(String)])
    await screenshotAndAxe(page, "workspace-inbox-mine")

    await page.getByLabel("View", { exact: true }).selectOption({ label: "All open cases" })
    await expect.poll(() => shownCases(page), patiently).toEqual(["Dee", "Cy", "Ada"])
    // Another response arrives: the list shows it without a reload.
    await submit(billing, "Eve")
    await expect.poll(() => shownCases(page), patiently).toEqual(["Eve", "Dee", "Cy", "Ada"])

    await page.locator("#w-form").selectOption({ label: "Support" })
    await expect.poll(() => shownCases(page), patiently).toEqual(["Ada"])
    await page.locator("#w-open").selectOption({ label: "Open or closed" })
    await expect.poll(() => shownCases(page), patiently).toEqual(["Bob", "Ada"])
    await page.locator("#w-stage").selectOption({ label: "Done" })
    await expect.poll(() => shownCases(page), patiently).toEqual(["Bob"])
    await page.locator("#w-stage").selectOption({ label: "Any" })
    await page.locator("#w-sort").selectOption({ label: "Oldest first" })
    await expect.poll(() => shownCases(page), patiently).toEqual(["Ada", "Bob"])
    await page.getByText("Changed from the view").waitFor()
    // Columns: without the e-mail, with the tags.
    await page.getByText("Columns", { exact: true }).click()
    await page.getByRole("checkbox", { name: "E-mail" }).uncheck()
    await page.getByRole("checkbox", { name: "Tags" }).check()
    await expect
      .poll(() => page.locator("#cases thead th").allInnerTexts(), patiently)
      .toEqual(["", "Form", "Respondent", "Stage", "Assignee", "Tags", "Submitted"])

    await page.getByRole("button", { name: "Save as new view" }).click()
    await page.getByLabel("Name of the new view").fill("Support, all states")
    await page.getByLabel("Share with the team").check()
    await screenshotAndAxe(page, "workspace-inbox-save-view")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await page.getByText("View “Support, all states” saved.").waitFor()
    const saved = ((await api("GET", "/views")).views as ReadonlyArray<View>).find(
      (v) => v.name === "Support, all states"
    )!
    expect(saved).toMatchObject({
      shared: true,
      sort: "oldest",
      columns: ["form", "name", "stage", "assignee", "tags", "submittedAt"]
    })
    // "Open or closed" is no open filter at all.
    expect(saved.filter).toEqual({ formId: support })
    expect(new URL(page.url()).search).toBe(`?view=${saved.id}`)
    await page.getByText("Shared", { exact: true }).waitFor()

    // The address keeps the view: a reload shows the same list.
    await page.reload()
    await expect.poll(() => shownCases(page), patiently).toEqual(["Ada", "Bob"])
    expect(await page.getByLabel("View", { exact: true }).inputValue()).toBe(String(saved.id))
    // j moves the focus through the rows.
    await page.locator("body").click({ position: { x: 5, y: 5 } })
    await page.keyboard.press("j")
    await expect.poll(() => page.locator(":focus").textContent(), patiently).toBe("Ada")
    await page.keyboard.press("j")
    await expect.poll(() => page.locator(":focus").textContent(), patiently).toBe("Bob")

    // A change of the saved view is saved on it.
    await page.locator("#w-sort").selectOption({ label: "Newest first" })
    await expect.poll(() => shownCases(page), patiently).toEqual(["Bob", "Ada"])
    await page.getByRole("button", { name: "Save changes" }).click()
    await page.getByText("View “Support, all states” updated.").waitFor()
    expect(((await api("GET", "/views")).views as ReadonlyArray<View>).find((v) => v.id === saved.id)?.sort).toBe(
      "newest"
    )

    await page.getByRole("button", { name: "Rename view Support, all states" }).click()
    await page.getByLabel("New name").fill("Support, everything")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await page.getByText("View renamed to “Support, everything”.").waitFor()
    expect(((await api("GET", "/views")).views as ReadonlyArray<View>).find((v) => v.id === saved.id)?.name).toBe(
      "Support, everything"
    )

    page.once("dialog", (dialog) => dialog.accept())
    await page.getByRole("button", { name: "Delete view Support, everything" }).click()
    await page.getByText("View “Support, everything” deleted.").waitFor()
    expect(((await api("GET", "/views")).views as ReadonlyArray<View>).map((v) => v.name)).toEqual(["Team VIP"])
    await expect.poll(() => shownCases(page), patiently).toEqual(["Cy", "Ada"])
    expect(new URL(page.url()).search).toBe("?view=mine")

    // Bulk actions across forms: a tag on Eve (Billing) and Ada (Support); no stage without a form chosen.
    await page.getByLabel("View", { exact: true }).selectOption({ label: "All open cases" })
    await expect.poll(() => shownCases(page), patiently).toEqual(["Eve", "Dee", "Cy", "Ada"])
    await page.getByRole("checkbox", { name: "Select Eve" }).check()
    await page.getByRole("checkbox", { name: "Select Ada" }).check()
    expect(await page.locator("#b-stage").count()).toBe(0)
    await page.locator("#b-tag").fill("urgent")
    await page.getByRole("button", { name: "Add tag" }).click()
    await page.getByText("Tagged: 2 of 2 responses updated.").waitFor()
    const tagged = await api("GET", "/responses?tag=urgent")
    expect(tagged.responses.map((r: { name: string }) => r.name)).toEqual(["Eve", "Ada"])

    // A link with a filter over a view opens as it was; with a form chosen, x selects and the stage is offered.
    await page.goto(`${url}/app/inbox?view=open&formId=${billing}`)
    await expect.poll(() => shownCases(page), patiently).toEqual(["Eve", "Dee", "Cy"])
    await page.getByText("Changed from the view").waitFor()
    await page.locator("body").click({ position: { x: 5, y: 5 } })
    await page.keyboard.press("j")
    await page.keyboard.press("j")
    await expect.poll(() => page.locator(":focus").textContent(), patiently).toBe("Dee")
    await page.keyboard.press("x")
    await page.locator("#b-stage").selectOption({ label: "Done" })
    await page.getByRole("button", { name: "Set stage" }).click()
    await page.getByText("Stage set: 1 of 1 responses updated.").waitFor()
    await expect.poll(() => shownCases(page), patiently).toEqual(["Eve", "Cy"])
    await page.context().close()
    expect(app.problems).toEqual([])
  }, 180_000)

  it("lets a viewer keep a personal view but not share one nor change the team's", async () => {
    const viewer = await newPage("light")
    await app.signIn(viewer, "vic@example.com", viewerPassword)
    await viewer.goto(`${url}/app/inbox`)
    await viewer.getByRole("heading", { name: "Inbox", level: 1 }).waitFor()
    await viewer.getByLabel("View", { exact: true }).selectOption({ label: "Team VIP (shared)" })
    await expect.poll(() => shownCases(viewer), patiently).toEqual(["Cy"])
    expect(await viewer.getByRole("button", { name: /^Rename|^Delete/ }).count()).toBe(0)
    await viewer.getByRole("button", { name: "Save as new view" }).click()
    expect(await viewer.getByLabel("Share with the team").count()).toBe(0)
    await viewer.getByLabel("Name of the new view").fill("My VIP")
    await viewer.getByRole("button", { name: "Save", exact: true }).click()
    await viewer.getByText("View “My VIP” saved.").waitFor()
    await viewer.getByRole("button", { name: "Rename view My VIP" }).waitFor()
    // A personal view is the viewer's alone: the owner does not see it.
    expect(((await api("GET", "/views")).views as ReadonlyArray<View>).map((v) => v.name)).toEqual(["Team VIP"])
    await viewer.context().close()
    expect(app.problems).toEqual([])
  }, 120_000)

  it("passes axe and fits a 360 px phone, light and dark", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const phone = await newPage(scheme, 360)
      await signIn(phone)
      await phone.goto(`${url}/app/inbox?view=open`)
      await expect.poll(() => shownCases(phone), patiently).toEqual(["Eve", "Cy", "Ada"])
      await phone.getByRole("checkbox", { name: "Select Eve" }).check()
      await phone.getByText("Columns", { exact: true }).click()
      await screenshotAndAxe(phone, `workspace-inbox-360-${scheme}`)
      expect(await overflows(phone), `the inbox at 360 px (${scheme})`).toEqual([])
      await phone.context().close()
    }
    expect(app.problems).toEqual([])
  }, 120_000)
})
