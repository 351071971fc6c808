/**
 * The inbox's Summary view in a real browser (Debian's Chromium): a form with
 * a question of every kind, answered through the API and once on the public
 * page (which the funnel counts), shows the totals, the funnel and one chart
 * per question with the figures the API answers (checked in the charts' data
 * tables); a filter changes them; the view's controls are reached with the
 * keyboard; axe-core finds nothing in light and dark, at 360 px (the page
 * never scrolls sideways), and in Arabic, where the bars grow from the right;
 * printing hides the navigation and shows the tables; the Export XLSX link
 * downloads the filtered list. The cases, moved through stages, assigned and
 * noted through the API (their timeline then set to days and hours ago), show
 * in the view's Cases section with the figures of
 * `GET /api/forms/{id}/metrics` (by day and by week, and with a filter), and
 * across all forms on the forms screen with those of `GET /api/metrics`. The
 * member's own digest e-mail is chosen in the view and read back from the API.
 * Screens are saved in
 * `packages/core/test-artifacts/` (`summary-*.png`).
 *
 * Skipped only when Chromium is absent outside CI; with CI=true a missing
 * browser fails the run.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"
import type { Browser, Page } from "playwright-core"
import {
  artifacts,
  launch,
  newPage as openPage,
  overflows,
  present,
  screenshotAndAxe,
  signIn as signInAs
} from "@qforms/test-kit/Browser"
import { waitFor } from "@qforms/test-kit/Conditions"
import { listenFirst, type Loopback, loopbackApi } from "@qforms/test-kit/Loopback"
import { answer, getPage } from "@qforms/test-kit/PublicForms"
import type { TestServer } from "@qforms/test-kit/TestServer"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Sessions } from "../src/identity/Sessions.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import * as Qforms from "../src/Qforms.ts"

const password = "a long enough password"

const fields = [
  { type: "short_text", label: "Your name", required: true },
  {
    type: "select",
    label: "Favourite colour",
    options: { choices: ["Red", "Blue", "Green"], allowOther: true }
  },
  { type: "checkboxes", label: "Topics", options: { choices: ["Sales", "Support", "Billing"] } },
  { type: "yes_no", label: "Would you come again?" },
  { type: "nps", label: "How likely are you to recommend us?" },
  { type: "rating", label: "Stars" },
  { type: "number", label: "How many people came?" },
  {
    type: "matrix",
    label: "Rate our service",
    options: { rows: ["Speed", "Price"], columns: ["Bad", "OK", "Good"] }
  },
  { type: "ranking", label: "Order these", options: { choices: ["Coffee", "Tea", "Juice"] } },
  { type: "date", label: "Day of the visit" },
  { type: "time", label: "Arrival" },
  { type: "long_text", label: "Anything else?" },
  { type: "signature", label: "Signature" }
]

/** The answers given through the API, by question label; `vip` marks the responses tagged for the filter. */
const answers: ReadonlyArray<{ readonly vip: boolean; readonly values: Record<string, unknown> }> = [
  {
    vip: true,
    values: {
      "Your name": "Ada Lovelace",
      "Favourite colour": "Red",
      Topics: ["Sales", "Billing"],
      "Would you come again?": true,
      "How likely are you to recommend us?": 10,
      Stars: 5,
      "How many people came?": 3,
      "Rate our service": { Speed: "Good", Price: "OK" },
      "Order these": ["Coffee", "Tea", "Juice"],
      "Day of the visit": "2026-01-15",
      Arrival: "09:30",
      "Anything else?": "The delivery was late and the delivery box was damaged",
      Signature: { typedName: "Ada Lovelace", consent: true }
    }
  },
  {
    vip: true,
    values: {
      "Your name": "Grace Hopper",
      "Favourite colour": "Red",
      Topics: ["Support"],
      "Would you come again?": true,
      "How likely are you to recommend us?": 9,
      Stars: 4,
      "How many people came?": 7,
      "Rate our service": { Speed: "Good", Price: "Bad" },
      "Order these": ["Tea", "Coffee", "Juice"],
      "Day of the visit": "2026-03-02",
      Arrival: "09:05",
      "Anything else?": "Great delivery, fast!"
    }
  },
  {
    vip: false,
    values: {
      "Your name": "Linus Torvalds",
      "Favourite colour": "Blue",
      Topics: ["Sales"],
      "Would you come again?": false,
      "How likely are you to recommend us?": 6,
      Stars: 2,
      "How many people came?": 5,
      "Rate our service": { Speed: "Bad", Price: "Bad" },
      "Order these": ["Juice", "Coffee", "Tea"],
      "Day of the visit": "2026-03-20",
      Arrival: "17:45",
      "Anything else?": "Slow delivery"
    }
  },
  {
    vip: false,
    values: {
      "Your name": "Margaret Hamilton",
      "Favourite colour": "Purple",
      "Would you come again?": true,
      "How likely are you to recommend us?": 8,
      Stars: 4,
      "How many people came?": 2,
      "Rate our service": { Speed: "OK" },
      "Order these": ["Coffee", "Juice", "Tea"],
      "Day of the visit": "2026-02-11",
      Arrival: "12:15"
    }
  },
  { vip: false, values: { "Your name": "Barbara Liskov", "Favourite colour": "Green", Stars: 3 } }
]

