// @ts-check
// Ordered lists the team edits (questions, stages, assignment rules, case fields): an item moved one place up or
// down, and the ↑ / ↓ buttons that do it.
import { html } from "htm/preact"

/**
 * The list with the item at `index` moved `delta` places (-1 up, 1 down); a copy as it was when there is no such item.
 * @template T
 * @param {ReadonlyArray<T>} list
 * @param {number} index
 * @param {number} delta
 * @returns {T[]}
 */
export const moved = (list, index, delta) => {
  const next = [...list]
  const [item] = next.splice(index, 1)
  if (item === undefined) return [...list]
  next.splice(index + delta, 0, item)
  return next
}

/**
 * The ↑ and ↓ buttons of an item at `index` of `count`, named for a screen reader by `up` and `down`.
 * @param {{ index: number, count: number, up: string, down: string, move: (delta: number) => void }} props
 */
export const MoveButtons = ({ index, count, up, down, move }) =>
  html`<button aria-label=${up} disabled=${index === 0} onClick=${() => move(-1)}>↑</button>
    <button aria-label=${down} disabled=${index === count - 1} onClick=${() => move(1)}>↓</button>`
