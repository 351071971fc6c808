/**
 * Assertions on the contract's answers: statuses, `{error}` bodies, and the
 * shapes of forms, questions, stages, members and response rows; and a
 * strict RFC 4180 reader for the CSV export.
 */
import { expect } from "vitest"
import type { Reply } from "./Requests.ts"

/** An ISO 8601 timestamp with a zone. */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

/** Asserts a status, with the body in the failure message. */
export const expectStatus = (reply: Reply, status: number) =>
  expect(reply.status, `body: ${reply.text.slice(0, 500)}`).toBe(status)

/**
 * Asserts an error reply: the status, a JSON `{error}` body (plus `details`
 * only on a 400) and, when given, that the message names each of `names`.
 */
export const expectError = (reply: Reply, status: number, ...names: ReadonlyArray<string>) => {
  expectStatus(reply, status)
  expect(reply.headers.get("content-type") ?? "", `content-type of ${reply.text.slice(0, 200)}`).toMatch(
    /application\/(problem\+)?json/
  )
  expect(reply.body, reply.text.slice(0, 500)).toBeTypeOf("object")
  expect(reply.body).not.toBeNull()
  expect(typeof reply.body.error, reply.text.slice(0, 500)).toBe("string")
  expect(reply.body.error.length).toBeGreaterThan(0)
  const extra = Object.keys(reply.body).filter((k) => k !== "error" && !(status === 400 && k === "details"))
  expect(extra, `unexpected keys in ${reply.text.slice(0, 300)}`).toEqual([])
  if (reply.body.details !== undefined) {
    expect(Array.isArray(reply.body.details)).toBe(true)
    for (const detail of reply.body.details) {
      expect(detail).toMatchObject({ path: expect.any(String), message: expect.any(String) })
    }
  }
  for (const name of names) {
    expect(reply.body.error.toLowerCase(), `the error should name "${name}"`).toContain(name.toLowerCase())
  }
}

/**
 * Like {@link expectError}, for requests checked in a loop: a wrong status is
 * recorded (soft) and the loop goes on, so one run lists every failing request.
 */
export const softError = (label: string, reply: Reply, status: number, ...names: ReadonlyArray<string>) => {
  expect.soft(reply.status, `${label} → ${reply.text.slice(0, 200)}`).toBe(status)
  if (reply.status === status) expectError(reply, status, ...names)
}

export const expectFormSummary = (form: unknown) => {
  expect(form).toMatchObject({
    id: expect.any(Number),
    publicId: expect.any(String),
    title: expect.any(String),
    status: expect.stringMatching(/^(draft|published|closed)$/),
    responseCount: expect.any(Number),
    createdAt: expect.stringMatching(ISO),
    updatedAt: expect.stringMatching(ISO)
  })
  const f = form as { id: number; description: unknown; folderId: unknown; responseCount: number }
  expect(Number.isInteger(f.id)).toBe(true)
  expect(Number.isInteger(f.responseCount)).toBe(true)
  expect(f.description === null || typeof f.description === "string").toBe(true)
  expect(f.folderId === null || Number.isInteger(f.folderId)).toBe(true)
}

export const expectField = (field: unknown) => {
  expect(field).toMatchObject({
    id: expect.any(Number),
    type: expect.any(String),
    label: expect.any(String),
    required: expect.any(Boolean),
    position: expect.any(Number)
  })
  const options = (field as { options: unknown }).options
  expect(options === null || (typeof options === "object" && !Array.isArray(options))).toBe(true)
}

export const expectStage = (stage: unknown) => {
  expect(stage).toMatchObject({ id: expect.any(Number), name: expect.any(String), isClosed: expect.any(Boolean) })
  const color = (stage as { color: unknown }).color
  expect(color === null || typeof color === "string").toBe(true)
}

export const expectMember = (member: unknown) => {
  expect(member).toMatchObject({
    accountId: expect.any(Number),
    email: expect.any(String),
    role: expect.stringMatching(/^(owner|admin|member|viewer)$/)
  })
  const name = (member as { name: unknown }).name
  expect(name === null || typeof name === "string").toBe(true)
}

export const expectResponseRow = (row: unknown, flat = false) => {
  expect(row).toMatchObject({
    id: expect.any(Number),
    submittedAt: expect.stringMatching(ISO),
    updatedAt: expect.stringMatching(ISO),
    tags: expect.any(Array),
    source: expect.any(String),
    values: expect.any(Object)
  })
  const r = row as Record<string, unknown>
  for (const key of ["name", "email"]) expect(r[key] === null || typeof r[key] === "string").toBe(true)
  for (const key of ["stageId", "assigneeId"]) expect(r[key] === null || Number.isInteger(r[key])).toBe(true)
  if (flat) {
    expect(r["answers"]).toBeTypeOf("object")
    for (const value of Object.values(r["answers"] as object)) expect(value).toBeTypeOf("string")
    expect(r["summary"]).toBeTypeOf("string")
  } else {
    expect(r).not.toHaveProperty("answers")
    expect(r).not.toHaveProperty("summary")
  }
}

/** RFC 4180 parser (accepts CRLF or LF between records, strips a leading BOM). */
export const parseCsv = (input: string): Array<Array<string>> => {
  const text = input.startsWith("\uFEFF") ? input.slice(1) : input
  const rows: Array<Array<string>> = []
  let row: Array<string> = []
  let cell = ""
  let quoted = false
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"'
          i += 2
          continue
        }
        quoted = false
        i++
        continue
      }
      cell += c
      i++
      continue
    }
    if (c === '"' && cell === "") {
      quoted = true
      i++
    } else if (c === ",") {
      row.push(cell)
      cell = ""
      i++
    } else if (c === "\r" || c === "\n") {
      row.push(cell)
      rows.push(row)
      row = []
      cell = ""
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1
    } else {
      cell += c
      i++
    }
  }
  if (cell !== "" || row.length > 0) {
    row.push(cell)
    rows.push(row)
  }
  return rows
}
