/** `Redact.redactUrl`: what a logged URL keeps and what it loses. */
import { describe, expect, it } from "vitest"
import { redactUrl } from "../src/web/Redact.ts"

describe("redactUrl", () => {
  it("redacts the token segments of sign-in and tracking links, under any prefix", () => {
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
