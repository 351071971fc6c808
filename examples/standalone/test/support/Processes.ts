/**
 * Real processes for the standalone's tests: the server (`src/main.ts`) and
 * the CLI (`src/cli.ts`) run by the same Node as vitest, on a database of
 * their own (a temporary PGlite directory, or a PostgreSQL schema dropped
 * afterwards), plus plain HTTP helpers with timeouts.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { request as httpRequest } from "node:http"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { type DatabaseTarget, databaseTargets } from "@qforms/test-kit/Databases"

/** examples/standalone */
export const standaloneDir = fileURLToPath(new URL("../..", import.meta.url))
/** The repository root. */
export const rootDir = fileURLToPath(new URL("../../../..", import.meta.url))

/** A database for child processes: the environment that selects it, and its removal. */
export interface ProcessDatabase {
  readonly name: DatabaseTarget["name"]
  readonly env: Readonly<Record<string, string>>
  /** The PGlite data directory (PGlite only). */
  readonly dataDir?: string | undefined
  readonly cleanup: () => Promise<void>
}

export interface ProcessTarget {
  readonly name: DatabaseTarget["name"]
  /** A fresh, empty database. */
  readonly make: () => ProcessDatabase
}

/** PGlite always (a temporary directory); PostgreSQL when QFORMS_TEST_DATABASE_URL is set (a unique schema). */
export const processTargets: ReadonlyArray<ProcessTarget> = databaseTargets.map((target) => ({
  name: target.name,
  make: (): ProcessDatabase => {
    const { database, cleanup } = target.options()
    if ("url" in database) {
      return {
        name: target.name,
        env: { DATABASE_URL: database.url, QFORMS_DB_SCHEMA: database.schema ?? "qforms" },
        cleanup
      }
    }
    const dataDir = mkdtempSync(join(tmpdir(), "qforms-standalone-"))
    return {
      name: target.name,
      env: { QFORMS_DATA_DIR: dataDir },
      dataDir,
      cleanup: async () => {
        await cleanup()
        rmSync(dataDir, { recursive: true, force: true })
      }
    }
  }
}))

/** Variables of the parent that would change what the children do. */
const inherited = (): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined) continue
    if (/^(QFORMS_|DATABASE_URL$|PORT$|HOST$|APP_URL$|LOG_)/.test(name)) continue
    env[name] = value
  }
  return env
}

const nodeArgs = (script: string) => ["--conditions=source", "--disable-warning=ExperimentalWarning", script]

// ---------------------------------------------------------------------------
// The CLI
// ---------------------------------------------------------------------------

export interface CliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `qforms <args>` to its end (killed after `timeoutMs`). */
export const cli = (
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>>,
  timeoutMs = 60_000
): Promise<CliResult> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs("src/cli.ts"), ...args], {
      cwd: standaloneDir,
      env: { ...inherited(), ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    child.on("error", reject)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })

/** Runs `qforms <args>` and expects it to succeed; answers stdout. */
export const cliOk = async (args: ReadonlyArray<string>, env: Readonly<Record<string, string>>): Promise<string> => {
  const result = await cli(args, env)
  if (result.code !== 0) {
    throw new Error(
      `qforms ${args.join(" ")} exited with ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`
    )
  }
  return result.stdout
}

/** Runs a command through npm from the repository root (`npm run -s qforms -- …`). */
export const npm = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>>): Promise<CliResult> =>
  new Promise((resolve, reject) => {
    const child = spawn("npm", args, {
      cwd: rootDir,
      env: { ...inherited(), ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

// ---------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------

export interface ServerProcess {
  readonly child: ChildProcess
  readonly pid: number
  readonly stdout: () => string
  readonly stderr: () => string
  /** Resolves with the URL from `qforms listening on <url>` (rejects if the process ends first). */
  readonly listening: Promise<string>
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  readonly exited: Promise<number | string>
  /** Resolves when stdout has a line matching `pattern`. */
  readonly waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>
  /** SIGTERM, then the exit code; SIGKILL after `timeoutMs`. */
  readonly stop: (timeoutMs?: number) => Promise<number | string>
}

/** The first port of the kernel's ephemeral range (`listen(0)` and outgoing connections take theirs from it). */
const ephemeralStart = (): number => {
  const range = (() => {
    try {
      return readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8")
    } catch {
      return "32768 60999"
    }
  })()
  const first = Number.parseInt(range.trim().split(/\s+/)[0] ?? "", 10)
  return Number.isInteger(first) && first > 12_000 ? first : 32768
}

/** Whether nothing listens on this loopback port now. */
const isFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer()
    server.once("error", () => resolve(false))
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)))
  })

