/**
 * Form generation by any OpenAI-compatible chat-completions server: OpenAI,
 * Ollama, vLLM, llama.cpp's server, LM Studio.
 *
 * The model is asked for structured output with a JSON Schema derived from
 * the same `FieldInput` Schema the API validates questions with
 * (`response_format: json_schema`); a server that refuses that format is asked
 * again in JSON mode with the schema in the instructions. It also translates
 * a form's texts (`translate`, the drafts of `FormTranslator.ts`), in batches
 * of {@link TEXTS_PER_REQUEST}. The answer is decoded
 * with the Schema; when it does not fit, the model gets the validation errors
 * back once to repair its answer. Anything else — no connection, a timeout,
 * an error status, a second unusable answer — is a `GeneratorFailed` (502).
 *
 * `effect/ai`'s `LanguageModel` was evaluated first: effect 4.1.0 ships no
 * OpenAI provider, and `@effect/ai-openai-compat` (4.0.0-beta) imports
 * `effect/unstable/*` paths that effect 4.1.0 does not have; its structured
 * output helper (`effect/ai/OpenAiStructuredOutput`) is used here.
 *
 * @module
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { toCodecOpenAI } from "effect/ai/OpenAiStructuredOutput"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type { HttpClientError } from "effect/http/HttpClientError"
import { PlainFieldInput, QuestionTypes } from "../forms/index.ts"
import { FormGenerator, type GeneratedForm, GeneratorFailed, type TranslationRequest } from "./FormGenerator.ts"

/** Where the model is and how long to wait for it. */
export interface OpenAiGeneratorConfig {
  /** The API base, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1` (Ollama). */
  readonly baseUrl: string
  /** Sent as `Authorization: Bearer …` when set (local servers usually need none). */
  readonly apiKey?: Redacted.Redacted<string> | string | undefined
  /** The model name, e.g. `gpt-4o-mini` or `llama3.1`. */
  readonly model: string
  /** Longest wait for one answer of the model (default 30 seconds). */
  readonly timeout?: Duration.Input | undefined
}

/** Most questions a generated form may have. */
export const MAX_QUESTIONS = 20

/**
 * What the model must answer: the form's title, description and questions,
 * each question a `PlainFieldInput` (a `FieldInput` without form logic) (its decoded shape: `id` is ignored).
 */
export const GeneratedFormSchema = Schema.Struct({
  title: Schema.String.check(
    Schema.isNonEmpty({ message: "title must not be empty" }),
    Schema.isMaxLength(200, { message: "title must be at most 200 characters" })
  ),
  description: Schema.NullOr(
    Schema.String.check(Schema.isMaxLength(2000, { message: "description must be at most 2000 characters" }))
  ),
  fields: Schema.Array(Schema.toType(PlainFieldInput)).check(
    Schema.isMinLength(1, { message: "fields must hold at least 1 question" }),
    Schema.isMaxLength(MAX_QUESTIONS, { message: `fields must hold at most ${MAX_QUESTIONS} questions` })
  )
}).annotate({ identifier: "GeneratedForm" })

const structured = toCodecOpenAI(GeneratedFormSchema)
const decodeAnswer = Schema.decodeUnknownResult(Schema.fromJsonString(structured.codec))

/** What the model must answer to a translation: each text given, by its id, in the other language. */
export const TranslatedTextsSchema = Schema.Struct({
  translations: Schema.Array(Schema.Struct({ id: Schema.String, text: Schema.String }))
}).annotate({ identifier: "TranslatedTexts" })

const structuredTranslation = toCodecOpenAI(TranslatedTextsSchema)
const decodeTranslation = Schema.decodeUnknownResult(Schema.fromJsonString(structuredTranslation.codec))

/** Texts sent to the model in one request (a long form is translated in several). */
export const TEXTS_PER_REQUEST = 60

const TRANSLATION_INSTRUCTIONS = [
  "You translate the texts of a web form that people fill in. Reply with a single JSON object and nothing else:",
  "translations, one entry per text given, with the same id and the text in the target language.",
  "Keep placeholders such as {{field:12}}, {{answers}}, {{hidden:source}} and {{var:score}} exactly as they are, and",
  "keep Markdown, line breaks and URLs. Keep the meaning, the tone and the length: a short choice stays short,",
  "a question stays a question. Do not add explanations."
].join(" ")

const INSTRUCTIONS = [
  "You design web forms from a description. Reply with a single JSON object and nothing else.",
  "The object has: title (at most 200 characters), description (one or two sentences shown above the form, or null),",
  "and fields: the questions in a sensible order, 3 to 20 of them (fewer only when the description clearly asks for fewer).",
  `Question types: ${QuestionTypes.modelTypes}.`,
  QuestionTypes.modelAdvice,
  "Use options.help for a short hint where it helps.",
  "Set required to true only for what the form cannot do without. Set every id to null. Use null for options you don't need."
].join(" ")

