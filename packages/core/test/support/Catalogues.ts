/**
 * The contract every message catalogue keeps, for the public page's
 * (`languages/catalogues`) and the application's (`app/catalogues`): every
 * message parses as ICU MessageFormat, takes the same values as the English
 * source, chooses plurals only by categories its language has (always with
 * `other`), and formats with sample values.
 */
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser"
import { IntlMessageFormat } from "intl-messageformat"

/** The names of the values a message takes, the kinds of its arguments, and the plural categories it chooses by. */
export const shapeOf = (
  elements: ReadonlyArray<MessageFormatElement>,
  into = { args: new Set<string>(), kinds: new Set<string>(), categories: new Set<string>() }
) => {
  for (const element of elements) {
    if (element.type === TYPE.argument) into.args.add(element.value)
    if (element.type === TYPE.number || element.type === TYPE.date || element.type === TYPE.time) {
      into.args.add(element.value)
      into.kinds.add("formatted")
    }
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      into.args.add(element.value)
      into.kinds.add(element.type === TYPE.plural ? "plural" : "select")
      for (const [category, option] of Object.entries(element.options)) {
        if (element.type === TYPE.plural) into.categories.add(category)
        shapeOf(option.value, into)
      }
    }
    if (element.type === TYPE.tag) shapeOf(element.children, into)
  }
  return into
}

const numeric = new Set([
  "count",
  "min",
  "max",
  "at",
  "of",
  "seconds",
  "minutes",
  "bytes",
  "size",
  "step",
  "base",
  "place",
  "ranked",
  "status",
  "value",
  "total",
  "translated",
  "attempts",
  "n"
])

/** A sample value for a message's value of this name (a number for the names that count). */
export const sample = (name: string): string | number => (numeric.has(name) ? 2 : `«${name}»`)

/**
 * What is wrong with one language's catalogue against the English one: missing or extra keys, empty or
 * unparsable messages, other values than English takes, plural categories the language does not have.
 */
export const catalogueProblems = (
  language: string,
  catalogue: Readonly<Record<string, string>>,
  english: Readonly<Record<string, string>>
): Array<string> => {
  const problems: Array<string> = []
  const categories = new Set<string>(new Intl.PluralRules(language).resolvedOptions().pluralCategories)
  for (const key of Object.keys(catalogue)) if (!(key in english)) problems.push(`${key}: not an English key`)
  for (const key of Object.keys(english)) {
    const text = catalogue[key]
    if (typeof text !== "string" || text.trim() === "") {
      problems.push(`${key}: missing or empty`)
      continue
    }
    let shape: ReturnType<typeof shapeOf>
    try {
      shape = shapeOf(parse(text))
    } catch (error) {
      problems.push(`${key}: does not parse (${String(error)})`)
      continue
    }
    const source = shapeOf(parse(english[key]!))
    const args = [...shape.args].sort().join(",")
    const sourceArgs = [...source.args].sort().join(",")
    if (args !== sourceArgs) problems.push(`${key}: takes {${args}} where English takes {${sourceArgs}}`)
    for (const category of shape.categories) {
      if (!category.startsWith("=") && !categories.has(category))
        problems.push(
          `${key}: plural category "${category}" is not one of ${language}'s (${[...categories].join(", ")})`
        )
    }
    if (shape.kinds.has("plural") && !shape.categories.has("other")) problems.push(`${key}: a plural without "other"`)
    const values = Object.fromEntries([...source.args].map((name) => [name, sample(name)]))
    const formatted = new IntlMessageFormat(text, language).format(values)
    if (typeof formatted !== "string" || formatted.trim() === "") problems.push(`${key}: formats to nothing`)
  }
  return problems
}
