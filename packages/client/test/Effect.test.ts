/**
 * `@qforms/client/effect` against a live qforms on loopback: Effect's `HttpApiClient` for the API definition, with
 * the key as a bearer token, over `FetchHttpClient`: a form made and published, a public submission without the
 * key, the responses listed, and a 404 as the API's own tagged error with the server's message.
 */
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { seedWorkspace } from "@qforms/test-kit/PublicForms"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as QformsEffect from "../src/effect.ts"

describe("@qforms/client/effect against a live server", () => {
  let server: TestServer
  let key: string

  beforeAll(async () => {
    server = await startTestServer(databaseTargets[0]!, { publicPage: { minSubmitSeconds: 0 } })
    key = (await seedWorkspace(server)).key
  })

  afterAll(async () => {
    await server?.close()
  })

  it("creates, publishes, submits publicly, lists; a 404 is the API's NotFound with its message", async () => {
    const program = Effect.gen(function* () {
      const qforms = yield* QformsEffect.make({ baseUrl: `${server.url}/`, apiKey: key })
      const anonymous = yield* QformsEffect.make({ baseUrl: server.url })
      const form = yield* qforms.forms.create({
        payload: { title: "Effect", fields: [{ type: "short_text", label: "Name", required: true, options: {} }] }
      })
      yield* qforms.forms.update({ params: { id: form.id }, payload: { status: "published" } })
      const submitted = yield* anonymous.public.submit({
        params: { publicId: form.publicId },
        payload: { values: { [form.fields[0]!.id]: "Ada Lovelace" } }
      })
      const list = yield* qforms.responses.list({ params: { formId: form.id }, query: { limit: 10 } })
      const missing = yield* Effect.flip(qforms.forms.get({ params: { id: 2147483647 } }))
      return {
        submitted: submitted.id,
        listed: list.responses.map((row) => row.id),
        missing: { name: missing.name, error: "error" in missing ? missing.error : undefined }
      }
    })
    const result = await Effect.runPromise(program.pipe(Effect.provide(FetchHttpClient.layer)))
    expect(result.listed).toEqual([result.submitted])
    expect(result.missing).toEqual({ name: "qforms/http/NotFound", error: "form 2147483647 not found" })
  })
})
