/**
 * The HTTP contract: uploaded files (public upload, submission, download).
 */
import { expect } from "vitest"
import { group } from "./Contract.ts"
import { send } from "./Requests.ts"
import { expectStatus, expectError } from "./Expectations.ts"

export const uploadedFiles = group("uploaded files (public upload, submission, download)", { transport: true }, (c) => {
  const { api, createForm, transportTest } = c
  const pdf = "%PDF-1.7\n% qforms contract suite\n%%EOF\n"

  transportTest(
    "a file uploaded to the public route submits as the answer and downloads with the key, byte for byte",
    async () => {
      const created = await createForm({
        title: "With a file",
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "file", label: "CV", options: { accept: [".pdf"] } }
        ]
      })
      expectStatus(await api("PATCH", `/forms/${created.id}`, { body: { status: "published" } }), 200)
      const [name, cv] = (await api("GET", `/forms/${created.id}`)).body.fields as Array<{ id: number }>
      const post = (content: string, filename: string) => {
        const data = new FormData()
        data.append("file", new Blob([content], { type: "application/pdf" }), filename)
        return send(
          `${c.server.url}/f/${created.publicId}/uploads?fieldId=${cv!.id}`,
          { method: "POST", body: data },
          c.settings.onReply
        )
      }
      const uploaded = await post(pdf, "cv.pdf")
      const file = (await uploaded.json()) as { fileId: string; name: string; size: number; type: string }
      expect(uploaded.status, JSON.stringify(file)).toBe(201)
      expect(file).toMatchObject({ name: "cv.pdf", size: Buffer.byteLength(pdf), type: "application/pdf" })
      const refused = await post("not a pdf at all", "fake.pdf")
      expect(refused.status).toBe(415)
      expect(typeof ((await refused.json()) as { error?: unknown }).error).toBe("string")
      const submitted = await api("POST", `/forms/${created.id}/responses`, {
        body: { values: { [name!.id]: "Ada", [cv!.id]: { fileId: file.fileId } } }
      })
      expectStatus(submitted, 201)
      expect(submitted.body.values[String(cv!.id)]).toEqual(file)
      const download = await send(
        `${c.server.url}/api/files/${file.fileId}`,
        {
          headers: { authorization: `Bearer ${c.seed.keys.owner}` }
        },
        c.settings.onReply
      )
      expect(download.status).toBe(200)
      expect(download.headers.get("content-disposition")).toContain("attachment")
      expect(await download.text()).toBe(pdf)
      expectError(await api("GET", `/files/${file.fileId}`, { key: c.seed.keys.other }), 404)
    }
  )
})
