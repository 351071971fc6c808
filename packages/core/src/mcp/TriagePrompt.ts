/**
 * The MCP prompt `triage_new_responses`: walks an assistant through a form's
 * open cases with the tools.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type * as SchemaIssue from "effect/SchemaIssue"
import { type Actors, Id } from "../kernel/index.ts"
import { Forms } from "../forms/index.ts"
import { describeIssue } from "../web/index.ts"

import { parseOptions } from "./McpTool.ts"

/** The prompt's name. */
export const triagePromptName = "triage_new_responses"

/** The prompt's arguments, as MCP lists them. */
export const triagePromptArguments = [
  {
    name: "formId",
    description:
      "The numeric id of the form whose new responses to triage (from list_forms). Without it, every published form.",
    required: false
  }
]

/** The prompt's argument Schema (MCP prompt arguments are strings). */
const TriageArguments = Schema.Struct({
  formId: Schema.optionalKey(Schema.NumberFromString.pipe(Schema.decodeTo(Id)))
})

/** Bad prompt arguments (answered as a JSON-RPC invalid-params error). */
export class InvalidPromptArguments extends Schema.TaggedError<InvalidPromptArguments>()("InvalidPromptArguments", {
  message: Schema.String
}) {}

/**
 * `triage_new_responses`: walks an assistant through the open cases of a
 * form (or of every published form): read each, pick a stage and an
 * assignee, tag it, and leave a note saying why.
 */
export const makeTriagePrompt = Effect.gen(function* () {
  const forms = yield* Forms
  return (actor: Actors.Actor, args: unknown) =>
    Effect.gen(function* () {
      const decoded = yield* Schema.decodeUnknownEffect(
        TriageArguments,
        parseOptions
      )(args ?? {}).pipe(
        Effect.mapError(
          (error) =>
            new InvalidPromptArguments({
              message: describeIssue(error.issue as SchemaIssue.Issue, "arguments", true).error
            })
        )
      )
      const scope =
        decoded.formId === undefined
          ? "every published form of the workspace (find them with list_forms)"
          : yield* Effect.map(
              forms.getSummary(actor, decoded.formId),
              (form) => `the form "${form.title}" (formId ${form.id}, ${form.responseCount} responses)`
            )
      const text = [
        `Triage the new responses of ${scope}.`,
        "",
        "1. Call list_stages for the form and list_members, so you know the stage ids and who can take a case.",
        '2. Call list_responses with `stage: "none"` (responses not triaged yet), and again with the first stage ' +
          '(usually "New") and `assignee: "none"`. Page with `nextCursor` until it is null.',
        "3. For each response, call get_response and read the answers and any earlier notes.",
        "4. Decide: the stage it belongs in, who should handle it (by what they answered and who handles what), " +
          'and a few short tags (e.g. "urgent", "billing"). Do not invent facts the answers do not give.',
        "5. Call update_response with `stageId`, `assigneeId` and `tags`, then add_note with one or two sentences " +
          "saying why you triaged it that way.",
        "6. If a tool answers that the key may only read, stop and report what you would have done instead.",
        "",
        "Finish with a short summary: how many responses you triaged, to whom, and anything that needs a person."
      ].join("\n")
      return {
        description: `Triage the new responses of ${scope}`,
        messages: [{ role: "user" as const, content: { type: "text" as const, text } }]
      }
    })
})
