/**
 * One optional attribute of the screens' markup: written when it has a value,
 * left out when it is `null`, `undefined` or `false`.
 */
import { html } from "../../web/index.ts"

/** The attribute `name="value"` (escaped), or nothing when `value` is `null`, `undefined` or `false`. */
export const attr = (name: string, value: string | number | null | undefined | false) =>
  value === null || value === undefined || value === false ? null : html` ${name}="${String(value)}"`
