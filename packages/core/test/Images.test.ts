/**
 * The workspace's image library over real HTTP, on every test database: the
 * authorization matrix (every role of two workspaces lists and views its own
 * workspace's images; owners, admins and members upload and delete; nobody
 * reaches the other workspace's), uploads checked on their bytes (PNG, JPEG,
 * GIF, WebP only, never SVG; 2 MB; empty; one part), forms and themes that
 * may show only images of their workspace, the public page serving exactly
 * the images its form shows, and deletion refused while an image is shown.
 */
import * as Effect from "effect/Effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dimensions } from "../src/files/Images.ts"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { keysByRole, type Role, roles } from "@qforms/test-kit/Seeds"
import { png, uploadImage } from "@qforms/test-kit/Pictures"
import { api, createForm, getPage } from "@qforms/test-kit/PublicForms"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

/** The expected rule, written independently of the code under test. */
const mayChange = (role: Role) => role !== "viewer"

let counter = 0

describe("image dimensions from the first bytes", () => {
  it("reads a PNG's, a GIF's, a WebP's and a JPEG's, and nothing from a truncated head", () => {
    expect(dimensions("image/png", png(320, 80))).toEqual({ width: 320, height: 80 })
    const gif = Buffer.from("GIF89a\x40\x01\x50\x00", "latin1")
    expect(dimensions("image/gif", gif)).toEqual({ width: 320, height: 80 })
    // VP8X: 24-bit width-1 and height-1 at bytes 24 and 27.
    const webp = Buffer.alloc(30)
    webp.write("RIFF", 0, "ascii")
    webp.write("WEBPVP8X", 8, "ascii")
    webp.writeUIntLE(319, 24, 3)
    webp.writeUIntLE(79, 27, 3)
    expect(dimensions("image/webp", webp)).toEqual({ width: 320, height: 80 })
    // SOI, an APP0 segment of 16 bytes, then SOF0 with height 80 and width 320.
    const jpeg = Buffer.from([
      0xff,
      0xd8,
      0xff,
      0xe0,
      0x00,
      0x10,
      ...Array(14).fill(0),
      0xff,
      0xc0,
      0x00,
      0x11,
      0x08,
      0x00,
      0x50,
      0x01,
      0x40,
      0x03
    ])
    expect(dimensions("image/jpeg", jpeg)).toEqual({ width: 320, height: 80 })
    expect(dimensions("image/png", png(320, 80).subarray(0, 20))).toBeUndefined()
    expect(dimensions("image/jpeg", jpeg.subarray(0, 12))).toBeUndefined()
  })
})

