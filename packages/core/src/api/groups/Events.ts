/**
 * The API group `Events`: its endpoints (paths, methods, request and
 * response Schemas, statuses) and the Schemas only it declares; no handlers.
 */
import { routerErrors } from "../Params.ts"
import * as Schema from "effect/Schema"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { Id } from "../../kernel/index.ts"
import { NotFound, UpgradeRequired } from "../../web/index.ts"
import { Authentication } from "../Authentication.ts"

/** The live event stream (a WebSocket, taken before the router; see `EventStream.ts`). */
export class EventsGroup extends HttpApiGroup.make("events")
  .add(
    HttpApiEndpoint.get("stream", "/api/events", {
      query: {
        formId: Schema.optionalKey(Id).annotate({ description: "Only the events of this form." })
      },
      success: HttpApiSchema.Empty(101).annotate({
        description:
          "Switching Protocols: a WebSocket sending each event of the workspace as a text frame " +
          "(the webhook body as JSON), in commit order."
      }),
      error: [...routerErrors, NotFound, UpgradeRequired]
    }).annotate(
      OpenApi.Description,
      "Extension: the workspace's events, live, over a WebSocket (`Upgrade: websocket`); a browser, which cannot " +
        "set headers, offers its key as the subprotocol `qforms.bearer.<key>`. A plain GET is answered 426."
    )
  )
  .middleware(Authentication) {}
