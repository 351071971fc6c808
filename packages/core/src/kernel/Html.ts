/**
 * HTML built safely: the `html` template escapes every interpolated value
 * (with the kernel's `escapeHtml`) unless it is already {@link Html} (made by
 * `html` itself), so a form's title, labels and choices — user content — can
 * never become markup; {@link attr} writes one optional attribute. The
 * public page's screens and each question type's page view
 * (`forms/questions/`) are written with it.
 */
import { escapeHtml } from "./DisplayText.ts"

/** A piece of markup that is safe to insert as is. */
export class Html {
  readonly value: string
  constructor(value: string) {
    this.value = value
  }
  toString(): string {
    return this.value
  }
}

/** What may be interpolated: text (escaped), numbers, markup, lists of those, or nothing. */
export type Part = string | number | Html | ReadonlyArray<Part> | null | undefined | false

const render = (part: Part): string => {
  if (part === null || part === undefined || part === false) return ""
  if (part instanceof Html) return part.value
  if (typeof part === "number") return String(part)
  if (typeof part === "string") return escapeHtml(part)
  return part.map(render).join("")
}

/**
 * The template tag: literal parts are markup, interpolations are escaped.
 *
 * @example
 * ```ts
 * html`<h1>${form.title}</h1>`.value // the title escaped
 * ```
 */
export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<Part>): Html => {
  let out = strings[0]!
  values.forEach((value, index) => {
    out += render(value) + strings[index + 1]!
  })
  return new Html(out)
}

/**
 * Text with its line breaks kept (`<br>` between escaped lines).
 *
 * @example
 * ```ts
 * lines("a\nb").value // "a<br>b"
 * ```
 */
export const lines = (text: string): Html =>
  new Html(
    text
      .split(/\r\n|\r|\n/)
      .map(escapeHtml)
      .join("<br>")
  )

/**
 * One optional attribute: ` name="value"` (escaped), or nothing when `value` is `null`, `undefined` or `false`.
 *
 * @example
 * ```ts
 * html`<input${attr("required", field.required && "required")}>`
 * ```
 */
export const attr = (name: string, value: string | number | null | undefined | false): Html | null =>
  value === null || value === undefined || value === false ? null : html` ${name}="${String(value)}"`
