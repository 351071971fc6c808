/**
 * A workspace filled through the real surfaces (API, public upload, webhook
 * delivery), every text carrying a marker so that a leak of it anywhere is
 * found by searching answers for the marker. Plus MCP and public-upload calls.
 */
import { call, waitUntil } from "./Harness.ts"
import type { Json } from "./JsonSchema.ts"

/** A JSON-RPC call to `/mcp` with a key; answers the status and parsed body. */
export const mcp = async (url: string, key: string | undefined, method: string, params?: unknown, raw?: string) => {
  const response = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` })
    },
    body: raw ?? JSON.stringify({ jsonrpc: "2.0", id: 1, method, ...(params === undefined ? {} : { params }) }),
    signal: AbortSignal.timeout(15_000)
  })
  const text = await response.text()
  let body: Json = text
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: response.status, body, text }
}

/** Uploads `content` to a file question through the public page (no key). */
export const upload = async (
  url: string,
  publicId: string,
  fieldId: number | string,
  content: string,
  name = "note.txt"
) => {
  const form = new FormData()
  form.append("file", new Blob([content], { type: "text/plain" }), name)
  const response = await fetch(`${url}/f/${publicId}/uploads?fieldId=${fieldId}`, { method: "POST", body: form })
  const text = await response.text()
  let body: Json = text
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: response.status, body }
}

/** A 1×1 PNG, for the image library. */
const pixel = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64"
)

/** Uploads a PNG to the workspace's image library (`POST /api/images`). */
export const uploadImage = async (url: string, key: string, name: string) => {
  const form = new FormData()
  form.append("file", new Blob([pixel], { type: "image/png" }), name)
  const response = await fetch(`${url}/api/images`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
    body: form
  })
  const text = await response.text()
  let body: Json = text
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: response.status, body }
}

/** What `seed` made. */
export interface Seeded {
  readonly marker: string
  readonly formId: number
  readonly publicId: string
  readonly draftFormId: number
  readonly draftPublicId: string
  /** A published form with an access code (`pages/AccessCodes.ts`): its page asks for the code first. */
  readonly lockedPublicId: string
  readonly fieldIds: { readonly name: number; readonly email: number; readonly file: number }
  readonly responseId: number
  /** The token of the response's status page (`/s/{token}`). */
  readonly statusToken: string
  readonly stageId: number
  readonly fileId: string
  /** An image of the library (named with the marker), the workspace theme's logo. */
  readonly imageId: string
  readonly subscriptionId: string
  readonly deliveryId: number
  readonly noteId: number
  /** A member and an API key made for probes that change or remove them (never the prober's own). */
  readonly spareAccountId: number
  readonly spareKeyId: number
  /** A shared saved view of the inbox (named with the marker, its filter naming the form). */
  readonly viewId: number
}

const ok = (what: string, result: { status: number; body: Json }, status: number) => {
  if (result.status !== status)
    throw new Error(`${what}: ${result.status} ${JSON.stringify(result.body).slice(0, 500)}`)
  return result.body
}

/** Fills a workspace through its key; `hookUrl` receives its webhook (a loopback receiver). */
export const seed = async (url: string, key: string, marker: string, hookUrl: string): Promise<Seeded> => {
  const created = ok(
    "create form",
    await call(url, "POST", "/api/forms", {
      key,
      body: {
        title: `Form ${marker}`,
        description: `About ${marker}`,
        fields: [
          { type: "short_text", label: `Name ${marker}`, required: true },
          { type: "email", label: "Email", required: false },
          { type: "file", label: `File ${marker}`, required: false }
        ]
      }
    }),
    201
  )
  const full = ok("get form", await call(url, "GET", `/api/forms/${created.id}`, { key }), 200)
  const [name, email, file] = full.fields as Array<{ id: number }>
  // Published with a variable and an ending that recalls an answer: every response walks the form's variables
  // and its ending (`forms/Endings.ts`) is chosen and stored, so probes of the submission paths reach them.
  ok(
    "publish",
    await call(url, "PATCH", `/api/forms/${created.id}`, {
      key,
      body: {
        status: "published",
        settings: {
          // The respondent may change their answers from the status page (`/s/{token}/edit`): probed too.
          editableForHours: 720,
          variables: [{ name: "visits", type: "number" }],
          endings: [{ key: "done", title: `Thanks {{field:${name!.id}}}`, message: `Ending ${marker}: {{var:visits}}` }]
        }
      }
    }),
    200
  )
  // A translation into German carrying the marker (title, a question, the ending): the translations' surfaces
  // (`/api/forms/{formId}/translations/{language}`, MCP) are probed with it, and the page offers it.
  ok(
    "translation",
    await call(url, "PUT", `/api/forms/${created.id}/translations/de`, {
      key,
      body: {
        title: `Formular ${marker}`,
        fields: { [String(name!.id)]: { label: `Name ${marker} (de)` } },
        endings: { done: { message: `Ende ${marker}: {{var:visits}}` } }
      }
    }),
    200
  )
  // The workspace's own settings carry the marker too (its theme's words, its logo's name and words), for the
  // isolation scenario.
  const image = ok("image", await uploadImage(url, key, `${marker}.png`), 201)
  ok(
    "workspace settings",
    await call(url, "PUT", "/api/workspace/settings", {
      key,
      body: { theme: { buttons: { start: `Go ${marker}` }, logo: image.id, logoAlt: `Logo ${marker}` } }
    }),
    200
  )
  const draft = ok(
    "create draft",
    await call(url, "POST", "/api/forms", {
      key,
      body: { title: `Draft ${marker}`, fields: [{ type: "short_text", label: `Q ${marker}` }] }
    }),
    201
  )
  const locked = ok(
    "create locked",
    await call(url, "POST", "/api/forms", {
      key,
      body: { title: `Locked ${marker}`, fields: [{ type: "short_text", label: `Q ${marker}` }] }
    }),
    201
  )
  ok(
    "lock",
    await call(url, "PATCH", `/api/forms/${locked.id}`, {
      key,
      body: { status: "published", settings: { accessCode: `code ${marker}` } }
    }),
    200
  )
  const stage = ok(
    "create stage",
    await call(url, "POST", `/api/forms/${created.id}/stages`, { key, body: { name: `S${marker}`.slice(0, 40) } }),
    201
  )
  const uploaded = ok(
    "upload",
    await upload(url, created.publicId, file!.id, `file content ${marker}`, `${marker}.txt`),
    201
  )
  const subscription = ok(
    "subscribe",
    await call(url, "POST", "/api/webhooks/subscribe", {
      key,
      body: { formId: created.id, event: "response.created", targetUrl: hookUrl, source: marker.slice(0, 40) }
    }),
    201
  )
  const response = ok(
    "submit",
    await call(url, "POST", `/api/forms/${created.id}/responses`, {
      key,
      body: {
        values: {
          [name!.id]: `Person ${marker}`,
          [email!.id]: `${marker.toLowerCase()}@example.com`,
          [file!.id]: { fileId: uploaded.fileId }
        }
      }
    }),
    201
  )
  ok(
    "tag",
    await call(url, "PATCH", `/api/responses/${response.id}`, {
      key,
      body: { tags: [marker.slice(0, 30)], stageId: stage.id }
    }),
    200
  )
  const statusLink = ok(
    "status link",
    await call(url, "POST", `/api/responses/${response.id}/status-link`, { key }),
    201
  )
  const note = ok(
    "note",
    await call(url, "POST", `/api/responses/${response.id}/notes`, { key, body: { body: `Note ${marker}` } }),
    201
  )
  const spareMember = ok(
    "add member",
    await call(url, "POST", "/api/members", {
      key,
      body: { email: `spare-${marker.toLowerCase()}@example.com`, role: "member" }
    }),
    201
  )
  const spareKey = ok(
    "issue key",
    await call(url, "POST", "/api/api-keys", { key, body: { name: `spare ${marker}`.slice(0, 100) } }),
    201
  )
  const view = ok(
    "saved view",
    await call(url, "POST", "/api/views", {
      key,
      body: { name: `View ${marker}`, shared: true, filter: { formId: created.id, q: marker } }
    }),
    201
  )
  const deliveryId = await waitUntil("the seeded delivery", async () => {
    const log = await call(url, "GET", `/api/webhooks/subscribe/${subscription.id}/deliveries`, { key })
    return log.body?.deliveries?.[0]?.id as number | undefined
  })
  return {
    marker,
    formId: created.id,
    publicId: created.publicId,
    draftFormId: draft.id,
    draftPublicId: draft.publicId,
    lockedPublicId: locked.publicId,
    fieldIds: { name: name!.id, email: email!.id, file: file!.id },
    responseId: response.id,
    statusToken: String(statusLink.url).split("/").pop()!,
    stageId: stage.id,
    fileId: uploaded.fileId,
    imageId: image.id,
    subscriptionId: subscription.id,
    deliveryId,
    noteId: note.id,
    spareAccountId: spareMember.accountId,
    spareKeyId: spareKey.apiKey.id,
    viewId: view.id
  }
}

/** Values for ids by parameter or property name, from a seeded workspace (for probes driven by the API description). */
export const idHints = (s: Seeded): Record<string, unknown> => ({
  formId: s.formId,
  responseId: s.responseId,
  stageId: s.stageId,
  fileId: s.fileId,
  imageId: s.imageId,
  subscriptionId: s.subscriptionId,
  deliveryId: s.deliveryId,
  noteId: s.noteId,
  accountId: s.spareAccountId,
  stageIds: [s.stageId],
  language: "de"
})

/** The value of a path parameter `{name}` of `path`, from the segment before it. */
export const pathParam = (s: Seeded, path: string, name: string): string => {
  const before = path.split("/").at(path.split("/").indexOf(`{${name}}`) - 1) ?? ""
  const hints = idHints(s)
  if (name in hints) return String(hints[name])
  const byCollection: Record<string, unknown> = {
    forms: s.formId,
    responses: s.responseId,
    stages: s.stageId,
    subscribe: s.subscriptionId,
    subscriptions: s.subscriptionId,
    deliveries: s.deliveryId,
    files: s.fileId,
    images: s.imageId,
    notes: s.noteId,
    members: s.spareAccountId,
    "api-keys": s.spareKeyId,
    views: s.viewId
  }
  return String(byCollection[before] ?? s.formId)
}
