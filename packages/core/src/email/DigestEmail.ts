/**
 * The digest e-mail's words and layout: what a form's period looked like (new
 * responses against the period before, views and completion, the open cases
 * by stage, who waits for a first answer, the top answer of each choice
 * question) in the member's language (English, German or Arabic, the
 * application's languages, ICU MessageFormat with each language's plurals),
 * as plain text and as HTML with inline styles (mail clients drop style sheets).
 */
import { escapeHtml, oneLine } from "../kernel/index.ts"
import { type DigestLanguage, digestLanguages, languageOf, sayer } from "../mail/index.ts"
import type { DigestFrequency } from "./DigestSchedule.ts"

export { type DigestLanguage, digestLanguages, languageOf, sayer }

/** The top answer of one question in the period. */
export interface TopAnswer {
  readonly question: string
  /** The answer given most (a choice), or the mean / NPS score of a number question, as text. */
  readonly answer: string
  /** What `answer` is: the most chosen choice (with its share), a mean, or an NPS score. */
  readonly kind: "choice" | "mean" | "netPromoterScore"
  readonly percent: number | null
  readonly answered: number
}

/** What a digest says, before it is put into words. */
export interface DigestContent {
  readonly form: { readonly id: number; readonly title: string }
  readonly frequency: DigestFrequency
  readonly periodStart: Date
  readonly periodEnd: Date
  readonly timeZone: string
  /** Responses submitted in the period. */
  readonly responses: number
  /** Responses submitted in the period before (same length). */
  readonly previous: number
  readonly views: number
  readonly completionRate: number | null
  /** Open cases now (not in a closed stage). */
  readonly open: number
  /** Open cases nobody is assigned to. */
  readonly unassigned: number
  /** Cases without a first response from a member. */
  readonly waiting: number
  readonly byStage: ReadonlyArray<{ readonly name: string; readonly count: number }>
  readonly top: ReadonlyArray<TopAnswer>
}

/** The addresses a digest links to. */
export interface DigestLinks {
  readonly inbox: string
  readonly summary: string
  readonly unsubscribe: string
}

