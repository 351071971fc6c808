/**
 * A form's summary: totals (views, starts, responses, completion rate and
 * time), the drop-off funnel of its public page, and per question what the
 * answers say (see `AnswerTallies.ts`), for the response list's filters.
 *
 * Computed in the database, never by reading responses into memory:
 *
 * - Without filters, or with `from`/`to` on whole UTC days, from the tallies
 *   kept as responses arrive (`answer_tallies`): a sum over at most one row
 *   per answer key, day and shard, however many responses there are.
 * - With any other filter, the same keys counted over the matching responses
 *   in one aggregate query (`computedFrom: "responses"`).
 * - Text questions: the latest answers and the frequent words of the latest
 *   1,000, read newest first along the list's index, or, when few responses
 *   match, by sorting the matches (read once for every worded question).
 * - Views and starts come from the page counts (`PageCounts.ts`) of the days
 *   of `from`/`to`; the other filters do not apply to them.
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import type * as Statement from "effect/sql/Statement"
import type { Actors, FormNotFound, InvalidInput } from "../kernel/index.ts"
import {
  type AnswerValue,
  byPosition,
  type Field,
  Forms,
  queuedResponses,
  Sensitive,
  Summaries,
  WorkspaceSettingsStore
} from "../forms/index.ts"
import { cell, type ResponseFilter, ResponseQueries } from "../cases/index.ts"
import {
  countsWords,
  kindOf,
  medianSeconds,
  percentOf,
  QuestionSummary,
  summarizeQuestions,
  type Tally,
  type TextFacts,
  totalOf
} from "./AnswerTallies.ts"
import { keyArraySql } from "./AnswerKeySql.ts"
import { frequentWords, stopWords } from "./FrequentWords.ts"

/** The totals of a summary. */
export const SummaryTotals = Schema.Struct({
  views: Schema.Int.annotate({ description: "Times the public page was opened (the days of `from`/`to`)." }),
  starts: Schema.Int.annotate({ description: "Respondents who went past the page's first screen." }),
  responses: Schema.Int.annotate({ description: "Responses in the summary (all sources)." }),
  completedOnPage: Schema.Int.annotate({ description: "Of these, submitted through the public page." }),
  completionRate: Schema.NullOr(Schema.Number).annotate({
    description: "completedOnPage / starts in percent (one decimal, at most 100); null without starts."
  }),
  medianCompletionSeconds: Schema.NullOr(Schema.Number).annotate({
    description:
      "Median time from opening the page to submitting, in seconds (to two significant figures); " +
      "null when no response in the summary came through the page."
  }),
  sources: Schema.Record(Schema.String, Schema.Int).annotate({
    description: "Responses by source: `form` (the public page), `api`, `mcp`, `import`."
  })
}).annotate({ identifier: "SummaryTotals" })
export type SummaryTotals = typeof SummaryTotals.Type

/** One step of the funnel. */
export const FunnelStep = Schema.Struct({
  step: Schema.Literals(["view", "start", "question", "complete"]),
  fieldId: Schema.NullOr(Schema.Int).annotate({ description: "The question's id (step `question`)." }),
  label: Schema.String,
  count: Schema.Int,
  percent: Schema.Number.annotate({ description: "Of the views (of the starts without views), one decimal." })
}).annotate({ identifier: "FunnelStep" })
export type FunnelStep = typeof FunnelStep.Type

/** A form's summary. */
export const FormSummaryReport = Schema.Struct({
  form: Schema.Struct({ id: Schema.Int, title: Schema.String }),
  computedFrom: Schema.Literals(["tallies", "responses"]).annotate({
    description:
      "`tallies`: kept as responses arrive (no filter, or whole UTC days); `responses`: counted over the " +
      "responses matching the filters."
  }),
  totals: SummaryTotals,
  funnel: Schema.Array(FunnelStep).annotate({
    description:
      "Views, starts, each question answered on the public page (in question order), and submissions through " +
      "the page: where respondents drop off. Counted per day, without storing who."
  }),
  questions: Schema.Array(QuestionSummary)
}).annotate({ identifier: "FormSummaryReport" })
export type FormSummaryReport = typeof FormSummaryReport.Type

