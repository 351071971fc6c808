import { project } from "../../vitest.shared.ts"

// Tests that start the server and the CLI as child processes: longer timeouts.
export default project("standalone", { testTimeout: 60_000, hookTimeout: 120_000 })
