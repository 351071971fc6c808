/**
 * `qforms backup` and `qforms restore`, as an operator runs them: a backup
 * taken through the running server while clients keep submitting, restored
 * into a new data directory, verified, and served again; and every refusal
 * (an existing file, a running server, a directory that holds data, a damaged
 * archive) with nothing left behind.
 */
import { spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { absolutePaths } from "../src/Commands.ts"
import { api, cli, firstStartKey, type ServerProcess, spawnServer, uploadFile } from "./support/Processes.ts"

const directories: Array<string> = []
const servers: Array<ServerProcess> = []

afterAll(async () => {
  for (const server of servers) await server.stop()
  for (const dir of directories) rmSync(dir, { recursive: true, force: true })
})

const freshDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  directories.push(dir)
  return dir
}

const serve = async (dataDir: string) => {
  const server = spawnServer({ QFORMS_DATA_DIR: dataDir })
  servers.push(server)
  return { server, url: await server.listening }
}

/** Every response of a form (without `limit` the list is whole). */
const allResponses = async (url: string, key: string, formId: number) => {
  const list = await api(url, "GET", `/forms/${formId}/responses`, { key, timeoutMs: 60_000 })
  expect(list.status, JSON.stringify(list.body)).toBe(200)
  return list.body.responses as Array<{ id: number; values: Record<string, unknown> }>
}

const PDF = Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(300_000)])

