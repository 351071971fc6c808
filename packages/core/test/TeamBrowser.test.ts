/**
 * A team signs in, in a real browser, without e-mail set up: the owner
 * invites from Settings → Members and copies the one-time link; the invitee,
 * in a second browser context, sets a name and password and lands in the
 * workspace; then signs in again with that password. The owner copies a
 * sign-in link for a member and revokes a pending invitation. Every screen
 * passes axe.
 */
import type { Server } from "node:http"
import { testHttpServer } from "@qforms/test-kit/Loopback"
import type { AddressInfo } from "node:net"
import * as Effect from "effect/Effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Members } from "../src/identity/Members.ts"
import { Sessions } from "../src/identity/Sessions.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import * as Qforms from "../src/Qforms.ts"
import { launch, newPage, present, screenshotAndAxe } from "@qforms/test-kit/Browser"

const password = "correct horse battery"

/** Saves a screenshot and runs axe-core in the page (0 violations expected). */
const check = (page: Page, label: string) => screenshotAndAxe(page, `team-${label}`)

describe.skipIf(!present)("inviting a colleague in the application", () => {
  let browser: Browser
  let qforms: Qforms.Qforms
  let server: Server
  let url = ""
  let workspaceId = 0

  beforeAll(async () => {
    qforms = await Qforms.make({ database: {}, app: true, logLevel: "Error", delivery: { worker: false } })
    workspaceId = await qforms.run(
      Effect.gen(function* () {
        const workspace = (yield* (yield* Workspaces).create({
          name: "Crew",
          ownerEmail: "olga@example.com",
          ownerName: "Olga"
        })).workspace
        yield* (yield* Members).add(workspace.id, { email: "mo@example.com", role: "member" })
        yield* (yield* Sessions).setPassword("olga@example.com", password)
        return workspace.id
      })
    )
    server = testHttpServer(qforms.nodeHandler)
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    browser = await launch()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())))
    await qforms?.dispose()
  })

  it("invites, the invitee joins with the copied link and signs in again", async () => {
    const owner = await newPage(browser)
    await owner.goto(`${url}/app/sign-in`)
    expect(await owner.getByRole("link", { name: "Forgot your password?" }).count()).toBe(1)
    await owner.getByLabel("E-mail").fill("olga@example.com")
    await owner.getByLabel("Password").fill(password)
    await owner.keyboard.press("Enter")
    await owner.getByRole("heading", { name: "Forms", level: 1 }).waitFor()
    await owner.goto(`${url}/app/settings`)
    await owner.getByRole("heading", { name: "Members" }).waitFor()

    await owner.getByLabel("Invite by e-mail").fill("nia@example.com")
    await owner.getByLabel("Role", { exact: true }).selectOption("member")
    await owner.getByRole("button", { name: "Invite", exact: true }).click()
    const shown = owner.getByRole("region", { name: "Invitation link for nia@example.com" })
    await shown.waitFor()
    const link = (await shown.locator("[data-secret]").textContent())!.trim()
    expect(link).toMatch(new RegExp(`^${url}/app/invite/[A-Za-z0-9_-]{43}$`))
    await owner
      .getByRole("table", { name: "Pending invitations" })
      .getByRole("cell", { name: "nia@example.com", exact: true })
      .waitFor()
    await check(owner, "settings-invited")

    // A sign-in link for a member, shown once.
    await owner.getByRole("button", { name: "Copy a sign-in link for mo@example.com" }).click()
    const signInLink = owner.getByRole("region", { name: /Sign-in link for mo@example.com/ })
    await signInLink.waitFor()
    expect((await signInLink.locator("[data-secret]").textContent())!.trim()).toMatch(new RegExp(`^${url}/app/link/`))

    // The invitee, in a browser of their own.
    const invitee = await newPage(browser)
    await invitee.goto(link)
    await invitee.getByRole("heading", { name: "Join Crew", level: 1 }).waitFor()
    await check(invitee, "invite")
    await invitee.getByLabel("Your name").fill("Nia")
    await invitee.getByLabel(/Choose a password/).fill(password)
    await invitee.getByRole("button", { name: "Join" }).click()
    await invitee.getByRole("heading", { name: "Forms", level: 1 }).waitFor()
    const who = (await (await invitee.request.get(`${url}/app/session`)).json()) as {
      workspaceId: number
      role: string
    }
    expect(who).toMatchObject({ workspaceId, role: "member" })

    // The link worked once.
    const again = await newPage(browser)
    const reused = await again.goto(link)
    expect(reused?.status()).toBe(410)
    await check(again, "invite-used")

    // The owner's list: Nia is a member, the invitation is gone; a second one is revoked.
    await owner.reload()
    await owner.getByRole("cell", { name: "nia@example.com", exact: true }).waitFor()
    await owner.getByLabel("Invite by e-mail").fill("late@example.com")
    await owner.getByRole("button", { name: "Invite", exact: true }).click()
    await owner.getByRole("button", { name: "Revoke the invitation of late@example.com" }).click()
    await owner.getByText("The invitation of late@example.com is revoked.").waitFor()
    await expect
      .poll(() => owner.getByRole("button", { name: "Revoke the invitation of late@example.com" }).count())
      .toBe(0)

    // Later: Nia signs in with her password.
    const later = await newPage(browser)
    await later.goto(`${url}/app/sign-in`)
    await later.getByLabel("E-mail").fill("nia@example.com")
    await later.getByLabel("Password").fill(password)
    await later.keyboard.press("Enter")
    await later.getByRole("heading", { name: "Forms", level: 1 }).waitFor()

    // Forgot password page (no e-mail configured: the same answer all the same).
    await later.goto(`${url}/app/forgot-password`)
    await check(later, "forgot")
  }, 180_000)
})
