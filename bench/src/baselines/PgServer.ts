/**
 * The floor: a hand-written node:http + pg server doing what qforms does for
 * `POST /api/forms/{id}/responses`, `GET /api/forms/{id}` and the public page's
 * `POST /f/{publicId}/responses` with the same SQL
 * (statements copied from packages/core/src/{identity/ApiKeys,forms/Forms,cases/Contacts,
 * Responses,Activities,Events}.ts), on qforms' own schema, with no framework.
 *
 * Per submission: key lookup by hash; then in one transaction: the form (for
 * key share), its questions, the contact upsert, the response insert (queued
 * by its trigger for the fold), the activity, and the event + deliveries +
 * NOTIFY statement.
 * Answers are validated by hand for the types the benchmark form uses.
 * The public submit has no key: the form by public id and its questions
 * (Forms.getPublic), then the same transaction as a respondent, source "form",
 * answering 201 `{"id"}`.
 *
 * Env: PORT (0: ephemeral), DATABASE_URL, BASELINE_SCHEMA, BASELINE_POOL (10).
 */
import { randomBytes } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { EMAIL, formBody, keyHash, makePool, type Question as Field, readBody, send, serve } from "./FloorHttp.ts"

const pool = makePool()

// timestamptz and jsonb come back as Date and objects (pg's defaults), like qforms' rows.

interface Actor {
  workspaceId: number
  accountId: number
  role: string
  name: string | null
  keyId: number
}

const authenticate = async (req: IncomingMessage): Promise<Actor | undefined> => {
  const hash = keyHash(req)
  if (hash === undefined) return undefined
  const { rows } = await pool.query(
    `select k.id, k.workspace_id, k.account_id, m.role, a.name, k.revoked_at is not null as revoked
     from api_keys k
     join members m on m.workspace_id = k.workspace_id and m.account_id = k.account_id
     join accounts a on a.id = k.account_id
     where k.hash = $1`,
    [hash]
  )
  const row = rows[0]
  if (row === undefined || row.revoked) return undefined
  return { workspaceId: row.workspace_id, accountId: row.account_id, role: row.role, name: row.name, keyId: row.id }
}

const fieldsQuery = `select id, type, label, required, position, options from fields
  where workspace_id = $1 and form_id = $2 order by position, id`

/** Validates the answers (the question types of the benchmark form); undefined when invalid. */
const validate = (fields: Array<Field>, values: Record<string, unknown>): Record<string, unknown> | undefined => {
  const out: Record<string, unknown> = {}
  for (const field of fields) {
    const value = values[String(field.id)]
    if (value === undefined || value === null || value === "") {
      if (field.required) return undefined
      continue
    }
    switch (field.type) {
      case "short_text":
      case "long_text":
        if (typeof value !== "string" || value.length > (field.type === "short_text" ? 1000 : 10000)) return undefined
        out[field.id] = value
        break
      case "email":
        if (typeof value !== "string" || !EMAIL.test(value.trim())) return undefined
        out[field.id] = value.trim()
        break
      case "select":
        if (typeof value !== "string" || !(field.options?.choices ?? []).includes(value.trim())) return undefined
        out[field.id] = value.trim()
        break
      case "rating":
        if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > (field.options?.max ?? 5)) {
          return undefined
        }
        out[field.id] = value
        break
      default:
        out[field.id] = value
    }
  }
  for (const key of Object.keys(values)) if (!fields.some((field) => String(field.id) === key)) return undefined
  return out
}

const text = (field: Field, value: unknown) =>
  value === undefined ? "" : field.type === "rating" ? `${value}/${field.options?.max ?? 5}` : String(value)

const flatAnswers = (fields: Array<Field>, values: Record<string, unknown>) => {
  const out: Record<string, string> = {}
  for (const field of fields) {
    const t = text(field, values[String(field.id)])
    if (t !== "") out[field.label] = t
  }
  return out
}

const summary = (fields: Array<Field>, values: Record<string, unknown>) =>
  fields
    .flatMap((field) => {
      const t = text(field, values[String(field.id)])
      return t === "" ? [] : [`■ ${field.label}\n${t}`]
    })
    .join("\n\n")

