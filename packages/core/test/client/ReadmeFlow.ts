/**
 * An outsider's program: the README's curl flow (section "The HTTP API"),
 * written with `openapi-fetch` against types that `openapi-typescript`
 * generated from the served `/api/openapi.json` (into `generated/openapi.ts`,
 * see `GeneratedClient.test.ts`). It must type-check with `tsc` as written:
 * ids the API returns are passed back as path parameters, answers are keyed
 * by the question ids the created form returns.
 *
 * Run: `node ReadmeFlow.ts <baseUrl> <apiKey>`; prints a JSON summary, exits 1
 * on any unexpected answer.
 */
import createClient from "openapi-fetch"
import type { components, paths } from "./generated/openapi.ts"

type Form = components["schemas"]["CreatedForm"]

const [baseUrl, key] = process.argv.slice(2)
if (baseUrl === undefined || key === undefined) throw new Error("usage: node ReadmeFlow.ts <baseUrl> <apiKey>")

const api = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${key}` } })
const anonymous = createClient<paths>({ baseUrl })

/** The data of a successful answer, or a thrown error naming the status and the `{error}` body. */
const must = async <T>(label: string, call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> => {
  const { data, error, response } = await call
  if (data === undefined) throw new Error(`${label}: ${response.status} ${JSON.stringify(error)}`)
  return data
}

// A form with three questions; the answer lists them with their ids.
const form: Form = await must(
  "POST /api/forms",
  api.POST("/api/forms", {
    body: {
      title: "Contact us",
      fields: [
        { type: "short_text", label: "Name", required: true },
        { type: "email", label: "Email", required: true },
        { type: "select", label: "Topic", options: { choices: ["Sales", "Support"] } }
      ]
    }
  })
)
const [name, email, topic] = form.fields
if (name === undefined || email === undefined || topic === undefined)
  throw new Error("the created form has no questions")

await must(
  "PATCH /api/forms/{id}",
  api.PATCH("/api/forms/{id}", { params: { path: { id: form.id } }, body: { status: "published" } })
)
const full = await must("GET /api/forms/{id}", api.GET("/api/forms/{id}", { params: { path: { id: form.id } } }))

// Submit a response (answers keyed by question id), then triage it.
const submitted = await must(
  "POST /api/forms/{formId}/responses",
  api.POST("/api/forms/{formId}/responses", {
    params: { path: { formId: form.id } },
    body: { values: { [name.id]: "Ada Lovelace", [email.id]: "ada@example.com", [topic.id]: "Support" } }
  })
)
const list = await must(
  "GET /api/forms/{formId}/responses",
  api.GET("/api/forms/{formId}/responses", {
    params: { path: { formId: form.id }, query: { flat: "1", q: "ada", limit: 10 } }
  })
)
const { stages } = await must(
  "GET /api/forms/{formId}/stages",
  api.GET("/api/forms/{formId}/stages", { params: { path: { formId: form.id } } })
)
const { members } = await must("GET /api/members", api.GET("/api/members"))
const stage = stages[1]
const member = members[0]
if (stage === undefined || member === undefined) throw new Error("no second stage or no member")
const changed = await must(
  "PATCH /api/responses/{id}",
  api.PATCH("/api/responses/{id}", {
    params: { path: { id: submitted.id } },
    body: { stageId: stage.id, assigneeId: member.accountId, tags: ["vip"] }
  })
)
const note = await must(
  "POST /api/responses/{id}/notes",
  api.POST("/api/responses/{id}/notes", {
    params: { path: { id: submitted.id } },
    body: { body: "Called back; waiting for the invoice." }
  })
)
const detail = await must(
  "GET /api/responses/{id}",
  api.GET("/api/responses/{id}", { params: { path: { id: submitted.id } } })
)

// Export, subscribe a webhook, read its delivery log, unsubscribe.
const csv = await must(
  "GET /api/forms/{formId}/responses.csv",
  api.GET("/api/forms/{formId}/responses.csv", { params: { path: { formId: form.id } }, parseAs: "text" })
)
const subscription = await must(
  "POST /api/webhooks/subscribe",
  api.POST("/api/webhooks/subscribe", {
    body: {
      formId: form.id,
      event: "response.created",
      targetUrl: "https://hooks.example.com/qforms",
      source: "zapier"
    }
  })
)
const subscriptions = await must("GET /api/webhooks", api.GET("/api/webhooks"))
const deliveries = await must(
  "GET /api/webhooks/subscribe/{id}/deliveries",
  api.GET("/api/webhooks/subscribe/{id}/deliveries", { params: { path: { id: subscription.id }, query: { limit: 5 } } })
)
const unsubscribed = await api.DELETE("/api/webhooks/subscribe/{id}", { params: { path: { id: subscription.id } } })

// The public page's JSON submission, without a key.
const respondent = await must(
  "POST /f/{publicId}/responses",
  anonymous.POST("/f/{publicId}/responses", {
    params: { path: { publicId: form.publicId } },
    body: { values: { [name.id]: "Grace Hopper", [email.id]: "grace@example.com", [topic.id]: null } }
  })
)

// A documented error, typed: 404 `{error}` for an id of no form.
const missing = await api.GET("/api/forms/{id}", { params: { path: { id: 2147483647 } } })
const missingError: string | undefined = missing.error?.error

process.stdout.write(
  JSON.stringify({
    formId: form.id,
    fieldIds: form.fields.map((field) => field.id),
    fetchedFieldIds: full.fields.map((field) => field.id),
    responseId: submitted.id,
    values: submitted.values,
    listed: list.responses.map((row) => ({ id: row.id, answers: row.answers ?? null })),
    nextCursor: list.nextCursor,
    changed: changed.ok,
    stageId: detail.response.stageId,
    assigneeId: detail.response.assigneeId,
    tags: detail.response.tags,
    note: note.payload.body,
    activities: detail.activities.map((activity) => activity.type),
    csvHasAda: csv.includes("Ada Lovelace"),
    subscriptionId: subscription.id,
    subscriptionListed: subscriptions.some((s) => s.id === subscription.id),
    deliveries: deliveries.deliveries.length,
    unsubscribed: unsubscribed.response.status,
    publicResponseId: respondent.id,
    missing: { status: missing.response.status, error: missingError ?? null }
  })
)
