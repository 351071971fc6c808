/**
 * Sensitive questions (an extension): a question marked `sensitive: true`
 * keeps its answers inside the workspace. They are left out of what leaves
 * it — webhook posts and notifications unless the receiver allows them
 * (`includeSensitive`), respondents' e-mails always — and masked for viewers
 * in every read (API, exports, MCP, the application). Owners, admins and
 * members see them.
 *
 * Everything here is pure: no I/O, no clock, no exceptions.
 *
 * @module
 */
import type { Actor } from "../kernel/index.ts"
import type { AnswerValue } from "./Answers.ts"

/**
 * What a viewer reads in place of a sensitive answer (in `values`, flat
 * `answers`, the summary, CSV and XLSX cells).
 *
 * @example
 * ```ts
 * MASK // "•••"
 * ```
 */
export const MASK = "•••"

/**
 * What a webhook post, a notification or a respondent's e-mail says in place
 * of a sensitive answer left out.
 *
 * @example
 * ```ts
 * LEFT_OUT // "(sensitive, not included)"
 * ```
 */
export const LEFT_OUT = "(sensitive, not included)"

/**
 * Whether a question is marked sensitive.
 *
 * @example
 * ```ts
 * isSensitive({ sensitive: true }) // true
 * isSensitive({}) // false
 * ```
 */
export const isSensitive = (field: { readonly sensitive?: boolean | undefined }): boolean => field.sensitive === true

/**
 * The ids of a form's sensitive questions.
 *
 * @example
 * ```ts
 * sensitiveIds([{ id: 3, sensitive: true }, { id: 4 }]) // [3]
 * ```
 */
export const sensitiveIds = (
  fields: ReadonlyArray<{ readonly id: number; readonly sensitive?: boolean | undefined }>
): ReadonlyArray<number> => fields.filter(isSensitive).map((f) => f.id)

/**
 * Whether an actor reads sensitive answers masked: a viewer (by their session
 * or an API key of theirs). Owners, admins, members and the system read them.
 *
 * @example
 * ```ts
 * readsMasked({ ...actor, role: "viewer" }) // true
 * ```
 */
export const readsMasked = (actor: Pick<Actor, "kind" | "role">): boolean =>
  actor.kind !== "system" && actor.role === "viewer"

/**
 * The answers with each answered sensitive question's answer replaced by
 * `text` ({@link MASK} or {@link LEFT_OUT}), and the ids of those replaced.
 * The same object when nothing is sensitive or answered.
 *
 * @example
 * ```ts
 * maskValues([{ id: 3, sensitive: true }], { "3": "AB12", "4": "x" }, MASK)
 * // { values: { "3": "•••", "4": "x" }, masked: [3] }
 * ```
 */
export const maskValues = (
  fields: ReadonlyArray<{ readonly id: number; readonly sensitive?: boolean | undefined }>,
  values: Readonly<Record<string, AnswerValue>>,
  text: string
): { readonly values: Readonly<Record<string, AnswerValue>>; readonly masked: ReadonlyArray<number> } => {
  const masked = sensitiveIds(fields).filter((id) => Object.hasOwn(values, String(id)))
  if (masked.length === 0) return { values, masked }
  const copy: Record<string, AnswerValue> = { ...values }
  for (const id of masked) copy[String(id)] = text
  return { values: copy, masked }
}
