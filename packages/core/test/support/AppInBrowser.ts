/**
 * What the application's browser tests share: qforms with the application on
 * a loopback server, a workspace whose people sign in with passwords, the
 * owner's API key, Debian's Chromium, pages that collect their problems (page
 * errors, CSP violations), and a sign-in that waits for the *Forms* screen.
 */
import * as Effect from "effect/Effect"
import type { Browser, Page } from "playwright-core"
import { launch, newPage, type PageOptions, signIn as signInAs } from "@qforms/test-kit/Browser"
import { listenFirst, loopbackApi } from "@qforms/test-kit/Loopback"
import { ApiKeys } from "../../src/identity/ApiKeys.ts"
import { Members } from "../../src/identity/Members.ts"
import type { MemberRole } from "../../src/identity/Members.ts"
import { Sessions } from "../../src/identity/Sessions.ts"
import { Workspaces } from "../../src/identity/Workspaces.ts"
import * as Qforms from "../../src/Qforms.ts"

/** Someone of the workspace who signs in with a password. */
export interface Person {
  readonly email: string
  readonly name?: string | undefined
  readonly password: string
}

/** How {@link start} sets up. */
export interface AppInBrowserOptions {
  readonly workspace: string
  /** The workspace's owner (whose API key the tests use); with a password, they can sign in too. */
  readonly owner: { readonly email: string; readonly name?: string | undefined; readonly password?: string | undefined }
  /** Further members, each with a role and a password. */
  readonly members?: ReadonlyArray<Person & { readonly role: Exclude<MemberRole, "owner"> }>
  /** Further options of `Qforms.make` (the database is in memory; the application is on). */
  readonly qforms?: Omit<Qforms.QformsOptions, "database" | "appUrl" | "app"> | undefined
  /** Options of every page opened (e.g. clipboard permissions). */
  readonly page?: Omit<PageOptions, "colorScheme" | "width" | "height" | "problems"> | undefined
}

/** The running setup. */
export interface AppInBrowser {
  readonly url: string
  readonly key: string
  readonly workspaceId: number
  readonly qforms: Qforms.Qforms
  readonly browser: Browser
  /** The problems of every page opened: expect none at the end. */
  readonly problems: Array<string>
  /** The API as the owner's key (a status under 300 expected). */
  readonly api: ReturnType<typeof loopbackApi>
  /** A page of its own browser context, light or dark, `width` × `height` px (default 1280 × 900). */
  readonly newPage: (colorScheme?: "light" | "dark", width?: number, height?: number) => Promise<Page>
  /** Signs in through the sign-in form and waits for the *Forms* screen. */
  readonly signIn: (page: Page, email: string, password: string) => Promise<void>
  readonly close: () => Promise<void>
}

/**
 * Starts the setup (call it in `beforeAll`, `close` in `afterAll`).
 *
 * @example
 * ```ts
 * let app: AppInBrowser.AppInBrowser
 * beforeAll(async () => {
 *   app = await AppInBrowser.start({
 *     workspace: "Acme",
 *     owner: { email: "owner@example.com" },
 *     members: [{ email: "vic@example.com", role: "viewer", password: "viewer password 1" }]
 *   })
 * }, 60_000)
 * afterAll(() => app?.close())
 * ```
 */
export const start = async (options: AppInBrowserOptions): Promise<AppInBrowser> => {
  const loopback = await listenFirst()
  const url = loopback.url
  const qforms = await Qforms.make({
    logLevel: "Error",
    ...options.qforms,
    database: {},
    appUrl: url,
    app: true
  })
  const { key, workspaceId } = await qforms.run(
    Effect.gen(function* () {
      const { workspace, ownerAccountId } = yield* (yield* Workspaces).create({
        name: options.workspace,
        ownerEmail: options.owner.email,
        ...(options.owner.name === undefined ? {} : { ownerName: options.owner.name })
      })
      const members = yield* Members
      const sessions = yield* Sessions
      for (const member of options.members ?? []) {
        yield* members.add(workspace.id, {
          email: member.email,
          ...(member.name === undefined ? {} : { name: member.name }),
          role: member.role
        })
        yield* sessions.setPassword(member.email, member.password)
      }
      if (options.owner.password !== undefined) yield* sessions.setPassword(options.owner.email, options.owner.password)
      const key = (yield* (yield* ApiKeys).create(workspace.id, { accountId: ownerAccountId })).key
      return { key, workspaceId: workspace.id }
    })
  )
  loopback.serve(qforms)
  const browser = await launch()
  const problems: Array<string> = []
  return {
    url,
    key,
    workspaceId,
    qforms,
    browser,
    problems,
    api: loopbackApi(() => ({ url, key })),
    newPage: (colorScheme = "light", width = 1280, height = 900) =>
      newPage(browser, { consoleErrors: false, ...options.page, colorScheme, width, height, problems }),
    signIn: async (page, email, password) => {
      await signInAs(page, { url, email, password, labels: { email: "E-mail", password: "Password" } })
      await page.getByRole("heading", { name: "Forms", level: 1 }).waitFor()
    },
    close: async () => {
      await browser.close()
      await loopback.close()
      await qforms.dispose()
    }
  }
}
