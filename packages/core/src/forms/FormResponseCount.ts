/**
 * How many responses a form has, as every reader counts it: what the fold has
 * added to `form_response_counts`, and the submitted responses still queued
 * for it (`response_fold_queue`, migration 0051; `cases/ResponseFold.ts`), so
 * the count is exact the moment a submission is answered. A response merged
 * into another is not counted.
 *
 * @module
 */
import type * as SqlClient from "effect/sql/SqlClient"
import type * as Statement from "effect/sql/Statement"

/** A workspace's or form's id: a value, or a column of the statement it goes into (`f.id`). */
type IdOrColumn = number | Statement.Fragment

/**
 * The SQL of a form's queued responses (not folded yet), as a relation with
 * the columns of `responses`, for a read to add them to the folded counts.
 *
 * @example
 * ```ts
 * sql`select count(*) from ${queuedResponses(sql, workspaceId, formId)} as r where r.finished`
 * ```
 */
export const queuedResponses = (
  sql: SqlClient.SqlClient,
  workspaceId: IdOrColumn,
  formId: IdOrColumn
): Statement.Fragment => sql`(
  select r.* from response_fold_queue as q
  join responses as r on r.workspace_id = q.workspace_id and r.id = q.response_id
  where q.workspace_id = ${workspaceId} and q.form_id = ${formId}
)`

/**
 * The SQL expression (a bigint) of a form's response count: folded, plus its
 * submitted responses still queued.
 *
 * @example
 * ```ts
 * sql`select ${responseCount(sql, sql`f.workspace_id`, sql`f.id`)}::int as response_count from forms f`
 * ```
 */
export const responseCount = (
  sql: SqlClient.SqlClient,
  workspaceId: IdOrColumn,
  formId: IdOrColumn
): Statement.Fragment => sql`(
  (select coalesce(sum(c.n), 0) from form_response_counts as c
    where c.workspace_id = ${workspaceId} and c.form_id = ${formId})
  + (select count(*) from ${queuedResponses(sql, workspaceId, formId)} as r
    where r.finished and r.merged_into is null)
)`