const words = {
  en: {
    subject:
      "{form}: {count, plural, =0 {no new responses} one {# new response} other {# new responses}} ({frequency, select, daily {daily} other {weekly}} digest)",
    heading: "{frequency, select, daily {Daily} other {Weekly}} digest of {form}",
    period: "{start} to {end} ({zone})",
    newResponses: "{count, plural, =0 {No new responses} one {# new response} other {# new responses}}",
    previous: "{count, plural, one {# in the period before} other {# in the period before}}",
    views: "{count, plural, one {# page view} other {# page views}}",
    completion: "completion rate {rate}%",
    cases: "Cases",
    open: "{count, plural, =0 {No open cases} one {# open case} other {# open cases}}",
    unassigned: "{count, plural, one {# not assigned} other {# not assigned}}",
    waiting: "{count, plural, one {# waiting for a first response} other {# waiting for a first response}}",
    noStage: "No stage",
    topAnswers: "Top answers",
    choice: "{answer} ({percent}% of {count, plural, one {# answer} other {# answers}})",
    mean: "mean {answer} ({count, plural, one {# answer} other {# answers}})",
    netPromoterScore: "NPS {answer} ({count, plural, one {# answer} other {# answers}})",
    openInbox: "Open the responses",
    openSummary: "See the summary",
    footer: "You get this digest because you chose it for this form; you can change it in the form's summary.",
    unsubscribe: "Unsubscribe",
    pageTitle: "Digest e-mail",
    pageQuestion: "Stop the digest e-mails of {form}?",
    pageButton: "Unsubscribe",
    pageDone: "You will get no more digest e-mails of {form}.",
    pageInvalid: "This unsubscribe link is not valid. Open the form's summary in qforms to change your digest.",
    formGone: "a form that no longer exists"
  },
  de: {
    subject:
      "{form}: {count, plural, =0 {keine neuen Antworten} one {# neue Antwort} other {# neue Antworten}} ({frequency, select, daily {tägliche} other {wöchentliche}} Übersicht)",
    heading: "{frequency, select, daily {Tägliche} other {Wöchentliche}} Übersicht: {form}",
    period: "{start} bis {end} ({zone})",
    newResponses: "{count, plural, =0 {Keine neuen Antworten} one {# neue Antwort} other {# neue Antworten}}",
    previous: "{count, plural, one {# im Zeitraum davor} other {# im Zeitraum davor}}",
    views: "{count, plural, one {# Seitenaufruf} other {# Seitenaufrufe}}",
    completion: "Abschlussrate {rate} %",
    cases: "Fälle",
    open: "{count, plural, =0 {Keine offenen Fälle} one {# offener Fall} other {# offene Fälle}}",
    unassigned: "{count, plural, one {# nicht zugewiesen} other {# nicht zugewiesen}}",
    waiting: "{count, plural, one {# wartet auf eine erste Antwort} other {# warten auf eine erste Antwort}}",
    noStage: "Ohne Phase",
    topAnswers: "Häufigste Antworten",
    choice: "{answer} ({percent} % von {count, plural, one {# Antwort} other {# Antworten}})",
    mean: "Mittelwert {answer} ({count, plural, one {# Antwort} other {# Antworten}})",
    netPromoterScore: "NPS {answer} ({count, plural, one {# Antwort} other {# Antworten}})",
    openInbox: "Antworten öffnen",
    openSummary: "Zusammenfassung ansehen",
    footer:
      "Sie erhalten diese Übersicht, weil Sie sie für dieses Formular gewählt haben; Sie können das in der Zusammenfassung des Formulars ändern.",
    unsubscribe: "Abbestellen",
    pageTitle: "Übersicht per E-Mail",
    pageQuestion: "Die Übersichten von {form} abbestellen?",
    pageButton: "Abbestellen",
    pageDone: "Sie erhalten keine Übersichten von {form} mehr.",
    pageInvalid:
      "Dieser Abbestell-Link ist ungültig. Öffnen Sie die Zusammenfassung des Formulars in qforms, um Ihre Übersicht zu ändern.",
    formGone: "einem Formular, das es nicht mehr gibt"
  },
  ar: {
    subject:
      "{form}: {count, plural, zero {لا ردود جديدة} one {رد جديد واحد} two {ردّان جديدان} few {# ردود جديدة} many {# ردًا جديدًا} other {# رد جديد}} (الملخص {frequency, select, daily {اليومي} other {الأسبوعي}})",
    heading: "الملخص {frequency, select, daily {اليومي} other {الأسبوعي}} لـ {form}",
    period: "من {start} إلى {end} ({zone})",
    newResponses:
      "{count, plural, zero {لا ردود جديدة} one {رد جديد واحد} two {ردّان جديدان} few {# ردود جديدة} many {# ردًا جديدًا} other {# رد جديد}}",
    previous:
      "{count, plural, zero {لا شيء في الفترة السابقة} one {رد واحد في الفترة السابقة} two {ردّان في الفترة السابقة} few {# ردود في الفترة السابقة} many {# ردًا في الفترة السابقة} other {# رد في الفترة السابقة}}",
    views:
      "{count, plural, zero {لا مشاهدات للصفحة} one {مشاهدة واحدة للصفحة} two {مشاهدتان للصفحة} few {# مشاهدات للصفحة} many {# مشاهدة للصفحة} other {# مشاهدة للصفحة}}",
    completion: "نسبة الإكمال {rate}٪",
    cases: "الحالات",
    open: "{count, plural, zero {لا حالات مفتوحة} one {حالة مفتوحة واحدة} two {حالتان مفتوحتان} few {# حالات مفتوحة} many {# حالة مفتوحة} other {# حالة مفتوحة}}",
    unassigned:
      "{count, plural, zero {لا شيء غير مسند} one {واحدة غير مسندة} two {اثنتان غير مسندتين} few {# غير مسندة} many {# غير مسندة} other {# غير مسندة}}",
    waiting:
      "{count, plural, zero {لا شيء ينتظر ردًا أول} one {واحدة تنتظر ردًا أول} two {اثنتان تنتظران ردًا أول} few {# تنتظر ردًا أول} many {# تنتظر ردًا أول} other {# تنتظر ردًا أول}}",
    noStage: "بلا مرحلة",
    topAnswers: "الإجابات الأكثر",
    choice:
      "{answer} ({percent}٪ من {count, plural, zero {لا إجابات} one {إجابة واحدة} two {إجابتين} few {# إجابات} many {# إجابة} other {# إجابة}})",
    mean: "المتوسط {answer} ({count, plural, zero {لا إجابات} one {إجابة واحدة} two {إجابتان} few {# إجابات} many {# إجابة} other {# إجابة}})",
    netPromoterScore:
      "NPS {answer} ({count, plural, zero {لا إجابات} one {إجابة واحدة} two {إجابتان} few {# إجابات} many {# إجابة} other {# إجابة}})",
    openInbox: "افتح الردود",
    openSummary: "اعرض الملخص",
    footer: "تصلك هذه الرسالة لأنك اخترت الملخص لهذا النموذج، ويمكنك تغيير ذلك من ملخص النموذج.",
    unsubscribe: "إلغاء الاشتراك",
    pageTitle: "ملخص بالبريد الإلكتروني",
    pageQuestion: "هل تريد إيقاف رسائل ملخص {form}؟",
    pageButton: "إلغاء الاشتراك",
    pageDone: "لن تصلك بعد الآن رسائل ملخص {form}.",
    pageInvalid: "رابط إلغاء الاشتراك هذا غير صالح. افتح ملخص النموذج في qforms لتغيير الملخص.",
    formGone: "نموذج لم يعد موجودًا"
  }
} as const satisfies Record<DigestLanguage, Record<string, string>>

