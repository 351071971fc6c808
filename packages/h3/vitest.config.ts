import { project } from "../../vitest.shared.ts"

export default project("h3", { testTimeout: 30_000, hookTimeout: 60_000 })