/** The case metrics as the tests read them (`CaseMetricsReport`). */
interface Metrics {
  readonly interval: "day" | "week"
  readonly open: number
  readonly closed: number
  readonly byStage: ReadonlyArray<{ readonly name: string | null; readonly closed: boolean; readonly count: number }>
  readonly byAssignee: ReadonlyArray<{
    readonly accountId: number | null
    readonly name: string | null
    readonly open: number
  }>
  readonly newPerPeriod: ReadonlyArray<{ readonly period: string; readonly count: number }>
  readonly closedPerPeriod: ReadonlyArray<{ readonly period: string; readonly count: number }>
  readonly firstResponse: {
    readonly responded: number
    readonly waiting: number
    readonly medianSeconds: number | null
    readonly p90Seconds: number | null
  }
  readonly timeInStage: ReadonlyArray<{
    readonly name: string
    readonly current: number
    readonly left: number
    readonly medianSeconds: number | null
    readonly p90Seconds: number | null
  }>
}

interface Report {
  readonly totals: { readonly views: number; readonly starts: number; readonly responses: number }
  readonly funnel: ReadonlyArray<{ readonly step: string; readonly count: number; readonly percent: number }>
  readonly questions: ReadonlyArray<{
    readonly label: string
    readonly kind: string
    readonly answered: number
    readonly choices?: ReadonlyArray<{ readonly choice: string; readonly count: number; readonly percent: number }>
    readonly nps?: { readonly score: number } | null
  }>
}

/** An element as the page functions below read it (the tests are typed without the DOM's types). */
interface DomElement {
  readonly tagName: string
  readonly id: string
  readonly className: string | { baseVal: string }
  getBoundingClientRect(): { readonly left: number; readonly right: number; readonly width: number }
}

/** What the application writes for a length of time (`words.js` `formatDuration`), in English. */
const duration = (seconds: number) => {
  const [unit, size] = (
    [
      ["day", 86_400],
      ["hour", 3600],
      ["minute", 60],
      ["second", 1]
    ] as const
  ).find(([, size]) => seconds >= size * 1.5) ?? ["second", 1]
  return new Intl.NumberFormat("en-US", { style: "unit", unit, unitDisplay: "long", maximumFractionDigits: 1 }).format(
    seconds / size
  )
}

