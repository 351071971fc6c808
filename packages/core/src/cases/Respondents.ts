/**
 * Who answered: the respondent's name and e-mail address inferred from a
 * response's answers by the questions' types and labels, for the case's
 * contact and the inbox.
 *
 * Everything here is pure: no I/O, no clock, no exceptions.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import { stripBidiControls } from "../kernel/index.ts"
import { type AnswerValue, byPosition, type Field, partsOf, QuestionTypes } from "../forms/index.ts"

const FULL_NAME_LABELS: ReadonlySet<string> = new Set([
  "name",
  "full name",
  "your name",
  "your full name",
  "first and last name",
  "nom",
  "nombre",
  "name and surname"
])
const FIRST_NAME_LABELS: ReadonlySet<string> = new Set(["first name", "your first name", "given name", "forename"])
const LAST_NAME_LABELS: ReadonlySet<string> = new Set(["last name", "your last name", "surname", "family name"])
const NAME_PATTERN = /\b(full )?name\b/
const NOT_A_PERSON_NAME =
  /\b(company|organisation|organization|business|pet|project|team|first|last|given|family|middle|user|nick)\b/

const normalizeLabel = (label: string): string =>
  label
    .toLowerCase()
    .trim()
    .replace(/[\s:?*]+$/, "")
    .replace(/\s+/g, " ")

/**
 * Whether a question asks for an e-mail address: one whose answer is the
 * respondent's e-mail (an `email` question), or one asked in parts that
 * include the e-mail (a `contact` question).
 *
 * @example
 * ```ts
 * asksEmail({ type: "contact", options: null }) // true (name, e-mail and phone by default)
 * ```
 */
export const asksEmail = (field: Pick<Field, "type" | "options">): boolean =>
  QuestionTypes.typeOf(field).respondent?.email === true || partsOf(field).some((part) => part.name === "email")

/** The text answer of a question, or the given part of an answer in parts (a contact's), trimmed; null when there is none. */
const textAnswer = (values: Readonly<Record<string, AnswerValue>>, field: Field, part: string): string | null => {
  const key = String(field.id)
  const answer = Object.hasOwn(values, key) ? values[key] : undefined
  const value =
    partsOf(field).length > 0 && Predicate.isObject(answer)
      ? new Map<string, unknown>(Object.entries(answer)).get(part)
      : answer
  if (!Predicate.isString(value)) return null
  const s = stripBidiControls(value).trim()
  return s === "" ? null : s
}

/**
 * The respondent's e-mail address and the question it came from: the first
 * answered `email` question, or `contact` question with its e-mail part, in
 * position order (the `email` of {@link deriveRespondent}).
 *
 * @example
 * ```ts
 * respondentEmailOf(fields, { "2": "ada@example.com" }) // { field: <question 2>, email: "ada@example.com" }
 * ```
 */
export const respondentEmailOf = (
  fields: ReadonlyArray<Field>,
  values: Readonly<Record<string, AnswerValue>>
): { readonly field: Field; readonly email: string } | undefined => {
  for (const field of byPosition(fields)) {
    const email = asksEmail(field) ? textAnswer(values, field, "email") : null
    if (email !== null) return { field, email }
  }
  return undefined
}

/**
 * Guesses who answered: `email` is the e-mail of the first answered `email`
 * or `contact` question; `name` is the name of the first answered `contact`
 * question, else the first answered `short_text` question labelled like a person's name
 * ("Name", "Full name", "Your name", "Nom", …), else one whose label contains
 * "name" but not company/organisation/business/pet/project/team, else the
 * "First name" and "Last name" answers joined by a space.
 *
 * @example
 * ```ts
 * deriveRespondent(fields, { "1": "Ada Lovelace", "2": "ada@example.com" })
 * // { name: "Ada Lovelace", email: "ada@example.com" }
 * ```
 */
export const deriveRespondent = (
  fields: ReadonlyArray<Field>,
  values: Readonly<Record<string, AnswerValue>>
): { name: string | null; email: string | null } => {
  const sorted = byPosition(fields)
  const firstAnswer = (predicate: (field: Field) => boolean, part = ""): string | null => {
    for (const field of sorted) {
      if (predicate(field)) {
        const answer = textAnswer(values, field, part)
        if (answer !== null) return answer
      }
    }
    return null
  }
  const email = respondentEmailOf(fields, values)?.email ?? null
  const textLabel = (labels: ReadonlySet<string>) => (f: Field) =>
    namedByLabel(f) && labels.has(normalizeLabel(f.label))
  const name =
    firstAnswer((f) => partsOf(f).some((part) => part.name === "name"), "name") ??
    firstAnswer(textLabel(FULL_NAME_LABELS)) ??
    firstAnswer((f) => {
      if (!namedByLabel(f)) return false
      const label = normalizeLabel(f.label)
      return NAME_PATTERN.test(label) && !NOT_A_PERSON_NAME.test(label)
    }) ??
    joinNames(firstAnswer(textLabel(FIRST_NAME_LABELS)), firstAnswer(textLabel(LAST_NAME_LABELS)))
  return { name, email }
}

/** Whether a question's answer may be a person's name when its label says so (a short text's). */
const namedByLabel = (field: Field): boolean => QuestionTypes.typeOf(field).respondent?.nameByLabel === true

const joinNames = (first: string | null, last: string | null): string | null =>
  first !== null && last !== null ? `${first} ${last}` : (first ?? last)
