/**
 * The application (`/app`) in a real browser (Debian's Chromium through
 * playwright-core): sign in; create a form with questions in the builder;
 * publish it; subscribe a webhook; answer the form on the public page; see
 * the response arrive live in the inbox; move it on the board by drag-and-drop
 * and by keyboard to "Done" (a `response.stage_changed` webhook is
 * delivered); assign, tag and note it on the case page; create and revoke an
 * API key (the revoked key gets 401); a viewer cannot change anything.
 * axe-core finds no violation on any screen (light and dark), the page's CSP
 * is never violated, and every screen is saved in `packages/core/test-artifacts/`.
 *
 * Skipped only when Chromium is absent outside CI; with CI=true a missing
 * browser fails the run.
 */
import * as Effect from "effect/Effect"
import type { Page } from "playwright-core"
import { overflows, present, screenshotAndAxe } from "@qforms/test-kit/Browser"
import { loopbackApi } from "@qforms/test-kit/Loopback"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { waitFor } from "@qforms/test-kit/Conditions"
import { png } from "@qforms/test-kit/Pictures"
import { receiver } from "@qforms/test-kit/Receiver"
import * as AppInBrowser from "./support/AppInBrowser.ts"

/** A 1×1 PNG: the drawing of a signature question. */
const SIGNATURE_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64"
)

const ownerPassword = "correct horse battery"
const viewerPassword = "viewer password 1"

/** Saves a screenshot of the screen and runs axe-core in the page itself (0 violations expected). */
const check = (page: Page, label: string) => screenshotAndAxe(page, `app-${label}`)

/** The test that does not follow on from the flow's steps. */
const lastStep = "every screen fits a 360 px wide phone and passes axe, light and dark"

