import { defineConfig } from "vitest/config"
import { maxWorkers } from "./vitest.shared.ts"

export default defineConfig({
  test: {
    // Every package with tests has a vitest.config.ts (the test kit and the example hosts have none).
    projects: ["packages/*/vitest.config.ts", "examples/*/vitest.config.ts"],
    maxWorkers,
    reporters: ["default", "./tools/SummaryReporter.ts"]
  }
})
