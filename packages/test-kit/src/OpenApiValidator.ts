/**
 * Checks real answers against a served OpenAPI 3.1 document with an
 * independent validator (Ajv, JSON Schema 2020-12, with `ajv-formats`): the
 * operation is found by method and path, the status must be one the operation
 * documents, and the body must match that status's schema (JSON), be of a
 * documented media type (anything else), or be empty (no content documented).
 *
 * A path no operation has answers as the router does for every route: 404
 * under `/api` (against `NotFoundError`), or 405 when the path has operations
 * but not this method (against the 405 those operations document). Paths
 * outside `/api` that the document does not describe (the HTML form page,
 * `/mcp`, `/app`) are not its subject and are skipped.
 */
import { Ajv2020 } from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import type { ValidateFunction } from "ajv"

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const

/** One answer to check. */
export interface Answer {
  readonly method: string
  /** The path as requested, without the query string and without any mount prefix. */
  readonly path: string
  readonly status: number
  readonly contentType: string
  readonly text: string
}

/** What {@link OpenApiValidator.check} found: `undefined` when the answer matches the document. */
export type Problem = string | undefined

const pointer = (...segments: ReadonlyArray<string>) =>
  `#/${segments.map((segment) => segment.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`

const isJson = (contentType: string) => /^application\/(?:[\w.+-]+\+)?json\b/.test(contentType)

export class OpenApiValidator {
  private readonly ajv: Ajv2020
  private readonly compiled = new Map<string, ValidateFunction>()
  private readonly routes: ReadonlyArray<{ readonly template: string; readonly pattern: RegExp }>
  /** How many answers were checked (and how many skipped as outside the document). */
  checked = 0
  skipped = 0

  readonly document: Json

  constructor(document: Json) {
    this.document = document
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true })
    addFormats.default(this.ajv)
    this.ajv.addSchema(document, "openapi.json")
    this.routes = Object.keys(document.paths).map((template) => ({
      template,
      pattern: new RegExp(
        `^${template
          .split("/")
          .map((segment) => (/^\{[^}]+\}$/.test(segment) ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
          .join("/")}/?$`
      )
    }))
  }

  private validator(ref: string): ValidateFunction {
    let validate = this.compiled.get(ref)
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: `openapi.json${ref}` })
      this.compiled.set(ref, validate)
    }
    return validate
  }

  private body(label: string, ref: string, answer: Answer): Problem {
    let value: unknown
    try {
      value = JSON.parse(answer.text)
    } catch {
      return `${label}: the body is not JSON: ${answer.text.slice(0, 200)}`
    }
    const validate = this.validator(ref)
    if (validate(value)) return undefined
    return (
      `${label}: the body does not match ${ref}: ${this.ajv.errorsText(validate.errors, { separator: "; " })}` +
      ` — body: ${answer.text.slice(0, 300)}`
    )
  }

  /** Checks the JSON body of a posted event against the document's `webhooks[name]`. */
  checkWebhook(name: string, text: string): Problem {
    if (this.document.webhooks?.[name]?.post === undefined) return `webhook ${name}: not in the document`
    return this.body(
      `webhook ${name}`,
      pointer("webhooks", name, "post", "requestBody", "content", "application/json", "schema"),
      { method: "POST", path: name, status: 200, contentType: "application/json", text }
    )
  }

  /** Checks one answer; returns what does not match the document. */
  check(answer: Answer): Problem {
    const label = `${answer.method} ${answer.path} → ${answer.status}`
    const method = answer.method.toLowerCase()
    // A literal path wins over a templated one (`/api/forms/{id}` vs `/api/openapi.json` never clash, but be exact).
    const matches = this.routes
      .filter((route) => route.pattern.test(answer.path))
      .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0))
    if (matches.length === 0) {
      if (!answer.path.startsWith("/api/")) {
        this.skipped++
        return undefined
      }
      this.checked++
      if (answer.status !== 404) return `${label}: no documented path matches, so only 404 is documented`
      // Any route's 404: the router answers an unknown path as the API answers an unknown id.
      const [template, method404] =
        Object.entries(this.document.paths as Record<string, Json>).flatMap(([path, item]) =>
          METHODS.filter((m) => item[m]?.responses?.["404"] !== undefined).map((m) => [path, m] as const)
        )[0] ?? []
      if (template === undefined || method404 === undefined) return `${label}: no operation documents 404`
      return this.response(label, ["paths", template, method404, "responses", "404"], answer)
    }
    const route = matches.find((route) => this.document.paths[route.template][method] !== undefined)
    this.checked++
    if (route === undefined) {
      const template = matches[0]!.template
      const others = METHODS.filter((m) => this.document.paths[template][m] !== undefined)
      if (answer.status !== 405)
        return `${label}: ${template} has no ${answer.method} operation, so only 405 is documented`
      const documenting = others.find((m) => this.document.paths[template][m].responses?.["405"] !== undefined)
      if (documenting === undefined) return `${label}: no operation of ${template} documents 405`
      return this.response(label, ["paths", template, documenting, "responses", "405"], answer)
    }
    const operation = this.document.paths[route.template][method]
    if (operation.responses?.[String(answer.status)] === undefined) {
      return (
        `${label}: status ${answer.status} is not documented for ${method.toUpperCase()} ${route.template} ` +
        `(documented: ${Object.keys(operation.responses ?? {}).join(", ")}) — body: ${answer.text.slice(0, 300)}`
      )
    }
    return this.response(label, ["paths", route.template, method, "responses", String(answer.status)], answer)
  }

  private response(label: string, at: ReadonlyArray<string>, answer: Answer): Problem {
    const response = at.reduce((node: Json, key) => node?.[key], this.document)
    const content: Record<string, Json> | undefined = response.content
    if (content === undefined || Object.keys(content).length === 0) {
      return answer.text === "" ? undefined : `${label}: no body is documented, got ${answer.text.slice(0, 200)}`
    }
    const mediaType = answer.contentType.split(";")[0]!.trim().toLowerCase()
    const documented = Object.keys(content)
    const key =
      documented.find((type) => type.toLowerCase() === mediaType) ??
      (isJson(mediaType) ? documented.find(isJson) : undefined) ??
      // A media type range (`image/*`, `*/*`).
      documented.find((type) => type === "*/*" || (type.endsWith("/*") && mediaType.startsWith(type.slice(0, -1))))
    if (key === undefined) {
      return `${label}: Content-Type ${answer.contentType || "(none)"} is not documented (${documented.join(", ")})`
    }
    if (!isJson(key)) return undefined
    return this.body(label, pointer(...at, "content", key, "schema"), answer)
  }
}
