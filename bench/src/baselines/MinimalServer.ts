/**
 * The minimal floor (issue #22): what a developer would hand-write with
 * node:http and `pg` to do only what the contract needs for
 * `POST /api/forms/{id}/responses` and `GET /api/forms/{id}`, on a schema of
 * its own (tables `min_*`, no contacts, activities, stages or sharded counts).
 * It is the baseline of the headline rows; `PgServer.ts` (qforms' own
 * statements) stays as the explanatory second row.
 *
 * Per submission: the key by its SHA-256 hash; the form and its questions in
 * one query; required, e-mail, choice and rating checks; then one
 * transaction: insert the response (answers as jsonb, name, e-mail, a
 * lower-cased search text under a trigram GIN index), insert the
 * `response.created` event, insert a delivery per matching subscription, bump
 * the form's response counter, `pg_notify`, commit; 201 with the row.
 * GET: the key, the form and its questions in one query, JSON.
 *
 * The public page's routes, the same work without a key: `POST
 * /f/{publicId}/responses` (the form by its public id with its questions in
 * one query, the checks, the same transaction; 201 `{"id"}`), and `GET
 * /f/{publicId}` (that query, then a small HTML welcome screen: title,
 * description, a start button carrying an HMAC-signed start time).
 *
 * On start it creates its tables in BASELINE_SCHEMA (dropped with it) and
 * copies the forms, questions and API keys qforms has there, so the same key,
 * form id and question ids work on both servers.
 *
 * Env: PORT (0: ephemeral), DATABASE_URL, BASELINE_SCHEMA, BASELINE_POOL (10)
 * (see FloorHttp.ts, the plumbing both floors share).
 */
import { createHmac, randomBytes } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { EMAIL, formBody, keyHash, makePool, type Question, readBody, send, serve } from "./FloorHttp.ts"

const pool = makePool()

const setup = `
create table if not exists min_api_keys (
  hash text primary key,
  workspace_id int not null,
  revoked boolean not null default false
);
create table if not exists min_forms (
  id int primary key,
  workspace_id int not null,
  public_id text not null unique,
  title text not null,
  description text,
  status text not null,
  response_count int not null default 0
);
create table if not exists min_questions (
  id int primary key,
  form_id int not null references min_forms (id),
  position int not null,
  type text not null,
  label text not null,
  required boolean not null,
  options jsonb
);
create index if not exists min_questions_form on min_questions (form_id, position);
create table if not exists min_responses (
  id bigserial primary key,
  workspace_id int not null,
  form_id int not null,
  answers jsonb not null,
  name text,
  email text,
  search_text text not null,
  submitted_at timestamptz not null default now()
);
create index if not exists min_responses_search on min_responses using gin (search_text gin_trgm_ops);
create table if not exists min_subscriptions (
  id serial primary key,
  workspace_id int not null,
  form_id int not null,
  event text not null,
  target_url text not null
);
create table if not exists min_events (
  id bigserial primary key,
  workspace_id int not null,
  type text not null,
  form_id int not null,
  response_id bigint not null,
  payload jsonb not null,
  created_at timestamptz not null default now()
);
create table if not exists min_deliveries (
  id bigserial primary key,
  subscription_id int not null,
  event_id bigint not null,
  status text not null default 'pending',
  created_at timestamptz not null default now()
);
insert into min_api_keys (hash, workspace_id, revoked)
  select hash, workspace_id, revoked_at is not null from api_keys on conflict do nothing;
insert into min_forms (id, workspace_id, public_id, title, description, status)
  select id, workspace_id, public_id, title, description, status from forms on conflict do nothing;
insert into min_questions (id, form_id, position, type, label, required, options)
  select id, form_id, position, type, label, required, options from fields on conflict do nothing;
insert into min_subscriptions (workspace_id, form_id, event, target_url)
  select workspace_id, form_id, event, target_url from webhook_subscriptions where disabled_at is null;
`

interface FormWithQuestions {
  id: number
  workspace_id: number
  public_id: string
  title: string
  description: string | null
  status: string
  questions: Array<Question>
}

