/**
 * The payload of each notification channel type, built from a stored event
 * when it is sent: a Slack Block Kit message, a Discord embed, a Teams
 * Adaptive Card, a spreadsheet row, an e-mail. Pure functions, each within
 * its receiver's limits however many or long the answers are.
 *
 * @module
 */
import type { SpecEventBody } from "../events/index.ts"
import { answerKeys, type Field } from "../forms/index.ts"
import { cut, escapeHtml, oneLine } from "../kernel/index.ts"

/** What every format is built from: the event, the form's questions now, and the link to the response. */
export interface NotificationInput {
  readonly payload: SpecEventBody
  readonly fields: ReadonlyArray<Field>
  readonly link: string
}

/** One answer to show: the question's label and the answer's text. */
export interface AnswerEntry {
  readonly key: string
  readonly label: string
  readonly text: string
}

const length = (text: string) => Array.from(text).length

/**
 * The answered questions in the form's current question order; answers to
 * questions removed since come last.
 *
 * @example
 * ```ts
 * entries({ payload, fields, link }) // [{ key: "Name", label: "Name", text: "Ada" }, ...]
 * ```
 */
export const entries = (input: NotificationInput): ReadonlyArray<AnswerEntry> => {
  const answers = input.payload.answers
  const keys = answerKeys(input.fields)
  const known = new Set(keys.map((k) => k.key))
  return [
    ...keys
      .filter((k) => Object.hasOwn(answers, k.key) && answers[k.key] !== "")
      .map((k) => ({
        key: k.key,
        label: k.label,
        text: answers[k.key]!
      })),
    ...Object.entries(answers)
      .filter(([key, text]) => !known.has(key) && text !== "")
      .map(([key, text]) => ({
        key,
        label: key,
        text
      }))
  ]
}

/** The respondent as one line: `Ada Lovelace <ada@example.com>`, or `an anonymous respondent`. */
export const respondentLine = (payload: SpecEventBody): string => {
  const { email, name } = payload.respondent
  if (name !== null && email !== null) return `${name} <${email}>`
  return name ?? email ?? "an anonymous respondent"
}

/** The first line of every format: what happened to which form. */
export const headline = (payload: SpecEventBody): string =>
  payload.event === "response.created"
    ? `New response to ${payload.form.title}`
    : `Response to ${payload.form.title} moved to ${payload.stage === null ? "no stage" : payload.stage.name}`

// ---------------------------------------------------------------------------
// Slack
// ---------------------------------------------------------------------------

/** Slack's limits: 50 blocks, 10 fields a section of at most 2000 characters, a header of 150. */
export const slackLimits = { blocks: 50, fieldsPerSection: 10, fieldText: 2000, header: 150, answer: 500 } as const

/**
 * Slack's escaping (its only control characters are `&`, `<`, `>`): no
 * `<!channel>`, `<@U123>` or `<http://evil|click>` survives as markup.
 */
export const slackEscape = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

/**
 * Markdown escaping for Discord and Teams (both CommonMark-like: a backslash
 * makes any ASCII punctuation literal): no `[x](http://evil)` masked link, no
 * formatting, and in Discord no `@everyone`, `<@123>` or `<#1>` mention.
 *
 * @example
 * ```ts
 * markdownEscape("[x](http://evil) @everyone") // "\\[x\\]\\(http://evil\\) \\@everyone"
 * ```
 */
