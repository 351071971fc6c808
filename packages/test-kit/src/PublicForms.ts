/**
 * Helpers for tests of the public form page: a workspace with an API key,
 * forms made through the API, and step posts as a browser without
 * JavaScript sends them.
 */
import { Effect } from "effect"
import { ApiKeys, Workspaces } from "@qforms/core"
import type { TestServer } from "./TestServer.ts"

/** A workspace and its owner's API key. */
export const seedWorkspace = (server: TestServer) =>
  server.run(
    Effect.gen(function* () {
      const workspaces = yield* Workspaces.Workspaces
      const keys = yield* ApiKeys.ApiKeys
      const made = yield* workspaces.create({
        name: "Public page",
        ownerEmail: "owner@example.com",
        ownerName: "Owner"
      })
      const key = yield* keys.create(made.workspace.id, { accountId: made.ownerAccountId, name: "owner" })
      return { workspaceId: made.workspace.id, key: key.key }
    })
  )

export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any
}

const reply = async (response: Response): Promise<Reply> => {
  const text = await response.text()
  let body: unknown
  if ((response.headers.get("content-type") ?? "").includes("json") && text !== "") body = JSON.parse(text)
  return { status: response.status, headers: response.headers, text, body }
}

/** A call to the API with the key. */
export const api = async (server: TestServer, key: string, method: string, path: string, body?: unknown) =>
  reply(
    await fetch(`${server.url}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      body: body === undefined ? null : JSON.stringify(body)
    })
  )

/** Creates a form through the API, with a status set through the API too. */
export const createForm = async (
  server: TestServer,
  key: string,
  input: { readonly title: string; readonly description?: string; readonly fields: ReadonlyArray<unknown> },
  status: "draft" | "published" | "closed" = "published"
) => {
  const created = await api(server, key, "POST", "/forms", input)
  if (created.status !== 201) throw new Error(`form not created: ${created.text}`)
  if (status !== "draft") {
    const patched = await api(server, key, "PATCH", `/forms/${created.body.id}`, { status })
    if (patched.status !== 200) throw new Error(`status not set: ${patched.text}`)
  }
  const form = await api(server, key, "GET", `/forms/${created.body.id}`)
  return form.body as {
    id: number
    publicId: string
    fields: ReadonlyArray<{ id: number; type: string; label: string }>
  }
}

/** A question as the API returned it, as the API takes it back (no `position`). */
export const asInput = (field: object): Record<string, unknown> => {
  const { position: _, ...rest } = field as Record<string, unknown>
  return rest
}

/** GET a page. */
export const getPage = async (server: TestServer, path: string, headers: Record<string, string> = {}) =>
  reply(await fetch(`${server.url}${path}`, { headers }))

/** A step post, url-encoded as a browser sends it. */
export const postStep = async (
  server: TestServer,
  publicId: string,
  pairs: ReadonlyArray<readonly [string, string]>,
  headers: Record<string, string> = {}
) =>
  reply(
    await fetch(`${server.url}/f/${publicId}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, v])).toString()
    })
  )

/** POST /f/{publicId}/responses as JSON. */
export const postJson = async (
  server: TestServer,
  publicId: string,
  body: unknown,
  headers: Record<string, string> = {}
) =>
  reply(
    await fetch(`${server.url}/f/${publicId}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body)
    })
  )

/** The value of a hidden input of a page. */
export const hidden = (html: string, name: string): string => {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html)
  if (match === null) throw new Error(`no input ${name} in ${html.slice(0, 2000)}`)
  return match[1]!
}

/** The answer token of a page. */
export const tokenOf = (html: string) => hidden(html, "token")

/** Answers the current screen of a page and returns the next one. */
export const answer = (
  server: TestServer,
  publicId: string,
  html: string,
  answers: ReadonlyArray<string>,
  action: "next" | "back" | "start" = "next",
  extra: ReadonlyArray<readonly [string, string]> = []
) =>
  postStep(server, publicId, [
    ["token", tokenOf(html)],
    ["at", hidden(html, "at")],
    ["website", ""],
    ...answers.map((a) => ["a", a] as const),
    ["move", action],
    ...extra
  ])

/** The responses of a form, through the API. */
export const listResponses = async (server: TestServer, key: string, formId: number) => {
  const list = await api(server, key, "GET", `/forms/${formId}/responses`)
  if (list.status !== 200) throw new Error(`list failed: ${list.text}`)
  return list.body.responses as ReadonlyArray<{
    id: number
    source: string
    language: string | null
    values: Record<string, unknown>
  }>
}

/** Waits this many milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
