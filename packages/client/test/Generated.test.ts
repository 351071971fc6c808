/**
 * The committed types (`src/openapi.ts`) are those of the current OpenAPI document: the document qforms serves
 * (`OpenApi.fromApi(Api.Documented)`, what `GET /api/openapi.json` answers, less its `servers`), through
 * openapi-typescript. A change to a Schema of the API fails here until `npm run generate -w @qforms/client`.
 */
import { readFile } from "node:fs/promises"
import { describe, expect, it } from "vitest"
import { generate } from "../scripts/Types.ts"

describe("src/openapi.ts", () => {
  it("is what the current OpenAPI document generates (run `npm run generate -w @qforms/client` when not)", async () => {
    const committed = await readFile(new URL("../src/openapi.ts", import.meta.url), "utf8")
    const current = await generate()
    // One line on failure, not a 400 KB diff.
    const firstDifference = [...current].findIndex((char, i) => char !== committed[i])
    expect(
      committed === current ? "up to date" : `differs at line ${current.slice(0, firstDifference).split("\n").length}`
    ).toBe("up to date")
  })
})
