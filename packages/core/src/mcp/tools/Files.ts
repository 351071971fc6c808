/**
 * The MCP tools of the image library: each a domain service call, with its
 * input Schema taken from the HTTP API's (see `../McpTool.ts`).
 */
import * as Effect from "effect/Effect"
import { ImageList, Images } from "../../files/index.ts"
import { define, NoArguments, type McpTool } from "../McpTool.ts"

/** The tools of the image library, bound to their services. */
export const tools = Effect.gen(function* () {
  const images = yield* Images

  const tools: ReadonlyArray<McpTool> = [
    define("list_images", {
      title: "List the workspace's images",
      description:
        "Lists the workspace's image library, newest first: each image's `id`, name, type and size. A theme's " +
        "`logo` and a select or checkboxes question's `options.images` take these ids (images are uploaded over " +
        "HTTP, POST /api/images).",
      input: NoArguments,
      output: ImageList,
      write: false,
      run: (actor) => images.list(actor)
    })
  ]
  return tools
})
