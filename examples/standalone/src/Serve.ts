/**
 * The qforms standalone server process (loaded by `main.ts`). Configuration
 * comes from the environment (see README); SIGTERM/SIGINT stop it gracefully.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import { firstStartBanner, start } from "./Server.ts"
import * as Settings from "./Settings.ts"

const settings = await Effect.runPromiseExit(Settings.load)
if (Exit.isFailure(settings)) {
  process.stderr.write(`${String(Cause.squash(settings.cause))}\n`)
  process.exit(1)
}

const server = await start(settings.value).catch((error: unknown) => {
  process.stderr.write(`qforms could not start: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
if (Option.isSome(server.firstStart))
  process.stdout.write(`${firstStartBanner(server.firstStart.value, Settings.appUrl(settings.value) ?? server.url)}\n`)
if (settings.value.allowPrivateWebhookTargets) {
  process.stderr.write(
    "qforms: WARNING: QFORMS_ALLOW_PRIVATE_WEBHOOK_TARGETS is on: webhooks may be posted to loopback and private addresses. " +
      "Use it only for local development.\n"
  )
}
process.stdout.write(`qforms listening on ${server.url} (API: ${server.url}/api, docs: ${server.url}/api/docs)\n`)
process.stdout.write(`qforms form generator: ${Settings.formGeneratorName(settings.value)}\n`)

let stopping = false
const stop = (signal: string) => {
  if (stopping) return
  stopping = true
  // Stops accepting at once (synchronously): once this line is out, new connections are refused.
  const closed = server.close()
  process.stdout.write(`qforms: ${signal}, finishing requests and stopping\n`)
  closed.then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`qforms: error while stopping: ${String(error)}\n`)
      process.exit(1)
    }
  )
}
process.on("SIGTERM", () => stop("SIGTERM"))
process.on("SIGINT", () => stop("SIGINT"))
