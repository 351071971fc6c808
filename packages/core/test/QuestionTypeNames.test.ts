/**
 * A question type lives in its module (`forms/questions/`): everything else
 * asks the registry instead of naming a type. This test scans the sources of
 * core and of the application for the types' names as string literals (with
 * TypeScript's scanner: a doc comment's example is documentation, not code)
 * and holds them to a list that may only shrink: the places that still name a
 * type, each with why. A new place fails; a place that stops naming a type
 * must leave the list. A few words are spelled like a type but name something
 * else (a summary's kind in the API); they are listed apart, with what they name.
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
 * The places that still name a type, and the names: to be moved behind the registry (issue #50).
 * The application's builder, case page and summary switch on the type (its shell data carries the
 * registry's builder metadata: `QuestionTypes.builderTypes`).
 */
const leftovers: Readonly<Record<string, ReadonlyArray<string>>> = {
  "app/src/builder/AssignmentEditor.js": ["statement"],
  "app/src/builder/BuilderScreen.js": ["checkboxes", "short_text", "statement"],
  "app/src/builder/Drafts.js": ["checkboxes", "matrix", "ranking", "statement"],
  "app/src/builder/OptionsEditor.js": [
    "checkboxes",
    "matrix",
    "nps",
    "opinion_scale",
    "ranking",
    "rating",
    "slider",
    "statement"
  ],
  "app/src/case/CaseScreen.js": [
    "checkboxes",
    "long_text",
    "matrix",
    "ranking",
    "short_text",
    "signature",
    "statement"
  ],
  "app/src/insights/SummaryView.js": ["legal", "matrix", "ranking", "yes_no"]
}

/**
 * Words spelled like a type that name something else, where they do. Not to be moved: they are
 * other vocabularies, and a type added or removed does not change them.
 */
const otherWords: Readonly<Record<string, ReadonlyArray<string>>> = {
  // The kinds of a question's summary (`QuestionSummary.kind`, in the OpenAPI document): a type's
  // module says which kind summarises it (`summary.kind`); a matrix's and a ranking's kinds are spelled
  // like those types.
  "core/src/insights/AnswerTallies.ts": ["matrix", "ranking"],
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

/** The string literals of a source file (and the plain parts of its template literals), comments left out. */
const stringLiterals = (path: string, text: string): ReadonlySet<string> => {
  const found = new Set<string>()
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false)
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) found.add(node.text)
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

  it("appear outside forms/questions/ only in the places still listed, and each listed place still names them", () => {
    const listed = { ...leftovers, ...otherWords }
    expect(naming()).toEqual(
      Object.fromEntries(
        Object.keys(listed)
          .sort()
          .map((file) => [file, [...listed[file]!].sort()])
      )
    )
  })
})
