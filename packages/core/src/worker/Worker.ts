/**
 * The delivery worker: claims due deliveries (several processes share the
 * work: claims skip rows another worker has locked), posts them signed, and
 * records each attempt with its outcome. It wakes on the outbox NOTIFY that a
 * committed event sends, at the next retry's due time, and on a slow poll as
 * a fallback.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import * as Random from "effect/Random"
import * as Result from "effect/Result"
import * as Schedule from "effect/Schedule"
import * as Semaphore from "effect/Semaphore"
import * as Stream from "effect/Stream"
import {
  type AttemptOutcome,
  type ClaimedDelivery,
  Deliveries,
  DeliveryConfig,
  type DeliveryTarget,
  goneReason,
  NotificationFormats,
  RetrySchedule,
  Sender,
  Signatures,
  SsrfGuard,
  WebhookAlerts
} from "../deliveries/index.ts"
import { type EventBody, outboxChannel, sentBody } from "../events/index.ts"
import { MailerModule as Mailer } from "../mail/index.ts"
import { Notifications, SqlPriority } from "../storage/index.ts"
import * as SqlClient from "effect/sql/SqlClient"
import { responseLink } from "../kernel/index.ts"

/** Options of the worker; the rest comes from `DeliveryConfig`. */
export interface WorkerOptions {
  /** Where the application is reached: each event's `link` is `{appUrl}/app/responses/{id}`. */
  readonly appUrl: string
}

/** An event's target: a webhook subscription or a notification channel. */
type EventTarget = Exclude<DeliveryTarget, { readonly kind: "email" }>

/** The body posted for an event: the stored event and its link (spec: WebhookEvent). */
export const webhookBody = (appUrl: string, target: { readonly payload: EventBody }): string =>
  sentBody(appUrl, target.payload)

/**
 * The body posted for a claimed delivery to a URL: the WebhookEvent for a
 * subscription and a `url` channel, the channel's own format otherwise.
 */
export const postBody = (appUrl: string, target: EventTarget): string => {
  if (target.kind === "webhook" || target.channelType === "url" || target.channelType === "email") {
    return webhookBody(appUrl, target)
  }
  const input = {
    payload: target.payload,
    fields: target.fields,
    link: responseLink(appUrl, target.payload.responseId)
  }
  switch (target.channelType) {
    case "slack":
      return JSON.stringify(NotificationFormats.slack(input))
    case "discord":
      return JSON.stringify(NotificationFormats.discord(input))
    case "teams":
      return JSON.stringify(NotificationFormats.teams(input))
    case "sheet":
      return JSON.stringify(NotificationFormats.sheet(input))
  }
}

/** Decides what an attempt's result means for the delivery. */
export const decide = (options: {
  readonly result: Sender.SendResult
  readonly attemptsMade: number
  readonly schedule: ReadonlyArray<number>
  readonly now: number
  readonly random: number
}): Pick<AttemptOutcome, "status" | "nextAttemptAt" | "disableSubscription"> => {
  const { result } = options
  if (result.status !== null && result.status >= 200 && result.status < 300) {
    return { status: "succeeded", nextAttemptAt: null }
  }
  // The contract: a 400 is final. Standard Webhooks: a 410 also unsubscribes.
  if (result.status === 400) return { status: "failed", nextAttemptAt: null }
  if (result.status === 410) {
    return { status: "failed", nextAttemptAt: null, disableSubscription: goneReason }
  }
  const retryAfterMs =
    result.status === 429 || result.status === 503
      ? RetrySchedule.parseRetryAfter(result.retryAfter, options.now)
      : undefined
  const delay = RetrySchedule.nextAttemptDelay(options.schedule, options.attemptsMade, {
    random: options.random,
    retryAfterMs
  })
  return delay === undefined
    ? { status: "failed", nextAttemptAt: null }
    : { status: "retrying", nextAttemptAt: new Date(options.now + delay) }
}

/** The per-host permit key all e-mails share. */
const smtpPermit = "smtp:"

/** A finished attempt waiting to be recorded. */
interface Finished {
  readonly delivery: ClaimedDelivery
  readonly outcome: AttemptOutcome
}

/** Most attempts recorded by one statement, and most waiting to be recorded (then posting waits). */
const maxBatch = 256

/**
 * Runs the worker until interrupted.
 *
 * Claims take as many due deliveries as there are free slots, in one
 * statement. Finished attempts are recorded in batches ("group commit"):
 * whatever finished while the previous batch was being written goes into the
 * next statement, so a busy worker commits once per batch, not once per post,
 * and an idle one records a lone attempt at once. A slot is a post in flight:
 * it is free again once the post is done and its outcome queued for recording
 * (posting does not wait for the commit; the delivery's lease keeps it from
 * being claimed again until its attempt is recorded). At most `maxBatch`
 * outcomes wait to be recorded; beyond that, posts wait.
 */
