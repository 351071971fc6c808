/**
 * The client against a live qforms on loopback (PGlite, and PostgreSQL when QFORMS_TEST_DATABASE_URL is set): a
 * form made with an API key, a public submission and upload without one, every response listed with
 * `paginate` over several pages, a case updated, the file read back, typed errors on 404 and 400, and a live
 * 429 of the key's rate limit retried after its `Retry-After`.
 */
import { databaseTargets } from "@qforms/test-kit/Databases"
import { seedWorkspace } from "@qforms/test-kit/PublicForms"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest"
import { type Client, createClient, type Data, isQformsError, QformsError } from "../src/index.ts"

for (const target of databaseTargets)
  describe(`@qforms/client against a live server (${target.name})`, () => {
    let server: TestServer
    let qforms: Client
    let anonymous: Client

    beforeAll(async () => {
      server = await startTestServer(target, { publicPage: { minSubmitSeconds: 0 } })
      const { key } = await seedWorkspace(server)
      qforms = createClient({ baseUrl: server.url, apiKey: key })
      anonymous = createClient({ baseUrl: server.url })
    })

    afterAll(async () => {
      await server?.close()
    })

    it("creates a form, submits publicly with an upload, pages through every response, updates a case", async () => {
      const form = await qforms.POST("/api/forms", {
        body: {
          title: "Applications",
          fields: [
            { type: "short_text", label: "Name", required: true },
            { type: "file", label: "CV" }
          ]
        }
      })
      expectTypeOf(form.id).toEqualTypeOf<number>()
      const [name, cv] = form.fields
      if (name === undefined || cv === undefined) throw new Error("no questions")
      await qforms.PATCH("/api/forms/{id}", { params: { path: { id: form.id } }, body: { status: "published" } })

      // The respondent's upload and submission, without a key.
      const upload = await anonymous.POST("/f/{publicId}/uploads", {
        params: { path: { publicId: form.publicId }, query: { fieldId: cv.id } },
        body: { file: new File(["Ada's CV\n"], "cv.txt", { type: "text/plain" }) }
      })
      expect(upload).toMatchObject({ name: "cv.txt", size: 9, fileId: expect.any(String) })
      const submitted = await anonymous.POST("/f/{publicId}/responses", {
        params: { path: { publicId: form.publicId } },
        body: { values: { [name.id]: "Ada Lovelace", [cv.id]: upload } }
      })
      expect(submitted.id).toEqual(expect.any(Number))

      // More through the API, so the list has several pages of two.
      const made = [submitted.id]
      for (const person of ["Grace Hopper", "Katherine Johnson", "Margaret Hamilton", "Hedy Lamarr"])
        made.push(
          (
            await qforms.POST("/api/forms/{formId}/responses", {
              params: { path: { formId: form.id } },
              body: { values: { [name.id]: person } }
            })
          ).id
        )
      const init = { params: { path: { formId: form.id }, query: { limit: 2 } } }
      const pages: Array<Data<"/api/forms/{formId}/responses", "get">> = []
      for await (const page of qforms.pages("/api/forms/{formId}/responses", init)) pages.push(page)
      expect(pages.map((page) => page.responses.length)).toEqual([2, 2, 1])
      const ids: Array<number> = []
      for await (const row of qforms.paginate("/api/forms/{formId}/responses", init, "responses")) {
        expectTypeOf(row.id).toEqualTypeOf<number>()
        ids.push(row.id)
      }
      expect(ids.sort()).toEqual([...made].sort())

      // The case: a stage, a tag; the file read back.
      const { stages } = await qforms.GET("/api/forms/{formId}/stages", { params: { path: { formId: form.id } } })
      const changed = await qforms.PATCH("/api/responses/{id}", {
        params: { path: { id: submitted.id } },
        body: { stageId: stages[1]!.id, tags: ["vip"] }
      })
      expect(changed.ok).toBe(true)
      const detail = await qforms.GET("/api/responses/{id}", { params: { path: { id: submitted.id } } })
      expect(detail.response.tags).toEqual(["vip"])
      expect(detail.response.stageId).toBe(stages[1]!.id)
      const file = await qforms.GET("/api/files/{fileId}", { params: { path: { fileId: upload.fileId } } })
      expect(file).toBeInstanceOf(Blob)
      expect(await (file as Blob).text()).toBe("Ada's CV\n")

      // A CSV export is text.
      const csv = await qforms.GET("/api/forms/{formId}/responses.csv", { params: { path: { formId: form.id } } })
      expectTypeOf(csv).toEqualTypeOf<string>()
      expect(csv).toContain("Grace Hopper")
    })

    it("throws a QformsError with the status and the server's message on 404, 400 and 401", async () => {
      const missing = await qforms
        .GET("/api/forms/{id}", { params: { path: { id: 2147483647 } } })
        .catch((error: unknown) => error)
      expect(missing).toBeInstanceOf(QformsError)
      expect(isQformsError(missing, 404)).toBe(true)
      expect((missing as QformsError).error).toEqual(expect.any(String))
      expect((missing as QformsError).message).toMatch(/^GET \/api\/forms\/2147483647: 404 /)

      // A body the types refuse, sent anyway: the server's 400 names the field.
      const bad = await qforms
        .POST("/api/forms", { body: { title: "", fields: [{ type: "no_such_type", label: "X" }] } as never })
        .catch((error: unknown) => error)
      expect(isQformsError(bad, 400)).toBe(true)
      expect((bad as QformsError).body).toMatchObject({ error: expect.any(String) })

      const unauthorised = await anonymous.GET("/api/forms").catch((error: unknown) => error)
      expect(isQformsError(unauthorised, 401)).toBe(true)
    })

    it("works under a prefix's base URL and with a custom fetch and headers", async () => {
      const seen: Array<{ url: string; header: string | null }> = []
      const custom = createClient({
        baseUrl: `${server.url}/`,
        apiKey: (await seedWorkspace(server)).key,
        headers: () => ({ "x-request-from": "client-test" }),
        fetch: (request) => {
          seen.push({ url: request.url, header: request.headers.get("x-request-from") })
          return fetch(request)
        }
      })
      const forms = await custom.GET("/api/forms")
      expect(forms).toEqual(expect.any(Array))
      expect(seen).toEqual([{ url: `${server.url}/api/forms`, header: "client-test" }])
      expect(
        createClient({ baseUrl: "https://example.com/forms-service/" }).url("/api/forms/{id}", { path: { id: 7 } })
      ).toBe("https://example.com/forms-service/api/forms/7")
    })
  })

