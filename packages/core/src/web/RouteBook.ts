/**
 * The book of routes: every method and path the router serves, written down
 * as each route is added (the router every surface adds its routes to records
 * them, and declares them to `Redact`, which hides their `:token` segments from
 * logs), and the routes that read a JSON body, each declared by the surface
 * that adds it. The router-wide guard reads the book to tell 405 from 404 and
 * to refuse a JSON route's body sent as anything but `application/json`; no
 * list of routes is kept by hand beside the routes themselves.
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as HttpRouter from "effect/http/HttpRouter"
import * as Redact from "./Redact.ts"
import { toPattern } from "./RoutePaths.ts"

export { toPattern } from "./RoutePaths.ts"

/** A method and the pattern of the paths it is served on. */
export interface BookedRoute {
  readonly method: string
  readonly pattern: RegExp
}

/** A route that reads a JSON body; `payload`: the body is required (a route without one may still be sent one). */
export interface JsonRoute extends BookedRoute {
  readonly payload: boolean
}

const joinPrefix = (prefix: string, path: string) => (path === "/" ? prefix : `${prefix}${path}`)

/**
 * The book. `recordingRouter` fills `routes`; a surface declares its JSON
 * routes with `takesJson`.
 *
 * @example
 * ```ts
 * const book = yield* RouteBook
 * yield* router.add("POST", "/mcp", handler)
 * book.takesJson("POST", "/mcp", { payload: true })
 * ```
 */
export class RouteBook extends Context.Service<
  RouteBook,
  {
    /** Every route added so far. */
    readonly routes: ReadonlyArray<BookedRoute>
    /** The routes declared to read a JSON body. */
    readonly jsonRoutes: ReadonlyArray<JsonRoute>
    /** Writes down a route the router serves (the recording router does, for each route added). */
    readonly record: (method: string, path: string) => void
    /** Declares that a route reads a JSON body (`payload`: always one). */
    readonly takesJson: (method: string, path: string, options: { readonly payload: boolean }) => void
  }
>()("@qforms/core/RouteBook") {
  /** An empty book, filled as the routes' layers are built. */
  static readonly layer = Layer.sync(RouteBook, () => {
    const routes: Array<BookedRoute> = []
    const jsonRoutes: Array<JsonRoute> = []
    return RouteBook.of({
      routes,
      jsonRoutes,
      record: (method, path) => {
        routes.push({ method, pattern: toPattern(path) })
        Redact.declareRoute(path)
      },
      takesJson: (method, path, options) => {
        jsonRoutes.push({ method, pattern: toPattern(path), payload: options.payload })
      }
    })
  })

  /**
   * The router the routes are added to: the outer one, which also writes
   * each route into the book (prefixed routes with their prefix).
   */
  static readonly recordingRouter = Layer.effect(
    HttpRouter.HttpRouter,
    Effect.gen(function* () {
      const router = yield* HttpRouter.HttpRouter
      const book = yield* RouteBook
      const recording = (inner: HttpRouter.HttpRouter, prefix: string): HttpRouter.HttpRouter =>
        HttpRouter.HttpRouter.of({
          ...inner,
          prefixed: (more) => recording(inner.prefixed(more), `${prefix}${more.replace(/\/$/, "")}`),
          addAll: (routes) => {
            for (const route of routes) book.record(route.method, joinPrefix(prefix, route.path))
            return inner.addAll(routes)
          },
          add: (method, path, handler, options) => {
            book.record(method, joinPrefix(prefix, path))
            return inner.add(method, path, handler, options)
          }
        })
      return recording(router, "")
    })
  )
}
