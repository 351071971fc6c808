/**
 * Writes docs/RELIABILITY.md at the end of `npm run test:reliability`: the
 * outcome of every check and the figures each scenario recorded (see
 * `record` in Harness.ts), with the machine's load average.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { cpus, loadavg } from "node:os"
import { join, relative } from "node:path"
import type { Reporter, TestModule } from "vitest/node"
import { counts, type Figures, full, resultsDir, rootDir } from "./Harness.ts"

/** What each scenario proves, in the order of issue #14. */
const scenarios: ReadonlyArray<readonly [string, string]> = [
  [
    "1 crash during load",
    "The standalone under 100 concurrent submitting clients is killed with `kill -9` at a random moment and restarted, round after round on the same database. Every response acknowledged with 201 must exist with its values, and must reach the local receiver as a `response.created` post (at-least-once; duplicates counted by `webhook-id`)."
  ],
  [
    "2 receiver outage",
    "The receiver refuses connections, then answers 503, then 200: every event is delivered once it is back (retry schedule `0s,1s,1s,…`). A receiver answering 400 gets exactly one attempt per event; one answering 410 gets one post and its subscription is disabled."
  ],
  [
    "3 database outage",
    "PostgreSQL only, on a database of its own: during a submission load the database stops accepting connections (`allow_connections false`) and the server's connections are cut (`pg_terminate_backend`). Requests must fail fast with 503 `{error}`, recover without a restart, and leave no response without its event or event without its response."
  ],
  [
    "4 two instances",
    "PostgreSQL only: two server processes on one schema share a submission load; each event is delivered exactly once (no crash here), the per-process rate limit answers 429 with `Retry-After` past its burst, and the event stream of one process carries the events committed through the other."
  ],
  [
    "5 fuzzing",
    "Requests generated with fast-check from the JSON Schemas of the served OpenAPI document and MCP `tools/list` (every endpoint and tool, so new ones are fuzzed automatically), then mutated (wrong types, huge strings, deep JSON, invalid UTF-8, wrong content types, path traversal in ids, negative/huge numbers), plus the public page, its JSON route and uploads. No answer may be ≥ 500, every JSON error body must be `{error}` (JSON-RPC errors on `/mcp`), and the server must be healthy afterwards."
  ],
  [
    "6 tenant isolation",
    "Two workspaces; workspace B's key is used on every path of the OpenAPI document with A's ids, on CSV, files, MCP tools, delivery logs and the event stream; A's drafts' public pages are probed without a key. No answer may carry A's data. Public ids and file ids are checked for length and uniqueness."
  ],
  [
    "7 keys and secrets",
    "Keys stored only as hashes (every table of the database searched for the key), never in logs (stdout and stderr of a debug-level run with request logging searched), revocation effective on the next request, and a key with a checksum typo rejected without a database lookup (PostgreSQL's scan counters of `api_keys` do not move)."
  ],
  [
    "8 SSRF matrix",
    "With the default rule (private targets refused), subscriptions to loopback, private, link-local, CGNAT, metadata, IPv6 local and IPv4-mapped addresses and their decimal/octal/hex spellings are refused; a DNS name that resolves to loopback only at delivery time is not posted to; a receiver's 302 to a private address is not followed. A control row (a public address) is accepted."
  ],
  [
    "9 soak",
    "Mixed read/write load at a fixed rate: no error, resident memory without a growth trend, event→delivery latency stable from the first third of the run to the last. In a one-minute run the RSS slope mostly shows the heap's warm-up; the last full-size run (600 s each, 2026-11-22, load average 4–10) measured an RSS trend of −8.1 MiB/min on PGlite (12 002 requests, 0 errors, delivery p95 44 → 37 ms) and +0.5 MiB/min on PostgreSQL (12 001 requests, 0 errors, RSS median 251 → 243 MiB, delivery p95 9 → 7 ms), where 1 acknowledged response of 4 800 was at first not delivered within 60 s: the test's own receiver was starved by its O(n²) check of the received posts (the delivery was retried on the 3 s timeout and succeeded just after the wait); with the receiver indexing posts as they arrive, the same 600 s PostgreSQL run delivered all 4 802 within 2 s of the end."
  ],
  [
    "10 untrusted text",
    "Hostile 1 MiB e-mail replies (runs of `>` lines that stop short of the end, one long line, many signature markers, deeply nested quotes, quote-header look-alikes, a huge header line, costly HTML) are posted to the standalone's `POST /inbound/email` while `/healthz` is polled back to back. Every reply must be answered without a 5xx and `/healthz` must never wait a second: replies are parsed in a worker thread under a time budget and the quoted-history cut is linear (before the fix, a 72 KB reply of `>` lines stalled the server 8 s; the old cut took 0.76 s for 16 KB, 2.3 s for 32 KB and 53 s for 64 KB of such lines, under load)."
  ],
  [
    "11 stream revocation",
    "PostgreSQL only: two server processes; event streams held by one are opened with a second key of the owner, a member's key, an admin's key and a member's application session, and the key is revoked, the member removed, the admin demoted to viewer and the session signed out through the other process. Each stream must be closed (4401; 4403 for the role change) within 5 s of the change's answer and receive none of the events committed right after it. One key then holds `QFORMS_EVENT_STREAMS_PER_KEY` (5 here) streams: its next handshake must be refused with 429 `{error}` while another key still opens one."
  ],
  [
    "12 container restart",
    'PGlite only: the standalone runs as PID 1 of a fresh PID namespace (`unshare --pid --fork --mount-proc`, as in a container), is killed with `kill -9` under 20 submitting clients and started again as PID 1 of a new namespace, round after round on the same data directory. The data-directory lock is a kernel advisory lock, dropped when the process dies: every start must succeed despite the lock file naming pid 1, every response acknowledged with 201 must be found, and a second live process (PID 1 of another namespace) must be refused as "in use by process 1".'
  ],
  [
    "13 role escalation",
    "A workspace with two members of every role, each with a key. Every operation that acts on a member, a key or a role is found in the served OpenAPI document (an `accountId` or `role` in its path or body, or a members or keys path) and every MCP write tool taking an `accountId` or a `role` in `tools/list`, so new ones are probed automatically. Each role as the caller tries them on members of an equal or higher role (with every other role, where a role is given) and on itself with every higher role. Every attempt must be refused (403 `{error}`) and change no member or key."
  ],
  [
    "14 cross-site writes",
    "Every write route of the served OpenAPI document, plus `/mcp` and the application's JSON routes, gets forged cross-site requests (an `Origin` of another site, `Sec-Fetch-Site: cross-site`, a typeless body, `text/plain`) signed in by the application's session cookie (the standalone) and by a host's identity bridge (a small host with `resolveActor` reading its own cookie). Every one must be refused (403/415) and change nothing (the workspace read back before and after); bearer-key writes with the same headers keep working."
  ],
  [
    "15 partial rows",
    "One address hammers the first steps of a public form on the standalone (120 respondents: half post only the Start step, half answer the first question and leave), with `QFORMS_PARTIAL_RESPONSES_PER_ADDRESS_PER_HOUR=5`. The Start step must create no partial response, the partial responses must stay at most 5, no step may answer ≥ 500, and the same address must still submit the form afterwards (before the fix every first step created a row, limited only by the step limiter of 5 a second)."
  ],
  [
    "16 upload limits",
    "Every path that stores a respondent's file (the upload route and the public page's multipart step without JavaScript) is sent more files than the per-address burst (`QFORMS_UPLOADS_PER_MINUTE=5`) from one client address behind a trusted proxy: past the burst each answers 429 with `Retry-After` (the page shows its question again with the message) and stores nothing; both paths take from one bucket; a forged `X-Forwarded-For` entry gives no new bucket while another client still uploads; a form over `QFORMS_UPLOAD_QUOTA_FORM_BYTES` answers 413 on both paths."
  ],
  [
    "17 network partition",
    "PostgreSQL only, through a TCP proxy that stops every byte both ways without closing anything (a dropped link, a firewall dropping packets): under 10 submitting clients and a `/readyz` prober the link goes silent for 15 s (70 s in the full run). Every request in flight or made during the partition must be answered 503 `{error}` within 5 s, and `/readyz` 503 within 5 s (the process's link check cuts the pool once `select 1` goes 3 s unanswered), the server must come back without a restart once the link heals, nothing acknowledged may be lost, no response may be without its event or the reverse, and every submission answered 503 and sent again with its `Idempotency-Key` must end stored exactly once."
  ],
  [
    "18 disk full",
    "PGlite only, as root: the data directory sits on a 128 MB tmpfs that a file fills to the last byte. Every submission that finds no room must be answered 503 `{error}` naming the disk (never 500), `/readyz` must answer 503 naming it, and once the file is removed both must come back without a restart, with nothing acknowledged lost."
  ],
  [
    "19 pg_dump and pg_restore",
    "PostgreSQL only: the `qforms` schema is dumped with `pg_dump --format=custom --schema=qforms` and restored with `pg_restore --no-owner` into two empty databases, one with `pg_trgm` created first (as docs/operations.md says) and one without (then `pg_restore` reports the text search index's error). Either way the server started on the restored database must serve every response and its search must have its trigram index."
  ]
]

