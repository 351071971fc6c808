/**
 * Round trips to PostgreSQL per request, counted on the wire by a proxy
 * (`@qforms/test-kit/PgWire`), so a change that adds a statement to a hot
 * path fails here, not only in the benchmark. PostgreSQL only (PGlite runs in
 * the process: there is no wire to count). The budget of each request in
 * statements, transactions and rows, on both databases, is `WorkBudget.test.ts`.
 *
 * The counts are what each request needs, nothing more. A form once read is
 * kept in memory (forms/FormCache.ts) until it changes, and so is an API key
 * once checked (identity/ApiKeyCache.ts), so:
 * - submit: the contact with the new response's id, then one
 *   statement writing the response (queued for the fold of its count and
 *   tallies), its activity, its event, the event's deliveries and the
 *   NOTIFYs (a statement is a transaction of its
 *   own: no BEGIN/COMMIT); plus the form's own read when it is not cached;
 * - GET a form: nothing (the form's read when it is not cached);
 * - the public page: nothing once its form is cached; its JSON submission:
 *   the contact and id, and the write.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Qforms from "../src/Qforms.ts"
import { postgresUrl } from "@qforms/test-kit/Databases"
import { waitFor } from "@qforms/test-kit/Conditions"
import { apiOf } from "@qforms/test-kit/InProcessApi"
import { type RoundTripCounter, startRoundTripCounter } from "@qforms/test-kit/PgWire"
import { ownerKey } from "@qforms/test-kit/Seeds"

describe.skipIf(postgresUrl === undefined)("round trips per request (postgres)", () => {
  let counter: RoundTripCounter
  let qforms: Qforms.Qforms
  const schema = `qforms_round_trips_${process.pid}`
  let key: string
  let formId: number
  let publicId: string
  let fieldIds: { name: number; email: number; note: number }

  const get = () =>
    qforms.handler(
      new Request(`http://qforms.test/api/forms/${formId}`, { headers: { authorization: `Bearer ${key}` } })
    )

  beforeAll(async () => {
    counter = await startRoundTripCounter(postgresUrl!)
    qforms = await Qforms.make({
      database: { url: counter.url, schema },
      appUrl: "https://forms.example.com",
      // The subscription below points at a loopback address nobody posts to: no worker runs.
      delivery: { worker: false, allowPrivateTargets: true },
      publicPage: { minSubmitSeconds: 0, submissionRateLimit: { requestsPerSecond: 1000, burst: 1000 } }
    })
    key = await qforms.run(ownerKey({ name: "Trips" }))
    const api = apiOf(qforms, key)
    const form = await api("POST", "/forms", {
      title: "Trips",
      fields: [
        { type: "short_text", label: "Name", required: true },
        { type: "email", label: "Email" },
        { type: "long_text", label: "Note" }
      ]
    })
    formId = form.json.id
    publicId = form.json.publicId
    const [name, email, note] = (form.json.fields as ReadonlyArray<{ id: number }>).map((f) => f.id)
    fieldIds = { name: name!, email: email!, note: note! }
    expect((await api("PATCH", `/forms/${formId}`, { status: "published" })).status).toBe(200)
    expect(
      (
        await api("POST", "/webhooks/subscribe", {
          formId,
          event: "response.created",
          targetUrl: "http://127.0.0.1:9/in"
        })
      ).status
    ).toBe(201)
    // The caches start once the process hears its own notice: wait for a read served from memory.
    await waitFor(async () => {
      counter.reset()
      expect((await get()).status).toBe(200)
      return counter.count() === 0
    })
  })

  afterAll(async () => {
    await qforms?.dispose()
    await counter?.close()
    const { default: pg } = await import("pg")
    const client = new pg.Client({ connectionString: postgresUrl })
    await client.connect()
    await client.query(`drop schema if exists "${schema}" cascade`)
    await client.end()
  })

  /**
   * The round trips of one request: the fewest over three tries, so a timer's
   * statement (a sweep, a lease) that lands in one try does not count.
   */
  const tripsOf = async (send: () => Promise<Response>, status: number) => {
    const counts: Array<number> = []
    for (let i = 0; i < 3; i++) {
      counter.reset()
      const response = await send()
      const body = await response.text()
      expect(response.status, body).toBe(status)
      counts.push(counter.count())
    }
    return Math.min(...counts)
  }

  const submit = (values: Record<string, string>) => () =>
    qforms.handler(
      new Request(`http://qforms.test/api/forms/${formId}/responses`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ values })
      })
    )

  it("a submission with an e-mail (a contact): 2 round trips", async () => {
    let n = 0
    const trips = await tripsOf(
      () =>
        submit({
          [fieldIds.name]: "Ada",
          [fieldIds.email]: `ada${n++}@example.com`,
          [fieldIds.note]: "hello"
        })(),
      201
    )
    expect(trips).toBe(2)
  })

  it("a submission without an e-mail: 2 round trips", async () => {
    expect(await tripsOf(submit({ [fieldIds.name]: "Grace" }), 201)).toBe(2)
  })

  it("a refused submission (a required answer missing) writes nothing: no round trip", async () => {
    expect(await tripsOf(submit({ [fieldIds.note]: "no name" }), 400)).toBe(0)
  })

  it("GET a form: none; after a change to the form, 1 once, then none again", async () => {
    expect(await tripsOf(get, 200)).toBe(0)
    const api = apiOf(qforms, key)
    expect((await api("PATCH", `/forms/${formId}`, { description: "changed" })).status).toBe(200)
    counter.reset()
    const first = await get()
    expect(((await first.json()) as { description: string }).description).toBe("changed")
    expect(counter.count()).toBe(1)
    expect(await tripsOf(get, 200)).toBe(0)
  })

  it("the public page: none; its JSON submission: 2", async () => {
    const page = () => qforms.handler(new Request(`http://qforms.test/f/${publicId}`))
    expect(await tripsOf(page, 200)).toBe(0)
    const post = () =>
      qforms.handler(
        new Request(`http://qforms.test/f/${publicId}/responses`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ values: { [fieldIds.name]: "Lin" } })
        })
      )
    expect(await tripsOf(post, 201)).toBe(2)
  })
})
