/**
 * The API reference page (`/api/docs`) is self-contained: a small page under a
 * strict CSP naming its script (Scalar's bundle, a separate file named by its
 * hash, cached for a year) and the OpenAPI document under the mount prefix;
 * page, script and document answer 304 to a matching `If-None-Match`, and the
 * script and document come compressed (Brotli or gzip, each made once).
 * (In Chromium: `DocsPageBrowser.test.ts`.)
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Caching from "../src/web/Caching.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { cspDirectives, prefix, type PrefixServer, rawGet, startPrefixServer } from "@qforms/test-kit/PrefixServer"

const scriptName = (page: string) => {
  const match = /<script src="([^"]*\/api\/docs\/(scalar-[A-Za-z0-9_-]+\.js))"><\/script>/.exec(page)
  expect(match, "the page names its script").not.toBeNull()
  return { src: match![1]!, name: match![2]! }
}

describe("Caching: a representation is compressed once per coding", () => {
  it("makes each coding once, even for concurrent first requests, and keeps the bytes", async () => {
    const body = "const reference = 'qforms';\n".repeat(5000)
    const { first, again, gzip, representation } = await Effect.runPromise(
      Effect.gen(function* () {
        const representation = yield* Caching.makeRepresentation(body)
        const first = yield* Effect.all(
          Array.from({ length: 5 }, () => representation.encoded("br")),
          { concurrency: "unbounded" }
        )
        const again = yield* representation.encoded("br")
        const gzip = yield* representation.encoded("gzip")
        return { first, again, gzip, representation }
      })
    )
    expect(representation.compressions()).toBe(2)
    for (const encoded of first) expect(encoded.bytes).toBe(again.bytes)
    expect(brotliDecompressSync(again.bytes).toString("utf8")).toBe(body)
    expect(gunzipSync(gzip.bytes).toString("utf8")).toBe(body)
    expect(new Set([representation.etag, again.etag, gzip.etag]).size).toBe(3)
  })

  it("reads Accept-Encoding with its weights", () => {
    expect(Caching.preferredEncoding(undefined)).toBe("identity")
    expect(Caching.preferredEncoding("gzip, deflate, br")).toBe("br")
    expect(Caching.preferredEncoding("br;q=0, gzip")).toBe("gzip")
    expect(Caching.preferredEncoding("identity")).toBe("identity")
    expect(Caching.preferredEncoding("*")).toBe("br")
    expect(Caching.preferredEncoding("*;q=0, gzip;q=0.5")).toBe("gzip")
  })
})

for (const target of databaseTargets) {
  describe(`the API reference page over HTTP (${target.name})`, () => {
    let server: PrefixServer

    beforeAll(async () => {
      server = await startPrefixServer(target)
    })
    afterAll(async () => {
      await server?.close()
    })

    it("is a small page under a strict CSP that loads nothing from another origin", async () => {
      const reply = await rawGet(`${server.url}/api/docs`)
      expect(reply.status).toBe(200)
      expect(reply.headers["content-type"]).toMatch(/^text\/html/)
      const page = reply.body.toString("utf8")
      expect(reply.body.byteLength).toBeLessThan(4096)
      // No address of another origin anywhere in the page.
      expect(page).not.toMatch(/(https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}/i)
      const csp = cspDirectives(reply.headers["content-security-policy"])
      expect(csp.get("default-src")).toEqual(["'none'"])
      const scripts = csp.get("script-src") ?? []
      expect(scripts).toContain("'self'")
      for (const source of scripts) expect(source).toMatch(/^('self'|'sha256-[A-Za-z0-9+/]+=*')$/)
      expect(csp.get("connect-src")).toEqual(["'self'"])
      expect(csp.get("img-src")).toEqual(["'self'", "data:"])
      expect(csp.get("font-src")).toEqual(["'self'"])
      expect(csp.get("style-src")).toEqual(["'self'", "'unsafe-inline'"])
      expect(String(reply.headers["content-security-policy"])).not.toMatch(/unsafe-eval|https?:|\*/)
      expect(scriptName(page).src).toBe(`/api/docs/${scriptName(page).name}`)
      expect(page).toContain(`"url":"/api/openapi.json"`)
    })

    it("answers 304 to the page's own ETag, and revalidates it every time (no-cache)", async () => {
      const first = await rawGet(`${server.url}/api/docs`)
      const etag = String(first.headers["etag"])
      expect(etag).toMatch(/^"[^"]+"$/)
      expect(first.headers["cache-control"]).toBe("no-cache")
      const again = await rawGet(`${server.url}/api/docs`, { "if-none-match": etag })
      expect(again.status).toBe(304)
      expect(again.body.byteLength).toBe(0)
      expect(again.headers["etag"]).toBe(etag)
      expect(again.headers["content-security-policy"]).toBe(first.headers["content-security-policy"])
      expect((await rawGet(`${server.url}/api/docs`, { "if-none-match": '"something-else"' })).status).toBe(200)
    })

    it("serves the script by its hash: cached for a year, 304 on its ETag, compressed once as asked", async () => {
      const { src } = scriptName((await rawGet(`${server.url}/api/docs`)).body.toString("utf8"))
      const plain = await rawGet(`${server.url}${src}`)
      expect(plain.status).toBe(200)
      expect(plain.headers["content-type"]).toMatch(/^text\/javascript/)
      expect(plain.headers["content-encoding"]).toBeUndefined()
      expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
      expect(plain.headers["vary"]).toBe("Accept-Encoding")
      expect(plain.body.byteLength).toBeGreaterThan(1_000_000)
      expect(plain.body.toString("utf8")).toContain("createApiReference")
      const etag = String(plain.headers["etag"])
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/)

      const br = await rawGet(`${server.url}${src}`, { "accept-encoding": "gzip, deflate, br" })
      expect(br.headers["content-encoding"]).toBe("br")
      expect(br.body.byteLength).toBeLessThan(plain.body.byteLength / 3)
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true)
      expect(br.headers["etag"]).not.toBe(etag)
      const gzip = await rawGet(`${server.url}${src}`, { "accept-encoding": "br;q=0, gzip" })
      expect(gzip.headers["content-encoding"]).toBe("gzip")
      expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true)

      // Made once, then kept: the same bytes again.
      const brAgain = await rawGet(`${server.url}${src}`, { "accept-encoding": "br" })
      expect(brAgain.body.equals(br.body)).toBe(true)
      expect(brAgain.headers["etag"]).toBe(br.headers["etag"])

      for (const tag of [etag, String(br.headers["etag"]), `W/${String(gzip.headers["etag"])}`]) {
        const notModified = await rawGet(`${server.url}${src}`, { "if-none-match": tag, "accept-encoding": "br" })
        expect(notModified.status, tag).toBe(304)
        expect(notModified.body.byteLength).toBe(0)
        expect(notModified.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
      }
    })

    it("answers 404 {error} to a script name that is not the current one, and 405 to other methods", async () => {
      const old = await rawGet(`${server.url}/api/docs/scalar-AAAAAAAAAAAAAAAA.js`)
      expect(old.status).toBe(404)
      expect(JSON.parse(old.body.toString("utf8")).error).toMatch(/no file \/api\/docs\/scalar-AAAAAAAAAAAAAAAA\.js/)
      const other = await rawGet(`${server.url}/api/docs/whatever`)
      expect(other.status).toBe(404)
      expect(JSON.parse(other.body.toString("utf8"))).toHaveProperty("error")
      const post = await rawGet(`${server.url}/api/docs/scalar-AAAAAAAAAAAAAAAA.js`, {}, "POST")
      expect(post.status).toBe(405)
      expect(post.headers["allow"]).toBe("GET")
    })

    it("serves the OpenAPI document with an ETag (304) and compressed", async () => {
      const plain = await rawGet(`${server.url}/api/openapi.json`)
      expect(plain.status).toBe(200)
      expect(plain.headers["content-type"]).toMatch(/^application\/json/)
      expect(plain.headers["cache-control"]).toBe("no-cache")
      const document = JSON.parse(plain.body.toString("utf8"))
      expect(document.openapi).toMatch(/^3\.1/)
      const br = await rawGet(`${server.url}/api/openapi.json`, { "accept-encoding": "br" })
      expect(br.headers["content-encoding"]).toBe("br")
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true)
      const notModified = await rawGet(`${server.url}/api/openapi.json`, {
        "if-none-match": String(br.headers["etag"]),
        "accept-encoding": "br"
      })
      expect(notModified.status).toBe(304)
      expect(notModified.body.byteLength).toBe(0)
    })

    it("names its script and document under the mount prefix, and both answer there", async () => {
      const reply = await rawGet(`${server.url}${prefix}/api/docs`)
      expect(reply.status).toBe(200)
      const page = reply.body.toString("utf8")
      const { src } = scriptName(page)
      expect(src).toMatch(new RegExp(`^${prefix}/api/docs/scalar-`))
      expect(page).toContain(`"url":"${prefix}/api/openapi.json"`)
      expect(page).toContain(`href="${prefix}/api/openapi.json"`)
      expect((await rawGet(`${server.url}${src}`)).status).toBe(200)
      const document = JSON.parse((await rawGet(`${server.url}${prefix}/api/openapi.json`)).body.toString("utf8"))
      expect(document.servers[0].url).toBe(`${server.url}${prefix}`)
      // The page at the root and the page under the prefix differ, and so do their ETags.
      expect(reply.headers["etag"]).not.toBe((await rawGet(`${server.url}/api/docs`)).headers["etag"])
    })
  })
}
