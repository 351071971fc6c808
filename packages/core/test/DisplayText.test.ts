/**
 * Bidirectional formatting controls (U+202E RIGHT-TO-LEFT OVERRIDE and the
 * like) never reach what qforms shows: names, titles, labels, stage names,
 * notes, file names and the respondent's name taken from the answers are
 * stored without them, while right-to-left letters stay as typed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cut, escapeHtml, oneLine, stripBidiControls } from "../src/kernel/DisplayText.ts"
import { cleanFileName } from "../src/files/Files.ts"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { type Api, apiOf, workspace } from "@qforms/test-kit/InProcessApi"

const controls = [
  "\u061c",
  "\u200e",
  "\u200f",
  "\u202a",
  "\u202b",
  "\u202c",
  "\u202d",
  "\u202e",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069"
]
const rlo = "\u202e"

describe("stripBidiControls", () => {
  it.each(controls.map((c) => [c.codePointAt(0)!.toString(16)]))("removes U+%s", (hex) => {
    const control = String.fromCodePoint(parseInt(hex, 16))
    expect(stripBidiControls(`a${control}b${control}`)).toBe("ab")
  })

  it("keeps right-to-left letters and every other character", () => {
    expect(stripBidiControls("שלום مرحبا Ada ✓ 😀")).toBe("שלום مرحبا Ada ✓ 😀")
  })

  it("file names lose them too: an override cannot disguise an extension", () => {
    expect(cleanFileName(`invoice${rlo}fdp.exe`)).toBe("invoicefdp.exe")
    expect(cleanFileName(`${rlo}\u2066`)).toBe("file")
  })
})

describe("escapeHtml, cut and oneLine (pages and e-mails share them)", () => {
  it("escapes the characters that could open markup or leave a quoted attribute", () => {
    expect(escapeHtml(`<a href="x" title='y'>\`&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&#96;&amp;&lt;/a&gt;"
    )
    expect(escapeHtml("Ada ✓ مرحبا")).toBe("Ada ✓ مرحبا")
  })

  it("cuts by code point, never inside a surrogate pair, with an ellipsis only when cut", () => {
    expect(cut("abcdef", 6)).toBe("abcdef")
    expect(cut("abcdef", 4)).toBe("abc…")
    expect(cut("😀😀😀", 3)).toBe("😀😀😀")
    expect(cut("😀😀😀😀", 3)).toBe("😀😀…")
  })

  it("puts a header on one line: every kind of line break becomes a space", () => {
    expect(oneLine("Support\r\nBcc: x@example.com", 200)).toBe("Support Bcc: x@example.com")
    expect(oneLine("a\u2028b\u2029c\n\nd", 200)).toBe("a b c d")
    expect(oneLine("line\none", 5)).toBe("line…")
  })
})

for (const target of databaseTargets) {
  describe(`bidirectional controls through the API on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let api: Api

    beforeAll(async () => {
      const options = target.options()
      cleanup = options.cleanup
      qforms = await Qforms.make({ database: options.database, appUrl: "https://forms.example.com" })
      api = apiOf(qforms, (await workspace(qforms, `bidi-${target.name}`)).owner)
    })
    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
    })

    it("stores titles, labels, stage names, member names, notes and the respondent's name without them", async () => {
      const form = await api("POST", "/forms", {
        title: `Pay ${rlo}fdp.exe`,
        fields: [{ type: "short_text", label: `${rlo}Name`, required: true }]
      })
      expect(form.status).toBe(201)
      expect(form.json.title).toBe("Pay fdp.exe")
      const read = await api("GET", `/forms/${form.json.id}`)
      expect(read.json.title).toBe("Pay fdp.exe")
      expect(read.json.fields[0].label).toBe("Name")

      const stage = await api("POST", `/forms/${form.json.id}/stages`, { name: `\u2067Done\u2069` })
      expect([stage.status, stage.json.name]).toEqual([201, "Done"])

      const member = await api("POST", "/members", {
        email: "bidi-member@example.com",
        name: `Eve ${rlo}nimda`,
        role: "member"
      })
      expect(member.status).toBe(201)
      expect(member.json.name).toBe("Eve nimda")

      expect((await api("PATCH", `/forms/${form.json.id}`, { status: "published" })).status).toBe(200)
      const fieldId = String(read.json.fields[0].id)
      const response = await api("POST", `/forms/${form.json.id}/responses`, {
        values: { [fieldId]: `Mallory${rlo}gpj.exe` }
      })
      expect(response.status).toBe(201)
      expect(response.json.name).toBe("Mallorygpj.exe")

      const note = await api("POST", `/responses/${response.json.id}/notes`, { body: `call back ${rlo}tomorrow` })
      expect([note.status, note.json.payload.body]).toEqual([201, "call back tomorrow"])

      // Tags and API key names too: one sanitiser for every short text (issue #52).
      const tagged = await api("PATCH", `/responses/${response.json.id}`, { tags: [`vip${rlo}`, `\u2066urgent\u2069`] })
      expect(tagged.status, JSON.stringify(tagged.json)).toBe(200)
      expect((await api("GET", `/responses/${response.json.id}`)).json.response.tags).toEqual(["vip", "urgent"])
      const key = await api("POST", "/api-keys", { name: `CI ${rlo}yek` })
      expect([key.status, key.json.apiKey?.name]).toEqual([201, "CI yek"])
    })

    it("refuses a name, title or note that is nothing but controls, as an empty one", async () => {
      const form = await api("POST", "/forms", { title: `${rlo}\u2066` })
      expect(form.status).toBe(400)
      expect(form.json.error).toMatch(/title/)
      const ok = await api("POST", "/forms", { title: "Notes" })
      const stage = await api("POST", `/forms/${ok.json.id}/stages`, { name: rlo })
      expect(stage.status).toBe(400)
    })
  })
}
