/**
 * Scenario 5, fuzzing: requests generated with fast-check from the served
 * OpenAPI document and MCP tools/list (so every endpoint and tool, new ones
 * included), mutated and raw, plus the public page, its JSON route and
 * uploads. No answer ≥ 500 (except a status the operation documents, such as
 * 502 from form generation), every JSON error body `{error}`, no hang, and
 * the server healthy afterwards.
 */
import { Agent, request } from "node:http"
import fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import {
  call,
  counts,
  percentile,
  type ProcessDatabase,
  publishedForm,
  receiver,
  type Receiver,
  record,
  round,
  rssMiB,
  type ServerProcess,
  startFresh,
  targets
} from "./support/Harness.ts"
import {
  arbitrary,
  deepJson,
  type Json,
  mutate,
  nastyPathIds,
  nastyValue,
  type Operation,
  operations,
  resolver,
  validValue
} from "./support/JsonSchema.ts"
import { idHints, pathParam, seed, type Seeded } from "./support/Seed.ts"

/** One raw request: exact path bytes, headers and body (node:http does not normalise `..`). */
interface RawRequest {
  readonly kind: string
  readonly method: string
  readonly path: string
  readonly headers: Record<string, string>
  readonly body?: Buffer | undefined
  /** 5xx statuses this operation documents for bad input (e.g. 502 of form generation). */
  readonly documented5xx?: ReadonlyArray<number>
}

interface RawAnswer {
  readonly status: number
  readonly contentType: string
  readonly body: string
  readonly ms: number
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 })

const send = (base: URL, req: RawRequest): Promise<RawAnswer | { readonly error: string; readonly ms: number }> =>
  new Promise((resolve) => {
    const started = performance.now()
    const headers = { ...req.headers, ...(req.body === undefined ? {} : { "content-length": String(req.body.length) }) }
    // node:http sends the path bytes as given, but refuses spaces and control characters: those are escaped.
    const path = req.path.replace(/[^\u0021-\u007e]/g, (c) => encodeURIComponent(c))
    const r = request({ host: base.hostname, port: base.port, method: req.method, path, headers, agent }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => {
        clearTimeout(timer)
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers["content-type"] ?? ""),
          body: Buffer.concat(chunks).toString("utf8"),
          ms: performance.now() - started
        })
      })
      res.on("error", (error) => resolve({ error: String(error), ms: performance.now() - started }))
    })
    const timer = setTimeout(() => {
      r.destroy(new Error("no answer within 20 s"))
    }, 20_000)
    r.on("error", (error) => {
      clearTimeout(timer)
      resolve({ error: String(error), ms: performance.now() - started })
    })
    r.end(req.body)
  })