describe("qforms backup and restore", () => {
  it("makes the file argument of backup absolute before it goes to the server", () => {
    expect(absolutePaths(["backup", "nightly.tar.gz"], "/srv/ops")).toEqual(["backup", "/srv/ops/nightly.tar.gz"])
    expect(absolutePaths(["--log-level", "info", "backup", "/abs.tar"], "/srv")).toEqual([
      "--log-level",
      "info",
      "backup",
      "/abs.tar"
    ])
    expect(absolutePaths(["key", "list", "x"], "/srv")).toEqual(["key", "list", "x"])
  })

  it("backs up a running server while clients write, restores it verified, and the restore serves it", async () => {
    const original = freshDir("qforms-backup-a-")
    const { server, url } = await serve(original)
    const key = firstStartKey(server)

    const created = await api(url, "POST", "/forms", {
      key,
      body: {
        title: "Applications",
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "select", label: "Team", required: true, options: { choices: ["Red", "Blue"] } },
          { type: "file", label: "CV", required: false }
        ]
      }
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const formId = created.body.id as number
    expect((await api(url, "PATCH", `/forms/${formId}`, { key, body: { status: "published" } })).status).toBe(200)
    const form = await api(url, "GET", `/forms/${formId}`, { key })
    const [name, team, cv] = form.body.fields as Array<{ id: number }>
    const fileId = await uploadFile(url, form.body.publicId, cv!.id, PDF)
    const submit = (i: number, withFile = false) =>
      api(url, "POST", `/forms/${formId}/responses`, {
        key,
        timeoutMs: 60_000,
        body: {
          values: {
            [name!.id]: `Person ${i}`,
            [team!.id]: i % 2 === 0 ? "Red" : "Blue",
            ...(withFile ? { [cv!.id]: { fileId } } : {})
          }
        }
      })
    expect((await submit(0, true)).status).toBe(201)
    for (let i = 1; i < 20; i++) expect((await submit(i)).status).toBe(201)

    // Two clients keep submitting while the backup runs.
    let writing = true
    let submitted = 20
    const failures: Array<string> = []
    const writer = async () => {
      while (writing) {
        const answer = await submit(submitted)
        if (answer.status === 201) submitted += 1
        else failures.push(`${answer.status} ${JSON.stringify(answer.body)}`)
      }
    }
    const writers = [writer(), writer()]
    const backups = freshDir("qforms-backup-files-")
    const file = join(backups, "nightly.tar.gz")
    const before = submitted
    const taken = await cli(["backup", file], { QFORMS_DATA_DIR: original }, 180_000)
    const after = submitted
    writing = false
    await Promise.all(writers)
    expect(taken.code, taken.stderr + taken.stdout).toBe(0)
    expect(failures).toEqual([])
    expect(after).toBeGreaterThan(before)
    expect(taken.stdout).toMatch(/files: 1 \(300009 bytes\)/)
    expect(taken.stdout).toMatch(/held \d+ ms/)
    expect(existsSync(`${file}.partial`)).toBe(false)
    // An outsider reads it: the archive lists the manifest, the database and the file.
    const listing = await new Promise<string>((resolve, reject) => {
      const child = spawn("tar", ["-tzf", file])
      let out = ""
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk))
      child.on("error", reject)
      child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`tar exited ${code}`))))
    })
    const names = listing.trim().split("\n")
    expect(names[0]).toBe("backup.json")
    expect(names).toContain("database/PG_VERSION")
    expect(names.some((n) => n.startsWith("files/"))).toBe(true)
    expect(names.at(-1)).toBe("files.json")
    expect(names.some((n) => /qforms\.lock|admin\.sock|^database\/files\//.test(n))).toBe(false)

    // The same name again is refused; a restore while the server runs is refused.
    const again = await cli(["backup", file], { QFORMS_DATA_DIR: original })
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/exists/)
    const whileRunning = await cli(["restore", file, "--replace"], { QFORMS_DATA_DIR: original })
    expect(whileRunning.code).toBe(1)
    expect(whileRunning.stderr).toMatch(/server is running.*stop it/)
    const total = submitted
    expect(await server.stop()).toBe(0)

    // A directory that holds a database is refused without --replace.
    const refused = await cli(["restore", file], { QFORMS_DATA_DIR: original })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/not empty: pass --replace/)

    // Restored into a new directory: verified, and a server on it serves what the backup held.
    const copy = join(freshDir("qforms-backup-b-"), "data")
    const restored = await cli(["restore", file], { QFORMS_DATA_DIR: copy }, 180_000)
    expect(restored.code, restored.stderr + restored.stdout).toBe(0)
    expect(restored.stdout).toMatch(/every count and digest as backed up/)
    expect(readdirSync(join(copy, "..")).filter((n) => n !== "data")).toEqual([])
    const back = await serve(copy)
    const responses = await allResponses(back.url, key, formId)
    // Every submission acknowledged before the backup began is there, none after the last, each whole.
    expect(responses.length).toBeGreaterThanOrEqual(before)
    expect(responses.length).toBeLessThanOrEqual(after + 2)
    expect(responses.length).toBeLessThan(total + 1)
    for (const response of responses) {
      expect(response.values[String(name!.id)], JSON.stringify(response)).toMatch(/^Person \d+$/)
    }
    const ids = responses.map((r) => r.id).sort((a, b) => a - b)
    expect(ids).toEqual([...new Set(ids)])
    const download = await fetch(`${back.url}/api/files/${fileId}`, { headers: { authorization: `Bearer ${key}` } })
    expect(download.status).toBe(200)
    expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true)
    // New rows go on from where the backup stood.
    const late = await api(back.url, "POST", `/forms/${formId}/responses`, {
      key,
      body: { values: { [name!.id]: "Late", [team!.id]: "Red" } }
    })
    expect(late.status, JSON.stringify(late.body)).toBe(201)
    expect(late.body.id).toBeGreaterThan(ids.at(-1)!)
    expect(await back.server.stop()).toBe(0)

    // --replace puts the backup over the original (stopped) directory.
    const replaced = await cli(["restore", file, "--replace"], { QFORMS_DATA_DIR: original }, 180_000)
    expect(replaced.code, replaced.stderr + replaced.stdout).toBe(0)
    expect(replaced.stdout).toMatch(/replacing the database there/)
    expect(readdirSync(join(original, "..")).filter((n) => n.startsWith(`${original.split("/").at(-1)}.`))).toEqual([])

    // With the server stopped the CLI backs up on its own; an uncompressed archive whose file was altered is refused.
    const plain = join(backups, "plain.tar")
    const offline = await cli(["backup", plain], { QFORMS_DATA_DIR: original }, 180_000)
    expect(offline.code, offline.stderr + offline.stdout).toBe(0)
    const tarBytes = readFileSync(plain)
    const at = tarBytes.indexOf("%PDF-1.4")
    expect(at).toBeGreaterThan(0)
    tarBytes[at + 1000] = tarBytes[at + 1000]! ^ 0xff
    const altered = join(backups, "altered.tar")
    writeFileSync(altered, tarBytes)
    const alteredTarget = join(freshDir("qforms-backup-d-"), "data")
    const refusedAltered = await cli(["restore", altered], { QFORMS_DATA_DIR: alteredTarget }, 180_000)
    expect(refusedAltered.code).toBe(1)
    expect(refusedAltered.stderr).toMatch(/cannot be restored: the file \S+ in it is damaged or missing/)
    expect(readdirSync(join(alteredTarget, ".."))).toEqual([])

    // A damaged archive is refused and leaves nothing behind.
    const bytes = readFileSync(file)
    const damaged = join(backups, "damaged.tar.gz")
    writeFileSync(damaged, bytes.subarray(0, Math.floor(bytes.length / 2)))
    const target = join(freshDir("qforms-backup-c-"), "data")
    const broken = await cli(["restore", damaged], { QFORMS_DATA_DIR: target }, 180_000)
    expect(broken.code).toBe(1)
    expect(broken.stderr).toMatch(/cannot be restored: it is damaged or cut short/)
    expect(readdirSync(join(target, ".."))).toEqual([])
  }, 600_000)
})
