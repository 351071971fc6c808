/**
 * Sensitive questions in the application, in a real browser (Debian's
 * Chromium through playwright-core): an admin marks a question sensitive in
 * the builder and subscribes a webhook that may receive its answers (the API
 * then says both, and the webhook really gets the answer); a viewer's case
 * page shows the answer masked, never its text. axe-core finds no violation,
 * light and dark, and the screens fit a 360 px phone.
 *
 * Skipped only when Chromium is absent outside CI; with CI=true a missing
 * browser fails the run.
 */
import { overflows, present, screenshotAndAxe } from "@qforms/test-kit/Browser"
import { waitFor } from "@qforms/test-kit/Conditions"
import { receiver } from "@qforms/test-kit/Receiver"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as AppInBrowser from "./support/AppInBrowser.ts"

const adminPassword = "correct horse battery"
const viewerPassword = "viewer password 1"
const SECRET = "AB-123-SECRET"

describe.skipIf(!present)("sensitive questions in the application", () => {
  let app: AppInBrowser.AppInBrowser
  let hook: Awaited<ReturnType<typeof receiver>>

  beforeAll(async () => {
    hook = await receiver()
    app = await AppInBrowser.start({
      workspace: "Sensitive",
      owner: { email: "owner@example.com" },
      members: [
        { email: "ann@example.com", name: "Ann Admin", role: "admin", password: adminPassword },
        { email: "vic@example.com", name: "Vic Viewer", role: "viewer", password: viewerPassword }
      ],
      qforms: { delivery: { allowPrivateTargets: true, schedule: [0], timeoutMs: 2_000, pollIntervalMs: 100 } }
    })
  }, 60_000)

  afterAll(async () => {
    await app?.close()
    await hook?.close()
  })

  it("marks a question sensitive, lets one webhook receive it, and masks it for a viewer", async () => {
    const form = await app.api("POST", "/forms", {
      title: "Identity check",
      fields: [
        { type: "short_text", label: "Name", required: true },
        { type: "short_text", label: "ID number", required: false }
      ]
    })
    await app.api("PATCH", `/forms/${form.id}`, { status: "published" })
    const [name, id] = (await app.api("GET", `/forms/${form.id}`)).fields as Array<{ id: number }>

    // The builder: the second question's "Sensitive" box, saved.
    const page = await app.newPage("light")
    await app.signIn(page, "ann@example.com", adminPassword)
    await page.goto(`${app.url}/app/forms/${form.id}`)
    await page.getByRole("checkbox", { name: "Sensitive" }).nth(1).check()
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await expect
      .poll(async () =>
        ((await app.api("GET", `/forms/${form.id}`)).fields as Array<{ sensitive?: boolean }>).map(
          (field) => field.sensitive === true
        )
      )
      .toEqual([false, true])
    await screenshotAndAxe(page, "sensitive-builder")

    // Settings → Webhooks: a subscription that may receive the sensitive answers.
    await page.getByRole("link", { name: "Settings" }).click()
    await page.getByRole("tab", { name: "Webhooks" }).click()
    await page.getByLabel("Form", { exact: true }).selectOption(String(form.id))
    await page.getByLabel("Event", { exact: true }).selectOption("response.created")
    await page.getByRole("checkbox", { name: "Include the answers of questions marked sensitive" }).check()
    await page.getByLabel("URL").fill(hook.url)
    await page.getByRole("button", { name: "Subscribe" }).click()
    await page.getByText("sensitive answers included").waitFor()
    const [subscription] = await app.api("GET", "/webhooks")
    expect(subscription).toMatchObject({ formId: form.id, includeSensitive: true })
    await screenshotAndAxe(page, "sensitive-webhook")
    await page.context().close()

    const created = await app.api("POST", `/forms/${form.id}/responses`, {
      values: { [name!.id]: "Ada", [id!.id]: SECRET }
    })
    const delivered = await waitFor(() => hook.received.find((post) => post.body.includes(SECRET)))
    expect(JSON.parse(delivered.body)).toMatchObject({ event: "response.created" })

    // A viewer's case page: the answer masked, on a phone, light and dark.
    for (const scheme of ["light", "dark"] as const) {
      const phone = await app.newPage(scheme, 360)
      await app.signIn(phone, "vic@example.com", viewerPassword)
      await phone.goto(`${app.url}/app/responses/${created.id}`)
      await phone.getByText("••• (sensitive)").waitFor()
      expect(await phone.getByText(SECRET).count()).toBe(0)
      expect(await phone.content()).not.toContain(SECRET)
      await screenshotAndAxe(phone, `sensitive-case-viewer-360-${scheme}`)
      expect(await overflows(phone), `the viewer's case page at 360 px (${scheme})`).toEqual([])
      await phone.context().close()
    }
    // The admin reads it whole.
    const admin = await app.newPage("dark")
    await app.signIn(admin, "ann@example.com", adminPassword)
    await admin.goto(`${app.url}/app/responses/${created.id}`)
    await admin.getByText(SECRET).waitFor()
    await admin.context().close()
    expect(app.problems).toEqual([])
  }, 120_000)
})
