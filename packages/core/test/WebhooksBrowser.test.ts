/**
 * The application's webhook settings in a real browser (Debian's Chromium
 * through playwright-core): an admin subscribes with several events of the
 * catalogue, a stage filter and tags (the API then lists them); a receiver
 * answering 500 makes the deliveries give up, the screen shows the failures in
 * a row, the alert and the dead letters, and replays the chosen ones (the
 * receiver gets them again); Test sends a ping, or the example of an event
 * chosen beside it; a viewer sees the dead letters without a replay.
 * axe-core finds no violation, light and dark, and the tab fits a 360 px phone.
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

describe.skipIf(!present)("webhook settings in the application", () => {
  let app: AppInBrowser.AppInBrowser
  let hook: Awaited<ReturnType<typeof receiver>>
  let url = ""

  const api: AppInBrowser.AppInBrowser["api"] = (...args) => app.api(...args)
  const newPage: AppInBrowser.AppInBrowser["newPage"] = (...args) => app.newPage(...args)
  const signIn: AppInBrowser.AppInBrowser["signIn"] = (...args) => app.signIn(...args)

  beforeAll(async () => {
    // Two posts fail (both give up: one attempt each), later ones are delivered.
    hook = await receiver([500, 500, 200])
    app = await AppInBrowser.start({
      workspace: "Hooks",
      owner: { email: "owner@example.com" },
      members: [
        { email: "ada@example.com", name: "Ada Admin", role: "admin", password: adminPassword },
        { email: "vic@example.com", name: "Vic Viewer", role: "viewer", password: viewerPassword }
      ],
      qforms: {
        delivery: {
          allowPrivateTargets: true,
          schedule: [0],
          timeoutMs: 1_000,
          pollIntervalMs: 100,
          alertAfterFailures: 2,
          disableAfterFailures: 5
        }
      }
    })
    url = app.url
  }, 60_000)

  afterAll(async () => {
    await app?.close()
    await hook?.close()
  })

  it("subscribes with events and filters, shows failures, the alert and dead letters, and replays them", async () => {
    const form = await api("POST", "/forms", {
      title: "Support",
      fields: [{ type: "short_text", label: "Name", required: true }]
    })
    await api("PATCH", `/forms/${form.id}`, { status: "published" })
    const stages = (await api("GET", `/forms/${form.id}/stages`)).stages as Array<{ id: number; name: string }>

    const page = await newPage("light")
    await signIn(page, "ada@example.com", adminPassword)
    await page.getByRole("link", { name: "Settings" }).click()
    await page.getByRole("tab", { name: "Webhooks" }).click()
    await page.getByLabel("Form", { exact: true }).selectOption(String(form.id))
    await page.getByLabel("Event", { exact: true }).selectOption("response.created")
    // Every event of the catalogue is offered, but not `ping`, which cannot be subscribed to.
    const offered = await page.locator("#hook-event option").allTextContents()
    expect(offered).toContain("email.replied")
    expect(offered).not.toContain("ping")
    expect(await page.getByRole("checkbox", { name: "ping" }).count()).toBe(0)
    await page.getByRole("checkbox", { name: "response.tagged" }).check()
    await page.getByRole("checkbox", { name: "note.created" }).check()
    await page.getByRole("checkbox", { name: stages[0]!.name }).check()
    await page.getByLabel("Only responses with these tags").fill("VIP, billing ")
    await page.getByLabel("URL").fill(hook.url)
    await page.getByRole("button", { name: "Subscribe" }).click()
    expect(await page.locator("[data-secret]").textContent()).toMatch(/^whsec_/)
    await screenshotAndAxe(page, "webhooks-subscribed")
    const [subscription] = await api("GET", "/webhooks")
    expect(subscription).toMatchObject({
      formId: form.id,
      event: "response.created",
      events: ["response.created", "response.tagged", "note.created"],
      filters: { stageIds: [stages[0]!.id], tags: ["vip", "billing"] },
      source: "app"
    })
    await page.getByText("filters: 1 stages, tags vip, billing").waitFor()

    // Two responses in the chosen stage with a chosen tag: both deliveries give up.
    for (const name of ["One", "Two"]) {
      const created = await api("POST", `/forms/${form.id}/responses`, { values: { [form.fields[0].id]: name } })
      await api("PATCH", `/responses/${created.id}`, { stageId: stages[0]!.id, tags: ["vip"] })
    }
    await waitFor(async () => {
      const [s] = await api("GET", "/webhooks")
      return s.consecutiveFailures >= 2 ? true : undefined
    })
    await page.reload()
    await page.getByRole("tab", { name: "Webhooks" }).click()
    await page.getByText("2 deliveries in a row gave up").first().waitFor()
    await page.getByText(/2 deliveries in a row to http:\/\/127\.0\.0\.1:\d+\/… \(Support\) gave up\./).waitFor()
    const dead = (await api("GET", "/webhooks/dead-letters")).deliveries as Array<{ id: number }>
    expect(dead).toHaveLength(2)
    await screenshotAndAxe(page, "webhooks-dead-letters")

    const before = hook.received.length
    for (const d of dead) await page.getByRole("checkbox", { name: `Choose delivery ${d.id} to replay` }).check()
    await page.getByRole("button", { name: "Replay selected (2)" }).click()
    await page.getByText("2 sent again, 0 skipped.").waitFor()
    await waitFor(() => (hook.received.length - before === 2 ? true : undefined))
    await page.getByText("No dead letters.").waitFor()

    // Test sends a ping unless an event is chosen beside it; then that event's catalogue example, by keyboard too.
    const testEvent = page.getByLabel(`Event of the test to ${hook.url}`)
    expect(await testEvent.inputValue()).toBe("ping")
    const choices = await testEvent.locator("option").allTextContents()
    expect(choices[0]).toBe("ping")
    expect(choices).toContain("email.replied")
    let sent = hook.received.length
    await page.getByRole("button", { name: `Send a test ping to ${hook.url}` }).click()
    await page.getByText(/^Test ping answered 200 in \d+ ms\.$/).waitFor()
    await waitFor(() => (hook.received.length > sent ? true : undefined))
    expect(JSON.parse(hook.received[sent]!.body)).toMatchObject({ event: "ping", subscriptionId: subscription.id })
    await testEvent.selectOption("response.tagged")
    await screenshotAndAxe(page, "webhooks-test-event")
    sent = hook.received.length
    await testEvent.focus()
    await page.keyboard.press("Tab")
    await page.keyboard.press("Enter")
    await page.getByText(/^Test response\.tagged answered 200 in \d+ ms\.$/).waitFor()
    await waitFor(() => (hook.received.length > sent ? true : undefined))
    const example = hook.received[sent]!
    expect(example.headers["webhook-id"]).toMatch(/^msg_test_/)
    expect(JSON.parse(example.body)).toMatchObject({
      event: "response.tagged",
      form: { id: form.id, title: "Support" },
      added: ["invoice"]
    })

    // Every form: a workspace-wide subscription, the only kind offered form.deleted; listed as "All forms".
    await page.getByLabel("Form", { exact: true }).selectOption(String(form.id))
    expect(await page.locator("#hook-event option").allTextContents()).not.toContain("form.deleted")
    await page.getByLabel("Form", { exact: true }).selectOption({ label: "Every form (workspace-wide)" })
    await page.getByLabel("Event", { exact: true }).selectOption("form.deleted")
    await page.getByRole("checkbox", { name: "form.published" }).check()
    await page.getByLabel("URL").fill(`${hook.url}/every`)
    await page.getByRole("button", { name: "Subscribe" }).click()
    expect(await page.locator("[data-secret]").textContent()).toMatch(/^whsec_/)
    const [wide] = await api("GET", "/webhooks/workspace-subscriptions")
    expect(wide).toMatchObject({
      scope: "workspace",
      event: "form.deleted",
      events: ["form.deleted", "form.published"],
      filters: {},
      source: "app"
    })
    await page.getByRole("cell", { name: "All forms", exact: true }).waitFor()
    await screenshotAndAxe(page, "webhooks-every-form")
    await page.context().close()

    // Dark mode and a phone: readable, nothing overflows; a viewer reads the dead letters but cannot replay.
    await api("POST", "/webhooks/subscribe", {
      formId: form.id,
      event: "response.created",
      targetUrl: "http://127.0.0.1:9/never"
    })
    await api("POST", `/forms/${form.id}/responses`, { values: { [form.fields[0].id]: "Three" } })
    await waitFor(async () => {
      const list = await api("GET", "/webhooks/dead-letters")
      return list.deliveries.length === 1 ? true : undefined
    })
    for (const scheme of ["light", "dark"] as const) {
      const phone = await newPage(scheme, 360)
      await signIn(phone, "vic@example.com", viewerPassword)
      await phone.goto(`${url}/app/settings`)
      await phone.getByRole("tab", { name: "Webhooks" }).click()
      await phone.getByRole("heading", { name: "Dead letters" }).waitFor()
      await phone.getByRole("region", { name: "Dead letters" }).waitFor()
      expect(await phone.getByRole("button", { name: /Replay selected/ }).count()).toBe(0)
      expect(await phone.getByRole("checkbox").count()).toBe(0)
      await screenshotAndAxe(phone, `webhooks-360-${scheme}`)
      expect(await overflows(phone), `webhooks at 360 px (${scheme})`).toEqual([])
      await phone.context().close()
    }
    // An admin's phone in dark mode: each subscription's test event and Test button fit too.
    const adminPhone = await newPage("dark", 360)
    await signIn(adminPhone, "ada@example.com", adminPassword)
    await adminPhone.goto(`${url}/app/settings`)
    await adminPhone.getByRole("tab", { name: "Webhooks" }).click()
    await adminPhone.getByLabel(`Event of the test to ${hook.url}`, { exact: true }).selectOption("form.published")
    await screenshotAndAxe(adminPhone, "webhooks-360-dark-admin")
    expect(await overflows(adminPhone), "webhooks at 360 px (dark, admin)").toEqual([])
    await adminPhone.context().close()
    expect(app.problems).toEqual([])
  }, 120_000)
})