describe("@qforms/client on a live 429", () => {
  let server: TestServer

  beforeAll(async () => {
    // Two requests in a burst, then one a second: the third is refused with Retry-After: 1.
    server = await startTestServer(databaseTargets[0]!, { rateLimit: { requestsPerSecond: 1, burst: 2 } })
  })

  afterAll(async () => {
    await server?.close()
  })

  it("waits for Retry-After and tries again; with retries off, the 429 is a QformsError", async () => {
    const { key } = await seedWorkspace(server)
    // Calls until the bucket is empty (the third, unless a second passed): without retries the 429 is thrown.
    const noRetry = createClient({ baseUrl: server.url, apiKey: key, retry: false })
    let refused: unknown
    for (let call = 0; call < 20 && refused === undefined; call++)
      await noRetry.GET("/api/forms").catch((error: unknown) => {
        refused = error
      })
    expect(isQformsError(refused, 429)).toBe(true)
    expect((refused as QformsError).retryAfter).toBeGreaterThanOrEqual(1)
    // With retries, a call refused with 429 waits and is answered: some call sees 429 then 200, after a wait.
    let statuses: Array<number> = []
    const retrying = createClient({
      baseUrl: server.url,
      apiKey: key,
      fetch: async (request) => {
        const response = await fetch(request)
        statuses.push(response.status)
        return response
      }
    })
    let retried: { readonly statuses: Array<number>; readonly ms: number } | undefined
    for (let call = 0; call < 20 && retried === undefined; call++) {
      statuses = []
      const started = Date.now()
      await retrying.GET("/api/forms")
      if (statuses[0] === 429) retried = { statuses, ms: Date.now() - started }
    }
    expect(retried?.statuses.at(-1)).toBe(200)
    expect(retried!.ms).toBeGreaterThanOrEqual(500)
  })
})
