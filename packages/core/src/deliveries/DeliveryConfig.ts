/**
 * How webhooks are delivered, shared by the worker, test pings and the
 * subscribe-time address check.
 */
import * as Context from "effect/Context"
import * as RetrySchedule from "./RetrySchedule.ts"

/** The delivery settings. */
export interface DeliverySettings {
  /** Delays between attempts in ms (default: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
  readonly schedule: ReadonlyArray<number>
  /** Connect + response timeout of one post, in ms. */
  readonly timeoutMs: number
  /** Posts in flight at once in one process. */
  readonly maxInFlight: number
  /**
   * Posts in flight at once to one host (`host:port` of the target URL). Webhook
   * services post to one endpoint with more concurrency than a handful; lower
   * it for receivers that cannot take parallel requests.
   */
  readonly maxPerHost: number
  /** Deliver to loopback and private addresses (local development and tests only). */
  readonly allowPrivateTargets: boolean
  /** The slow fallback poll of the worker, in ms. */
  readonly pollIntervalMs: number
  /** `User-Agent` of every post. */
  readonly userAgent: string
  /**
   * After this many deliveries of a subscription in a row gave up (final
   * status `failed`), its workspace's owners and admins get an alert (once per
   * incident; a delivered one ends the incident). Default 3.
   */
  readonly alertAfterFailures: number
  /**
   * After this many deliveries in a row gave up, the subscription is disabled
   * (and the owners and admins alerted); re-enabling starts the count again. Default 10.
   */
  readonly disableAfterFailures: number
}

/**
 * The defaults: the schedule above, 10 s timeout, 64 in flight (32 per host), private targets refused, 5 s poll,
 * an alert after 3 failed deliveries in a row, disabled after 10.
 */
export const defaults: DeliverySettings = {
  schedule: RetrySchedule.defaultSchedule,
  timeoutMs: 10_000,
  maxInFlight: 64,
  maxPerHost: 32,
  allowPrivateTargets: false,
  pollIntervalMs: 5_000,
  userAgent: "qforms-webhooks/1.0",
  alertAfterFailures: 3,
  disableAfterFailures: 10
}

/** The settings in force (a reference: provide it to change them). */
export const DeliveryConfig = Context.Reference<DeliverySettings>("@qforms/core/delivery/DeliveryConfig", {
  defaultValue: () => defaults
})