/** What the application writes for a day of the metrics (`2026-11-23`: "Nov 23, 2026"), in English. */
const day = (period: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${period}T00:00:00Z`))

/** What the application writes for a share (`50` percent: "50%"), in English. */
const percent = (value: number) =>
  new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 }).format(value / 100)

describe.skipIf(!present)("the inbox's summary view in a browser", () => {
  let browser: Browser
  let qforms: Qforms.Qforms
  let loopback: Loopback | undefined
  let url = ""
  let key = ""
  let formId = 0
  let ids: Record<string, number> = {}
  let ownerId = 0
  const problems: Array<string> = []

  const api = loopbackApi(() => ({ url, key }))
  const summary = async (query = "") => (await api("GET", `/forms/${formId}/summary${query}`)) as Report
  const metrics = async (query = "") => (await api("GET", `/forms/${formId}/metrics${query}`)) as Metrics

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true })
    loopback = await listenFirst()
    url = loopback.url
    qforms = await Qforms.make({
      database: {},
      appUrl: url,
      app: true,
      logLevel: "Error",
      publicPage: { minSubmitSeconds: 0 },
      delivery: { worker: false }
    })
    const seeded = await qforms.run(
      Effect.gen(function* () {
        const { workspace, ownerAccountId } = yield* (yield* Workspaces).create({
          name: "Acme",
          ownerEmail: "olivia@example.com",
          ownerName: "Olivia Owner"
        })
        yield* (yield* Sessions).setPassword("olivia@example.com", password)
        const key = (yield* (yield* ApiKeys).create(workspace.id, { accountId: ownerAccountId })).key
        return { key, ownerId: ownerAccountId }
      })
    )
    key = seeded.key
    ownerId = seeded.ownerId
    loopback.serve(qforms)
    browser = await launch()

    const form = (await api("POST", "/forms", { title: "Visitor survey", fields })) as {
      id: number
      publicId: string
      fields: Array<{ id: number; label: string }>
    }
    formId = form.id
    ids = Object.fromEntries(form.fields.map((field) => [field.label, field.id]))
    await api("PATCH", `/forms/${formId}`, { status: "published" })
    const cases: Array<number> = []
    for (const given of answers) {
      const values = Object.fromEntries(Object.entries(given.values).map(([label, value]) => [ids[label]!, value]))
      const created = (await api("POST", `/forms/${formId}/responses`, { values })) as { id: number }
      if (given.vip) await api("PATCH", `/responses/${created.id}`, { tags: ["vip"] })
      cases.push(created.id)
    }
    // The cases worked through the API: in progress and assigned, closed after half a day in New, noted, assigned;
    // the last one waits. Then each submission and its activities (in order, `step` minutes apart) are set to the
    // past, so that the times to a first response and in a stage are hours, and the cases fall on several days.
    const { stages } = (await api("GET", `/forms/${formId}/stages`)) as {
      stages: Array<{ id: number; name: string; isClosed: boolean }>
    }
    const stage = (name: string) => stages.find((s) => s.name === name)!.id
    await api("PATCH", `/responses/${cases[0]}`, { stageId: stage("In progress"), assigneeId: ownerId })
    await api("PATCH", `/responses/${cases[1]}`, { stageId: stage("New") })
    await api("PATCH", `/responses/${cases[1]}`, { stageId: stage("Done") })
    await api("POST", `/responses/${cases[2]}/notes`, { body: "Called back" })
    await api("PATCH", `/responses/${cases[3]}`, { assigneeId: ownerId })
    const timeline: ReadonlyArray<readonly [days: number, step: number]> = [
      [6, 60],
      [5, 720],
      [3, 240],
      [1, 45],
      [0.1, 1]
    ]
    await qforms.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        for (const [i, [days, step]] of timeline.entries()) {
          const submitted = new Date(Date.now() - days * 86_400_000)
          yield* sql`update responses set submitted_at = ${submitted} where id = ${cases[i]!}`
          const rows = yield* sql<{ id: number }>`
            select id from activities where response_id = ${cases[i]!} and type <> 'created' order by id`
          for (const [n, row] of rows.entries())
            yield* sql`update activities set created_at = ${new Date(submitted.getTime() + (n + 1) * step * 60_000)}
              where id = ${row.id}`
        }
      })
    )
    // The public page: three views, two starts, one response answered through to the end (the funnel and the
    // median time count the page only).
    const server = { url } as TestServer
    const path = `/f/${form.publicId}`
    let page = await getPage(server, path)
    page = await answer(server, form.publicId, page.text, [], "start")
    page = await answer(server, form.publicId, page.text, ["Page Person"])
    for (let i = 1; i < fields.length; i++) page = await answer(server, form.publicId, page.text, [])
    expect(page.status, page.text.slice(0, 500)).toBe(200)
    page = await getPage(server, path)
    await answer(server, form.publicId, page.text, [], "start")
    await getPage(server, path)
    await waitFor(
      async () => {
        const report = await summary()
        return report.totals.views === 3 && report.totals.responses === answers.length + 1 ? report : undefined
      },
      10_000,
      "the page counts"
    )
  }, 90_000)

  afterAll(async () => {
    await browser?.close()
    await loopback?.close()
    await qforms?.dispose()
  })

  const newPage = (options: { colorScheme?: "light" | "dark"; width?: number; locale?: string } = {}) =>
    openPage(browser, { ...options, problems })

  const signIn = (page: Page) => signInAs(page, { url, email: "olivia@example.com", password })

  /** Opens the summary view and waits until its charts, the cases' too, are drawn. */
  const openSummary = async (page: Page) => {
    await page.goto(`${url}/app/forms/${formId}/responses?view=summary`)
    await page.locator(".summary[aria-busy=false] svg[role=img]").first().waitFor()
    await page.locator(".summary-cases[aria-busy=false] svg[role=img]").first().waitFor()
  }

  /** A figure of the view's Cases section (or of the forms screen's panel), by its exact name. */
  const caseFigure = (page: Page, name: string, within = ".summary-cases") =>
    page
      .locator(`${within} .figures div`, {
        has: page.locator("dt", { hasText: new RegExp(`^${name.replace(/[()]/g, "\\$&")}$`) })
      })
      .locator("dd")

  /** Saves a screenshot (the whole page) and runs axe-core in it: no violation. */
  const check = (page: Page, label: string) => screenshotAndAxe(page, `summary-${label}`)

  /** The cells of a chart's data table, row by row (the table is in the document, open or not). */
  const tableOf = (page: Page, chart: string) =>
    page
      .locator(".chart-block", { has: page.getByRole("img", { name: chart, exact: true }) })
      .locator("table tr")
      .evaluateAll((rows) =>
        rows.map((row) =>
          Array.from((row as unknown as { children: ArrayLike<{ textContent: string | null }> }).children).map(
            (cell) => cell.textContent ?? ""
          )
        )
      )

  it("shows the totals, the funnel and a chart per question with the API's figures; keyboard reaches its controls", async () => {
    const report = await summary()
    const page = await newPage()
    await signIn(page)
    await page.goto(`${url}/app/forms/${formId}/responses`)
    // From the Table tab to the Summary tab with the arrow keys, then on into the view's controls.
    await page.getByRole("tab", { name: "Table" }).focus()
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("ArrowRight")
    expect(await page.getByRole("tab", { name: "Summary" }).getAttribute("aria-selected")).toBe("true")
    expect(page.url()).toMatch(/\?view=summary$/)
    await page.locator(".summary[aria-busy=false] svg[role=img]").first().waitFor()
    await page.keyboard.press("Tab")
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document.activeElement
            .textContent
      )
    ).toBe("Print / Save as PDF")
    await page.keyboard.press("Tab")
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document.activeElement
            .textContent
      )
    ).toBe("Download CSV")

    // The totals.
    const figure = (name: string) =>
      page.locator(".summary > .figures div", { has: page.locator("dt", { hasText: name }) }).locator("dd")
    expect(await figure("Views").textContent()).toBe(String(report.totals.views))
    expect(await figure("Starts").textContent()).toBe(String(report.totals.starts))
    expect(await figure("Responses").textContent()).toBe(String(report.totals.responses))
    expect(await figure("Completion rate").textContent()).toBe("50%")
    expect(await figure("Median time to complete").textContent()).toMatch(/\d+ seconds?/)

    // The funnel: a bar per step, its figures in its table.
    const funnel = page.getByRole("img", { name: "Drop-off on the public page", exact: true })
    expect(await funnel.locator("rect[class*=series-]").count()).toBe(report.funnel.length)
    const funnelRows = await tableOf(page, "Drop-off on the public page")
    expect(funnelRows[1]).toEqual(["Viewed", "3", "100%"])
    expect(funnelRows[2]).toEqual(["Started", "2", percent(report.funnel[1]!.percent)])
    expect(funnelRows.at(-1)).toEqual(["Completed", "1", percent(report.funnel.at(-1)!.percent)])

    // A choice question: each choice and Other with the API's count and share, in the table and the summary.
    const colour = report.questions.find((q) => q.label === "Favourite colour")!
    const red = colour.choices!.find((c) => c.choice === "Red")!
    expect(red.count).toBe(2)
    const colourRows = await tableOf(page, "Chart: Favourite colour")
    expect(colourRows).toContainEqual(["Red", String(red.count), percent(red.percent)])
    expect(colourRows.at(-1)?.[0]).toBe("Other")
    // The summary in words: the choices isolated from the sentence around them (U+2068 … U+2069).
    expect(await page.locator(`#summary-q-${ids["Favourite colour"]}-summary`).textContent()).toContain(
      `\u2068Red\u2069: 2 (${percent(red.percent)})`
    )
    // The table opens from its disclosure.
    const details = page.locator(".chart-block", { has: page.getByRole("img", { name: "Chart: Favourite colour" }) })
    await details.getByText("Data table").click()
    expect(
      await details
        .getByRole("cell", { name: percent(red.percent) })
        .first()
        .isVisible()
    ).toBe(true)

    // Every kind drawn: yes/no words, NPS gauge, matrix rows, ranking, dates, texts linking to their cases, files.
    expect(await tableOf(page, "Chart: Would you come again?")).toContainEqual(["Yes", "3", "75%"])
    const nps = report.questions.find((q) => q.kind === "numbers" && q.nps)!
    await page.getByRole("img", { name: `Net Promoter Score of ${nps.label}` }).waitFor()
    expect(await tableOf(page, `Net Promoter Score of ${nps.label}`)).toContainEqual([
      "Net Promoter Score",
      String(nps.nps!.score),
      ""
    ])
    for (const name of [
      "Stars",
      "How many people came?",
      "Rate our service",
      "Order these",
      "Day of the visit",
      "Arrival"
    ])
      await page.getByRole("img", { name: `Chart: ${name}`, exact: true }).waitFor()
    expect(await page.locator("dt", { hasText: "Median" }).count()).toBeGreaterThan(0)
    const latest = page.locator("ul.latest a").first()
    expect(await latest.getAttribute("href")).toMatch(/\/app\/responses\/\d+$/)
    const words = report.questions.find((q) => q.kind === "texts" && q.label === "Anything else?") as unknown as {
      words: ReadonlyArray<{ word: string; count: number }>
    }
    const delivery = words.words.find((w) => w.word === "delivery")!
    expect(await page.locator("ul.words li", { hasText: "delivery" }).textContent()).toBe(
      `delivery ${delivery.count} times`
    )
    const signature = page.locator(`section[data-question="${ids.Signature}"]`)
    expect(await signature.locator("dt").allTextContents()).toEqual(["Drawn", "Typed"])
    expect(await signature.locator("dd").allTextContents()).toEqual(["0", "1"])

    // The print button prints.
    await page.evaluate(() => {
      const g = globalThis as unknown as { print: () => void; printed: boolean }
      g.printed = false
      g.print = () => {
        g.printed = true
      }
    })
    await page.getByRole("button", { name: "Print / Save as PDF" }).click()
    expect(await page.evaluate(() => (globalThis as unknown as { printed: boolean }).printed)).toBe(true)
    await check(page, "light")
    await page.context().close()
    expect(problems).toEqual([])
  }, 120_000)

  it("a filter changes the figures; the CSV and XLSX links carry it", async () => {
    const filtered = await summary("?tag=vip")
    expect(filtered.totals.responses).toBe(2)
    const page = await newPage()
    await signIn(page)
    await openSummary(page)
    await page.locator("#f-tag").selectOption("vip")
    const responses = page.locator(".summary > .figures div", { has: page.locator("dt", { hasText: "Responses" }) })
    await responses.locator("dd", { hasText: /^2$/ }).waitFor()
    await page.locator(".summary[aria-busy=false]").waitFor()
    const red = filtered.questions
      .find((q) => q.label === "Favourite colour")!
      .choices!.find((c) => c.choice === "Red")!
    expect(red.percent).toBe(100)
    expect(await tableOf(page, "Chart: Favourite colour")).toContainEqual(["Red", "2", "100%"])
    // The cases follow the filter too: the two tagged cases, one in progress and one closed.
    const vip = await metrics("?tag=vip")
    expect([vip.open, vip.closed]).toEqual([1, 1])
    await page.locator(".summary-cases[aria-busy=false]").waitFor()
    await caseFigure(page, "Open").filter({ hasText: /^1$/ }).waitFor()
    expect(await caseFigure(page, "Closed").textContent()).toBe(String(vip.closed))
    expect(await tableOf(page, "Open cases by assignee")).toEqual([
      ["Assignee", "Open cases"],
      ["Olivia Owner", "1"]
    ])
    expect(await page.getByRole("link", { name: "Download CSV" }).getAttribute("href")).toBe(
      `/api/forms/${formId}/summary.csv?tag=vip`
    )
    const csv = await page.request.get(`${url}/api/forms/${formId}/summary.csv?tag=vip`)
    expect(await csv.text()).toContain("choice,Favourite colour,Red,2,100")
    // Export XLSX, beside Export CSV, with the same filter.
    const xlsxHref = await page.getByRole("link", { name: "Export XLSX" }).getAttribute("href")
    expect(xlsxHref).toBe(`/api/forms/${formId}/responses.xlsx?tag=vip`)
    expect(await page.getByRole("link", { name: "Export CSV" }).getAttribute("href")).toBe(
      `/api/forms/${formId}/responses.csv?tag=vip`
    )
    const xlsx = await page.request.get(`${url}${xlsxHref}`)
    expect(xlsx.status()).toBe(200)
    expect(xlsx.headers()["content-type"]).toMatch(/spreadsheetml/)
    expect((await xlsx.body()).subarray(0, 2).toString()).toBe("PK")
    await check(page, "filtered")
    await page.context().close()
    expect(problems).toEqual([])
  }, 120_000)

  it("shows how the cases are doing with the API's figures, by day and by week", async () => {
    const report = await metrics()
    // Six cases: one in progress, one closed after a day in New, one noted, one assigned, two waiting.
    expect([report.open, report.closed, report.firstResponse.responded, report.firstResponse.waiting]).toEqual([
      5, 1, 4, 2
    ])
    const page = await newPage()
    await signIn(page)
    await openSummary(page)
    await page.getByRole("heading", { name: "Cases", level: 2 }).waitFor()

    // The figures.
    expect(await caseFigure(page, "Open").textContent()).toBe(String(report.open))
    expect(await caseFigure(page, "Closed").textContent()).toBe(String(report.closed))
    expect(await caseFigure(page, "Waiting for a first response").textContent()).toBe(
      String(report.firstResponse.waiting)
    )
    expect(await caseFigure(page, "First response (median)").textContent()).toBe(
      duration(report.firstResponse.medianSeconds!)
    )
    expect(await caseFigure(page, "First response (90th percentile)").textContent()).toBe(
      duration(report.firstResponse.p90Seconds!)
    )
    expect(report.firstResponse.medianSeconds).toBe(3 * 3600)

    // Every stage with its cases, closed stages marked; a bar each, the closed one in its own colour.
    const stageRows = await tableOf(page, "Cases by stage")
    expect(stageRows).toEqual([
      ["Stage", "Cases"],
      ...report.byStage.map((s) => [
        s.name === null ? "No stage" : s.closed ? `${s.name} (closed)` : s.name,
        String(s.count)
      ])
    ])
    expect(stageRows).toContainEqual(["In progress", "1"])
    expect(stageRows).toContainEqual(["Done (closed)", "1"])
    const stageChart = page.getByRole("img", { name: "Cases by stage", exact: true })
    expect(await stageChart.locator("rect.series-0").count()).toBe(report.byStage.filter((s) => !s.closed).length)
    expect(await stageChart.locator("rect.series-1").count()).toBe(report.byStage.filter((s) => s.closed).length)

    // Open cases by assignee, most first, "Unassigned" for nobody's.
    expect(await tableOf(page, "Open cases by assignee")).toEqual([
      ["Assignee", "Open cases"],
      ...report.byAssignee.map((a) => [a.name ?? "Unassigned", String(a.open)])
    ])
    expect(report.byAssignee).toContainEqual({ accountId: ownerId, name: "Olivia Owner", open: 2 })
    expect(await page.locator("#cases-assignees-summary").textContent()).toContain(
      "\u2068Olivia Owner\u2069: 2 open cases"
    )

    // New and closed per day over the last 30 days: two columns a day, the same counts in the table.
    const perDay = page.getByRole("img", { name: "New and closed cases per day", exact: true })
    expect(await perDay.locator("rect[class*=series-]").count()).toBe(2 * report.newPerPeriod.length)
    const closedOn = new Map(report.closedPerPeriod.map((p) => [p.period, p.count]))
    expect(await tableOf(page, "New and closed cases per day")).toEqual([
      ["Day", "New", "Closed"],
      ...report.newPerPeriod.map((p) => [day(p.period), String(p.count), String(closedOn.get(p.period) ?? 0)])
    ])
    expect(report.newPerPeriod.reduce((sum, p) => sum + p.count, 0)).toBe(6)
    expect(await page.locator("#cases-periods-summary").textContent()).toMatch(/6 new cases, 1 case closed\.$/)

    await page.locator(".summary-cases").screenshot({ path: join(artifacts, "summary-cases-section.png") })

    // By week: the switch fetches the weekly series.
    await page.getByRole("radio", { name: "week" }).check()
    const weekly = await metrics("?interval=week")
    await page.getByRole("img", { name: "New and closed cases per week", exact: true }).waitFor()
    const weekClosed = new Map(weekly.closedPerPeriod.map((p) => [p.period, p.count]))
    expect(await tableOf(page, "New and closed cases per week")).toEqual([
      ["Week from", "New", "Closed"],
      ...weekly.newPerPeriod.map((p) => [day(p.period), String(p.count), String(weekClosed.get(p.period) ?? 0)])
    ])
    expect(await page.getByRole("radio", { name: "week" }).isChecked()).toBe(true)

    // Time in each stage: the median drawn, the 90th percentile in the table; half a day in New.
    const inNew = report.timeInStage.find((s) => s.name === "New")!
    expect([inNew.current, inNew.left, inNew.medianSeconds]).toEqual([0, 1, 12 * 3600])
    const timeRows = await tableOf(page, "Time in each stage")
    expect(timeRows[0]).toEqual(["Stage", "Median", "90th percentile", "In the stage now", "Moved on"])
    expect(timeRows).toContainEqual(["New", duration(inNew.medianSeconds!), duration(inNew.p90Seconds!), "0", "1"])
    expect(timeRows).toContainEqual(["In progress", "no case moved on", "no case moved on", "1", "0"])

    await check(page, "cases")
    await page.context().close()
    expect(problems).toEqual([])
  }, 120_000)

  it("shows the cases across all forms on the forms screen with the figures of GET /api/metrics", async () => {
    const all = (await api("GET", "/metrics")) as Metrics
    for (const colorScheme of ["light", "dark"] as const) {
      for (const width of [1280, 360]) {
        const page = await newPage({ colorScheme, width })
        await signIn(page)
        await page.locator(".cases-panel[aria-busy=false] .figures").waitFor()
        await page.getByRole("heading", { name: "Cases across all forms", level: 2 }).waitFor()
        expect(await caseFigure(page, "Open", ".cases-panel").textContent()).toBe(String(all.open))
        expect(await caseFigure(page, "Closed", ".cases-panel").textContent()).toBe(String(all.closed))
        expect(await caseFigure(page, "Waiting for a first response", ".cases-panel").textContent()).toBe(
          String(all.firstResponse.waiting)
        )
        expect(await caseFigure(page, "First response (median)", ".cases-panel").textContent()).toBe(
          duration(all.firstResponse.medianSeconds!)
        )
        expect(await tableOf(page, "Open cases by assignee")).toEqual([
          ["Assignee", "Open cases"],
          ...all.byAssignee.map((a) => [a.name ?? "Unassigned", String(a.open)])
        ])
        expect(await overflows(page), `the forms screen at ${width} px (${colorScheme}) overflows`).toEqual([])
        if (width === 1280 && colorScheme === "light")
          await page.locator(".cases-panel").screenshot({ path: join(artifacts, "summary-forms-cases.png") })
        await check(page, `forms-${width}-${colorScheme}`)
        await page.context().close()
      }
    }
    expect(problems).toEqual([])
  }, 120_000)

  it("chooses the member's own digest e-mail: weekly at 09:00 of the browser's time zone, as the API then says", async () => {
    const page = await newPage()
    await signIn(page)
    await openSummary(page)
    const digest = page.getByRole("region", { name: "Digest e-mail" })
    expect(await digest.getByLabel("How often", { exact: true }).inputValue()).toBe("off")
    await digest.getByLabel("How often", { exact: true }).selectOption("weekly")
    await digest.getByLabel("At", { exact: true }).selectOption("9")
    await digest.getByRole("button", { name: "Save", exact: true }).click()
    await digest.getByRole("status").filter({ hasText: "Saved. The next digest comes" }).waitFor()
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)
    const chosen = (await api("GET", `/forms/${formId}/digest`)) as {
      frequency: string
      hour: number
      timeZone: string
      nextAt: string
    }
    expect(chosen).toMatchObject({ frequency: "weekly", hour: 9, timeZone: zone, mailConfigured: false })
    expect(new Date(chosen.nextAt).getUTCDay() === 1 || zone !== "UTC").toBe(true)
    // This server sends no e-mail: it says so, and nothing can be sent now.
    expect(await digest.textContent()).toContain("This server sends no e-mail")
    expect(await digest.getByRole("button", { name: "Send me one now" }).isDisabled()).toBe(true)
    // The choice is there when the view opens again; off stops it.
    await page.reload()
    await openSummary(page)
    expect(await digest.getByLabel("How often", { exact: true }).inputValue()).toBe("weekly")
    expect(await digest.getByLabel("At", { exact: true }).inputValue()).toBe("9")
    await digest.getByLabel("How often", { exact: true }).selectOption("off")
    expect(await digest.getByLabel("At", { exact: true }).isDisabled()).toBe(true)
    await digest.getByRole("button", { name: "Save", exact: true }).click()
    await digest.getByRole("status").filter({ hasText: "No more digests of this form." }).waitFor()
    expect(await api("GET", `/forms/${formId}/digest`)).toMatchObject({ frequency: "off", nextAt: null })
    await check(page, "digest")
    await page.context().close()
    expect(problems).toEqual([])
  }, 120_000)

  it("passes axe in dark mode and fits a 360 px phone, light and dark", async () => {
    const dark = await newPage({ colorScheme: "dark" })
    await signIn(dark)
    await openSummary(dark)
    await check(dark, "dark")
    await dark.context().close()
    for (const colorScheme of ["light", "dark"] as const) {
      const phone = await newPage({ colorScheme, width: 360 })
      await signIn(phone)
      await openSummary(phone)
      expect(await overflows(phone), `360 px (${colorScheme}) overflows`).toEqual([])
      await check(phone, `360-${colorScheme}`)
      await phone.context().close()
    }
    expect(problems).toEqual([])
  }, 120_000)

  it("prints as a report: no navigation, filters or buttons; every chart and its table shown", async () => {
    const page = await newPage()
    await signIn(page)
    await openSummary(page)
    await page.emulateMedia({ media: "print" })
    for (const hidden of ["header.top", ".filters", "[role=tablist]", ".summary .no-print", "main .spread .no-print"])
      expect(await page.locator(hidden).first().isVisible(), `${hidden} in print`).toBe(false)
    expect(await page.locator("main h1").isVisible()).toBe(true)
    expect(await page.getByRole("img", { name: "Chart: Favourite colour" }).isVisible()).toBe(true)
    // The data tables print open.
    const cell = page
      .locator(".chart-block", { has: page.getByRole("img", { name: "Chart: Favourite colour" }) })
      .getByRole("cell")
      .first()
    expect(await cell.isVisible()).toBe(true)
    // The cases too, without their interval switch.
    expect(await page.locator("fieldset.interval").isVisible(), "the interval switch in print").toBe(false)
    expect(await page.getByRole("img", { name: "Cases by stage" }).isVisible()).toBe(true)
    expect(
      await page
        .locator(".chart-block", { has: page.getByRole("img", { name: "Cases by stage" }) })
        .getByRole("cell")
        .first()
        .isVisible()
    ).toBe(true)
    // No question is cut across pages.
    expect(
      await page
        .locator(".summary-part")
        .first()
        .evaluate(
          (el) =>
            (globalThis as unknown as { getComputedStyle: (e: unknown) => { breakInside: string } }).getComputedStyle(
              el
            ).breakInside
        )
    ).toBe("avoid")
    await page.screenshot({ path: join(artifacts, "summary-print.png"), fullPage: true })
    await page.pdf({ path: join(artifacts, "summary-print.pdf") })
    await page.context().close()
  }, 120_000)

  it("reads right to left in Arabic: bars grow from the right; passes axe at 360 px", async () => {
    const page = await newPage()
    await signIn(page)
    await page.goto(`${url}/app/account`)
    await page.locator("#app-language").selectOption("ar")
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { documentElement: { dir: string } } }).document.documentElement.dir ===
        "rtl"
    )
    await page.context().close()
    for (const colorScheme of ["light", "dark"] as const) {
      const phone = await newPage({ colorScheme, width: 360 })
      await signIn(phone)
      expect(await phone.getAttribute("html", "dir")).toBe("rtl")
      await openSummary(phone)
      // The funnel's first bar (the views, the longest) ends at the chart's right edge and reaches left.
      const edges = await phone.locator("#summary-funnel-summary").evaluate((caption) => {
        const figure = (caption as unknown as { parentElement: { querySelector: (s: string) => DomElement } })
          .parentElement
        const svg = figure.querySelector("svg").getBoundingClientRect()
        const bar = figure.querySelector("rect[class*=series-]").getBoundingClientRect()
        return { svgRight: svg.right, barRight: bar.right, barLeft: bar.left, svgLeft: svg.left }
      })
      expect(Math.abs(edges.svgRight - edges.barRight)).toBeLessThan(1)
      expect(edges.barLeft - edges.svgLeft).toBeGreaterThan(0)
      // The cases' days run from the right: the first day's columns are right of the last day's.
      const days = await phone.locator("#cases-periods-summary").evaluate((caption) => {
        const figure = (
          caption as unknown as { parentElement: { querySelectorAll: (s: string) => ArrayLike<DomElement> } }
        ).parentElement
        const rects = Array.from(figure.querySelectorAll("rect[class*=series-]"))
        return { first: rects[0]!.getBoundingClientRect().left, last: rects.at(-1)!.getBoundingClientRect().left }
      })
      expect(days.first).toBeGreaterThan(days.last)
      expect(await phone.getByRole("heading", { name: "الطلبات", level: 2 }).count()).toBe(1)
      expect(await overflows(phone), `Arabic at 360 px (${colorScheme}) overflows`).toEqual([])
      await check(phone, `ar-360-${colorScheme}`)
      await phone.context().close()
    }
    expect(problems).toEqual([])
  }, 120_000)
})