type WordKey = keyof (typeof words)["en"]

const say = sayer<WordKey>(words)

/**
 * The words of the unsubscribe page (the link in each digest) in a language.
 *
 * @example
 * ```ts
 * unsubscribePage("de", "Support").question // "Die Übersichten von Support abbestellen?"
 * ```
 */
export const unsubscribePage = (language: DigestLanguage, form: string | null) => {
  const name = form === null ? say(language, "formGone") : oneLine(form, 120)
  return {
    direction: language === "ar" ? ("rtl" as const) : ("ltr" as const),
    title: say(language, "pageTitle"),
    question: say(language, "pageQuestion", { form: name }),
    button: say(language, "pageButton"),
    done: say(language, "pageDone", { form: name }),
    invalid: say(language, "pageInvalid")
  }
}

/** Every language's words, for the tests (each language has every key). */
export const catalogue: Readonly<Record<DigestLanguage, Readonly<Record<WordKey, string>>>> = words

const dateTime = (language: DigestLanguage, timeZone: string, at: Date) =>
  new Intl.DateTimeFormat(language, { timeZone, dateStyle: "medium", timeStyle: "short" }).format(at)

const number = (language: DigestLanguage, value: number) =>
  new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(value)

/**
 * The digest as an e-mail: subject, text and HTML.
 *
 * @example
 * ```ts
 * const { subject, text, html } = render(content, "de", { inbox, summary, unsubscribe })
 * subject // "Support: 3 neue Antworten (tägliche Übersicht)"
 * ```
 */
