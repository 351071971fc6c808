/**
 * In-process qforms instances a test file starts on a database target: each
 * on a fresh database, or another on the same database (two processes
 * sharing PostgreSQL); all are disposed and their databases dropped after the
 * file.
 */
import { Qforms } from "@qforms/core"
import { afterAll } from "vitest"
import type { DatabaseTarget } from "./Databases.ts"

type DatabaseOptions = Qforms.QformsOptions["database"]

/**
 * @example
 * ```ts
 * const instances = instancesOn(target, (database) => ({ database, delivery: { worker: false } }))
 * const { qforms, database } = await instances.fresh()
 * const other = await instances.sharing(database)
 * ```
 */
export const instancesOn = (target: DatabaseTarget, settings: (database: DatabaseOptions) => Qforms.QformsOptions) => {
  const running: Array<Qforms.Qforms> = []
  const cleanups: Array<() => Promise<void>> = []
  afterAll(async () => {
    for (const qforms of running) await qforms.dispose()
    for (const cleanup of cleanups) await cleanup()
  })
  const sharing = async (database: DatabaseOptions) => {
    const qforms = await Qforms.make(settings(database))
    running.push(qforms)
    return qforms
  }
  return {
    /** An instance on a fresh database, and that database's options. */
    fresh: async () => {
      const options = target.options()
      cleanups.push(options.cleanup)
      return { qforms: await sharing(options.database), database: options.database }
    },
    /** Another instance on the database of an earlier one (PostgreSQL: another process's view of it). */
    sharing
  }
}
