/**
 * The standalone's access log (`LOG_REQUESTS=true`): one JSON line per
 * request, with every token and secret of the URL redacted: the one-time
 * sign-in link, the e-mail tracking links, and credential-named query parameters.
 */
import { afterAll, describe, expect, it } from "vitest"
import { type ProcessDatabase, processTargets, type ServerProcess, spawnServer } from "./support/Processes.ts"

const target = processTargets[0]!

describe(`access log on ${target.name}`, () => {
  let db: ProcessDatabase | undefined
  let server: ServerProcess | undefined
  afterAll(async () => {
    await server?.stop()
    await db?.cleanup()
  })

  it("writes no token of a URL: sign-in links, tracking links and credential query parameters are redacted", async () => {
    db = target.make()
    server = spawnServer({ ...db.env, LOG_REQUESTS: "true", LOG_FORMAT: "json" })
    const url = await server.listening
    // The first start prints the one-time sign-in link once, on purpose (the banner).
    const token = (await server.waitFor(/\/app\/sign-in\/link\/([A-Za-z0-9_-]+)/))[1]!
    const secrets = [
      token,
      "open-pixel-token-1",
      "click-token-2",
      "query-token-3",
      "qk_live_abcdefghijklmnop",
      "hook-secret-4"
    ]
    const paths = [
      `/app/sign-in/link/${token}`,
      "/t/o/open-pixel-token-1",
      "/t/c/click-token-2?u=1",
      "/api/events?formId=3&access_token=query-token-3",
      "/api/forms?key=qk_live_abcdefghijklmnop",
      "/f/some-form?x=1&webhook_secret=hook-secret-4"
    ]
    for (const path of paths) await (await fetch(`${url}${path}`)).text()
    // Every request got its line.
    const lines = await server.waitFor(/(.*"url":"\/f\/some-form[^\n]*\n)/)
    expect(lines[0]).toContain("webhook_secret=[redacted]")
    const log = server
      .stdout()
      .split("\n")
      .filter((line) => line.startsWith("{") && line.includes('"url"'))
    const urls = log.map((line) => (JSON.parse(line) as { url: string }).url)
    expect(urls).toEqual(
      expect.arrayContaining([
        "/app/sign-in/link/[redacted]",
        "/t/o/[redacted]",
        "/t/c/[redacted]?u=1",
        "/api/events?formId=3&access_token=[redacted]",
        "/api/forms?key=[redacted]",
        "/f/some-form?x=1&webhook_secret=[redacted]"
      ])
    )
    for (const secret of secrets) {
      // The banner holds the sign-in token once; no log line holds any secret.
      expect(
        log.filter((line) => line.includes(secret)),
        secret
      ).toEqual([])
    }
  }, 120_000)
})
