/**
 * The answer keys of `AnswerTallies.ts` as one SQL array expression per
 * response, written for a form's own questions: what a filtered summary counts
 * over the matching responses (`unnest` of the array, grouped).
 *
 * The tallies kept as responses arrive make the same keys with the database
 * function `qforms_answer_keys` (migration 0029), which must take any question
 * type; here each question's expression holds only what its type needs (its
 * module's `tallyKeys`, `forms/questions/`), which counts about five times
 * faster than calling the function per question and response. The summary
 * tests compare both ways for every question type.
 *
 * Each element is `<question id>|<key>` (question 0: the response itself), or
 * null.
 *
 * @module
 */
import { type Field, QuestionTypes, type TallyKeys } from "../forms/index.ts"
import { kindOf } from "./AnswerTallies.ts"

/** A SQL string literal. */
const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`

/** The SQL of one question's keys: `a` (answered), then its type's (scalars, each text or null; arrays, sub-selects). */
const questionKeys = (field: Field): TallyKeys => {
  const id = Number(field.id)
  if (!Number.isSafeInteger(id)) return { scalars: [], arrays: [] }
  const answer = `(answers -> ${quoted(String(id))})`
  const text = `(${answer} #>> '{}')`
  const key = (name: string) => quoted(`${id}|${name}`)
  const typed = (type: string) => `jsonb_typeof(${answer}) = ${quoted(type)}`
  const answered =
    `case when case jsonb_typeof(${answer}) when 'string' then btrim(${text}) <> '' ` +
    `when 'array' then jsonb_array_length(${answer}) > 0 when 'object' then ${answer} <> '{}'::jsonb ` +
    `when 'null' then false else ${answer} is not null end then ${key("a")} end`
  const own = QuestionTypes.typeOf(field).tallyKeys?.({
    answer,
    text,
    key,
    typed,
    elements: (type) => `case when ${typed(type)} then ${answer} else '[]'::jsonb end`
  })
  return { scalars: [answered, ...(own?.scalars ?? [])], arrays: [...(own?.arrays ?? [])] }
}

/** Seconds from opening the page to submitting, to two significant figures (as the tallies round them). */
const SECONDS = "round(extract(epoch from submitted_at - started_at))"
const BUCKET =
  `case when ${SECONDS} < 100 then ${SECONDS} ` +
  `else round(${SECONDS} / power(10, floor(log(${SECONDS})) - 1)) * power(10, floor(log(${SECONDS})) - 1) end`

/**
 * The text[] expression of a response's keys (its columns unqualified), for
 * `fields` (statements and questions without a summary left out).
 *
 * @example
 * ```ts
 * sql`select k, count(*) from responses cross join lateral unnest(${sql.literal(keyArraySql(fields))}) as k
 *   where form_id = ${formId} and k is not null group by k`
 * ```
 */
export const keyArraySql = (fields: ReadonlyArray<Field>): string => {
  const scalars = [
    "'0|n'",
    "'0|s:' || source",
    `case when started_at is not null and submitted_at >= started_at then '0|t:' || (${BUCKET})::bigint end`
  ]
  const arrays: Array<string> = []
  for (const field of fields) {
    if (kindOf(field.type) === undefined) continue
    const keys = questionKeys(field)
    scalars.push(...keys.scalars)
    arrays.push(...keys.arrays)
  }
  return [`array[${scalars.join(",\n")}]::text[]`, ...arrays].join("\n|| ")
}
