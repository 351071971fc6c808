import { defineConfig } from "vitest/config"
import { maxWorkers, projects } from "./vitest.shared.ts"

export default defineConfig({
  test: {
    // Every project of the repository (vitest.shared.ts): `npm test` leaves out the named ones.
    projects,
    maxWorkers,
    reporters: ["default", "./tools/SummaryReporter.ts"]
  }
})
