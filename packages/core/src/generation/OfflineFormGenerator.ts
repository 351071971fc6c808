/**
 * The offline form generator: turns a plain-text description into a form by
 * recognising common phrasing, with no model and no network. Deterministic:
 * the same description always gives the same form. A helpful starting point
 * to edit, not a language model.
 *
 * What it understands:
 * - lists of things to ask: "ask for name, email, phone and company",
 *   "collect …", "fields: …", "include …", "a contact form with …", and
 *   bullet or numbered lines; sentences ending in "?" become questions as
 *   written; "ask whether/how many/which/… …" becomes one question;
 * - typed hints: email; phone/telephone/mobile; website/URL/link/LinkedIn;
 *   date/date of birth/birthday/when; "date and time"/appointment (datetime);
 *   "what time"/"preferred time"/"time slot" (time); how many/number of/age/
 *   amount/budget; rate/rating/"1-5"/"out of 10"/"stars" (rating, with that
 *   maximum); slider/percentage/"0-100" (slider); "how likely … recommend"
 *   (nps, 0 to 10); terms and conditions/privacy policy/consent/"I agree"
 *   (legal, required unless marked optional); "contact details" (contact:
 *   name, e-mail, phone); address/postal/shipping/billing address (address);
 *   "rate each of the following: a, b, c" (matrix with a five-point scale);
 *   "rank these: a, b, c", "in order of preference" (ranking);
 *   yes or no/whether/"do you…?";
 *   upload/attach/CV/resume/photo/screenshot (file, with a sensible accept
 *   list); comments/describe/tell us/feedback/message/explain/why (long text);
 * - choice lists: "(a, b or c)", "one of a, b, c", "which of: …",
 *   "choose from …", "either a or b" (one answer); with "select all that
 *   apply", "any of", "multiple" (several answers);
 * - required/optional wording per item ("optional", "if any", "required",
 *   "mandatory", "must") or for the whole form ("all fields are required",
 *   "everything is optional"); name and e-mail are required unless marked
 *   optional;
 * - a title from the first sentence; when the description lists nothing to
 *   ask, the usual questions of a recognised kind of form (`FormKinds.ts`: contact, RSVP,
 *   event registration, job application, feedback, NPS, bug report,
 *   newsletter sign-up, order, booking, support request, quiz-free survey).
 *
 * @module
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { FieldInput, QuestionTypes as Types } from "../forms/index.ts"
import { type Draft, type Kind, kinds, type TypeOf } from "./FormKinds.ts"

/** What the offline generator produces (the shape every generator returns). */
export interface OfflineForm {
  readonly title: string
  readonly description: string | null
  readonly fields: ReadonlyArray<FieldInput>
}

/** Most questions the offline generator writes. */
export const MAX_QUESTIONS = 20

// ---------------------------------------------------------------------------
// Text helpers
// ---------------------------------------------------------------------------

const capitalize = (text: string): string => (text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1))

const collapse = (text: string): string => text.replace(/\s+/g, " ").trim()

/** Cuts at a word boundary so the text is at most `max` characters. */
const clip = (text: string, max: number): string => {
  if (text.length <= max) return text
  const cut = text.slice(0, max + 1)
  const space = cut.lastIndexOf(" ")
  return (space > max / 2 ? cut.slice(0, space) : text.slice(0, max)).replace(/[\s,;:–-]+$/, "")
}

/** Splits on separators that are not inside parentheses or brackets. */
const splitOutside = (text: string, separator: RegExp): Array<string> => {
  const parts: Array<string> = []
  let depth = 0
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === "(" || c === "[") depth++
    else if ((c === ")" || c === "]") && depth > 0) depth--
    else if (depth === 0) {
      const rest = text.slice(i)
      const match = separator.exec(rest)
      if (match !== null && match.index === 0) {
        parts.push(text.slice(start, i))
        i += match[0].length - 1
        start = i + 1
      }
    }
  }
  parts.push(text.slice(start))
  return parts.map(collapse).filter((part) => part.length > 0)
}

/** Splits a line into sentences, keeping each one's end mark; not inside parentheses, not after "e.g." or "etc.". */
const splitSentences = (line: string): Array<string> => {
  const out: Array<string> = []
  let depth = 0
  let start = 0
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (c === "(" || c === "[") depth++
    else if ((c === ")" || c === "]") && depth > 0) depth--
    else if (depth === 0 && (c === "." || c === "!" || c === "?")) {
      const after = line.slice(i + 1)
      const before = line.slice(Math.max(0, i - 4), i + 1).toLowerCase()
      if (c === "." && /(?:e\.g|i\.e|etc|vs|\bno)\.$/.test(before)) continue
      if (/^\s*$/.test(after) || /^\s+["'“A-Z0-9(]/.test(after)) {
        out.push(line.slice(start, i + 1))
        start = i + 1
      }
    }
  }
  out.push(line.slice(start))
  return out.map(collapse).filter((sentence) => sentence.length > 0 && !/^[.!?]+$/.test(sentence))
}

