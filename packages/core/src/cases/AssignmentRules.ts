/**
 * Assignment rules: a form's ordered list of rules that give a new case an
 * assignee as it is submitted, in the submission's transaction. The first rule
 * that applies assigns: `byAnswer` (an answer equals one of some values),
 * `roundRobin` (the chosen members in turn) or `leastOpen` (the chosen member
 * with the fewest open cases). Away members and those who left the workspace
 * are passed by; a rule left with nobody does not apply.
 */
import * as Arr from "effect/Array"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { type AnswerValue, FormCacheModule as FormCache, Forms } from "../forms/index.ts"
import { Actors, type Forbidden, FormNotFound, Id, InvalidInput } from "../kernel/index.ts"
import { ChangeFeedModule as ChangeFeed, Database, StoredJson } from "../storage/index.ts"

/** The most rules a form has. */
export const maxRules = 50

const AnswerText = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(500))
const MemberIds = Schema.Array(Id).check(
  Schema.isMinLength(1, { message: "memberIds names at least one member" }),
  Schema.isMaxLength(100, { message: "memberIds names at most 100 members" })
)

/** `byAnswer`: when the answer to `fieldId` equals `equals` (or one of them; a chosen option counts), `assigneeId`. */
export const ByAnswerRule = Schema.Struct({
  kind: Schema.Literal("byAnswer"),
  fieldId: Id,
  equals: Schema.Union([
    AnswerText,
    Schema.Array(AnswerText).check(
      Schema.isMinLength(1, { message: "equals lists at least one answer" }),
      Schema.isMaxLength(50, { message: "equals lists at most 50 answers" })
    )
  ]),
  assigneeId: Id
}).annotate({ identifier: "ByAnswerRule" })

/** `roundRobin`: the members in turn, in the order given, passing by those away. */
export const RoundRobinRule = Schema.Struct({
  kind: Schema.Literal("roundRobin"),
  memberIds: MemberIds
}).annotate({ identifier: "RoundRobinRule" })

/** `leastOpen`: the member (not away) with the fewest open cases in the workspace; a tie goes to the first listed. */
export const LeastOpenRule = Schema.Struct({
  kind: Schema.Literal("leastOpen"),
  memberIds: MemberIds
}).annotate({ identifier: "LeastOpenRule" })

/** One assignment rule (extension). */
export const AssignmentRule = Schema.Union([ByAnswerRule, RoundRobinRule, LeastOpenRule]).annotate({
  identifier: "AssignmentRule"
})
export type AssignmentRule = typeof AssignmentRule.Type

/** A form's assignment rules, in order: the first that applies assigns. */
export const AssignmentRules = Schema.Struct({
  rules: Schema.Array(AssignmentRule).check(
    Schema.isMaxLength(maxRules, { message: `a form has at most ${maxRules} assignment rules` })
  )
}).annotate({ identifier: "AssignmentRules" })
export type AssignmentRules = typeof AssignmentRules.Type

/** An assignment a rule made: who, and by which kind of rule. */
export interface Assignment {
  readonly assigneeId: number
  readonly kind: AssignmentRule["kind"]
}

interface RuleRow {
  readonly id: number
  readonly kind: string
  readonly config: unknown
}

const decodeRule = StoredJson.decode(AssignmentRule, "assignment_rules (kind, config)")
const toRule = (row: RuleRow) =>
  decodeRule({ kind: row.kind, ...(typeof row.config === "string" ? JSON.parse(row.config) : row.config) })

const configOf = (rule: AssignmentRule): Record<string, unknown> => {
  const { kind: _kind, ...config } = rule
  return config
}

/** Whether an answer equals one of the values: a text or number as text, a chosen option among several. */
const matches = (value: AnswerValue | undefined, equals: string | ReadonlyArray<string>) => {
  const wanted = typeof equals === "string" ? [equals] : equals
  const same = (text: string) => wanted.some((one) => one.trim() === text.trim())
  if (typeof value === "string") return same(value)
  if (typeof value === "number" || typeof value === "boolean") return same(String(value))
  if (Array.isArray(value)) return value.some((one) => typeof one === "string" && same(one))
  return false
}

/**
 * A form's assignment rules.
 *
 * @example
 * ```ts
 * const rules = yield* AssignmentRulesService
 * yield* rules.replace(actor, formId, { rules: [{ kind: "roundRobin", memberIds: [2, 3, 4] }] })
 * ```
 */
