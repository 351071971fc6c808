/**
 * A question type lives in its module (`forms/questions/`): everything else
 * asks the registry instead of naming a type. This test scans the sources of
 * core and of the application for the types' names as string literals and
 * holds them to a list that may only shrink: the places that still name a
 * type, each with why. A new place fails; a place that stops naming a type
 * must leave the list.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"
import { typeNames } from "../src/forms/questions/QuestionTypes.ts"

const packages = join(import.meta.dirname, "../..")

/** Names that are also everyday words of the code (an input's type, a column's kind): not searched for. */
const everyday = new Set(["text", "number", "email", "date", "time", "url", "tel", "file", "select", "address"])

/** Where a type's name is a type's name: its module, the words of the catalogues, the landed migrations. */
const exempt = /^core\/src\/(forms\/questions\/|app\/catalogues\/|languages\/catalogues\/|storage\/migrations\/)/

/**
 * The places that still name a type, and the names: to be moved behind the registry (issue #50).
 * - The application's builder, case page and summary switch on the type (its shell data already
 *   carries the registry's builder metadata: `QuestionTypes.builderTypes`).
 * - The summaries' kinds (`matrix`, `ranking`, `nps`, `long_text`, `signature`) are the API's names of
 *   a summary's shape, spelled like the types they summarise.
 * - The rest ask a question's type where the registry has no hook yet.
 */
const leftovers: Readonly<Record<string, ReadonlyArray<string>>> = {
  "app/src/insights/SummaryView.js": ["matrix", "ranking"],
  "core/src/cases/Respondents.ts": ["contact"],
  "core/src/cases/StatusEdits.ts": ["short_text"],
  "core/src/email/DigestEmail.ts": ["nps"],
  "core/src/files/FileContent.ts": ["signature"],
  "core/src/forms/Fields.ts": ["rating"],
  "core/src/forms/LogicRules.ts": ["contact"],
  "core/src/forms/Pages.ts": ["contact"],
  "core/src/forms/Summaries.ts": ["rating"],
  "core/src/generation/OfflineFormGenerator.ts": ["short_text"],
  "core/src/insights/AnswerTallies.ts": ["long_text", "matrix", "nps", "ranking"],
  "core/src/insights/Digests.ts": ["nps"],
  "core/src/insights/FormSummaries.ts": ["matrix", "nps", "ranking", "signature"],
  "core/src/pages/static/page.js": ["slider"]
}

const sources = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : sources(path)
    return /\.(ts|js)$/.test(name) ? [path] : []
  })

const searched = typeNames.filter((name) => !everyday.has(name))

const naming = (): Record<string, ReadonlyArray<string>> => {
  const found: Record<string, ReadonlyArray<string>> = {}
  for (const path of [...sources(join(packages, "core/src")), ...sources(join(packages, "app/src"))]) {
    const file = relative(packages, path)
    if (exempt.test(file)) continue
    const text = readFileSync(path, "utf8")
    const names = searched.filter((name) => text.includes(`"${name}"`) || text.includes(`'${name}'`))
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
    expect(naming()).toEqual(
      Object.fromEntries(Object.entries(leftovers).map(([file, names]) => [file, [...names].sort()]))
    )
  })
})
