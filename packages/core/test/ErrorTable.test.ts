/**
 * The one error table: every tagged error the source defines is either
 * answered with the status of its row, or listed as never reaching a client
 * (with why); the API's error classes follow the table.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import * as ApiErrors from "../src/web/ApiErrors.ts"
import * as ErrorTable from "../src/web/ErrorTable.ts"

const src = join(import.meta.dirname, "../src")
const modules = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? modules(path) : name.endsWith(".ts") ? [path] : []
  })
/** Every `Schema.TaggedError<…>()("Tag", …)` of the source. */
const tags = modules(src).flatMap((path) =>
  [...readFileSync(path, "utf8").matchAll(/TaggedError<\w+>\(\)\(\s*"(\w+)"/g)].map((m) => m[1]!)
)

describe("the error table", () => {
  it("accounts for every tagged error of the source, and only for those", () => {
    expect(tags.length).toBeGreaterThan(30)
    const rows = [...Object.keys(ErrorTable.statuses), ...Object.keys(ErrorTable.internalErrors)]
    expect(
      tags.filter((tag) => !rows.includes(tag)),
      "give the new error a row (or say why it never reaches a client)"
    ).toEqual([])
    expect(
      rows.filter((tag) => !tags.includes(tag)),
      "a row for an error that no longer exists"
    ).toEqual([])
    expect(Object.keys(ErrorTable.statuses).filter((tag) => tag in ErrorTable.internalErrors)).toEqual([])
  })

  it("is what the API answers: each domain error's HTTP error has the status of its row", () => {
    const classes: Record<number, new (...args: never) => unknown> = {
      400: ApiErrors.BadRequest,
      401: ApiErrors.Unauthorized,
      403: ApiErrors.Forbidden,
      404: ApiErrors.NotFound,
      409: ApiErrors.Conflict,
      413: ApiErrors.PayloadTooLarge,
      415: ApiErrors.UnsupportedMediaType,
      502: ApiErrors.BadGateway
    }
    for (const tag of [
      "InvalidInput",
      "Forbidden",
      "Conflict",
      "InvalidApiKey",
      "GeneratorFailed",
      "FileTooLarge",
      "StorageQuotaExceeded",
      "UnsupportedFileType",
      "FormNotFound",
      "ChannelNotFound",
      "FileNotFound"
    ] as const) {
      const http = ApiErrors.fromDomain({ _tag: tag, message: "m" })
      expect(http, tag).toBeInstanceOf(classes[ErrorTable.statuses[tag]]!)
      expect(ApiErrors.domainResponse({ _tag: tag, message: "m" }).status, tag).toBe(ErrorTable.statuses[tag])
    }
  })
})
