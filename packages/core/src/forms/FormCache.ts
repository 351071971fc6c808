/**
 * FormCache: the forms qforms reads on its hot paths (an API read, a
 * submission, the public page) kept in this process's memory, and dropped
 * when the form or one of its questions changes: at once for a change made by
 * this process, and in every process once the change's notice arrives
 * (migration 0019: triggers NOTIFY `form:<workspaceId>:<formId>` on the
 * changes channel in the change's transaction, whatever path made it: the API,
 * the application, the CLI, a cascade).
 *
 * Nothing is cached unless the {@link ChangeFeed} is live (the channel is
 * listened to and nothing can be missed); when it stops, the cache is
 * emptied. A read that started before a change is not cached
 * ({@link FormCache.stamp}).
 *
 * @module
 */
import * as Effect from "effect/Effect"
import { ChangeFeedModule as ChangeFeed } from "../storage/index.ts"

/** The notice the triggers of migration 0019 send on the changes channel: `form:<workspaceId>:<formId>`. */
export const formNotice = "form:"

/**
 * What a notice on the changes channel says of forms: the form that changed, `"unreadable"` for a form notice
 * it cannot read (forget every form rather than guess), or `undefined` for another kind of notice (an event,
 * credentials).
 *
 * @example
 * ```ts
 * FormCache.formOfNotice("form:3:17") // { workspaceId: 3, formId: 17 }
 * ```
 */
export const formOfNotice = (
  notice: string
): { readonly workspaceId: number; readonly formId: number } | "unreadable" | undefined => {
  if (!notice.startsWith(formNotice)) return undefined
  const [workspaceId, formId, ...rest] = notice.slice(formNotice.length).split(":").map(Number)
  return Number.isInteger(workspaceId) && Number.isInteger(formId) && rest.length === 0
    ? { workspaceId: workspaceId!, formId: formId! }
    : "unreadable"
}

/** How many forms a process keeps; the least recently read goes first. */
export const defaultCapacity = 500

/** The forms of one process, by workspace and id, and by public id. */
export interface FormCache<A> {
  /** The form, if cached. */
  readonly get: (workspaceId: number, formId: number) => A | undefined
  /** The form of a public id and its workspace, if cached. */
  readonly getPublic: (publicId: string) => { readonly workspaceId: number; readonly form: A } | undefined
  /** Taken before a read from the database: {@link put} keeps the read only if nothing changed since. */
  readonly stamp: () => number
  readonly put: (stamp: number, workspaceId: number, form: A) => void
  /** Drops a form at once: a change this process has just committed (others hear the notice). */
  readonly drop: (workspaceId: number, formId: number) => void
}

/**
 * A cache for the forms of the layer it is built in; listens on the forms
 * channel while that layer's scope lasts.
 *
 * @example
 * ```ts
 * const cache = yield* FormCache.make<FormWithFields>()
 * const cached = cache.get(workspaceId, formId)
 * if (cached !== undefined) return cached
 * const stamp = cache.stamp()
 * const form = yield* readForm(workspaceId, formId)
 * cache.put(stamp, workspaceId, form)
 * ```
 */
export const make = <A extends { readonly id: number; readonly publicId: string }>(
  options: { readonly capacity?: number | undefined } = {}
) =>
  Effect.gen(function* () {
    const byPublicId = new Map<string, string>()
    const keyOf = (workspaceId: number, formId: number) => `${workspaceId}:${formId}`
    const kept = yield* ChangeFeed.keep<{ readonly workspaceId: number; readonly form: A }>("form cache", {
      capacity: options.capacity ?? defaultCapacity,
      onNotice: (notice, kept) => {
        const changed = formOfNotice(notice)
        if (changed === "unreadable") kept.forget()
        else if (changed !== undefined) kept.drop(keyOf(changed.workspaceId, changed.formId))
      },
      onRemove: (_, entry) => byPublicId.delete(entry.form.publicId)
    })
    const cache: FormCache<A> = {
      get: (workspaceId, formId) => kept.get(keyOf(workspaceId, formId))?.form,
      getPublic: (publicId) => {
        const key = byPublicId.get(publicId)
        return key === undefined ? undefined : kept.get(key)
      },
      stamp: kept.stamp,
      put: (stamp, workspaceId, form) => {
        const key = keyOf(workspaceId, form.id)
        if (kept.put(stamp, key, { workspaceId, form })) byPublicId.set(form.publicId, key)
      },
      drop: (workspaceId, formId) => kept.drop(keyOf(workspaceId, formId))
    }
    return cache
  })
