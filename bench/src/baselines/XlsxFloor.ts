/**
 * The floor of the XLSX export: the minimal hand-written way, no library and
 * nothing of qforms. The sheet's XML is made as strings from rows made in
 * memory (no database, no HTTP), the same 13 columns and cell types as qforms
 * writes for the bench form, piped through one `zlib.createDeflateRaw` into a
 * ZIP with data descriptors, written to a writable that counts the bytes and
 * drops them (a reader that is never slow). Pages of 1,000 rows, a turn of the
 * event loop between pages, as a cursor would give.
 *
 * `XLSX_ROWS=100000 node bench/src/baselines/XlsxFloor.ts` prints `ready`,
 * waits a second (the harness reads the idle RSS), writes a workbook of 10
 * rows and prints `warm`, waits a second (the harness reads the RSS again),
 * writes the `XLSX_ROWS` rows and prints `done {"rows":…,"bytes":…,"ms":…}`,
 * waits a second and prints `rest` (the harness reads the RSS at rest), then
 * writes them once more and prints `again {…}`.
 */
import { once } from "node:events"
import { Writable } from "node:stream"
import { setTimeout as sleep } from "node:timers/promises"
import * as zlib from "node:zlib"

const rows = Number(process.env.XLSX_ROWS ?? "100000")
const topics = ["Sales", "Support", "Billing", "Partnership", "Other"]
const stages = ["New", "In progress", "Done"]
const headers = [
  "Response ID",
  "Submitted at",
  "Name",
  "Email",
  "Stage",
  "Assignee",
  "Tags",
  "Source",
  "Name (2)",
  "Email (2)",
  "Topic",
  "Score",
  "Message"
]
const widths = [12, 20, 20, 28, 14, 20, 20, 10, 16, 16, 16, 8, 40]
const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

process.stdout.write("ready\n")
await sleep(1_000)

const esc = (s: string) => s.replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"))
const str = (ref: string, s: string | null) =>
  s === null ? "" : `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${esc(s)}</t></is></c>`

/** The sheet's XML: its start, then one string per page of rows, then its end. */
async function* sheet(rows: number): AsyncGenerator<string> {
  yield `${xml}<worksheet ${ns}><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><cols>${widths
    .map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`)
    .join("")}</cols><sheetData><row r="1">${headers
    .map((h, i) => `<c r="${String.fromCharCode(65 + i)}1" s="1" t="inlineStr"><is><t>${h}</t></is></c>`)
    .join("")}</row>`
  const newest = Date.UTC(2026, 10, 26)
  let page = ""
  for (let g = 1; g <= rows; g++) {
    const r = g + 1
    const name = `Person ${g % 50} ${Math.floor(g / 50) % 200}`
    const email = `user${g}@example.com`
    page +=
      `<row r="${r}"><c r="A${r}"><v>${g}</v></c><c r="B${r}" s="2"><v>${(newest - g * 37_000) / 86_400_000 + 25_569}</v></c>` +
      str(`C${r}`, name) +
      str(`D${r}`, email) +
      str(`E${r}`, g % 4 === 0 ? null : stages[g % 3]!) +
      str(`G${r}`, g % 100 === 0 ? "vip" : g % 7 === 0 ? "follow-up" : null) +
      str(`H${r}`, "import") +
      str(`I${r}`, name) +
      str(`J${r}`, email) +
      str(`K${r}`, topics[g % 5]!) +
      `<c r="L${r}"><v>${1 + (g % 5)}</v></c>` +
      str(`M${r}`, `About my order ${g.toString(16).padStart(32, "0")}, please call me back.`) +
      "</row>"
    if (g % 1_000 === 0 || g === rows) {
      yield page
      page = ""
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  yield "</sheetData></worksheet>"
}

const parts: ReadonlyArray<readonly [string, string]> = [
  [
    "[Content_Types].xml",
    `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`
  ],
  [
    "_rels/.rels",
    `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`
  ],
  [
    "xl/workbook.xml",
    `${xml}<workbook ${ns} xmlns:r="${rel}"><sheets><sheet name="Responses" sheetId="1" r:id="rId1"/></sheets></workbook>`
  ],
  [
    "xl/_rels/workbook.xml.rels",
    `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${rel}/styles" Target="styles.xml"/></Relationships>`
  ],
  [
    "xl/styles.xml",
    `${xml}<styleSheet ${ns}><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf/></cellStyleXfs><cellXfs count="3"><xf/><xf fontId="1" applyFont="1"/><xf numFmtId="164" applyNumberFormat="1"/></cellXfs></styleSheet>`
  ]
]