/** What a summary takes: the list's filters and how many latest answers a text question shows. */
export interface SummaryOptions extends ResponseFilter {
  /** Latest answers per text question (0–50, default 10). */
  readonly texts?: number | undefined
}

const DAY_MS = 86_400_000
/** Text answers read for the frequent words: the latest this many per question. */
const WORDS_FROM = 1_000
/** Words per text question. */
const WORDS_SHOWN = 20
/** A text shown in the summary is cut at this many characters. */
const TEXT_SHOWN_MAX = 500
/** Pieces split at spaces and ASCII punctuation (the database's regular expression). */
const PIECES = "[\\s[:punct:]]+"

/** Whether the tallies answer these filters: none but whole UTC days. */
export const answeredByTallies = (filter: ResponseFilter): boolean =>
  (filter.status === undefined || filter.status === "completed") &&
  (filter.q === undefined || filter.q.trim() === "") &&
  filter.stage === undefined &&
  filter.assignee === undefined &&
  filter.tag === undefined &&
  (filter.from === undefined || filter.from.getTime() % DAY_MS === 0) &&
  (filter.to === undefined || filter.to.getTime() % DAY_MS === DAY_MS - 1)

/**
 * How the latest `wanted` of `matched` responses (of the form's `total`) are read: walking the form's index
 * newest first visits about `wanted × total / matched` rows, while sorting all the matched ones reads
 * `matched`. PostgreSQL walks the index whenever a LIMIT is near, even for a filter that matches 1% of a
 * million rows (100,000 rows visited for the latest 1,000), so a few matches get `offset 0`, which keeps the
 * sub-select from being planned for the order (it reads the matches by the filter's own index and sorts them).
 */
const fence = (matched: number, wanted: number, total: number) =>
  matched * matched < wanted * Math.max(total, matched) ? "offset 0" : ""

const dayOf = (date: Date) => date.toISOString().slice(0, 10)

const shorten = (text: string) => (text.length > TEXT_SHOWN_MAX ? `${text.slice(0, TEXT_SHOWN_MAX - 1)}…` : text)

/** The funnel from the page counts and the tallies. */
const funnelOf = (
  fields: ReadonlyArray<Field>,
  steps: ReadonlyMap<string, number>,
  completed: number
): ReadonlyArray<FunnelStep> => {
  const views = steps.get("view") ?? 0
  const starts = steps.get("start") ?? 0
  const base = views > 0 ? views : starts
  const step = (kind: FunnelStep["step"], fieldId: number | null, label: string, count: number): FunnelStep => ({
    step: kind,
    fieldId,
    label,
    count,
    percent: percentOf(count, base)
  })
  return [
    step("view", null, "Viewed", views),
    step("start", null, "Started", starts),
    ...byPosition(fields)
      .filter((field) => kindOf(field.type) !== undefined)
      .map((field) => step("question", field.id, field.label, steps.get(String(field.id)) ?? 0)),
    step("complete", null, "Completed", completed)
  ]
}

/**
 * A summary as CSV: one line per figure (`section,question,item,count,percent`),
 * totals and funnel first, then each question's choices, values, rows or words
 * (text answers themselves are not in it; the response export has them).
 *
 * @example
 * ```ts
 * const csv = summaryCsv(report)
 * csv.split("\r\n")[0] // "section,question,item,count,percent"
 * ```
 */
