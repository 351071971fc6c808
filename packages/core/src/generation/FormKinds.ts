/**
 * The kinds of forms the offline generator recognises in a description
 * (contact, RSVP, event registration, job application, feedback, NPS, bug
 * report, newsletter sign-up, order, booking, support request, survey), with
 * the title and the usual questions of each, for a description that lists
 * nothing to ask. The questions are of the type modules (`forms/questions/`).
 *
 * @module
 */
import { type FieldInput, QuestionTypes as Types } from "../forms/index.ts"

/** A question as the offline generator writes it. */
export type Draft = {
  type: FieldInput["type"]
  label: string
  required: boolean
  options: Record<string, unknown> | null
}

/** A question of a type (its module, `forms/questions/`). */
export type TypeOf = { readonly type: Draft["type"] }

const q = (type: TypeOf, label: string, required: boolean, options: Draft["options"] = null): Draft => ({
  type: type.type,
  label,
  required,
  options
})

/** A kind of form: what its description says, its title, and the questions it usually asks. */
export interface Kind {
  readonly pattern: RegExp
  readonly title: string
  readonly questions: () => Array<Draft>
}

/** Recognised kinds, most specific first. */
export const kinds: ReadonlyArray<Kind> = [
  {
    pattern: /\b(?:nps|net promoter)\b|\blikely\b.*\brecommend\b/i,
    title: "Net Promoter Score survey",
    questions: () => [
      q(Types.Nps, "How likely are you to recommend us to a friend or colleague?", true),
      q(Types.LongText, "What is the main reason for your score?", false)
    ]
  },
  {
    pattern: /\b(?:bug|defect|crash|issue report|problem report)\b/i,
    title: "Bug report",
    questions: () => [
      q(Types.ShortText, "Summary", true),
      q(Types.LongText, "Steps to reproduce", true),
      q(Types.LongText, "What did you expect to happen, and what happened instead?", true),
      q(Types.Select, "Severity", true, { choices: ["Low", "Medium", "High", "Critical"] }),
      q(Types.File, "Screenshot", false, { accept: ["image/*"] }),
      q(Types.Email, "Email", false)
    ]
  },
  {
    pattern:
      /\b(?:job|position|role|vacancy|hiring|recruit\w*|career|applicants?|candidates?)\b.*\bappl\w*|\bappl\w*\b.*\b(?:job|position|role|vacancy)\b|\bjob application\b/i,
    title: "Job application",
    questions: () => [
      q(Types.ShortText, "Full name", true),
      q(Types.Email, "Email", true),
      q(Types.Tel, "Phone number", false),
      q(Types.Url, "LinkedIn profile", false),
      q(Types.File, "CV", true, { accept: [".pdf", ".doc", ".docx"] }),
      q(Types.LongText, "Why do you want this role?", false)
    ]
  },
  {
    pattern: /\brsvp\b|\b(?:wedding|party|dinner|celebration)\b.*\b(?:attend|invit\w*|guests?)\b/i,
    title: "RSVP",
    questions: () => [
      q(Types.ShortText, "Name", true),
      q(Types.Email, "Email", true),
      q(Types.YesNo, "Will you attend?", true),
      q(Types.NumberType, "How many guests will you bring?", false, { min: 0 }),
      q(Types.LongText, "Dietary requirements", false)
    ]
  },
  {
    pattern:
      /\b(?:event|conference|workshop|webinar|meetup|course|class|seminar)\b.*\b(?:registration|register|sign[ -]?up|enrol\w*)\b|\b(?:registration|register|sign[ -]?up)\b.*\b(?:event|conference|workshop|webinar|meetup|seminar)\b/i,
    title: "Event registration",
    questions: () => [
      q(Types.ShortText, "Full name", true),
      q(Types.Email, "Email", true),
      q(Types.ShortText, "Company", false),
      q(Types.LongText, "Dietary or accessibility needs", false)
    ]
  },
  {
    pattern:
      /\b(?:course|class|lecture|training|workshop|teacher|instructor)\b.*\bfeedback\b|\bfeedback\b.*\b(?:course|class|lecture|training|workshop)\b/i,
    title: "Course feedback",
    questions: () => [
      q(Types.Rating, "Overall, how would you rate the course?", true, { max: 5 }),
      q(Types.Rating, "How would you rate the instructor?", false, { max: 5 }),
      q(Types.LongText, "What did you like most?", false),
      q(Types.LongText, "What could be improved?", false)
    ]
  },
  {
    pattern: /\b(?:feedback|satisfaction|survey|review|opinion)\b/i,
    title: "Feedback",
    questions: () => [
      q(Types.Rating, "Overall, how satisfied are you?", true, { max: 5 }),
      q(Types.LongText, "What did you like?", false),
      q(Types.LongText, "What could we improve?", false),
      q(Types.Email, "Email", false)
    ]
  },
  {
    pattern: /\b(?:support|help ?desk|ticket|customer service)\b/i,
    title: "Support request",
    questions: () => [
      q(Types.ShortText, "Name", true),
      q(Types.Email, "Email", true),
      q(Types.ShortText, "Subject", true),
      q(Types.LongText, "How can we help?", true),
      q(Types.File, "Attachment", false)
    ]
  },
  {
    pattern: /\b(?:newsletter|mailing list|subscribe|subscription|waitlist|wait list|sign[ -]?up)\b/i,
    title: "Sign-up",
    questions: () => [
      q(Types.ShortText, "Name", false),
      q(Types.Email, "Email", true),
      q(Types.Legal, "I agree to receive e-mails from you and know I can unsubscribe at any time", true)
    ]
  },
  {
    pattern: /\b(?:booking|reservation|appointment|book a|reserve)\b/i,
    title: "Booking request",
    questions: () => [
      q(Types.ShortText, "Name", true),
      q(Types.Email, "Email", true),
      q(Types.Tel, "Phone number", false),
      q(Types.DateType, "Preferred date", true),
      q(Types.NumberType, "Number of people", false, { min: 1 }),
      q(Types.LongText, "Anything we should know?", false)
    ]
  },
  {
    pattern: /\b(?:order|purchase|quote request|request a quote)\b/i,
    title: "Order",
    questions: () => [
      q(Types.ShortText, "Name", true),
      q(Types.Email, "Email", true),
      q(Types.ShortText, "Product", true),
      q(Types.NumberType, "Quantity", true, { min: 1 }),
      q(Types.Address, "Delivery address", true),
      q(Types.LongText, "Notes", false)
    ]
  },
  {
    pattern: /\b(?:intake|onboarding|new client|new customer|lead)\b/i,
    title: "Customer intake",
    questions: () => [
      q(Types.ShortText, "Full name", true),
      q(Types.Email, "Email", true),
      q(Types.Tel, "Phone number", false),
      q(Types.ShortText, "Company", false),
      q(Types.LongText, "What do you need help with?", true)
    ]
  },
  {
    pattern: /\b(?:contact|get in touch|enquir\w*|inquir\w*|reach (?:us|out))\b/i,
    title: "Contact",
    questions: () => [
      q(Types.ShortText, "Name", true),
      q(Types.Email, "Email", true),
      q(Types.LongText, "Message", true)
    ]
  }
]
