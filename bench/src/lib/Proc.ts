/**
 * Server processes: each system under test runs in a child process of its
 * own on 127.0.0.1 and an ephemeral port; the harness reads the URL (and the
 * first-start API key) from its stdout, and its memory from /proc.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

/** The repository root. */
export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))

/** A running child process. */
export interface Proc {
  readonly name: string
  readonly pid: number
  readonly child: ChildProcess
  /** What the process printed (last lines), for error messages. */
  readonly output: () => string
  /** Resolves with the first match of `pattern` in stdout/stderr (rejects if the process exits first). */
  readonly waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>
  /** SIGTERM, then SIGKILL after `graceMs`. */
  readonly stop: (graceMs?: number) => Promise<void>
  readonly exited: Promise<number | null>
}

export interface SpawnOptions {
  readonly name: string
  /** A .ts or .js entry (absolute, or relative to the repository root). */
  readonly script: string
  readonly env?: Record<string, string | undefined>
  readonly nodeArgs?: ReadonlyArray<string> | undefined
  readonly cwd?: string
}

const live = new Set<Proc>()

/** Drops unset variables (so `{ DATABASE_URL: undefined }` removes an inherited one). */
const cleanEnv = (env: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined))

/** Starts `node --conditions=source <script>` (on the harness's own Node). */
export const spawnNode = (options: SpawnOptions): Proc => {
  const script = options.script.startsWith("/") ? options.script : `${repoRoot}${options.script}`
  const child = spawn(
    process.execPath,
    ["--conditions=source", "--disable-warning=ExperimentalWarning", ...(options.nodeArgs ?? []), script],
    {
      cwd: options.cwd ?? repoRoot,
      env: cleanEnv({ ...process.env, NODE_OPTIONS: "", ...options.env }),
      stdio: ["ignore", "pipe", "pipe"]
    }
  )
  let text = ""
  const waiters: Array<{ pattern: RegExp; resolve: (m: RegExpMatchArray) => void }> = []
  const onData = (chunk: Buffer) => {
    text += chunk.toString("utf8")
    if (text.length > 200_000) text = text.slice(-100_000)
    for (const waiter of [...waiters]) {
      const match = text.match(waiter.pattern)
      if (match !== null) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve(match)
      }
    }
  }
  child.stdout!.on("data", onData)
  child.stderr!.on("data", onData)
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  const proc: Proc = {
    name: options.name,
    pid: child.pid!,
    child,
    exited,
    output: () => text.slice(-4000),
    waitFor: (pattern, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const found = text.match(pattern)
        if (found !== null) return resolve(found)
        const timer = setTimeout(
          () =>
            reject(new Error(`${options.name}: no ${pattern} after ${timeoutMs} ms; output:\n${text.slice(-3000)}`)),
          timeoutMs
        )
        const waiter = {
          pattern,
          resolve: (m: RegExpMatchArray) => {
            clearTimeout(timer)
            resolve(m)
          }
        }
        waiters.push(waiter)
        void exited.then((code) => {
          if (!waiters.includes(waiter)) return
          clearTimeout(timer)
          reject(
            new Error(`${options.name} exited (${code}) before printing ${pattern}; output:\n${text.slice(-3000)}`)
          )
        })
      }),
    stop: async (graceMs = 15_000) => {
      live.delete(proc)
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill("SIGTERM")
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs)
      await exited
      clearTimeout(timer)
    }
  }
  live.add(proc)
  return proc
}

/** Kills every child still running (on a failure or an interrupt). */
export const killAll = () => {
  for (const proc of live) {
    if (proc.child.exitCode === null) proc.child.kill("SIGKILL")
  }
  live.clear()
}

/** Resident and peak resident memory of a process, in bytes (Linux /proc). */
export const memory = (pid: number): { readonly rss: number; readonly hwm: number } => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const field = (name: string) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, "m"))?.[1] ?? NaN) * 1024
  return { rss: field("VmRSS"), hwm: field("VmHWM") }
}

/** Samples the resident memory every `everyMs` until stopped; returns the peak. */
export const sampleRss = (pid: number, everyMs = 100) => {
  let peak = 0
  const tick = () => {
    try {
      peak = Math.max(peak, memory(pid).rss)
    } catch {
      // the process is gone
    }
  }
  tick()
  const timer = setInterval(tick, everyMs)
  return {
    stop: () => {
      clearInterval(timer)
      tick()
      return peak
    }
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; NaN elsewhere or once it is gone). */
export const cpuSeconds = (pid: number): number => {
  try {
    // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return NaN
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
