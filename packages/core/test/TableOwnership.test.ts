/**
 * Each table is written by one context's services: every `insert into`,
 * `update` and `delete from` of a table in packages/core/src must sit in a
 * module of the context that owns the table. Another context changes it by
 * calling the owner's service (in the same transaction when it must). A new
 * table without an owner fails, and so does a write from elsewhere, unless it
 * is one of the few exceptions below, each with its reason.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"

const src = join(import.meta.dirname, "../src")

/** The owning context (the folder under src/) of every table. */
const owners: Readonly<Record<string, string>> = {
  workspaces: "identity",
  accounts: "identity",
  members: "identity",
  api_keys: "identity",
  sessions: "identity",
  sign_in_links: "identity",
  sign_in_failures: "identity",
  password_resets: "identity",
  invitations: "identity",
  forms: "forms",
  fields: "forms",
  stages: "forms",
  responses: "cases",
  contacts: "cases",
  activities: "cases",
  form_response_counts: "cases",
  form_tags: "cases",
  // The responses not yet folded into their tallies and count (cases/ResponseFold.ts, migration 0051).
  response_fold_queue: "cases",
  // The record of each erasure of a person (privacy/Erasure.ts): counts and a salted hash, no personal data.
  erasures: "privacy",
  // When each workspace's daily retention run is due (privacy/Retention.ts, migration 0038).
  retention_runs: "privacy",
  // Each form's assignment rules and a round robin's next turn (cases/AssignmentRules.ts, migration 0041).
  assignment_rules: "cases",
  // Each form's custom case field definitions (cases/CaseFields.ts, migration 0047).
  case_field_definitions: "cases",
  // Written by the triggers of migration 0029 as responses change; read by insights/FormSummaries.ts.
  answer_tallies: "insights",
  page_counts: "insights",
  digest_subscriptions: "insights",
  digest_emails: "insights",
  files: "files",
  images: "files",
  events: "events",
  deliveries: "deliveries",
  delivery_attempts: "deliveries",
  webhook_subscriptions: "deliveries",
  notification_channels: "deliveries",
  webhook_alerts: "deliveries",
  alert_emails: "deliveries",
  audit_log: "audit",
  response_emails: "email",
  response_email_clicks: "email",
  response_replies: "email",
  response_status_links: "cases",
  response_resume_links: "cases",
  response_merges: "cases",
  // Saved views of the workspace-wide list (cases/SavedViews.ts, migration 0048).
  saved_views: "cases",
  // The Idempotency-Keys of submissions and the responses they made (cases/SubmissionKeys.ts, migration 0053).
  submission_keys: "cases",
  form_confirmations: "email",
  workspace_email_settings: "email",
  workspace_page_settings: "forms",
  signing_secrets: "kernel",
  rate_limit_buckets: "storage",
  qforms_migrations: "storage"
}

/** Writes outside the owner, each deliberate: `module → table` and why. */
const exceptions: Readonly<Record<string, string>> = {
  "deliveries/Deliveries.ts → response_emails":
    "the worker's one statement per batch records each attempt and marks its e-mail sent or failed (a second round trip per batch otherwise)",
  "deliveries/Deliveries.ts → digest_emails": "the same statement marks a digest e-mail sent or failed",
  "events/Events.ts → deliveries":
    "an event is written with its deliveries (the subscriptions and channels that hear it) in the change's transaction: the outbox; events come before deliveries in the context order",
  "events/EventErasure.ts → deliveries":
    "erasing the events about a person's responses cancels their unsent deliveries in the same statement pair",
  "forms/Sla.ts → responses":
    "a stage that closes or opens resolves or reopens its cases in the stage's transaction (forms come before cases); a member's first e-mail marks the case's first response"
}

const modules = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? modules(path) : name.endsWith(".ts") ? [path] : []
  })

const tables = [...readFileSync(join(src, "storage/schema.sql"), "utf8").matchAll(/^create table (\w+)/gm)].map(
  (m) => m[1]!
)

/** `module → table` for every SQL write in the source (migrations, which create the tables, aside). */
const writes = modules(src)
  .map((path) => relative(src, path))
  .filter((module) => !module.startsWith("storage/migrations/"))
  .flatMap((module) =>
    [...readFileSync(join(src, module), "utf8").matchAll(/\b(?:insert\s+into|update|delete\s+from)\s+([a-z_]+)\b/gi)]
      .map((m) => m[1]!.toLowerCase())
      .filter((table) => tables.includes(table))
      .map((table) => ({ module, table }))
  )

describe("table ownership", () => {
  it("gives every table of the schema an owning context", () => {
    expect(tables.filter((table) => owners[table] === undefined)).toEqual([])
    expect(Object.keys(owners).filter((table) => !tables.includes(table))).toEqual([])
  })

  it("finds the writes it checks (the scan reads the SQL)", () => {
    expect(writes.length).toBeGreaterThan(60)
    expect(writes).toContainEqual({ module: "cases/Responses.ts", table: "responses" })
  })

  it("lets only the owning context write a table", () => {
    const foreign = [
      ...new Set(
        writes
          .filter(({ module, table }) => module.split("/")[0] !== owners[table])
          .map(({ module, table }) => `${module} → ${table}`)
      )
    ]
    expect(foreign.filter((write) => exceptions[write] === undefined)).toEqual([])
    expect(
      Object.keys(exceptions).filter((write) => !foreign.includes(write)),
      "an exception that no longer happens"
    ).toEqual([])
  })
})
