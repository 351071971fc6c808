/**
 * The application's screens for features other modules provide — per-form
 * notifications, the confirmation e-mail, form logic (hidden fields, jumps),
 * writing to the respondent and SLAs (business hours, badges, the Due filter)
 * — in a real browser against a real qforms.
 * Each part runs when this build of qforms has the feature's API (read from
 * its own OpenAPI document), since the screens show only then.
 */
import type { Server } from "node:http"
import { testHttpServer } from "@qforms/test-kit/Loopback"
import type { AddressInfo } from "node:net"
import * as Effect from "effect/Effect"
import * as OpenApi from "effect/http-api/OpenApi"
import type { Browser, Page } from "playwright-core"
import { launch, newPage, present, screenshotAndAxe } from "@qforms/test-kit/Browser"
import { smtpSink } from "@qforms/test-kit/SmtpSink"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Sessions } from "../src/identity/Sessions.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import { Api } from "../src/api/Api.ts"
import * as Qforms from "../src/Qforms.ts"

const paths = OpenApi.fromApi(Api).paths as Record<string, Record<string, unknown>>
const hasNotifications = paths["/api/forms/{id}/notifications"]?.["put"] !== undefined
const hasConfirmation = paths["/api/forms/{id}/confirmation"]?.["put"] !== undefined
const hasEmails = paths["/api/responses/{id}/emails"]?.["post"] !== undefined
const formSchema = JSON.stringify(OpenApi.fromApi(Api).components ?? {})
const hasLogic = formSchema.includes("hiddenFields")
const hasSla = formSchema.includes("businessHours")
const password = "correct horse battery"

/** Saves a screenshot and runs axe-core in the page (0 violations expected). */
const check = (page: Page, label: string) => screenshotAndAxe(page, `app-extras-${label}`)

