/**
 * The program of `qforms` (`cli.ts` loads it): the administration CLI
 * (workspaces, members, API keys) on the server's database and environment.
 * From the repository root:
 * `npm run qforms -- <command>`; `npm run -s qforms -- key create ...` prints
 * only the key.
 *
 * On the embedded database, while a server runs on the same data directory,
 * the command runs inside that server (through its admin socket, see
 * `AdminSocket.ts`): nobody has to stop the service to add a colleague.
 *
 * Exit codes: 0 done, 1 the command failed (message on stderr), 2 bad
 * arguments (message and usage on stderr), 130 interrupted.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Stdio from "effect/Stdio"
import { forward } from "./AdminSocket.ts"
import { absolutePaths, execute } from "./Commands.ts"
import * as Settings from "./Settings.ts"

/** The running server's answer, when a server holds this data directory and listens on its socket. */
const throughServer = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const settings = yield* Effect.option(Settings.load)
    if (settings._tag === "None") return undefined
    const database = Settings.database(settings.value)
    if ("url" in database || database.dataDir === undefined) return undefined
    const dataDir = database.dataDir
    return yield* Effect.promise(() => forward(dataDir, absolutePaths(args, process.cwd())))
  })

const program = Stdio.Stdio.use(({ args }) =>
  Effect.gen(function* () {
    const list = yield* args
    const answer = yield* throughServer(list)
    if (answer === undefined) return yield* execute(list)
    yield* Effect.sync(() => {
      process.stdout.write(answer.stdout)
      process.stderr.write(answer.stderr)
    })
    return answer.code
  })
).pipe(Effect.provide(NodeServices.layer))

NodeRuntime.runMain(program, {
  disableErrorReporting: true,
  teardown: (exit, onExit) => {
    if (Exit.isSuccess(exit)) return onExit(typeof exit.value === "number" ? exit.value : 0)
    if (Cause.hasInterruptsOnly(exit.cause)) return onExit(130)
    process.stderr.write(`qforms: unexpected failure: ${Cause.pretty(exit.cause)}\n`)
    onExit(1)
  }
})
