/**
 * The hot path's work budget (issue #51), in the spirit of Django's
 * `assertNumQueries`: what one request costs the database, counted, against
 * the budget written below with the reason for each line. Adding work to a
 * submission, a form read or the public page means editing the budget here,
 * in the same change, visibly.
 *
 * Counted, per request, on each test database:
 * - statements and transactions: the SQL spans of the request's trace (the
 *   request carries a `traceparent`; `Qforms.make({ tracer })` keeps the spans).
 *   A statement outside a transaction is a transaction of its own;
 * - rows written (inserted, updated, deleted), per table: a logging trigger on
 *   every table, installed by this test only;
 * - rows shared with other submissions: rows two submissions of different
 *   respondents to the same form both write (a counter, a tally), the rows that
 *   make concurrent submissions wait on each other. Locks taken without writing
 *   (the form's row, held against its deletion) are not counted.
 *
 * The background fold (`cases/ResponseFold.ts`) and the page counts' flush
 * (`insights/PageCounts.ts`) write in transactions of their own; their rows are
 * told apart by their transaction and left out.
 */
import { Effect } from "effect"
import * as Tracer from "effect/Tracer"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Members } from "../src/identity/index.ts"
import * as Qforms from "../src/Qforms.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { apiOf } from "@qforms/test-kit/InProcessApi"
import { waitFor } from "@qforms/test-kit/Conditions"
import { ownerKey } from "@qforms/test-kit/Seeds"

/**
 * The budget. Every line says why the work is there; a change that needs more
 * edits it here, in the same commit.
 */
const budget = {
  /** A submission of a new respondent to a plain form (its form and key cached, as on a busy form). */
  plainSubmission: {
    // 1. the contact (upserted by e-mail) with the new response's id; 2. the write: the response, its
    //    activity, its event with the deliveries it causes and the NOTIFYs, in one statement.
    statements: 2,
    // Each statement is a transaction of its own (no BEGIN/COMMIT round trips).
    transactions: 2,
    rows: {
      "activities insert": 1, // the case's timeline: "created"
      "contacts insert": 1, // the respondent, a new one (the same person again updates nothing)
      "events insert": 1, // response.created, in the submission's transaction (the outbox)
      "response_fold_queue insert": 1, // the response waits to be folded into its tallies and count
      "responses insert": 1 // the response
    },
    // Nothing two respondents' submissions both write: no counter, no tally (folded later, in batches).
    shared: []
  },
  /**
   * A submission to a form with every feature on: logic, a translation, SLA targets, case fields, a round
   * robin, a webhook and a Slack channel.
   */
  fullSubmission: {
    // The round robin takes its turn in the submission's transaction, so a failed submission gives it back:
    // 1. the form held against its deletion (the transaction cannot use the one statement's nowait hold);
    // 2. the contact and the id; 3. the rules; 4. the members not away; 5. the turn taken;
    // 6. the write (response, activities, response.created and its deliveries);
    // 7. the assignee as the event names them; 8. response.assigned.
    statements: 8,
    transactions: 1,
    rows: {
      "activities insert": 2, // "created" and "assigned"
      "assignment_rules update": 1, // the round robin's next turn
      "contacts insert": 1,
      "deliveries insert": 2, // the webhook's and the Slack channel's, both of response.created
      "events insert": 2, // response.created and response.assigned
      "response_fold_queue insert": 1,
      "responses insert": 1
    },
    // The round robin's turn: one row per rule that every submission takes, in order (the rule's promise).
    shared: ["assignment_rules"]
  },
  /** `GET /api/forms/{id}`, the public page and MCP's `get_form`, the form cached: no statement at all. */
  cachedRead: { statements: 0, transactions: 0, rows: {}, shared: [] }
} as const

/** The SQL work of one request. */
interface Work {
  readonly statements: number
  readonly transactions: number
  /** Rows written by table and operation (`responses insert`), in name order. */
  readonly rows: Readonly<Record<string, number>>
  /** The rows written, each `table key`: to find the ones two submissions share. */
  readonly keys: ReadonlyArray<string>
}

/** Every span, by trace: the statements and transactions of a request are those of its trace. */
const spans = new Map<string, Array<Tracer.Span>>()
const tracer = Tracer.make({
  span: (options) => {
    const span = Tracer.nativeTracer.span(options)
    let list = spans.get(span.traceId)
    if (list === undefined) spans.set(span.traceId, (list = []))
    list.push(span)
    return span
  }
})

const isStatement = (span: Tracer.Span) => span.attributes.has("db.query.text")
const isTransaction = (span: Tracer.Span) => span.name === "sql.transaction"
const inTransaction = (span: Tracer.Span): boolean => {
  let above: Tracer.AnySpan | undefined = span.parent._tag === "Some" ? span.parent.value : undefined
  while (above !== undefined && above._tag === "Span") {
    if (isTransaction(above)) return true
    above = above.parent._tag === "Some" ? above.parent.value : undefined
  }
  return false
}

const hex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("")

