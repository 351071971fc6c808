/**
 * What the answer checks of several question types share: a check's outcome
 * (the answer, or the message naming the problem), texts, e-mail addresses
 * and phone numbers (a question of their own, or a contact's part), and
 * numbers within a range or on a step (numbers, ratings, scales, sliders).
 *
 * Everything here is pure: no I/O, no clock, no exceptions.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import * as Result from "effect/Result"
import type { MessageKey, MessageValues } from "../../languages/index.ts"
import type { Answer, Check } from "./QuestionType.ts"

/** The answer passes, in its stored form. */
export const ok = (value: Answer): Check => Result.succeed(value)

/** The answer is refused with a message (its key and values). */
export const bad = (key: MessageKey, values: MessageValues): Check => Result.fail({ key, values })

/**
 * The check of a text in a format (an e-mail address, a date): the text trimmed, kept when `valid`, else
 * refused with `key`'s message, which also answers what is no text.
 */
export const formatted =
  (key: MessageKey, valid: (s: string) => boolean) =>
  (_field: unknown, value: unknown, q: string): Check => {
    if (!Predicate.isString(value)) return bad(key, { q })
    const s = value.trim()
    return valid(s) ? ok(s) : bad(key, { q })
  }

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/
const TEL = /^[0-9 +\-().]{7,20}$/

/** A text of at most `max` characters, trimmed. */
export const text = (q: string, value: unknown, max: number): Check => {
  if (!Predicate.isString(value)) return bad("answer.text", { q })
  const s = value.trim()
  return s.length > max ? bad("answer.textMax", { q, max }) : ok(s)
}

/** An e-mail address: the `email` question's and a contact's e-mail part's check. */
export const isEmail = (s: string): boolean => s.length <= 254 && EMAIL.test(s)

/** A phone number of 7 digits or more: the `tel` question's and a contact's phone part's check. */
export const isPhone = (s: string): boolean => TEL.test(s) && s.replace(/\D/g, "").length >= 7

/** Whether `value` is `base` plus a whole number of `step`s (within the error of binary fractions). */
export const isOnStep = (value: number, base: number, step: number): boolean => {
  const q = (value - base) / step
  return Math.abs(q - Math.round(q)) <= 1e-9 * Math.max(1, Math.abs(q))
}

/** The message of a number off its step, counted from `base` (numbers and sliders). */
export const offStep = (q: string, base: number, step: number): Check =>
  base === 0 ? bad("answer.multipleOf", { q, step }) : bad("answer.plusMultipleOf", { q, base, step })

/** A number from `min` to `max` that is `min` plus a multiple of `step`: sliders. */
export const onScale = (q: string, value: unknown, min: number, max: number, step: number): Check => {
  if (!Predicate.isNumber(value) || !Number.isFinite(value)) return bad("answer.number", { q })
  if (value < min || value > max) return bad("answer.range", { q, min, max })
  return isOnStep(value, min, step) ? ok(value) : offStep(q, min, step)
}

/** A whole number from `min` to `max`: ratings and scales. */
export const wholeNumber = (q: string, value: unknown, min: number, max: number): Check =>
  Predicate.isNumber(value) && Number.isInteger(value) && value >= min && value <= max
    ? ok(value)
    : bad("answer.wholeRange", { q, min, max })