export const summaryCsv = (report: FormSummaryReport): string => {
  const lines: Array<ReadonlyArray<string | number | null>> = [["section", "question", "item", "count", "percent"]]
  const t = report.totals
  lines.push(
    ["totals", "", "views", t.views, null],
    ["totals", "", "starts", t.starts, null],
    ["totals", "", "responses", t.responses, null],
    ["totals", "", "completed on page", t.completedOnPage, t.completionRate],
    ["totals", "", "median completion seconds", t.medianCompletionSeconds, null]
  )
  for (const step of report.funnel) lines.push(["funnel", "", step.label, step.count, step.percent])
  for (const q of report.questions) {
    lines.push(["answered", q.label, "", q.answered, null])
    switch (q.kind) {
      case "choices":
        for (const c of [...q.choices, ...(q.other === null ? [] : [q.other])])
          lines.push(["choice", q.label, c.choice, c.count, c.percent])
        break
      case "numbers":
        for (const [name, value] of [
          ["mean", q.mean],
          ["median", q.median],
          ["p25", q.p25],
          ["p75", q.p75],
          ["p90", q.p90],
          ["min", q.min],
          ["max", q.max]
        ] as const)
          lines.push(["statistic", q.label, name, value, null])
        for (const bin of q.distribution)
          lines.push([
            "distribution",
            q.label,
            bin.from === bin.to ? String(bin.from) : `${bin.from}–${bin.to}`,
            bin.count,
            bin.percent
          ])
        if (q.nps !== null) {
          lines.push(
            ["nps", q.label, "score", q.nps.score, null],
            ["nps", q.label, "promoters", q.nps.promoters, null],
            ["nps", q.label, "passives", q.nps.passives, null],
            ["nps", q.label, "detractors", q.nps.detractors, null]
          )
        }
        break
      case "matrix":
        for (const row of q.rows)
          for (const c of row.columns) lines.push(["matrix", q.label, `${row.row}: ${c.choice}`, c.count, c.percent])
        break
      case "ranking":
        for (const item of q.items) lines.push(["average place", q.label, item.choice, item.averagePlace, null])
        break
      case "dates":
        for (const bucket of q.buckets) lines.push([q.unit, q.label, bucket.choice, bucket.count, bucket.percent])
        break
      case "texts":
        for (const word of q.words) lines.push(["word", q.label, word.word, word.count, null])
        break
      case "files":
        if (q.drawn !== undefined) lines.push(["signature", q.label, "drawn", q.drawn, null])
        if (q.typed !== undefined) lines.push(["signature", q.label, "typed", q.typed, null])
        break
    }
  }
  return lines.map((cells) => `${cells.map((c) => cell(c === null ? "" : String(c))).join(",")}\r\n`).join("")
}

/**
 * Form summaries.
 *
 * @example
 * ```ts
 * const report = yield* (yield* FormSummaries).summarize(actor, formId, { from: new Date("2026-11-01") })
 * report.totals.completionRate // 62.5
 * ```
 */
export class FormSummaries extends Context.Service<
  FormSummaries,
  {
    readonly summarize: (
      actor: Actors.Actor,
      formId: number,
      options?: SummaryOptions
    ) => Effect.Effect<FormSummaryReport, FormNotFound | InvalidInput | SqlError.SqlError>
  }
