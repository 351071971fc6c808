import { project } from "../../vitest.shared.ts"

export default project("client", { testTimeout: 120_000, hookTimeout: 120_000 })
