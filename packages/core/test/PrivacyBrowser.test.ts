/**
 * Settings → Privacy and Settings → Audit log in a real browser (Debian's
 * Chromium through playwright-core): an admin downloads a respondent's data
 * as a ZIP (its person.json read back); an admin types a respondent's address,
 * confirms, and sees what was erased kind by kind; the response is gone from
 * the API, another person's stays. The audit log lists the admin's sign-in and
 * the erasures (through the application and the API), filters them by action
 * and downloads the same entries as CSV. A viewer may do neither. axe-core
 * finds no violation, light and dark, and both tabs fit a 360 px phone.
 *
 * Skipped only when Chromium is absent outside CI; with CI=true a missing
 * browser fails the run.
 */
import { overflows, present, screenshotAndAxe } from "@qforms/test-kit/Browser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as AppInBrowser from "./support/AppInBrowser.ts"

const adminPassword = "correct horse battery"
const viewerPassword = "viewer password 1"

describe.skipIf(!present)("privacy settings in the application", () => {
  let app: AppInBrowser.AppInBrowser
  let url = ""

  const api: AppInBrowser.AppInBrowser["api"] = (...args) => app.api(...args)
  const newPage: AppInBrowser.AppInBrowser["newPage"] = (...args) => app.newPage(...args)
  const signIn: AppInBrowser.AppInBrowser["signIn"] = (...args) => app.signIn(...args)

  beforeAll(async () => {
    app = await AppInBrowser.start({
      workspace: "Privacy",
      owner: { email: "owner@example.com" },
      members: [
        { email: "ann@example.com", name: "Ann Admin", role: "admin", password: adminPassword },
        { email: "vic@example.com", name: "Vic Viewer", role: "viewer", password: viewerPassword }
      ]
    })
    url = app.url
  }, 60_000)

  afterAll(() => app?.close())

  it("downloads a person's data as a ZIP holding person.json; a viewer cannot", async () => {
    const form = await api("POST", "/forms", {
      title: "Export",
      fields: [
        { type: "email", label: "Email", required: true },
        { type: "short_text", label: "Name", required: false }
      ]
    })
    await api("PATCH", `/forms/${form.id}`, { status: "published" })
    const full = await api("GET", `/forms/${form.id}`)
    const [email, name] = full.fields as Array<{ id: number }>
    await api("POST", `/forms/${form.id}/responses`, { values: { [email!.id]: "eve@example.com", [name!.id]: "Eve" } })

    const page = await newPage("light")
    await signIn(page, "ann@example.com", adminPassword)
    await page.getByRole("link", { name: "Settings" }).click()
    await page.getByRole("tab", { name: "Privacy" }).click()
    await page.getByRole("heading", { name: "Export a person's data" }).waitFor()
    await page.getByLabel("Address of the person to export").fill("eve@example.com")
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download export" }).click()
    ])
    expect(download.suggestedFilename()).toMatch(/^person-export-\d{4}-\d{2}-\d{2}\.zip$/)
    const path = await download.path()
    const bytes = await import("node:fs").then((fs) => fs.readFileSync(path))
    // A ZIP (its first local header), whose first entry is person.json.
    expect(bytes.readUInt32LE(0)).toBe(0x04034b50)
    expect(bytes.subarray(30, 30 + bytes.readUInt16LE(26)).toString()).toBe("person.json")
    await page.getByText("Downloaded: the data of eve@example.com.").waitFor()
    await screenshotAndAxe(page, "privacy-export")
    await page.context().close()

    for (const scheme of ["light", "dark"] as const) {
      const phone = await newPage(scheme, 360)
      await signIn(phone, "ann@example.com", adminPassword)
      await phone.goto(`${url}/app/settings`)
      await phone.getByRole("tab", { name: "Privacy" }).click()
      await phone.getByLabel("Address of the person to export").fill("eve@example.com")
      await Promise.all([
        phone.waitForEvent("download"),
        phone.getByRole("button", { name: "Download export" }).click()
      ])
      await phone.getByText("Downloaded: the data of eve@example.com.").waitFor()
      await screenshotAndAxe(phone, `privacy-export-360-${scheme}`)
      expect(await overflows(phone), `the export at 360 px (${scheme})`).toEqual([])
      await phone.context().close()
    }

    const viewer = await newPage("dark", 360)
    await signIn(viewer, "vic@example.com", viewerPassword)
    await viewer.goto(`${url}/app/settings`)
    await viewer.getByRole("tab", { name: "Privacy" }).click()
    await viewer.getByText("Only owners and admins can erase a person.").waitFor()
    expect(await viewer.getByLabel("Address of the person to export").count()).toBe(0)
    await viewer.context().close()
    // Each download was recorded, through the application.
    const audit = await api("GET", "/audit-log?action=privacy.export")
    expect(audit.entries).toHaveLength(3)
    expect(audit.entries[0]).toMatchObject({ surface: "app", details: { format: "zip", responses: 1 } })
    expect(app.problems).toEqual([])
  }, 120_000)

  it("erases a person after a confirmation and shows what was erased; a viewer cannot", async () => {
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
    const submit = (address: string, who: string) =>
      api("POST", `/forms/${form.id}/responses`, { values: { [email!.id]: address, [name!.id]: who } })
    const ada = await submit("ada@example.com", "Ada Lovelace")
    await submit("ada@example.com", "Ada")
    const bob = await submit("bob@example.com", "Bob")

    const page = await newPage("light")
    await signIn(page, "ann@example.com", adminPassword)
    await page.getByRole("link", { name: "Settings" }).click()
    await page.getByRole("tab", { name: "Privacy" }).click()
    await page.getByLabel("E-mail address").fill("ada@example.com")
    await page.getByRole("button", { name: "Erase…" }).click()
    const dialog = page.getByRole("alertdialog")
    await dialog.getByText("Erase everything about ada@example.com? This cannot be undone.").waitFor()
    await screenshotAndAxe(page, "privacy-confirm")
    // Cancel first: nothing is erased.
    await dialog.getByRole("button", { name: "Cancel" }).click()
    expect(await page.getByRole("alertdialog").count()).toBe(0)
    expect((await api("GET", `/forms/${form.id}/responses`)).responses).toHaveLength(3)
    await page.getByRole("button", { name: "Erase…" }).click()
    await page.getByRole("button", { name: "Erase permanently" }).click()
    await page.getByText("Erased: ada@example.com.").waitFor()
    const table = page.getByRole("table", { name: "What was erased" })
    await expect(table.getByRole("row", { name: "Responses 2" }).count()).resolves.toBe(1)
    await expect(table.getByRole("row", { name: "Contact 1" }).count()).resolves.toBe(1)
    await screenshotAndAxe(page, "privacy-result")
    const left = (await api("GET", `/forms/${form.id}/responses`)).responses as Array<{ id: number }>
    expect(left.map((r) => r.id)).toEqual([bob.id])
    expect(ada.id).not.toBe(bob.id)
    await page.context().close()

    for (const scheme of ["light", "dark"] as const) {
      const phone = await newPage(scheme, 360)
      await signIn(phone, "ann@example.com", adminPassword)
      await phone.goto(`${url}/app/settings`)
      await phone.getByRole("tab", { name: "Privacy" }).click()
      await phone.getByLabel("E-mail address").fill("bob@example.com")
      await phone.getByRole("button", { name: "Erase…" }).click()
      await phone.getByRole("alertdialog").waitFor()
      await screenshotAndAxe(phone, `privacy-360-${scheme}`)
      expect(await overflows(phone), `privacy at 360 px (${scheme})`).toEqual([])
      await phone.context().close()
    }

    const viewer = await newPage("dark", 360)
    await signIn(viewer, "vic@example.com", viewerPassword)
    await viewer.goto(`${url}/app/settings`)
    await viewer.getByRole("tab", { name: "Privacy" }).click()
    await viewer.getByText("Only owners and admins can erase a person.").waitFor()
    expect(await viewer.getByLabel("E-mail address").count()).toBe(0)
    await screenshotAndAxe(viewer, "privacy-360-dark-viewer")
    await viewer.context().close()
    expect((await api("GET", `/forms/${form.id}/responses`)).responses).toHaveLength(1)
    expect(app.problems).toEqual([])
  }, 120_000)

  it("the audit log: the admin's sign-ins and erasures, filtered, downloaded as CSV; a viewer cannot read it", async () => {
    // An erasure through the API key (the one above came through the application).
    expect((await api("POST", "/privacy/erasures", { email: "nobody@example.com" })).erasureId).toBeGreaterThan(0)

    const page = await newPage("light")
    await signIn(page, "ann@example.com", adminPassword)
    await page.getByRole("link", { name: "Settings" }).click()
    await page.getByRole("tab", { name: "Audit log" }).click()
    const table = page.getByRole("table", { name: "Audit log entries" })
    await table.waitFor()
    // The newest first: this sign-in, by Ann, through the application.
    const first = table.locator("tbody tr").first()
    await expect(first.textContent()).resolves.toMatch(/ann@example\.com.*Signed in.*Application/)
    await screenshotAndAxe(page, "audit-log")

    await page.getByLabel("Action").selectOption({ label: "Person erased" })
    await page.getByRole("button", { name: "Apply" }).click()
    await expect
      .poll(async () =>
        (await table.locator("tbody tr").allTextContents()).every((row) => row.includes("Person erased"))
      )
      .toBe(true)
    const rows = await table.locator("tbody tr").allTextContents()
    expect(rows.some((row) => row.includes("API key"))).toBe(true)
    expect(rows.some((row) => row.includes("ann@example.com") && row.includes("Application"))).toBe(true)
    const href = await page.getByRole("link", { name: "Download CSV" }).getAttribute("href")
    expect(href).toBe("/api/audit-log/export.csv?action=privacy.erasure")
    const csv = await page.request.get(`${url}${href}`)
    expect(csv.status()).toBe(200)
    const lines = (await csv.text()).trim().split("\n")
    expect(lines.length).toBe(rows.length + 1)
    expect(lines.slice(1).every((line) => line.includes("privacy.erasure"))).toBe(true)
    await page.context().close()

    for (const scheme of ["light", "dark"] as const) {
      const phone = await newPage(scheme, 360)
      await signIn(phone, "ann@example.com", adminPassword)
      await phone.goto(`${url}/app/settings`)
      await phone.getByRole("tab", { name: "Audit log" }).click()
      await phone.getByRole("table", { name: "Audit log entries" }).waitFor()
      await screenshotAndAxe(phone, `audit-log-360-${scheme}`)
      expect(await overflows(phone), `the audit log at 360 px (${scheme})`).toEqual([])
      await phone.context().close()
    }

    const viewer = await newPage("dark", 360)
    await signIn(viewer, "vic@example.com", viewerPassword)
    await viewer.goto(`${url}/app/settings`)
    await viewer.getByRole("tab", { name: "Audit log" }).click()
    await viewer.getByText("Only owners and admins can read the audit log.").waitFor()
    expect(await viewer.getByRole("table", { name: "Audit log entries" }).count()).toBe(0)
    await viewer.context().close()
    expect(app.problems).toEqual([])
  }, 120_000)
})