export const render = (
  content: DigestContent,
  language: DigestLanguage,
  links: DigestLinks
): { readonly subject: string; readonly text: string; readonly html: string } => {
  const t = (key: WordKey, values?: Record<string, string | number>) => say(language, key, values)
  const form = oneLine(content.form.title, 120)
  const subject = oneLine(t("subject", { form, count: content.responses, frequency: content.frequency }), 200)
  const heading = t("heading", { form, frequency: content.frequency })
  const period = t("period", {
    start: dateTime(language, content.timeZone, content.periodStart),
    end: dateTime(language, content.timeZone, content.periodEnd),
    zone: content.timeZone
  })
  const activity = [
    t("newResponses", { count: content.responses }),
    t("previous", { count: content.previous }),
    t("views", { count: content.views }),
    ...(content.completionRate === null ? [] : [t("completion", { rate: number(language, content.completionRate) })])
  ]
  const caseLines = [
    t("open", { count: content.open }),
    ...(content.open === 0
      ? []
      : [t("unassigned", { count: content.unassigned }), t("waiting", { count: content.waiting })])
  ]
  const stages = content.byStage.map((stage) => ({
    name: stage.name === "" ? t("noStage") : stage.name,
    count: stage.count
  }))
  const answers = content.top.map((top) => ({
    question: top.question,
    text:
      top.kind === "choice"
        ? t("choice", { answer: top.answer, percent: number(language, top.percent ?? 0), count: top.answered })
        : t(top.kind, { answer: top.answer, count: top.answered })
  }))
  const text = [
    heading,
    period,
    "",
    activity.join(" · "),
    "",
    `${t("cases")}: ${caseLines.join(" · ")}`,
    ...stages.map((stage) => `  ${stage.name}: ${number(language, stage.count)}`),
    ...(answers.length === 0 ? [] : ["", `${t("topAnswers")}:`, ...answers.map((a) => `  ${a.question}: ${a.text}`)]),
    "",
    `${t("openInbox")}: ${links.inbox}`,
    `${t("openSummary")}: ${links.summary}`,
    "",
    "-- ",
    t("footer"),
    `${t("unsubscribe")}: ${links.unsubscribe}`,
    ""
  ].join("\n")
  const direction = language === "ar" ? "rtl" : "ltr"
  const cell = "padding:4px 12px 4px 0;vertical-align:top"
  const html =
    `<!doctype html><html lang="${language}" dir="${direction}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="font-family:system-ui,sans-serif;color:#1a1a1a;line-height:1.5;max-width:40em">` +
    `<h1 style="font-size:1.3em;margin:0 0 4px">${escapeHtml(heading)}</h1>` +
    `<p style="margin:0 0 16px;color:#555">${escapeHtml(period)}</p>` +
    `<p><strong>${escapeHtml(activity[0]!)}</strong><br>${activity.slice(1).map(escapeHtml).join(" · ")}</p>` +
    `<h2 style="font-size:1.1em">${escapeHtml(t("cases"))}</h2>` +
    `<p>${caseLines.map(escapeHtml).join(" · ")}</p>` +
    (stages.length === 0
      ? ""
      : `<table role="presentation">${stages
          .map(
            (stage) =>
              `<tr><td style="${cell}">${escapeHtml(stage.name)}</td><td style="${cell}">${escapeHtml(number(language, stage.count))}</td></tr>`
          )
          .join("")}</table>`) +
    (answers.length === 0
      ? ""
      : `<h2 style="font-size:1.1em">${escapeHtml(t("topAnswers"))}</h2><table role="presentation">${answers
          .map(
            (a) =>
              `<tr><th scope="row" style="${cell};text-align:start">${escapeHtml(a.question)}</th><td style="${cell}">${escapeHtml(a.text)}</td></tr>`
          )
          .join("")}</table>`) +
    `<p style="margin-top:24px"><a href="${escapeHtml(links.inbox)}">${escapeHtml(t("openInbox"))}</a> · ` +
    `<a href="${escapeHtml(links.summary)}">${escapeHtml(t("openSummary"))}</a></p>` +
    `<p style="margin-top:32px;font-size:0.85em;color:#555">${escapeHtml(t("footer"))}` +
    ` <a href="${escapeHtml(links.unsubscribe)}">${escapeHtml(t("unsubscribe"))}</a></p>` +
    `</body></html>`
  return { subject, text, html }
}