for (const target of databaseTargets) {
  describe(`image library on ${target.name}`, () => {
    let server: TestServer

    beforeAll(async () => {
      server = await startTestServer(target, { rateLimit: { requestsPerSecond: 10_000, burst: 10_000 } })
    })
    afterAll(() => server?.close())

    /** A workspace with a key for a member of every role. */
    const seed = () => server.run(keysByRole(`img${++counter}`))

    const download = (key: string, id: string) =>
      fetch(`${server.url}/api/images/${id}`, { headers: { authorization: `Bearer ${key}` } })

    it("every role lists and views its own images; owners, admins and members upload and delete; the other workspace is never reached", async () => {
      const a = await seed()
      const b = await seed()
      const ofB = await uploadImage(server, b.keys.owner, png(4, 4), "b.png")
      expect(ofB.status, ofB.text).toBe(201)
      for (const role of roles) {
        const uploaded = await uploadImage(server, a.keys[role], png(32, 16), `${role}.png`)
        if (mayChange(role)) {
          expect(uploaded.status, `${role}: ${uploaded.text}`).toBe(201)
          expect(uploaded.body).toMatchObject({
            name: `${role}.png`,
            type: "image/png",
            width: 32,
            height: 16,
            size: png(32, 16).length
          })
          expect(uploaded.body.id).toMatch(/^img_[A-Za-z0-9_-]{22}$/)
        } else {
          expect(uploaded.status, `${role}: ${uploaded.text}`).toBe(403)
          expect(uploaded.body.error).toBe("this key belongs to a viewer, who can only read")
        }
        const listed = await api(server, a.keys[role], "GET", "/images")
        expect(listed.status).toBe(200)
        expect(listed.body.data.map((i: { name: string }) => i.name)).not.toContain("b.png")
        // B's image is not A's: 404 to view, to delete, and to show on A's form.
        const foreign = await download(a.keys[role], ofB.body.id)
        expect(foreign.status).toBe(404)
        expect(((await foreign.json()) as { error: string }).error).toBe(`image ${ofB.body.id} not found`)
        if (mayChange(role)) {
          expect((await api(server, a.keys[role], "DELETE", `/images/${ofB.body.id}`)).status).toBe(404)
        }
      }
      const listed = await api(server, a.keys.viewer, "GET", "/images")
      expect(listed.body.data.map((i: { name: string }) => i.name)).toEqual(["member.png", "admin.png", "owner.png"])
      const own = listed.body.data[0]
      const viewed = await download(a.keys.viewer, own.id)
      expect(viewed.status).toBe(200)
      expect(viewed.headers.get("content-type")).toBe("image/png")
      expect(viewed.headers.get("x-content-type-options")).toBe("nosniff")
      expect(Buffer.from(await viewed.arrayBuffer()).equals(png(32, 16))).toBe(true)
      for (const role of roles) {
        const removed = await api(server, a.keys[role], "DELETE", `/images/${own.id}`)
        if (role === "viewer") expect(removed.status).toBe(403)
        else {
          // The first who may delete it does; after that it is gone.
          expect([204, 404]).toContain(removed.status)
        }
      }
      expect((await download(a.keys.owner, own.id)).status).toBe(404)
      // B's image survived everything A did.
      expect((await download(b.keys.viewer, ofB.body.id)).status).toBe(200)
    })

    it("takes PNG, JPEG, GIF and WebP by their bytes; refuses SVG, other content, empty, oversized and misshapen uploads", async () => {
      const { keys } = await seed()
      const svg = await uploadImage(
        server,
        keys.owner,
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        "x.svg",
        "image/svg+xml"
      )
      expect(svg.status).toBe(415)
      expect(svg.body.error).toBe(
        "an image must be a PNG, JPEG, GIF or WebP file; this file's content is none of these"
      )
      const pdf = await uploadImage(server, keys.owner, Buffer.from("%PDF-1.7\n..."), "x.png")
      expect(pdf.status).toBe(415)
      expect(pdf.body.error).toBe(
        "an image must be a PNG, JPEG, GIF or WebP file; this file's content is application/pdf"
      )
      const empty = await uploadImage(server, keys.owner, new Uint8Array(0), "x.png")
      expect(empty.status).toBe(400)
      expect(empty.body.error).toBe("file: the image is empty")
      const big = Buffer.concat([png(1, 1), Buffer.alloc(2 * 1024 * 1024)])
      const tooBig = await uploadImage(server, keys.owner, big, "big.png")
      expect(tooBig.status).toBe(413)
      expect(tooBig.body.error).toBe("an image may be at most 2 MB")
      // A GIF declared as PNG is stored as what its bytes are.
      const gif = await uploadImage(
        server,
        keys.owner,
        Buffer.from("GIF89a\x02\x00\x03\x00\x00\x00\x00;", "latin1"),
        "a.png"
      )
      expect(gif.status, gif.text).toBe(201)
      expect(gif.body).toMatchObject({ type: "image/gif", width: 2, height: 3 })
      // Two files, or a part under another name.
      const two = new FormData()
      two.append("file", new Blob([png(2, 2)]), "a.png")
      two.append("file", new Blob([png(2, 2)]), "b.png")
      const twice = await fetch(`${server.url}/api/images`, {
        method: "POST",
        headers: { authorization: `Bearer ${keys.owner}` },
        body: two
      })
      expect(twice.status).toBe(400)
      expect(((await twice.json()) as { error: string }).error).toBe('send exactly one file part, named "file"')
      const other = new FormData()
      other.append("picture", new Blob([png(2, 2)]), "a.png")
      const misnamed = await fetch(`${server.url}/api/images`, {
        method: "POST",
        headers: { authorization: `Bearer ${keys.owner}` },
        body: other
      })
      expect(misnamed.status).toBe(400)
      expect(((await misnamed.json()) as { error: string }).error).toBe('send exactly one file part, named "file"')
      const json = await api(server, keys.owner, "POST", "/images", { file: "x" })
      expect(json.status).toBeGreaterThanOrEqual(400)
      expect(json.status).toBeLessThan(500)
      expect(typeof json.body.error).toBe("string")
      // Nothing refused was kept: only the GIF is listed.
      const listed = await api(server, keys.owner, "GET", "/images")
      expect(listed.body.data.map((i: { name: string }) => i.name)).toEqual(["a.png"])
    })

    it("a form shows only images of its workspace; its page serves exactly those; an image shown cannot be deleted", async () => {
      const a = await seed()
      const b = await seed()
      const logo = (await uploadImage(server, a.keys.member, png(120, 40), "logo.png")).body
      const tea = (await uploadImage(server, a.keys.member, png(40, 30, [200, 120, 0]), "tea.png")).body
      const unused = (await uploadImage(server, a.keys.member, png(8, 8), "unused.png")).body
      const foreign = (await uploadImage(server, b.keys.owner, png(8, 8), "foreign.png")).body
      const form = await createForm(server, a.keys.owner, {
        title: "Drinks",
        fields: [{ type: "select", label: "Drink", options: { choices: ["Tea", "Coffee"] } }]
      })
      const field = form.fields[0]!
      const withImages = (images: Record<string, string>, themeLogo?: string) =>
        api(server, a.keys.member, "PATCH", `/forms/${form.id}`, {
          fields: [{ id: field.id, type: "select", label: "Drink", options: { choices: ["Tea", "Coffee"], images } }],
          ...(themeLogo === undefined ? {} : { settings: { theme: { logo: themeLogo, logoAlt: "Tea House" } } })
        })
      // Another workspace's image, an unknown one, a malformed id, a choice that does not exist.
      const crossed = await withImages({ Tea: foreign.id })
      expect(crossed.status).toBe(400)
      expect(crossed.body.error).toBe(
        `fields.0.options.images "Tea": no image ${foreign.id} in this workspace (upload images with POST /api/images)`
      )
      const crossedLogo = await withImages({}, foreign.id)
      expect(crossedLogo.status).toBe(400)
      expect(crossedLogo.body.error).toContain(`settings.theme.logo: no image ${foreign.id} in this workspace`)
      expect((await withImages({ Tea: "img_nope" })).body.error).toContain(
        "an image id is img_ and 22 letters, digits, - or _"
      )
      expect((await withImages({ Milk: tea.id })).body.error).toContain('images names "Milk", which is not a choice')
      const saved = await withImages({ Tea: tea.id }, logo.id)
      expect(saved.status, saved.text).toBe(200)

      // The page shows the logo (with its words) and the choice's picture, and serves both; nothing else.
      const page = await getPage(server, `/f/${form.publicId}`)
      expect(page.text).toContain(`<img src="${form.publicId}/images/${logo.id}" alt="Tea House">`)
      const question = await fetch(`${server.url}/f/${form.publicId}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          token: /name="token" value="([^"]+)"/.exec(page.text)![1]!,
          at: "welcome"
        })
      })
      const questionText = await question.text()
      expect(questionText).toContain(
        `<img src="${form.publicId}/images/${tea.id}" alt="" loading="lazy"> <span>Tea</span>`
      )
      expect(questionText).toContain("<span>Coffee</span>")
      for (const shown of [logo, tea]) {
        const served = await fetch(`${server.url}/f/${form.publicId}/images/${shown.id}`)
        expect(served.status).toBe(200)
        expect(served.headers.get("content-type")).toBe("image/png")
        expect(served.headers.get("x-content-type-options")).toBe("nosniff")
        expect(served.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox")
        expect(Buffer.from(await served.arrayBuffer()).length).toBe(shown.size)
      }
      for (const hidden of [unused.id, foreign.id, "img_xxxxxxxxxxxxxxxxxxxxxx", "../../etc/passwd"]) {
        const refused = await fetch(`${server.url}/f/${form.publicId}/images/${encodeURIComponent(hidden)}`)
        expect(refused.status, hidden).toBe(404)
      }

      // Shown images cannot be deleted, the message says where; the unused one can.
      const inUse = await api(server, a.keys.member, "DELETE", `/images/${tea.id}`)
      expect(inUse.status).toBe(409)
      expect(inUse.body.error).toBe(`image ${tea.id} is still shown by form "Drinks": remove it there first`)
      expect((await api(server, a.keys.member, "DELETE", `/images/${unused.id}`)).status).toBe(204)

      // A draft's page shows nothing, images included.
      expect((await api(server, a.keys.owner, "PATCH", `/forms/${form.id}`, { status: "draft" })).status).toBe(200)
      expect((await fetch(`${server.url}/f/${form.publicId}/images/${tea.id}`)).status).toBe(404)

      // Taken off the form, the picture can go; deleting the form frees the logo.
      expect((await withImages({})).status).toBe(200)
      expect((await api(server, a.keys.member, "DELETE", `/images/${tea.id}`)).status).toBe(204)
      expect((await api(server, a.keys.member, "DELETE", `/images/${logo.id}`)).status).toBe(409)
      expect((await api(server, a.keys.owner, "DELETE", `/forms/${form.id}`)).status).toBe(204)
      expect((await api(server, a.keys.member, "DELETE", `/images/${logo.id}`)).status).toBe(204)
      // Their rows and bytes are gone.
      const left = await server.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          return yield* sql<{ readonly id: string }>`select id from images where workspace_id = ${a.workspaceId}`
        }).pipe(Effect.orDie)
      )
      expect(left).toEqual([])
    })

    it("the workspace's theme may show a logo of the library, worn by forms without a theme", async () => {
      const { keys } = await seed()
      const logo = (await uploadImage(server, keys.admin, png(60, 20), "logo.png")).body
      const form = await createForm(server, keys.owner, {
        title: "Plain",
        fields: [{ type: "short_text", label: "Q" }]
      })
      const unknown = await api(server, keys.admin, "PUT", "/workspace/settings", {
        theme: { logo: "img_AAAAAAAAAAAAAAAAAAAAAA" }
      })
      expect(unknown.status).toBe(400)
      expect(unknown.body.error).toBe(
        "theme.logo: no image img_AAAAAAAAAAAAAAAAAAAAAA in this workspace (upload images with POST /api/images)"
      )
      const put = await api(server, keys.admin, "PUT", "/workspace/settings", { theme: { logo: logo.id } })
      expect(put.status, put.text).toBe(200)
      const page = await getPage(server, `/f/${form.publicId}`)
      expect(page.text).toContain(`<div class="brand"><img src="${form.publicId}/images/${logo.id}" alt=""></div>`)
      expect((await fetch(`${server.url}/f/${form.publicId}/images/${logo.id}`)).status).toBe(200)
      const inUse = await api(server, keys.member, "DELETE", `/images/${logo.id}`)
      expect(inUse.status).toBe(409)
      expect(inUse.body.error).toBe(
        `image ${logo.id} is still shown by the workspace's page theme: remove it there first`
      )
    })

    it("images count towards the workspace's storage quota", async () => {
      const firstPicture = png(20, 20)
      const picture = png(30, 30, [1, 2, 3])
      const small = await startTestServer(target, {
        rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
        uploads: { maxBytesPerForm: 1024 * 1024, maxBytesPerWorkspace: firstPicture.length + picture.length - 1 }
      })
      try {
        const seeded = await small.run(
          Effect.gen(function* () {
            const { workspace, ownerAccountId } = yield* (yield* Workspaces).create({
              name: "quota",
              ownerEmail: "quota-owner@example.com"
            })
            return (yield* (yield* ApiKeys).create(workspace.id, { accountId: ownerAccountId })).key
          }).pipe(Effect.orDie)
        )
        const first = await uploadImage(small, seeded, firstPicture)
        expect(first.status, first.text).toBe(201)
        const second = await uploadImage(small, seeded, picture)
        expect(second.status, second.text).toBe(413)
        expect(second.body.error).toContain("this workspace's storage quota is used up")
      } finally {
        await small.close()
      }
    })
  })
}
