/**
 * A form's pages (`settings.pages`): questions shown together on one screen
 * of the public page. One question at a time stays the default: a question
 * names the page it is on (`page: "<key>"`), and a question without one is a
 * page of its own. A page's questions follow one another; its title and
 * description head the screen. Logic jumps to a page (`"jumpTo":
 * "page:<key>"`) and takes effect after the page is sent: of the page's
 * questions, the first whose rule holds decides where the respondent goes.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { BoundedText, strictStruct } from "../kernel/index.ts"
import { isUniqueBy, PageKey } from "./LogicRules.ts"

/** A text of the form: trimmed, 1 to `max` characters. */
const text = BoundedText

/**
 * One page: its key (what questions and jumps name), and an optional title
 * and description shown above its questions.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(Page)({ key: "contact", title: "How can we reach you?" })
 * ```
 */
export const Page = strictStruct(
  {
    key: PageKey,
    title: Schema.optionalKey(text("a page's title", 200)),
    description: Schema.optionalKey(text("a page's description", 2000))
  },
  "page key"
).annotate({ identifier: "Page" })
export type Page = typeof Page.Type

/**
 * A form's pages: at most 50, keys unique.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(Pages)([{ key: "about-you" }, { key: "contact", title: "Contact" }])
 * ```
 */
export const Pages = Schema.Array(Page).check(
  Schema.isMaxLength(50, { message: "a form has at most 50 pages" }),
  isUniqueBy((p: Page) => p.key, "page")
)
export type Pages = typeof Pages.Type

/** The page a question is on: its `page`, or a page of its own (`#<id>`, a key no declared page can have). */
export const pageKeyOf = (field: { readonly id: number; readonly page?: string | undefined }): string =>
  field.page ?? `#${field.id}`

/**
 * The pages of questions in order: each run of questions on the same page,
 * a question without a page being one on its own.
 *
 * @example
 * ```ts
 * pagesOf([{ id: 1, page: "a" }, { id: 2, page: "a" }, { id: 3 }]).map((p) => p.fields.map((f) => f.id)) // [[1, 2], [3]]
 * ```
 */
export const pagesOf = <F extends { readonly id: number; readonly page?: string | undefined }>(
  fields: ReadonlyArray<F>
): ReadonlyArray<{ readonly key: string; readonly fields: ReadonlyArray<F> }> => {
  const pages: Array<{ key: string; fields: Array<F> }> = []
  for (const field of fields) {
    const key = pageKeyOf(field)
    const last = pages.at(-1)
    if (last !== undefined && last.key === key) last.fields.push(field)
    else pages.push({ key, fields: [field] })
  }
  return pages
}
