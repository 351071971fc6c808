/**
 * A form's status, on its own so the contexts that only read it (files,
 * cases) do not depend on the forms service.
 *
 * @module
 */
import * as Schema from "effect/Schema"

/** A form's status (spec: FormStatus). Only `published` accepts responses. */
export const FormStatus = Schema.Literals(["draft", "published", "closed"])
export type FormStatus = typeof FormStatus.Type