describe.skipIf(!present)("the application in a browser", () => {
  let app: AppInBrowser.AppInBrowser
  let url = ""
  let hook: Awaited<ReturnType<typeof receiver>>
  let ownerKey = ""

  const newPage = (colorScheme: "light" | "dark" = "light", viewport = { width: 1280, height: 900 }) =>
    app.newPage(colorScheme, viewport.width, viewport.height)
  const signIn: AppInBrowser.AppInBrowser["signIn"] = (...args) => app.signIn(...args)

  beforeAll(async () => {
    hook = await receiver()
    app = await AppInBrowser.start({
      workspace: "Acme",
      owner: { email: "olivia@example.com", name: "Olivia Owner", password: ownerPassword },
      members: [{ email: "victor@example.com", name: "Victor Viewer", role: "viewer", password: viewerPassword }],
      qforms: {
        publicPage: { minSubmitSeconds: 0 },
        delivery: { allowPrivateTargets: true, schedule: [0, 50, 100], timeoutMs: 1_000, pollIntervalMs: 100 }
      },
      page: { permissions: ["clipboard-read", "clipboard-write"] }
    })
    url = app.url
    ownerKey = app.key
  }, 60_000)

  afterAll(async () => {
    await app?.close()
    await hook?.close()
  })

  // One flow in steps that share its state and run in order: each step has its own time budget, and a
  // failure names the step it happened in.
  let page: Page
  let formId = 0
  let saved: { fields: ReadonlyArray<{ id: number; type: string; options: unknown }>; settings: unknown }
  let delivered: { event: string; stage: { name: string } | null; link: string }
  let responseId = 0
  // A step that fails leaves the flow where the next ones cannot start: they are skipped, not failed again.
  let broken = false
  beforeEach((context) => {
    if (broken && context.task.name !== lastStep) context.skip()
  })
  afterEach((context) => {
    if (context.task.result?.state === "fail") broken = true
  })

  it("signs in, builds a form in the builder with every option and setting typed, and publishes it", async () => {
    page = await newPage()
    await page.goto(`${url}/app`)
    await page.waitForURL(/\/app\/sign-in/)
    await check(page, "01-sign-in")
    await signIn(page, "olivia@example.com", ownerPassword)
    await check(page, "02-forms-empty")

    // Create a form, then build its questions.
    await page.getByLabel("New form").fill("Support request")
    await page.getByRole("button", { name: "Create", exact: true }).click()
    await page.getByRole("heading", { name: /Support request/, level: 1 }).waitFor()
    const addQuestion = async (type: string, label: string, extra?: (key: string) => Promise<void>) => {
      await page.getByLabel("Add a question").selectOption(type)
      await page.getByRole("button", { name: "Add question" }).click()
      const count = await page.locator("ol[aria-label=Questions] > li").count()
      const input = page.getByLabel(`Question ${count}`, { exact: true })
      await input.fill(label)
      const key = (await input.getAttribute("id"))!.replace(/-label$/, "")
      if (extra !== undefined) await extra(key)
    }
    // A page: the two questions of feedback are asked together.
    await page.getByRole("button", { name: "Add a page" }).click()
    await page.locator("#page-0-key").fill("feedback")
    await page.locator("#page-0-title").fill("Your feedback")
    await addQuestion("short_text", "Your name", async (key) =>
      page.locator(`li:has(#${key}-label) >> text=Required`).click()
    )
    await addQuestion("email", "Email")
    await addQuestion("select", "Topic", async (key) => {
      await page.locator(`#${key}-choices`).fill("Billing\nBug\nOther")
      await page.locator(`#${key}-randomize`).check()
      await page.locator(`#${key}-allowOther`).check()
      await page.locator(`#${key}-otherLabel`).fill("Something else")
      await page.locator(`#${key}-quotas`).fill("Bug: 50")
      await page.locator(`#${key}-quotas`).blur()
      // Quiz points: the score that an ending below reads.
      await page.locator(`#${key}-points`).fill("Bug: 2\nBilling: -1")
      await page.locator(`#${key}-points`).blur()
      // A picture on the choice "Bug", uploaded to the workspace's image library.
      await page.locator(`li:has(#${key}-label) summary`, { hasText: "Pictures on choices" }).click()
      await page
        .locator(`#${key}-image-1-file`)
        .setInputFiles({ name: "bug.png", mimeType: "image/png", buffer: png(80, 60, [200, 40, 40]) })
      await page.getByRole("img", { name: 'Picture of "Bug": bug.png' }).waitFor()
    })
    await addQuestion("rating", "How urgent is it?")
    await addQuestion("nps", "Would you recommend us?", async (key) => {
      await page.locator(`#${key}-maxLabel`).fill("Certainly")
      await page.locator(`#${key}-page`).selectOption("feedback")
    })
    await addQuestion("opinion_scale", "Was it easy to reach us?", async (key) => {
      await page.locator(`#${key}-page`).selectOption({ label: "Your feedback" })
      await page.locator(`#${key}-min`).fill("0")
      await page.locator(`#${key}-max`).fill("7")
      await page.locator(`#${key}-minLabel`).fill("Very hard")
    })
    await addQuestion("slider", "How many minutes did it take?", async (key) => {
      await page.locator(`#${key}-max`).fill("60")
      await page.locator(`#${key}-step`).fill("5")
      await page.locator(`#${key}-maxLabel`).fill("An hour")
    })
    await addQuestion("contact", "How can we reach you?", async (key) => {
      await page.locator(`#${key}-part-phone`).uncheck()
      await page.locator(`#${key}-part-company`).check()
      await page.locator(`#${key}-optional-company`).check()
    })
    await addQuestion("matrix", "Rate each part of the help", async (key) => {
      await page.locator(`#${key}-rows`).fill("Speed\nFriendliness")
      await page.locator(`#${key}-columns`).fill("Bad\nOK\nGood")
      await page.locator(`#${key}-multiple`).check()
    })
    await addQuestion("ranking", "What matters most to you?", async (key) => {
      await page.locator(`#${key}-choices`).fill("Speed\nPrice\nSupport")
      await page.locator(`#${key}-top`).fill("2")
    })
    await addQuestion("signature", "Sign here")
    await page.getByLabel("Skip the questions pre-filled from the link").check()
    await page.getByLabel(/One response per device/).check()
    await page.getByLabel(/^Access code/).fill("Blue Door")
    // A theme: its colours are checked for contrast when saved, and a failing pair is named.
    await page.getByLabel("Font", { exact: true }).selectOption("serif")
    await page.getByLabel("Corner radius (px)").fill("12")
    await page.getByLabel(/Own colours/).check()
    await page.getByLabel("Background", { exact: true }).fill("#fdf6e3")
    await page.getByLabel("Text", { exact: true }).fill("#9a9a9a")
    await page.getByRole("button", { name: "Save and publish" }).click()
    await page
      .getByText(/theme: text \(#9a9a9a on #fdf6e3\) has a contrast of 2\.\d+:1; WCAG AA needs 4\.5:1/)
      .waitFor()
    await page.getByLabel("Text", { exact: true }).fill("#073642")
    await page.getByLabel("Back button").fill("Previous")
    // A logo from the image library, with the words it says.
    await page
      .locator("#theme-logo-file")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png(200, 50, [11, 87, 208]) })
    await page.getByRole("img", { name: "Logo: logo.png" }).waitFor()
    await page.locator("#theme-logo-alt").fill("Support desk")
    // A variable, and an ending chosen by the score, with recall.
    const variablesSection = page.getByRole("region", { name: "Variables" })
    await variablesSection.getByLabel("Add variable").fill("priority")
    await variablesSection.getByRole("button", { name: "Add", exact: true }).click()
    await page.getByRole("button", { name: "Add an ending" }).click()
    await page.locator("#ending-0-key").fill("urgent")
    await page.locator("#ending-0-title").fill("Thanks, we will hurry ({{var:score}} points)")
    await page.getByLabel("Only when").check()
    await page.locator("#ending-0-when-field").selectOption("var:score")
    await page.locator("#ending-0-when-value").fill("1")
    await page.getByLabel("Stop after this many responses").fill("100")
    await page.getByLabel("Close at (your time)").fill("2999-12-31T18:00")
    // The live preview walks the unsaved questions one at a time.
    const preview = page.getByRole("region", { name: "Live preview" })
    await preview.getByRole("button", { name: "Next" }).click()
    await preview.getByRole("button", { name: "Next" }).click()
    await preview.getByRole("button", { name: "Next" }).click()
    await preview.getByText("Bug").waitFor()
    await check(page, "03-builder")
    await page.getByRole("button", { name: "Save and publish" }).click()
    await page.getByText("Saved and published.").waitFor()
    formId = Number(/\/app\/forms\/(\d+)/.exec(page.url())![1])
    // A calculation needs the question's id: once saved, Topic raises the priority by 3 when answered.
    // (The third question: saving gave the questions new keys.)
    const topic = page.locator("ol[aria-label=Questions] > li").nth(2)
    expect(await topic.getByLabel("Question 3", { exact: true }).inputValue()).toBe("Topic")
    await topic.locator("summary", { hasText: "Logic" }).click()
    await topic.getByRole("button", { name: "Add a calculation" }).click()
    await topic.locator("input[id$='-c0-value']").fill("3")
    await topic.getByLabel("only if", { exact: true }).check()
    // The urgency adds itself to the priority: a calculation's value taken from an answer.
    const urgency = page.locator("ol[aria-label=Questions] > li").nth(3)
    expect(await urgency.getByLabel("Question 4", { exact: true }).inputValue()).toBe("How urgent is it?")
    await urgency.locator("summary", { hasText: "Logic" }).click()
    await urgency.getByRole("button", { name: "Add a calculation" }).click()
    await urgency.getByLabel("Value from", { exact: true }).selectOption({ label: 'the answer to "How urgent is it?"' })
    expect(await urgency.locator("input[id$='-c0-value']").count()).toBe(0)
    await check(page, "03-builder-logic")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await page.getByText("Saved.").waitFor()
    // The scale questions were saved with the options typed in the builder, and only those.
    saved = (await (
      await fetch(`${url}/api/forms/${formId}`, { headers: { authorization: `Bearer ${ownerKey}` } })
    ).json()) as typeof saved
    // The closing time typed in the browser's time zone is stored as the same instant, in UTC.
    expect(saved.settings).toEqual({
      skipPrefilled: true,
      oneResponsePerDevice: true,
      accessCode: "Blue Door",
      theme: {
        font: "serif",
        radius: 12,
        background: "#fdf6e3",
        text: "#073642",
        accent: "#0b57d0",
        buttonText: "#ffffff",
        buttons: { back: "Previous" },
        logo: expect.stringMatching(/^img_[A-Za-z0-9_-]{22}$/),
        logoAlt: "Support desk"
      },
      maxResponses: 100,
      closesAt: expect.stringMatching(/^2999-12-31T\d{2}:00:00\.000Z$/),
      pages: [{ key: "feedback", title: "Your feedback" }],
      variables: [{ name: "priority", type: "number" }],
      endings: [
        {
          key: "urgent",
          title: "Thanks, we will hurry ({{var:score}} points)",
          when: { field: "var:score", greaterThan: "1" }
        }
      ]
    })
    expect(
      saved.fields.filter((f) =>
        ["select", "nps", "opinion_scale", "slider", "contact", "matrix", "ranking"].includes(f.type)
      )
    ).toEqual([
      expect.objectContaining({
        type: "select",
        options: {
          choices: ["Billing", "Bug", "Other"],
          randomize: true,
          allowOther: true,
          otherLabel: "Something else",
          quotas: { Bug: 50 },
          points: { Bug: 2, Billing: -1 },
          images: { Bug: expect.stringMatching(/^img_[A-Za-z0-9_-]{22}$/) }
        },
        calculate: [{ variable: "priority", add: 3, if: { field: expect.any(Number), isNotEmpty: true } }]
      }),
      expect.objectContaining({ type: "nps", options: { maxLabel: "Certainly" }, page: "feedback" }),
      expect.objectContaining({
        type: "opinion_scale",
        options: { min: 0, max: 7, minLabel: "Very hard" },
        page: "feedback"
      }),
      expect.objectContaining({ type: "slider", options: { max: 60, step: 5, maxLabel: "An hour" } }),
      expect.objectContaining({
        type: "contact",
        options: { parts: ["name", "email", "company"], optionalParts: ["company"] }
      }),
      expect.objectContaining({
        type: "matrix",
        options: { rows: ["Speed", "Friendliness"], columns: ["Bad", "OK", "Good"], multiple: true }
      }),
      expect.objectContaining({ type: "ranking", options: { choices: ["Speed", "Price", "Support"], top: 2 } })
    ])
    const rating = saved.fields.find((f) => f.type === "rating")!
    expect(rating).toMatchObject({ calculate: [{ variable: "priority", add: { field: rating.id } }] })
  }, 120_000)

  it("subscribes a webhook; a response answered on the public page shows in the open inbox without a reload", async () => {
    // Subscribe a webhook for stage changes; its secret is shown once.
    await page.getByRole("link", { name: "Settings" }).click()
    await page.getByRole("tab", { name: "Webhooks" }).click()
    await page.getByLabel("Form", { exact: true }).selectOption(String(formId))
    await page.getByLabel("Event").selectOption("response.stage_changed")
    await page.getByLabel("URL").fill(hook.url)
    await page.getByRole("button", { name: "Subscribe" }).click()
    const secret = await page.locator("[data-secret]").textContent()
    expect(secret).toMatch(/^whsec_/)
    await check(page, "04-settings-webhooks")
    // The workspace's default theme of its forms' pages.
    await page.getByRole("tab", { name: "Page theme" }).click()
    await page.getByLabel("Font", { exact: true }).selectOption("rounded")
    await page.getByLabel("Start button").fill("Begin")
    await page.getByRole("button", { name: "Save theme" }).click()
    await page.getByText("Theme saved.").waitFor()
    await check(page, "04-settings-theme")
    const workspaceSettings = await (
      await fetch(`${url}/api/workspace/settings`, { headers: { authorization: `Bearer ${ownerKey}` } })
    ).json()
    expect(workspaceSettings).toEqual({ theme: { font: "rounded", buttons: { start: "Begin" } } })

    // The inbox is open when the first response arrives: it shows without a reload.
    await page.goto(`${url}/app/forms/${formId}/responses`)
    await page.getByText("No responses match.").waitFor()
    const form = await app.qforms.run(Effect.succeed(formId))
    const publicPage = await newPage()
    const detail = (await (await page.request.get(`${url}/api/forms/${form}`)).json()) as { publicId: string }
    await publicPage.goto(`${url}/f/${detail.publicId}`)
    // The form has an access code: the page asks for it first (a wrong one is refused, kindly).
    await publicPage.getByLabel("Access code").fill("red door")
    await publicPage.keyboard.press("Enter")
    await publicPage.getByText("That code is not right. Check it and try again.").waitFor()
    await check(publicPage, "05-public-access-code")
    await publicPage.getByLabel("Access code").fill("blue door")
    await publicPage.keyboard.press("Enter")
    // The theme's logo, with its words.
    await publicPage.getByRole("img", { name: "Support desk" }).waitFor()
    await publicPage.getByRole("button", { name: "Start" }).click()
    await publicPage.getByLabel(/Your name/).fill("Ada Lovelace")
    await publicPage.getByRole("button", { name: "OK" }).click()
    await publicPage.getByLabel(/Email/).fill("ada@example.com")
    // The theme's word for Back.
    expect(await publicPage.getByRole("button", { name: "Previous" }).count()).toBe(1)
    await publicPage.getByRole("button", { name: "OK" }).click()
    await publicPage.getByLabel("Something else: your answer").waitFor()
    await publicPage.getByLabel("Bug", { exact: true }).check()
    await publicPage.getByRole("button", { name: "OK" }).click()
    await publicPage.getByLabel("4").check()
    await publicPage.getByRole("button", { name: "OK" }).click()
    // The page of feedback: both its questions on one screen.
    await publicPage.getByRole("heading", { name: "Your feedback" }).waitFor()
    await publicPage.getByText("Was it easy to reach us?").waitFor()
    await check(publicPage, "05-public-page")
    await publicPage.getByLabel("9", { exact: true }).check()
    // The opinion scale, the slider, the contact, the matrix and the ranking are optional: left unanswered (a slider nobody moved posts nothing).
    await publicPage.getByRole("button", { name: "OK" }).click()
    await publicPage.getByText("How many minutes did it take?").waitFor()
    expect(await publicPage.locator("input[type=range]").inputValue()).toBe("30")
    await publicPage.getByRole("button", { name: "OK" }).click()
    await publicPage.getByText("How can we reach you?").waitFor()
    expect(await publicPage.getByLabel(/Company/).getAttribute("autocomplete")).toBe("organization")
    await publicPage.getByRole("button", { name: "OK" }).click()
    await publicPage.getByText("Rate each part of the help").waitFor()
    expect(await publicPage.locator("input[name='a.Speed'][type=checkbox]").count()).toBe(3)
    await publicPage.getByRole("button", { name: "OK" }).click()
    await publicPage.getByText("What matters most to you?").waitFor()
    expect(await publicPage.getByRole("button", { name: "Move Speed down" }).count()).toBe(1)
    await publicPage.getByRole("button", { name: "OK" }).click()
    // The signature is optional too: its pad shows (the script runs), nothing drawn or typed.
    await publicPage.getByText("Sign here").waitFor()
    await publicPage.locator("canvas.pad").waitFor()
    await publicPage.getByRole("button", { name: "Submit" }).click()
    // The ending the score chose (Bug: 2 points), its recall filled in.
    await publicPage.getByRole("heading", { name: "Thanks, we will hurry (2 points)" }).waitFor()
    // The form takes one response per device: opened again on this one, it says so.
    await publicPage.goto(`${url}/f/${detail.publicId}`)
    await publicPage.getByText("You have already sent a response to this form from this device.").waitFor()
    await check(publicPage, "05-public-already-sent")
    await page.getByRole("link", { name: "Ada Lovelace" }).waitFor({ timeout: 10_000 })
    await page.getByRole("status").getByText("New response from Ada Lovelace").waitFor()
    const stored = (await (
      await fetch(`${url}/api/forms/${formId}/responses`, { headers: { authorization: `Bearer ${ownerKey}` } })
    ).json()) as { responses: ReadonlyArray<{ values: Record<string, unknown> }> }
    const sliderId = String(saved.fields.find((f) => f.type === "slider")!.id)
    expect(stored.responses[0]!.values).not.toHaveProperty(sliderId)
    // Five answers, then the outcome: the variables and the ending.
    expect(Object.keys(stored.responses[0]!.values)).toHaveLength(8)
    // Priority: 3 for answering Topic, plus the urgency rated (4).
    expect(stored.responses[0]!.values).toMatchObject({ "var:priority": 7, "var:score": 2, ending: "urgent" })
    await check(page, "05-inbox-table")
  }, 120_000)

  it("moves the case on the board by dragging and by keyboard; the stage change is delivered to the webhook", async () => {
    // The board: drag the card to "New", then move it with the keyboard to "Done".
    await page.getByRole("tab", { name: "Board" }).click()
    const card = page.locator(".board-card").filter({ hasText: "Ada Lovelace" })
    await card.waitFor()
    await card.dragTo(page.getByRole("region", { name: /^New/ }))
    await page
      .getByRole("region", { name: /^New/ })
      .locator(".board-card")
      .filter({ hasText: "Ada Lovelace" })
      .waitFor()
    await page.locator(".board-card").filter({ hasText: "Ada Lovelace" }).focus()
    await page.keyboard.press("ArrowRight")
    await page
      .getByRole("region", { name: /^In progress/ })
      .locator(".board-card")
      .filter({ hasText: "Ada Lovelace" })
      .waitFor()
    // The moved card keeps the keyboard focus in its new column: the next key press moves it again.
    await page.waitForFunction(() => {
      const active = (
        globalThis as unknown as {
          document: {
            activeElement: {
              classList: { contains: (c: string) => boolean }
              closest: (s: string) => { textContent: string | null } | null
            } | null
          }
        }
      ).document.activeElement
      return (
        active?.classList.contains("board-card") &&
        active.closest("section")?.textContent?.includes("In progress") === true
      )
    })
    await page.keyboard.press("ArrowRight")
    await page
      .getByRole("region", { name: /^Done/ })
      .locator(".board-card")
      .filter({ hasText: "Ada Lovelace" })
      .waitFor()
    await page.getByText("Ada Lovelace moved to Done.").waitFor()
    await check(page, "06-inbox-board")
    delivered = await waitFor(() =>
      hook.received
        .map((r) => JSON.parse(r.body) as { event: string; stage: { name: string } | null; link: string })
        .find((body) => body.event === "response.stage_changed" && body.stage?.name === "Done")
    )
    expect(delivered.link).toMatch(/\/app\/responses\/\d+$/)
  }, 120_000)

  it("assigns, tags and notes the case on its page; the webhook's link opens that page", async () => {
    // The case page: assign, tag, note.
    await page.locator(".board-card").filter({ hasText: "Ada Lovelace" }).getByRole("link").click()
    await page.getByRole("heading", { name: "Ada Lovelace", level: 1 }).waitFor()
    responseId = Number(/\/app\/responses\/(\d+)/.exec(page.url())![1])
    // The outcome of the form's logic: its variables and the ending shown.
    await page.locator("dl.answers dt", { hasText: "Score" }).waitFor()
    await page.locator("dl.answers dd", { hasText: "urgent" }).waitFor()
    await page.getByLabel("Assignee").selectOption({ label: "Olivia Owner" })
    await page.getByText("Assignee changed.").waitFor()
    await page.getByLabel("Add tag").fill("vip")
    await page.getByRole("button", { name: "Add", exact: true }).click()
    await page.getByText("Tag vip added.").waitFor()
    await page.getByLabel("Add a note").fill("Called back; waiting for the invoice.")
    await page.getByRole("button", { name: "Add note" }).click()
    await page.getByText("Note added.").waitFor()
    await page.locator("ol.timeline").getByText("Note: Called back; waiting for the invoice.").waitFor()
    await check(page, "07-case")
    // Answers corrected on the page: a wrong one is refused with the submission's message, then saved.
    await page.getByRole("button", { name: "Edit answers" }).click()
    const editor = page.locator("form[aria-labelledby=answers-title]")
    const emailInput = editor.locator("input[type=email]")
    expect(await emailInput.inputValue()).toBe("ada@example.com")
    await check(page, "07-case-edit-answers")
    await emailInput.fill("ada at example")
    await editor.getByRole("button", { name: "Save answers" }).click()
    await page
      .getByRole("alert")
      .getByText(/must be an email address/)
      .waitFor()
    await emailInput.fill("ada.lovelace@example.com")
    await editor.getByRole("button", { name: "Save answers" }).click()
    await page.getByText("Answers saved.").waitFor()
    await page
      .locator("ol.timeline")
      .getByText(/Answers changed: /)
      .first()
      .waitFor()
    await page.locator("dl.answers dd", { hasText: "ada.lovelace@example.com" }).waitFor()
    // Back as it was, for the steps that follow.
    await page.getByRole("button", { name: "Edit answers" }).click()
    await editor.locator("input[type=email]").fill("ada@example.com")
    await editor.getByRole("button", { name: "Save answers" }).click()
    await page.locator("dl.answers dd", { hasText: "ada@example.com" }).waitFor()
    const caseDetail = (await (await page.request.get(`${url}/api/responses/${responseId}`)).json()) as {
      response: { tags: Array<string>; assigneeId: number | null; stageId: number | null }
      stages: Array<{ id: number; name: string }>
    }
    expect(caseDetail.response.tags).toEqual(["vip"])
    expect(caseDetail.response.assigneeId).not.toBeNull()
    expect(caseDetail.stages.find((s) => s.id === caseDetail.response.stageId)?.name).toBe("Done")

    // The webhook link opens this page: deep links work.
    await page.goto(
      delivered.link.startsWith("http") ? delivered.link.replace(/^https?:\/\/[^/]+/, url) : `${url}${delivered.link}`
    )
    await page.getByRole("heading", { name: "Ada Lovelace", level: 1 }).waitFor()
  }, 120_000)

  it("creates, uses and revokes an API key; retries a webhook delivery and sends a test ping", async () => {
    // API keys: created (shown once), works, revoked (then 401).
    await page.getByRole("link", { name: "Settings" }).click()
    await check(page, "08-settings-members")
    await page.getByRole("tab", { name: "API keys" }).click()
    await page.getByLabel("Key name").fill("Zapier")
    await page.getByRole("button", { name: "Create key" }).click()
    const key = (await page.locator("[data-secret]").textContent())!
    expect(key).toMatch(/^qk_live_/)
    await check(page, "09-settings-keys")
    const withKey = () => fetch(`${url}/api/forms`, { headers: { authorization: `Bearer ${key}` } })
    expect((await withKey()).status).toBe(200)
    page.once("dialog", (dialog) => void dialog.accept())
    await page.getByRole("button", { name: "Revoke Zapier" }).click()
    await page.getByText(/revoked\./).waitFor()
    expect((await withKey()).status).toBe(401)

    // Webhooks: the delivery log shows the stage changes; retry one; a signed test ping answers.
    await page.getByRole("tab", { name: "Webhooks" }).click()
    await page.getByRole("button", { name: `Delivery log of ${hook.url}` }).click()
    const log = page.getByRole("region", { name: `Delivery log of ${hook.url}` })
    await log.getByText("succeeded").first().waitFor()
    const before = hook.received.length
    await log
      .getByRole("button", { name: /^Retry delivery/ })
      .first()
      .click()
    await log.getByText(/sent again\./).waitFor()
    await waitFor(() => (hook.received.length > before ? true : undefined))
    await page.getByRole("button", { name: `Send a test ping to ${hook.url}` }).click()
    await page.getByText(/Test ping answered 200/).waitFor()
    await check(page, "16-settings-delivery-log")

    await page.getByRole("link", { name: "Account" }).click()
    await check(page, "10-account")
  }, 120_000)

  it("generates, duplicates and deletes forms; tags the selected responses and exports the CSV", async () => {
    // Forms list: generate from a description, duplicate, delete (after confirming).
    await page.getByRole("link", { name: "Forms", exact: true }).click()
    await page
      .getByLabel("Generate from description")
      .fill("An RSVP for the summer party: name, e-mail, will you come, how many guests")
    await page.getByRole("button", { name: "Generate" }).click()
    await page.getByRole("heading", { name: "Questions" }).waitFor()
    expect(await page.locator("ol[aria-label=Questions] > li").count()).toBeGreaterThan(1)
    await page.getByRole("link", { name: "Forms", exact: true }).click()
    await page.getByRole("button", { name: "Duplicate Support request" }).click()
    await page.getByRole("link", { name: "Copy of Support request", exact: true }).waitFor()
    await check(page, "15-forms")
    page.once("dialog", (dialog) => void dialog.accept())
    await page.getByRole("button", { name: "Delete Copy of Support request" }).click()
    await page.getByText('"Copy of Support request" deleted.').waitFor()
    // The notice can show before the list is loaded again: wait for the row to go, then check it is gone.
    await page.getByRole("link", { name: "Copy of Support request", exact: true }).waitFor({ state: "detached" })
    expect(await page.getByRole("link", { name: "Copy of Support request", exact: true }).count()).toBe(0)

    // Inbox: a bulk tag on the selected rows, and the CSV of the current filter.
    await page.goto(`${url}/app/forms/${formId}/responses`)
    await page.getByLabel("Select Ada Lovelace").check()
    await page.locator("#b-tag").fill("followup")
    await page.getByRole("button", { name: "Add tag" }).click()
    await page.getByText("Tagged: 1 of 1 responses updated.").waitFor()
    await page.locator("#f-tag").selectOption("followup")
    const csvHref = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href")
    expect(csvHref).toContain("tag=followup")
    const csv = await page.request.get(`${url}${csvHref}`)
    expect(csv.headers()["content-type"]).toMatch(/text\/csv/)
    expect(await csv.text()).toContain("Ada Lovelace")
  }, 120_000)

  it("translates the form in the builder: adds German, fills its texts, marks it ready; the public page then speaks German", async () => {
    await page.goto(`${url}/app/forms/${formId}`)
    await page.getByRole("heading", { name: "Languages" }).waitFor()
    await page.getByLabel("Add a language").fill("de")
    await page.getByRole("button", { name: "Add language" }).click()
    const editor = page.getByRole("region", { name: /Deutsch/ })
    await editor.waitFor()
    // Every text of the form beside its words in German; the title first.
    const title = editor.getByRole("textbox").first()
    await title.fill("Supportanfrage")
    await editor.getByLabel("Status").selectOption("ready")
    await check(page, "16-translation")
    await editor.getByRole("button", { name: "Save translation" }).click()
    await editor.getByText("Saved: the page offers it.").waitFor()
    await page.getByRole("cell", { name: /Deutsch \(de\)/ }).waitFor()
    await page.getByRole("cell", { name: /^1 of \d+$/ }).waitFor()
    // Without a language model the machine translation is refused, saying why.
    await editor.getByRole("button", { name: "Translate the rest by machine" }).click()
    await editor.getByText(/machine translation needs a language model/).waitFor()
    const published = (await (
      await fetch(`${url}/api/forms/${formId}`, { headers: { authorization: `Bearer ${ownerKey}` } })
    ).json()) as { publicId: string; status: string; translations: Record<string, { title?: string }> }
    expect(published.translations.de?.title).toBe("Supportanfrage")
    if (published.status === "published") {
      const german = await fetch(`${url}/f/${published.publicId}`, { headers: { "accept-language": "de" } })
      expect(await german.text()).toContain("Supportanfrage")
    }
  }, 120_000)

  it("stays readable in dark mode and on a phone; a viewer reads and cannot change anything; signing out ends the session", async () => {
    // Dark mode: the same screens stay readable (axe checks contrast in the dark theme).
    const dark = await newPage("dark")
    await signIn(dark, "olivia@example.com", ownerPassword)
    await check(dark, "11-forms-dark")
    await dark.goto(`${url}/app/forms/${formId}/responses?view=board`)
    await dark.locator(".board-card").first().waitFor()
    await check(dark, "12-board-dark")

    // A phone-sized screen: one column, still no violation.
    const phone = await newPage("light", { width: 390, height: 844 })
    await signIn(phone, "olivia@example.com", ownerPassword)
    await phone.goto(`${url}/app/responses/${responseId}`)
    await phone.getByRole("heading", { name: "Ada Lovelace", level: 1 }).waitFor()
    await check(phone, "14-case-phone")
    expect(
      await phone.evaluate(() => {
        const d = (
          globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
        ).document
        return d.documentElement.scrollWidth <= d.documentElement.clientWidth
      })
    ).toBe(true)

    // A viewer reads and cannot change anything.
    const viewer = await newPage()
    await signIn(viewer, "victor@example.com", viewerPassword)
    expect(await viewer.getByLabel("New form").count()).toBe(0)
    await viewer.goto(`${url}/app/responses/${responseId}`)
    await viewer.getByRole("heading", { name: "Ada Lovelace", level: 1 }).waitFor()
    expect(await viewer.getByLabel("Stage").isDisabled()).toBe(true)
    expect(await viewer.getByLabel("Add a note").count()).toBe(0)
    expect(await viewer.getByRole("button", { name: "Edit answers" }).count()).toBe(0)
    await check(viewer, "13-case-viewer")
    const refused = await viewer.evaluate(
      async ([id]) => {
        const base = "" as string
        const session = (await (await fetch(`${base}/app/session`)).json()) as { csrfToken: string }
        const answer = await fetch(`${base}/api/responses/${id}`, {
          method: "PATCH",
          headers: { "content-type": "application/json", "x-csrf-token": session.csrfToken },
          body: JSON.stringify({ tags: [] })
        })
        return answer.status
      },
      [responseId]
    )
    expect(refused).toBe(403)

    // Signing out ends the session: the application sends the user back to sign-in.
    await viewer.getByRole("button", { name: "Sign out" }).click()
    await viewer.waitForURL(/\/app\/sign-in$/)
    await viewer.goto(`${url}/app/settings`)
    await viewer.waitForURL(/\/app\/sign-in\?next=%2Fapp%2Fsettings$/)

    expect(app.problems).toEqual([])
  }, 120_000)

  it(lastStep, async () => {
    const api = loopbackApi(() => ({ url, key: ownerKey }))
    const form = await api("POST", "/forms", {
      title: "A form whose title is rather long, to see that it wraps on a narrow screen",
      fields: [
        { type: "short_text", label: "Your name", required: true },
        { type: "email", label: "Email" },
        {
          type: "select",
          label: "What is it about?",
          options: { choices: ["Billing", "A bug report", "Something else entirely"] }
        },
        { type: "nps", label: "How likely are you to recommend us to a colleague?" },
        { type: "opinion_scale", label: "Setting up was easy", options: { min: 0, max: 10 } },
        { type: "signature", label: "Signature" }
      ]
    })
    await api("PATCH", `/forms/${form.id}`, { status: "published" })
    const [name, email, , , , signature] = form.fields
    // A drawn signature, uploaded as the page's script does: the case page shows the drawing.
    const published = (await (
      await fetch(`${url}/api/forms/${form.id}`, { headers: { authorization: `Bearer ${ownerKey}` } })
    ).json()) as { publicId: string }
    const upload = new FormData()
    upload.set("file", new Blob([SIGNATURE_PNG], { type: "image/png" }), "signature.png")
    const drawn = await fetch(`${url}/f/${published.publicId}/uploads?fieldId=${signature!.id}`, {
      method: "POST",
      body: upload
    })
    expect(drawn.status).toBe(201)
    const response = await api("POST", `/forms/${form.id}/responses`, {
      values: {
        [name!.id]: "Grace Hopper",
        [email!.id]: "grace.hopper.with.a.long.address@example.com",
        [signature!.id]: { fileId: ((await drawn.json()) as { fileId: string }).fileId }
      }
    })
    for (const scheme of ["light", "dark"] as const) {
      const page = await newPage(scheme, { width: 360, height: 740 })
      const screen = async (label: string, ready: () => Promise<unknown>) => {
        await ready()
        await check(page, `360-${scheme}-${label}`)
        expect(await overflows(page), `${label} at 360 px (${scheme}) overflows`).toEqual([])
      }
      await page.goto(`${url}/app`)
      await screen("sign-in", () => page.getByLabel("Password").waitFor())
      await signIn(page, "olivia@example.com", ownerPassword)
      await screen("forms", () =>
        page
          .getByRole("link", { name: /rather long/ })
          .first()
          .waitFor()
      )
      await page.goto(`${url}/app/forms/${form.id}`)
      await screen("builder", () => page.getByRole("heading", { level: 1 }).waitFor())
      await page.goto(`${url}/app/forms/${form.id}/responses`)
      await screen("inbox", () => page.getByRole("link", { name: "Grace Hopper" }).waitFor())
      await page.goto(`${url}/app/forms/${form.id}/responses?view=board`)
      await screen("board", () => page.locator(".board-card").first().waitFor())
      await page.goto(`${url}/app/responses/${response.id}`)
      await screen("case", async () => {
        await page.getByRole("heading", { name: "Grace Hopper", level: 1 }).waitFor()
        // The drawing loads with the session cookie (an image the browser decoded has a natural width).
        await page.waitForFunction(() => {
          const img = (
            globalThis as unknown as {
              document: { querySelector: (s: string) => { complete: boolean; naturalWidth: number } | null }
            }
          ).document.querySelector("img.drawn-signature")
          return img?.complete === true && img.naturalWidth > 0
        })
      })
      await page.goto(`${url}/app/settings`)
      for (const tab of ["Members", "API keys", "Webhooks"]) {
        await page.getByRole("tab", { name: tab }).click()
        await screen(`settings-${tab.toLowerCase().replace(" ", "-")}`, () =>
          page.waitForFunction(
            (name) =>
              (
                globalThis as unknown as { document: { querySelector: (s: string) => { textContent: string } | null } }
              ).document.querySelector("[role=tab][aria-selected=true]")?.textContent === name,
            tab
          )
        )
      }
      await page.goto(`${url}/app/account`)
      await screen("account", () => page.getByRole("heading", { name: "Account", level: 1 }).waitFor())
      await page.context().close()
    }
    expect(app.problems).toEqual([])
  }, 180_000)
})
