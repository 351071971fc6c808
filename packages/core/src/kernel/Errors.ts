/**
 * The errors every concept shares: bad input and a missing permission. Each
 * concept's own "not found" error lives in its module. The HTTP layer maps
 * these to statuses in one place.
 */
import * as Schema from "effect/Schema"

/** One problem with one input value: where (`path`, e.g. `values.12`) and what. */
export const Issue = Schema.Struct({
  path: Schema.String,
  message: Schema.String
})
export type Issue = typeof Issue.Type

/**
 * The input was understood but is not acceptable (a limit, a reference to
 * something of another form, an invalid answer). Answered as 400.
 *
 * @example
 * ```ts
 * new InvalidInput({ message: "stageId: stage 9 does not belong to form 3" })
 * ```
 */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  message: Schema.String,
  details: Schema.optional(Schema.Array(Issue))
}) {}

/**
 * The actor may not do this (a viewer writing, a member managing keys).
 * Answered as 403.
 */
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  message: Schema.String
}) {}

/**
 * The change conflicts with the current state (a submission to a form that is
 * not published). Answered as 409.
 */
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", {
  message: Schema.String
}) {}

/**
 * No such form in the actor's workspace (whether it exists in another one is
 * never said). Answered as 404. Re-exported by `Forms.ts`; defined here
 * because stages and responses refer to forms too.
 */
export class FormNotFound extends Schema.TaggedError<FormNotFound>()("FormNotFound", {
  message: Schema.String
}) {}

/** No such response in the actor's workspace. Answered as 404. Re-exported by `Responses.ts`. */
export class ResponseNotFound extends Schema.TaggedError<ResponseNotFound>()("ResponseNotFound", {
  message: Schema.String
}) {}
