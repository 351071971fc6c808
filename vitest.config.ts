import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    projects: ["packages/*", "examples/*"],
    reporters: ["default", "./tools/SummaryReporter.ts"]
  }
})
