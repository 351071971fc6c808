#!/usr/bin/env -S node --conditions=source
/**
 * `qforms`: the administration CLI (workspaces, members, API keys) on the
 * server's database and environment. From the repository root:
 * `npm run qforms -- <command>`; `npm run -s qforms -- key create ...` prints
 * only the key.
 *
 * Exit codes: 0 done, 1 the command failed (message on stderr), 2 bad
 * arguments (message and usage on stderr), 130 interrupted.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Cause from "effect/Cause"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Stdio from "effect/Stdio"
import { CliError, CliOutput, Command } from "effect/cli"
import { CliFailure, normalizeLogLevelFlag, qforms } from "./Commands.ts"

/** Usage problems (and the usage shown for a missing subcommand) go to stderr; `--help` stays on stdout. */
const presenter = CliOutput.layerPresenter({
  present: (event) =>
    event._tag === "InvalidInvocation"
      ? Effect.gen(function*() {
        const formatter = yield* CliOutput.Formatter
        yield* Console.error(formatter.formatHelpDoc(event.helpDoc))
        yield* Console.error(formatter.formatErrors(event.errors))
      })
      : event._tag === "Help" && event.reason === "Implicit"
      ? Effect.gen(function*() {
        const formatter = yield* CliOutput.Formatter
        yield* Console.error(formatter.formatHelpDoc(event.helpDoc))
      })
      : CliOutput.defaultPresenter.present(event)
})

// `--log-level` takes every name LOG_LEVEL takes, in any case.
const program = Stdio.Stdio.use(({ args }) =>
  Effect.flatMap(args, (list) => Command.runWith(qforms, { version: "0.0.0" })(normalizeLogLevelFlag(list)))
).pipe(
  Effect.as(0),
  Effect.catch((error) =>
    CliError.isCliError(error)
      // Already rendered by effect/cli (the problem, then the usage).
      ? Effect.succeed(2)
      : Effect.as(Console.error(`qforms: ${error instanceof CliFailure ? error.message : String(error)}`), 1)
  ),
  Effect.provide([NodeServices.layer, presenter])
)

NodeRuntime.runMain(program, {
  disableErrorReporting: true,
  teardown: (exit, onExit) => {
    if (Exit.isSuccess(exit)) return onExit(typeof exit.value === "number" ? exit.value : 0)
    if (Cause.hasInterruptsOnly(exit.cause)) return onExit(130)
    process.stderr.write(`qforms: unexpected failure: ${Cause.pretty(exit.cause)}\n`)
    onExit(1)
  }
})
