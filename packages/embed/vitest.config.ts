import { project } from "../../vitest.shared.ts"

export default project("embed", { testTimeout: 60_000, hookTimeout: 60_000 })
