/**
 * The input(s) of a question on the public page: its type's page view
 * (`forms/questions/`, each type's module draws its own), with what the
 * respondent entered before and the message of a failed check. The status
 * edit page shows the same controls. Every string from a form is user content
 * and goes through the escaping `html` template.
 */
import { type Entered, type Field, QuestionTypes } from "../../forms/index.ts"
import type { Html } from "../../web/index.ts"
import type { Voice } from "../Voice.ts"
import { imageSrc } from "./Document.ts"

export type { Entered }

/** The input(s) of one question. */
export const control = (
  field: Field,
  entered: Entered,
  error: string | undefined,
  seed: number | undefined,
  full: ReadonlySet<string>,
  publicId: string,
  voice: Voice
): Html =>
  QuestionTypes.typeOf(field).view(field, {
    entered,
    error,
    seed,
    full,
    imageSrc: (imageId) => imageSrc({ publicId }, imageId),
    voice
  })