export class AssignmentRulesService extends Context.Service<
  AssignmentRulesService,
  {
    readonly list: (
      actor: Actors.Actor,
      formId: number
    ) => Effect.Effect<ReadonlyArray<AssignmentRule>, FormNotFound | SqlError.SqlError>
    /** Replaces the form's rules (owners, admins and members); each field must be the form's, each member the workspace's. */
    readonly replace: (
      actor: Actors.Actor,
      formId: number,
      input: AssignmentRules
    ) => Effect.Effect<ReadonlyArray<AssignmentRule>, FormNotFound | InvalidInput | Forbidden | SqlError.SqlError>
    /**
     * Whether the form has any rule (a submission to it then runs as a transaction). Kept in memory per form
     * while the change feed is live (migration 0043 sends the form's notice when its rules change), so a
     * submission to a form without rules costs no statement.
     */
    readonly hasRules: (workspaceId: number, formId: number) => Effect.Effect<boolean, SqlError.SqlError>
    /**
     * The assignee of a new case by the first rule that applies, inside the submission's transaction (a round
     * robin's turn is taken there, and given back if it rolls back); none when no rule applies.
     */
    readonly choose: (
      workspaceId: number,
      formId: number,
      answers: Readonly<Record<string, AnswerValue>>
    ) => Effect.Effect<Option.Option<Assignment>, SqlError.SqlError>
  }
