/**
 * Waiting on a condition instead of a fixed time, so a test holds on a loaded
 * machine: poll until the probe answers, fail with a message after a deadline.
 */

/** What a probe answers while the condition does not hold yet. */
type NotYet = undefined | false

/**
 * Polls `probe` every 20 ms until it answers something other than `undefined`
 * or `false`, and returns that; throws after `timeoutMs`.
 *
 * @example
 * ```ts
 * await waitFor(() => hook.received.length === 2)
 * const row = await waitFor(async () => (await list()).find((r) => r.id === id))
 * ```
 */
export const waitFor = async <A>(
  probe: () => A | NotYet | Promise<A | NotYet>,
  timeoutMs = 10_000,
  what = "a condition"
): Promise<Exclude<A, NotYet>> => {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined && value !== false) return value as Exclude<A, NotYet>
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
