/** Handlers of the privacy group: erasing a person, exporting their data. */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Erasure, PersonalDataExport } from "../../privacy/index.ts"
import { Api, CurrentActor } from "../../api/index.ts"
import { handle } from "../../web/index.ts"

export const PrivacyHandlers = HttpApiBuilder.group(
  Api,
  "privacy",
  Effect.fnUntraced(function* (handlers) {
    const erasure = yield* Erasure
    const exporter = yield* PersonalDataExport
    return handlers.handleAll({
      erase: ({ payload }) => Effect.flatMap(CurrentActor, (actor) => handle(erasure.erase(actor, payload))),
      exportPerson: ({ query }) =>
        Effect.gen(function* () {
          const actor = yield* CurrentActor
          const archive = yield* handle(exporter.archive(actor, query))
          const date = new Date(yield* Clock.currentTimeMillis).toISOString().slice(0, 10)
          return HttpServerResponse.stream(archive, {
            contentType: "application/zip",
            headers: {
              "content-disposition": `attachment; filename="person-export-${date}.zip"`,
              "cache-control": "private, no-store",
              "x-content-type-options": "nosniff"
            }
          })
        })
    })
  })
)