>()("@qforms/core/AssignmentRules") {
  static readonly layer = Layer.effect(
    AssignmentRulesService,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const forms = yield* Forms
      const keyOf = (workspaceId: number, formId: number) => `${workspaceId}:${formId}`
      const hasRulesKept = yield* ChangeFeed.keep<boolean>("assignment rules", {
        capacity: 2000,
        onNotice: (notice, kept) => {
          const changed = FormCache.formOfNotice(notice)
          if (changed === "unreadable") kept.forget()
          else if (changed !== undefined) kept.drop(keyOf(changed.workspaceId, changed.formId))
        }
      })

      const rows = (workspaceId: number, formId: number) =>
        sql<RuleRow>`
          select id, kind, config from assignment_rules
          where workspace_id = ${workspaceId} and form_id = ${formId} order by position`

      const list = Effect.fn("AssignmentRules.list")(function* (actor: Actors.Actor, formId: number) {
        const form = yield* sql`select id from forms where workspace_id = ${actor.workspaceId} and id = ${formId}`
        if (form.length === 0) return yield* new FormNotFound({ message: `form ${formId} not found` })
        return yield* Effect.forEach(yield* rows(actor.workspaceId, formId), toRule)
      })

      const replace = Effect.fn("AssignmentRules.replace")(function* (
        actor: Actors.Actor,
        formId: number,
        input: AssignmentRules
      ) {
        yield* Actors.requireWrite(actor)
        const workspaceId = actor.workspaceId
        // This process forgets what it kept of the form at once (others when the notice of migration 0043 comes).
        return yield* Effect.ensuring(
          Database.retryingCollisions(
            sql.withTransaction(
              Effect.gen(function* () {
                // Two replacements of one form's rules take turns on the form's row (a submission only holds it
                // `for key share`, which this does not wait on).
                const locked = yield* sql`
                select id from forms where workspace_id = ${workspaceId} and id = ${formId} for no key update`
                if (locked.length === 0) return yield* new FormNotFound({ message: `form ${formId} not found` })
                const fieldIds = new Set((yield* forms.fields(workspaceId, formId)).map((field) => field.id))
                const memberIds = new Set(
                  (yield* sql<{ readonly account_id: number }>`
                  select account_id from members where workspace_id = ${workspaceId}`).map((row) => row.account_id)
                )
                const issues = input.rules.flatMap((rule, index) => {
                  const path = `rules[${index}]`
                  if (rule.kind === "byAnswer") {
                    return [
                      ...(fieldIds.has(rule.fieldId)
                        ? []
                        : [
                            {
                              path: `${path}.fieldId`,
                              message: `question ${rule.fieldId} is not a question of this form`
                            }
                          ]),
                      ...(memberIds.has(rule.assigneeId)
                        ? []
                        : [
                            {
                              path: `${path}.assigneeId`,
                              message: `account ${rule.assigneeId} is not a member of this workspace`
                            }
                          ])
                    ]
                  }
                  const unknown = rule.memberIds.filter((id) => !memberIds.has(id))
                  const twice = rule.memberIds.filter((id, at) => rule.memberIds.indexOf(id) !== at)
                  return [
                    ...(unknown.length === 0
                      ? []
                      : [
                          {
                            path: `${path}.memberIds`,
                            message: `not members of this workspace: ${unknown.join(", ")}`
                          }
                        ]),
                    ...(twice.length === 0
                      ? []
                      : [{ path: `${path}.memberIds`, message: `listed more than once: ${twice.join(", ")}` }])
                  ]
                })
                if (issues.length > 0) {
                  return yield* new InvalidInput({
                    message: issues.map((issue) => `${issue.path}: ${issue.message}`).join("; "),
                    details: issues
                  })
                }
                // A round robin that stays at its place with the same members keeps its turn.
                const before = yield* sql<{
                  readonly position: number
                  readonly config: unknown
                  readonly next_slot: number
                }>`
                select position, config, next_slot from assignment_rules
                where workspace_id = ${workspaceId} and form_id = ${formId} and kind = 'roundRobin'`
                const turn = (rule: AssignmentRule, position: number) => {
                  const old = before.find((row) => row.position === position)
                  if (rule.kind !== "roundRobin" || old === undefined) return 0
                  const config = typeof old.config === "string" ? JSON.parse(old.config) : old.config
                  return JSON.stringify(config) === JSON.stringify(configOf(rule)) ? old.next_slot : 0
                }
                yield* sql`delete from assignment_rules where workspace_id = ${workspaceId} and form_id = ${formId}`
                const inserts = input.rules.map((rule, position) => ({
                  workspace_id: workspaceId,
                  form_id: formId,
                  position,
                  kind: rule.kind,
                  config: JSON.stringify(configOf(rule)),
                  next_slot: turn(rule, position)
                }))
                if (Arr.isArrayNonEmpty(inserts)) yield* sql`insert into assignment_rules ${sql.insert(inserts)}`
                return yield* Effect.forEach(yield* rows(workspaceId, formId), toRule)
              })
            )
          ),
          Effect.sync(() => hasRulesKept.drop(keyOf(workspaceId, formId)))
        )
      })

      const hasRules = (workspaceId: number, formId: number) => {
        const key = keyOf(workspaceId, formId)
        const known = hasRulesKept.get(key)
        if (known !== undefined) return Effect.succeed(known)
        const stamp = hasRulesKept.stamp()
        return Effect.map(
          sql<{ readonly id: number }>`
            select id from assignment_rules where workspace_id = ${workspaceId} and form_id = ${formId} limit 1`,
          (found) => {
            hasRulesKept.put(stamp, key, found.length > 0)
            return found.length > 0
          }
        )
      }

      const choose = Effect.fn("AssignmentRules.choose")(function* (
        workspaceId: number,
        formId: number,
        answers: Readonly<Record<string, AnswerValue>>
      ) {
        const stored = yield* rows(workspaceId, formId)
        if (stored.length === 0) return Option.none<Assignment>()
        const present = new Set(
          (yield* sql<{ readonly account_id: number }>`
            select account_id from members where workspace_id = ${workspaceId} and not away`).map(
            (row) => row.account_id
          )
        )
        for (const row of stored) {
          const rule = yield* toRule(row)
          if (rule.kind === "byAnswer") {
            if (present.has(rule.assigneeId) && matches(answers[String(rule.fieldId)], rule.equals)) {
              return Option.some<Assignment>({ assigneeId: rule.assigneeId, kind: rule.kind })
            }
            continue
          }
          const eligible = rule.memberIds.filter((id) => present.has(id))
          if (eligible.length === 0) continue
          if (rule.kind === "roundRobin") {
            // Taking the turn and moving it on is one statement: the row stays locked until the submission
            // commits, so concurrent submissions take turns one after the other, none twice, none skipped.
            const taken = yield* sql<{ readonly slot: number }>`
              update assignment_rules set next_slot = next_slot + 1
              where workspace_id = ${workspaceId} and id = ${row.id}
              returning next_slot - 1 as slot`
            // (The rules were replaced meanwhile: this one is gone.)
            if (taken.length === 0) continue
            return Option.some<Assignment>({ assigneeId: eligible[taken[0]!.slot % eligible.length]!, kind: rule.kind })
          }
          const counts = yield* sql<{ readonly assignee_id: number; readonly open: number }>`
            select r.assignee_id, count(*)::int as open
            from responses r left join stages s on s.workspace_id = r.workspace_id and s.id = r.stage_id
            where r.workspace_id = ${workspaceId} and r.finished and ${sql.in("r.assignee_id", eligible)}
              and not coalesce(s.is_closed, false)
            group by r.assignee_id`
          const open = (id: number) => counts.find((count) => count.assignee_id === id)?.open ?? 0
          const least = eligible.reduce((best, id) => (open(id) < open(best) ? id : best))
          return Option.some<Assignment>({ assigneeId: least, kind: rule.kind })
        }
        return Option.none<Assignment>()
      })

      return AssignmentRulesService.of({ list, replace, hasRules, choose })
    })
  ).pipe(Layer.provide([Forms.layer]))
}
