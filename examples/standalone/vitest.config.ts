import { defaultServerConditions } from "vite"
import { defineProject } from "vitest/config"

// `@qforms/core` from its TypeScript sources (the `source` export condition), as `src/main.ts` runs it.
const conditions = ["source", ...defaultServerConditions]

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: "standalone",
    // The contract suite's MCP client (the SDK) needs eventsource(-parser), whose exports also offer their
    // TypeScript sources under `source`: Node will not strip types in node_modules, so Vite compiles them.
    // (The server side of the SDK needs neither: `npm start` is unaffected.)
    server: { deps: { inline: ["@modelcontextprotocol/sdk", "eventsource", "eventsource-parser"] } },
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
})
