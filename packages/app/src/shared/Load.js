// @ts-check
// What a screen loads from the API, as a hook: the value (null until it came), a reload, and the failure's message.
import { useEffect, useState } from "preact/hooks"
import { messageOf } from "./Api.js"

/**
 * Loads once (and again when `deps` change); `reload` loads again.
 * @template T
 * @param {() => Promise<T>} load
 * @param {ReadonlyArray<unknown>} [deps]
 * @returns {[T | null, () => Promise<void>, string | null, (error: string | null) => void]}
 */
export const useLoad = (load, deps = []) => {
  const [value, setValue] = useState(/** @type {T | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const reload = () => load().then(setValue, (e) => setError(messageOf(e)))
  useEffect(() => {
    reload()
  }, deps)
  return [value, reload, error, setError]
}