const columns = `id, form_id, submitted_at, updated_at, name, email, stage_id, assignee_id, tags, source, answers`

const toRow = (row: Record<string, any>) => ({
  id: row.id,
  submittedAt: row.submitted_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
  name: row.name,
  email: row.email,
  stageId: row.stage_id,
  assigneeId: row.assignee_id,
  tags: row.tags,
  source: row.source,
  values: row.answers
})

/** Who submits: a member through a key (the API) or a respondent (the public page). */
interface Submitter {
  readonly workspaceId: number
  /** The activity's actor, as Actors.toActivityActor records it. */
  readonly activityActor: string
  readonly source: "api" | "form"
  readonly reply: (res: ServerResponse, row: Record<string, any>) => void
}

const memberSubmitter = (actor: Actor): Submitter => ({
  workspaceId: actor.workspaceId,
  activityActor: JSON.stringify({ type: "member", accountId: actor.accountId, name: actor.name, via: "api_key" }),
  source: "api",
  reply: (res, row) => send(res, 201, toRow(row))
})

const respondentSubmitter = (workspaceId: number): Submitter => ({
  workspaceId,
  activityActor: JSON.stringify({ type: "respondent", accountId: null, name: null }),
  source: "form",
  reply: (res, row) => send(res, 201, { id: row.id })
})

