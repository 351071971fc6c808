/**
 * The tally keys in SQL that several question types share (see
 * `QuestionType.TallyKeys`): a number (`n:<number>`), a yes or no
 * (`c:true`, `c:false`), the month of a date (`d:<yyyy-mm>`).
 *
 * @module
 */
import type { TallyKeys, TallySql } from "./QuestionType.ts"

/** `n:<number>` of a number answer (numbers, ratings, scales, sliders). */
export const numberKeys = ({ typed, key, text }: TallySql): TallyKeys => ({
  scalars: [`case when ${typed("number")} then ${key("n:")} || ${text} end`],
  arrays: []
})

/** `c:true` / `c:false` of a yes or no (yes/no and legal questions). */
export const booleanKeys = ({ typed, key, text }: TallySql): TallyKeys => ({
  scalars: [`case when ${typed("boolean")} then ${key("c:")} || ${text} end`],
  arrays: []
})

/** `d:<yyyy-mm>`: the month of a date or a date-time. */
export const monthKeys = ({ typed, key, text }: TallySql): TallyKeys => ({
  scalars: [
    `case when ${typed("string")} and ${text} ~ '^[0-9]{4}-[0-9]{2}' then ${key("d:")} || left(${text}, 7) end`
  ],
  arrays: []
})
