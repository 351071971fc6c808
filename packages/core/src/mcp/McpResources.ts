/**
 * The MCP resources: each form of the workspace, read with its questions.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { type Actors, Id } from "../kernel/index.ts"
import { Forms } from "../forms/index.ts"

/** A resource as listed: one per form. */
export interface McpResource {
  readonly uri: string
  readonly name: string
  readonly title: string
  readonly description: string
  readonly mimeType: "application/json"
}

/** The URI of a form's resource. */
export const formUri = (formId: number) => `qforms://forms/${formId}`

/** The form resources' template. */
export const formUriTemplate = "qforms://forms/{id}"

const formUriPattern = /^qforms:\/\/forms\/(\d{1,10})$/

/** Why a resource could not be read (the endpoint answers a JSON-RPC error naming it). */
export class ResourceNotFound extends Schema.TaggedError<ResourceNotFound>()("ResourceNotFound", {
  message: Schema.String
}) {}

/** The workspace's forms as resources, and reading one with its questions. */
export const makeResources = Effect.gen(function* () {
  const forms = yield* Forms
  return {
    list: (actor: Actors.Actor) =>
      Effect.map(forms.list(actor), (list) =>
        list.map(
          (form): McpResource => ({
            uri: formUri(form.id),
            name: `form-${form.id}`,
            title: form.title,
            description: `${form.status} form with ${form.responseCount} responses`,
            mimeType: "application/json"
          })
        )
      ),
    read: (actor: Actors.Actor, uri: string) =>
      Effect.gen(function* () {
        const id = Number(formUriPattern.exec(uri)?.[1] ?? Number.NaN)
        if (!Schema.is(Id)(id)) {
          return yield* new ResourceNotFound({ message: `no resource ${uri}: form resources are ${formUriTemplate}` })
        }
        const form = yield* forms
          .get(actor, id)
          .pipe(
            Effect.catchTag("FormNotFound", (error) => Effect.fail(new ResourceNotFound({ message: error.message })))
          )
        return { uri, mimeType: "application/json" as const, text: JSON.stringify(form, null, 2) }
      })
  }
})