describe.skipIf(!present || !(hasNotifications || hasConfirmation || hasEmails || hasLogic || hasSla))(
  "the application's screens for notifications, confirmation, logic and e-mail",
  () => {
    let browser: Browser
    let qforms: Qforms.Qforms
    let server: Server
    let url = ""
    let page: Page
    let csrf = ""
    let smtp: Awaited<ReturnType<typeof smtpSink>> | undefined

    const api = async (method: string, path: string, body?: unknown) => {
      const response = await page.request.fetch(`${url}/api${path}`, {
        method,
        headers: { "x-csrf-token": csrf, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { data: JSON.stringify(body) })
      })
      return { status: response.status(), json: (await response.json().catch(() => undefined)) as unknown }
    }

    beforeAll(async () => {
      // E-mail is configured (a local SMTP sink), as the confirmation and the composer need it; links in
      // e-mails start at appUrl, so the server listens first and qforms is made with its URL.
      smtp = await smtpSink()
      server = testHttpServer((req, res) => qforms.nodeHandler(req, res))
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      qforms = await Qforms.make({
        database: {},
        app: true,
        appUrl: url,
        logLevel: "Error",
        delivery: { worker: false },
        mail: { url: smtp.url, from: "Acme <forms@example.com>" }
      })
      await qforms.run(
        Effect.gen(function* () {
          yield* (yield* Workspaces).create({
            name: "Acme",
            ownerEmail: "olivia@example.com",
            ownerName: "Olivia Owner"
          })
          yield* (yield* Sessions).setPassword("olivia@example.com", password)
        })
      )
      browser = await launch()
      page = await newPage(browser)
      await page.goto(`${url}/app/sign-in`)
      await page.getByLabel("E-mail").fill("olivia@example.com")
      await page.getByLabel("Password").fill(password)
      await page.keyboard.press("Enter")
      await page.getByRole("heading", { name: "Forms", level: 1 }).waitFor()
      csrf = ((await (await page.request.get(`${url}/app/session`)).json()) as { csrfToken: string }).csrfToken
    }, 60_000)

    afterAll(async () => {
      await browser?.close()
      await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())))
      await qforms?.dispose()
      await smtp?.close()
    })

    it("edits notifications, the confirmation e-mail and form logic in the builder; the API has what was saved", async () => {
      const created = await api("POST", "/forms", {
        title: "Plans",
        fields: [
          { type: "select", label: "Plan", required: true, options: { choices: ["Free", "Pro"] } },
          { type: "short_text", label: "Company" },
          { type: "email", label: "Email" }
        ]
      })
      expect(created.status).toBe(201)
      const formId = (created.json as { id: number }).id
      await page.goto(`${url}/app/forms/${formId}`)
      await page.getByRole("heading", { name: "Questions" }).waitFor()

      if (hasNotifications) {
        const notifications = page.getByRole("region", { name: "Notifications" })
        await notifications.getByLabel("Add a channel").selectOption("slack")
        await notifications.getByRole("button", { name: "Add", exact: true }).click()
        await page
          .getByRole("region", { name: "Notifications" })
          .getByLabel("URL")
          .fill("https://hooks.slack.com/services/T000/B000/XXXX")
        await page.getByRole("button", { name: "Save notifications" }).click()
        await page.getByText("Notifications saved.").waitFor()
        const saved = await api("GET", `/forms/${formId}/notifications`)
        expect((saved.json as { channels: unknown }).channels).toMatchObject([
          { type: "slack", enabled: true, url: "https://hooks.slack.com/services/T000/B000/XXXX" }
        ])
      }
      if (hasConfirmation) {
        await page.getByLabel(/Send a confirmation/).check()
        await page.getByLabel("Subject").fill("Thanks for choosing a plan")
        await page.getByRole("button", { name: "Save confirmation e-mail" }).click()
        await page.getByText("Confirmation e-mail saved.").waitFor()
        const saved = await api("GET", `/forms/${formId}/confirmation`)
        expect(saved.json).toMatchObject({ enabled: true, subject: "Thanks for choosing a plan" })
      }
      if (hasLogic) {
        await page.getByLabel("Add hidden field").fill("ref")
        await page.getByRole("region", { name: "Hidden fields" }).getByRole("button", { name: "Add" }).click()
        const first = page.locator("ol[aria-label=Questions] > li").first()
        await first.getByText("Logic").click()
        await first.getByRole("button", { name: "Add a jump rule" }).click()
        await first.getByLabel("Value").fill("Free")
        await first.getByLabel("then go to").selectOption({ label: "Email" })
        await page.getByRole("button", { name: "Save", exact: true }).click()
        await page.getByText("Saved.", { exact: true }).waitFor()
        const form = (await api("GET", `/forms/${formId}`)).json as {
          hiddenFields: unknown
          fields: Array<{ id: number; logic?: unknown }>
        }
        expect(form.hiddenFields).toEqual([{ name: "ref" }])
        const [plan, , email] = form.fields
        expect(plan!.logic).toEqual([{ if: { field: plan!.id, equals: "Free" }, then: { jumpTo: email!.id } }])
      }
      await check(page, "builder")
    }, 120_000)

    it.skipIf(!hasEmails)(
      "shows the e-mail composer on the case page and the server's answer when sending",
      async () => {
        const created = await api("POST", "/forms", {
          title: "Contact",
          fields: [{ type: "email", label: "Email", required: true }]
        })
        const formId = (created.json as { id: number }).id
        await api("PATCH", `/forms/${formId}`, { status: "published" })
        const form = (await api("GET", `/forms/${formId}`)).json as { fields: Array<{ id: number }> }
        const response = await api("POST", `/forms/${formId}/responses`, {
          values: { [form.fields[0]!.id]: "ada@example.com" }
        })
        await page.goto(`${url}/app/responses/${(response.json as { id: number }).id}`)
        await page.getByRole("form", { name: "Write to the respondent" }).waitFor()
        await page.getByLabel("Subject").fill("About your message")
        await page.getByLabel(/Message to ada@example.com/).fill("Hello Ada")
        await page.getByRole("button", { name: "Send e-mail" }).click()
        // The server accepts it (sent by the delivery worker; without SMTP it would answer 409, see
        // RespondentEmails.test.ts) and the case page lists it.
        await page.getByText("E-mail sent.").waitFor()
        await page.getByText("Sent to ada@example.com").waitFor()
        await check(page, "case-email")
      },
      60_000
    )
    it.skipIf(!hasSla)(
      "sets business hours, shows a case's SLA badge in the inbox and on the case page, and filters by due",
      async () => {
        await page.goto(`${url}/app/settings`)
        await page.getByRole("tab", { name: "Business hours" }).click()
        await page.getByLabel(/Time zone/).fill("Mars/Olympus")
        await page.getByLabel(/^Monday/).fill("00:00-24:00")
        await page.getByRole("button", { name: "Save business hours" }).click()
        // The server's message names the problem.
        await page.getByText(/unknown time zone "Mars\/Olympus"/).waitFor()
        await page.getByLabel(/Time zone/).fill("UTC")
        for (const day of ["Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]) {
          await page.getByLabel(new RegExp(`^${day}`)).fill("00:00-24:00")
        }
        await page.getByRole("button", { name: "Save business hours" }).click()
        await page.getByText("Business hours saved.").waitFor()
        await check(page, "business-hours")
        const saved = (await api("GET", "/workspace/settings")).json as { businessHours: { timeZone: string } }
        expect(saved.businessHours.timeZone).toBe("UTC")

        const created = await api("POST", "/forms", {
          title: "Support",
          fields: [{ type: "email", label: "Email", required: true }]
        })
        const formId = (created.json as { id: number }).id
        await api("PATCH", `/forms/${formId}`, {
          status: "published",
          settings: { sla: { firstResponseMinutes: 120 } }
        })
        const form = (await api("GET", `/forms/${formId}`)).json as { fields: Array<{ id: number }> }
        const response = await api("POST", `/forms/${formId}/responses`, {
          values: { [form.fields[0]!.id]: "grace@example.com" }
        })
        await page.goto(`${url}/app/forms/${formId}/responses`)
        await page.getByRole("link", { name: "grace@example.com" }).waitFor()
        await page.getByText(/^Due in/).waitFor()
        await check(page, "inbox-sla")
        await page.getByLabel("Due", { exact: true }).selectOption("overdue")
        await page.getByRole("link", { name: "grace@example.com" }).waitFor({ state: "detached" })
        await page.getByLabel("Due", { exact: true }).selectOption("")
        await page.getByRole("link", { name: "grace@example.com" }).waitFor()
        await page.goto(`${url}/app/responses/${(response.json as { id: number }).id}`)
        await page.getByText(/^Due in/).waitFor()
      },
      90_000
    )
  }
)