export const markdownEscape = (text: string): string => text.replace(/[\\*_~`|<>[\]()#@!-]/g, "\\$&")

/**
 * A Slack incoming-webhook message (Block Kit): a header with the form
 * title, the respondent, the answers as label/answer fields (long answers
 * cut with "…"), and a button linking to the response.
 *
 * @example
 * ```ts
 * const body = slack({ payload, fields, link })
 * body.blocks[0] // { type: "header", text: { type: "plain_text", text: "New response to Support" } }
 * ```
 */
export const slack = (input: NotificationInput) => {
  const all = entries(input)
  const fields = all.map((entry) => ({
    type: "mrkdwn" as const,
    text: cut(
      `*${slackEscape(cut(entry.label, 150))}*\n${slackEscape(cut(entry.text, slackLimits.answer))}`,
      slackLimits.fieldText
    )
  }))
  const sections: Array<{ type: "section"; fields: typeof fields }> = []
  for (let i = 0; i < fields.length; i += slackLimits.fieldsPerSection) {
    sections.push({ type: "section", fields: fields.slice(i, i + slackLimits.fieldsPerSection) })
  }
  // Header, respondent, (a "more" note), and the button: the rest of the 50 blocks hold answers.
  const room = slackLimits.blocks - 4
  const shown = sections.slice(0, room)
  const hidden = all.length - shown.reduce((n, section) => n + section.fields.length, 0)
  // The fallback text (notifications, screen readers) is mrkdwn too: escaped like the blocks.
  const text = cut(slackEscape(`${headline(input.payload)} from ${respondentLine(input.payload)}`), 3000)
  return {
    text,
    blocks: [
      {
        type: "header",
        text: { type: "plain_text", text: cut(headline(input.payload), slackLimits.header), emoji: false }
      },
      {
        type: "context",
        elements: [{ type: "mrkdwn", text: cut(`From *${slackEscape(respondentLine(input.payload))}*`, 2000) }]
      },
      ...shown,
      ...(hidden > 0
        ? [{ type: "context", elements: [{ type: "mrkdwn", text: `…and ${hidden} more answers in the response` }] }]
        : []),
      {
        type: "actions",
        elements: [{ type: "button", text: { type: "plain_text", text: "Open response" }, url: input.link }]
      }
    ]
  }
}

// ---------------------------------------------------------------------------
// Discord
// ---------------------------------------------------------------------------

/** Discord's embed limits. */
export const discordLimits = {
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  total: 6000
} as const

/**
 * Shares `budget` characters among texts of these lengths: short ones get all
 * they need, the long ones split what is left evenly.
 */
const share = (lengths: ReadonlyArray<number>, budget: number): ReadonlyArray<number> => {
  const order = lengths.map((n, i) => [n, i] as const).sort((a, b) => a[0] - b[0])
  const out = new Array<number>(lengths.length).fill(0)
  let left = Math.max(0, budget)
  for (const [position, [n, i]] of order.entries()) {
    const fair = Math.floor(left / (order.length - position))
    out[i] = Math.min(n, fair)
    left -= out[i]!
  }
  return out
}

/**
 * A Discord webhook message: one embed with the form title linking to the
 * response, the respondent, and a field per answer, within Discord's limits
 * (25 fields, 1024 characters a value, 6000 in all). Respondent text is
 * markdown-escaped (no masked links, no mentions), and mentions never ping
 * anyone anyway (`allowed_mentions`).
 *
 * @example
 * ```ts
 * const body = discord({ payload, fields, link })
 * body.embeds[0].fields.length <= 25 // true
 * ```
 */
export const discord = (input: NotificationInput) => {
  const all = entries(input)
  const title = cut(headline(input.payload), discordLimits.title)
  const description = cut(`From **${markdownEscape(respondentLine(input.payload))}**`, 500)
  const footer = `qforms · response ${input.payload.responseId}`
  const listed = all.length > discordLimits.fields ? all.slice(0, discordLimits.fields - 1) : all
  const named = listed.map((entry) => ({
    name: cut(entry.label.trim() || "—", 100),
    value: markdownEscape(entry.text.trim()) || "—"
  }))
  if (listed.length < all.length) {
    named.push({ name: "More answers", value: `${all.length - listed.length} more in the response` })
  }
  const fixed =
    length(title) + length(description) + length(footer) + named.reduce((n, field) => n + length(field.name), 0)
  // A little room to spare below Discord's total.
  const allowances = share(
    named.map((field) => Math.min(length(field.value), discordLimits.fieldValue)),
    discordLimits.total - 50 - fixed
  )
  const fields = named.map((field, i) => ({
    name: field.name,
    value: cut(field.value, Math.max(1, allowances[i]!)),
    inline: false
  }))
  return {
    allowed_mentions: { parse: [] as Array<string> },
    embeds: [
      {
        title,
        url: input.link,
        description,
        fields,
        footer: { text: footer },
        ...(input.payload.submittedAt === null ? {} : { timestamp: input.payload.submittedAt })
      }
    ]
  }
}

/** The characters Discord counts toward an embed's 6000: title, description, field names and values, footer. */
export const discordEmbedLength = (embed: ReturnType<typeof discord>["embeds"][number]): number =>
  length(embed.title) +
  length(embed.description) +
  length(embed.footer.text) +
  embed.fields.reduce((n, field) => n + length(field.name) + length(field.value), 0)

// ---------------------------------------------------------------------------
// Microsoft Teams
// ---------------------------------------------------------------------------

/** Teams takes messages of about 28 KB; cards are kept below this many bytes. */
export const teamsMaxBytes = 24_000

/**
 * A Teams (Workflows / Power Automate) webhook message: an Adaptive Card
 * with the headline, the respondent, a FactSet of the answers and an
 * "Open response" action. Answers are cut so the card stays below
 * {@link teamsMaxBytes}.
 *
 * @example
 * ```ts
 * const body = teams({ payload, fields, link })
 * body.attachments[0].content.type // "AdaptiveCard"
 * ```
 */
export const teams = (input: NotificationInput) => {
  const all = entries(input)
  const build = (answerMax: number, count: number) => ({
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        contentUrl: null,
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
          type: "AdaptiveCard",
          version: "1.4",
          body: [
            {
              type: "TextBlock",
              text: cut(headline(input.payload), 300),
              weight: "Bolder",
              size: "Medium",
              wrap: true
            },
            {
              type: "TextBlock",
              text: cut(`From ${markdownEscape(respondentLine(input.payload))}`, 300),
              isSubtle: true,
              wrap: true
            },
            {
              type: "FactSet",
              facts: [
                ...all.slice(0, count).map((entry) => ({
                  title: cut(entry.label, 100),
                  value: markdownEscape(cut(entry.text, answerMax))
                })),
                ...(count < all.length
                  ? [{ title: "…", value: `${all.length - count} more answers in the response` }]
                  : [])
              ]
            }
          ],
          actions: [{ type: "Action.OpenUrl", title: "Open response", url: input.link }]
        }
      }
    ]
  })
  for (const answerMax of [500, 200, 80]) {
    const card = build(answerMax, all.length)
    if (Buffer.byteLength(JSON.stringify(card)) <= teamsMaxBytes) return card
  }
  let count = all.length
  let card = build(80, count)
  while (count > 0 && Buffer.byteLength(JSON.stringify(card)) > teamsMaxBytes) card = build(80, --count)
  return card
}

// ---------------------------------------------------------------------------
// Spreadsheet
// ---------------------------------------------------------------------------

/**
 * A spreadsheet row: the question labels as `columns` in question order and
 * the answers as `row` in the same order (`""` for unanswered), so a small
 * script on the sheet's side appends it (see the README).
 *
 * @example
 * ```ts
 * sheet({ payload, fields, link })
 * // { formId: 3, responseId: 41, submittedAt: "…", columns: ["Name", "Email"], row: ["Ada", "ada@example.com"] }
 * ```
 */
export const sheet = (input: NotificationInput) => {
  const keys = answerKeys(input.fields)
  const known = new Set(keys.map((k) => k.key))
  const extra = Object.keys(input.payload.answers).filter((key) => !known.has(key))
  return {
    formId: input.payload.form.id,
    responseId: input.payload.responseId,
    submittedAt: input.payload.submittedAt,
    columns: [...keys.map((k) => k.key), ...extra],
    row: [...keys.map((k) => input.payload.answers[k.key] ?? ""), ...extra.map((key) => input.payload.answers[key]!)]
  }
}

// ---------------------------------------------------------------------------
// E-mail
// ---------------------------------------------------------------------------

/**
 * A notification e-mail: the subject names the form and the respondent; a
 * plain-text body (the answers summary) and an HTML version; the link to the
 * response; `replyTo` the respondent's address when there is one.
 *
 * @example
 * ```ts
 * const mail = email({ payload, fields, link })
 * mail.subject // "New response to Support from Ada Lovelace"
 * ```
 */
export const email = (input: NotificationInput) => {
  const { payload } = input
  const who = payload.respondent.name ?? payload.respondent.email ?? "an anonymous respondent"
  const subject = oneLine(`${headline(payload)} from ${who}`, 200)
  const all = entries(input)
  const summary = all.map((entry) => `■ ${entry.label}\n${entry.text}`).join("\n\n")
  const text = `${headline(payload)}\nFrom: ${respondentLine(payload)}\n\n${summary}\n\nOpen the response: ${input.link}\n`
  const rows = all
    .map(
      (entry) =>
        `<tr><th style="text-align:left;vertical-align:top;padding:4px 12px 4px 0">${escapeHtml(entry.label)}</th>` +
        `<td style="white-space:pre-wrap;padding:4px 0">${escapeHtml(entry.text)}</td></tr>`
    )
    .join("")
  const html =
    `<!doctype html><html><body style="font-family:sans-serif">` +
    `<h2>${escapeHtml(headline(payload))}</h2><p>From: ${escapeHtml(respondentLine(payload))}</p>` +
    `<table>${rows}</table>` +
    `<p><a href="${escapeHtml(input.link)}">Open the response</a></p></body></html>`
  return {
    subject,
    text,
    html,
    replyTo: payload.respondent.email ?? undefined
  }
}