/** The defects this suite found, each fixed in the project (not excluded from the suite). */
const defectsFound: ReadonlyArray<string> = [
  'SSRF (8): subscribing to a host name that could not be resolved at that moment skipped every check, so `http://LOCALHOST.:port/`, URLs with credentials and other schemes were accepted. Fixed: `SsrfGuard.vetWithoutDns` runs first (commit "Webhooks: a target name that cannot be resolved…").',
  'Tenant isolation (6): `POST /f/{publicId}/responses` answered a draft form with 409, telling that the draft exists, where its page answers 404. Fixed: 404 for drafts (commit "Public page: the JSON submission route answers a draft form with 404…").',
  'Fuzzing (5), PostgreSQL: a stage added to a form that a concurrent request deleted failed its foreign key and answered 500. Fixed: a foreign-key violation answers 409 (commit "HTTP: a write whose referenced row is deleted concurrently answers 409…").',
  'Database outage (3): with the database refusing connections and the server\'s sessions terminated, 385 of 1296 requests answered 500 (SQLSTATE 57P01 and the connect-time refusal were not seen as the database being away). Fixed: `Database.isUnreachable` covers them, 503 (commit "Database: a session ended by the server or refused at connect…").',
  'Fuzzing (5), once the member and API key endpoints existed: `POST /api/api-keys` with an `accountId` beyond the 32-bit id range reached PostgreSQL and answered 500. Fixed: `accountId` is a bounded id, 400 (commit "API keys: accountId is a bounded id…").',
  'Role escalation (13), once invitations existed: an admin or co-owner could `POST /api/invitations` for the address of an equal or higher member and got 409 ("already a member") instead of 403 — 8 probes. Fixed: an address that is already a member\'s goes through `Actors.requireAuthorityOver` before the 409 (commit "Invitations: an address that is already a member\'s is held to the same authority rule…").',
  "Fuzzing (5), PGlite: `POST /api/webhooks/deliveries/{id}/retry` while a concurrent request deleted the delivery's subscription answered 500 (the delivery was gone when it was read back). Fixed: 404 (same commit).",
  'Network partition (17), reported by the outside reliability review and reproduced by this scenario before its fix: with the link to PostgreSQL silent, every submission hung for the whole partition (answered 201 after it healed) and `/readyz` did not answer. Fixed: the link check of `storage/DatabaseLink.ts` cuts the pool after 3 s without an answer (commit "DatabaseLink: a process on PostgreSQL watches its link…").',
  'Disk full (18), reported by the outside review, reproduced by hand before the fix: a write that found no room answered 500 "internal error" while `/readyz` answered 200. Fixed: 503 naming the disk, and not ready (commit "Disk full (#52 item 15)…").',
  'pg_dump and pg_restore (19), reported by the outside review and shown by this scenario\'s restore without `pg_trgm`: the text search index was left out and nothing noticed. Fixed: the server makes it again at start (commit "pg_dump/pg_restore (#52 item 11)…").'
]

