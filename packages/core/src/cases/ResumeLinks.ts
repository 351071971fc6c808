/**
 * Resume links: a respondent of the public page asks for a link by e-mail to
 * go on with their partial response on another device
 * (`/f/{publicId}/resume/{token}`, see `pages/routes/ResumeLinks.ts`). A token is 32
 * random bytes (256 bits); only its SHA-256 is stored. A link is bound to its
 * workspace, form and partial response, works once (consumed atomically at
 * its first use) and for {@link resumeLinkLifetimeMs} (7 days). On a form with
 * an access code, a link keeps the tag of the code typed before it was asked
 * for, so the other device is not asked for the code again unless it changed.
 *
 * @module
 */
import { createHash, randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"

/** How long a resume link works: 7 days. */
export const resumeLinkLifetimeMs = 7 * 24 * 60 * 60 * 1000

/** The path of a resume link, under the public pages' prefix. */
export const resumePath = (publicId: string, token: string) => `/f/${encodeURIComponent(publicId)}/resume/${token}`

/** What opening a link found: the partial response it opens, or why it opens none. */
export type Consumed =
  | {
      readonly _tag: "Opened"
      readonly responseId: number
      /** The tag of the form's access code the respondent had typed when they asked for the link, if any. */
      readonly access: string | undefined
    }
  /** No such link for this form (also a malformed token, or a link of another form). */
  | { readonly _tag: "Unknown" }
  /** A link of this form that was used, has expired, or whose response was submitted or removed since. */
  | { readonly _tag: "Gone" }

// A token is 43 base64url characters; anything else is never looked up.
const TOKEN = /^[A-Za-z0-9_-]{43}$/

const hashOf = (token: string) => createHash("sha256").update(token, "utf8").digest("hex")

/**
 * Issuing and consuming resume links.
 *
 * @example
 * ```ts
 * const links = yield* ResumeLinks.make
 * const sent = yield* links.issue(workspaceId, formId, partialId, state.access, (token) => queueTheEmail(token))
 * const opened = yield* links.consume(workspaceId, formId, token) // { _tag: "Opened", responseId, access } …
 * ```
 */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  /**
   * A new link to an unfinished response of the form, handed to `send` (which queues the e-mail) in the same
   * transaction: no link without its e-mail, and no e-mail without its link. False (nothing issued) when the
   * response is not an unfinished one of this form.
   */
  const issue = Effect.fn("ResumeLinks.issue")(function* (
    workspaceId: number,
    formId: number,
    responseId: number,
    access: string | undefined,
    send: (token: string, at: Date) => Effect.Effect<void, SqlError.SqlError>
  ) {
    const now = new Date(yield* Clock.currentTimeMillis)
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const token = randomBytes(32).toString("base64url")
        const rows = yield* sql`
          insert into response_resume_links (workspace_id, response_id, token_hash, created_at, expires_at, access_tag)
          select workspace_id, id, ${hashOf(token)}, ${now}, ${new Date(now.getTime() + resumeLinkLifetimeMs)},
            ${access ?? null}
          from responses
          where workspace_id = ${workspaceId} and form_id = ${formId} and id = ${responseId} and not finished
          returning id`
        if (rows.length === 0) return false
        yield* send(token, now)
        return true
      })
    )
  })

  /** Uses up a link of the form: the first use opens its partial response; every later one finds it gone. */
  const consume = Effect.fn("ResumeLinks.consume")(function* (workspaceId: number, formId: number, token: string) {
    if (!TOKEN.test(token)) return { _tag: "Unknown" } as Consumed
    const now = new Date(yield* Clock.currentTimeMillis)
    const hash = hashOf(token)
    const used = yield* sql<{ readonly response_id: number; readonly access_tag: string | null }>`
      update response_resume_links l set used_at = ${now}
      from responses r
      where l.workspace_id = ${workspaceId} and l.token_hash = ${hash} and l.used_at is null
        and l.expires_at > ${now}
        and r.workspace_id = l.workspace_id and r.id = l.response_id and r.form_id = ${formId} and not r.finished
      returning l.response_id, l.access_tag`
    const opened = used[0]
    if (opened !== undefined)
      return { _tag: "Opened", responseId: opened.response_id, access: opened.access_tag ?? undefined } as Consumed
    const known = yield* sql`
      select 1 from response_resume_links l join responses r on r.workspace_id = l.workspace_id and r.id = l.response_id
      where l.workspace_id = ${workspaceId} and l.token_hash = ${hash} and r.form_id = ${formId}`
    return (known.length === 0 ? { _tag: "Unknown" } : { _tag: "Gone" }) as Consumed
  })

  return { issue, consume }
})
