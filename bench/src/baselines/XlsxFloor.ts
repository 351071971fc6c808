/**
 * The floor of the XLSX export: the minimal hand-written way, exceljs's
 * streaming writer fed directly with rows made in memory (no database, no
 * HTTP), the same 13 columns and cell types as qforms writes for the bench
 * form, into a writable that counts the bytes and drops them (a reader that
 * is never slow). Pages of 1,000 rows, a turn of the event loop between
 * pages, as a cursor would give.
 *
 * `XLSX_ROWS=100000 node bench/src/baselines/XlsxFloor.ts` prints `ready`,
 * waits a second (the harness reads the idle RSS), writes a workbook of 10
 * rows and prints `warm`, waits a second (the harness reads the RSS again),
 * writes the `XLSX_ROWS` rows and prints `done {"rows":…,"bytes":…,"ms":…}`.
 */
import { Writable } from "node:stream"
import { setTimeout as sleep } from "node:timers/promises"

const rows = Number(process.env.XLSX_ROWS ?? "100000")
const topics = ["Sales", "Support", "Billing", "Partnership", "Other"]
const stages = ["New", "In progress", "Done"]

process.stdout.write("ready\n")
await sleep(1_000)

const { default: ExcelJS } = await import("exceljs")

/** Writes `rows` rows as qforms writes the bench form; answers the bytes written. */
const write = async (rows: number): Promise<number> => {
  let bytes = 0
  const out = new Writable({
    write: (chunk: Buffer, _encoding, callback) => {
      bytes += chunk.length
      callback()
    }
  })
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true })
  const sheet = workbook.addWorksheet("Responses", { views: [{ state: "frozen", ySplit: 1 }] })
  sheet.columns = [
    { width: 12 },
    { width: 20, style: { numFmt: "yyyy-mm-dd hh:mm:ss" } },
    { width: 20 },
    { width: 28 },
    { width: 14 },
    { width: 20 },
    { width: 20 },
    { width: 10 },
    { width: 16 },
    { width: 16 },
    { width: 16 },
    { width: 8 },
    { width: 40 }
  ]
  const header = sheet.addRow([
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
  ])
  header.font = { bold: true }
  header.commit()
  const newest = Date.UTC(2026, 10, 26)
  for (let g = 1; g <= rows; g++) {
    const name = `Person ${g % 50} ${Math.floor(g / 50) % 200}`
    const email = `user${g}@example.com`
    sheet
      .addRow([
        g,
        new Date(newest - g * 37_000),
        name,
        email,
        g % 4 === 0 ? null : stages[g % 3]!,
        null,
        g % 100 === 0 ? "vip" : g % 7 === 0 ? "follow-up" : null,
        "import",
        name,
        email,
        topics[g % 5]!,
        1 + (g % 5),
        `About my order ${g.toString(16).padStart(32, "0")}, please call me back.`
      ])
      .commit()
    if (g % 1_000 === 0) await new Promise((resolve) => setImmediate(resolve))
  }
  sheet.commit()
  await workbook.commit()
  return bytes
}

// A first workbook of a few rows (exceljs loaded and warm), as qforms' first export.
await write(10)
process.stdout.write("warm\n")
await sleep(1_000)
const started = performance.now()
const bytes = await write(rows)
process.stdout.write(`done ${JSON.stringify({ rows, bytes, ms: performance.now() - started })}\n`)