>()("@qforms/core/FormSummaries") {
  static readonly layer = Layer.effect(
    FormSummaries,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const forms = yield* Forms
      const queries = yield* ResponseQueries.make

      /**
       * Runs a summary's queries over the responses in a transaction of their own planner settings. A
       * million-row count is estimated costly enough for PostgreSQL to compile it (JIT) first, which takes
       * longer than the count itself. And the planner does not know what the key expressions cost per row: a
       * parallel plan looks as cheap as a serial one for 1% of a million rows, then takes twice as long, most
       * of it starting the workers on a busy machine (measured 0.51–0.66 s against 0.29–0.34 s serial). Ten
       * times the setup cost keeps parallel plans for the scans they shorten (a quarter of the million: 3.2 s
       * against 6–7 s serial).
       */
      const planned = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        sql.withTransaction(
          Effect.andThen(
            sql`select set_config('jit', 'off', true), set_config('parallel_setup_cost', '10000', true)`,
            effect
          )
        )

      /**
       * The pieces of the latest `WORDS_FROM` answers of each worded question, counted, in one statement. With
       * few matches (see `fence`) the matching rows are read once into a materialized CTE and each question's
       * latest are sorted from it; otherwise the CTE is inlined and each question walks the form's index newest
       * first. Either way the rows are read once per statement rather than once per question.
       */
      const wordsOf = (worded: ReadonlyArray<Field>, where: Statement.Fragment, matched: number, total: number) => {
        const texts = worded.map((field) => `left(answers ->> '${Number(field.id)}', 2000)`).join(", ")
        const ids = worded.map((field) => Number(field.id))
        return sql<{ readonly field_id: number; readonly piece: string; readonly count: number }>`
          with m as ${sql.literal(fence(matched, WORDS_FROM, total) === "" ? "not materialized" : "materialized")} (
            select id, submitted_at, ${sql.literal(`array[${texts}]`)} as t from responses where ${where}
          )
          select field_id, piece, count from (
            select f.field_id, w as piece, count(*)::int as count,
              row_number() over (partition by f.field_id order by count(*) desc, w) as r
            from unnest(${ids}::int[]) with ordinality as f(field_id, i)
            cross join lateral (
              select m.t[f.i] as t from m where m.t[f.i] is not null
              order by m.submitted_at desc, m.id desc limit ${WORDS_FROM}
            ) as s
            cross join lateral regexp_split_to_table(lower(s.t), ${PIECES}) as w
            where w <> ''
            group by f.field_id, w
          ) as g
          where r <= 400`
      }

      const summarize = Effect.fn("FormSummaries.summarize")(function* (
        actor: Actors.Actor,
        formId: number,
        options: SummaryOptions = {}
      ) {
        const { form, where } = yield* queries.prepareList(actor, formId, options)
        const full = yield* forms.get(actor, formId)
        const fields = full.fields
        const workspaceId = actor.workspaceId
        const fromDay = options.from === undefined ? undefined : dayOf(options.from)
        const toDay = options.to === undefined ? undefined : dayOf(options.to)
        const days = sql.and([
          ...(fromDay === undefined ? [] : [sql`day >= ${fromDay}::date`]),
          ...(toDay === undefined ? [] : [sql`day <= ${toDay}::date`])
        ])
        const submittedDays = sql.and([
          ...(fromDay === undefined ? [] : [sql`(submitted_at at time zone 'UTC')::date >= ${fromDay}::date`]),
          ...(toDay === undefined ? [] : [sql`(submitted_at at time zone 'UTC')::date <= ${toDay}::date`])
        ])
        const tallied = answeredByTallies(options)
        // The folded tallies, and the keys of the responses not folded yet (cases/ResponseFold.ts) counted
        // on the spot: one statement, so both are read as of one moment.
        const tallyRows = tallied
          ? yield* sql<{ readonly field_id: number; readonly key: string; readonly count: number }>`
            select field_id, key, sum(count)::int as count from (
              select field_id, key, count from answer_tallies
              where workspace_id = ${workspaceId} and form_id = ${formId} and ${days}
              union all
              select split_part(k, '|', 1)::int, substr(k, strpos(k, '|') + 1), 1
              from (
                select * from ${queuedResponses(sql, workspaceId, formId)} as q
                where finished and ${submittedDays}
              ) as r
              cross join lateral unnest(${sql.literal(keyArraySql(fields))}) as k
              where k is not null
            ) as t
            group by field_id, key having sum(count) <> 0`
          : (yield* planned(
              sql<{ readonly k: string; readonly count: number }>`
                select k, count(*)::int as count
                from responses cross join lateral unnest(${sql.literal(keyArraySql(fields))}) as k
                where ${where} and k is not null
                group by k`
            )).map((r) => {
              const bar = r.k.indexOf("|")
              return { field_id: Number(r.k.slice(0, bar)), key: r.k.slice(bar + 1), count: r.count }
            })
        const tallies: ReadonlyArray<Tally> = tallyRows.map((r) => ({
          fieldId: r.field_id,
          key: r.key,
          count: Number(r.count)
        }))
        const stepRows = yield* sql<{ readonly step: string; readonly count: number }>`
          select step, sum(count)::int as count from page_counts
          where workspace_id = ${workspaceId} and form_id = ${formId} and ${days}
          group by step`
        const steps = new Map(stepRows.map((r) => [r.step, Number(r.count)]))

        const shown = Math.max(0, Math.min(50, options.texts ?? 10))
        const languages = [full.settings.language ?? "en", ...Object.keys(full.translations ?? {})]
        const stop = yield* stopWords(languages)
        const matched = totalOf(tallies, "n")
        const texts = new Map<number, TextFacts>()
        const textFields = fields.filter((field) => kindOf(field.type) === "texts")
        // A viewer reads nothing of a sensitive question's answers here, only how many answered it: a summary
        // narrowed by its filters to one person would give them away (AnswerTallies.withheldSummary).
        const hidden = (field: Field) => Sensitive.readsMasked(actor) && Sensitive.isSensitive(field)
        const withheld = new Set(fields.filter(hidden).map((field) => field.id))
        const openTextFields = textFields.filter((field) => !hidden(field))
        const worded = openTextFields.filter(countsWords)
        yield* planned(
          Effect.gen(function* () {
            const latestOf = new Map<number, ReadonlyArray<{ id: number; submitted_at: Date; value: AnswerValue }>>()
            for (const field of shown === 0 ? [] : openTextFields) {
              const key = String(field.id)
              latestOf.set(
                field.id,
                yield* sql<{ readonly id: number; readonly submitted_at: Date; readonly value: AnswerValue }>`
                  select id, submitted_at, value from (
                    select id, submitted_at, answers -> ${key} as value from responses
                    where ${where} and answers -> ${key} is not null
                    ${sql.literal(fence(matched, shown, form.responseCount))}
                  ) as s
                  order by submitted_at desc, id desc limit ${shown}`
              )
            }
            const pieces = worded.length === 0 ? [] : yield* wordsOf(worded, where, matched, form.responseCount)
            for (const field of openTextFields) {
              texts.set(field.id, {
                latest: (latestOf.get(field.id) ?? []).map((row) => ({
                  responseId: row.id,
                  submittedAt: new Date(row.submitted_at).toISOString(),
                  text: shorten(Summaries.formatAnswer(field, row.value))
                })),
                words: frequentWords(
                  pieces.filter((p) => p.field_id === field.id).map((p) => [p.piece, Number(p.count)] as const),
                  stop,
                  WORDS_SHOWN
                )
              })
            }
          })
        )

        const responses = matched
        const completedOnPage = totalOf(tallies, "s:form")
        const starts = steps.get("start") ?? 0
        const sources: Record<string, number> = {}
        for (const tally of tallies) {
          if (tally.fieldId === 0 && tally.key.startsWith("s:") && tally.count > 0)
            sources[tally.key.slice(2)] = tally.count
        }
        return {
          form: { id: form.id, title: form.title },
          computedFrom: tallied ? ("tallies" as const) : ("responses" as const),
          totals: {
            views: steps.get("view") ?? 0,
            starts,
            responses,
            completedOnPage,
            completionRate: starts === 0 ? null : Math.min(100, percentOf(completedOnPage, starts)),
            medianCompletionSeconds: medianSeconds(tallies),
            sources
          },
          funnel: funnelOf(fields, steps, completedOnPage),
          questions: summarizeQuestions(fields, tallies, texts, withheld)
        }
      })

      return FormSummaries.of({ summarize })
    })
  ).pipe(Layer.provide([Forms.layer, WorkspaceSettingsStore.layer]))
}
