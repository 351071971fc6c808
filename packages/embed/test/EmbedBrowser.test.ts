/**
 * The embed kit in Chromium (Debian's /usr/bin/chromium through playwright-core), on a host page of another
 * origin: qforms on http://127.0.0.1:<port>, the host on http://localhost:<port>, and a third origin
 * (http://127.0.0.1:<host port>) for messages that must be ignored. The host loads qforms' own `/embed.js`, as a
 * page without a bundler does. Each mode is driven with the keyboard where a respondent would: inline (the frame's
 * height follows the screens), popup (focus stays in the dialog, Escape closes it, `closed`), slider, the floating
 * button and the Web Component (hidden fields, pre-fill, language, dark theme); `submitted` carries the id of the
 * response the API then shows; axe finds nothing on the host page or in the form's frame.
 *
 * Skipped only when Chromium is absent outside CI; with CI=true a missing browser fails the run.
 */
import type { AddressInfo } from "node:net"
import type { Browser, BrowserContext, Frame, Page } from "playwright-core"
import { artifact, axeSource, launch, present } from "@qforms/test-kit/Browser"
import { waitFor } from "@qforms/test-kit/Conditions"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { testHttpServer } from "@qforms/test-kit/Loopback"
import { api, type createForm, listResponses, seedWorkspace } from "@qforms/test-kit/PublicForms"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { formUrl, isPageMessage } from "../src/index.js"

/** What the host page records: the embed's events, the origin of every message its window received, and the type of each the form's origin posted. */
interface Recorded {
  readonly name: string
  readonly detail: {
    readonly form: string
    readonly screen?: string
    readonly question?: string
    readonly step?: number
    readonly steps?: number
    readonly responseId?: number
  }
}
declare global {
  interface Window {
    qfEvents: Array<Recorded>
    qfRaw: Array<string>
    qfPosted: Array<unknown>
    qfHellos: Array<string>
    qfChannel: string
    qfReceived: Array<unknown>
  }
}

describe("the embed protocol", () => {
  const options = { form: "kx81mq", host: "https://forms.example.com/forms-service" }

  it("puts hidden fields, pre-fill and language in the page's query, the mode and theme in its fragment", () => {
    const url = formUrl(
      {
        ...options,
        hidden: { ref: "news letter" },
        prefill: { 12: "Ada", 14: ["Mail", "Phone"], "7.email": "ada@example.com" },
        language: "de",
        theme: "dark"
      },
      "popup"
    )
    expect(url.origin).toBe("https://forms.example.com")
    expect(url.pathname).toBe("/forms-service/f/kx81mq")
    expect([...url.searchParams]).toEqual([
      ["ref", "news letter"],
      ["prefill.12", "Ada"],
      ["prefill.14", "Mail"],
      ["prefill.14", "Phone"],
      ["prefill.7.email", "ada@example.com"],
      ["lang", "de"]
    ])
    expect(url.hash).toBe("#qf-embed=popup&qf-theme=dark")
    expect(formUrl({ ...options, host: "https://forms.example.com/" }, "inline").href).toBe(
      "https://forms.example.com/f/kx81mq#qf-embed=inline"
    )
    // A public id is one path segment, whatever it holds.
    expect(formUrl({ ...options, form: "../api/forms" }, "inline").pathname).toBe("/forms-service/f/..%2Fapi%2Fforms")
    expect(() => formUrl({ ...options, form: "" }, "inline")).toThrow(/form/)
  })

  it("takes a message only from its frame's window, from the form's origin, with its channel", () => {
    const frame = {}
    const expected = { source: frame, origin: "https://forms.example.com", channel: "c".repeat(32) }
    const good = { qforms: "submitted", channel: expected.channel, responseId: 7 }
    const event = (over: { source?: unknown; origin?: string; data?: unknown }) =>
      ({ source: frame, origin: expected.origin, data: good, ...over }) as unknown as MessageEvent
    expect(isPageMessage(event({}), expected)).toBe(true)
    expect(isPageMessage(event({ origin: "https://evil.example" }), expected)).toBe(false)
    expect(isPageMessage(event({ origin: "https://forms.example.com:444" }), expected)).toBe(false)
    expect(isPageMessage(event({ source: {} }), expected)).toBe(false)
    expect(isPageMessage(event({ source: null }), { ...expected, source: null })).toBe(false)
    expect(isPageMessage(event({ data: { ...good, channel: "d".repeat(32) } }), expected)).toBe(false)
    expect(isPageMessage(event({ data: { channel: expected.channel } }), expected)).toBe(false)
    expect(isPageMessage(event({ data: "submitted" }), expected)).toBe(false)
    expect(isPageMessage(event({ data: null }), expected)).toBe(false)
  })
})

