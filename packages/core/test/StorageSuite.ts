/**
 * The storage contract: every domain service against a real database. Written
 * once, run by `Storage.test.ts` on PGlite always and on PostgreSQL when
 * QFORMS_TEST_DATABASE_URL is set.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Schema, Stream } from "effect"
import { SqlClient } from "effect/sql"
import * as Actors from "../src/kernel/Actors.ts"
import { ApiKeys, generate as generateKey, isWellFormed } from "../src/identity/ApiKeys.ts"
import { Events } from "../src/events/Events.ts"
import type { FieldInput } from "../src/forms/Fields.ts"
import { CreateFormInput, Forms, UpdateFormInput } from "../src/forms/Forms.ts"
import { Members } from "../src/identity/Members.ts"
import { AddNoteInput, Notes } from "../src/cases/Notes.ts"
import { Responses, UpdateResponseInput } from "../src/cases/Responses.ts"
import { Stages } from "../src/forms/Stages.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import * as BlobStore from "../src/files/BlobStore.ts"
import * as Services from "../src/Services.ts"
import type { DatabaseTarget } from "@qforms/test-kit/Databases"

/** A workspace with an owner, a viewer and their actors. */
const setupWorkspace = (name: string) =>
  Effect.gen(function* () {
    const workspaces = yield* Workspaces
    const members = yield* Members
    const { workspace, ownerAccountId } = yield* workspaces.create({
      name,
      ownerEmail: `owner-${name}@example.com`,
      ownerName: `Owner ${name}`
    })
    const viewer = yield* members.add(workspace.id, { email: `viewer-${name}@example.com`, role: "viewer" })
    const owner = Actors.member({
      workspaceId: workspace.id,
      accountId: ownerAccountId,
      role: "owner",
      name: `Owner ${name}`,
      via: "api_key"
    })
    const viewerActor = Actors.member({
      workspaceId: workspace.id,
      accountId: viewer.accountId,
      role: "viewer",
      name: null,
      via: "api_key"
    })
    return { workspace, ownerAccountId, owner, viewer: viewerActor, viewerAccountId: viewer.accountId }
  })

const contactFields: ReadonlyArray<FieldInput> = [
  { type: "short_text", label: "Name", required: true, options: null },
  { type: "email", label: "Email", required: true, options: null },
  { type: "select", label: "Plan", required: false, options: { choices: ["Free", "Pro"] } },
  { type: "long_text", label: "Message", required: false, options: null }
]

/** A published form with the contact questions; returns it with its fields. */
const publishedForm = (actor: Actors.Actor, title = "Contact") =>
  Effect.gen(function* () {
    const forms = yield* Forms
    const created = yield* forms.create(actor, { title, fields: contactFields })
    yield* forms.update(actor, created.id, { status: "published" })
    const form = yield* forms.get(actor, created.id)
    const [name, email, plan, message] = form.fields
    return { form, ids: { name: name!.id, email: email!.id, plan: plan!.id, message: message!.id } }
  })

const decode =
  <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) =>
  (input: unknown) =>
    Schema.decodeUnknownExit(schema)(input)

