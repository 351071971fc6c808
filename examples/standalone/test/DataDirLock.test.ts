/**
 * The embedded database's data-directory lock, on real processes: a server
 * killed with `kill -9` as PID 1 of a container-like PID namespace starts
 * again as PID 1 of a new one; of two servers started at the same moment
 * exactly one opens the directory; a directory that cannot be written is
 * reported as such, not as "in use". These need root (namespaces, mounts,
 * another user), as the test machine and CI run.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { api, namespacedPid, pidNamespace, type ServerProcess, spawnServer } from "./support/Processes.ts"

const directories: Array<string> = []
const servers: Array<ServerProcess> = []
afterAll(async () => {
  for (const server of servers) await server.stop()
  for (const dir of directories) rmSync(dir, { recursive: true, force: true })
})

const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "qforms-lock-"))
  directories.push(dir)
  return dir
}

/** Listening can take long on a loaded two-core machine (several PGlite starts at once). */
const listening = (server: ServerProcess) =>
  server.waitFor(/qforms listening on (\S+)/, 240_000).then((match) => match[1]!)

const serve = (dataDir: string, wrapper: ReadonlyArray<string> = []) => {
  const server = spawnServer({ QFORMS_DATA_DIR: dataDir }, wrapper)
  servers.push(server)
  return server
}

/** Stops a server run through `pidNamespace` (unshare does not pass SIGTERM on): its exit code. */
const stopNamespaced = async (server: ServerProcess) => {
  process.kill(namespacedPid(server), "SIGTERM")
  return await server.exited
}

/** A server that must not start: its exit code and what it printed on stderr. */
const refused = async (server: ServerProcess) => {
  const code = await server.exited
  return { code, stderr: server.stderr() }
}

describe("the embedded database's data-directory lock", () => {
  it("a server killed with kill -9 as PID 1 starts again as PID 1 of a new namespace, 2 rounds, keeping its data", async () => {
    const dataDir = freshDir()
    let key: string | undefined
    for (let round = 1; round <= 2; round++) {
      const server = serve(dataDir, pidNamespace)
      const url = await listening(server)
      key ??= server.stdout().match(/qk_live_[0-9A-Za-z]+/)?.[0]
      expect(key).toBeDefined()
      // The server is PID 1 inside its namespace, and the lock file names it so.
      expect(readFileSync(join(dataDir, "qforms.lock"), "utf8")).toBe("1")
      const created = await api(url, "POST", "/forms", { key: key!, body: { title: `Round ${round}` } })
      expect(created.status).toBe(201)
      process.kill(namespacedPid(server), "SIGKILL")
      await server.exited
      // The stale file stays behind, naming pid 1, as after an OOM kill.
      expect(readFileSync(join(dataDir, "qforms.lock"), "utf8")).toBe("1")
    }
    const last = serve(dataDir, pidNamespace)
    const url = await listening(last)
    const forms = await api(url, "GET", "/forms", { key: key! })
    expect(forms.status).toBe(200)
    for (const round of [1, 2]) expect(JSON.stringify(forms.body)).toContain(`Round ${round}`)
    expect(await stopNamespaced(last)).toBe(0)
    expect(existsSync(join(dataDir, "qforms.lock"))).toBe(false)
  }, 600_000)

  it("a second live server, PID 1 of its own namespace too, is refused while the first runs", async () => {
    const dataDir = freshDir()
    const first = serve(dataDir, pidNamespace)
    await listening(first)
    const second = await refused(serve(dataDir, pidNamespace))
    expect(second.code).not.toBe(0)
    expect(second.stderr).toMatch(new RegExp(`The embedded database in ${dataDir} is in use by process 1\\.`))
    expect(readFileSync(join(dataDir, "qforms.lock"), "utf8")).toBe("1")
    expect(await stopNamespaced(first)).toBe(0)
  }, 600_000)

  it("of two servers started at the same moment exactly one opens the directory, the other exits saying it is in use", async () => {
    for (let round = 0; round < 2; round++) {
      const dataDir = freshDir()
      // A lock file left by a dead process makes both go through the take-over path.
      if (round > 0) {
        const stale = serve(dataDir)
        await listening(stale)
        stale.child.kill("SIGKILL")
        await stale.exited
      }
      const both = [serve(dataDir), serve(dataDir)]
      const outcomes = await Promise.all(
        both.map((server) =>
          Promise.race([
            listening(server).then(
              () => "listening" as const,
              () => "exited" as const
            ),
            server.exited.then(() => "exited" as const)
          ])
        )
      )
      expect(outcomes.toSorted()).toEqual(["exited", "listening"])
      const loser = both[outcomes.indexOf("exited")]!
      const winner = both[outcomes.indexOf("listening")]!
      expect(await loser.exited).not.toBe(0)
      expect(loser.stderr()).toMatch(
        new RegExp(`The embedded database in ${dataDir} is in use by process ${winner.pid}\\.`)
      )
      const url = await listening(winner)
      expect((await api(url, "GET", "/forms", { key: "qk_live_not_a_key" })).status).toBe(401)
      await winner.stop()
    }
  }, 600_000)

  it("a read-only data directory is reported as read-only (EROFS), naming it", async () => {
    const dataDir = freshDir()
    const server = serve(dataDir, [
      "unshare",
      "--mount",
      "sh",
      "-c",
      `mount --bind "${dataDir}" "${dataDir}" && mount -o remount,bind,ro "${dataDir}" && exec "$@"`,
      "sh"
    ])
    const { code, stderr } = await refused(server)
    expect(code).not.toBe(0)
    expect(stderr).toContain(`The data directory ${dataDir} is on a read-only file system (EROFS)`)
    expect(stderr).not.toMatch(/in use/)
  }, 60_000)

  it("a full data directory is reported as full (ENOSPC), naming it", async () => {
    const dataDir = freshDir()
    const server = serve(dataDir, [
      "unshare",
      "--mount",
      "sh",
      "-c",
      `mount -t tmpfs -o size=64k tmpfs "${dataDir}" && (dd if=/dev/zero of="${dataDir}/fill" bs=4k 2>/dev/null; true) && exec "$@"`,
      "sh"
    ])
    const { code, stderr } = await refused(server)
    expect(code).not.toBe(0)
    expect(stderr).toContain(`The data directory ${dataDir} has no space left (ENOSPC)`)
    expect(stderr).not.toMatch(/in use/)
  }, 60_000)

  it("a data directory the server's user cannot write is reported as not writable (EACCES), naming it", async () => {
    const parent = freshDir()
    const dataDir = join(parent, "data")
    mkdirSync(dataDir, { mode: 0o755 })
    const server = serve(dataDir, ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
    const { code, stderr } = await refused(server)
    expect(code).not.toBe(0)
    expect(stderr).toContain(`The data directory ${dataDir} is not writable by this process (EACCES)`)
    expect(stderr).not.toMatch(/in use/)
  }, 60_000)
})