/** The workspace of the request's key, or undefined. */
const authenticate = async (req: IncomingMessage): Promise<number | undefined> => {
  const hash = keyHash(req)
  if (hash === undefined) return undefined
  const { rows } = await pool.query(`select workspace_id from min_api_keys where hash = $1 and not revoked`, [hash])
  return rows[0]?.workspace_id
}

/** The form and its questions in one query, chosen by `where`. */
const formQuery = (where: string) => `
  select f.id, f.workspace_id, f.public_id, f.title, f.description, f.status,
    coalesce(json_agg(json_build_object('id', q.id, 'type', q.type, 'label', q.label, 'required', q.required,
      'position', q.position, 'options', q.options) order by q.position, q.id) filter (where q.id is not null), '[]')
      as questions
  from min_forms f left join min_questions q on q.form_id = f.id
  where ${where}
  group by f.id`
const byIdQuery = formQuery("f.workspace_id = $1 and f.id = $2")
const byPublicIdQuery = formQuery("f.public_id = $1")

const loadForm = async (workspaceId: number, formId: number): Promise<FormWithQuestions | undefined> =>
  (await pool.query(byIdQuery, [workspaceId, formId])).rows[0]

const loadPublicForm = async (publicId: string): Promise<FormWithQuestions | undefined> =>
  (await pool.query(byPublicIdQuery, [publicId])).rows[0]

/** The checked answers, or the problem. */
const check = (questions: Array<Question>, values: Record<string, unknown>): Record<string, unknown> | string => {
  const out: Record<string, unknown> = {}
  for (const question of questions) {
    const value = values[String(question.id)]
    if (value === undefined || value === null || value === "") {
      if (question.required) return `question ${question.id} is required`
      continue
    }
    if (question.type === "rating") {
      const max = question.options?.max ?? 5
      if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max) {
        return `question ${question.id}: a whole number from 1 to ${max}`
      }
      out[question.id] = value
      continue
    }
    if (typeof value !== "string") return `question ${question.id}: a string`
    const text = value.trim()
    if (question.type === "email" && !EMAIL.test(text)) return `question ${question.id}: an e-mail address`
    if (question.type === "select" && !(question.options?.choices ?? []).includes(text)) {
      return `question ${question.id}: one of the choices`
    }
    out[question.id] = text
  }
  for (const key of Object.keys(values)) {
    if (!questions.some((question) => String(question.id) === key)) return `no question ${key}`
  }
  return out
}

/** The submission's values, or undefined once a 400 has been sent. */
const parseValues = (body: string, res: ServerResponse): Record<string, unknown> | undefined => {
  let input: { values?: unknown }
  try {
    input = JSON.parse(body)
  } catch {
    send(res, 400, { error: "invalid JSON" })
    return undefined
  }
  if (typeof input !== "object" || input === null || typeof input.values !== "object" || input.values === null) {
    send(res, 400, { error: "values must be an object" })
    return undefined
  }
  return input.values as Record<string, unknown>
}