const submit = async (who: Submitter, formId: number, body: string, res: ServerResponse) => {
  let input: { values?: Record<string, unknown> }
  try {
    input = JSON.parse(body)
  } catch {
    return send(res, 400, { error: "invalid JSON" })
  }
  if (input === null || typeof input.values !== "object" || input.values === null) {
    return send(res, 400, { error: "values must be an object" })
  }
  const now = new Date()
  const client = await pool.connect()
  try {
    await client.query("begin")
    const forms = await client.query(
      `select title, status from forms where workspace_id = $1 and id = $2 for key share`,
      [who.workspaceId, formId]
    )
    const form = forms.rows[0]
    if (form === undefined) {
      await client.query("rollback")
      return send(res, 404, { error: `form ${formId} not found` })
    }
    if (form.status !== "published") {
      await client.query("rollback")
      return send(res, 409, { error: `form ${formId} is ${form.status}: only a published form accepts responses` })
    }
    const fields: Array<Field> = (await client.query(fieldsQuery, [who.workspaceId, formId])).rows
    const values = validate(fields, input.values)
    if (values === undefined) {
      await client.query("rollback")
      return send(res, 400, { error: "invalid answers" })
    }
    const emailField = fields.find((field) => field.type === "email")
    const nameField = fields.find((field) => field.type === "short_text")
    const email = emailField === undefined ? null : ((values[emailField.id] as string | undefined) ?? null)
    let name = nameField === undefined ? null : ((values[nameField.id] as string | undefined) ?? null)
    let contactId: number | null = null
    if (email !== null) {
      const contact = await client.query(
        `insert into contacts (workspace_id, email, name, created_at) values ($1, $2, $3, $4)
         on conflict (workspace_id, lower(email)) do update set name = coalesce(excluded.name, contacts.name)
         returning id, email, name, created_at`,
        [who.workspaceId, email, name, now]
      )
      contactId = contact.rows[0].id
      name = name ?? contact.rows[0].name
    }
    const answers = flatAnswers(fields, values)
    const searchText = `\n${[name ?? "", email ?? "", ...Object.values(answers)].join(" ")}`.toLowerCase()
    const inserted = await client.query(
      `insert into responses (workspace_id, form_id, contact_id, submitted_at, updated_at, name, email,
         tags, source, answers, search_text)
       values ($1, $2, $3, $4, $5, $6, $7, $8::text[], $9, $10::jsonb, $11)
       returning ${columns}`,
      [who.workspaceId, formId, contactId, now, now, name, email, [], who.source, JSON.stringify(values), searchText]
    )
    // (Its trigger queues the response for the fold of its count and tallies, as qforms' insert does.)
    const row = inserted.rows[0]
    await client.query(
      `insert into activities (workspace_id, response_id, type, actor, payload, created_at)
       select $1, $2, t.type, $3::jsonb, t.payload::jsonb, $4
       from unnest($5::text[], $6::text[]) with ordinality as t(type, payload, n)
       order by t.n
       returning id, type, actor, payload, created_at`,
      [who.workspaceId, row.id, who.activityActor, now, ["created"], [JSON.stringify({ source: who.source })]]
    )
    const payload = {
      event: "response.created",
      form: { id: formId, title: form.title },
      responseId: row.id,
      submittedAt: now.toISOString(),
      stage: null,
      respondent: { name, email },
      answers,
      summary: summary(fields, values)
    }
    await client.query(
      `with event as (
         insert into events (id, workspace_id, type, form_id, response_id, payload, created_at)
         values ($1, $2, $3, $4, $5, $6::jsonb, $7)
         returning id, seq
       ), due as (
         insert into deliveries (workspace_id, subscription_id, event_id, status, attempts, next_attempt_at,
           created_at, updated_at)
         select $2, s.id, event.id, 'pending', 0, $7, $7, $7
         from event, webhook_subscriptions s
         where s.workspace_id = $2 and s.form_id = $4 and s.event = $3 and s.disabled_at is null
         returning 1
       )
       select pg_notify('qforms_events', $2 || ':' || event.seq),
         case when exists (select 1 from due) then pg_notify('qforms_outbox', '') end
       from event`,
      [
        `evt_${randomBytes(16).toString("base64url")}`,
        who.workspaceId,
        "response.created",
        formId,
        row.id,
        JSON.stringify(payload),
        now
      ]
    )
    await client.query("commit")
    who.reply(res, row)
  } catch (error) {
    await client.query("rollback").catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
}

const getForm = async (actor: Actor, formId: number, res: ServerResponse) => {
  const { rows } = await pool.query(
    `select id, public_id, title, description, status, folder_id, created_at, updated_at
     from forms where workspace_id = $1 and id = $2`,
    [actor.workspaceId, formId]
  )
  const form = rows[0]
  if (form === undefined) return send(res, 404, { error: `form ${formId} not found` })
  const fields: Array<Field> = (await pool.query(fieldsQuery, [actor.workspaceId, formId])).rows
  send(res, 200, formBody(form, fields))
}

const route = /^\/api\/forms\/(\d+)(\/responses)?$/
const publicSubmitRoute = /^\/f\/([0-9A-Za-z_-]+)\/responses$/

/** `POST /f/{publicId}/responses`: the form by public id with its questions (outside the transaction, as qforms). */
const publicSubmit = async (publicId: string, body: string, res: ServerResponse) => {
  const { rows } = await pool.query(
    `select id, workspace_id, public_id, title, description, status, folder_id, created_at, updated_at
     from forms where public_id = $1`,
    [publicId]
  )
  const form = rows[0]
  if (form === undefined) return send(res, 404, { error: `form ${publicId} not found` })
  await pool.query(fieldsQuery, [form.workspace_id, form.id])
  return submit(respondentSubmitter(form.workspace_id), form.id, body, res)
}

const handle = async (req: IncomingMessage, res: ServerResponse) => {
  const path = (req.url ?? "/").split("?")[0]!
  if (path === "/readyz") return send(res, 200, { ok: true })
  const publicMatch = path.match(publicSubmitRoute)
  if (publicMatch !== null) {
    if (req.method !== "POST") return send(res, 405, { error: "method not allowed" })
    return publicSubmit(publicMatch[1]!, await readBody(req), res)
  }
  const match = path.match(route)
  if (match === null) return send(res, 404, { error: "not found" })
  const body = req.method === "POST" ? await readBody(req) : ""
  const actor = await authenticate(req)
  if (actor === undefined) return send(res, 401, { error: "invalid API key" })
  const formId = Number(match[1])
  if (match[2] !== undefined && req.method === "POST") return submit(memberSubmitter(actor), formId, body, res)
  if (match[2] === undefined && req.method === "GET") return getForm(actor, formId, res)
  send(res, 405, { error: "method not allowed" })
}

serve("baseline", pool, handle)
