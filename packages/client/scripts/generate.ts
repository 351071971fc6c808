/**
 * `npm run generate -w @qforms/client`: writes `src/openapi.ts`, the types of the API, from the OpenAPI document
 * qforms serves at `/api/openapi.json` (`OpenApi.fromApi(Api.Documented)`, built from the Schemas of
 * packages/core/src/api/Api.ts), through `openapi-typescript`. `--check` writes nothing and exits 1 when the
 * committed file differs from what the current document gives (test/Generated.test.ts checks the same).
 */
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { generate } from "./Types.ts"

const target = fileURLToPath(new URL("../src/openapi.ts", import.meta.url))
const text = await generate()
if (process.argv.includes("--check")) {
  if (readFileSync(target, "utf8") !== text) {
    process.stderr.write("packages/client/src/openapi.ts is out of date: run `npm run generate -w @qforms/client`\n")
    process.exit(1)
  }
} else {
  writeFileSync(target, text)
  process.stdout.write(`wrote ${target} (${text.length} characters)\n`)
}
