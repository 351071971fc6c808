/**
 * Form generation from a plain-text description, as a service with layers:
 * `layerOffline` (the default: a deterministic phrase recogniser, see
 * `OfflineFormGenerator`), `OpenAiFormGenerator.layer` (any OpenAI-compatible
 * chat-completions server), `layerNone` (generation switched off), or a
 * host's own layer.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { Actors } from "../kernel/index.ts"
import { CreateFormInput, type FieldInput, Forms } from "../forms/index.ts"
import * as OfflineFormGenerator from "./OfflineFormGenerator.ts"

/** What generating a form takes (spec: POST /v1/forms/generate). */
export const GenerateFormInput = Schema.Struct({
  prompt: Schema.String.check(
    Schema.isMinLength(1, { message: "prompt must not be empty" }),
    Schema.isMaxLength(4000, { message: "prompt must be at most 4000 characters" })
  ),
  publish: Schema.optionalKey(Schema.Boolean)
}).annotate({ identifier: "GenerateForm" })
export type GenerateFormInput = typeof GenerateFormInput.Type

/** A generated form before it is stored. */
export interface GeneratedForm {
  readonly title: string
  readonly description: string | null
  readonly fields: ReadonlyArray<FieldInput>
}

/** Texts of a form to translate: the languages by name and tag, each text by an id of the caller's. */
export interface TranslationRequest {
  /** The form's own language, e.g. "English (en)". */
  readonly from: string
  /** The language to translate into, e.g. "Deutsch (de)". */
  readonly to: string
  readonly texts: ReadonlyArray<{ readonly id: string; readonly text: string }>
}

/** The generator could not be reached or gave an unusable result (answered 502). */
export class GeneratorFailed extends Schema.TaggedError<GeneratorFailed>()("GeneratorFailed", {
  message: Schema.String
}) {}

/**
 * Turns a description into a form.
 *
 * @example
 * ```ts
 * const draft = yield* (yield* FormGenerator).generate("ask for name, email and a rating out of 5")
 * ```
 */
export class FormGenerator extends Context.Service<
  FormGenerator,
  {
    readonly generate: (prompt: string) => Effect.Effect<GeneratedForm, GeneratorFailed>
    /**
     * Translates texts by a language model: each text's translation by its id (a text it gave none for is
     * left out). Absent when there is no model: the offline generator writes English forms and translates nothing.
     */
    readonly translate?:
      | ((request: TranslationRequest) => Effect.Effect<Record<string, string>, GeneratorFailed>)
      | undefined
  }
>()("@qforms/core/FormGenerator") {
  /** No generator: every request fails with "no form generator configured". */
  static readonly layerNone = Layer.succeed(FormGenerator)(
    FormGenerator.of({
      generate: () => Effect.fail(new GeneratorFailed({ message: "no form generator configured" }))
    })
  )

  /**
   * The offline generator: recognises common phrasing ("ask for name, email
   * and phone", "a rating out of 10", "(a, b or c)"); no model, no network.
   * A description it finds nothing to ask in fails with a hint.
   */
  static readonly layerOffline = Layer.succeed(FormGenerator)(
    FormGenerator.of({
      generate: (prompt) =>
        Result.match(OfflineFormGenerator.generate(prompt), {
          onFailure: (message) => Effect.fail(new GeneratorFailed({ message })),
          onSuccess: Effect.succeed
        })
    })
  )
}

const decodeDraft = Schema.decodeUnknownEffect(CreateFormInput)

/**
 * Generation as the API offers it: checks the actor may create forms, asks
 * the generator, checks its answer like any client's input, and stores the
 * form (published when `publish` is true) with its default stages.
 *
 * @example
 * ```ts
 * const generate = yield* generateForm
 * const form = yield* generate(actor, { prompt: "an RSVP: name, email, attending yes or no", publish: true })
 * ```
 */
export const generateForm = Effect.gen(function* () {
  const forms = yield* Forms
  const generator = yield* FormGenerator
  return Effect.fn("FormGenerator.generateForm")(function* (actor: Actors.Actor, input: GenerateFormInput) {
    yield* Actors.requireWrite(actor)
    const draft = yield* generator.generate(input.prompt)
    const checked = yield* decodeDraft({
      title: draft.title,
      description: draft.description,
      fields: draft.fields
    }).pipe(
      Effect.mapError(
        (error) => new GeneratorFailed({ message: `the form generator gave an unusable form: ${error.message}` })
      )
    )
    const created = yield* forms.create(actor, checked, { status: input.publish === true ? "published" : "draft" })
    return yield* Effect.orDie(forms.get(actor, created.id))
  })
})