type Message = { readonly role: "system" | "user" | "assistant"; readonly content: string }

/** What the model is asked to do: its instructions and the JSON Schema of its answer. */
interface Task {
  readonly name: string
  readonly instructions: string
  readonly jsonSchema: object
}

const formTask: Task = { name: "form", instructions: INSTRUCTIONS, jsonSchema: structured.jsonSchema }
const translationTask: Task = {
  name: "translations",
  instructions: TRANSLATION_INSTRUCTIONS,
  jsonSchema: structuredTranslation.jsonSchema
}

const CompletionBody = Schema.Struct({
  choices: Schema.Array(
    Schema.Struct({
      message: Schema.Struct({ content: Schema.NullOr(Schema.String) })
    })
  )
})
const decodeCompletion = Schema.decodeUnknownResult(CompletionBody)

/** The model's text without Markdown fences or talk around the JSON object. */
const jsonPart = (content: string): string => {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(content)
  const text = (fenced === null ? content : fenced[1]!).trim()
  const start = text.indexOf("{")
  const end = text.lastIndexOf("}")
  return start >= 0 && end > start ? text.slice(start, end + 1) : text
}

/**
 * The OpenAI-compatible generator as an Effect, on the `HttpClient` in context.
 *
 * @example
 * ```ts
 * const generator = yield* OpenAiFormGenerator.make({ baseUrl: "http://127.0.0.1:11434/v1", model: "llama3.1" })
 * const form = yield* generator.generate("A bug report: summary, steps, severity (low, medium, high)")
 * ```
 */
