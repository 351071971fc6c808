/**
 * Scenario 18, disk full (PGlite): the standalone's data directory sits on a
 * file system of its own (a 128 MB tmpfs), and a file fills it to the last
 * byte under a submission load. Reads go on working, so a readiness check that
 * only reads said "ready" while every submission failed with 500. Now each
 * failed write is 503 `{error}` naming the disk, `/readyz` is 503 naming it,
 * and once the file is gone both come back without a restart, with nothing
 * acknowledged lost.
 *
 * Mounting a tmpfs takes root (CI runs as root); elsewhere the scenario is
 * skipped and says so.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import {
  baseEnv,
  call,
  firstStartKey,
  publishedForm,
  record,
  type ServerProcess,
  spawnServer,
  waitUntil
} from "./support/Harness.ts"

const root = process.getuid?.() === 0
if (!root) process.stderr.write("disk full scenario skipped: mounting a tmpfs takes root\n")

describe.skipIf(!root)("disk full on PGlite", () => {
  const mount = mkdtempSync(join(tmpdir(), "qforms-disk-"))
  let mounted = false
  let server: ServerProcess | undefined
  afterAll(async () => {
    await server?.stop()
    if (mounted) execFileSync("umount", [mount])
    rmSync(mount, { recursive: true, force: true })
  })

  it("503 naming the disk while it is full, /readyz not ready, back once space is freed, nothing acknowledged lost", async () => {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=128m", "tmpfs", mount])
    mounted = true
    server = spawnServer({
      ...baseEnv,
      QFORMS_DATA_DIR: join(mount, "data"),
      QFORMS_FILES_DIR: join(mount, "files")
    })
    const url = (await server.waitFor(/qforms listening on (\S+)/, 240_000))[1]!
    const key = firstStartKey(server)
    const form = await publishedForm(url, key)
    const acknowledged: Array<{ readonly id: number; readonly name: string }> = []
    let n = 0
    const submit = async () => {
      const i = n++
      const name = `Person ${i} ${"x".repeat(800)}`
      const answer = await call(url, "POST", `/api/forms/${form.formId}/responses`, {
        key,
        body: { values: { [form.nameId]: name.slice(0, 900), [form.emailId]: `p${i}@example.com` } }
      })
      if (answer.status === 201) acknowledged.push({ id: answer.body.id, name: name.slice(0, 900) })
      return answer
    }
    for (let i = 0; i < 20; i++) expect((await submit()).status).toBe(201)
    expect((await call(url, "GET", "/readyz")).status).toBe(200)

    // Fill the file system to its last byte (the write stops at ENOSPC).
    const filler = join(mount, "filler")
    try {
      execFileSync("dd", ["if=/dev/zero", `of=${filler}`, "bs=1M", "count=1024"], { stdio: "ignore" })
    } catch {}
    const whileFull: Array<Awaited<ReturnType<typeof submit>>> = []
    // A write may still find room in pages the database had already taken: send until one finds none.
    await waitUntil(
      "a submission to find the disk full",
      async () => {
        const answer = await submit()
        whileFull.push(answer)
        return answer.status === 201 ? undefined : true
      },
      60_000
    )
    for (let i = 0; i < 10; i++) whileFull.push(await submit())
    const ready = await call(url, "GET", "/readyz")
    const refused = whileFull.filter((answer) => answer.status !== 201)

    rmSync(filler)
    writeFileSync(join(mount, "marker"), "space freed")
    const back = await waitUntil(
      "/readyz to be ready again",
      async () => ((await call(url, "GET", "/readyz")).status === 200 ? true : undefined),
      60_000
    ).then(
      () => true,
      () => false
    )
    const after = await submit()
    const listed = await call(url, "GET", `/api/forms/${form.formId}/responses`, { key })
    const stored = new Set((listed.body.responses as Array<{ id: number }>).map((row) => row.id))

    record({
      scenario: "18 disk full",
      target: "pglite",
      figures: {
        "submissions while full": whileFull.length,
        statuses: [...new Set(whileFull.map((answer) => answer.status))].sort().join(", "),
        "refused with 503": refused.filter((answer) => answer.status === 503).length,
        "/readyz while full": ready.status,
        "ready again after freeing": back ? "yes" : "no",
        "first submission after": after.status,
        acknowledged: acknowledged.length,
        "acknowledged, not stored": acknowledged.filter((one) => !stored.has(one.id)).length
      },
      notes: refused.slice(0, 1).map((answer) => `refused: ${JSON.stringify(answer.body).slice(0, 200)}`)
    })
    expect(refused.length).toBeGreaterThan(0)
    expect(refused.map((answer) => answer.status)).toEqual(refused.map(() => 503))
    for (const answer of refused) expect(answer.body.error).toContain("disk is full")
    expect(ready.status).toBe(503)
    expect(ready.body.error).toMatch(/disk/)
    expect(back).toBe(true)
    expect(after.status).toBe(201)
    expect(acknowledged.filter((one) => !stored.has(one.id))).toEqual([])
  })
})
