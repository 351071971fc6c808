/** Handlers of the translations group: a form in other languages. */
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Api, CurrentActor } from "../../api/index.ts"
import { FormTranslator } from "../../generation/index.ts"
import { handle } from "../../web/index.ts"

export const TranslationsHandlers = HttpApiBuilder.group(
  Api,
  "translations",
  Effect.fnUntraced(function* (handlers) {
    const translator = yield* FormTranslator.make
    return handlers
      .handle("list", ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(translator.list(actor, params.formId)))
      )
      .handle("get", ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(translator.get(actor, params.formId, params.language)))
      )
      .handle("put", ({ params, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(translator.put(actor, params.formId, params.language, payload)))
      )
      .handle("remove", ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(translator.remove(actor, params.formId, params.language)))
      )
      .handle("draft", ({ params }) =>
        Effect.flatMap(CurrentActor, (actor) => handle(translator.draft(actor, params.formId, params.language)))
      )
  })
)