/** The trigger that logs every row written, with its transaction and its primary key. */
const installRowLog = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    yield* sql`create table budget_rows (id bigserial primary key, txid bigint not null, tbl text not null,
      op text not null, key text not null)`
    yield* sql`
      create function budget_row() returns trigger language plpgsql as $$
      declare
        r jsonb := to_jsonb(coalesce(new, old));
      begin
        insert into budget_rows (txid, tbl, op, key)
        select txid_current(), tg_table_name, lower(tg_op),
          coalesce((select string_agg(r ->> a.attname, ',' order by a.attnum)
            from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
            where i.indrelid = tg_relid and i.indisprimary), r::text);
        return null;
      end
      $$`
    const tables = yield* sql<{ readonly name: string }>`
      select c.relname as name from pg_class c
      where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p')
        and c.relname not in ('budget_rows', 'qforms_migrations')`
    for (const table of tables) {
      yield* sql.unsafe(
        `create trigger budget_row after insert or update or delete on "${table.name}" for each row execute function budget_row()`
      )
    }
  })

for (const target of databaseTargets) {
  describe(`work budget on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let key: string

    const rowsAfter = (id: number) =>
      qforms.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          // The fold's transactions (they take responses off the queue without deleting them) are not a request's,
          // nor are the page counts' flushes (a page view is counted in memory, written a second later).
          return yield* sql<{ readonly id: number; readonly tbl: string; readonly op: string; readonly key: string }>`
            select b.id::int as id, b.tbl, b.op, b.key from budget_rows b
            where b.id > ${id} and not exists (
              select 1 from budget_rows f where f.txid = b.txid and f.tbl = 'response_fold_queue' and f.op = 'delete'
                and not exists (select 1 from budget_rows d where d.txid = b.txid and d.tbl = 'responses'
                  and d.op = 'delete'))
              and not exists (select 1 from budget_rows p where p.txid = b.txid and p.tbl = 'page_counts')
            order by b.id`
        }).pipe(Effect.orDie)
      )

    const lastRow = () =>
      qforms.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const rows = yield* sql<{ readonly id: number }>`select coalesce(max(id), 0)::int as id from budget_rows`
          return rows[0]!.id
        }).pipe(Effect.orDie)
      )

    /** Sends a request in a trace of its own; answers its status, body and work. */
    const measure = async (request: Request, status: number): Promise<Work & { readonly body: string }> => {
      const traceId = hex(16)
      request.headers.set("traceparent", `00-${traceId}-${hex(8)}-01`)
      const before = await lastRow()
      const response = await qforms.handler(request)
      const body = await response.text()
      expect(response.status, body).toBe(status)
      const traced = spans.get(traceId) ?? []
      spans.delete(traceId)
      const statements = traced.filter(isStatement)
      const rows = await rowsAfter(before)
      const byTable: Record<string, number> = {}
      for (const row of rows) byTable[`${row.tbl} ${row.op}`] = (byTable[`${row.tbl} ${row.op}`] ?? 0) + 1
      return {
        body,
        statements: statements.length,
        transactions: traced.filter(isTransaction).length + statements.filter((s) => !inTransaction(s)).length,
        rows: Object.fromEntries(Object.entries(byTable).sort(([a], [b]) => a.localeCompare(b))),
        keys: rows.map((row) => `${row.tbl} ${row.key}`)
      }
    }

    const apiRequest = (method: string, path: string, body?: unknown) =>
      new Request(`http://qforms.test/api${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })

    beforeAll(async () => {
      const { database, cleanup: dropDatabase } = target.options()
      cleanup = dropDatabase
      qforms = await Qforms.make({
        database,
        appUrl: "https://forms.example.com",
        delivery: { worker: false, allowPrivateTargets: true },
        publicPage: { minSubmitSeconds: 0, submissionRateLimit: { requestsPerSecond: 1000, burst: 1000 } },
        rateLimit: { requestsPerSecond: 1000, burst: 1000 },
        tracer
      })
      key = await qforms.run(ownerKey({ name: "Budget" }))
      await qforms.run(
        Effect.gen(function* () {
          yield* installRowLog(yield* SqlClient.SqlClient)
        }).pipe(Effect.orDie)
      )
    })

    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
    })

    const publish = async (title: string, extra: (ids: ReadonlyArray<number>, formId: number) => Promise<void>) => {
      const api = apiOf(qforms, key)
      const form = await api("POST", "/forms", {
        title,
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "email", label: "Email" },
          { type: "select", label: "Topic", options: { choices: ["Billing", "Sales"] } },
          { type: "rating", label: "Score" },
          { type: "long_text", label: "Note" }
        ]
      })
      expect(form.status, JSON.stringify(form.json)).toBe(201)
      const ids = (form.json.fields as ReadonlyArray<{ id: number }>).map((f) => f.id)
      await extra(ids, form.json.id)
      expect((await api("PATCH", `/forms/${form.json.id}`, { status: "published" })).status).toBe(200)
      const [name, email, topic, score, note] = ids
      let n = 0
      const values = () => {
        n++
        return {
          [name!]: `Ada ${n}`,
          [email!]: `ada${n}@${title.toLowerCase()}.example`,
          [topic!]: "Billing",
          [score!]: 4,
          [note!]: "hello there"
        }
      }
      const id = form.json.id as number
      const publicId = form.json.publicId as string
      // Warm: the form is cached once the process hears its own notice, and the first submission reads
      // what a form's submissions keep in memory (its assignment rules).
      await waitFor(async () => (await measure(apiRequest("GET", `/forms/${id}`), 200)).statements === 0)
      await measure(apiRequest("POST", `/forms/${id}/responses`, { values: values() }), 201)
      await measure(new Request(`http://qforms.test/f/${publicId}`), 200)
      return {
        id,
        submit: () => measure(apiRequest("POST", `/forms/${id}/responses`, { values: values() }), 201),
        submitPublic: () =>
          measure(
            new Request(`http://qforms.test/f/${publicId}/responses`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ values: values() })
            }),
            201
          ),
        read: () => measure(apiRequest("GET", `/forms/${id}`), 200),
        page: () => measure(new Request(`http://qforms.test/f/${publicId}`), 200),
        mcpRead: () =>
          measure(
            new Request("http://qforms.test/mcp", {
              method: "POST",
              headers: {
                authorization: `Bearer ${key}`,
                "content-type": "application/json",
                accept: "application/json, text/event-stream",
                "mcp-protocol-version": "2025-06-18"
              },
              body: JSON.stringify({
                jsonrpc: "2.0",
                id: 1,
                method: "tools/call",
                params: { name: "get_form", arguments: { formId: id } }
              })
            }),
            200
          )
      }
    }

    /** What two submissions of different respondents both write. */
    const shared = (a: Work, b: Work) => a.keys.filter((k) => b.keys.includes(k))

    /** A request's work as the budget states it. */
    const spent = (work: Work, sharedRows: ReadonlyArray<string> = []) => ({
      statements: work.statements,
      transactions: work.transactions,
      rows: work.rows,
      shared: sharedRows.map((k) => k.split(" ")[0]).sort()
    })

    it("a plain form: submissions through the API and the page, reads of the form, the page and MCP", async () => {
      const plain = await publish("Plain", async () => {})
      const a = await plain.submit()
      const b = await plain.submit()
      expect(spent(a, shared(a, b))).toEqual(budget.plainSubmission)
      expect(spent(await plain.submitPublic())).toEqual({ ...budget.plainSubmission, shared: [] })
      expect(spent(await plain.read())).toEqual(budget.cachedRead)
      expect(spent(await plain.page())).toEqual(budget.cachedRead)
      expect(spent(await plain.mcpRead())).toEqual(budget.cachedRead)
    })

    it("a form with every feature on: translations, logic, SLA, case fields, assignment, a webhook, a channel", async () => {
      const api = apiOf(qforms, key)
      const [workspace] = await qforms.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          return yield* sql<{ readonly id: number }>`select id from workspaces where name = 'Budget'`
        }).pipe(Effect.orDie)
      )
      const members = await qforms.run(
        Effect.gen(function* () {
          const people = yield* Members
          const ids: Array<number> = []
          for (const name of ["mia", "noah"]) {
            ids.push((yield* people.add(workspace!.id, { email: `${name}@budget.example`, role: "member" })).accountId)
          }
          return ids
        }).pipe(Effect.orDie)
      )
      const full = await publish("Full", async ([name, , topic, , note], formId) => {
        const fields = (await api("GET", `/forms/${formId}`)).json.fields
        const send = async (method: string, path: string, body: unknown, status = 200) => {
          const reply = await api(method, path, body)
          expect(reply.status, `${path} ${JSON.stringify(reply.json)}`).toBe(status)
        }
        await send("PATCH", `/forms/${formId}`, {
          fields: fields.map(({ position: _, ...f }: { id: number; position: number }) =>
            f.id === note ? { ...f, showIf: { field: topic, equals: "Billing" } } : f
          ),
          settings: { sla: { firstResponseMinutes: 120 } }
        })
        await send("PUT", `/forms/${formId}/translations/de`, { title: "Voll", fields: { [name!]: { label: "Name" } } })
        await send("PUT", `/forms/${formId}/case-fields`, {
          fields: [{ key: "priority", label: "Priority", type: "select", options: ["low", "high"] }]
        })
        await send("PUT", `/forms/${formId}/assignment-rules`, { rules: [{ kind: "roundRobin", memberIds: members }] })
        await send(
          "POST",
          "/webhooks/subscribe",
          { formId, event: "response.created", targetUrl: "http://127.0.0.1:9/in" },
          201
        )
        await send("PUT", `/forms/${formId}/notifications`, {
          channels: [{ type: "slack", url: "https://hooks.slack.com/services/T0/B0/x" }]
        })
      })
      const a = await full.submit()
      const b = await full.submit()
      expect(spent(a, shared(a, b))).toEqual(budget.fullSubmission)
      const c = await full.submitPublic()
      expect(spent(c, shared(b, c))).toEqual(budget.fullSubmission)
      expect(spent(await full.read())).toEqual(budget.cachedRead)
      expect(spent(await full.page())).toEqual(budget.cachedRead)
    })
  })
}
