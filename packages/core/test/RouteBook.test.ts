/**
 * The route book: the patterns of router paths, and the recording router that
 * writes down every route a surface adds (prefixed ones with their prefix), so
 * the guard's 404/405 and JSON checks follow the routes themselves.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { describe, expect, it } from "vitest"
import { RouteBook, toPattern } from "../src/web/RouteBook.ts"

describe("toPattern", () => {
  it("takes a parameter as one segment and a trailing slash as optional", () => {
    const pattern = toPattern("/f/:publicId/responses")
    expect(pattern.test("/f/abc/responses")).toBe(true)
    expect(pattern.test("/f/abc/responses/")).toBe(true)
    expect(pattern.test("/f/a/b/responses")).toBe(false)
    expect(pattern.test("/f/abc/responsesx")).toBe(false)
  })

  it("takes a trailing * as any rest, also none", () => {
    const pattern = toPattern("/app/*")
    expect(pattern.test("/app")).toBe(true)
    expect(pattern.test("/app/forms/12")).toBe(true)
    expect(pattern.test("/application")).toBe(false)
  })

  it("escapes what a regular expression would read", () => {
    expect(toPattern("/api/openapi.json").test("/api/openapiXjson")).toBe(false)
  })
})

describe("the recording router", () => {
  it("writes down each route added, with its prefix, and serves it unchanged", async () => {
    let seen: ReadonlyArray<{ readonly method: string; readonly path: string }> = []
    const probe = ["/hello", "/v1/items/7", "/v1/items", "/nowhere"]
    const Routes = HttpRouter.use(
      Effect.fnUntraced(function* (router) {
        yield* router.add("GET", "/hello", HttpServerResponse.text("hi"))
        const v1 = router.prefixed("/v1")
        yield* v1.add("POST", "/items/:id", HttpServerResponse.text("posted"))
        const gone: HttpRouter.Route = HttpRouter.route("DELETE", "/items", HttpServerResponse.text("gone"))
        yield* v1.addAll([gone])
        const book = yield* RouteBook
        yield* router.add(
          "GET",
          "/book",
          Effect.sync(() =>
            HttpServerResponse.jsonUnsafe(
              probe.map((path) => ({
                path,
                methods: book.routes.filter((route) => route.pattern.test(path)).map((route) => route.method)
              }))
            )
          )
        )
      })
    )
    const { handler, dispose } = HttpRouter.toWebHandler(
      Routes.pipe(Layer.provide(RouteBook.recordingRouter), Layer.provide(RouteBook.layer)),
      { disableLogger: true }
    )
    try {
      expect(await (await handler(new Request("http://x/hello"))).text()).toBe("hi")
      expect(await (await handler(new Request("http://x/v1/items/7", { method: "POST" }))).text()).toBe("posted")
      const book = (await (await handler(new Request("http://x/book"))).json()) as ReadonlyArray<{
        readonly path: string
        readonly methods: ReadonlyArray<string>
      }>
      seen = book.map(({ path, methods }) => ({ path, method: methods.join(",") }))
    } finally {
      await dispose()
    }
    expect(seen).toEqual([
      { path: "/hello", method: "GET" },
      { path: "/v1/items/7", method: "POST" },
      { path: "/v1/items", method: "DELETE" },
      { path: "/nowhere", method: "" }
    ])
  })
})
