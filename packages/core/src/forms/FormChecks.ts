/**
 * What a form being saved is checked for beyond its Schemas, each a 400
 * naming every problem: its questions' logic (`FormLogic.validate`), the
 * images it shows that the workspace's library lacks, and the texts of its
 * translations that the form does not have. `Forms.ts` runs them inside the
 * saving transaction.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import { InvalidInput } from "../kernel/index.ts"
import type { FieldInput } from "./Fields.ts"
import * as FormLogic from "./FormLogic.ts"
import type { FormSettings } from "./FormSettings.ts"
import * as FormTranslations from "./Translations.ts"
import type { Translations } from "./Translations.ts"

/**
 * Checks the logic of the questions, hidden fields and settings (variables, endings) being saved: 400
 * naming the rule broken.
 */
export const checkLogic = (
  inputs: ReadonlyArray<FormLogic.LogicInput>,
  hiddenFields: ReadonlyArray<FormLogic.HiddenField>,
  settings: FormSettings | undefined
): Effect.Effect<void, InvalidInput> => {
  const issues = FormLogic.validate(inputs, hiddenFields, {
    variables: settings?.variables,
    endings: settings?.endings,
    pages: settings?.pages
  })
  return issues.length === 0
    ? Effect.void
    : Effect.fail(
        new InvalidInput({
          message: issues.map((i) => `${i.message} (rule ${i.rule})`).join("; "),
          details: issues.map((i) => ({ path: i.path, message: `${i.message} (rule ${i.rule})` }))
        })
      )
}

/**
 * 400 naming each image the form would show (its theme's logo, its choices' pictures) that is not in the
 * workspace's library (`missing`).
 */
export const missingImages = (
  missing: ReadonlySet<string>,
  saved: ReadonlyArray<{ readonly options?: FieldInput["options"] | null }>,
  settings: FormSettings | undefined
): InvalidInput => {
  const issues: Array<{ path: string; message: string }> = []
  const logo = settings?.theme?.logo
  if (logo !== undefined && missing.has(logo)) {
    issues.push({ path: "settings.theme.logo", message: `settings.theme.logo: no image ${logo} in this workspace` })
  }
  saved.forEach((field, index) => {
    const chosen = (field.options as { readonly images?: Record<string, string> } | null | undefined)?.images
    for (const [choice, id] of Object.entries(chosen ?? {})) {
      if (missing.has(id)) {
        issues.push({
          path: `fields.${index}.options.images.${choice}`,
          message: `fields.${index}.options.images ${JSON.stringify(choice)}: no image ${id} in this workspace`
        })
      }
    }
  })
  return new InvalidInput({
    message: `${issues.map((i) => i.message).join("; ")} (upload images with POST /api/images)`,
    details: issues
  })
}

/** 400 naming each text of the translations that the saved form does not have (or a translation into its own language). */
export const checkTranslations = (
  form: FormTranslations.TranslatableForm,
  translations: Translations
): Effect.Effect<void, InvalidInput> => {
  const issues = Object.entries(translations).flatMap(([language, translation]) =>
    FormTranslations.problems(form, language, translation).map((problem) => {
      const path = ["translations", language, ...problem.path].join(".")
      return { path, message: `${path}: ${problem.issue}` }
    })
  )
  return issues.length === 0
    ? Effect.void
    : Effect.fail(new InvalidInput({ message: issues.map((i) => i.message).join("; "), details: issues }))
}
