/**
 * The fold (cases/ResponseFold.ts, migration 0051): a submission's tallies
 * and count are folded in later, yet every read is exact at once; and members'
 * changes, merges and deletions racing the fold leave the folded counts equal
 * to a recount from the responses, on each test database.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { ResponseFold } from "../src/cases/ResponseFold.ts"
import * as Qforms from "../src/Qforms.ts"
import { Database } from "../src/storage/index.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { type Api, apiOf } from "@qforms/test-kit/InProcessApi"
import { ownerKey } from "@qforms/test-kit/Seeds"

for (const target of databaseTargets) {
  describe(`the fold on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let api: Api

    const query = <A extends object>(text: string, ...params: ReadonlyArray<unknown>) =>
      qforms.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          return (yield* sql.unsafe(text, params)) as unknown as ReadonlyArray<A>
        }).pipe(Effect.orDie)
      )
    const foldAll = () => qforms.run(Effect.flatMap(ResponseFold, (fold) => fold.foldAll).pipe(Effect.orDie))
    const queued = async (formId: number) =>
      (await query<{ n: number }>("select count(*)::int as n from response_fold_queue where form_id = $1", formId))[0]!
        .n

    /**
     * The folded tallies and count of a form against a recount from its responses (nothing queued).
     * The process's own folder runs beside the test: a batch it holds is skipped by `foldAll` and
     * still queued until it commits, so the queue is awaited empty.
     */
    const expectFoldedExactly = async (formId: number) => {
      await vi.waitFor(
        async () => {
          await foldAll()
          expect(await queued(formId)).toBe(0)
        },
        { timeout: 20_000, interval: 50 }
      )
      const [count] = await query<{ n: number }>(
        "select coalesce(sum(n), 0)::int as n from form_response_counts where form_id = $1",
        formId
      )
      const [recount] = await query<{ n: number }>(
        "select count(*)::int as n from responses where form_id = $1 and finished and merged_into is null",
        formId
      )
      expect(count!.n).toBe(recount!.n)
      const tallies = await query(
        `select field_id, key, sum(count)::int as n from answer_tallies where form_id = $1
         group by 1, 2 having sum(count) <> 0 order by 1, 2`,
        formId
      )
      const recounted = await query(
        `select k.field_id, k.key, count(*)::int as n from responses r
         cross join lateral qforms_tally_keys(r.form_id, r.answers, r.source, r.started_at, r.submitted_at) as k
         where r.form_id = $1 and r.finished group by 1, 2 order by 1, 2`,
        formId
      )
      expect(tallies).toEqual(recounted)
    }

    const makeForm = async (title: string) => {
      const form = await api("POST", "/forms", {
        title,
        fields: [
          { type: "short_text", label: "Name", required: true },
          { type: "select", label: "Topic", options: { choices: ["Billing", "Sales", "Other"] } },
          { type: "rating", label: "Score" }
        ]
      })
      expect(form.status).toBe(201)
      expect((await api("PATCH", `/forms/${form.json.id}`, { status: "published" })).status).toBe(200)
      const [name, topic, score] = (form.json.fields as ReadonlyArray<{ id: number }>).map((f) => f.id)
      const submit = async (n: number) => {
        const reply = await api("POST", `/forms/${form.json.id}/responses`, {
          values: { [name!]: `R${n}`, [topic!]: ["Billing", "Sales", "Other"][n % 3], [score!]: 1 + (n % 5) }
        })
        expect(reply.status, JSON.stringify(reply.json)).toBe(201)
        return reply.json.id as number
      }
      return { id: form.json.id as number, topic: topic!, score: score!, submit }
    }

    const summaryOf = async (formId: number) => {
      const reply = await api("GET", `/forms/${formId}/summary`)
      expect(reply.status).toBe(200)
      return reply.json as {
        computedFrom: string
        totals: { responses: number }
        questions: ReadonlyArray<{ kind: string; choices?: ReadonlyArray<{ choice: string; count: number }> }>
      }
    }
    const countOf = async (formId: number) =>
      ((await api("GET", "/forms")).json as ReadonlyArray<{ id: number; responseCount: number }>).find(
        (f) => f.id === formId
      )!.responseCount

    beforeAll(async () => {
      const { database, cleanup: drop } = target.options()
      cleanup = drop
      qforms = await Qforms.make({ database, delivery: { worker: false } })
      api = apiOf(qforms, await qforms.run(ownerKey({ name: "Fold" })))
    })

    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
    })

    it("a submission is in its form's summary and count at once, and the same after the fold", async () => {
      const form = await makeForm("At once")
      for (let n = 0; n < 6; n++) await form.submit(n)
      const before = await summaryOf(form.id)
      expect(before.computedFrom).toBe("tallies")
      expect(before.totals.responses).toBe(6)
      expect(before.questions[1]!.choices!.map((c) => c.count)).toEqual([2, 2, 2])
      expect(await countOf(form.id)).toBe(6)
      await foldAll()
      await expectFoldedExactly(form.id)
      expect(await summaryOf(form.id)).toEqual(before)
      expect(await countOf(form.id)).toBe(6)
    })

    it("answers changed, cases merged and deleted while folds run leave the folded counts exact", async () => {
      const form = await makeForm("Racing")
      const ids: Array<number> = []
      for (let n = 0; n < 40; n++) ids.push(await form.submit(n))
      // Half folded before the changes, half still queued: both kinds of rows get changed.
      await query(`select qforms_fold(20)`)
      let folding = true
      const folds = (async () => {
        while (folding) {
          await qforms.run(
            Effect.flatMap(ResponseFold, (fold) => fold.foldBatch).pipe(
              // As the process's folder does: a fold that waited on a member's change too long gives way.
              Effect.catchIf(Database.isLockNotAvailable, () => Effect.succeed(0)),
              Effect.orDie
            )
          )
        }
      })()
      const changes = ids.map(async (id, i) => {
        if (i % 4 === 0) {
          const reply = await api("PATCH", `/responses/${id}`, { answers: { [form.topic]: "Sales", [form.score]: 5 } })
          expect(reply.status, JSON.stringify(reply.json)).toBe(200)
        } else if (i % 4 === 1) {
          expect((await api("DELETE", `/responses/${id}`)).status).toBe(204)
        } else if (i % 8 === 2) {
          const reply = await api("POST", `/responses/${id}/merge`, { duplicateId: ids[i + 1] })
          expect(reply.status, JSON.stringify(reply.json)).toBe(200)
        }
      })
      await Promise.all(changes)
      folding = false
      await folds
      await foldAll()
      await expectFoldedExactly(form.id)
      const summary = await summaryOf(form.id)
      const [recount] = await query<{ n: number }>(
        "select count(*)::int as n from responses where form_id = $1 and finished",
        form.id
      )
      expect(summary.totals.responses).toBe(recount!.n)
      expect(await countOf(form.id)).toBe(40 - 10 - 5)
      // An unmerge brings the duplicate back into the count, folded or not.
      const merged = ids.filter((_, i) => i % 8 === 2)[0]!
      expect((await api("DELETE", `/responses/${merged}/merges/${ids[ids.indexOf(merged) + 1]}`)).status).toBe(200)
      expect(await countOf(form.id)).toBe(40 - 10 - 4)
      await foldAll()
      await expectFoldedExactly(form.id)
    })

    it("a form deleted with queued responses leaves nothing queued", async () => {
      const form = await makeForm("Deleted")
      for (let n = 0; n < 3; n++) await form.submit(n)
      // Queued unless the process's folder took them already: either way all three are counted.
      const [folded] = await query<{ n: number }>(
        "select coalesce(sum(n), 0)::int as n from form_response_counts where form_id = $1",
        form.id
      )
      expect((await queued(form.id)) + folded!.n).toBe(3)
      expect((await api("DELETE", `/forms/${form.id}`)).status).toBe(204)
      expect(await queued(form.id)).toBe(0)
      expect(await foldAll()).toBe(0)
    })
  })
}
