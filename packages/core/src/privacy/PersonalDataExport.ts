/**
 * Export of a person's data (GDPR Article 15), the counterpart of their
 * erasure (`privacy/Erasure.ts`): everything a workspace holds about one e-mail
 * address (or one contact), found exactly as the erasure finds it
 * (`cases/PersonLookup.ts`): their contact; their responses, partial ones too,
 * with each answer beside its question, stage, tags and the notes on the case;
 * the files of those responses and of their replies; the e-mails sent to them
 * and the replies received from them. Notes on other cases that name them (the
 * ones an erasure flags) are listed by id only, for a person to review before
 * handing the export over: their text is about someone else's case.
 *
 * Everything is read in one repeatable-read transaction (one snapshot), which
 * also writes the `privacy.export` audit entry: counts and a salted hash of
 * the address, no personal data. The ZIP ({@link PersonalDataExport}'s
 * `archive`) holds `person.json` ({@link PersonData}) and each file's bytes
 * under `files/<responseId>/<name>`, read from the blob store as the archive
 * streams.
 *
 * @module
 */
import { randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { AuditLogModule as AuditLog } from "../audit/index.ts"
import { BlobStore, BlobStoreError, ZipWriter } from "../files/index.ts"
import { Actors, type Forbidden } from "../kernel/index.ts"
import { subjectHash } from "./Erasure.ts"
import { type ContactNotFound, PersonLookup } from "../cases/index.ts"

/**
 * Whose data: `{ "email": … }` or `{ "contactId": … }`, exactly one, found as
 * an erasure finds them (the query string of `GET /api/privacy/export`, the
 * input of the MCP tool `export_person`).
 */
export const PersonExportRequest = Schema.Struct({
  email: Schema.optionalKey(PersonLookup.PersonEmail),
  contactId: Schema.optionalKey(PersonLookup.PersonContactId)
})
  .check(PersonLookup.exactlyOne)
  // No identifier: the OpenAPI document's query parameters take their types from the properties inline.
  .annotate({ description: "Exactly one of `email` and `contactId`, e.g. `?email=ada@example.com`." })
export type PersonExportRequest = typeof PersonExportRequest.Type

const Timestamp = Schema.String.annotate({ format: "date-time" })

/** A file of theirs: an upload of their responses or an attachment of their replies. */
export const PersonFile = Schema.Struct({
  id: Schema.String,
  responseId: Schema.NullOr(Schema.Int),
  formId: Schema.Int,
  /** The question it answers; null for an attachment of an e-mail reply. */
  question: Schema.NullOr(Schema.String),
  name: Schema.String,
  size: Schema.Int,
  type: Schema.String,
  createdAt: Timestamp,
  /** Where its bytes are in the ZIP. */
  path: Schema.String.annotate({ description: "Where its bytes are in the ZIP: `files/<responseId>/<name>`." }),
  /** Where its bytes are downloaded from (with an API key or session of the workspace). */
  downloadPath: Schema.String.annotate({ description: "`/api/files/<id>`: where its bytes are downloaded from." })
}).annotate({ identifier: "PersonFile" })
export type PersonFile = typeof PersonFile.Type

/** One answer of a response, beside its question. */
export const PersonAnswer = Schema.Struct({
  /** The key in the response's `values`: a question id, `hidden:<name>`, or a variable's. */
  key: Schema.String,
  /** The question's title; null for a hidden field, a variable, or a question since deleted. */
  question: Schema.NullOr(Schema.String),
  /** The question's type; null as for `question`. */
  type: Schema.NullOr(Schema.String),
  value: Schema.Unknown.annotate({ description: "The answer as stored (a file answer: its record)." })
}).annotate({ identifier: "PersonAnswer" })

/** A note on one of their cases. */
export const PersonNote = Schema.Struct({
  id: Schema.Int,
  body: Schema.String,
  /** Who wrote it (a member's name), when known. */
  author: Schema.NullOr(Schema.String),
  createdAt: Timestamp
}).annotate({ identifier: "PersonNote" })

/** One of their responses, submitted or partial. */
export const PersonResponse = Schema.Struct({
  id: Schema.Int,
  formId: Schema.Int,
  formTitle: Schema.String,
  status: Schema.Literals(["submitted", "partial"]),
  /** When it was submitted; null for a partial response. */
  submittedAt: Schema.NullOr(Timestamp),
  /** When they started it (a page's first step), when known. */
  startedAt: Schema.NullOr(Timestamp),
  updatedAt: Timestamp,
  name: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  language: Schema.NullOr(Schema.String),
  source: Schema.String,
  stage: Schema.NullOr(Schema.Struct({ id: Schema.Int, name: Schema.String })),
  tags: Schema.Array(Schema.String),
  answers: Schema.Array(PersonAnswer),
  notes: Schema.Array(PersonNote),
  /** Its files (see `files`). */
  fileIds: Schema.Array(Schema.String)
}).annotate({ identifier: "PersonResponse" })
export type PersonResponse = typeof PersonResponse.Type

/**
 * Everything a workspace holds about a person: `person.json` of the export's
 * ZIP, and the answer of the MCP tool `export_person`.
 *
 * @example
 * ```ts
 * const data: PersonData = {
 *   exportedAt: "2026-11-28T00:00:00.000Z", workspaceId: 1, email: "ada@example.com",
 *   contacts: [], responses: [], files: [], emailsSent: [], emailReplies: [], notesElsewhere: []
 * }
 * ```
 */
export const PersonData = Schema.Struct({
  exportedAt: Timestamp,
  workspaceId: Schema.Int,
  /** The address searched: the request's, or the contact's. */
  email: Schema.String,
  contacts: Schema.Array(
    Schema.Struct({ id: Schema.Int, email: Schema.String, name: Schema.NullOr(Schema.String), createdAt: Timestamp })
  ),
  responses: Schema.Array(PersonResponse),
  files: Schema.Array(PersonFile),
  /** E-mails sent to them: confirmations and case e-mails. */
  emailsSent: Schema.Array(
    Schema.Struct({
      id: Schema.Int,
      responseId: Schema.Int,
      kind: Schema.String,
      to: Schema.String,
      subject: Schema.String,
      text: Schema.String,
      status: Schema.String,
      createdAt: Timestamp,
      sentAt: Schema.NullOr(Timestamp),
      openedAt: Schema.NullOr(Timestamp),
      opens: Schema.Int
    })
  ),
  /** Replies received from them. */
  emailReplies: Schema.Array(
    Schema.Struct({
      id: Schema.Int,
      responseId: Schema.Int,
      from: Schema.String,
      subject: Schema.String,
      text: Schema.String,
      receivedAt: Timestamp,
      fileIds: Schema.Array(Schema.String)
    })
  ),
  /** Notes on other cases that name them (what an erasure flags): ids only, to review before handing over. */
  notesElsewhere: Schema.Array(Schema.Struct({ id: Schema.Int, responseId: Schema.Int, createdAt: Timestamp }))
}).annotate({ identifier: "PersonData", description: "Everything the workspace holds about a person." })
export type PersonData = typeof PersonData.Type

/** What {@link PersonalDataExport}'s `gather` answers: the document, and where each file's bytes are. */
export interface GatheredPersonData {
  readonly data: PersonData
  readonly blobs: ReadonlyArray<{ readonly path: string; readonly storageKey: string }>
}

/** A file name as a ZIP entry's last part: no separators, no control characters, never `.` or `..`. */
const entryName = (name: string): string => {
  const cleaned = [...name]
    .map((character) => (character === "/" || character === "\\" || /\p{Cc}/u.test(character) ? "_" : character))
    .join("")
    .trim()
  return cleaned === "" || cleaned === "." || cleaned === ".." ? "file" : cleaned
}

const iso = (date: Date | null): string | null => (date === null ? null : new Date(date).toISOString())

/**
 * Exporting a person's data in a workspace (owners and admins).
 *
 * @example
 * ```ts
 * const exporter = yield* PersonalDataExport
 * const { data } = yield* exporter.gather(actor, { email: "ada@example.com" }, "json")
 * const zip = yield* exporter.archive(actor, { email: "ada@example.com" }) // Stream<Uint8Array>
 * ```
 */
export class PersonalDataExport extends Context.Service<
  PersonalDataExport,
  {
    /** Reads everything in one snapshot and records the export (`format`: what it is handed over as). */
    readonly gather: (
      actor: Actors.Actor,
      request: PersonExportRequest,
      format: "zip" | "json"
    ) => Effect.Effect<GatheredPersonData, ContactNotFound | Forbidden | SqlError.SqlError>
    /** The ZIP: `person.json`, then each file's bytes (read from the blob store as it streams). */
    readonly archive: (
      actor: Actors.Actor,
      request: PersonExportRequest
    ) => Effect.Effect<
      Stream.Stream<Uint8Array, BlobStoreError | ZipWriter.ZipWriteFailed>,
      ContactNotFound | Forbidden | SqlError.SqlError
    >
  }
>()("@qforms/core/PersonalDataExport") {
  static readonly layer = Layer.effect(
    PersonalDataExport,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const blobStore = yield* BlobStore
      const lookup = yield* PersonLookup.make

      const read = Effect.fn("PersonalDataExport.read")(function* (
        workspaceId: number,
        request: PersonExportRequest,
        now: Date
      ) {
        const { email, contacts, responses: found } = yield* lookup.find(workspaceId, request, { lock: false })
        const responseIds = found.map((row) => row.id)
        const formIds = [...new Set(found.map((row) => row.form_id))]
        const titles = new Map(found.map((row) => [row.id, row.form_title]))
        const responses = yield* sql<{
          readonly id: number
          readonly form_id: number
          readonly submitted_at: Date
          readonly started_at: Date | null
          readonly updated_at: Date
          readonly name: string | null
          readonly email: string | null
          readonly language: string | null
          readonly source: string
          readonly stage_id: number | null
          readonly stage_name: string | null
          readonly tags: ReadonlyArray<string>
          readonly answers: unknown
          readonly finished: boolean
        }>`
          select r.id, r.form_id, r.submitted_at, r.started_at, r.updated_at, r.name, r.email, r.language, r.source,
            r.stage_id, s.name as stage_name, r.tags, r.answers, r.finished
          from responses r left join stages s on s.workspace_id = r.workspace_id and s.id = r.stage_id
          where r.workspace_id = ${workspaceId} and r.id = any(${responseIds}::int[])
          order by r.id`
        const fields = yield* sql<{
          readonly id: number
          readonly form_id: number
          readonly label: string
          readonly type: string
        }>`
          select id, form_id, label, type from fields
          where workspace_id = ${workspaceId} and form_id = any(${formIds}::int[])
          order by form_id, position, id`
        const notes = yield* sql<{
          readonly id: number
          readonly response_id: number
          readonly body: string
          readonly author: string | null
          readonly created_at: Date
        }>`
          select id, response_id, payload->>'body' as body, actor->>'name' as author, created_at from activities
          where workspace_id = ${workspaceId} and type = 'note' and response_id = any(${responseIds}::int[])
          order by id`
        const emails = yield* sql<{
          readonly id: number
          readonly response_id: number
          readonly kind: string
          readonly to_address: string
          readonly subject: string
          readonly text: string
          readonly status: string
          readonly created_at: Date
          readonly sent_at: Date | null
          readonly opened_at: Date | null
          readonly opens: number
        }>`
          select id, response_id, kind, to_address, subject, text, status, created_at, sent_at, opened_at, opens
          from response_emails
          where workspace_id = ${workspaceId}
            and (lower(to_address) = lower(${email}) or response_id = any(${responseIds}::int[]))
          order by id`
        const replies = yield* sql<{
          readonly id: number
          readonly response_id: number
          readonly from_address: string
          readonly subject: string
          readonly text: string
          readonly received_at: Date
          readonly file_ids: ReadonlyArray<string>
        }>`
          select id, response_id, from_address, subject, text, received_at, file_ids from response_replies
          where workspace_id = ${workspaceId}
            and (lower(from_address) = lower(${email}) or response_id = any(${responseIds}::int[]))
          order by id`
        const replyFileIds = replies.flatMap((row) => row.file_ids)
        const files = yield* sql<{
          readonly id: string
          readonly response_id: number | null
          readonly form_id: number
          readonly field_id: number
          readonly name: string
          readonly size: number
          readonly type: string
          readonly storage_key: string
          readonly created_at: Date
        }>`
          select id, response_id, form_id, field_id, name, size, type, storage_key, created_at from files
          where workspace_id = ${workspaceId}
            and (response_id = any(${responseIds}::int[]) or id = any(${replyFileIds}::text[]))
          order by response_id, created_at, id`
        // Notes on other cases that name them, found as the erasure finds them.
        const needles = [
          ...new Set(
            [email, ...contacts.map((row) => row.name), ...found.map((row) => row.name)]
              .filter((text): text is string => text !== null && text.trim().length >= 3)
              .map((text) => text.trim().toLowerCase())
          )
        ]
        const elsewhere = yield* sql<{ readonly id: number; readonly response_id: number; readonly created_at: Date }>`
          select id, response_id, created_at from activities
          where workspace_id = ${workspaceId} and type = 'note' and not (response_id = any(${responseIds}::int[]))
            and exists (
              select 1 from unnest(${needles}::text[]) as n(needle)
              where strpos(lower(payload->>'body'), n.needle) > 0
            )
          order by id`

        const fieldsById = new Map(fields.map((row) => [row.id, row]))
        const fieldsOfForm = (formId: number) => fields.filter((row) => row.form_id === formId)
        const usedPaths = new Set<string>()
        const personFiles = files.map((row): PersonFile & { readonly storageKey: string } => {
          const folder = `files/${row.response_id ?? "unattached"}/`
          let path = `${folder}${entryName(row.name)}`
          if (usedPaths.has(path)) path = `${folder}${row.id}-${entryName(row.name)}`
          usedPaths.add(path)
          return {
            id: row.id,
            responseId: row.response_id,
            formId: row.form_id,
            question: row.field_id === 0 ? null : (fieldsById.get(row.field_id)?.label ?? null),
            name: row.name,
            size: row.size,
            type: row.type,
            createdAt: new Date(row.created_at).toISOString(),
            path,
            downloadPath: `/api/files/${encodeURIComponent(row.id)}`,
            storageKey: row.storage_key
          }
        })

        const data: PersonData = {
          exportedAt: now.toISOString(),
          workspaceId,
          email,
          contacts: contacts.map((row) => ({
            id: row.id,
            email: row.email,
            name: row.name,
            createdAt: new Date(row.created_at).toISOString()
          })),
          responses: responses.map((row): PersonResponse => {
            const values: Record<string, unknown> =
              row.answers !== null && typeof row.answers === "object" ? { ...(row.answers as object) } : {}
            const answers = fieldsOfForm(row.form_id)
              .filter((field) => Object.hasOwn(values, String(field.id)))
              .map((field): { key: string; question: string | null; type: string | null; value: unknown } => ({
                key: String(field.id),
                question: field.label,
                type: field.type,
                value: values[String(field.id)]
              }))
            const known = new Set(answers.map((answer) => answer.key))
            for (const key of Object.keys(values)) {
              if (!known.has(key)) answers.push({ key, question: null, type: null, value: values[key] })
            }
            return {
              id: row.id,
              formId: row.form_id,
              formTitle: titles.get(row.id) ?? "",
              status: row.finished ? "submitted" : "partial",
              submittedAt: row.finished ? iso(row.submitted_at) : null,
              startedAt: iso(row.started_at),
              updatedAt: new Date(row.updated_at).toISOString(),
              name: row.name,
              email: row.email,
              language: row.language,
              source: row.source,
              stage:
                row.stage_id === null || row.stage_name === null ? null : { id: row.stage_id, name: row.stage_name },
              tags: row.tags,
              answers,
              notes: notes
                .filter((note) => note.response_id === row.id)
                .map((note) => ({
                  id: note.id,
                  body: note.body,
                  author: note.author,
                  createdAt: new Date(note.created_at).toISOString()
                })),
              fileIds: personFiles.filter((file) => file.responseId === row.id).map((file) => file.id)
            }
          }),
          files: personFiles.map(({ storageKey: _, ...file }) => file),
          emailsSent: emails.map((row) => ({
            id: row.id,
            responseId: row.response_id,
            kind: row.kind,
            to: row.to_address,
            subject: row.subject,
            text: row.text,
            status: row.status,
            createdAt: new Date(row.created_at).toISOString(),
            sentAt: iso(row.sent_at),
            openedAt: iso(row.opened_at),
            opens: row.opens
          })),
          emailReplies: replies.map((row) => ({
            id: row.id,
            responseId: row.response_id,
            from: row.from_address,
            subject: row.subject,
            text: row.text,
            receivedAt: new Date(row.received_at).toISOString(),
            fileIds: row.file_ids
          })),
          notesElsewhere: elsewhere.map((row) => ({
            id: row.id,
            responseId: row.response_id,
            createdAt: new Date(row.created_at).toISOString()
          }))
        }
        return {
          data,
          blobs: personFiles.map((file) => ({ path: file.path, storageKey: file.storageKey }))
        } satisfies GatheredPersonData
      })

      const gather = Effect.fn("PersonalDataExport.gather")(function* (
        actor: Actors.Actor,
        request: PersonExportRequest,
        format: "zip" | "json"
      ) {
        yield* Actors.requireAdmin(actor)
        const now = new Date(yield* Clock.currentTimeMillis)
        const salt = randomBytes(16).toString("hex")
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            // One snapshot for every statement (PostgreSQL and PGlite alike).
            yield* sql.unsafe("set transaction isolation level repeatable read")
            const gathered = yield* read(actor.workspaceId, request, now)
            const { data } = gathered
            // Who exported how much, never whom: counts and a salted hash of the address.
            yield* AuditLog.record(sql, actor, {
              action: "privacy.export",
              details: {
                format,
                responses: data.responses.length,
                partialResponses: data.responses.filter((row) => row.status === "partial").length,
                files: data.files.length,
                emailsSent: data.emailsSent.length,
                emailReplies: data.emailReplies.length,
                contacts: data.contacts.length,
                notes: data.responses.reduce((sum, row) => sum + row.notes.length, 0),
                subjectSalt: salt,
                subjectHash: subjectHash(salt, data.email)
              }
            })
            return gathered
          })
        )
      })

      const archive = Effect.fn("PersonalDataExport.archive")(function* (
        actor: Actors.Actor,
        request: PersonExportRequest
      ) {
        const { data, blobs } = yield* gather(actor, request, "zip")
        const entries: ReadonlyArray<ZipWriter.ZipEntry<BlobStoreError>> = [
          ZipWriter.text("person.json", `${JSON.stringify(data, null, 2)}\n`),
          ...blobs.map(({ path, storageKey }) => ({
            name: path,
            content: Stream.unwrap(
              blobStore
                .get(storageKey)
                .pipe(
                  Effect.catchTag("BlobNotFound", (missing) =>
                    Effect.fail(new BlobStoreError({ message: `the bytes of ${path} are missing: ${missing.message}` }))
                  )
                )
            )
          }))
        ]
        return ZipWriter.archive(entries)
      })

      return PersonalDataExport.of({ gather, archive })
    })
  )
}
