/**
 * What a user would pick instead of qforms' outbox worker: a pg-boss worker
 * on the same PostgreSQL posting each job's event, signed the Standard
 * Webhooks way, to the receiver; a non-2xx answer fails the job (pg-boss
 * retries it).
 *
 * Tuned as generously as a careful user would: LISTEN/NOTIFY wake-ups
 * (`useListenNotify` and a `notify` queue), batches of 16 fetched in a burst
 * while they come back full, 4 local workers each posting its batch in order
 * (so at most 4 posts in flight: qforms' own per-host limit), each job
 * settled on its own (`perJobResults`).
 *
 * Env: DATABASE_URL, PGBOSS_SCHEMA, PGBOSS_QUEUE, WEBHOOK_URL, WEBHOOK_SECRET (whsec_…),
 * PGBOSS_CONCURRENCY (local workers, default 4).
 */
import { createHmac, randomUUID } from "node:crypto"
import { PgBoss } from "pg-boss"

const queue = process.env.PGBOSS_QUEUE ?? "webhooks"
const url = process.env.WEBHOOK_URL!
const secret = Buffer.from((process.env.WEBHOOK_SECRET ?? "whsec_c2VjcmV0").replace(/^whsec_/, ""), "base64")

const boss = new PgBoss({
  connectionString: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  schema: process.env.PGBOSS_SCHEMA ?? "pgboss",
  max: 10,
  useListenNotify: true,
  schedule: false
})
boss.on("error", (error: Error) => process.stderr.write(`pg-boss: ${error.message}\n`))
await boss.start()

const post = async (id: string, data: object) => {
  const body = JSON.stringify(data)
  const timestamp = Math.floor(Date.now() / 1000)
  const signature = createHmac("sha256", secret).update(`${id}.${timestamp}.${body}`).digest("base64")
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": `v1,${signature}`
    },
    body,
    signal: AbortSignal.timeout(10_000)
  })
  await response.arrayBuffer()
  return response.ok
}

await boss.work<{ event: object; id?: string }>(
  queue,
  {
    localConcurrency: Number(process.env.PGBOSS_CONCURRENCY ?? 4),
    batchSize: 16,
    burstWhenBatchFull: true,
    pollingIntervalSeconds: 0.5,
    notifyPollingIntervalSeconds: 0.5,
    perJobResults: true
  },
  async (jobs) => {
    const results = []
    for (const job of jobs) {
      const ok = await post(job.data.id ?? randomUUID(), job.data.event).catch(() => false)
      results.push({ id: job.id, status: ok ? ("completed" as const) : ("failed" as const) })
    }
    return results
  }
)
process.stdout.write(`pg-boss worker ready (queue ${queue})\n`)

process.on("SIGTERM", () => {
  void boss.stop({ graceful: true, timeout: 5000 }).then(
    () => process.exit(0),
    () => process.exit(1)
  )
})
