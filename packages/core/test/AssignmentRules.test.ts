/**
 * Assignment rules and away members (issue #28) through the API of a real
 * qforms: each kind of rule, away and departed members passed by, 20
 * concurrent submissions under a round robin, a rolled back turn, validation,
 * and who may read and write them. On PGlite always, on PostgreSQL too when
 * QFORMS_TEST_DATABASE_URL is set.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeys, Members } from "../src/index.ts"
import type * as Qforms from "../src/Qforms.ts"
import { AssignmentRulesService } from "../src/cases/AssignmentRules.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { type Api, apiOf, twoWorkspaces } from "@qforms/test-kit/InProcessApi"

for (const target of databaseTargets) {
  describe(`assignment rules on ${target.name}`, () => {
    let qforms: Qforms.Qforms
    let cleanup: () => Promise<void>
    let owner: Api
    let viewer: Api
    let other: Api
    let workspaceId: number
    const people: Record<"admin" | "mia" | "noah" | "olga", { id: number; api: Api }> = {} as never

    const addMember = (name: string, role: "admin" | "member") =>
      qforms.run(
        Effect.gen(function* () {
          const member = yield* (yield* Members.Members).add(workspaceId, { email: `${name}@assign.example`, role })
          const key = (yield* (yield* ApiKeys.ApiKeys).create(workspaceId, { accountId: member.accountId })).key
          return { id: member.accountId, api: apiOf(qforms, key) }
        }).pipe(Effect.orDie)
      )

    /** A published form: Topic (select) and Name. */
    const makeForm = async (title: string) => {
      const created = await owner("POST", "/forms", {
        title,
        fields: [
          { type: "select", label: "Topic", options: { choices: ["Billing", "Sales", "Other"] } },
          { type: "short_text", label: "Name" }
        ]
      })
      expect(created.status).toBe(201)
      const formId = created.json.id as number
      expect((await owner("PATCH", `/forms/${formId}`, { status: "published" })).status).toBe(200)
      const { json } = await owner("GET", `/forms/${formId}`)
      const [topic, name] = json.fields as Array<{ id: number }>
      return { formId, topic: topic!.id, name: name!.id }
    }

    const submit = async (formId: number, values: Record<string, unknown>) => {
      const reply = await owner("POST", `/forms/${formId}/responses`, { values })
      expect(reply.status).toBe(201)
      return reply.json as { id: number; assigneeId: number | null }
    }

    const putRules = (formId: number, rules: ReadonlyArray<unknown>, api: Api = owner) =>
      api("PUT", `/forms/${formId}/assignment-rules`, { rules })

    const setAway = async (accountId: number, away: boolean, api: Api = owner) => {
      const reply = await api("PUT", `/members/${accountId}/away`, { away })
      expect(reply.status).toBe(200)
      expect(reply.json.away).toBe(away)
    }

    beforeAll(async () => {
      ;({ qforms, cleanup, owner, viewer, other, workspaceId } = await twoWorkspaces(target, "assign"))
      people.admin = await addMember("admin", "admin")
      for (const name of ["mia", "noah", "olga"] as const) people[name] = await addMember(name, "member")
    })

    afterAll(async () => {
      await qforms?.dispose()
      await cleanup?.()
    })

    it("a rule list round-trips, and members carry `away`", async () => {
      const { formId, topic } = await makeForm("Round trip")
      expect((await owner("GET", `/forms/${formId}/assignment-rules`)).json).toEqual({ rules: [] })
      const rules = [
        { kind: "byAnswer", fieldId: topic, equals: ["Billing", "Sales"], assigneeId: people.mia.id },
        { kind: "roundRobin", memberIds: [people.noah.id, people.olga.id] },
        { kind: "leastOpen", memberIds: [people.olga.id] }
      ]
      const put = await putRules(formId, rules)
      expect(put.status).toBe(200)
      expect(put.json).toEqual({ rules })
      expect((await viewer("GET", `/forms/${formId}/assignment-rules`)).json).toEqual({ rules })
      const members = (await owner("GET", "/members")).json.members as Array<{ away: unknown }>
      expect(members.every((member) => member.away === false)).toBe(true)
    })

    it("refuses bad rules with a 400 naming the problem", async () => {
      const { formId, topic } = await makeForm("Validation")
      const cases: ReadonlyArray<readonly [unknown, RegExp]> = [
        [
          [{ kind: "byAnswer", fieldId: 999_999, equals: "x", assigneeId: people.mia.id }],
          /not a question of this form/
        ],
        [[{ kind: "roundRobin", memberIds: [people.mia.id, 999_999] }], /not members of this workspace: 999999/],
        [[{ kind: "roundRobin", memberIds: [people.mia.id, people.mia.id] }], /listed more than once/],
        [[{ kind: "roundRobin", memberIds: [] }], /at least one member/],
        [[{ kind: "sometimes", memberIds: [people.mia.id] }], /AssignmentRule/],
        [[{ kind: "byAnswer", fieldId: topic, equals: "", assigneeId: people.mia.id }], /equals/],
        [
          Array.from({ length: 51 }, () => ({ kind: "leastOpen", memberIds: [people.mia.id] })),
          /at most 50 assignment rules/
        ]
      ]
      for (const [rules, message] of cases) {
        const reply = await putRules(formId, rules as ReadonlyArray<unknown>)
        expect(reply.status, JSON.stringify(rules).slice(0, 100)).toBe(400)
        expect(reply.json.error).toMatch(message)
      }
      // A member of another workspace is not one of this one's.
      const foreign = (await other("GET", "/members")).json.members[0].accountId as number
      expect((await putRules(formId, [{ kind: "leastOpen", memberIds: [foreign] }])).status).toBe(400)
      expect((await owner("GET", `/forms/${formId}/assignment-rules`)).json).toEqual({ rules: [] })
    })

    it("owners, admins and members write; a viewer reads; another workspace gets 404", async () => {
      const { formId } = await makeForm("Authorization")
      const rules = [{ kind: "roundRobin", memberIds: [people.mia.id] }]
      for (const api of [owner, people.admin.api, people.mia.api])
        expect((await putRules(formId, rules, api)).status).toBe(200)
      expect((await putRules(formId, [], viewer)).status).toBe(403)
      expect((await viewer("GET", `/forms/${formId}/assignment-rules`)).status).toBe(200)
      expect((await other("GET", `/forms/${formId}/assignment-rules`)).status).toBe(404)
      expect((await putRules(formId, [], other)).status).toBe(404)
      expect((await owner("GET", `/forms/${formId}/assignment-rules`)).json).toEqual({ rules })
      // Away: a member for themself, owners and admins for anyone; not a member for another, nor a viewer.
      await setAway(people.mia.id, true, people.mia.api)
      await setAway(people.mia.id, false, people.admin.api)
      expect((await people.noah.api("PUT", `/members/${people.mia.id}/away`, { away: true })).status).toBe(403)
      expect((await viewer("PUT", `/members/${people.mia.id}/away`, { away: true })).status).toBe(403)
      expect((await other("PUT", `/members/${people.mia.id}/away`, { away: true })).status).toBe(404)
      expect((await owner("PUT", `/members/${people.mia.id}/away`, { away: "yes" })).status).toBe(400)
      expect(
        (await owner("GET", "/members")).json.members.find((m: { accountId: number }) => m.accountId === people.mia.id)
          .away
      ).toBe(false)
    })

    it("byAnswer assigns on a matching answer, and passes an away member by", async () => {
      const { formId, topic } = await makeForm("By answer")
      await putRules(formId, [
        { kind: "byAnswer", fieldId: topic, equals: "Billing", assigneeId: people.mia.id },
        { kind: "byAnswer", fieldId: topic, equals: ["Sales", "Other"], assigneeId: people.noah.id }
      ])
      const billing = await submit(formId, { [topic]: "Billing" })
      expect(billing.assigneeId).toBe(people.mia.id)
      const sales = await submit(formId, { [topic]: "Sales" })
      expect(sales.assigneeId).toBe(people.noah.id)
      expect((await submit(formId, {})).assigneeId).toBe(null)
      const detail = (await owner("GET", `/responses/${billing.id}`)).json
      expect(detail.response.assigneeId).toBe(people.mia.id)
      expect(detail.activities.find((a: { type: string }) => a.type === "assigned").payload).toEqual({
        from: null,
        to: people.mia.id,
        rule: "byAnswer"
      })
      await setAway(people.mia.id, true)
      try {
        expect((await submit(formId, { [topic]: "Billing" })).assigneeId).toBe(null)
      } finally {
        await setAway(people.mia.id, false)
      }
    })

    it("20 concurrent submissions under a round robin of 3 give 7, 7 and 6, and away members are passed by", async () => {
      const { formId, name } = await makeForm("Round robin")
      const three = [people.mia.id, people.noah.id, people.olga.id]
      await putRules(formId, [{ kind: "roundRobin", memberIds: three }])
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, index) => submit(formId, { [name]: `Person ${index}` }))
      )
      const counts = three.map((id) => replies.filter((reply) => reply.assigneeId === id).length)
      expect([...counts].sort()).toEqual([6, 7, 7])
      expect(counts.reduce((a, b) => a + b)).toBe(20)
      await setAway(people.noah.id, true)
      try {
        const next = await Promise.all(Array.from({ length: 4 }, () => submit(formId, {})))
        expect(next.map((reply) => reply.assigneeId).sort()).toEqual(
          [people.mia.id, people.mia.id, people.olga.id, people.olga.id].sort()
        )
      } finally {
        await setAway(people.noah.id, false)
      }
    })

    it("a turn taken in a transaction that rolls back is given back", async () => {
      const { formId } = await makeForm("Rollback")
      await putRules(formId, [{ kind: "roundRobin", memberIds: [people.mia.id, people.noah.id] }])
      expect((await submit(formId, {})).assigneeId).toBe(people.mia.id)
      const failed = await qforms.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const rules = yield* AssignmentRulesService
          return yield* sql.withTransaction(
            Effect.andThen(rules.choose(workspaceId, formId, {}), (chosen) => Effect.fail({ chosen }))
          )
        }).pipe(Effect.flip, Effect.orDie)
      )
      expect(failed).toMatchObject({ chosen: { value: { assigneeId: people.noah.id } } })
      expect((await submit(formId, {})).assigneeId).toBe(people.noah.id)
      expect((await submit(formId, {})).assigneeId).toBe(people.mia.id)
    })

    it("leastOpen balances open cases (closed ones do not count); a departed member is passed by", async () => {
      const { formId } = await makeForm("Least open")
      // Members with no cases yet (the other tests' are workspace-wide open cases too).
      const olga = await addMember("olga-least", "member")
      const paul = await addMember("paul-least", "member")
      // Olga has two open cases in the workspace, Paul one open and two closed.
      const { formId: elsewhere } = await makeForm("Least open, other form")
      const stages = (await owner("GET", `/forms/${elsewhere}/stages`)).json.stages as Array<{
        id: number
        isClosed: boolean
      }>
      const done = stages.find((stage) => stage.isClosed)!.id
      const olgaCases = [await submit(elsewhere, {}), await submit(elsewhere, {})]
      const paulCases = [await submit(elsewhere, {}), await submit(elsewhere, {}), await submit(elsewhere, {})]
      for (const reply of olgaCases)
        expect((await owner("PATCH", `/responses/${reply.id}`, { assigneeId: olga.id })).status).toBe(200)
      for (const [index, reply] of paulCases.entries())
        expect(
          (
            await owner("PATCH", `/responses/${reply.id}`, {
              assigneeId: paul.id,
              ...(index > 0 ? { stageId: done } : {})
            })
          ).status
        ).toBe(200)
      await putRules(formId, [{ kind: "leastOpen", memberIds: [olga.id, paul.id] }])
      const first = await submit(formId, {})
      expect(first.assigneeId).toBe(paul.id)
      // Now 2 and 2: the tie goes to the first listed.
      expect((await submit(formId, {})).assigneeId).toBe(olga.id)
      expect((await submit(formId, {})).assigneeId).toBe(paul.id)
      // Paul leaves: only Olga remains; when she is away too, nobody is assigned.
      expect((await owner("DELETE", `/members/${paul.id}`)).status).toBe(204)
      expect((await submit(formId, {})).assigneeId).toBe(olga.id)
      await setAway(olga.id, true)
      try {
        expect((await submit(formId, {})).assigneeId).toBe(null)
      } finally {
        await setAway(olga.id, false)
      }
    })
  })
}
