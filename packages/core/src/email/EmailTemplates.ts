/**
 * A respondent e-mail's template and its rendering: `{{answers}}`,
 * `{{field:N}}` and `{{statusLink}}` filled in (a respondent's text never
 * becomes part of a link), and the light markup (`**bold**`, `[text](url)`,
 * bare links) turned into plain text and HTML, each link listed so it can be
 * tracked.
 *
 * @module
 */
import { escapeHtml } from "../kernel/index.ts"
import { type AnswerValue, type Field, formatAnswer, LEFT_OUT, maskValues, summary } from "../forms/index.ts"

// ---------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------

// `[text](https://…)` or a bare http(s) URL (not ending in punctuation). A URL never runs into an
// answer's marker (see {@link fillTemplateParts}): respondent text is never part of a link.
const LINK =
  /\[([^\]\n]{1,500})\]\((https?:\/\/[^\s)\uE000\uE001]{1,2000})\)|(https?:\/\/[^\s<>()"'\uE000\uE001]*[^\s<>()"'.,;:!?\uE000\uE001])/g

// An answer's place in a filled template: `\uE000{index}\uE001` (private-use characters).
const ANSWER_MARK = /\uE000(\d+)\uE001/g
const MARKERS = /[\uE000\uE001]/g

/**
 * The links of a body in order: each `[text](url)` and bare URL.
 *
 * @example
 * ```ts
 * extractLinks("See [the FAQ](https://example.com/faq) or https://example.com") // ["https://example.com/faq", "https://example.com"]
 * ```
 */
export const extractLinks = (body: string): ReadonlyArray<string> =>
  Array.from(body.matchAll(LINK), (match) => match[2] ?? match[3]!)

const inline = (text: string) =>
  escapeHtml(text)
    .replace(/\*\*([^*\n]+)\*\*/g, "<strong>$1</strong>")
    .replace(/\*([^*\n]+)\*/g, "<em>$1</em>")

/**
 * A markdown-ish body as text and HTML. `tracked` gives, per link (in
 * {@link extractLinks} order), the URL its HTML anchor points to; `pixel`
 * adds a 1×1 image at the end of the HTML.
 *
 * @example
 * ```ts
 * render("Hi **Ada**, see [docs](https://example.com/d)")
 * // { text: "Hi Ada, see docs (https://example.com/d)", html: "…<strong>Ada</strong>…<a href=\"https://example.com/d\">docs</a>…" }
 * ```
 */
export const render = (
  body: string,
  options: {
    readonly tracked?: ReadonlyArray<string> | undefined
    readonly pixel?: string | undefined
    /** The answers a {@link fillTemplateParts} body marks: put in as literal text (escaped, never linked). */
    readonly answers?: ReadonlyArray<string> | undefined
  } = {}
): { readonly text: string; readonly html: string } => {
  const answers = options.answers ?? []
  const answerText = (text: string) => text.replace(ANSWER_MARK, (_, i: string) => answers[Number(i)] ?? "")
  const answerHtml = (html: string) =>
    html.replace(ANSWER_MARK, (_, i: string) => escapeHtml(answers[Number(i)] ?? "").replace(/\n/g, "<br>"))
  let index = 0
  const textParts: Array<string> = []
  const htmlParts: Array<string> = []
  let last = 0
  const normalized = body.replace(/\r\n?/g, "\n")
  for (const match of normalized.matchAll(LINK)) {
    const before = normalized.slice(last, match.index)
    textParts.push(before.replace(/\*\*([^*\n]+)\*\*/g, "$1").replace(/\*([^*\n]+)\*/g, "$1"))
    htmlParts.push(inline(before))
    const url = match[2] ?? match[3]!
    const href = options.tracked?.[index] ?? url
    index++
    if (match[1] !== undefined) {
      textParts.push(`${match[1]} (${url})`)
      htmlParts.push(`<a href="${escapeHtml(href)}">${escapeHtml(match[1])}</a>`)
    } else {
      textParts.push(url)
      htmlParts.push(`<a href="${escapeHtml(href)}">${escapeHtml(url)}</a>`)
    }
    last = match.index + match[0].length
  }
  const rest = normalized.slice(last)
  textParts.push(rest.replace(/\*\*([^*\n]+)\*\*/g, "$1").replace(/\*([^*\n]+)\*/g, "$1"))
  htmlParts.push(inline(rest))
  const html = htmlParts
    .join("")
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${paragraph.replace(/\n/g, "<br>")}</p>`)
    .join("\n")
  const pixel =
    options.pixel === undefined
      ? ""
      : `\n<img src="${escapeHtml(options.pixel)}" width="1" height="1" alt="" style="display:block;border:0">`
  return {
    text: answerText(textParts.join("")),
    html: `<!doctype html><html><body style="font-family:sans-serif">${answerHtml(html)}${pixel}</body></html>`
  }
}

/**
 * Fills a confirmation template: `{{field:<id>}}` with that question's
 * answer, `{{answers}}` with the answers summary.
 *
 * @example
 * ```ts
 * fillTemplate("Hi {{field:12}}!", fields, { "12": "Ada" }) // "Hi Ada!"
 * ```
 */
export const fillTemplate = (
  template: string,
  fields: ReadonlyArray<Field>,
  values: Readonly<Record<string, AnswerValue>>,
  linkBase?: string
): string =>
  template.replace(TEMPLATE_REF, (_whole, what: string, id: string | undefined) =>
    answerOf(what, id, fields, values, linkBase)
  )

/** Where a confirmation's body puts the respondent's status page link (see `cases/StatusLinks.ts`). */
export const STATUS_LINK = /\{\{\s*statusLink\s*\}\}/g

const TEMPLATE_REF = /\{\{\s*(answers|field:(\d{1,10}))\s*\}\}/g

const answerOf = (
  what: string,
  id: string | undefined,
  fields: ReadonlyArray<Field>,
  values: Readonly<Record<string, AnswerValue>>,
  linkBase: string | undefined
): string => {
  // A sensitive question's answer is never echoed by e-mail (it reads "(sensitive, not included)").
  const shown = maskValues(fields, values, LEFT_OUT).values
  if (what === "answers") return summary(fields, shown, linkBase)
  const field = fields.find((f) => String(f.id) === id)
  return field === undefined ? "" : formatAnswer(field, Object.hasOwn(shown, id!) ? shown[id!] : undefined, linkBase)
}

/**
 * Fills a confirmation template for {@link render}: the template's own text
 * stays markdown-ish (its links are the owner's, and tracked), while each
 * answer is only marked in `template` and listed in `answers`, so it is put
 * in as literal text: a URL or `[text](url)` a respondent typed is never
 * linked nor tracked, and in HTML it is escaped.
 *
 * @example
 * ```ts
 * const { template, answers } = fillTemplateParts("Hi {{field:12}}, see https://example.com", fields, { "12": "[x](https://evil.example)" })
 * render(template, { answers }).html // "…Hi [x](https://evil.example), see <a href=\"https://example.com\">…"
 * ```
 */
export const fillTemplateParts = (
  template: string,
  fields: ReadonlyArray<Field>,
  values: Readonly<Record<string, AnswerValue>>,
  linkBase?: string
): { readonly template: string; readonly answers: ReadonlyArray<string> } => {
  const answers: Array<string> = []
  const marked = template.replace(MARKERS, "").replace(TEMPLATE_REF, (_whole, what: string, id: string | undefined) => {
    answers.push(answerOf(what, id, fields, values, linkBase).replace(MARKERS, ""))
    return `\uE000${answers.length - 1}\uE001`
  })
  return { template: marked, answers }
}