/** Percent-encoding that never throws (a lone surrogate becomes U+FFFD, as on the wire). */
const pct = (text: string) =>
  [...Buffer.from(text, "utf8")]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, "0")}`
    )
    .join("")

const json = (value: unknown) => Buffer.from(JSON.stringify(value) ?? "null")

/** Generators of bad requests against a seeded workspace. */
const generators = (doc: Json, key: string, s: Seeded, tools: ReadonlyArray<{ name: string; inputSchema: Json }>) => {
  const resolve = resolver(doc)
  const ops = operations(doc)
  const hints = idHints(s)
  const auth = { authorization: `Bearer ${key}` }
  const jsonHeaders = { ...auth, "content-type": "application/json" }

  const pathFor = (op: Operation, nasty: ReadonlyArray<string | undefined>) =>
    op.pathParams.reduce(
      (path, name, i) => path.replace(`{${name}}`, nasty[i] ?? pct(pathParam(s, op.path, name))),
      op.path
    )

  const queryString = (entries: ReadonlyArray<readonly [string, unknown]>) =>
    entries.length === 0
      ? ""
      : `?${entries.map(([k, v]) => `${pct(k)}=${pct(typeof v === "string" ? v : (JSON.stringify(v) ?? ""))}`).join("&")}`

  const op = fc.constantFrom(...ops)
  const pathIds = fc.array(fc.option(fc.constantFrom(...nastyPathIds), { nil: undefined, freq: 2 }), {
    minLength: 3,
    maxLength: 3
  })
  const where = fc.array(fc.nat({ max: 20 }), { maxLength: 4 })

  /** A schema-valid body (or arbitrary from the schema) with one place broken. */
  const mutatedApi = fc
    .tuple(
      op,
      pathIds,
      where,
      nastyValue,
      fc.boolean(),
      fc.array(fc.tuple(fc.string({ maxLength: 10 }), nastyValue), { maxLength: 2 }),
      fc.nat()
    )
    .chain(([o, ids, at, nasty, fromSchema, extraQuery, seedN]) => {
      const base =
        o.body === undefined
          ? fc.constant(undefined)
          : fromSchema
            ? arbitrary(o.body, resolve)
            : fc.constant(validValue(o.body, resolve, hints))
      return base.map((body): RawRequest => {
        const queryNames = o.query.map((q) => q.name)
        const query = [
          ...extraQuery,
          ...(queryNames.length > 0 && seedN % 2 === 0
            ? [[queryNames[seedN % queryNames.length]!, nasty] as const]
            : [])
        ]
        return {
          kind: "api",
          method: o.method,
          path: pathFor(o, ids) + queryString(query),
          headers: o.body === undefined ? auth : jsonHeaders,
          body: o.body === undefined ? undefined : json(seedN % 3 === 0 ? body : mutate(body, at, nasty)),
          documented5xx: o.documented5xx
        }
      })
    })

  /** Bodies that are not what the operation reads: broken JSON, invalid UTF-8, deep nesting, wrong types. */
  const rawBodies: ReadonlyArray<readonly [string, Buffer]> = [
    ["truncated JSON", Buffer.from('{"title": "x')],
    ["invalid UTF-8", Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x80, 0xc3, 0x28, 0x22, 0x7d])],
    ["lone surrogate escape", Buffer.from('{"title": "\\ud800", "body": "\\udfff"}')],
    ["NUL in string", Buffer.from('{"title": "a\\u0000b", "body": "a\\u0000b", "prompt": "a\\u0000b"}')],
    ["deep array 100k", Buffer.from(deepJson(100_000, "array"))],
    ["deep object 20k", Buffer.from(deepJson(20_000, "object"))],
    [
      "deep values",
      Buffer.from(
        `{"values": ${deepJson(5_000, "array")}, "fields": ${deepJson(5_000, "array")}, "tags": ${deepJson(5_000, "array")}}`
      )
    ],
    ["empty", Buffer.alloc(0)],
    ["null", Buffer.from("null")],
    ["number", Buffer.from("1e999")],
    ["array", Buffer.from("[1,2,3]")],
    ["duplicate keys", Buffer.from('{"title": "a", "title": 5}')],
    ["huge string", json({ title: "x".repeat(900_000), body: "x".repeat(100), prompt: "y" })],
    ["over 1 MiB", Buffer.alloc(1_200_000, 0x20)],
    ["proto pollution", Buffer.from('{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}}')],
    ["BOM", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"title": "x"}')])]
  ]
  const contentTypes = [
    "application/json",
    "application/json; charset=utf-16",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data",
    "multipart/form-data; boundary=",
    "application/xml",
    "",
    "application/json, text/html"
  ]
  const rawApi = fc.tuple(op, fc.constantFrom(...rawBodies), fc.constantFrom(...contentTypes)).map(
    ([o, [name, body], type]): RawRequest => ({
      kind: `raw ${name}`,
      method: o.method === "GET" || o.method === "DELETE" ? "POST" : o.method,
      path: pathFor(o, []),
      headers: { ...auth, ...(type === "" ? {} : { "content-type": type }) },
      body,
      documented5xx: o.documented5xx
    })
  )

  /** Path traversal and odd paths, unknown routes, odd methods. */
  const oddPaths = fc
    .tuple(
      fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE", "PROPFIND"),
      fc.constantFrom(
        "/api/../../etc/passwd",
        "/api/forms/..%2f..%2f..%2fetc%2fpasswd",
        "/api/files/..%2f..%2fpackage.json",
        "/api/files/file_..%2f..%2f..%2fetc%2fpasswd",
        "/api/files/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/api/files/....//....//etc/passwd",
        "/f/..%2f..%2fapi%2fforms",
        "/f/%00",
        "/api/forms/%",
        "/api/forms/%zz",
        "/api//forms",
        "/api/forms/1/responses.csv/..",
        "/api/forms/1/responses.xlsx/..",
        "/api/openapi.json/..%2f",
        "/api/nope",
        "/api",
        "//",
        "/mcp/..",
        "/app/../api/forms",
        `/api/forms?${"a=1&".repeat(2_000)}`,
        `/api/${"x/".repeat(2_000)}`,
        "/api/forms/1?stage=-1&assignee=1e999&from=2026-13-45&to=0000-00-00&limit=0&cursor=%FF",
        "/api/forms/1/responses?limit=99999999999999999999&cursor=../../x",
        "/api/forms/1/responses?from=2026-01-01T00:00:00+99:99",
        "/api/forms/1/responses?q=%00%01%02&tag=%FF",
        "/api/responses?limit=99999999999999999999&cursor=../../x&assignee=me&open=maybe",
        "/api/responses?formId=1e999&stage=-1&due=%00",
        "/api/webhooks/subscribe/x/deliveries?limit=-5&cursor=%27%20or%201%3D1",
        "/digest/unsubscribe/..%2f..%2fapi%2fforms",
        "/digest/unsubscribe/%00",
        "/digest/unsubscribe/eyJ3IjoxfQ.AAAA",
        `/digest/unsubscribe/${"a.".repeat(200)}`,
        "/digest/unsubscribe/",
        "/embed.js",
        "/embed.js/..%2f..%2fpackage.json",
        "/embed.js?x=..%2f..%2f",
        "/embed.js%00.map"
      ),
      fc.boolean()
    )
    .map(([method, path, withKey]): RawRequest => ({ kind: "odd path", method, path, headers: withKey ? auth : {} }))

  /** Authorization headers that are not a key. */
  const oddAuth = fc
    .constantFrom(
      "Bearer",
      "Bearer ",
      "Basic dXNlcjpwYXNz",
      `Bearer ${"a".repeat(20_000)}`,
      "Bearer qk_live_",
      "Bearer qk_live_\u00ff\u00fe",
      `Bearer ${key} ${key}`,
      `bearer ${key.toUpperCase()}`,
      "Bearer ../../etc/passwd"
    )
    .map(
      (value): RawRequest => ({ kind: "auth", method: "GET", path: "/api/forms", headers: { authorization: value } })
    )

  /** The public page: its screens, steps, JSON route and uploads. */
  const publicIds = fc.constantFrom(
    s.publicId,
    s.draftPublicId,
    s.lockedPublicId,
    "nope",
    "%00",
    "..%2f..",
    "x".repeat(3_000),
    "<script>"
  )
  const formFields = fc.dictionary(
    fc.constantFrom(
      "token",
      "step",
      "answer",
      "website",
      "action",
      `q${s.fieldIds.name}`,
      String(s.fieldIds.name),
      "values",
      "fileId",
      "at",
      "a",
      "move"
    ),
    fc.oneof(
      fc.string({ maxLength: 50 }),
      fc.constantFrom("-1", "99999999999", "x".repeat(100_000), "\u0000", "back", "next", "submit", "access", "welcome")
    ),
    { maxKeys: 5 }
  )
  const publicPage = fc.oneof(
    fc
      .tuple(
        publicIds,
        fc.constantFrom("", "?step=-1", "?step=99999", "?lang=%FF", "?token=x", "?continue=1", "?continue=%00")
      )
      .map(
        ([id, q]): RawRequest => ({
          kind: "page GET",
          method: "GET",
          path: `/f/${id}${q}`,
          headers: {}
        })
      ),
    // Pre-filling links (pages/Prefill.ts): any key under prefill., any text, repeated.
    fc
      .tuple(
        publicIds,
        fc.array(
          fc.tuple(
            fc.constantFrom(
              `prefill.${s.fieldIds.name}`,
              `prefill.${s.fieldIds.email}`,
              `prefill.${s.fieldIds.file}`,
              `prefill.${s.fieldIds.name}.__proto__`,
              `prefill.${s.fieldIds.email}.other`,
              "prefill.",
              "prefill..",
              "prefill.__proto__",
              "prefill.-1",
              "prefill.99999999999999"
            ),
            fc.string({ maxLength: 300 })
          ),
          { maxLength: 30 }
        )
      )
      .map(
        ([id, pairs]): RawRequest => ({
          kind: "page GET prefill",
          method: "GET",
          path: `/f/${id}?${new URLSearchParams(pairs).toString()}`,
          headers: {}
        })
      ),
    fc.tuple(publicIds, formFields).map(
      ([id, fields]): RawRequest => ({
        kind: "page step",
        method: "POST",
        path: `/f/${id}`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: Buffer.from(new URLSearchParams(fields).toString())
      })
    ),
    fc.tuple(publicIds, nastyValue, fc.array(fc.nat({ max: 5 }), { maxLength: 3 })).map(
      ([id, nasty, at]): RawRequest => ({
        kind: "page JSON",
        method: "POST",
        path: `/f/${id}/responses`,
        headers: { "content-type": "application/json" },
        body: json(
          mutate(
            {
              values: { [s.fieldIds.name]: "Ada", [s.fieldIds.file]: { fileId: s.fileId } },
              token: "x",
              website: "",
              accessCode: "code"
            },
            at,
            nasty
          )
        )
      })
    ),
    fc
      .tuple(
        publicIds,
        fc.constantFrom(String(s.fieldIds.file), String(s.fieldIds.name), "-1", "abc", "99999999999999", "", "1e3"),
        fc.constantFrom(
          "ok",
          "no boundary",
          "bad boundary",
          "no file part",
          "two files",
          "empty",
          "not multipart",
          "truncated",
          "huge name"
        )
      )
      .map(([id, fieldId, shape]): RawRequest => {
        const boundary = "----qforms-fuzz"
        const part = (name: string, filename: string, content: string) =>
          `--${boundary}\r\ncontent-disposition: form-data; name="${name}"; filename="${filename}"\r\ncontent-type: text/plain\r\n\r\n${content}\r\n`
        const bodies: Record<string, string> = {
          ok: `${part("file", "a.txt", "hello")}--${boundary}--\r\n`,
          "no boundary": `${part("file", "a.txt", "hello")}`,
          "bad boundary": `--other\r\n\r\nhello\r\n--other--`,
          "no file part": `${part("other", "a.txt", "hello")}--${boundary}--\r\n`,
          "two files": `${part("file", "a.txt", "a")}${part("file", "b.txt", "b")}--${boundary}--\r\n`,
          empty: "",
          "not multipart": '{"file": 1}',
          truncated: `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhel`,
          "huge name": `${part("file", `${"../".repeat(300)}${"n".repeat(5_000)}`, "x")}--${boundary}--\r\n`
        }
        return {
          kind: `upload ${shape}`,
          method: "POST",
          path: `/f/${id}/uploads?fieldId=${pct(fieldId)}`,
          headers: {
            "content-type":
              shape === "no boundary"
                ? "multipart/form-data"
                : shape === "not multipart"
                  ? "application/json"
                  : `multipart/form-data; boundary=${boundary}`
          },
          body: Buffer.from(bodies[shape]!)
        }
      })
  )

  /** MCP: tool calls with arguments from each tool's schema, mutated; broken JSON-RPC. */
  const tool = fc.constantFrom(...tools)
  const mcpCalls = fc.oneof(
    fc.tuple(tool, where, nastyValue, fc.boolean()).chain(([t, at, nasty, fromSchema]) =>
      (fromSchema
        ? arbitrary(t.inputSchema, (x) => x)
        : fc.constant(validValue(t.inputSchema, (x) => x, { ...hints, id: s.formId }))
      ).map(
        (args): RawRequest => ({
          kind: "mcp tool",
          method: "POST",
          path: "/mcp",
          headers: { ...jsonHeaders, accept: "application/json, text/event-stream" },
          body: json({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name: t.name, arguments: at.length === 0 ? args : mutate(args, at, nasty) }
          })
        })
      )
    ),
    fc
      .tuple(
        fc.constantFrom(
          "tools/call",
          "tools/list",
          "resources/read",
          "prompts/get",
          "initialize",
          "nope",
          "",
          "rpc.discover"
        ),
        nastyValue,
        nastyValue
      )
      .map(
        ([method, params, id]): RawRequest => ({
          kind: "mcp rpc",
          method: "POST",
          path: "/mcp",
          headers: { ...jsonHeaders, accept: "application/json, text/event-stream" },
          body: json({ jsonrpc: "2.0", id, method, params })
        })
      ),
    fc.constantFrom(...rawBodies).map(
      ([name, body]): RawRequest => ({
        kind: `mcp raw ${name}`,
        method: "POST",
        path: "/mcp",
        headers: { ...jsonHeaders, accept: "application/json, text/event-stream" },
        body
      })
    ),
    fc
      .constantFrom(
        json([
          { jsonrpc: "2.0", id: 1, method: "tools/list" },
          { jsonrpc: "2.0", id: 2, method: "tools/list" }
        ]),
        json([]),
        json({ jsonrpc: "1.0", id: 1, method: "tools/list" }),
        json({ jsonrpc: "2.0", method: "notifications/initialized" }),
        json({ jsonrpc: "2.0", id: { a: 1 }, method: "tools/list" })
      )
      .map(
        (body): RawRequest => ({
          kind: "mcp shape",
          method: "POST",
          path: "/mcp",
          headers: { ...jsonHeaders, accept: "application/json, text/event-stream" },
          body
        })
      )
  )

  // Languages asked for (Accept-Language, ?lang=) on every page that speaks several: the public page, the
  // application's sign-in pages, the upload route's refusals; and the application's own language route.
  const acceptLanguage = fc.oneof(
    fc.string({ maxLength: 2_000 }),
    fc.constantFrom(
      "de-DE,de;q=0.9,en;q=0.8",
      "ar",
      `${"de,".repeat(5_000)}en`,
      "*;q=0.5",
      "de;q=1e999,ar;q=-1,en;q=NaN",
      "x-".repeat(3_000),
      "zh-Hant-TW-u-nu-hanidec",
      ";;;,,,;q="
    )
  )
  const languages = fc.oneof(
    fc
      .tuple(
        fc.constantFrom(
          s.publicId,
          s.lockedPublicId,
          "/app/sign-in",
          "/app/forgot-password",
          "/app/invite/x",
          "/app/reset/x"
        ),
        acceptLanguage
      )
      .map(
        ([where, language]): RawRequest => ({
          kind: "languages GET",
          method: "GET",
          path: where.startsWith("/") ? where : `/f/${where}`,
          headers: { "accept-language": language }
        })
      ),
    fc.tuple(fc.string({ maxLength: 200 }), acceptLanguage).map(
      ([lang, language]): RawRequest => ({
        kind: "languages upload",
        method: "POST",
        path: `/f/${s.publicId}/uploads?fieldId=${s.fieldIds.file}&lang=${encodeURIComponent(lang)}`,
        headers: { "content-type": "multipart/form-data; boundary=x", "accept-language": language },
        body: Buffer.from('--x\r\nContent-Disposition: form-data; name="file"; filename="a.exe"\r\n\r\nMZ\r\n--x--\r\n')
      })
    ),
    fc.tuple(nastyValue, acceptLanguage).map(
      ([language, accept]): RawRequest => ({
        kind: "languages choice",
        method: "PUT",
        path: "/app/account/language",
        headers: { "content-type": "application/json", "accept-language": accept },
        body: json({ language })
      })
    )
  )

  /**
   * The respondent's status page (pages/StatusPage.ts): reads, replies of any shape, and changes of the answers
   * (`/s/{token}/edit`, pages/StatusEditPage.ts: the seeded form allows them), by any token.
   */
  const statusTokens = fc.constantFrom(
    s.statusToken,
    "A".repeat(43),
    "nope",
    "%00",
    "..%2f..",
    "x".repeat(3_000),
    `${s.statusToken}%00`
  )
  const statusPage = fc.oneof(
    fc
      .tuple(statusTokens, fc.constantFrom("", "/edit"))
      .map(
        ([token, edit]): RawRequest => ({ kind: "status GET", method: "GET", path: `/s/${token}${edit}`, headers: {} })
      ),
    fc
      .tuple(
        statusTokens,
        fc.constantFrom("", "/edit"),
        fc.dictionary(
          fc.constantFrom("text", "files", "reply", "q1", "q2", "q3", "__proto__"),
          fc.oneof(fc.string({ maxLength: 50 }), nastyValue.map(String)),
          {
            maxKeys: 3
          }
        ),
        fc.constantFrom("application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain", "")
      )
      .map(
        ([token, edit, fields, type]): RawRequest => ({
          kind: "status POST",
          method: "POST",
          path: `/s/${token}${edit}`,
          headers: { "sec-fetch-site": "same-origin", ...(type === "" ? {} : { "content-type": type }) },
          body: Buffer.from(new URLSearchParams(fields).toString())
        })
      )
  )

  /** Resume links of the public page (cases/ResumeLinks.ts): made-up tokens, and requests for one of any shape. */
  const resumeTokens = fc.constantFrom(
    "A".repeat(43),
    "nope",
    "%00",
    "..%2f..",
    "x".repeat(3_000),
    `${"B".repeat(43)}%00`
  )
  const resumeLinks = fc.oneof(
    fc.tuple(publicIds, resumeTokens).map(
      ([id, token]): RawRequest => ({
        kind: "resume GET",
        method: "GET",
        path: `/f/${id}/resume/${token}`,
        headers: {}
      })
    ),
    fc
      .tuple(
        publicIds,
        fc.dictionary(
          fc.constantFrom("token", "email", "__proto__"),
          fc.oneof(fc.string({ maxLength: 50 }), nastyValue.map(String)),
          { maxKeys: 3 }
        ),
        fc.constantFrom("application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain", "")
      )
      .map(
        ([id, fields, type]): RawRequest => ({
          kind: "resume-link POST",
          method: "POST",
          path: `/f/${id}/resume-link`,
          headers: type === "" ? {} : { "content-type": type },
          body: Buffer.from(new URLSearchParams(fields).toString())
        })
      )
  )

  return fc.oneof(
    { arbitrary: languages, weight: 2 },
    { arbitrary: statusPage, weight: 2 },
    { arbitrary: resumeLinks, weight: 2 },
    { arbitrary: mutatedApi, weight: 10 },
    { arbitrary: rawApi, weight: 3 },
    { arbitrary: oddPaths, weight: 2 },
    { arbitrary: oddAuth, weight: 1 },
    { arbitrary: publicPage, weight: 4 },
    { arbitrary: mcpCalls, weight: 4 }
  )
}

/** What is wrong with an answer, if anything. */
const problem = (req: RawRequest, answer: RawAnswer): string | undefined => {
  if (answer.status >= 500 && !(req.documented5xx ?? []).includes(answer.status)) return `status ${answer.status}`
  if (answer.status < 400 || req.method === "HEAD") return undefined
  const isJson = answer.contentType.includes("json")
  const path = req.path.split("?")[0]!
  if (path.startsWith("/api") && !isJson) return `a non-JSON error (${answer.contentType || "no content type"})`
  if (!isJson) return undefined
  let body: Json
  try {
    body = JSON.parse(answer.body)
  } catch {
    return "an error body that is not JSON"
  }
  if (path === "/mcp") {
    return body !== null &&
      typeof body === "object" &&
      (typeof body.error === "string" || typeof body.error?.message === "string")
      ? undefined
      : "an MCP error without error"
  }
  return body !== null && typeof body === "object" && typeof body.error === "string"
    ? undefined
    : "an error body without {error}"
}

for (const target of targets) {
  describe(`fuzzing on ${target.name}`, () => {
    let db: ProcessDatabase | undefined
    let server: ServerProcess | undefined
    let hook: Receiver | undefined
    afterAll(async () => {
      agent.destroy()
      await server?.stop()
      await hook?.close()
      await db?.cleanup()
    })

    it(`${counts.fuzzRequests} generated bad requests: no 5xx, every error {error}, healthy afterwards`, async () => {
      db = target.make()
      hook = await receiver()
      const started = await startFresh(db)
      server = started.server
      const { url, key } = started
      const s = await seed(url, key, "FUZZ", hook.url)
      const doc = (await call(url, "GET", "/api/openapi.json")).body
      const tools = (await call(url, "POST", "/mcp", { key, body: { jsonrpc: "2.0", id: 1, method: "tools/list" } }))
        .body
      // (call sends no Accept: ask again properly)
      const listed = await fetch(`${url}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream"
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
      }).then((r) => r.json() as Promise<Json>)
      void tools
      const gen = generators(doc, key, s, listed.result.tools)
      const fuzzSeed = Number(process.env.QFORMS_RELIABILITY_SEED ?? Date.now() % 2 ** 31)
      const requests = fc.sample(gen, { numRuns: counts.fuzzRequests, seed: fuzzSeed })

      const base = new URL(url)
      const problems: Array<string> = []
      const statuses = new Map<string, number>()
      const latencies: Array<number> = []
      const rssBefore = rssMiB(server.pid)
      const began = performance.now()
      let next = 0
      const worker = async () => {
        while (next < requests.length) {
          const req = requests[next++]!
          const answer = await send(base, req)
          latencies.push(answer.ms)
          if ("error" in answer) {
            // A connection the server closed after answering 413 early is fine; a hang is not.
            if (/no answer within/.test(answer.error))
              problems.push(`${req.kind} ${req.method} ${req.path.slice(0, 120)}: hung`)
            statuses.set("no answer", (statuses.get("no answer") ?? 0) + 1)
            continue
          }
          statuses.set(String(answer.status), (statuses.get(String(answer.status)) ?? 0) + 1)
          const wrong = problem(req, answer)
          if (wrong !== undefined) {
            problems.push(
              `${req.kind} ${req.method} ${req.path.slice(0, 120)} [${req.headers["content-type"] ?? ""}] ${(req.body ?? Buffer.alloc(0)).toString("utf8").slice(0, 300)} → ${wrong}: ${answer.body.slice(0, 200)}`
            )
          }
        }
      }
      await Promise.all(Array.from({ length: 8 }, worker))
      const seconds = (performance.now() - began) / 1000

      const health = await call(url, "GET", "/healthz")
      // (the fuzzing may have deleted the seeded records: a new form must work end to end)
      const after = await publishedForm(url, key)
      const submitted = await call(url, "POST", `/api/forms/${after.formId}/responses`, {
        key,
        body: { values: { [after.nameId]: "After", [after.emailId]: "after@example.com" } }
      })
      const list = await call(url, "GET", `/api/forms/${after.formId}/responses`, { key })
      const rssAfter = rssMiB(server.pid)
      const distinct = [...new Set(problems.map((p) => p.replace(/\d+/g, "N").slice(0, 160)))]
      if (problems.length > 0)
        process.stderr.write(
          `${problems.slice(0, 10).join("\n")}\n--- server stderr ---\n${server.stderr().slice(-5_000)}\n--- server log ---\n${server.stdout().slice(-10_000)}\n`
        )
      record({
        scenario: "5 fuzzing",
        target: target.name,
        figures: {
          requests: requests.length,
          "answers ≥ 500": [...statuses].filter(([status]) => Number(status) >= 500).reduce((n, [, c]) => n + c, 0),
          problems: problems.length,
          statuses: [...statuses]
            .sort()
            .map(([status, n]) => `${status}×${n}`)
            .join(", "),
          "requests/s": round(requests.length / seconds, 0),
          "p99 ms": round(percentile(latencies, 99), 0),
          "healthy afterwards": health.status === 200 && submitted.status === 201 && list.status === 200,
          "RSS MiB before → after": `${round(rssBefore, 0)} → ${round(rssAfter, 0)}`
        },
        notes: [
          `fast-check seed ${fuzzSeed} (QFORMS_RELIABILITY_SEED=${fuzzSeed} replays it)`,
          ...distinct.slice(0, 30)
        ]
      })
      expect(distinct).toEqual([])
      expect(health.status).toBe(200)
      expect(submitted.status).toBe(201)
      expect(list.status).toBe(200)
    })
  })
}