/** The description in sentences; bullet and numbered lines each stand alone. */
const sentencesOf = (prompt: string): Array<{ readonly text: string; readonly bullet: boolean }> => {
  const out: Array<{ text: string; bullet: boolean }> = []
  for (const rawLine of prompt.split(/\r?\n/)) {
    const line = rawLine.trim()
    if (line === "") continue
    const bullet = /^(?:[-*•▪‣◦]|\d{1,2}[.)]|[a-z][.)])\s+(.+)$/i.exec(line)
    if (bullet !== null) out.push({ text: collapse(bullet[1]!), bullet: true })
    else for (const sentence of splitSentences(line)) out.push({ text: sentence, bullet: false })
  }
  return out
}

// ---------------------------------------------------------------------------
// Title
// ---------------------------------------------------------------------------

const LEAD_IN =
  /^(?:(?:hi|hello|hey)[,!]?\s+)?(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+)?(?:(?:please|kindly)\s+)?(?:create|make|build|generate|design|set\s+up|setup|write|draft|produce|prepare|put\s+together|give\s+me|i\s+(?:need|want|would\s+like)|we\s+(?:need|want|would\s+like)|need|want|i'd\s+like|we'd\s+like)\s+(?:(?:me|us)\s+)?(?:(?:a|an|the|some|one)\s+)?(?:(?:simple|short|quick|basic|new|small|little)\s+)*/i
