/**
 * What several question types read from the public page's post (the page
 * without JavaScript posts texts; see `QuestionType.parse`): a number, a yes
 * or no, an upload's answer, and the values posted under a name.
 *
 * @module
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { FileAnswer } from "./AnswerShapes.ts"
import type { Posted } from "./QuestionType.ts"

const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i

/** A number as typed: its value when it reads as one, the text otherwise (for the check to name), none when blank. */
export const postedNumber = (answers: ReadonlyArray<string>): unknown => {
  const first = (answers[0] ?? "").trim()
  return first === "" ? undefined : NUMBER.test(first) ? Number(first) : first
}

/** A yes or no as posted (`yes`, `no`): its boolean, the text otherwise, none when blank. */
export const postedBoolean = (answers: ReadonlyArray<string>): unknown => {
  const first = (answers[0] ?? "").trim()
  return first === "yes" ? true : first === "no" ? false : first === "" ? undefined : first
}

/** Reads a file answer from its JSON text (what the upload route gave the page). */
export const decodeFileAnswer = Schema.decodeUnknownResult(Schema.fromJsonString(FileAnswer))

/** An upload's answer as the page posts it (its JSON, from the upload route); the text as posted when it is not one. */
export const postedUpload = (answers: ReadonlyArray<string>): unknown => {
  const first = (answers[0] ?? "").trim()
  if (first === "") return undefined
  const file = decodeFileAnswer(first)
  return Result.isSuccess(file) ? file.success : first
}

/** The non-blank values posted as `a.<name>` (own keys only: a matrix row or choice may be called "constructor"). */
export const postedUnder = (parts: Posted, name: string): ReadonlyArray<string> =>
  (Object.hasOwn(parts, name) ? (parts[name] ?? []) : []).filter((v) => v.trim() !== "")
