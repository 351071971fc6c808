/**
 * The CLI's way in while the server runs on the embedded database. PGlite is
 * one process's database, so a second process cannot open the data directory
 * the server holds; instead the server listens on a Unix socket in that
 * directory (`admin.sock`, mode 0600: only the operator's own user — who can
 * read the database files anyway — can connect), and the CLI, finding it,
 * sends its arguments there. The server runs the very same command (the same
 * parsing, validation and services) on its own database and answers the
 * output and the exit code. No network port, no secret to leak.
 *
 * Protocol: one line of JSON `{"args": [...]}` in, one JSON
 * `{"code", "stdout", "stderr"}` out, then the connection closes.
 */
import { chmodSync, existsSync, unlinkSync } from "node:fs"
import { connect, createServer, type Server } from "node:net"
import { join } from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import type { Qforms } from "@qforms/core"
import * as Cause from "effect/Cause"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { CliFailure, execute, InServer } from "./Commands.ts"

/** The socket of a data directory. */
export const socketPath = (dataDir: string): string => join(dataDir, "admin.sock")

/** Unix socket paths are limited to about 107 bytes. */
const fits = (path: string) => Buffer.byteLength(path) < 104

/** What a command answered. */
export interface Answer {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const format = (args: ReadonlyArray<unknown>) => args.map((a) => (typeof a === "string" ? a : String(a))).join(" ")

/** Runs one command's arguments inside the server, capturing what it prints. */
export const runInServer = (qforms: Qforms.Qforms, args: ReadonlyArray<string>): Promise<Answer> => {
  let stdout = ""
  let stderr = ""
  const console: Console.Console = Object.assign(Object.create(globalThis.console), {
    log: (...values: ReadonlyArray<unknown>) => void (stdout += `${format(values)}\n`),
    info: (...values: ReadonlyArray<unknown>) => void (stdout += `${format(values)}\n`),
    error: (...values: ReadonlyArray<unknown>) => void (stderr += `${format(values)}\n`),
    warn: (...values: ReadonlyArray<unknown>) => void (stderr += `${format(values)}\n`)
  })
  const inServer = <A, E extends { readonly message: string }>(effect: Effect.Effect<A, E, never>) =>
    Effect.tryPromise({
      try: () => qforms.run(Effect.exit(effect as never)) as Promise<Exit.Exit<A, E>>,
      catch: (error) => new CliFailure({ message: String(error) })
    }).pipe(
      Effect.flatMap((exit) =>
        Exit.isSuccess(exit)
          ? Effect.succeed(exit.value)
          : Effect.fail(
              new CliFailure({ message: (Cause.squash(exit.cause) as { message?: string }).message ?? "failed" })
            )
      )
    )
  return Effect.runPromise(
    execute(args).pipe(
      Effect.provideService(InServer, inServer as never),
      Effect.provideService(Console.Console, console),
      Effect.provide(NodeServices.layer),
      Effect.catchCause((cause) =>
        Effect.sync(() => void (stderr += `qforms: unexpected failure: ${Cause.pretty(cause)}\n`)).pipe(Effect.as(1))
      )
    )
  ).then((code) => ({ code, stdout, stderr }))
}

/**
 * Listens on the data directory's socket (the caller holds the directory's
 * lock, so a socket file left there is stale). Answers a function that stops
 * listening and removes it; undefined when the path is too long for a socket.
 */
export const serve = async (dataDir: string, qforms: Qforms.Qforms): Promise<(() => Promise<void>) | undefined> => {
  const path = socketPath(dataDir)
  if (!fits(path)) return undefined
  if (existsSync(path)) unlinkSync(path)
  const server: Server = createServer((socket) => {
    let input = ""
    socket.setEncoding("utf8")
    socket.on("error", () => socket.destroy())
    socket.on("data", (chunk: string) => {
      input += chunk
      if (input.length > 64 * 1024) return socket.destroy()
      const end = input.indexOf("\n")
      if (end < 0) return
      // One command per connection: what follows the first line is never read.
      socket.removeAllListeners("data")
      const request = (() => {
        try {
          return JSON.parse(input.slice(0, end)) as { args?: unknown }
        } catch {
          return undefined
        }
      })()
      const args = request?.args
      if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) {
        socket.end(`${JSON.stringify({ code: 2, stdout: "", stderr: "qforms: bad request to the admin socket\n" })}\n`)
        return
      }
      void runInServer(qforms, args).then((answer) => socket.end(`${JSON.stringify(answer)}\n`))
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(path, () => resolve())
  })
  chmodSync(path, 0o600)
  return () =>
    new Promise<void>((resolve) =>
      server.close(() => {
        if (existsSync(path)) unlinkSync(path)
        resolve()
      })
    )
}

/**
 * Sends the arguments to a server running on this data directory: its
 * answer, or undefined when no server listens there (then the CLI opens the
 * database itself).
 */
export const forward = (dataDir: string, args: ReadonlyArray<string>): Promise<Answer | undefined> => {
  const path = socketPath(dataDir)
  if (!fits(path) || !existsSync(path)) return Promise.resolve(undefined)
  return new Promise((resolve) => {
    let output = ""
    let connected = false
    const socket = connect(path, () => {
      connected = true
      socket.write(`${JSON.stringify({ args })}\n`)
    })
    socket.setEncoding("utf8")
    socket.on("data", (chunk: string) => void (output += chunk))
    socket.on("error", (error) => {
      resolve(
        connected
          ? { code: 1, stdout: "", stderr: `qforms: the running server's admin socket failed: ${error.message}\n` }
          : undefined
      )
    })
    socket.on("end", () => {
      const answer = (() => {
        try {
          return JSON.parse(output) as Answer
        } catch {
          return { code: 1, stdout: "", stderr: "qforms: the running server gave no answer\n" }
        }
      })()
      resolve(answer)
    })
  })
}
