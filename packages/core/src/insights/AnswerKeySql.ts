/**
 * The answer keys of `AnswerTallies.ts` as one SQL array expression per
 * response, written for a form's own questions: what a filtered summary counts
 * over the matching responses (`unnest` of the array, grouped).
 *
 * The tallies kept as responses arrive make the same keys with the database
 * function `qforms_answer_keys` (migration 0029), which must take any question
 * type; here each question's expression holds only what its type needs, which
 * counts about five times faster than calling the function per question and
 * response. The summary tests compare both ways for every question type.
 *
 * Each element is `<question id>|<key>` (question 0: the response itself), or
 * null.
 *
 * @module
 */
import type { Field } from "../forms/index.ts"
import { kindOf } from "./AnswerTallies.ts"

/** A SQL string literal. */
const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`

/** The SQL of one question's keys: scalars (each text or null) and arrays (sub-selects). */
const questionKeys = (field: Field): { readonly scalars: Array<string>; readonly arrays: Array<string> } => {
  const id = Number(field.id)
  if (!Number.isSafeInteger(id)) return { scalars: [], arrays: [] }
  const v = `(answers -> ${quoted(String(id))})`
  const prefix = (key: string) => quoted(`${id}|${key}`)
  const text = `(${v} #>> '{}')`
  const typed = (type: string) => `jsonb_typeof(${v}) = ${quoted(type)}`
  const scalars = [
    `case when case jsonb_typeof(${v}) when 'string' then btrim(${text}) <> '' ` +
      `when 'array' then jsonb_array_length(${v}) > 0 when 'object' then ${v} <> '{}'::jsonb ` +
      `when 'null' then false else ${v} is not null end then ${prefix("a")} end`
  ]
  const arrays: Array<string> = []
  const elements = (type: string) => `case when ${typed(type)} then ${v} else '[]'::jsonb end`
  switch (field.type) {
    case "select":
      scalars.push(`case when ${typed("string")} then ${prefix("c:")} || left(${text}, 200) end`)
      break
    case "checkboxes":
      arrays.push(
        `array(select ${prefix("c:")} || left(e, 200) from jsonb_array_elements_text(${elements("array")}) e)`
      )
      break
    case "yes_no":
    case "legal":
      scalars.push(`case when ${typed("boolean")} then ${prefix("c:")} || ${text} end`)
      break
    case "signature":
      scalars.push(
        `case when ${typed("object")} then ${prefix("c:")} || ` +
          `case when jsonb_exists(${v}, 'fileId') then 'drawn' else 'typed' end end`
      )
      break
    case "number":
    case "rating":
    case "nps":
    case "opinion_scale":
    case "slider":
      scalars.push(`case when ${typed("number")} then ${prefix("n:")} || ${text} end`)
      break
    case "matrix": {
      const rows = `jsonb_each(case when ${typed("object")} then ${v} else '{}'::jsonb end)`
      arrays.push(
        `array(select ${prefix("m:")} || left(r.key, 200) from ${rows} r where case jsonb_typeof(r.value) ` +
          `when 'array' then jsonb_array_length(r.value) > 0 when 'string' then true else false end)`,
        `array(select ${prefix("m:")} || left(r.key, 200) || chr(31) || left(c, 200) from ${rows} r ` +
          `cross join lateral jsonb_array_elements_text(case jsonb_typeof(r.value) when 'array' then r.value ` +
          `when 'string' then jsonb_build_array(r.value) else '[]'::jsonb end) c)`
      )
      break
    }
    case "ranking":
      arrays.push(
        `array(select ${prefix("r:")} || left(e.value, 200) || chr(31) || e.n ` +
          `from jsonb_array_elements_text(${elements("array")}) with ordinality e(value, n))`
      )
      break
    case "date":
    case "datetime":
      scalars.push(
        `case when ${typed("string")} and ${text} ~ '^[0-9]{4}-[0-9]{2}' then ${prefix("d:")} || left(${text}, 7) end`
      )
      break
    case "time":
      scalars.push(
        `case when ${typed("string")} and ${text} ~ '^[0-9]{2}:' then ${prefix("h:")} || left(${text}, 2) end`
      )
      break
    default:
      break
  }
  return { scalars, arrays }
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
