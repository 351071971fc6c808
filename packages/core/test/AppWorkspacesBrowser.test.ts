/**
 * An account that is a member of two workspaces, in a real browser: after its
 * password it chooses the workspace to open (nothing opens before), and the
 * header's workspace menu switches to the other one. Both screens pass axe.
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
const check = (page: Page, label: string) => screenshotAndAxe(page, `app-workspaces-${label}`)

describe.skipIf(!present)("choosing and switching workspaces in the application", () => {
  let browser: Browser
  let qforms: Qforms.Qforms
  let server: Server
  let url = ""
  let ids = { alpha: 0, beta: 0 }

  beforeAll(async () => {
    qforms = await Qforms.make({ database: {}, app: true, logLevel: "Error", delivery: { worker: false } })
    ids = await qforms.run(
      Effect.gen(function* () {
        const workspaces = yield* Workspaces
        const alpha = (yield* workspaces.create({ name: "Alpha", ownerEmail: "pat@example.com", ownerName: "Pat" }))
          .workspace
        const beta = (yield* workspaces.create({ name: "Beta", ownerEmail: "someone@example.com" })).workspace
        yield* (yield* Members).add(beta.id, { email: "pat@example.com", role: "viewer" })
        yield* (yield* Sessions).setPassword("pat@example.com", password)
        return { alpha: alpha.id, beta: beta.id }
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

  it("chooses the workspace after the password, then switches from the header", async () => {
    const page = await newPage(browser)
    const session = async () =>
      (await (await page.request.get(`${url}/app/session`)).json()) as { workspaceId?: number; role?: string }
    await page.goto(`${url}/app/sign-in`)
    await page.getByLabel("E-mail").fill("pat@example.com")
    await page.getByLabel("Password").fill(password)
    await page.keyboard.press("Enter")
    await page.getByRole("heading", { name: "Choose a workspace", level: 1 }).waitFor()
    expect((await page.request.get(`${url}/app/session`)).status()).toBe(401)
    await check(page, "choose")
    await page.getByRole("button", { name: "Beta" }).click()
    await page.getByRole("heading", { name: "Forms", level: 1 }).waitFor()
    expect(await session()).toMatchObject({ workspaceId: ids.beta, role: "viewer" })

    const menu = page.getByLabel("Workspace")
    expect(await menu.inputValue()).toBe(String(ids.beta))
    await check(page, "switcher")
    await menu.selectOption({ label: "Alpha" })
    await expect.poll(async () => (await session()).workspaceId, { timeout: 30_000 }).toBe(ids.alpha)
    await page.getByRole("heading", { name: "Forms", level: 1 }).waitFor()
    expect(await session()).toMatchObject({ workspaceId: ids.alpha, role: "owner" })
  }, 120_000)
})
