/**
 * A form's settings: how its public page behaves beyond its questions. Kept
 * as one JSON object on the form (`forms.settings`, migration 0021), so that
 * a new setting is a new key here rather than a new column; an unknown key is
 * refused, naming the allowed ones.
 *
 * - `skipPrefilled`: questions pre-filled from the page's link
 *   (`?prefill.<questionId>=…`, see `pages/Prefill.ts`) are not asked again;
 *   by default they are shown with the value filled in.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { strictStruct } from "../kernel/StrictStruct.ts"

const fields = {
  skipPrefilled: Schema.optionalKey(Schema.Boolean).annotate({
    description:
      "Skip the questions pre-filled from the page's link (`?prefill.<questionId>=…`) with a valid answer; " +
      "by default they are shown, filled in."
  })
}

/**
 * A form's settings (an extension of the spec's form): every key optional,
 * unknown keys refused. `PATCH /forms/{id}` with `settings` replaces them all.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(FormSettings)({ skipPrefilled: true }) // { skipPrefilled: true }
 * ```
 */
export const FormSettings = strictStruct(fields, "setting").annotate({
  identifier: "FormSettings",
  description: "Extension: how the form's public page behaves (pre-fill), every key optional."
})

/** Decoded {@link FormSettings}. @example `const s: FormSettings = { skipPrefilled: true }` */
export type FormSettings = typeof FormSettings.Type

/** The settings of a form that has none: every default. */
export const noSettings: FormSettings = {}