export const make = Effect.fnUntraced(function* (config: OpenAiGeneratorConfig) {
  const base = config.baseUrl.replace(/\/+$/, "")
  const server = (() => {
    const parsed = URL.canParse(base) ? new URL(base) : undefined
    return parsed === undefined ? base : parsed.origin
  })()
  const timeout = Duration.fromInputUnsafe(config.timeout ?? Duration.seconds(30))
  const apiKey =
    config.apiKey === undefined
      ? undefined
      : typeof config.apiKey === "string"
        ? config.apiKey
        : Redacted.value(config.apiKey)
  const client = (yield* HttpClient.HttpClient).pipe(
    HttpClient.mapRequest((request) =>
      apiKey === undefined || apiKey === "" ? request : HttpClientRequest.bearerToken(request, apiKey)
    )
  )
  // Once a server refuses json_schema, later requests go straight to JSON mode.
  const jsonModeOnly = yield* Ref.make(false)

  const failed = (message: string) => new GeneratorFailed({ message })

  const transportFailure = (error: HttpClientError) =>
    failed(`the model server at ${server} could not be reached: ${error.reason.message ?? error.reason._tag}`)

  /** One chat completion; its text, or why there is none. */
  const complete = (
    task: Task,
    messages: ReadonlyArray<Message>,
    jsonMode: boolean
  ): Effect.Effect<{ readonly text: string } | { readonly refusedFormat: true }, GeneratorFailed> =>
    Effect.gen(function* () {
      const system: Message = {
        role: "system",
        content: jsonMode
          ? `${task.instructions} The object must match this JSON Schema: ${JSON.stringify(task.jsonSchema)}`
          : task.instructions
      }
      const body = {
        model: config.model,
        temperature: 0.2,
        messages: [system, ...messages],
        response_format: jsonMode
          ? { type: "json_object" }
          : { type: "json_schema", json_schema: { name: task.name, strict: true, schema: task.jsonSchema } }
      }
      const request = HttpClientRequest.post(`${base}/chat/completions`).pipe(
        HttpClientRequest.acceptJson,
        HttpClientRequest.bodyJsonUnsafe(body)
      )
      const response = yield* client.execute(request).pipe(
        Effect.timeoutOrElse({
          duration: timeout,
          orElse: () =>
            Effect.fail(failed(`the model server at ${server} did not answer within ${Duration.format(timeout)}`))
        }),
        Effect.catchTag("HttpClientError", (error) => Effect.fail(transportFailure(error)))
      )
      const text = yield* response.text.pipe(
        Effect.timeoutOrElse({
          duration: timeout,
          orElse: () =>
            Effect.fail(
              failed(`the model server at ${server} did not finish its answer within ${Duration.format(timeout)}`)
            )
        }),
        Effect.catchTag("HttpClientError", (error) => Effect.fail(transportFailure(error)))
      )
      if (response.status === 401 || response.status === 403) {
        return yield* failed(
          `the model server at ${server} refused the request (${response.status}): check the model server's API key (QFORMS_LLM_API_KEY)`
        )
      }
      if (
        !jsonMode &&
        (response.status === 400 || response.status === 422) &&
        /response_format|json_schema|schema/i.test(text)
      ) {
        return { refusedFormat: true } as const
      }
      if (response.status < 200 || response.status >= 300) {
        return yield* failed(`the model server at ${server} answered ${response.status}: ${text.slice(0, 200)}`)
      }
      const parsed = Result.flatMap(
        Result.try({ try: () => JSON.parse(text) as unknown, catch: () => "not JSON" }),
        (json) => Result.mapError(decodeCompletion(json), (issue) => issue.message)
      )
      if (Result.isFailure(parsed)) {
        return yield* failed(`the model server at ${server} gave an answer that is not a chat completion`)
      }
      const content = parsed.success.choices[0]?.message.content
      if (content === undefined || content === null) {
        return yield* failed(`the model server at ${server} gave an empty answer`)
      }
      return { text: content }
    })

  /** One exchange, falling back to JSON mode when the server refuses json_schema. */
  const ask = (messages: ReadonlyArray<Message>, task: Task = formTask) =>
    Effect.gen(function* () {
      if (!(yield* Ref.get(jsonModeOnly))) {
        const answer = yield* complete(task, messages, false)
        if ("text" in answer) return answer.text
        yield* Ref.set(jsonModeOnly, true)
      }
      const answer = yield* complete(task, messages, true)
      if ("text" in answer) return answer.text
      return yield* failed(`the model server at ${server} refused structured output in both JSON schema and JSON mode`)
    })

  const toGenerated = (answer: typeof GeneratedFormSchema.Type): GeneratedForm => ({
    title: answer.title.trim(),
    description: answer.description === null || answer.description.trim() === "" ? null : answer.description.trim(),
    fields: answer.fields.map(({ id: _id, ...field }) => field)
  })

  const generate = Effect.fn("OpenAiFormGenerator.generate")(function* (prompt: string) {
    const messages: Array<Message> = [{ role: "user", content: prompt }]
    const first = yield* ask(messages)
    const decoded = decodeAnswer(jsonPart(first))
    if (Result.isSuccess(decoded)) return toGenerated(decoded.success)
    // One repair: the model sees its answer and what was wrong with it.
    const repaired = yield* ask([
      ...messages,
      { role: "assistant", content: first },
      {
        role: "user",
        content: `That reply cannot be used: ${decoded.failure.message}\nReply again with the corrected JSON object only.`
      }
    ])
    const second = decodeAnswer(jsonPart(repaired))
    if (Result.isSuccess(second)) return toGenerated(second.success)
    return yield* failed(`the model gave an unusable form twice: ${second.failure.message.slice(0, 500)}`)
  })

  /** One batch of texts: the model's translation of each, by id (ids it does not know are passed over). */
  const translateBatch = (
    request: TranslationRequest,
    texts: ReadonlyArray<{ readonly id: string; readonly text: string }>
  ) =>
    Effect.gen(function* () {
      const messages: Array<Message> = [
        {
          role: "user",
          content: `Translate from ${request.from} to ${request.to}:\n${JSON.stringify({ texts })}`
        }
      ]
      const first = yield* ask(messages, translationTask)
      let decoded = decodeTranslation(jsonPart(first))
      if (Result.isFailure(decoded)) {
        const repaired = yield* ask(
          [
            ...messages,
            { role: "assistant", content: first },
            {
              role: "user",
              content: `That reply cannot be used: ${decoded.failure.message}\nReply again with the corrected JSON object only.`
            }
          ],
          translationTask
        )
        decoded = decodeTranslation(jsonPart(repaired))
      }
      if (Result.isFailure(decoded)) {
        return yield* failed(`the model gave an unusable translation twice: ${decoded.failure.message.slice(0, 500)}`)
      }
      const asked = new Set(texts.map((t) => t.id))
      return decoded.success.translations.filter((t) => asked.has(t.id) && t.text.trim() !== "")
    })

  const translate = Effect.fn("OpenAiFormGenerator.translate")(function* (request: TranslationRequest) {
    const out: Record<string, string> = {}
    for (let at = 0; at < request.texts.length; at += TEXTS_PER_REQUEST) {
      for (const t of yield* translateBatch(request, request.texts.slice(at, at + TEXTS_PER_REQUEST))) {
        out[t.id] = t.text.trim()
      }
    }
    return out
  })

  return FormGenerator.of({ generate, translate })
})

/**
 * The OpenAI-compatible generator as a layer, using `fetch`.
 *
 * @example
 * ```ts
 * const qforms = await Qforms.make({
 *   formGenerator: OpenAiFormGenerator.layer({ baseUrl: "http://127.0.0.1:11434/v1", model: "llama3.1" })
 * })
 * ```
 */
export const layer = (config: OpenAiGeneratorConfig): Layer.Layer<FormGenerator> =>
  Layer.effect(FormGenerator, make(config)).pipe(Layer.provide(FetchHttpClient.layer))