/** Writes `rows` rows as qforms writes the bench form; answers the bytes written. */
const write = async (rows: number): Promise<number> => {
  let bytes = 0
  const out = new Writable({
    write: (chunk: Buffer, _encoding, callback) => {
      bytes += chunk.length
      callback()
    }
  })
  let offset = 0
  const central: Array<Buffer> = []
  const put = async (chunk: Buffer) => {
    offset += chunk.length
    if (!out.write(chunk)) await once(out, "drain")
  }
  const file = async (name: string, content: AsyncIterable<string> | Iterable<string>) => {
    const at = offset
    const head = Buffer.alloc(30)
    head.writeUInt32LE(0x04034b50, 0)
    head.writeUInt16LE(20, 4)
    head.writeUInt16LE(0x0808, 6) // sizes after the data, UTF-8 name
    head.writeUInt16LE(8, 8) // deflate
    head.writeUInt16LE(0x21, 12) // 1980-01-01
    head.writeUInt16LE(name.length, 26)
    await put(Buffer.concat([head, Buffer.from(name)]))
    let crc = 0
    let size = 0
    let packed = 0
    const deflate = zlib.createDeflateRaw()
    const sent = (async () => {
      for await (const chunk of deflate) {
        packed += chunk.length
        await put(chunk)
      }
    })()
    for await (const text of content) {
      const chunk = Buffer.from(text)
      crc = zlib.crc32(chunk, crc)
      size += chunk.length
      if (!deflate.write(chunk)) await once(deflate, "drain")
    }
    deflate.end()
    await sent
    const tail = Buffer.alloc(16)
    tail.writeUInt32LE(0x08074b50, 0)
    tail.writeUInt32LE(crc, 4)
    tail.writeUInt32LE(packed, 8)
    tail.writeUInt32LE(size, 12)
    await put(tail)
    const entry = Buffer.alloc(46)
    entry.writeUInt32LE(0x02014b50, 0)
    entry.writeUInt16LE(20, 4)
    head.copy(entry, 6, 4, 14)
    entry.writeUInt32LE(crc, 16)
    entry.writeUInt32LE(packed, 20)
    entry.writeUInt32LE(size, 24)
    entry.writeUInt16LE(name.length, 28)
    entry.writeUInt32LE(at, 42)
    central.push(entry, Buffer.from(name))
  }
  for (const [name, content] of parts) await file(name, [content])
  await file("xl/worksheets/sheet1.xml", sheet(rows))
  const directory = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(parts.length + 1, 8)
  end.writeUInt16LE(parts.length + 1, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  await put(Buffer.concat([directory, end]))
  out.end()
  return bytes
}

// A first workbook of a few rows (the path warm), as qforms' first export.
await write(10)
process.stdout.write("warm\n")
await sleep(1_000)
const started = performance.now()
const bytes = await write(rows)
process.stdout.write(`done ${JSON.stringify({ rows, bytes, ms: performance.now() - started })}\n`)
// The same workbook once more, after a rest (the harness reads the RSS at rest, then the peak of this one):
// what a further export adds once the process has made one of this size.
await sleep(1_000)
process.stdout.write("rest\n")
await sleep(500)
const again = performance.now()
const bytesAgain = await write(rows)
process.stdout.write(`again ${JSON.stringify({ rows, bytes: bytesAgain, ms: performance.now() - again })}\n`)
