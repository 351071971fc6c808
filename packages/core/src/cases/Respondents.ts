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
import { stripBidiControls } from "../kernel/DisplayText.ts"
import { byPosition, type Field } from "../forms/Fields.ts"
import type { AnswerValue } from "../forms/Answers.ts"

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
 * Guesses who answered: `email` is the first answered `email` question; `name`
 * is the first answered `short_text` question labelled like a person's name
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
  const answerOf = (field: Field): string | null => {
    const key = String(field.id)
    const value = Object.hasOwn(values, key) ? values[key] : undefined
    if (!Predicate.isString(value)) return null
    const s = stripBidiControls(value).trim()
    return s === "" ? null : s
  }
  const firstAnswer = (predicate: (field: Field) => boolean): string | null => {
    for (const field of sorted) {
      if (predicate(field)) {
        const answer = answerOf(field)
        if (answer !== null) return answer
      }
    }
    return null
  }
  const email = firstAnswer((f) => f.type === "email")
  const textLabel = (labels: ReadonlySet<string>) => (f: Field) =>
    f.type === "short_text" && labels.has(normalizeLabel(f.label))
  const name =
    firstAnswer(textLabel(FULL_NAME_LABELS)) ??
    firstAnswer((f) => {
      if (f.type !== "short_text") return false
      const label = normalizeLabel(f.label)
      return NAME_PATTERN.test(label) && !NOT_A_PERSON_NAME.test(label)
    }) ??
    joinNames(firstAnswer(textLabel(FIRST_NAME_LABELS)), firstAnswer(textLabel(LAST_NAME_LABELS)))
  return { name, email }
}

const joinNames = (first: string | null, last: string | null): string | null =>
  first !== null && last !== null ? `${first} ${last}` : (first ?? last)
