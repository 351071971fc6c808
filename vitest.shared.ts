import { availableParallelism } from "node:os"
import { fileURLToPath } from "node:url"
import { configDefaults, defineProject } from "vitest/config"

/**
 * The test projects of the repository, in one place (the root `vitest.config.ts`
 * lists them). `npm test` runs the default ones: unit and in-process tests on
 * the embedded database, each file's servers on a copy of one migrated
 * database per worker, every timeout at most 30 s. The named ones take longer
 * and are run by their own scripts (and by CI):
 *
 * | project | script | what |
 * |---|---|---|
 * | `browser` | `npm run test:browser` | every `*Browser.test.ts`: the screens in Debian's Chromium |
 * | `processes` | `npm run test:processes` | qforms as child processes: the standalone server and CLI, delivery across killed and restarted servers |
 * | `packed` | `npm run test:packages` | the packed client installed outside the workspace, a client generated from the served document |
 *
 * `npm run test:pg` runs the default projects again on PostgreSQL alone
 * (`QFORMS_TEST_DATABASES=postgres`, see the test kit's `Databases`).
 */

/**
 * Test files at a time: one per core, and one more, since a file spends part of
 * its time waiting on servers, databases and browsers.
 */
export const maxWorkers = availableParallelism() + 1

/**
 * Test files of one worker share their modules instead of each loading Effect
 * and qforms again: on 2 cores the core project took 348 s of CPU isolated and
 * 217 s shared. It is safe because no test replaces a module or a global
 * (no `vi.mock`, `vi.stubGlobal`, fake timers or `process.env` writes): every
 * file builds its own servers, databases and layers and closes them. It is
 * also what makes a worker's in-memory databases cheap: the first is migrated
 * once, and every later one in the same worker starts from its copy.
 */
export const isolate = false

/**
 * `@qforms/core` (and `@qforms/node-http`) from TypeScript sources, as `npm start` runs them (with
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
  },
  // The Node adapters' one path, as `@qforms/express` and `@qforms/h3` import it.
  {
    find: /^@qforms\/node-http$/,
    replacement: fileURLToPath(new URL("./packages/node-http/src/index.ts", import.meta.url))
  }
]

/** Files that drive Chromium: the `browser` project's, and no other's. */
const browserFiles = "test/**/*Browser.test.ts"

/** Core's files that run qforms in child processes: the `processes` project's. */
const processFiles = ["test/DeliveryProcesses.test.ts"]

/** Files that pack or generate a client and compile it with `tsc`: the `packed` project's. */
const packedFiles = ["test/Packed.test.ts", "test/GeneratedClient.test.ts"]

/** The timeouts of the default projects: a hook or test that needs longer belongs in a named project. */
const fast = { testTimeout: 30_000, hookTimeout: 30_000 }

/** The named projects: a browser, a child process or `npm pack` on a loaded machine. */
const slow = { testTimeout: 120_000, hookTimeout: 180_000 }

const inFolder = (
  name: string,
  folder: string,
  files: { readonly include?: ReadonlyArray<string>; readonly exclude?: ReadonlyArray<string> },
  timeouts: { readonly testTimeout: number; readonly hookTimeout: number }
) =>
  defineProject({
    root: fileURLToPath(new URL(`./${folder}`, import.meta.url)),
    resolve: { alias },
    test: {
      name,
      maxWorkers,
      isolate,
      include: [...(files.include ?? ["test/**/*.test.ts"])],
      exclude: [...configDefaults.exclude, ...(files.exclude ?? [])],
      ...timeouts
    }
  })

/** Every project of the repository, default and named. */
export const projects = [
  inFolder("core", "packages/core", { exclude: [browserFiles, ...processFiles, ...packedFiles] }, fast),
  // The application's pure browser modules (formats, ordering, shortcuts, charts, filters, …), in Node: no browser.
  inFolder("app", "packages/app", {}, fast),
  inFolder("client", "packages/client", { exclude: packedFiles }, fast),
  inFolder("embed", "packages/embed", { exclude: [browserFiles] }, fast),
  inFolder("express", "packages/express", {}, fast),
  inFolder("h3", "packages/h3", {}, fast),
  inFolder("node-http", "packages/node-http", {}, fast),
  inFolder("browser", "packages/core", { include: [browserFiles] }, slow),
  inFolder("browser-embed", "packages/embed", { include: [browserFiles] }, slow),
  inFolder("processes", "examples/standalone", {}, slow),
  inFolder("processes-core", "packages/core", { include: processFiles }, slow),
  inFolder("packed", "packages/client", { include: ["test/Packed.test.ts"] }, slow),
  inFolder("packed-core", "packages/core", { include: ["test/GeneratedClient.test.ts"] }, slow)
]