/** Checks and stores a submission to `form`; answers the row (API) or its id (the public page). */
const store = async (form: FormWithQuestions, given: Record<string, unknown>, res: ServerResponse, whole: boolean) => {
  if (form.status !== "published") return send(res, 409, { error: `form ${form.id} is not published` })
  const values = check(form.questions, given)
  if (typeof values === "string") return send(res, 400, { error: values })
  const byType = (type: string) => form.questions.find((question) => question.type === type)
  const name = (values[byType("short_text")?.id ?? -1] as string | undefined) ?? null
  const email = (values[byType("email")?.id ?? -1] as string | undefined) ?? null
  const searchText = [name, email, ...Object.values(values)].join(" ").toLowerCase()
  const client = await pool.connect()
  try {
    await client.query("begin")
    const inserted = await client.query(
      `insert into min_responses (workspace_id, form_id, answers, name, email, search_text)
       values ($1, $2, $3, $4, $5, $6) returning id, form_id, submitted_at, name, email, answers`,
      [form.workspace_id, form.id, values, name, email, searchText]
    )
    const response = inserted.rows[0]
    const event = await client.query(
      `insert into min_events (workspace_id, type, form_id, response_id, payload)
       values ($1, 'response.created', $2, $3, $4) returning id`,
      [
        form.workspace_id,
        form.id,
        response.id,
        {
          event: "response.created",
          formId: form.id,
          responseId: response.id,
          id: `evt_${randomBytes(12).toString("hex")}`
        }
      ]
    )
    await client.query(
      `insert into min_deliveries (subscription_id, event_id)
       select id, $1 from min_subscriptions where workspace_id = $2 and form_id = $3 and event = 'response.created'`,
      [event.rows[0].id, form.workspace_id, form.id]
    )
    await client.query(`update min_forms set response_count = response_count + 1 where id = $1`, [form.id])
    await client.query(`select pg_notify('min_events', $1)`, [String(event.rows[0].id)])
    await client.query("commit")
    if (!whole) return send(res, 201, { id: Number(response.id) })
    send(res, 201, {
      id: Number(response.id),
      formId: response.form_id,
      submittedAt: response.submitted_at.toISOString(),
      name: response.name,
      email: response.email,
      values: response.answers
    })
  } catch (error) {
    await client.query("rollback").catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
}

const submit = async (workspaceId: number, formId: number, body: string, res: ServerResponse) => {
  const given = parseValues(body, res)
  if (given === undefined) return
  const form = await loadForm(workspaceId, formId)
  if (form === undefined) return send(res, 404, { error: `form ${formId} not found` })
  return store(form, given, res, true)
}

const submitPublic = async (publicId: string, body: string, res: ServerResponse) => {
  const given = parseValues(body, res)
  if (given === undefined) return
  const form = await loadPublicForm(publicId)
  if (form === undefined || form.status === "draft") return send(res, 404, { error: `form ${publicId} not found` })
  return store(form, given, res, false)
}

const pageSecret = randomBytes(32)
const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

const page = async (publicId: string, res: ServerResponse) => {
  const form = await loadPublicForm(publicId)
  if (form === undefined || form.status === "draft") {
    res.writeHead(404, { "content-type": "text/plain" })
    return res.end("not found")
  }
  const started = String(Date.now())
  const token = `${started}.${createHmac("sha256", pageSecret).update(`${publicId}.${started}`).digest("base64url")}`
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(form.title)}</title></head><body><main><h1>${escapeHtml(form.title)}</h1>
${form.description === null ? "" : `<p>${escapeHtml(form.description)}</p>`}
<p>${form.questions.length} questions</p>
<form method="post" action="/f/${publicId}/start"><input type="hidden" name="token" value="${token}">
<button type="submit">Start</button></form></main></body></html>`
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": Buffer.byteLength(html) })
  res.end(html)
}

const getForm = async (workspaceId: number, formId: number, res: ServerResponse) => {
  const form = await loadForm(workspaceId, formId)
  if (form === undefined) return send(res, 404, { error: `form ${formId} not found` })
  send(res, 200, formBody(form, form.questions))
}

const route = /^\/api\/forms\/(\d+)(\/responses)?$/
const publicRoute = /^\/f\/([A-Za-z0-9_-]{1,64})(\/responses)?$/

const handle = async (req: IncomingMessage, res: ServerResponse) => {
  const url = req.url ?? "/"
  if (url === "/readyz") return send(res, 200, { ok: true })
  const publicMatch = publicRoute.exec(url)
  if (publicMatch !== null) {
    if (publicMatch[2] === undefined && req.method === "GET") return page(publicMatch[1]!, res)
    if (publicMatch[2] !== undefined && req.method === "POST")
      return submitPublic(publicMatch[1]!, await readBody(req), res)
    return send(res, 405, { error: "method not allowed" })
  }
  const match = route.exec(url)
  if (match === null) return send(res, 404, { error: "not found" })
  const workspaceId = await authenticate(req)
  if (workspaceId === undefined) return send(res, 401, { error: "invalid API key" })
  const formId = Number(match[1])
  if (match[2] === undefined && req.method === "GET") return getForm(workspaceId, formId, res)
  if (match[2] !== undefined && req.method === "POST") return submit(workspaceId, formId, await readBody(req), res)
  return send(res, 405, { error: "method not allowed" })
}

await pool.query(setup)
serve("minimal floor", pool, handle)