const ARTICLE = /^(?:a|an|the|our|my|this)\s+/i
const TITLE_CUT =
  /\s+(?:that|which|where|asking|to\s+(?:ask|collect|gather|capture|find\s+out|learn|get)|with\s+(?:the\s+following|questions?|fields?)|including|containing|so\s+(?:that|we)|collecting|gathering|capturing|with)\b|\s+[-–—]\s+|[:;(]/i

/** The title from the first sentence, or the recognised kind's. */
const titleOf = (first: string | undefined, kind: Kind | undefined): string => {
  const heading = first === undefined ? null : /^([^:?.]{3,80}):\s/.exec(first)
  if (heading !== null && !LIST_TRIGGER.test(`${heading[1]!} `)) {
    return capitalize(clip(collapse(heading[1]!.replace(LEAD_IN, "").replace(ARTICLE, "")), 120))
  }
  if (
    first !== undefined &&
    !LIST_TRIGGER.test(first.replace(/^(?:please\s+)?/i, "").slice(0, 12)) &&
    !first.endsWith("?")
  ) {
    const cleaned = first.replace(LEAD_IN, "").replace(ARTICLE, "")
    const cut = cleaned.split(TITLE_CUT)[0] ?? ""
    const title = collapse(cut.replace(/[.!,\s]+$/, ""))
    if (title.length >= 3 && !/^(?:form|survey|questionnaire)$/i.test(title)) return capitalize(clip(title, 120))
  }
  return kind?.title ?? "New form"
}

// ---------------------------------------------------------------------------
// Items → questions
// ---------------------------------------------------------------------------

/** Words that introduce a list of things to ask. The list is what follows. */
const LIST_TRIGGER =
  /\b(?:ask(?:s|ing)?(?:\s+(?:them|people|respondents|users|applicants|attendees|guests|customers|participants|students|visitors|candidates|clients|members|everyone|the\s+\w+))?(?:\s+(?:for|about))?|collect(?:s|ing)?|gather(?:s|ing)?|captur(?:e|es|ing)|request(?:s|ing)?|record(?:s|ing)?|get(?:s|ting)?\s+(?:their|the)|find\s+out|want\s+to\s+know|needs?\s+to\s+know|(?:fields?|questions?|inputs?)(?:\s+(?:are|should\s+be))?\s*:|includ(?:e|es|ing)|contain(?:s|ing)?|with(?:\s+(?:fields?|questions?))?(?:\s+for)?|let\s+(?:them|people|respondents|users|applicants|candidates)|(?:they|respondents|applicants|users|people|guests|candidates)\s+(?:should|must|can|may)\s+(?:give|provide|enter|share|add|fill\s+in|tell\s+us))\s+/i

const CHECKBOX_HINT =
  /\b(?:select|tick|check|choose|pick)\s+(?:all|any|every|as\s+many)\b|\ball\s+that\s+apply\b|\bany\s+of\b|\bmultiple\b|\bseveral\b|\bone\s+or\s+more\b/i
const ONE_OF =
  /[,:\s]*\b(?:one\s+of|which\s+of|choose\s+(?:one\s+)?from|pick\s+(?:one\s+)?from|select\s+(?:one\s+)?from|options?(?:\s+are)?|either|any\s+of|(?:select|tick|check|choose|pick)\s+(?:all|any)\s+(?:that\s+apply\s+)?(?:from|of))\s*:?\s+(.+)$/i

/** Splits a choice list: "a, b or c", "a/b/c", "a; b; c". */
const splitChoices = (text: string): Array<string> =>
  splitOutside(
    text
      .replace(/\s*\(?(?:select|tick|check|choose|pick)\s+(?:all|any)\s+that\s+apply\)?\s*/gi, " ")
      .replace(/^\s*:\s*/, ""),
    /^(?:\s*,\s*(?:and\s+|or\s+)?|\s*;\s*|\s+or\s+|\s+and\s+|\s*\/\s*|\s*\|\s*)/i
  )
    .map((choice) => choice.replace(/^(?:etc\.?|and|or)\s+/i, "").replace(/[.\s]+$/, ""))
    .map((choice) => clip(capitalize(collapse(choice)), 200))
    .filter(
      (choice, index, all) =>
        choice.length > 0 &&
        // "Other" stays, for the caller to make it the Other choice with its text box.
        !/^(?:etc|so on|and so on)$/i.test(choice) &&
        all.findIndex((other) => other.toLowerCase() === choice.toLowerCase()) === index
    )

/** A listed choice that stands for "anything else": Other, Others, Other (please specify), Something else. */
const OTHER_CHOICE = /^(?:an?\s+)?others?\b(?:\s*\(.*\))?$|^(?:something|anything)\s+else$/i

const isYesNo = (choices: ReadonlyArray<string>) =>
  choices.length === 2 && choices.every((choice) => /^(?:yes|no)$/i.test(choice))

/** The second person: a description speaks of "them", a question speaks to "you". */
const toSecondPerson = (text: string): string =>
  text
    .replace(/\bthey're\b/gi, "you're")
    .replace(/\bthey've\b/gi, "you've")
    .replace(/\bthey'll\b/gi, "you'll")
    .replace(/\bthey\b/gi, "you")
    .replace(/\btheir\b/gi, "your")
    .replace(/\btheirs\b/gi, "yours")
    .replace(/\bthem(?:selves)?\b/gi, (m) => (m.toLowerCase() === "them" ? "you" : "yourself"))
    .replace(/\b(?:he or she|she or he|he\/she|s\/he)\b/gi, "you")
    .replace(/\byou (is|was)\b/gi, (_, verb: string) => (verb === "is" ? "you are" : "you were"))

const AUX = "will|would|are|were|can|could|have|has|had|should|shall|may|might|must|do|does|did|is|was"
const AUXILIARY = new RegExp(`\\byou\\s+(${AUX})\\b`, "i")
const INVERTED = new RegExp(`^(?:\\w+\\s+){0,3}?(?:${AUX})\\s+you\\b`, "i")
const AUX_START = new RegExp(`^(?:${AUX})\\s+(?:you|they|we|it|there|he|she)\\b`, "i")
const CLAUSE_START = /^(?:whether|if|how|what|which|when|where|why|who|whom|whose)\b/i

/** "you have a garden" → "Do you have a garden?"; "you have been abroad" → "Have you been abroad?" */
const invert = (aux: string, rest: string): string =>
  /^ha(?:ve|s|d)$/i.test(aux) && !/^(?:been|got|ever|already|never|\w+ed|\w+en)\b/i.test(rest)
    ? `do you ${aux.toLowerCase() === "had" ? "have" : aux.toLowerCase() === "has" ? "have" : aux.toLowerCase()} ${rest}`
    : `${aux.toLowerCase()} you ${rest}`

/**
 * "whether they will attend" → "Will you attend?";
 * "how many guests they will bring" → "How many guests will you bring?";
 * "whether they need parking" → "Do you need parking?"; "would they recommend us" → "Would you recommend us?".
 */
const toQuestion = (clause: string): string => {
  const text = collapse(toSecondPerson(clause).replace(/[.?!\s]+$/, ""))
  const done = (question: string) => `${capitalize(collapse(question))}?`
  if (AUX_START.test(text)) return done(text)
  const yesNo = /^(?:whether|if)\s+(.+?)(?:\s+or\s+not)?$/i.exec(text)
  if (yesNo !== null) {
    const body = yesNo[1]!
    const aux = new RegExp(`^you\\s+(${AUX})\\s+(.+)$`, "i").exec(body)
    if (aux !== null) return done(invert(aux[1]!, aux[2]!))
    if (/^you\s+/i.test(body)) return done(`do ${body}`)
    return done(`is ${body}`)
  }
  const wh =
    /^(how\s+(?:many|much|often|long|old|far|well|likely|soon)|how|what|which|when|where|why|who|whom|whose)\s+(.+)$/i.exec(
      text
    )
  if (wh === null) return capitalize(text)
  const word = wh[1]!.toLowerCase()
  const rest = wh[2]!
  if (INVERTED.test(rest) || /^(?:is|are|was|were)\b/i.test(rest) || !/\byou\b/i.test(rest))
    return done(`${word} ${rest}`)
  const aux = AUXILIARY.exec(rest)
  if (aux !== null) {
    return done(`${word} ${rest.slice(0, aux.index)}${invert(aux[1]!, rest.slice(aux.index + aux[0].length).trim())}`)
  }
  const plain = /^(.*?)\byou\s+(.+)$/i.exec(rest)
  return plain === null ? done(`${word} ${rest}`) : done(`${word} ${plain[1]}do you ${plain[2]}`)
}

/** Short names of common things to ask, as labels. */
const knownLabels: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(?:e-?mail|e-?mail address|email id)$/i, "Email"],
  [
    /^(?:phone|telephone|phone no\.?|tel|mobile|cell|mobile number|cell number|phone number|telephone number|contact number)$/i,
    "Phone number"
  ],
  [/^(?:name|full name)$/i, "Name"],
  [/^(?:dob|d\.o\.b\.?|birth ?date|birthday|date of birth)$/i, "Date of birth"],
  [/^(?:url|website|web site|homepage|site)$/i, "Website"],
  [/^(?:cv|resume|résumé)$/i, "CV"],
  [/^age$/i, "Age"]
]

const ASKING_VERB =
  /^(?:(?:to|and|also)\s+)?(?:give|provide|enter|share|add|fill\s+in|tell\s+us(?:\s+about)?|let\s+us\s+know|say|state|list|choose|pick|select|indicate|specify|describe)\s+(?:(?:us|a|an|the)\s+)*/i

/** The label of an item: a question when the item is a clause, else the noun in the second person. */
const labelOf = (item: string): string => {
  let text = collapse(item.replace(/[.,;:!?\s]+$/, ""))
  const verb = ASKING_VERB.exec(text)
  if (verb !== null && text.length > verb[0].length) {
    // "describe the issue" keeps its verb (it reads as an instruction); the others go.
    if (!/^(?:(?:to|and|also)\s+)?describe\b/i.test(verb[0])) text = text.slice(verb[0].length)
  }
  if (CLAUSE_START.test(text) || AUX_START.test(text)) return clip(toQuestion(text), 1000)
  const noun = text
    .replace(/^(?:(?:a|an|the|their|your|his|her|its|our|my|his\/her|his or her|any)\s+)+/i, (m) =>
      /\bany\b/i.test(m) ? "any " : ""
    )
    .replace(/\s+(?:upload|attachment|file)$/i, (m) =>
      /\bfile$/i.test(m) && !/\b(?:cv|resume|résumé|photo|picture|image|screenshot)\b/i.test(text) ? m : ""
    )
  const known = knownLabels.find(([pattern]) => pattern.test(noun))
  if (known !== undefined) return known[1]
  return clip(capitalize(toSecondPerson(noun)), 1000)
}

/** "Sign below", "their signature", "e-signature": a signature to draw or type. */
const SIGNATURE_HINT =
  /\bsign\s+(?:below|here|(?:the|this)\s+(?:form|agreement|consent|waiver))\b|\b(?:e-?)?signatures?\b/i
const FILE_HINT =
  /\b(?:upload|attach(?:ment|ed)?|cv|resume|résumé|portfolio\s+file|photos?|pictures?|images?|screenshots?|documents?|files?|scans?|receipts?|logo|headshot|avatar)\b/i
const IMAGE_HINT = /\b(?:photos?|pictures?|images?|screenshots?|logo|headshot|avatar)\b/i
const DOC_HINT = /\b(?:cv|resume|résumé|cover\s+letter|documents?|certificates?|transcripts?)\b/i
/** "Rate each of the following: a, b, c" asks the same scale of every item: a matrix. */
const MATRIX_HINT =
  /\b(?:rate|rating|score|grade|assess|evaluate)\s+(?:each|every|all)\b|\beach\s+of\s+the\s+following\b/i
/** "Rank these: a, b, c" / "in order of preference": put the choices in order. */
const RANKING_HINT =
  /\brank\s+(?:these|those|the\s+following|them|each|all|your|from|in\s+order)\b|\bin\s+order\s+of\s+(?:preference|importance|priority)\b|\bprioriti[sz]e\b|\border\s+(?:these|the\s+following)\b/i
const LIKERT = ["Very poor", "Poor", "Fair", "Good", "Excellent"] as const
const LEGAL_HINT =
  /\b(?:terms\s+(?:and|&)\s+conditions|terms\s+of\s+(?:service|use)|privacy\s+(?:policy|notice)|consent|gdpr|i\s+agree|agree\s+to|accept\s+(?:the|our)\s+(?:terms|policy|conditions|rules))\b/i
const CONTACT_HINT = /\bcontact\s+(?:details|info(?:rmation)?)\b/i
const ADDRESS_HINT =
  /\b(?:postal|mailing|shipping|delivery|home|street|billing|physical|residential)\s+address\b|^(?:(?:their|your|the|full)\s+)*address$/i
const SLIDER_HINT = /\bslider\b|\bslide\b|\bpercent(?:age)?\b|%|\b0\s*(?:-|–|to)\s*100\b/i
const DATETIME_HINT = /\bdate\s+(?:and|&)\s+time\b|\bappointment\b|\bdate-?time\b/i
const TIME_HINT =
  /\bwhat\s+time\b|\btime\s+of\s+day\b|\b(?:preferred|arrival|start|end|pick-?up|drop-?off|delivery|call(?:back)?)\s+time\b|\btime\s+slot\b/i
const NPS_HINT = /\blikely\b.*\brecommend\b|\bnps\b|\bnet promoter\b/i
const RATING_HINT =
  /\b(?:rate|rating|ratings|stars?|score|satisf(?:ied|action)|scale)\b|\b\d{1,2}\s*(?:-|–|to)\s*\d{1,2}\b|\bout\s+of\s+\d{1,2}\b/i
const YES_NO_HINT =
  /\byes\s*(?:or|\/)\s*no\b|^(?:whether|if)\b|^(?:do|does|did|are|is|was|were|will|would|can|could|have|has|should|shall|may|might)\s+(?:you|they|we|it|i)\b/i
const EMAIL_HINT = /\be-?mails?\b/i
const TEL_HINT = /\b(?:phone|telephone|tel|mobile|cell(?:phone)?|whatsapp|contact\s+number)\b/i
const URL_HINT =
  /\b(?:website|web\s*site|url|link|linkedin|github|homepage|portfolio|twitter|instagram|profile\s+link)\b/i
const DATE_HINT = /\b(?:date|dob|birthday|when|deadline|day\s+of|start\s+day)\b|\bbirth\s*date\b/i
const NUMBER_HINT =
  /\bhow\s+(?:many|much|old|long)\b|\bnumber\s+of\b|\bage\b|\bamount\b|\bbudget\b|\bquantity\b|\bhow\s+often\b|\bcount\b|\bsalary\b|\bprice\b|\bcost\b|\byears\s+of\b|\bheadcount\b|\bsize\s+of\b|\bgpa\b/i
const LONG_HINT =
  /\b(?:comments?|describe|description|tell\s+us|feedback|message|details?|explain|explanation|why|notes?|anything\s+else|suggestions?|improv\w*|thoughts|cover\s+letter|address|story|motivation|reason|bio|experience|steps|requests?|concerns?|questions?\s+for\s+us|like[ds]?\s+(?:most|best|least)|better|abstract|essay|proposal|dietary|allerg\w*|needs)\b/i
const OPTIONAL_HINT =
  /\s*\((?:optional|if\s+any|if\s+applicable|not\s+required)\)|\b(?:optional(?:ly)?|if\s+(?:any|applicable|they\s+(?:have|want)\s+(?:one|to))|not\s+required)\b/gi
const REQUIRED_HINT =
  /\s*\((?:required|mandatory|must)\)|\b(?:required|mandatory|compulsory|must(?:\s+(?:be\s+)?(?:given|provided|answered|filled(?:\s+in)?))?)\b/gi

/** Turns one thing to ask into a question, or nothing when it names nothing. */
const questionOf = (rawItem: string, context: { readonly allRequired: boolean | undefined }): Draft | undefined => {
  let item = collapse(rawItem)
    .replace(/^(?:and|or|also|plus|then)\s+/i, "")
    .replace(/^(?:for|about)\s+/i, "")
  if (item.length === 0) return undefined
  const optional = new RegExp(OPTIONAL_HINT.source, "i").test(item)
  const required = new RegExp(REQUIRED_HINT.source, "i").test(item)
  item = collapse(
    item
      .replace(OPTIONAL_HINT, " ")
      .replace(REQUIRED_HINT, " ")
      .replace(/\(\s*\)/g, "")
  )
    .replace(/^(?:be\s+)?(?:and|or)\s+/i, "")
    .replace(/[,\s]+$/, "")
  // Choices: a trailing "one of …" list, or a parenthesised list.
  let choices: Array<string> | undefined
  let many = CHECKBOX_HINT.test(item)
  const oneOf = ONE_OF.exec(item)
  if (oneOf !== null && oneOf.index > 0) {
    const found = splitChoices(oneOf[1]!)
    if (found.length >= 2) {
      if (/\bany\s+of\b|\b(?:select|tick|check|choose|pick)\s+(?:all|any)\b/i.test(oneOf[0])) many = true
      choices = found
      item = item.slice(0, oneOf.index)
    }
  }
  if (choices === undefined) {
    const [label, list] = splitOutside(item, /^:\s*/)
    const found = list === undefined ? [] : splitChoices(list)
    if (label !== undefined && found.length >= 2) {
      choices = found
      item = label
    }
  }
  if (choices === undefined) {
    const paren = /\(([^()]*(?:,|\bor\b|\/)[^()]*)\)/i.exec(item)
    if (paren !== null && !/^\s*(?:e\.g\.?|eg|i\.e\.?|such\s+as|like)\b/i.test(paren[1]!)) {
      const found = splitChoices(paren[1]!)
      if (found.length >= 2 && !found.every((choice) => /^\d+$/.test(choice))) {
        choices = found
        item = collapse(item.slice(0, paren.index) + item.slice(paren.index + paren[0].length))
      }
    }
  }
  item = item
    .replace(CHECKBOX_HINT, " ")
    .replace(/\(\s*(?:that\s+apply)?\s*\)/gi, "")
    .replace(/\s+that\s+apply\b/i, "")
  item = collapse(item)
    .replace(/[,:;\s]+$/, "")
    .replace(/\s+(?:from|of|between)$/i, "")
  if (item.length === 0 || /^(?:etc|and so on|more|others?|things|stuff|details|info(?:rmation)?)$/i.test(item))
    return undefined
  const lower = item.toLowerCase()
  const isRequired = optional
    ? false
    : required
      ? true
      : (context.allRequired ??
        (EMAIL_HINT.test(lower) || /^(?:(?:their|your|the|full)\s+)*(?:full\s+)?name$/i.test(lower)))
  const make = (type: TypeOf, label: string, options: Draft["options"] = null): Draft => ({
    type: type.type,
    label,
    required: isRequired,
    options
  })

  if (choices !== undefined) {
    // "…, or other" asks for Other with its text box rather than a choice called Other.
    const listed = choices.length
    choices = choices.filter((c) => !OTHER_CHOICE.test(c))
    const other = choices.length < listed && choices.length > 0 ? { allowOther: true } : {}
    if (isYesNo(choices)) return make(Types.YesNo, labelOf(item))
    if (RANKING_HINT.test(item)) return make(Types.Ranking, labelOf(item), { choices: choices.slice(0, 20) })
    if (MATRIX_HINT.test(item)) {
      return make(Types.Matrix, labelOf(item), {
        rows: choices,
        columns: [...LIKERT],
        ...(many ? { multiple: true } : {})
      })
    }
    return many
      ? make(Types.Checkboxes, labelOf(item), { choices, ...other })
      : make(Types.Select, labelOf(item), { choices, ...other })
  }
  // A type that says how it is heard (its module, `forms/questions/`), before the phrasing of the others.
  const heard = Types.heardIn(item)
  if (heard !== undefined) return make(heard, labelOf(item), heard.options)
  if (SIGNATURE_HINT.test(lower)) {
    const label = /\bsignatures?\b/i.test(item) ? labelOf(item) : "Signature"
    return { ...make(Types.Signature, label), required: !optional }
  }
  if (FILE_HINT.test(lower) && !/\b(?:link|url)\b/.test(lower)) {
    const accept = IMAGE_HINT.test(lower) ? ["image/*"] : DOC_HINT.test(lower) ? [".pdf", ".doc", ".docx"] : undefined
    const label = labelOf(
      item.replace(
        /^(?:(?:let\s+(?:them|people|users)\s+)?(?:to\s+)?(?:upload|attach)\s+(?:(?:a|an|the|their|your)\s+)?)/i,
        ""
      )
    )
    return make(Types.File, label, accept === undefined ? null : { accept })
  }
  if (LEGAL_HINT.test(lower)) return { ...make(Types.Legal, labelOf(item)), required: !optional }
  if (CONTACT_HINT.test(lower)) return make(Types.Contact, labelOf(item))
  if (ADDRESS_HINT.test(lower)) return make(Types.Address, labelOf(item))
  if (NPS_HINT.test(lower)) return make(Types.Nps, labelOf(item))
  if (SLIDER_HINT.test(lower)) {
    const label = labelOf(
      item
        .replace(/\s*\(?\b(?:from\s+|on\s+a\s+)?0\s*(?:-|–|to)\s*100\)?/i, "")
        .replace(/\s*\(?\b(?:on\s+|with\s+)?a\s+slider\)?/i, "")
    )
    return make(Types.Slider, label, null)
  }
  if (RATING_HINT.test(lower) && !NUMBER_HINT.test(lower.replace(/\bout\s+of\b/, ""))) {
    const range =
      /\b(\d{1,2})\s*(?:-|–|to)\s*(\d{1,2})\b/.exec(lower) ??
      /\bout\s+of\s+(\d{1,2})\b()/.exec(lower) ??
      /\b(\d{1,2})\s*stars?\b()/.exec(lower)
    const top = range === null ? 5 : Number(range[2] === "" || range[2] === undefined ? range[1] : range[2])
    const max = Math.min(10, Math.max(2, top))
    const label = labelOf(
      item
        .replace(/\s*\(?\b(?:from\s+|on\s+a\s+scale\s+(?:of\s+)?(?:from\s+)?)?\d{1,2}\s*(?:-|–|to)\s*\d{1,2}\)?/i, "")
        .replace(/\s*\(?\bout\s+of\s+\d{1,2}\)?/i, "")
        .replace(/\s*\(?\b\d{1,2}\s*stars?\)?/i, "")
        .replace(/^(?:to\s+)?rate\s+/i, "Rating of ")
    )
    return make(Types.Rating, label, { max })
  }
  if (YES_NO_HINT.test(lower)) {
    return make(Types.YesNo, labelOf(item.replace(/\s*\(?\byes\s*(?:or|\/)\s*no\)?\s*(?:question)?/i, "")))
  }
  if (EMAIL_HINT.test(lower)) return make(Types.Email, labelOf(item))
  if (TEL_HINT.test(lower)) return make(Types.Tel, labelOf(item))
  if (URL_HINT.test(lower)) return make(Types.Url, labelOf(item))
  if (NUMBER_HINT.test(lower)) {
    const nonNegative =
      /\bhow\s+(?:many|much|old|long|often)\b|\bnumber\s+of\b|\bage\b|\bquantity\b|\bamount\b|\bbudget\b|\byears\b|\bcount\b|\bheadcount\b/.test(
        lower
      )
    return make(Types.NumberType, labelOf(item), nonNegative ? { min: 0 } : null)
  }
  if (DATETIME_HINT.test(lower)) return make(Types.DateTimeType, labelOf(item))
  if (TIME_HINT.test(lower)) return make(Types.TimeType, labelOf(item))
  if (DATE_HINT.test(lower)) return make(Types.DateType, labelOf(item))
  if (LONG_HINT.test(lower)) return make(Types.LongText, labelOf(item))
  return make(Types.ShortText, labelOf(item))
}

/** Joins the words of "date and time" (one thing to ask) so that the list is not split inside it. */
const JOINER = "\u2060"

/** The things a list clause names: "name, email, phone and company". */
const itemsOf = (list: string): Array<string> =>
  splitOutside(
    list.replace(/\bdate\s+(?:and|&)\s+time\b/gi, (phrase) => phrase.replace(/\s+/g, JOINER)),
    /^(?:\s*,\s*(?:and\s+|plus\s+|as\s+well\s+as\s+)?|\s*;\s*|\s+and\s+(?!so\s+on)|\s+as\s+well\s+as\s+|\s+plus\s+|\s*&\s*)/i
  ).map((item) => item.replaceAll(JOINER, " "))

const OPENS_LIST =
  /^(?:one\s+of|which\s+of|either|choose\s+(?:one\s+)?from|pick\s+(?:one\s+)?from|options?(?:\s+are)?\s*:)/i

/** Where a choice list starts in an item ("one of …", or "label: a"), or -1. */
const choiceListStart = (item: string): number => {
  const oneOf = ONE_OF.exec(item)
  if (oneOf !== null) return oneOf.index + oneOf[0].length - oneOf[1]!.length
  const colon = /:\s*(?=\S)/.exec(item)
  return colon === null ? -1 : colon.index + colon[0].length
}

/**
 * Joins back the items of a choice list that the comma split apart: "size,
 * one of S, M, L or XL, and …" or "which sessions (select all that apply):
 * Keynote, Panel, Lab". A list ends at the item holding its "or", or at the
 * end of the sentence; a list opening an item ("one of S") belongs to the item before.
 */
const rejoinChoiceLists = (items: ReadonlyArray<string>): Array<string> => {
  const out: Array<string> = []
  for (let i = 0; i < items.length; i++) {
    let item = items[i]!
    const start = choiceListStart(item)
    if (start < 0 || /\)\s*$/.test(item)) {
      out.push(item)
      continue
    }
    while (!/\s(?:or|and)\s/i.test(item.slice(start)) && i + 1 < items.length) item = `${item}, ${items[++i]!}`
    if (OPENS_LIST.test(item) && out.length > 0) out.push(`${out.pop()!}, ${item}`)
    else out.push(item)
  }
  return out
}

const GLOBAL_REQUIRED =
  /\b(?:all|every|each)\s+(?:of\s+the\s+)?(?:fields?|questions?|answers?)\s+(?:are|is|should\s+be|must\s+be)\s+(?:required|mandatory|compulsory)\b|\beverything\s+(?:is\s+)?(?:required|mandatory)\b|\bmake\s+(?:them\s+)?all\s+required\b/i
const GLOBAL_OPTIONAL =
  /\b(?:all|every|each)\s+(?:of\s+the\s+)?(?:fields?|questions?|answers?)\s+(?:are|is|should\s+be|can\s+be)\s+optional\b|\beverything\s+(?:is\s+)?optional\b|\bnothing\s+(?:is\s+)?required\b|\bmake\s+(?:them\s+)?all\s+optional\b/i

/** "Course feedback: …": a short heading before a colon, then what follows it. */
const HEADING = /^([^:?.()]{2,80}):\s+(.+)$/

/** The things a list names, one clause ("whether …") or several ("name, email and …"). */
const listItems = (rest: string): Array<string> =>
  /^(?:whether|if)\b/i.test(rest) && !/,/.test(rest)
    ? [rest]
    : rejoinChoiceLists(
        itemsOf(
          rest.replace(/^(?:(?:the\s+)?following(?:\s+(?:fields?|questions?|information|details))?\s*:?\s*)/i, "")
        )
      )

const isMeta = (text: string) =>
  META.test(text) || ((GLOBAL_REQUIRED.test(text) || GLOBAL_OPTIONAL.test(text)) && !LIST_TRIGGER.test(text))

/** Phrases that are about the form, not things to ask. */
const META =
  /^(?:all|every|each|everything|nothing|make\s+(?:them|it)|the\s+form\s+(?:should|must|is)|it\s+should|keep\s+it)\b/i

/**
 * Turns a description into a form, or says why it cannot (no question found).
 *
 * @example
 * ```ts
 * const form = OfflineFormGenerator.generate("A job application. Ask for name, email, phone and a CV upload.")
 * // Result.succeed({ title: "Job application", description: null, fields: [ { type: "short_text", label: "Name", … }, … ] })
 * ```
 */
export const generate = (prompt: string): Result.Result<OfflineForm, string> => {
  const sentences = sentencesOf(prompt)
  const whole = collapse(prompt)
  const kind = kinds.find((candidate) => candidate.pattern.test(whole))
  const allRequired = GLOBAL_REQUIRED.test(whole) ? true : GLOBAL_OPTIONAL.test(whole) ? false : undefined
  const drafts: Array<Draft> = []
  const add = (draft: Draft | undefined) => {
    if (draft === undefined || draft.label.length === 0) return
    if (drafts.some((existing) => existing.label.toLowerCase() === draft.label.toLowerCase())) return
    drafts.push(draft)
  }
  for (const [index, { text, bullet }] of sentences.entries()) {
    const headingMatch = HEADING.exec(text)
    const heading = headingMatch !== null && !LIST_TRIGGER.test(`${headingMatch[1]!} `) ? headingMatch : null
    const body = heading === null ? text : heading[2]!
    if (isMeta(text) || isMeta(body)) continue
    const context = { allRequired }
    // "Rate each of the following: a, b, c" (a matrix) or "Rank these: a, b, c" (a ranking) is one
    // question, not a list of things to ask.
    const isGrid = (t: string) => MATRIX_HINT.test(t) || RANKING_HINT.test(t)
    const matrixText = isGrid(body) ? body : isGrid(text) ? text : undefined
    if (!bullet && matrixText !== undefined && /:\s*\S/.test(matrixText)) {
      add(questionOf(matrixText.replace(/[.!]+$/, ""), context))
      continue
    }
    if (bullet) {
      add(questionOf(text, context))
      continue
    }
    const trigger = LIST_TRIGGER.exec(body)
    if (trigger !== null && (trigger.index === 0 || !body.endsWith("?"))) {
      let rest = body.slice(trigger.index + trigger[0].length).replace(/[.!]+$/, "")
      for (let again = LIST_TRIGGER.exec(rest); again !== null && again.index === 0; again = LIST_TRIGGER.exec(rest)) {
        rest = rest.slice(again[0].length)
      }
      for (const item of listItems(rest)) add(questionOf(item, context))
      continue
    }
    if (heading !== null) {
      // "Course feedback: rate the course out of 10, what did they like most, …"
      for (const item of listItems(body.replace(/[.!]+$/, ""))) add(questionOf(item, context))
      continue
    }
    if (text.endsWith("?")) {
      add(questionOf(text, context))
      continue
    }
    // A sentence with a strong hint of its own: "Let them rate the venue out of 10."
    if (index > 0 && (RATING_HINT.test(text) || FILE_HINT.test(text) || /^(?:also\s+)?(?:whether|if)\b/i.test(text))) {
      add(
        questionOf(
          text.replace(/^(?:also|and|then)\s+/i, "").replace(/^let\s+(?:them|people|respondents|users)\s+/i, ""),
          context
        )
      )
    }
  }
  const fields = (drafts.length > 0 ? drafts : (kind?.questions() ?? [])).slice(0, MAX_QUESTIONS)
  if (fields.length === 0) {
    return Result.fail(
      "the offline form generator found nothing to ask in the description: list the questions, " +
        'e.g. "A contact form. Ask for name, email and a message." (or configure a language model)'
    )
  }
  return Result.match(decodeFields(fields), {
    onFailure: (issue) => Result.fail(`the offline form generator wrote an invalid question: ${issue.message}`),
    onSuccess: (decoded) =>
      Result.succeed({ title: titleOf(sentences[0]?.text, kind), description: null, fields: decoded })
  })
}

const decodeFields = Schema.decodeUnknownResult(Schema.Array(FieldInput))
