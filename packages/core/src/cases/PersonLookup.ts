/**
 * Finding a person in a workspace, for the erasure (`privacy/Erasure.ts`) and
 * the export (`privacy/PersonalDataExport.ts`) of their data: by an e-mail
 * address (every contact and response with that address, case-insensitive)
 * or by a contact's id (the contact, its address, and every response linked
 * to it or carrying that address). Both find exactly the same person.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { Ids } from "../kernel/index.ts"
import * as SqlClient from "effect/sql/SqlClient"

/** No contact with this id in the workspace. Answered as 404. */
export class ContactNotFound extends Schema.TaggedError<ContactNotFound>()("ContactNotFound", {
  message: Schema.String
}) {}

/** The person's e-mail address: 3 to 320 characters with an `@`. */
export const PersonEmail = Schema.String.check(
  Schema.isMinLength(3, { message: "email must be 3 to 320 characters" }),
  Schema.isMaxLength(320, { message: "email must be 3 to 320 characters" }),
  Schema.makeFilter((email: string) => email.includes("@") || "email must be an e-mail address")
).annotate({ description: "The person's e-mail address (case-insensitive)." })

/** The id of the person's contact. */
export const PersonContactId = Schema.Int.check(
  Schema.isBetween(
    { minimum: 1, maximum: Ids.maxId },
    { message: `contactId must be a positive integer, at most ${Ids.maxId}` }
  )
).annotate({ description: "The id of the person's contact." })

/** Whom: exactly one of an address and a contact's id. */
export interface PersonRequest {
  readonly email?: string | undefined
  readonly contactId?: number | undefined
}

/** The check of a request's struct: exactly one of `email` and `contactId`. */
export const exactlyOne = Schema.makeFilter(
  (request: PersonRequest) =>
    (request.email === undefined) !== (request.contactId === undefined) || "give exactly one of email and contactId"
)

/** A contact found. */
export interface FoundContact {
  readonly id: number
  readonly email: string
  readonly name: string | null
  readonly created_at: Date
}

/** A response found (submitted or partial), with its form's title. */
export interface FoundResponse {
  readonly id: number
  readonly form_id: number
  readonly form_title: string
  readonly name: string | null
  readonly tags: ReadonlyArray<string>
  readonly stage_id: number | null
  readonly finished: boolean
}

/** What {@link make}'s `find` answers: the address searched, the contacts and the responses. */
export interface FoundPerson {
  /** The address: the request's (trimmed), or the contact's. */
  readonly email: string
  readonly contacts: ReadonlyArray<FoundContact>
  readonly responses: ReadonlyArray<FoundResponse>
}

/**
 * The statements, on the current `SqlClient` (run them inside the caller's
 * transaction). `lock`: the rows are locked for update (an erasure).
 * An unknown contact id fails with {@link ContactNotFound}; an address with
 * nothing answers empty lists.
 *
 * @example
 * ```ts
 * const lookup = yield* PersonLookup.make
 * const { email, contacts, responses } = yield* lookup.find(workspaceId, { email: "ada@example.com" }, { lock: false })
 * ```
 */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const find = Effect.fn("PersonLookup.find")(function* (
    workspaceId: number,
    request: PersonRequest,
    options: { readonly lock: boolean }
  ) {
    const lock = sql.literal(options.lock ? "for update" : "")
    const contacts =
      request.contactId !== undefined
        ? yield* sql<FoundContact>`
          select id, email, name, created_at from contacts
          where workspace_id = ${workspaceId} and id = ${request.contactId} ${lock}`
        : yield* sql<FoundContact>`
          select id, email, name, created_at from contacts
          where workspace_id = ${workspaceId} and lower(email) = lower(${(request.email ?? "").trim()}) ${lock}`
    if (request.contactId !== undefined && contacts.length === 0) {
      return yield* new ContactNotFound({ message: `contact ${request.contactId} not found` })
    }
    const email = request.contactId !== undefined ? contacts[0]!.email : (request.email ?? "").trim()
    const contactIds = contacts.map((row) => row.id)
    const responses = yield* sql<FoundResponse>`
      select r.id, r.form_id, f.title as form_title, r.name,
        -- A response merged into another (ResponseMerges.ts) left the counts already.
        case when r.merged_into is null then r.tags else '{}'::text[] end as tags, r.stage_id,
        r.finished and r.merged_into is null as finished
      from responses r join forms f on f.workspace_id = r.workspace_id and f.id = r.form_id
      where r.workspace_id = ${workspaceId}
        and (lower(r.email) = lower(${email}) or r.contact_id = any(${contactIds}::int[]))
      order by r.id
      ${sql.literal(options.lock ? "for update of r" : "")}`
    return { email, contacts, responses } satisfies FoundPerson
  })

  return { find }
})
