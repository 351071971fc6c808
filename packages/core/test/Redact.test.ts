/** `Redact.redactUrl`: what a logged URL keeps and what it loses. */
import { describe, expect, it } from "vitest"
import * as Qforms from "../src/Qforms.ts"
import { declareRoute, redactUrl } from "../src/web/Redact.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"

describe("redactUrl", () => {
  it("redacts the token segments of the routes declared, under any prefix", () => {
    declareRoute("/app/sign-in/link/:token")
    declareRoute("/t/o/:token")
    declareRoute("/t/c/:token")
    expect(redactUrl("/app/sign-in/link/abc_DEF-123")).toBe("/app/sign-in/link/[redacted]")
    expect(redactUrl("/forms-service/app/sign-in/link/abc?next=/app")).toBe(
      "/forms-service/app/sign-in/link/[redacted]?next=/app"
    )
    expect(redactUrl("/t/o/tok1")).toBe("/t/o/[redacted]")
    expect(redactUrl("/x/t/c/tok2?u=1")).toBe("/x/t/c/[redacted]?u=1")
  })

  it("redacts query parameters named like credentials, and qforms keys and secrets anywhere", () => {
    expect(redactUrl("/api/events?formId=3&access_token=xyz")).toBe("/api/events?formId=3&access_token=[redacted]")
    expect(redactUrl("/a?TOKEN=1&api_key=2&Signature=3&code=4&password=5&csrf=6&x-api-key=7&q=8")).toBe(
      "/a?TOKEN=[redacted]&api_key=[redacted]&Signature=[redacted]&code=[redacted]&password=[redacted]&csrf=[redacted]&x-api-key=[redacted]&q=8"
    )
    expect(redactUrl("/a?access%5Ftoken=1")).toBe("/a?access%5Ftoken=[redacted]")
    expect(redactUrl("/api/qk_live_abcdefghijkl/x?note=whsec_abcdef")).toBe(
      "/api/qk_live_[redacted]/x?note=whsec_[redacted]"
    )
  })

  it("redacts the token of every route that carries one, once qforms' routes are built: no list to forget", async () => {
    const { database, cleanup } = databaseTargets[0]!.options()
    const qforms = await Qforms.make({ database, delivery: { worker: false }, app: true })
    try {
      for (const path of [
        "/app/reset/SECRET1",
        "/app/invite/SECRET1",
        "/app/link/SECRET1",
        "/app/sign-in/link/SECRET1",
        "/s/SECRET1",
        "/s/SECRET1/edit?x=1",
        "/f/AbC123/resume/SECRET1",
        "/digest/unsubscribe/SECRET1",
        "/t/o/SECRET1",
        "/t/c/SECRET1?u=1"
      ]) {
        for (const prefix of ["", "/forms-service"]) {
          const logged = redactUrl(`${prefix}${path}`)
          expect(logged, path).not.toContain("SECRET1")
          expect(logged).toBe(`${prefix}${path}`.replace("SECRET1", "[redacted]"))
        }
      }
    } finally {
      await qforms.dispose()
      await cleanup()
    }
  })

  it("keeps every other URL byte for byte", () => {
    for (const url of [
      "/api/forms?limit=10&cursor=abc",
      "/f/AbC123",
      "/",
      "/app/sign-in?next=%2Fapp%2Fforms",
      "/api/forms/3/responses.csv?q=a+b&tag"
    ]) {
      expect(redactUrl(url)).toBe(url)
    }
  })
})
