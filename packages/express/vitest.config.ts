import { project } from "../../vitest.shared.ts"

export default project("express", { testTimeout: 30_000, hookTimeout: 60_000 })
