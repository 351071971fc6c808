/**
 * Migration 0050_resume_link_access. A resume link of a form with an access
 * code keeps the tag of the code the respondent had typed when they asked for
 * it (`pages/AccessCodes.ts`), so opening the link does not ask for the code
 * again; a code changed since no longer matches the tag, and the page asks.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table response_resume_links add column access_tag text`
})