const cell = (value: unknown) => String(value).replace(/\|/g, "\\|").replace(/\n/g, " ")

const readResults = (): Array<Figures & { readonly loadavg: ReadonlyArray<number>; readonly at: string }> =>
  existsSync(resultsDir)
    ? readdirSync(resultsDir)
        .filter((name) => name.endsWith(".json"))
        .map((name) => JSON.parse(readFileSync(join(resultsDir, name), "utf8")))
    : []

export default class ReportWriter implements Reporter {
  private startLoad: ReadonlyArray<number> = []
  private started = new Date()

  onInit() {
    rmSync(resultsDir, { recursive: true, force: true })
    mkdirSync(resultsDir, { recursive: true })
    this.startLoad = loadavg()
    this.started = new Date()
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const results = readResults()
    const endLoad = loadavg()
    const lines: Array<string> = []
    lines.push("# Reliability and security figures")
    lines.push("")
    lines.push("Generated by `npm run test:reliability` (the suite in `reliability/`); do not edit by hand.")
    lines.push("")
    lines.push(
      `- Run: ${this.started.toISOString()} → ${new Date().toISOString()}, ${full ? "**full-size** counts (`QFORMS_RELIABILITY_FULL=1`)" : "CI counts (set `QFORMS_RELIABILITY_FULL=1` for the full-size run)"}.`
    )
    lines.push(
      `- Machine: ${cpus().length} CPU(s) (${cpus()[0]?.model ?? "?"}), Node ${process.version}; load average (1 min / 5 min) ${this.startLoad
        .slice(0, 2)
        .map((n) => n.toFixed(2))
        .join(" / ")} at the start, ${endLoad
        .slice(0, 2)
        .map((n) => n.toFixed(2))
        .join(
          " / "
        )} at the end. Other work shared the machine: timings are noisy; each table gives the load average when its figures were taken.`
    )
    lines.push(
      `- Counts: crash rounds ${counts.crashRounds} (full: 20) × ${counts.crashClients} clients; fuzzing ${counts.fuzzRequests} requests (full: 10 000); soak ${counts.soakSeconds} s (full: 600 s) at ${counts.soakRatePerSecond} requests/s.`
    )
    lines.push("")
    lines.push("## Defects found by this suite (all fixed)")
    lines.push("")
    for (const defect of defectsFound) lines.push(`- ${defect}`)
    lines.push("")
    lines.push("## Checks")
    lines.push("")
    lines.push("| File | Check | Result |")
    lines.push("|---|---|---|")
    for (const module of testModules) {
      const file = relative(join(rootDir, "reliability"), module.moduleId)
      for (const test of module.children.allTests()) {
        lines.push(`| ${cell(file)} | ${cell(test.fullName)} | ${test.result().state} |`)
      }
    }
    for (const [name, description] of scenarios) {
      lines.push("")
      lines.push(`## ${name.replace(/^(\d+) /, "$1. ")}`)
      lines.push("")
      lines.push(description)
      const mine = results.filter((result) => result.scenario === name)
      if (mine.length === 0) {
        lines.push("")
        lines.push(
          "_No figures in this run (not run, or skipped: PostgreSQL scenarios need `QFORMS_TEST_DATABASE_URL`)._"
        )
        continue
      }
      const keys = [...new Set(mine.flatMap((result) => Object.keys(result.figures)))]
      lines.push("")
      lines.push(`| Target | ${keys.map(cell).join(" | ")} | load avg (1/5 min) |`)
      lines.push(`|---|${keys.map(() => "---").join("|")}|---|`)
      for (const result of mine) {
        lines.push(
          `| ${cell(result.target)} | ${keys.map((key) => cell(result.figures[key] ?? "")).join(" | ")} | ${result.loadavg.join(" / ")} |`
        )
      }
      for (const note of mine.flatMap((result) => (result.notes ?? []).map((n) => `${result.target}: ${n}`))) {
        lines.push("")
        lines.push(`- ${note}`)
      }
    }
    lines.push("")
    mkdirSync(join(rootDir, "docs"), { recursive: true })
    writeFileSync(join(rootDir, "docs", "RELIABILITY.md"), lines.join("\n"))
    process.stdout.write(`\nreliability: figures written to docs/RELIABILITY.md\n`)
  }
}