export const storageSuite = (target: DatabaseTarget) =>
  describe(`storage contract on ${target.name}`, () => {
    it.layer(Services.layer.pipe(Layer.provideMerge(target.layer()), Layer.provideMerge(BlobStore.layerTemporary)), {
      excludeTestServices: true
    })((it) => {
      describe("Workspaces and Members", () => {
        it.effect("creates a workspace with its owner and lists members", () =>
          Effect.gen(function* () {
            const { workspace, ownerAccountId } = yield* setupWorkspace("alpha")
            const members = yield* (yield* Members).list(workspace.id)
            expect(members).toHaveLength(2)
            expect(members.find((m) => m.accountId === ownerAccountId)).toMatchObject({
              role: "owner",
              email: "owner-alpha@example.com",
              name: "Owner alpha"
            })
            const workspaces = yield* (yield* Workspaces).list
            expect(workspaces.map((w) => w.id)).toContain(workspace.id)
          })
        )

        it.effect("a member of another workspace is not found", () =>
          Effect.gen(function* () {
            const a = yield* setupWorkspace("members-a")
            const b = yield* setupWorkspace("members-b")
            const error = yield* Effect.flip((yield* Members).get(b.workspace.id, a.ownerAccountId))
            expect(error._tag).toBe("MemberNotFound")
          })
        )
      })

      describe("ApiKeys", () => {
        it.effect("issues a key that authenticates as its member, until revoked", () =>
          Effect.gen(function* () {
            const keys = yield* ApiKeys
            const { workspace, viewerAccountId } = yield* setupWorkspace("keys")
            const { apiKey, key } = yield* keys.create(workspace.id, { accountId: viewerAccountId, name: "CI" })
            expect(key).toMatch(/^qk_live_[0-9A-Za-z]{49}$/)
            expect(isWellFormed(key)).toBe(true)
            expect(key.startsWith(apiKey.prefix)).toBe(true)
            const actor = yield* keys.authenticate(key)
            expect(actor).toMatchObject({ workspaceId: workspace.id, accountId: viewerAccountId, role: "viewer" })
            const listed = yield* keys.list(workspace.id)
            expect(listed[0]!.lastUsedAt).not.toBeNull()
            // The key itself is never stored, only its hash.
            const sql = yield* SqlClient.SqlClient
            const stored = yield* sql<{ readonly hash: string }>`select hash from api_keys where id = ${apiKey.id}`
            expect(stored[0]!.hash).not.toContain(key.slice(8, 20))
            yield* keys.revoke(workspace.id, apiKey.id)
            const error = yield* Effect.flip(keys.authenticate(key))
            expect(error).toMatchObject({ _tag: "InvalidApiKey", message: "this API key has been revoked" })
          })
        )

        it.effect("rejects empty, malformed, mistyped and unknown keys", () =>
          Effect.gen(function* () {
            const keys = yield* ApiKeys
            const { workspace, ownerAccountId } = yield* setupWorkspace("badkeys")
            const { key } = yield* keys.create(workspace.id, { accountId: ownerAccountId })
            const typo = key.slice(0, 20) + (key[20] === "a" ? "b" : "a") + key.slice(21)
            expect(isWellFormed(typo)).toBe(false)
            const messages = yield* Effect.forEach(["", "qk_live_short", typo, generateKey()], (candidate) =>
              Effect.map(Effect.flip(keys.authenticate(candidate)), (e) => e.message)
            )
            expect(messages).toEqual([
              "missing API key: send Authorization: Bearer qk_live_...",
              "malformed API key",
              "malformed API key",
              "unknown API key"
            ])
          })
        )

        it.effect("a key of another workspace cannot be revoked, and a non-member gets no key", () =>
          Effect.gen(function* () {
            const keys = yield* ApiKeys
            const a = yield* setupWorkspace("revoke-a")
            const b = yield* setupWorkspace("revoke-b")
            const { apiKey } = yield* keys.create(a.workspace.id, { accountId: a.ownerAccountId })
            expect((yield* Effect.flip(keys.revoke(b.workspace.id, apiKey.id)))._tag).toBe("ApiKeyNotFound")
            expect((yield* Effect.flip(keys.create(b.workspace.id, { accountId: a.ownerAccountId })))._tag).toBe(
              "MemberNotFound"
            )
          })
        )
      })

      describe("Forms", () => {
        it.effect("creates a draft with questions and default stages; lists newest change first", () =>
          Effect.gen(function* () {
            const forms = yield* Forms
            const { owner } = yield* setupWorkspace("forms")
            const first = yield* forms.create(owner, { title: "First", fields: contactFields })
            const second = yield* forms.create(owner, { description: "no title given" })
            expect(first).toMatchObject({ status: "draft", title: "First", responseCount: 0, folderId: null })
            expect(first.publicId).toMatch(/^[A-Za-z0-9_-]{20}$/)
            expect(second.title).toBe("Untitled form")
            const full = yield* forms.get(owner, first.id)
            expect(full.fields.map((f) => [f.label, f.type, f.position])).toEqual([
              ["Name", "short_text", 0],
              ["Email", "email", 1],
              ["Plan", "select", 2],
              ["Message", "long_text", 3]
            ])
            const stages = yield* (yield* Stages).list(owner, first.id)
            expect(stages.map((s) => [s.name, s.isClosed])).toEqual([
              ["New", false],
              ["In progress", false],
              ["Done", true]
            ])
            yield* Effect.sleep("5 millis")
            yield* forms.update(owner, first.id, { title: "First, renamed" })
            const list = yield* forms.list(owner)
            expect(list.map((f) => f.id)).toEqual([first.id, second.id])
          })
        )

        it.effect("a title over 200 characters is refused by the input schema", () =>
          Effect.sync(() => {
            const exit = decode(CreateFormInput)({ title: "x".repeat(201) })
            assert(Exit.isFailure(exit))
            expect(String(exit.cause)).toContain("title must be at most 200 characters")
            expect(Exit.isSuccess(decode(CreateFormInput)({ title: "x".repeat(200) }))).toBe(true)
            expect(Exit.isFailure(decode(UpdateFormInput)({ status: "archived" }))).toBe(true)
          })
        )

        it.effect("replacing questions keeps those that keep their id, and their answers", () =>
          Effect.gen(function* () {
            const forms = yield* Forms
            const responses = yield* Responses
            const { owner } = yield* setupWorkspace("replace")
            const { form, ids } = yield* publishedForm(owner)
            const row = yield* responses.submit(
              owner,
              form.id,
              {
                values: { [ids.name]: "Ada", [ids.email]: "ada@example.com", [ids.plan]: "Pro" }
              },
              "api"
            )
            yield* forms.update(owner, form.id, {
              fields: [
                { id: ids.email, type: "email", label: "Work email", required: true, options: null },
                { type: "yes_no", label: "Subscribe?", required: false, options: null },
                { id: ids.name, type: "short_text", label: "Name", required: true, options: null }
              ]
            })
            const after = yield* forms.get(owner, form.id)
            expect(after.fields.map((f) => [f.id === ids.email, f.id === ids.name, f.label, f.position])).toEqual([
              [true, false, "Work email", 0],
              [false, false, "Subscribe?", 1],
              [false, true, "Name", 2]
            ])
            const list = yield* responses.list(owner, form.id, { flat: true })
            expect(list.responses[0]!.id).toBe(row.id)
            expect(list.responses[0]!.answers).toEqual({ "Work email": "ada@example.com", Name: "Ada" })
            const bad = yield* Effect.flip(
              forms.update(owner, form.id, {
                fields: [{ id: 999_999, type: "email", label: "Nope", required: false, options: null }]
              })
            )
            expect(bad).toMatchObject({
              _tag: "InvalidInput",
              message: `fields.0.id: question 999999 is not in form ${form.id}`
            })
          })
        )

        it.effect("another workspace's form does not exist for the actor", () =>
          Effect.gen(function* () {
            const forms = yield* Forms
            const a = yield* setupWorkspace("forms-a")
            const b = yield* setupWorkspace("forms-b")
            const form = yield* forms.create(a.owner, { title: "Private" })
            const attempts: ReadonlyArray<Effect.Effect<unknown, { readonly _tag: string }>> = [
              forms.get(b.owner, form.id),
              forms.getSummary(b.owner, form.id),
              forms.update(b.owner, form.id, { title: "Stolen" }),
              forms.remove(b.owner, form.id),
              (yield* Stages).list(b.owner, form.id),
              (yield* Responses).list(b.owner, form.id)
            ]
            for (const attempt of attempts) {
              expect((yield* Effect.flip(attempt))._tag).toBe("FormNotFound")
            }
            expect((yield* forms.list(b.owner)).map((f) => f.id)).not.toContain(form.id)
            expect((yield* forms.get(a.owner, form.id)).title).toBe("Private")
          })
        )

        it.effect("a viewer cannot change forms", () =>
          Effect.gen(function* () {
            const forms = yield* Forms
            const { owner, viewer } = yield* setupWorkspace("viewer-forms")
            const form = yield* forms.create(owner, { title: "Mine" })
            expect((yield* Effect.flip(forms.create(viewer, {})))._tag).toBe("Forbidden")
            expect((yield* Effect.flip(forms.update(viewer, form.id, { title: "x" })))._tag).toBe("Forbidden")
            expect((yield* Effect.flip(forms.remove(viewer, form.id)))._tag).toBe("Forbidden")
            expect((yield* forms.list(viewer)).map((f) => f.id)).toContain(form.id)
          })
        )

        it.effect("deleting a form deletes its responses, activities, stages and events", () =>
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            const { owner } = yield* setupWorkspace("delete-form")
            const { form, ids } = yield* publishedForm(owner)
            const row = yield* (yield* Responses).submit(
              owner,
              form.id,
              {
                values: { [ids.name]: "Bo", [ids.email]: "bo@example.com" }
              },
              "api"
            )
            yield* (yield* Notes).add(owner, row.id, { body: "call back" })
            yield* (yield* Forms).remove(owner, form.id)
            const counts = yield* sql<{ readonly n: number }>`
              select (select count(*)::int from responses where form_id = ${form.id})
                + (select count(*)::int from activities where response_id = ${row.id})
                + (select count(*)::int from stages where form_id = ${form.id})
                + (select count(*)::int from fields where form_id = ${form.id})
                + (select count(*)::int from events where form_id = ${form.id}) as n`
            expect(counts[0]!.n).toBe(0)
            expect((yield* Effect.flip((yield* Responses).get(owner, row.id)))._tag).toBe("ResponseNotFound")
          })
        )
      })

      describe("Stages", () => {
        it.effect("creates, renames, recolors, reorders and deletes; cases on a deleted stage go back to none", () =>
          Effect.gen(function* () {
            const stages = yield* Stages
            const responses = yield* Responses
            const { owner } = yield* setupWorkspace("stages")
            const { form, ids } = yield* publishedForm(owner)
            const created = yield* stages.create(owner, form.id, { name: "Waiting", color: "#123abc" })
            expect(created).toMatchObject({ name: "Waiting", color: "#123abc", isClosed: false })
            const renamed = yield* stages.update(owner, created.id, { name: "On hold", isClosed: true })
            expect(renamed).toMatchObject({ name: "On hold", color: "#123abc", isClosed: true })
            const all = yield* stages.list(owner, form.id)
            const order = [created.id, ...all.filter((s) => s.id !== created.id).map((s) => s.id)]
            expect((yield* stages.reorder(owner, form.id, { stageIds: order })).map((s) => s.id)).toEqual(order)
            const bad = yield* Effect.flip(stages.reorder(owner, form.id, { stageIds: order.slice(1) }))
            expect(bad._tag).toBe("InvalidInput")
            const row = yield* responses.submit(
              owner,
              form.id,
              {
                values: { [ids.name]: "Cy", [ids.email]: "cy@example.com" }
              },
              "api"
            )
            yield* responses.update(owner, row.id, { stageId: created.id })
            yield* stages.remove(owner, created.id)
            expect((yield* responses.get(owner, row.id)).response.stageId).toBeNull()
            expect((yield* Effect.flip(stages.update(owner, created.id, { name: "x" })))._tag).toBe("StageNotFound")
          })
        )

        it.effect("a stage of another workspace is not found", () =>
          Effect.gen(function* () {
            const stages = yield* Stages
            const a = yield* setupWorkspace("stages-a")
            const b = yield* setupWorkspace("stages-b")
            const form = yield* (yield* Forms).create(a.owner, {})
            const [stage] = yield* stages.list(a.owner, form.id)
            expect((yield* Effect.flip(stages.update(b.owner, stage!.id, { name: "x" })))._tag).toBe("StageNotFound")
            expect((yield* Effect.flip(stages.remove(b.owner, stage!.id)))._tag).toBe("StageNotFound")
          })
        )
      })

      describe("Responses", () => {
        it.effect("a submission stores the response, its activity and its response.created event together", () =>
          Effect.gen(function* () {
            const responses = yield* Responses
            const { workspace, owner } = yield* setupWorkspace("submit")
            const { form, ids } = yield* publishedForm(owner, "Support")
            const row = yield* responses.submit(
              owner,
              form.id,
              {
                values: {
                  [ids.name]: "  Ada Lovelace ",
                  [ids.email]: "ada@example.com",
                  [ids.plan]: "Pro",
                  [ids.message]: "Line one\nLine two"
                }
              },
              "api"
            )
            expect(row).toMatchObject({
              name: "Ada Lovelace",
              email: "ada@example.com",
              stageId: null,
              assigneeId: null,
              tags: [],
              source: "api"
            })
            expect(row.values[String(ids.name)]).toBe("Ada Lovelace")
            const events = yield* (yield* Events).list(workspace.id)
            const event = events.find((e) => e.responseId === row.id)!
            expect(event.id).toMatch(/^evt_[A-Za-z0-9_-]{22}$/)
            expect(event.payload).toEqual({
              event: "response.created",
              form: { id: form.id, title: "Support" },
              responseId: row.id,
              submittedAt: row.submittedAt,
              stage: null,
              respondent: { name: "Ada Lovelace", email: "ada@example.com" },
              answers: { Name: "Ada Lovelace", Email: "ada@example.com", Plan: "Pro", Message: "Line one\nLine two" },
              summary:
                "■ Name\nAda Lovelace\n\n■ Email\nada@example.com\n\n■ Plan\nPro\n\n■ Message\nLine one\nLine two"
            })
            const detail = yield* responses.get(owner, row.id)
            expect(detail.activities.map((a) => [a.type, a.payload])).toEqual([["created", { source: "api" }]])
            expect(detail.activities[0]!.actor).toMatchObject({ type: "member", accountId: owner.accountId })
            expect(detail.form).toEqual({ id: form.id, title: "Support", publicId: form.publicId, status: "published" })
            expect(detail.emails).toEqual([])
            expect(detail.replies).toEqual([])
            expect((yield* (yield* Forms).getSummary(owner, form.id)).responseCount).toBe(1)
          })
        )

        it.effect("nothing is stored when the transaction around a submission fails", () =>
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            const responses = yield* Responses
            const { workspace, owner } = yield* setupWorkspace("rollback")
            const { form, ids } = yield* publishedForm(owner)
            const exit = yield* sql
              .withTransaction(
                Effect.gen(function* () {
                  yield* responses.submit(
                    owner,
                    form.id,
                    { values: { [ids.name]: "Di", [ids.email]: "di@example.com" } },
                    "api"
                  )
                  return yield* Effect.fail("boom" as const)
                })
              )
              .pipe(Effect.exit)
            expect(Exit.isFailure(exit)).toBe(true)
            expect((yield* responses.list(owner, form.id)).responses).toEqual([])
            // Only the form's publication is there: the submission's event went with it.
            expect((yield* (yield* Events).list(workspace.id)).map((e) => e.type)).toEqual(["form.published"])
            const activities = yield* sql<{ readonly n: number }>`
              select count(*)::int as n from activities where workspace_id = ${workspace.id}`
            expect(activities[0]!.n).toBe(0)
          })
        )

        it.effect("only a published form accepts responses", () =>
          Effect.gen(function* () {
            const forms = yield* Forms
            const responses = yield* Responses
            const { owner, viewer } = yield* setupWorkspace("status")
            const { form, ids } = yield* publishedForm(owner)
            const values = { values: { [ids.name]: "Ed", [ids.email]: "ed@example.com" } }
            yield* forms.update(owner, form.id, { status: "closed" })
            const closed = yield* Effect.flip(responses.submit(owner, form.id, values, "api"))
            expect(closed).toMatchObject({ _tag: "Conflict" })
            expect(closed.message).toContain("closed")
            yield* forms.update(owner, form.id, { status: "draft" })
            expect((yield* Effect.flip(responses.submit(owner, form.id, values, "api")))._tag).toBe("Conflict")
            yield* forms.update(owner, form.id, { status: "published" })
            expect((yield* Effect.flip(responses.submit(viewer, form.id, values, "api")))._tag).toBe("Forbidden")
            const fromPage = yield* responses.submit(Actors.respondent(owner.workspaceId), form.id, values, "form")
            expect(fromPage.source).toBe("form")
          })
        )

        it.effect("answers are validated per question type with one message per question", () =>
          Effect.gen(function* () {
            const forms = yield* Forms
            const responses = yield* Responses
            const { owner } = yield* setupWorkspace("validate")
            const created = yield* forms.create(owner, {
              title: "Every type",
              fields: [
                { type: "email", label: "Email", required: true, options: null },
                { type: "number", label: "Age", required: false, options: { min: 18, max: 120 } },
                { type: "date", label: "Start", required: false, options: null },
                { type: "checkboxes", label: "Days", required: false, options: { choices: ["Mon", "Tue"] } },
                { type: "rating", label: "Score", required: false, options: { max: 5 } },
                { type: "yes_no", label: "Agree", required: true, options: null },
                { type: "url", label: "Site", required: false, options: null }
              ]
            })
            yield* forms.update(owner, created.id, { status: "published" })
            const [email, age, start, days, score, agree, site] = (yield* forms.get(owner, created.id)).fields
            const error = yield* Effect.flip(
              responses.submit(
                owner,
                created.id,
                {
                  values: {
                    [email!.id]: "not-an-email",
                    [age!.id]: 12,
                    [start!.id]: "2024-02-30",
                    [days!.id]: ["Sun"],
                    [score!.id]: 6,
                    [site!.id]: "ftp://example.com",
                    "99999999": "who?"
                  }
                },
                "api"
              )
            )
            assert(error._tag === "InvalidInput")
            const paths = error.details!.map((d) => d.path)
            expect(paths).toEqual(
              expect.arrayContaining([
                `values.${email!.id}`,
                `values.${age!.id}`,
                `values.${start!.id}`,
                `values.${days!.id}`,
                `values.${score!.id}`,
                `values.${agree!.id}`,
                `values.${site!.id}`,
                "values.99999999"
              ])
            )
            expect(error.details!.find((d) => d.path === `values.${email!.id}`)!.message).toBe(
              '"Email" must be an email address'
            )
            expect(error.details!.find((d) => d.path === `values.${agree!.id}`)!.message).toBe('"Agree" is required')
            const ok = yield* responses.submit(
              owner,
              created.id,
              {
                values: { [email!.id]: "a@b.co", [agree!.id]: false, [days!.id]: ["Tue", "Mon"], [score!.id]: 5 }
              },
              "api"
            )
            expect(ok.values).toEqual({
              [email!.id]: "a@b.co",
              [agree!.id]: false,
              [days!.id]: ["Mon", "Tue"],
              [score!.id]: 5
            })
          })
        )

        it.effect("responses of one e-mail link to one contact, whose name fills in", () =>
          Effect.gen(function* () {
            const forms = yield* Forms
            const responses = yield* Responses
            const sql = yield* SqlClient.SqlClient
            const { owner } = yield* setupWorkspace("contacts")
            const { form, ids } = yield* publishedForm(owner)
            const emailOnly = yield* forms.create(owner, {
              fields: [{ type: "email", label: "Your email", required: true, options: null }]
            })
            yield* forms.update(owner, emailOnly.id, { status: "published" })
            const [emailField] = (yield* forms.get(owner, emailOnly.id)).fields
            const first = yield* responses.submit(
              owner,
              form.id,
              {
                values: { [ids.name]: "Fay", [ids.email]: "Fay@Example.com" }
              },
              "api"
            )
            const second = yield* responses.submit(
              owner,
              emailOnly.id,
              {
                values: { [emailField!.id]: "fay@example.com" }
              },
              "api"
            )
            expect(second.name).toBe("Fay")
            const rows = yield* sql<{ readonly contact_id: number }>`
              select contact_id from responses where id in (${first.id}, ${second.id})`
            expect(new Set(rows.map((r) => r.contact_id)).size).toBe(1)
          })
        )

        it.effect("updates stage, assignee and tags with activities and a stage event", () =>
          Effect.gen(function* () {
            const responses = yield* Responses
            const events = yield* Events
            const { workspace, owner, viewerAccountId } = yield* setupWorkspace("triage")
            const { form, ids } = yield* publishedForm(owner, "Triage")
            const row = yield* responses.submit(
              owner,
              form.id,
              {
                values: { [ids.name]: "Gus", [ids.email]: "gus@example.com" }
              },
              "api"
            )
            const [, inProgress] = yield* (yield* Stages).list(owner, form.id)
            const result = yield* responses.update(owner, row.id, {
              stageId: inProgress!.id,
              assigneeId: viewerAccountId,
              tags: [" vip ", "VIP", "billing"]
            })
            expect(result).toEqual({
              ok: true,
              formId: form.id,
              changes: [
                { field: "stageId", from: null, to: inProgress!.id },
                { field: "assigneeId", from: null, to: viewerAccountId },
                { field: "tags", from: [], to: ["vip", "billing"] }
              ]
            })
            const stageEvents = (yield* events.list(workspace.id)).filter((e) => e.type === "response.stage_changed")
            expect(stageEvents).toHaveLength(1)
            expect(stageEvents[0]!.payload).toMatchObject({
              event: "response.stage_changed",
              responseId: row.id,
              stage: { id: inProgress!.id, name: "In progress" },
              respondent: { name: "Gus", email: "gus@example.com" }
            })
            // The same stage again: no change, no event.
            const again = yield* responses.update(owner, row.id, { stageId: inProgress!.id, tags: ["vip", "billing"] })
            expect(again.changes).toEqual([])
            expect((yield* events.list(workspace.id)).filter((e) => e.type === "response.stage_changed")).toHaveLength(
              1
            )
            const detail = yield* responses.get(owner, row.id)
            expect(detail.activities.map((a) => a.type)).toEqual([
              "tags_changed",
              "assigned",
              "stage_changed",
              "created"
            ])
            expect(detail.response).toMatchObject({ stageId: inProgress!.id, assigneeId: viewerAccountId })
            const cleared = yield* responses.update(owner, row.id, { stageId: null })
            expect(cleared.changes).toEqual([{ field: "stageId", from: inProgress!.id, to: null }])
            expect((yield* events.list(workspace.id)).at(-1)!.payload).toMatchObject({
              event: "response.stage_changed",
              stage: null
            })
          })
        )

        it.effect("refuses a stage of another form, a non-member assignee, bad tags and viewers", () =>
          Effect.gen(function* () {
            const responses = yield* Responses
            const a = yield* setupWorkspace("refuse-a")
            const b = yield* setupWorkspace("refuse-b")
            const { form, ids } = yield* publishedForm(a.owner)
            const other = yield* (yield* Forms).create(a.owner, { title: "Other" })
            const [otherStage] = yield* (yield* Stages).list(a.owner, other.id)
            const row = yield* responses.submit(
              a.owner,
              form.id,
              {
                values: { [ids.name]: "Hal", [ids.email]: "hal@example.com" }
              },
              "api"
            )
            const stage = yield* Effect.flip(responses.update(a.owner, row.id, { stageId: otherStage!.id }))
            expect(stage).toMatchObject({
              _tag: "InvalidInput",
              message: `stageId: stage ${otherStage!.id} does not belong to form ${form.id}`
            })
            const assignee = yield* Effect.flip(responses.update(a.owner, row.id, { assigneeId: b.ownerAccountId }))
            expect(assignee).toMatchObject({
              _tag: "InvalidInput",
              message: `assigneeId: account ${b.ownerAccountId} is not a member of this workspace`
            })
            expect(Exit.isFailure(decode(UpdateResponseInput)({ tags: ["x".repeat(31)] }))).toBe(true)
            expect(Exit.isSuccess(decode(UpdateResponseInput)({ tags: ["x".repeat(30)] }))).toBe(true)
            expect((yield* Effect.flip(responses.update(a.viewer, row.id, { tags: ["x"] })))._tag).toBe("Forbidden")
            expect((yield* Effect.flip(responses.update(b.owner, row.id, { tags: ["x"] })))._tag).toBe(
              "ResponseNotFound"
            )
            expect((yield* Effect.flip(responses.get(b.owner, row.id)))._tag).toBe("ResponseNotFound")
            expect((yield* Effect.flip(responses.remove(b.owner, row.id)))._tag).toBe("ResponseNotFound")
            expect((yield* Effect.flip((yield* Notes).add(b.owner, row.id, { body: "x" })))._tag).toBe(
              "ResponseNotFound"
            )
            // Nothing changed by the refused updates.
            expect((yield* responses.get(a.owner, row.id)).activities.map((x) => x.type)).toEqual(["created"])
          })
        )

        it.effect("q with an e-mail address matches the search text as any other q does", () =>
          Effect.gen(function* () {
            const responses = yield* Responses
            const { owner } = yield* setupWorkspace("email-search")
            const { form, ids } = yield* publishedForm(owner)
            const submit = (name: string, email: string, message: string) =>
              Effect.tap(
                responses.submit(
                  owner,
                  form.id,
                  {
                    values: { [ids.name]: name, [ids.email]: email, [ids.message]: message }
                  },
                  "api"
                ),
                () => Effect.sleep("3 millis")
              )
            const ann = yield* submit("Ann", "ann.lee@example.com", "hello")
            const xann = yield* submit("Xan", "xann.lee@example.com", "a longer address around the same one")
            const cy = yield* submit("Cy", "cy@example.com", "Forwarded from ANN.LEE@EXAMPLE.COM, please call")
            const under = yield* submit("Di", "ann_lee@example.com", "an underscore, not a wildcard")
            const anna = yield* submit("Anna", "Anna@Example.org", "another domain")
            const ids_ = (list: { readonly responses: ReadonlyArray<{ readonly id: number }> }) =>
              list.responses.map((r) => r.id)
            const search = (q: string) => Effect.map(responses.list(owner, form.id, { q }), ids_)
            // The address itself, in another address, and in an answer; any case.
            expect(yield* search("ann.lee@example.com")).toEqual([cy.id, xann.id, ann.id])
            expect(yield* search("  Ann.Lee@Example.COM ")).toEqual([cy.id, xann.id, ann.id])
            expect(yield* search("ann.lee@")).toEqual([cy.id, xann.id, ann.id])
            expect(yield* search("ann.lee@example")).toEqual([cy.id, xann.id, ann.id])
            // `_` and `%` are plain characters, before and after the @.
            expect(yield* search("ann_lee@example.com")).toEqual([under.id])
            expect(yield* search("ann%lee@example.com")).toEqual([])
            expect(yield* search("ann.lee@example_com")).toEqual([])
            // The part before the @ alone would match more: the whole of q decides.
            expect(yield* search("lee@example.com")).toEqual([under.id, cy.id, xann.id, ann.id])
            expect(yield* search("ann.lee@example.org")).toEqual([])
            expect(yield* search("anna@example.org")).toEqual([anna.id])
            // Too short before the @ for the index, or nothing before it: the same rows all the same.
            expect(yield* search("y@example.com")).toEqual([cy.id])
            expect(yield* search("@example.org")).toEqual([anna.id])
            expect(yield* search("@example.com")).toEqual([under.id, cy.id, xann.id, ann.id])
            expect(yield* search("ann.lee@@example.com")).toEqual([])
            // The page of the newest matches, and its cursor, as for any filter.
            const page1 = yield* responses.list(owner, form.id, { q: "ann.lee@example.com", limit: 2 })
            expect(ids_(page1)).toEqual([cy.id, xann.id])
            const page2 = yield* responses.list(owner, form.id, {
              q: "ann.lee@example.com",
              limit: 2,
              cursor: page1.nextCursor!
            })
            expect(ids_(page2)).toEqual([ann.id])
          })
        )

        it.effect("filters by text, stage, assignee, tag and time, newest first, with keyset pages", () =>
          Effect.gen(function* () {
            const responses = yield* Responses
            const { owner, ownerAccountId } = yield* setupWorkspace("filters")
            const { form, ids } = yield* publishedForm(owner)
            const [newStage] = yield* (yield* Stages).list(owner, form.id)
            const submit = (name: string, message: string) =>
              Effect.tap(
                responses.submit(
                  owner,
                  form.id,
                  {
                    values: {
                      [ids.name]: name,
                      [ids.email]: `${name.toLowerCase()}@example.com`,
                      [ids.message]: message
                    }
                  },
                  "api"
                ),
                () => Effect.sleep("3 millis")
              )
            const ivy = yield* submit("Ivy", "The invoice is wrong")
            const jon = yield* submit("Jon", "100% satisfied_really")
            const kim = yield* submit("Kim", "Please call me")
            yield* responses.update(owner, ivy.id, { stageId: newStage!.id, tags: ["billing"] })
            yield* responses.update(owner, kim.id, { assigneeId: ownerAccountId, tags: ["urgent", "billing"] })
            const ids_ = (list: { readonly responses: ReadonlyArray<{ readonly id: number }> }) =>
              list.responses.map((r) => r.id)
            expect(ids_(yield* responses.list(owner, form.id))).toEqual([kim.id, jon.id, ivy.id])
            expect(ids_(yield* responses.list(owner, form.id, { q: "INVOICE" }))).toEqual([ivy.id])
            expect(ids_(yield* responses.list(owner, form.id, { q: "jon@example" }))).toEqual([jon.id])
            expect(ids_(yield* responses.list(owner, form.id, { q: "urgent" }))).toEqual([kim.id])
            expect(ids_(yield* responses.list(owner, form.id, { q: "100%" }))).toEqual([jon.id])
            expect(ids_(yield* responses.list(owner, form.id, { q: "d_r" }))).toEqual([jon.id])
            expect(ids_(yield* responses.list(owner, form.id, { q: "%" }))).toEqual([jon.id])
            expect(ids_(yield* responses.list(owner, form.id, { stage: newStage!.id }))).toEqual([ivy.id])
            expect(ids_(yield* responses.list(owner, form.id, { stage: "none" }))).toEqual([kim.id, jon.id])
            expect(ids_(yield* responses.list(owner, form.id, { assignee: ownerAccountId }))).toEqual([kim.id])
            expect(ids_(yield* responses.list(owner, form.id, { assignee: "none" }))).toEqual([jon.id, ivy.id])
            expect(ids_(yield* responses.list(owner, form.id, { tag: "billing" }))).toEqual([kim.id, ivy.id])
            expect(ids_(yield* responses.list(owner, form.id, { from: new Date(jon.submittedAt) }))).toEqual([
              kim.id,
              jon.id
            ])
            expect(ids_(yield* responses.list(owner, form.id, { to: new Date(jon.submittedAt) }))).toEqual([
              jon.id,
              ivy.id
            ])
            const all = yield* responses.list(owner, form.id)
            expect(all.allTags).toEqual(["billing", "urgent"])
            expect(all.members.map((m) => m.accountId)).toContain(ownerAccountId)
            expect(all.stages).toHaveLength(3)
            expect(all.nextCursor).toBeNull()
            const page1 = yield* responses.list(owner, form.id, { limit: 2 })
            expect(ids_(page1)).toEqual([kim.id, jon.id])
            const page2 = yield* responses.list(owner, form.id, { limit: 2, cursor: page1.nextCursor! })
            expect(ids_(page2)).toEqual([ivy.id])
            expect(page2.nextCursor).toBeNull()
            const badCursor = yield* Effect.flip(responses.list(owner, form.id, { cursor: "garbage" }))
            expect(badCursor._tag).toBe("InvalidInput")
            const flat = yield* responses.list(owner, form.id, { flat: true, limit: 1 })
            expect(flat.responses[0]!.summary).toBe(
              "■ Name\nKim\n\n■ Email\nkim@example.com\n\n■ Message\nPlease call me"
            )
            expect((yield* responses.list(owner, form.id)).responses[0]!.answers).toBeUndefined()
            // A tag no response carries any more leaves allTags.
            yield* responses.update(owner, kim.id, { tags: ["billing"] })
            expect((yield* responses.list(owner, form.id)).allTags).toEqual(["billing"])
            yield* responses.remove(owner, ivy.id)
            yield* responses.remove(owner, kim.id)
            expect((yield* responses.list(owner, form.id)).allTags).toEqual([])
          })
        )

        it.effect("streams a whole list in keyset pages, newest first, with its filters", () =>
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            const responses = yield* Responses
            const { owner } = yield* setupWorkspace("stream")
            const { form } = yield* publishedForm(owner)
            // 1203 rows in pages of 500, with equal timestamps in runs of 3 to exercise the id tie-break.
            yield* sql`
              insert into responses (workspace_id, form_id, submitted_at, updated_at, name, email, tags, source,
                answers, search_text)
              select ${owner.workspaceId}, ${form.id}, timestamptz '2026-01-01' + (g / 3) * interval '1 second', now(),
                'P' || g, null, case when g % 2 = 0 then array['even'] else '{}'::text[] end, 'import', '{}'::jsonb, ''
              from generate_series(1, 1203) g`
            const { head, rows } = yield* responses.stream(owner, form.id)
            expect(head.form.id).toBe(form.id)
            const all = Array.from(yield* Stream.runCollect(rows))
            expect(all).toHaveLength(1203)
            const keys = all.map((r) => [r.submittedAt, r.id] as const)
            const sorted = [...keys].sort((a, b) => (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : b[1] - a[1]))
            expect(keys).toEqual(sorted)
            expect(new Set(all.map((r) => r.id)).size).toBe(1203)
            const even = Array.from(
              yield* Stream.runCollect((yield* responses.stream(owner, form.id, { tag: "even" })).rows)
            )
            expect(even).toHaveLength(601)
          })
        )

        it.effect("deletes a response", () =>
          Effect.gen(function* () {
            const responses = yield* Responses
            const { owner, viewer } = yield* setupWorkspace("delete-response")
            const { form, ids } = yield* publishedForm(owner)
            const row = yield* responses.submit(
              owner,
              form.id,
              {
                values: { [ids.name]: "Lu", [ids.email]: "lu@example.com" }
              },
              "api"
            )
            expect((yield* Effect.flip(responses.remove(viewer, row.id)))._tag).toBe("Forbidden")
            expect((yield* (yield* Forms).getSummary(owner, form.id)).responseCount).toBe(1)
            yield* responses.remove(owner, row.id)
            expect((yield* (yield* Forms).getSummary(owner, form.id)).responseCount).toBe(0)
            expect((yield* Effect.flip(responses.get(owner, row.id)))._tag).toBe("ResponseNotFound")
          })
        )
      })

      describe("Notes", () => {
        it.effect("adds an internal note that shows in the timeline", () =>
          Effect.gen(function* () {
            const { owner, viewer } = yield* setupWorkspace("notes")
            const { form, ids } = yield* publishedForm(owner)
            const row = yield* (yield* Responses).submit(
              owner,
              form.id,
              {
                values: { [ids.name]: "Mo", [ids.email]: "mo@example.com" }
              },
              "api"
            )
            const note = yield* (yield* Notes).add(owner, row.id, { body: "Sent the refund." })
            expect(note).toMatchObject({ responseId: row.id, type: "note", payload: { body: "Sent the refund." } })
            const timeline = (yield* (yield* Responses).get(owner, row.id)).activities
            expect(timeline[0]).toMatchObject({ id: note.id, type: "note", payload: { body: "Sent the refund." } })
            expect((yield* Effect.flip((yield* Notes).add(viewer, row.id, { body: "x" })))._tag).toBe("Forbidden")
            expect(Exit.isFailure(decode(AddNoteInput)({ body: "" }))).toBe(true)
            expect(Exit.isFailure(decode(AddNoteInput)({ body: "x".repeat(5001) }))).toBe(true)
            expect(Exit.isSuccess(decode(AddNoteInput)({ body: "x".repeat(5000) }))).toBe(true)
          })
        )
      })
    })
  })