export const run = Effect.fnUntraced(function* (options: WorkerOptions) {
  const store = yield* Deliveries
  const alerts = yield* WebhookAlerts
  const sql = yield* SqlClient.SqlClient
  // On PGlite the worker's few statements go ahead of queued API requests (see SqlPriority).
  const deliveries: Pick<Deliveries["Service"], "claim" | "complete" | "nextDueAt"> = {
    claim: (claimOptions) => Effect.provideService(store.claim(claimOptions), SqlPriority, true),
    // A batch in which a webhook delivery gave up may raise failure alerts: in the same transaction.
    complete: (finished) => {
      const failing = [
        ...new Set(
          finished.flatMap(({ delivery, outcome }) =>
            delivery.target.kind === "webhook" && outcome.status === "failed" ? [delivery.target.subscriptionId] : []
          )
        )
      ]
      return Effect.provideService(
        failing.length === 0
          ? store.complete(finished)
          : sql.withTransaction(Effect.andThen(store.complete(finished), alerts.raise(failing))),
        SqlPriority,
        true
      )
    },
    nextDueAt: Effect.provideService(store.nextDueAt, SqlPriority, true)
  }
  const notifications = yield* Notifications
  const config = yield* DeliveryConfig
  const { maxInFlight, maxPerHost, pollIntervalMs, schedule, timeoutMs, userAgent } = config
  const allowPrivate = config.allowPrivateTargets
  // A lease outlives the longest post (the sender enforces the timeout) plus
  // the time to record it, so a live worker keeps its claim; a dead worker's
  // claims are due again this long after it died.
  const leaseMs = timeoutMs + 5_000
  const connections = yield* Sender.makeConnections({ maxDestinations: 256 })
  const mailer: Mailer.MailerService = yield* Mailer.Mailer

  const wake = yield* Queue.sliding<void>(1)
  const signal = Queue.offer(wake, undefined).pipe(Effect.asVoid)
  const hosts = new Map<string, Semaphore.Semaphore>()
  const hostPermit = (url: string) => {
    const host = URL.canParse(url) ? new URL(url).host : url
    let semaphore = hosts.get(host)
    if (semaphore === undefined) {
      // E-mails wait here, not in the SMTP pool's queue, where their time would count against the send timeout.
      semaphore = Semaphore.makeUnsafe(url === smtpPermit ? Mailer.maxConnections : maxPerHost)
      hosts.set(host, semaphore)
    }
    return semaphore
  }
  let active = 0

  /**
   * An e-mail's delivery (an `email` channel's notification, an e-mail to a
   * respondent, or a digest): one message through the mailer; a 5xx reply (or
   * no mailer) is final.
   */
  const mail = (delivery: ClaimedDelivery, message: Mailer.MailMessage) =>
    Effect.gen(function* () {
      const started = yield* Clock.currentTimeMillis
      const sent = yield* Effect.result(
        mailer.send(message).pipe(
          Effect.timeoutOrElse({
            duration: Duration.millis(timeoutMs),
            orElse: () =>
              Effect.fail({
                _tag: "MailFailed" as const,
                message: `timed out after ${timeoutMs} ms`,
                code: null,
                permanent: false
              })
          })
        )
      )
      const now = yield* Clock.currentTimeMillis
      const durationMs = now - started
      if (Result.isSuccess(sent)) {
        return {
          at: new Date(started),
          statusCode: sent.success.code,
          durationMs,
          error: null,
          responseBody: sent.success.response === "" ? null : sent.success.response,
          status: "succeeded",
          nextAttemptAt: null
        } satisfies AttemptOutcome
      }
      const failure = sent.failure
      const final = failure._tag === "MailNotConfigured" || failure.permanent
      const delay = final
        ? undefined
        : RetrySchedule.nextAttemptDelay(schedule, delivery.attempts, { random: yield* Random.next })
      return {
        at: new Date(started),
        statusCode: failure._tag === "MailFailed" ? failure.code : null,
        durationMs,
        error: failure.message,
        responseBody: null,
        ...(delay === undefined
          ? { status: "failed" as const, nextAttemptAt: null }
          : { status: "retrying" as const, nextAttemptAt: new Date(now + delay) })
      } satisfies AttemptOutcome
    })

  const attempt = (delivery: ClaimedDelivery) =>
    Effect.gen(function* () {
      const target = delivery.target
      if (target.kind === "email") {
        return yield* mail(delivery, {
          to: [target.to],
          subject: target.subject,
          text: target.text,
          html: target.html,
          replyTo: target.replyTo ?? undefined,
          messageId: target.messageId,
          headers: target.headers
        })
      }
      if (target.kind === "channel" && target.channelType === "email") {
        const message = NotificationFormats.email({
          payload: target.payload,
          fields: target.fields,
          link: responseLink(options.appUrl, target.payload.responseId)
        })
        return yield* mail(delivery, { to: target.to, ...message })
      }
      const url = target.url ?? ""
      const started = yield* Clock.currentTimeMillis
      const body = postBody(options.appUrl, target)
      const headers = Signatures.headers(target.secret, target.eventId, Math.floor(started / 1000), body)
      const vetted = yield* Effect.result(SsrfGuard.vet(url, { allowPrivate }))
      const result: Sender.SendResult = Result.isSuccess(vetted)
        ? yield* Sender.post(vetted.success, body, { ...headers }, { timeoutMs, userAgent, connections })
        : { status: null, body: "", durationMs: 0, error: vetted.failure.message, retryAfter: undefined }
      const now = yield* Clock.currentTimeMillis
      // A Google Apps Script web app runs the POST, then answers with a redirect to its output.
      const ranThenRedirected =
        target.kind === "channel" && target.channelType === "sheet" && (result.status === 302 || result.status === 303)
      // A DNS failure is retried like a refused connection; a target refused by the SSRF rules is final.
      const decision =
        Result.isSuccess(vetted) || vetted.failure._tag === "TargetUnresolved"
          ? ranThenRedirected
            ? { status: "succeeded" as const, nextAttemptAt: null }
            : decide({ result, attemptsMade: delivery.attempts, schedule, now, random: yield* Random.next })
          : { status: "failed" as const, nextAttemptAt: null }
      return {
        at: new Date(started),
        statusCode: result.status,
        durationMs: result.durationMs,
        error: result.error,
        responseBody: result.body === "" ? null : result.body,
        ...decision
      } satisfies AttemptOutcome
    })

  const finished = yield* Queue.bounded<Finished>(maxBatch)

  // One batch at a time; a batch that cannot be written is retried one
  // attempt at a time, so one bad row does not hold back the others.
  const recordBatch = Effect.gen(function* () {
    const batch = yield* Queue.takeBetween(finished, 1, maxBatch)
    yield* deliveries
      .complete(batch)
      .pipe(
        Effect.catchCause((cause) =>
          batch.length === 1
            ? Effect.logError("webhook delivery could not be recorded", cause)
            : Effect.forEach(
                batch,
                (item) =>
                  deliveries
                    .complete([item])
                    .pipe(
                      Effect.catchCause((cause) => Effect.logError("webhook delivery could not be recorded", cause))
                    ),
                { discard: true }
              )
        )
      )
    // A retry's due time counts once its lease is cleared: let the loop look again.
    if (batch.some((item) => item.outcome.status === "retrying")) yield* signal
  })
  yield* Effect.forkScoped(Effect.forever(recordBatch))

  const deliver = (delivery: ClaimedDelivery) =>
    hostPermit(delivery.target.kind !== "email" && delivery.target.url !== null ? delivery.target.url : smtpPermit)
      .withPermit(attempt(delivery))
      .pipe(
        Effect.flatMap((outcome) => Queue.offer(finished, { delivery, outcome })),
        // An unexpected failure is logged; the lease runs out and the delivery is claimed again.
        Effect.catchCause((cause) => Effect.logError("webhook delivery failed", cause)),
        Effect.ensuring(
          Effect.suspend(() => {
            active--
            return signal
          })
        )
      )

  // Wake on every committed event; if the listening connection drops, listen again.
  yield* notifications.listen(outboxChannel).pipe(
    Stream.runForEach(() => signal),
    Effect.retry(Schedule.spaced("1 second")),
    Effect.catchCause((cause) => Effect.logWarning("delivery notifications stopped", cause)),
    Effect.forkScoped
  )

  const sleepUntilWoken = (waitMs: number) =>
    Effect.raceFirst(Queue.take(wake), Effect.sleep(Duration.millis(Math.max(waitMs, 5))))

  const loop = Effect.gen(function* () {
    const free = maxInFlight - active
    // Every slot busy: a finishing delivery wakes the loop.
    if (free <= 0) return yield* sleepUntilWoken(pollIntervalMs)
    const claimed = yield* deliveries.claim({ limit: free, leaseMs })
    active += claimed.length
    for (const delivery of claimed) yield* Effect.forkScoped(deliver(delivery))
    if (claimed.length === free) return
    // Everything due is claimed; what was claimed wakes the loop when it finishes,
    // and the next due time is only needed once nothing is in flight from this claim.
    if (claimed.length > 0) return yield* sleepUntilWoken(pollIntervalMs)
    const dueAt = yield* deliveries.nextDueAt
    const now = yield* Clock.currentTimeMillis
    const waitMs = dueAt === undefined ? pollIntervalMs : Math.min(pollIntervalMs, Math.max(0, dueAt.getTime() - now))
    yield* sleepUntilWoken(waitMs)
  }).pipe(
    Effect.catchCause((cause) =>
      Effect.logError("delivery worker: claiming failed; retrying", cause).pipe(
        Effect.andThen(Effect.sleep(Duration.millis(pollIntervalMs)))
      )
    )
  )
  return yield* Effect.forever(loop)
})

/**
 * The worker as a layer: it runs in the background for the layer's lifetime
 * and stops cleanly (in-flight posts are interrupted; their leases run out and
 * another worker or the next start delivers them).
 *
 * @example
 * ```ts
 * const Delivery = Worker.layer({ appUrl: "https://forms.example.com" })
 * ```
 */
export const layer = (options: WorkerOptions) => Layer.effectDiscard(Effect.forkScoped(Effect.scoped(run(options))))
