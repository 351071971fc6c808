import { defaultServerConditions } from "vite"
import { defineProject } from "vitest/config"

// `@qforms/core` from its TypeScript sources (the `source` export condition), as `src/main.ts` runs it.
const conditions = ["source", ...defaultServerConditions]

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: "standalone",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
})