/**
 * A free loopback port for tests that must know the port before the server
 * prints it. Chosen below the kernel's ephemeral range: a port from
 * `listen(0)` would be free only until the kernel hands it to the next
 * `listen(0)` or outgoing connection of a parallel test (EADDRINUSE at the
 * server's start); below the range only a test that chose it the same way
 * can take it, and the choice is random over ~20,000 ports.
 */
export const freePort = async (): Promise<number> => {
  const top = ephemeralStart()
  const bottom = Math.max(1024, top - 20_000)
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = bottom + Math.floor(Math.random() * (top - bottom))
    if (await isFree(port)) return port
  }
  throw new Error(`no free port between ${bottom} and ${top}`)
}

/**
 * Runs a command as PID 1 of a fresh PID namespace (with its own /proc), as in
 * a container; the command gets SIGKILL if `unshare` dies. Needs root.
 */
export const pidNamespace: ReadonlyArray<string> = ["unshare", "--pid", "--fork", "--mount-proc", "--kill-child"]

/**
 * Spawns the standalone server (`PORT=0` unless `env` says otherwise);
 * `wrapper` runs it through a command first (e.g. {@link pidNamespace}).
 */
export const spawnServer = (
  env: Readonly<Record<string, string>>,
  wrapper: ReadonlyArray<string> = []
): ServerProcess => {
  const [command, ...args] = [...wrapper, process.execPath, ...nodeArgs("src/main.ts")]
  const child = spawn(command!, args, {
    cwd: standaloneDir,
    env: { ...inherited(), PORT: "0", LOG_LEVEL: "Warn", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  const waiters = new Set<() => void>()
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk
    for (const waiter of waiters) waiter()
  })
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  // "close", not "exit": after "exit" the pipes may still hold output (a loaded machine shows it), and a test
  // that reads stderr once the server has ended must see all of it.
  const exited = new Promise<number | string>((resolve) => {
    child.on("close", (code, signal) => {
      resolve(code ?? signal ?? "unknown")
      for (const waiter of waiters) waiter()
    })
  })
  let ended = false
  void exited.then(() => (ended = true))
  const waitFor = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = stdout.match(pattern)
        if (match) {
          done()
          resolve(match)
        } else if (ended || child.exitCode !== null) {
          done()
          reject(new Error(`the server ended before printing ${pattern}\nstdout: ${stdout}\nstderr: ${stderr}`))
        }
      }
      const timer = setTimeout(() => {
        done()
        reject(new Error(`no ${pattern} after ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`))
      }, timeoutMs)
      const done = () => {
        clearTimeout(timer)
        waiters.delete(check)
      }
      waiters.add(check)
      check()
    })
  const listening = waitFor(/qforms listening on (\S+)/).then((match) => match[1]!)
  listening.catch(() => {})
  const stop = async (timeoutMs = 30_000) => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    const code = await exited
    clearTimeout(timer)
    return code
  }
  return { child, pid: child.pid!, stdout: () => stdout, stderr: () => stderr, listening, exited, waitFor, stop }
}

/**
 * The pid, as this process sees it, of the server started through
 * {@link pidNamespace}: the one child of `unshare` (PID 1 inside).
 */
export const namespacedPid = (server: ServerProcess): number => {
  const children = readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, "utf8").trim().split(/\s+/)
  if (children.length !== 1 || children[0] === "")
    throw new Error(`unshare ${server.pid} has children [${children.join(" ")}]`)
  return Number(children[0])
}