const choices = Array.from({ length: 14 }, (_, i) => `Topic ${i + 1}`)

describe.skipIf(!present)("the embed kit in Chromium", () => {
  let server: TestServer
  let key: string
  let form: Awaited<ReturnType<typeof createForm>>
  /** A form that no longer takes responses: its page is a message screen. */
  let closedForm: { readonly publicId: string }
  let browser: Browser
  let host: ReturnType<typeof testHttpServer>
  let hostPort = 0

  /** The host page of a mode: qforms' `/embed.js` imported by a module script, every event recorded. */
  const hostPage = (mode: string): string => {
    const publicId = mode === "closed" ? closedForm.publicId : form.publicId
    const options = `{ form: ${JSON.stringify(publicId)}, hidden: { ref: "host-${mode}" }, title: "Embedded form",
      onReady: record("ready"), onPageChanged: record("page-changed"), onSubmitted: record("submitted"), onClosed: record("closed") }`
    const code: Record<string, string> = {
      inline: `window.form = embed.inline("#slot", ${options})`,
      closed: `window.form = embed.inline("#slot", ${options})`,
      popup: `const p = embed.popup(${options}); document.getElementById("open").addEventListener("click", () => p.open())`,
      slider: `const p = embed.slider(${options}); document.getElementById("open").addEventListener("click", () => p.open())`,
      button: `embed.button({ ...${options}, text: "Feedback" })`,
      component: `for (const name of ["ready", "page-changed", "submitted", "closed"])
        document.querySelector("qforms-form").addEventListener(name, (e) => record(name)(e.detail))`
    }
    const field = form.fields[0]!.id
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Host page (${mode})</title></head>
<body><main><h1>A host page</h1><p>The form is embedded below.</p>
${mode === "popup" || mode === "slider" ? `<button id="open" type="button">Open the survey</button>` : ""}
${mode === "component" ? `<qforms-form public-id="${form.publicId}" host="${server.url}/" hidden-fields="ref=component" prefill="${field}=Ada%20Lovelace" language="de" theme="dark" title="Embedded form"></qforms-form>` : `<div id="slot"></div>`}
${mode === "inline" ? `<iframe id="foreign" title="Another site" src="http://127.0.0.1:${hostPort}/foreign"></iframe>` : ""}
</main>
<script type="module">
window.qfEvents = []
window.qfRaw = []
window.qfPosted = []
const record = (name) => (detail) => window.qfEvents.push({ name, detail })
const embed = await import(${JSON.stringify(`${server.url}/embed.js`)})
${code[mode]}
addEventListener("message", (event) => {
  window.qfRaw.push(event.origin)
  if (event.origin === ${JSON.stringify(server.url)}) window.qfPosted.push(event.data?.qforms)
})
</script></body></html>`
  }

  beforeAll(async () => {
    server = await startTestServer(databaseTargets[0]!, { publicPage: { minSubmitSeconds: 0 } })
    key = (await seedWorkspace(server)).key
    const created = await api(server, key, "POST", "/forms", {
      title: "Embedded survey",
      description: "Three questions.",
      hiddenFields: [{ name: "ref" }],
      fields: [
        { type: "short_text", label: "Your name", required: true },
        { type: "checkboxes", label: "Topics", options: { choices } },
        { type: "long_text", label: "Anything else?" }
      ]
    })
    expect(created.status).toBe(201)
    expect((await api(server, key, "PATCH", `/forms/${created.body.id}`, { status: "published" })).status).toBe(200)
    const german = await api(server, key, "PUT", `/forms/${created.body.id}/translations/de`, {
      title: "Eingebettete Umfrage",
      status: "ready"
    })
    expect(german.status, german.text).toBe(200)
    form = (await api(server, key, "GET", `/forms/${created.body.id}`)).body
    const other = await api(server, key, "POST", "/forms", {
      title: "A closed survey",
      fields: [{ type: "short_text", label: "Your name" }],
      settings: { closedMessage: "This survey has ended." }
    })
    expect(other.status, other.text).toBe(201)
    expect((await api(server, key, "PATCH", `/forms/${other.body.id}`, { status: "closed" })).status).toBe(200)
    closedForm = other.body
    host = testHttpServer((request, response) => {
      const path = new URL(request.url ?? "/", "http://host").pathname
      response.setHeader("content-type", "text/html; charset=utf-8")
      if (path === "/foreign") {
        // Another site's frame on the host page: it records what reaches it.
        response.end(`<!doctype html><html lang="en"><head><title>Another site</title></head><body><p>Elsewhere</p>
<script>window.qfReceived = []; addEventListener("message", (e) => window.qfReceived.push(e.data))</script></body></html>`)
        return
      }
      response.end(hostPage(path.slice(1)))
    })
    await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve))
    hostPort = (host.address() as AddressInfo).port
    browser = await launch()
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise<void>((resolve) => {
      if (!host) return resolve()
      host.close(() => resolve())
      host.closeAllConnections()
    })
    await server?.close()
  })

  /** A host page of `mode` on http://localhost, in a context of its own that records each hello a qforms frame gets. */
  const open = async (mode: string, colorScheme: "light" | "dark" = "light") => {
    const problems: Array<string> = []
    const context: BrowserContext = await browser.newContext({ colorScheme, viewport: { width: 1280, height: 900 } })
    // Runs in every frame before its own scripts: the qforms page's frame notes each hello it receives.
    await context.addInitScript(() => {
      window.qfHellos = []
      addEventListener("message", (event) => {
        if (event.data?.qforms !== "hello") return
        window.qfHellos.push(event.origin)
        window.qfChannel ??= event.data.channel
      })
    })
    const page = await context.newPage()
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`))
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) problems.push(message.text())
    })
    await page.goto(`http://localhost:${hostPort}/${mode}`)
    return { page, problems }
  }

  /** The events the host page recorded. */
  const events = (page: Page) => page.evaluate(() => window.qfEvents)
  /** Waits until the host page has recorded an event matching `test`, and answers it. */
  const event = (page: Page, test: (e: Recorded) => boolean, what: string) =>
    waitFor(async () => (await events(page)).find(test), 15_000, what)
  /** The qforms frame (the form's page), once loaded. */
  const qformsFrame = (page: Page): Promise<Frame> =>
    waitFor(() => page.frames().find((f) => f.url().startsWith(`${server.url}/f/`)), 15_000, "the form's frame")

  /** axe on the host page (its frames left out) and inside the form's frame: no violation. */
  const axe = async (page: Page, name: string, inFrame = true) => {
    await page.screenshot({ path: artifact(`embed-${name}.png`) })
    const run = async (target: Page | Frame) => {
      await target.evaluate(axeSource)
      return target.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: {
              run: (
                context: unknown,
                options: unknown
              ) => Promise<{
                violations: ReadonlyArray<{ id: string; help: string; nodes: ReadonlyArray<{ html: string }> }>
              }>
            }
          }
        ).axe
        const result = await axe.run(document, { iframes: false })
        return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.html).join(" | ")})`)
      })
    }
    expect(await run(page), `axe on the host page (${name})`).toEqual([])
    if (inFrame) expect(await run(await qformsFrame(page)), `axe in the form's frame (${name})`).toEqual([])
  }

  /** The frame element's height on the host page, and the height of its content inside. */
  const heights = async (page: Page, frame: Frame) => ({
    frame: await page.$eval("iframe.qforms-frame", (el) => el.getBoundingClientRect().height),
    content: await frame.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height))
  })
  /** Waits until the frame is as tall as its content (the resize has arrived and applied), and answers the height. */
  const fitted = (page: Page, frame: Frame, what: string) =>
    waitFor(
      async () => {
        const h = await heights(page, frame)
        return Math.abs(h.frame - h.content) <= 1 && h.frame
      },
      15_000,
      what
    )

  /** Answers the form inside the frame with the keyboard: Start, a name, a topic, nothing more, Submit. */
  const answer = async (page: Page, frame: Frame, name: string | undefined) => {
    const inside = page.frameLocator("iframe.qforms-frame")
    await inside.locator("button.ok").focus()
    await page.keyboard.press("Enter")
    await inside.locator("#question").filter({ hasText: "Your name" }).waitFor()
    if (name !== undefined) {
      await inside.locator("#a").focus()
      await page.keyboard.type(name)
    }
    await page.keyboard.press("Enter")
    await inside.locator("legend, #question").filter({ hasText: "Topics" }).first().waitFor()
    await inside.locator("input[value='Topic 3']").focus()
    await page.keyboard.press("Space")
    await inside.locator("button.ok").focus()
    await page.keyboard.press("Enter")
    await inside.locator("#question").filter({ hasText: "Anything else?" }).waitFor()
    await inside.locator("button.ok").focus()
    await page.keyboard.press("Enter")
    return frame
  }

  /** The response `submitted` named, as the API shows it. */
  const stored = async (responseId: number) =>
    waitFor(
      async () => (await listResponses(server, key, form.id)).find((r) => r.id === responseId),
      10_000,
      "response"
    )

  it("inline: the frame follows its content's height, the events arrive, `submitted` names the stored response", async () => {
    const { page, problems } = await open("inline")
    const ready = await event(page, (e) => e.name === "ready", "ready")
    expect(ready.detail).toEqual({ form: form.publicId, screen: "welcome" })
    const frame = await qformsFrame(page)
    // The frame's page knows it is embedded inline, and the hello came from the host's origin.
    expect(await frame.evaluate(() => document.documentElement.dataset.embed)).toBe("inline")
    expect(await frame.evaluate(() => window.qfHellos)).toEqual([`http://localhost:${hostPort}`])
    const welcome = await fitted(page, frame, "the welcome screen's height")
    await axe(page, "inline-welcome")

    const inside = page.frameLocator("iframe.qforms-frame")
    await inside.locator("button.ok").focus()
    await page.keyboard.press("Enter")
    await event(page, (e) => e.name === "page-changed" && e.detail.screen === "question", "page-changed")
    const first = (await events(page)).find((e) => e.name === "page-changed")!
    expect(first.detail).toEqual({
      form: form.publicId,
      screen: "question",
      question: String(form.fields[0]!.id),
      step: 1,
      steps: 3
    })
    await inside.locator("#a").focus()
    await page.keyboard.type("Grace Hopper")
    await page.keyboard.press("Enter")
    await event(page, (e) => e.detail.question === String(form.fields[1]!.id), "the topics screen")
    // Fourteen choices: far taller than the welcome screen, and the frame grows to show them all without scrolling.
    const tall = await fitted(page, frame, "the topics screen's height")
    expect(tall).toBeGreaterThan(welcome + 300)
    expect(await frame.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1)).toBe(true)
    await axe(page, "inline-topics")
    await inside.locator("input[value='Topic 3']").focus()
    await page.keyboard.press("Space")
    await inside.locator("button.ok").focus()
    await page.keyboard.press("Enter")
    await inside.locator("#question").filter({ hasText: "Anything else?" }).waitFor()
    // …and shrinks back for a short screen.
    const short = await fitted(page, frame, "the last screen's height")
    expect(short).toBeLessThan(tall - 300)
    await inside.locator("button.ok").focus()
    await page.keyboard.press("Enter")

    const submitted = await event(page, (e) => e.name === "submitted", "submitted")
    const responseId = submitted.detail.responseId!
    expect(Number.isInteger(responseId)).toBe(true)
    expect(
      (await events(page)).some(
        (e) => e.name === "page-changed" && e.detail.screen === "thanks" && e.detail.responseId === responseId
      )
    ).toBe(true)
    const response = await stored(responseId)
    expect(response.values).toMatchObject({ "hidden:ref": "host-inline" })
    expect(response.source).toBe("form")
    await fitted(page, frame, "the thank-you screen's height")
    await axe(page, "inline-thanks")
    expect(problems).toEqual([])
    await page.context().close()
  })

  it("inline, full-page post: when the page's fetch fails and it posts the form itself, the thank-you document still answers the embed", async () => {
    const { page, problems } = await open("inline")
    await event(page, (e) => e.name === "ready", "ready")
    const frame = await qformsFrame(page)
    const inside = page.frameLocator("iframe.qforms-frame")
    // The page's script sends each step with fetch (marked `x-qforms-page`) and, when that fails, posts the form
    // itself: the last step's fetch is cut, as a dropped connection would, so the answer is a whole new document.
    let cut = 0
    let armed = false
    await page.context().route(
      (url) => url.href.startsWith(`${server.url}/f/`),
      (route) => {
        if (armed && route.request().method() === "POST" && route.request().headers()["x-qforms-page"] === "1") {
          cut += 1
          return route.abort("connectionreset")
        }
        return route.continue()
      }
    )
    await inside.locator("button.ok").focus()
    await page.keyboard.press("Enter")
    await inside.locator("#question").filter({ hasText: "Your name" }).waitFor()
    await inside.locator("#a").focus()
    await page.keyboard.type("Katherine Johnson")
    await page.keyboard.press("Enter")
    await inside.locator("legend, #question").filter({ hasText: "Topics" }).first().waitFor()
    await inside.locator("input[value='Topic 5']").focus()
    await page.keyboard.press("Space")
    await inside.locator("button.ok").focus()
    await page.keyboard.press("Enter")
    await inside.locator("#question").filter({ hasText: "Anything else?" }).waitFor()
    const last = await fitted(page, frame, "the last screen's height")
    // A mark in the document of the fetch path: the thank-you screen must come in a document without it.
    await frame.evaluate(() => {
      document.documentElement.dataset.before = "1"
    })
    armed = true
    await inside.locator("button.ok").focus()
    await page.keyboard.press("Enter")

    const submitted = await event(page, (e) => e.name === "submitted", "submitted after the full-page post")
    expect(cut).toBe(1)
    const responseId = submitted.detail.responseId!
    expect(Number.isInteger(responseId)).toBe(true)
    const response = await stored(responseId)
    expect(response.values).toMatchObject({
      "hidden:ref": "host-inline",
      [String(form.fields[0]!.id)]: "Katherine Johnson"
    })
    // A new document, still embedded inline (the marker came through the post), greeted by the embed once.
    const thanks = await qformsFrame(page)
    await inside.locator("[data-response]").waitFor()
    expect(await thanks.evaluate(() => document.documentElement.dataset.before)).toBeUndefined()
    expect(new URL(thanks.url()).hash).toBe("#qf-embed=inline")
    expect(await thanks.evaluate(() => document.documentElement.dataset.embed)).toBe("inline")
    expect(await thanks.evaluate(() => window.qfHellos)).toEqual([`http://localhost:${hostPort}`])
    // The host hears of the thank-you screen as a change of screen, and the frame fits it.
    await event(
      page,
      (e) => e.name === "page-changed" && e.detail.screen === "thanks" && e.detail.responseId === responseId,
      "page-changed to thanks"
    )
    const fit = await fitted(page, thanks, "the thank-you screen's height")
    expect(fit).not.toBe(last)
    await axe(page, "inline-thanks-full-post")
    // Greeted again (the host's window, with the embed's channel), the thank-you document answers with its screen
    // but does not tell `submitted` a second time.
    const channel = await thanks.evaluate(() => window.qfChannel)
    await page.evaluate(
      ({ channel, origin }) =>
        document
          .querySelector<HTMLIFrameElement>("iframe.qforms-frame")
          ?.contentWindow?.postMessage({ qforms: "hello", channel }, origin),
      { channel, origin: server.url }
    )
    await waitFor(
      async () =>
        (await events(page)).filter((e) => e.name === "page-changed" && e.detail.screen === "thanks").length === 2,
      10_000,
      "the thank-you screen's answer to a second hello"
    )
    // Exactly one `submitted` posted by the page and passed on by the embed, and one `ready` (the first document's).
    expect((await page.evaluate(() => window.qfPosted)).filter((type) => type === "submitted")).toHaveLength(1)
    const all = await events(page)
    expect(all.filter((e) => e.name === "submitted")).toEqual([
      { name: "submitted", detail: { form: form.publicId, responseId } }
    ])
    expect(all.filter((e) => e.name === "ready")).toHaveLength(1)
    expect(problems).toEqual([])
    await page.context().close()
  })

  it("inline, a closed form: its message screen answers the embed too (`ready`, the frame's height)", async () => {
    const { page, problems } = await open("closed")
    const ready = await event(page, (e) => e.name === "ready", "ready")
    expect(ready.detail).toEqual({ form: closedForm.publicId, screen: "message" })
    const frame = await waitFor(
      () => page.frames().find((f) => f.url().startsWith(`${server.url}/f/${closedForm.publicId}`)),
      15_000,
      "the closed form's frame"
    )
    expect(await frame.evaluate(() => document.body.textContent)).toContain("This survey has ended.")
    await fitted(page, frame, "the message screen's height")
    await axe(page, "inline-closed")
    expect(problems).toEqual([])
    await page.context().close()
  })

  it("inline: messages from another origin, or from the host's own window, are ignored both ways", async () => {
    const { page, problems } = await open("inline")
    await event(page, (e) => e.name === "ready", "ready")
    const frame = await qformsFrame(page)
    const foreign = await waitFor(
      () => page.frames().find((f) => f.name() === "" && f.url().endsWith("/foreign")),
      10_000,
      "foreign frame"
    )
    // The channel the host gave the form's page (read through the test's own recorder): the forged messages carry
    // it, so only the origin and source checks stand between them and the host's events.
    const channel = await frame.evaluate(() => window.qfChannel)
    expect(channel).toMatch(/^[0-9a-f]{32}$/)
    const forged = { qforms: "submitted", channel, responseId: 424242 }
    // Another site's frame posts a well-formed message; so does the host page to itself.
    await foreign.evaluate((data) => window.parent.postMessage(data, "*"), forged)
    await page.evaluate((data) => window.postMessage(data, "*"), forged)
    await waitFor(
      async () => {
        const raw = await page.evaluate(() => window.qfRaw)
        return raw.includes(`http://127.0.0.1:${hostPort}`) && raw.includes(`http://localhost:${hostPort}`)
      },
      10_000,
      "the forged messages to reach the host window"
    )
    expect((await events(page)).filter((e) => e.name === "submitted")).toEqual([])
    // Another site's frame greets the form's page: it is not the page's parent, so the page never answers it…
    await foreign.evaluate(() => {
      for (let i = 0; i < window.parent.frames.length; i++) {
        const target = window.parent.frames[i]
        if (target !== window) target?.postMessage({ qforms: "hello", channel: "f".repeat(32) }, "*")
      }
    })
    await waitFor(async () => (await frame.evaluate(() => window.qfHellos.length)) === 2, 10_000, "the forged hello")
    // …and keeps talking to the host only.
    await page.frameLocator("iframe.qforms-frame").locator("button.ok").focus()
    await page.keyboard.press("Enter")
    await event(page, (e) => e.name === "page-changed", "page-changed after the forged hello")
    expect(await foreign.evaluate(() => window.qfReceived)).toEqual([])
    expect(problems).toEqual([])
    await page.context().close()
  })

  it("popup: a modal dialog that keeps focus, closes on Escape (inside the form too) and says `closed`", async () => {
    const { page, problems } = await open("popup")
    await page.getByRole("button", { name: "Open the survey" }).focus()
    await page.keyboard.press("Enter")
    await event(page, (e) => e.name === "ready", "ready")
    const dialog = page.locator("dialog.qforms-popup")
    expect(await dialog.evaluate((d: HTMLDialogElement) => d.open)).toBe(true)
    const frame = await qformsFrame(page)
    expect(await frame.evaluate(() => document.documentElement.dataset.embed)).toBe("popup")
    await fitted(page, frame, "the popup's height")
    await axe(page, "popup")
    // Focus stays in the dialog, however often Tab is pressed, and goes round it (the close button comes back).
    // Moving focus out of the form's frame crosses processes: between the key and its arrival the host page's
    // document has no focused element, so each press waits for focus to settle before looking where it is.
    const settled = () =>
      page.evaluate(() => {
        const active = document.activeElement
        if (active === null || active === document.body) return "none"
        if (active.closest("dialog") === null) return "outside"
        return active.classList.contains("qforms-close") ? "close" : "dialog"
      })
    const seen: Array<string> = []
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press("Tab")
      await waitFor(async () => (await settled()) !== "none", 10_000, `focus to settle after Tab ${i + 1}`)
      seen.push(await settled())
    }
    expect(seen).not.toContain("outside")
    expect(seen).toContain("close")
    // Escape inside the form closes the popup.
    await page.frameLocator("iframe.qforms-frame").locator("button.ok").focus()
    await page.keyboard.press("Escape")
    await event(page, (e) => e.name === "closed", "closed")
    expect(await dialog.evaluate((d: HTMLDialogElement) => d.open)).toBe(false)
    // Opened again, the form is where it was; Escape on the close button closes it too.
    await page.getByRole("button", { name: "Open the survey" }).click()
    await page.getByRole("button", { name: "Close" }).focus()
    await page.keyboard.press("Escape")
    await waitFor(
      async () => (await events(page)).filter((e) => e.name === "closed").length === 2,
      10_000,
      "closed again"
    )
    expect(problems).toEqual([])
    await page.context().close()
  })

  it("slider: a side panel the form is answered in; `submitted` names the stored response", async () => {
    const { page, problems } = await open("slider")
    await page.getByRole("button", { name: "Open the survey" }).click()
    await event(page, (e) => e.name === "ready", "ready")
    const box = await page.locator("dialog.qforms-slider").boundingBox()
    expect(box).not.toBeNull()
    // At the page's end side, the viewport's full height.
    expect(Math.round(box!.x + box!.width)).toBe(1280)
    expect(Math.round(box!.height)).toBe(900)
    const frame = await qformsFrame(page)
    expect(await frame.evaluate(() => document.documentElement.dataset.embed)).toBe("slider")
    await axe(page, "slider")
    await answer(page, frame, "Ada")
    const submitted = await event(page, (e) => e.name === "submitted", "submitted")
    expect((await stored(submitted.detail.responseId!)).values).toMatchObject({ "hidden:ref": "host-slider" })
    await page.getByRole("button", { name: "Close" }).click()
    await event(page, (e) => e.name === "closed", "closed")
    expect(problems).toEqual([])
    await page.context().close()
  })

  it("floating button: opens the form in a popup, Escape closes it and focus comes back to the button", async () => {
    const { page, problems } = await open("button")
    const floating = page.getByRole("button", { name: "Feedback" })
    const where = await floating.boundingBox()
    expect(where!.x + where!.width).toBeGreaterThan(1200)
    expect(where!.y + where!.height).toBeGreaterThan(820)
    // The form's frame is made only when the button is first pressed: the host page alone is checked here.
    await axe(page, "button-closed", false)
    await floating.focus()
    await page.keyboard.press("Enter")
    await event(page, (e) => e.name === "ready", "ready")
    await axe(page, "button-open")
    await page.keyboard.press("Escape")
    await event(page, (e) => e.name === "closed", "closed")
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Feedback")
    expect(problems).toEqual([])
    await page.context().close()
  })

  it("the Web Component: hidden fields, pre-fill, language and a dark theme; its events are DOM events", async () => {
    const { page, problems } = await open("component", "light")
    await event(page, (e) => e.name === "ready", "ready")
    const frame = await qformsFrame(page)
    // German (the form's translation), dark whatever the device prefers.
    expect(await frame.evaluate(() => document.documentElement.lang)).toBe("de")
    expect(await frame.evaluate(() => document.title)).toBe("Eingebettete Umfrage")
    expect(await frame.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe("dark")
    await fitted(page, frame, "the component's height")
    await axe(page, "component-dark")
    await answer(page, frame, undefined)
    const submitted = await event(page, (e) => e.name === "submitted", "submitted")
    const response = await stored(submitted.detail.responseId!)
    expect(response.values).toMatchObject({ "hidden:ref": "component", [String(form.fields[0]!.id)]: "Ada Lovelace" })
    expect(response.language).toBe("de")
    expect(problems).toEqual([])
    await page.context().close()
  })

  it("qforms serves /embed.js to other origins as a cacheable ES module", async () => {
    const reply = await fetch(`${server.url}/embed.js`, { headers: { origin: "http://localhost:1" } })
    expect(reply.status).toBe(200)
    expect(reply.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    expect(reply.headers.get("access-control-allow-origin")).toBe("*")
    expect(reply.headers.get("cache-control")).toBe("public, max-age=86400")
    const etag = reply.headers.get("etag")!
    expect(await reply.text()).toMatch(/export const inline/)
    const again = await fetch(`${server.url}/embed.js`, { headers: { "if-none-match": etag } })
    expect(again.status).toBe(304)
  })
})
