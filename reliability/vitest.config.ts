import { defaultServerConditions } from "vite"
import { defineConfig } from "vitest/config"
import { alias } from "../vitest.shared.ts"

// `@qforms/core` from its TypeScript sources (the `source` export condition), as the standalone runs it; the
// alias also covers what Vitest loads before those conditions apply (the report writer), so a fresh clone with no
// built dist/ runs the suite too.
const conditions = ["source", ...defaultServerConditions]

/**
 * The reliability suite (`npm run test:reliability`): not a project of the root
 * config, so `npm test` does not run it. One file at a time: the scenarios
 * measure, and the machine is small.
 */
export default defineConfig({
  resolve: { conditions, alias },
  ssr: { resolve: { conditions } },
  test: {
    include: ["test/**/*.test.ts"],
    fileParallelism: false,
    testTimeout: 15 * 60_000,
    hookTimeout: 120_000,
    reporters: ["default", "./test/support/ReportWriter.ts"]
  }
})
