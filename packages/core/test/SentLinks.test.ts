/**
 * Links that are stored or leave the process (event payloads for webhooks and
 * chat channels, e-mails) start at the configured `appUrl` only: a request
 * with a forged `Host` / `X-Forwarded-Host` cannot put its origin into a
 * message someone else receives, and e-mail, whose links must be absolute,
 * refuses to start without an `appUrl`.
 */
import { Effect, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Files } from "../src/files/Files.ts"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { apiOf, workspace } from "@qforms/test-kit/InProcessApi"

describe("e-mail without appUrl", () => {
  it("refuses to start, naming the option", async () => {
    await expect(
      Qforms.make({ database: {}, mail: { url: "smtp://127.0.0.1:2525", from: "forms@example.com" } })
    ).rejects.toThrow(/mail needs appUrl/)
  })
})

const configs = [
  { name: "with appUrl", appUrl: "https://forms.example.com", base: "https://forms.example.com" },
  { name: "without appUrl", appUrl: undefined, base: "" }
] as const

for (const target of databaseTargets) {
  for (const config of configs) {
    describe(`stored links on ${target.name}, ${config.name}`, () => {
      let qforms: Qforms.Qforms
      let cleanup: () => Promise<void>

      beforeAll(async () => {
        const options = target.options()
        cleanup = options.cleanup
        qforms = await Qforms.make({
          database: options.database,
          ...(config.appUrl === undefined ? {} : { appUrl: config.appUrl }),
          delivery: { worker: false }
        })
      })
      afterAll(async () => {
        await qforms?.dispose()
        await cleanup?.()
      })

      it("builds the file links of an event from appUrl only, never from a forged X-Forwarded-Host", async () => {
        const key = (await workspace(qforms, `links-${target.name}`)).owner
        const api = apiOf(qforms, key)
        const form = await api("POST", "/forms", {
          title: "Links",
          fields: [{ type: "file", label: "CV", required: true }]
        })
        expect((await api("PATCH", `/forms/${form.json.id}`, { status: "published" })).status).toBe(200)
        const fieldId = form.json.fields[0].id as number
        const answer = await qforms.run(
          Effect.gen(function* () {
            return yield* (yield* Files).upload({
              publicId: form.json.publicId,
              fieldId,
              filename: "cv.txt",
              contentType: "text/plain",
              content: Stream.make(new TextEncoder().encode("cv"))
            })
          })
        )
        const forged = await qforms.handler(
          new Request(`http://evil.example/api/forms/${form.json.id}/responses`, {
            method: "POST",
            headers: {
              authorization: `Bearer ${key}`,
              "content-type": "application/json",
              "x-forwarded-host": "evil.example",
              "x-forwarded-proto": "https"
            },
            body: JSON.stringify({ values: { [String(fieldId)]: { fileId: answer.fileId } } })
          })
        )
        expect(forged.status).toBe(201)
        const created = (await forged.json()) as { id: number }
        const payloads = await qforms.run(
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            return yield* sql<{ readonly payload: unknown }>`
            select payload from events where response_id = ${created.id} and type = 'response.created'`
          })
        )
        expect(payloads).toHaveLength(1)
        const text = JSON.stringify(payloads[0]!.payload)
        expect(text).toContain(`(${config.base}/api/files/${answer.fileId})`)
        expect(text).not.toContain("evil.example")
      })
    })
  }
}