/** The key the first start printed in its banner. */
export const firstStartKey = (server: ServerProcess): string => {
  const match = server.stdout().match(/qk_live_[0-9A-Za-z]+/)
  if (!match) throw new Error(`no first-start key in:\n${server.stdout()}`)
  return match[0]
}

// ---------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------

export type Probe =
  | { readonly _tag: "answered"; readonly status: number; readonly body: string }
  | { readonly _tag: "refused" }
  | { readonly _tag: "timeout" }
  | { readonly _tag: "failed"; readonly code: string }

/**
 * One request on a new connection (no keep-alive pool), with a deadline: it is
 * answered, refused, failed (e.g. reset), or it hangs past `timeoutMs`.
 */
export const probe = (
  url: string,
  options: {
    readonly method?: string
    readonly key?: string
    readonly body?: unknown
    readonly timeoutMs?: number
  } = {}
): Promise<Probe> =>
  new Promise((resolve) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body)
    const req = httpRequest(
      url,
      {
        method: options.method ?? "GET",
        agent: false,
        headers: {
          ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
          ...(body ? { "content-type": "application/json", "content-length": Buffer.byteLength(body) } : {})
        }
      },
      (res) => {
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (chunk: string) => (text += chunk))
        res.on("end", () => {
          clearTimeout(timer)
          resolve({ _tag: "answered", status: res.statusCode!, body: text })
        })
        res.on("error", (error: NodeJS.ErrnoException) => {
          clearTimeout(timer)
          resolve({ _tag: "failed", code: error.code ?? error.message })
        })
      }
    )
    const timer = setTimeout(() => {
      resolve({ _tag: "timeout" })
      req.destroy()
    }, options.timeoutMs ?? 5_000)
    req.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      resolve(
        error.code === "ECONNREFUSED" ? { _tag: "refused" } : { _tag: "failed", code: error.code ?? error.message }
      )
    })
    req.end(body)
  })

/** A JSON request with fetch and a deadline; answers the status and parsed body. */
export const api = async (
  baseUrl: string,
  method: string,
  path: string,
  options: { readonly key?: string | undefined; readonly body?: unknown; readonly timeoutMs?: number } = {}
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ readonly status: number; readonly body: any }> => {
  const response = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers: {
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...(options.body === undefined ? {} : { "content-type": "application/json" })
    },
    body: options.body === undefined ? null : JSON.stringify(options.body),
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000)
  })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: response.status, body }
}

/** A published form with a required name and e-mail; answers its id and question ids. */
export const publishedForm = async (url: string, key: string) => {
  const created = await api(url, "POST", "/forms", {
    key,
    body: {
      title: "Contact",
      fields: [
        { type: "short_text", label: "Name", required: true },
        { type: "email", label: "Email", required: true }
      ]
    }
  })
  if (created.status !== 201) throw new Error(`POST /forms: ${created.status} ${JSON.stringify(created.body)}`)
  const published = await api(url, "PATCH", `/forms/${created.body.id}`, { key, body: { status: "published" } })
  if (published.status !== 200) throw new Error(`PATCH /forms: ${published.status} ${JSON.stringify(published.body)}`)
  const full = await api(url, "GET", `/forms/${created.body.id}`, { key })
  const [name, email] = full.body.fields as Array<{ id: number }>
  return { formId: created.body.id as number, nameId: name!.id, emailId: email!.id }
}

/**
 * Uploads a file to a published form's file question through its public page
 * (`POST /f/{publicId}/uploads`), as a respondent's browser does: the file's id.
 */
export const uploadFile = async (
  url: string,
  publicId: string,
  fieldId: number,
  content: Buffer,
  name = "cv.pdf",
  type = "application/pdf"
): Promise<string> => {
  const boundary = "----qformsTestBoundary"
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        `Content-Type: ${type}\r\n\r\n`
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`)
  ])
  const response = await fetch(`${url}/f/${publicId}/uploads?fieldId=${fieldId}`, {
    method: "POST",
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    body
  })
  const text = await response.text()
  if (response.status !== 201) throw new Error(`upload: ${response.status} ${text}`)
  return (JSON.parse(text) as { fileId: string }).fileId
}
