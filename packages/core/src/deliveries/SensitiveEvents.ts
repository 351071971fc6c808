/**
 * Event bodies without the answers of sensitive questions (see
 * `forms/Sensitive.ts`), as a webhook subscription or a notification channel
 * that does not allow them receives them: each such answer reads
 * "(sensitive, not included)" in `answers` and in its `summary` block, its
 * key is listed in `redacted`, and a `response.updated` change of it says so
 * in `from` and `to`. Done when a delivery is claimed, with the form's
 * questions as they are then: the stored event stays whole, so a receiver
 * allowed later still gets it.
 *
 * @module
 */
import { answerKeys, type Field, isSensitive, LEFT_OUT, takesAnswer } from "../forms/index.ts"
import type { EventBody } from "../events/index.ts"

/**
 * The body without the answers of the form's sensitive questions; the same
 * body when it carries none (or is not about a response).
 *
 * @example
 * ```ts
 * withoutSensitive(body, fields)
 * // { ...body, answers: { Name: "Ada", "ID number": "(sensitive, not included)" },
 * //   summary: "■ Name\nAda\n\n■ ID number\n(sensitive, not included)", redacted: ["ID number"] }
 * ```
 */
export const withoutSensitive = (body: EventBody, fields: ReadonlyArray<Field>): EventBody => {
  if (!("answers" in body) || !fields.some(isSensitive)) return body
  const keys = answerKeys(fields)
  const ordered = [...fields].filter(takesAnswer).sort((a, b) => a.position - b.position || a.id - b.id)
  const answers: Record<string, string> = { ...body.answers }
  let summary = body.summary
  let from = 0
  const redacted: Array<string> = []
  ordered.forEach((field, index) => {
    const key = keys[index]?.key
    if (key === undefined || !isSensitive(field) || !Object.hasOwn(answers, key)) return
    const block = `■ ${field.label}\n${answers[key]}`
    const at = summary.indexOf(block, from)
    if (at >= 0) {
      const replaced = `■ ${field.label}\n${LEFT_OUT}`
      summary = summary.slice(0, at) + replaced + summary.slice(at + block.length)
      from = at + replaced.length
    }
    answers[key] = LEFT_OUT
    redacted.push(key)
  })
  const ids = new Set(fields.filter(isSensitive).map((f) => f.id))
  const changes =
    "changes" in body
      ? body.changes.map((change) =>
          "questionId" in change && ids.has(change.questionId)
            ? {
                ...change,
                from: change.from === null ? null : LEFT_OUT,
                to: change.to === null ? null : LEFT_OUT
              }
            : change
        )
      : undefined
  const changed = changes?.some((change, i) => "changes" in body && change !== body.changes[i]) === true
  if (redacted.length === 0 && !changed) return body
  return {
    ...body,
    answers,
    summary,
    ...(redacted.length === 0 ? {} : { redacted }),
    ...(changes === undefined ? {} : { changes })
  } as EventBody
}
