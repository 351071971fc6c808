import { fileURLToPath } from "node:url"
import { configDefaults, defineProject } from "vitest/config"

/**
 * What every package's Vitest project shares. A project does not inherit the
 * root config's `test` options, and Vitest refuses projects of one run whose
 * `maxWorkers` differ, so they all take them from here.
 */

/**
 * Test files at a time. Vitest's default is one fewer than the cores: one on a
 * 2-core machine, so files ran one after another although most of their time
 * is spent waiting on servers, child processes, databases and browsers.
 */
export const maxWorkers = 3

/**
 * Test files of one worker share their modules instead of each loading Effect
 * and qforms again: on 2 cores the core project took 348 s of CPU isolated and
 * 217 s shared. It is safe because no test replaces a module or a global
 * (no `vi.mock`, `vi.stubGlobal`, fake timers or `process.env` writes): every
 * file builds its own servers, databases and layers and closes them.
 */
export const isolate = false

/**
 * `@qforms/core` from its TypeScript sources, as `npm start` runs them (with
 * the `source` export condition), so no build is needed before `npm test`:
 * the test kit and the standalone import it by name. An alias rather than the
 * `source` condition for every package, which would also pick the TypeScript
 * sources some dependencies publish under it (eventsource, used by the MCP
 * client) and make Vite compile them.
 */
export const alias = [
  { find: /^@qforms\/core$/, replacement: fileURLToPath(new URL("./packages/core/src/index.ts", import.meta.url)) },
  // The API definition alone (`@qforms/core/api`), as `@qforms/client/effect` imports it.
  {
    find: /^@qforms\/core\/api$/,
    replacement: fileURLToPath(new URL("./packages/core/src/api/Api.ts", import.meta.url))
  }
]

/**
 * The browser suites (`*Browser.test.ts`) run the application on the embedded
 * database only (an in-memory one each), whatever `QFORMS_TEST_DATABASE_URL`
 * says. CI's PostgreSQL leg follows a run without the URL that ran them, so it
 * sets `QFORMS_TEST_POSTGRES_LEG=1` to leave them out instead of running the
 * same thing twice (about a third of that leg's time).
 */
export const exclude =
  process.env.QFORMS_TEST_POSTGRES_LEG === "1"
    ? [...configDefaults.exclude, "test/**/*Browser.test.ts"]
    : configDefaults.exclude

/** One package's Vitest project: the shared workers, isolation and resolution. */
export const project = (name: string, timeouts: { readonly testTimeout: number; readonly hookTimeout: number }) =>
  defineProject({
    resolve: { alias },
    test: { name, maxWorkers, isolate, include: ["test/**/*.test.ts"], exclude, ...timeouts }
  })
