/**
 * A question type lives in its module (`forms/questions/`): everything else
 * asks the registry instead of naming a type. This test scans the sources of
 * core and of the application for the types' names as string literals and as
 * the keys of object literals (read with TypeScript's parser: a doc comment's
 * example is documentation, not code). A few words are spelled like a type but
 * name something else (a summary's kind in the API); they are listed, with
 * what they name. A new place fails; a place listed that stops using the word
 * must leave the list.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"
import { typeNames } from "../src/forms/questions/QuestionTypes.ts"

const packages = join(import.meta.dirname, "../..")

/** Names that are also everyday words of the code (an input's type, a column's kind): not searched for. */
const everyday = new Set(["text", "number", "email", "date", "time", "url", "tel", "file", "select", "address"])

/** Where a type's name is a type's name: its module, the words of the catalogues, the landed migrations. */
const exempt = /^core\/src\/(forms\/questions\/|app\/catalogues\/|languages\/catalogues\/|storage\/migrations\/)/

/**
 * Words spelled like a type that name something else, where they do: the only places outside
 * `forms/questions/` (and the catalogues, the landed migrations, tests and docs) where such a word
 * appears. Not to be moved: they are other vocabularies, and a type added or removed does not change them.
 */
const otherWords: Readonly<Record<string, ReadonlyArray<string>>> = {
  // The kinds of a question's summary (`QuestionSummary.kind`, in the OpenAPI document): a type's
  // module says which kind summarises it (`summary.kind`); a matrix's and a ranking's kinds are spelled
  // like those types. The application draws each kind of summary its own way.
  "app/src/insights/SummaryView.js": ["matrix", "ranking"],
  // And the numbers summary's `nps` field (its Net Promoter Score, in the OpenAPI document).
  "core/src/insights/AnswerTallies.ts": ["matrix", "nps", "ranking"],
  // The option key `currency` (an ISO 4217 code) that the builder edits, the answer's `currency` (its code)
  // that the case page formats, and Intl.NumberFormat's style "currency": named like the type.
  "app/src/builder/OptionLayout.js": ["currency"],
  "app/src/builder/OptionsEditor.js": ["currency"],
  "app/src/case/CaseScreen.js": ["currency"],
  "app/src/shared/Formats.js": ["currency"],
  // The summary's CSV: a line's first cell says what the line counts (a summary kind, an NPS figure,
  // a signature drawn or typed), a published format.
  "core/src/insights/FormSummaries.ts": ["matrix", "nps", "ranking", "signature"],
  // How the page is embedded (`qf-embed`: inline, popup or slider), `@qforms/embed`'s modes.
  "core/src/pages/static/page.js": ["slider"]
}

const sources = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : sources(path)
    return /\.(ts|js)$/.test(name) ? [path] : []
  })

/**
 * The string literals of a source file (and the plain parts of its template literals) and the keys of its
 * object literals (`{ rating: … }`), comments left out.
 */
const stringLiterals = (path: string, text: string): ReadonlySet<string> => {
  const found = new Set<string>()
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false)
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) found.add(node.text)
    if ((ts.isPropertyAssignment(node) || ts.isMethodDeclaration(node)) && ts.isIdentifier(node.name))
      found.add(node.name.text)
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

const searched = typeNames.filter((name) => !everyday.has(name))

const naming = (): Record<string, ReadonlyArray<string>> => {
  const found: Record<string, ReadonlyArray<string>> = {}
  for (const path of [...sources(join(packages, "core/src")), ...sources(join(packages, "app/src"))]) {
    const file = relative(packages, path)
    if (exempt.test(file)) continue
    const literals = stringLiterals(path, readFileSync(path, "utf8"))
    const names = searched.filter((name) => literals.has(name))
    if (names.length > 0) found[file] = [...names].sort()
  }
  return found
}

describe("question type names", () => {
  it("searches the registry's names, distinctive ones among them", () => {
    expect(searched).toContain("matrix")
    expect(searched).toContain("currency")
    expect(searched.length).toBeGreaterThan(12)
  })

  it("appear outside forms/questions/ only where they name something else, and each place listed still does", () => {
    const listed = otherWords
    expect(naming()).toEqual(
      Object.fromEntries(
        Object.keys(listed)
          .sort()
          .map((file) => [file, [...listed[file]!].sort()])
      )
    )
  })
})
