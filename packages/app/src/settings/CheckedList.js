// @ts-check
// The choice of a list of checkboxes (a webhook's events and stages, the dead letters to replay): an item checked
// goes last, unchecked it leaves. Pure.

/**
 * A checkbox list's choice with `item` checked or not.
 * @template T @param {ReadonlyArray<T>} list @param {T} item @param {boolean} on @returns {ReadonlyArray<T>}
 */
export const toggled = (list, item, on) =>
  on ? [...list.filter((x) => x !== item), item] : list.filter((x) => x !== item)
