/**
 * The question types of a person's details in one step, asked in parts:
 * `contact` (name, e-mail, phone, company) and `address` (two lines, city,
 * region, postal code, country). Their options say which parts are asked,
 * in which order (`parts`), and which of them may be left empty
 * (`optionalParts`); the answer is an object of the asked parts.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import { attr, html, strictStruct } from "../../kernel/index.ts"
import type { MessageKey } from "../../languages/index.ts"
import { bad, isEmail, isPhone, ok } from "./AnswerChecks.ts"
import { TextOptionFields } from "./OptionFields.ts"
import { describedBy, legend } from "./PageControls.ts"
import { postedUnder } from "./PostedAnswers.ts"
import { type Check, type PartInfo, type QuestionField, questionType } from "./QuestionType.ts"
import { textColumn, WIDE } from "./SheetColumns.ts"
import type { StoredOptions } from "./StoredOptions.ts"

const part = (
  name: string,
  label: string,
  autocomplete: string,
  maxLength: number,
  defaults: { readonly asked?: boolean; readonly optional?: boolean } = {}
): PartInfo => ({
  name,
  label,
  autocomplete,
  maxLength,
  asked: defaults.asked ?? true,
  optional: defaults.optional ?? false
})

/**
 * The parts of a `contact` question (name, e-mail, phone, company) and of an
 * `address` question (two lines, city, region, postal code, country), in the
 * order the page asks them.
 *
 * @example
 * ```ts
 * PARTS.contact.map((p) => p.name) // ["name", "email", "phone", "company"]
 * ```
 */
export const PARTS = {
  contact: [
    part("name", "Name", "name", 200),
    part("email", "E-mail", "email", 254),
    part("phone", "Phone", "tel", 20),
    part("company", "Company", "organization", 200, { asked: false })
  ],
  address: [
    part("line1", "Address", "address-line1", 200),
    part("line2", "Address line 2", "address-line2", 200, { optional: true }),
    part("city", "City", "address-level2", 200),
    part("region", "State, province or region", "address-level1", 200, { optional: true }),
    part("postalCode", "Postal code", "postal-code", 20),
    part("country", "Country", "country-name", 100)
  ]
} as const satisfies Record<string, ReadonlyArray<PartInfo>>

const partListOf = (names: ReadonlyArray<string>, key: string, least: number) =>
  Schema.Array(
    Schema.Literals(names as [string, ...Array<string>]).annotate({
      message: `a part must be one of ${names.join(", ")}`
    })
  ).check(
    Schema.isMinLength(least, { message: `${key} must name at least ${least} part` }),
    Schema.isUnique({ message: `${key} must not repeat a part` })
  )

const partsOptionsOf = (all: ReadonlyArray<PartInfo>) => {
  const names = all.map((p) => p.name)
  return strictStruct({
    ...TextOptionFields,
    /** The parts asked, in order (by default every part but those not asked by default). */
    parts: Schema.optionalKey(partListOf(names, "parts", 1)),
    /** The asked parts that may be left empty (the others are required once the question is answered). */
    optionalParts: Schema.optionalKey(partListOf(names, "optionalParts", 0))
  }).check(
    Schema.makeFilter(
      (o) => {
        const asked = o.parts ?? all.filter((p) => p.asked).map((p) => p.name)
        const stray = (o.optionalParts ?? []).find((name) => !asked.includes(name))
        return stray === undefined
          ? undefined
          : {
              path: ["optionalParts"],
              issue: `optionalParts names "${stray}", which is not asked (parts: ${asked.join(", ")})`
            }
      },
      { expected: "optionalParts within parts" }
    )
  )
}

/**
 * Options of a `contact` question (a person's details in one step): `parts`,
 * which of `name`, `email`, `phone`, `company` to ask and in which order
 * (name, e-mail and phone when absent), and `optionalParts`, the asked parts
 * that may be left empty (none when absent). Unknown keys are rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(ContactOptions)({ parts: ["name", "email", "company"], optionalParts: ["company"] })
 * ```
 */
export const ContactOptions = partsOptionsOf(PARTS.contact)

/** Decoded {@link ContactOptions}. @example `const o: ContactOptions = { parts: ["name", "email"] }` */
export type ContactOptions = typeof ContactOptions.Type

/**
 * Options of an `address` question: `parts`, which of `line1`, `line2`,
 * `city`, `region`, `postalCode`, `country` to ask and in which order (all
 * when absent), and `optionalParts`, the asked parts that may be left empty
 * (`line2` and `region` when absent). Unknown keys are rejected.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(AddressOptions)({ parts: ["line1", "city", "postalCode"] })
 * ```
 */
export const AddressOptions = partsOptionsOf(PARTS.address)

/** Decoded {@link AddressOptions}. @example `const o: AddressOptions = { optionalParts: [] }` */
export type AddressOptions = typeof AddressOptions.Type

/**
 * The parts a question asks, in order, with whether each may be left empty:
 * its options (`parts`, `optionalParts`), or the defaults of `all`.
 */
export const askedParts = (all: ReadonlyArray<PartInfo>, options: StoredOptions | null): ReadonlyArray<PartInfo> => {
  const names = options?.parts ?? all.filter((p) => p.asked).map((p) => p.name)
  const optional = options?.optionalParts
  return names.flatMap((name) => {
    const info = all.find((p) => p.name === name)
    return info === undefined
      ? []
      : [{ ...info, optional: optional === undefined ? info.optional : optional.includes(name) }]
  })
}

const partProblem = (info: PartInfo, s: string): { readonly key: MessageKey; readonly max?: number } | undefined => {
  if (s.length > info.maxLength) return { key: "answer.partMax", max: info.maxLength }
  if (info.name === "email" && !isEmail(s)) return { key: "answer.partEmail" }
  if (info.name === "phone" && !isPhone(s)) return { key: "answer.partPhone" }
  return undefined
}

/** A contact or address: an object of the asked parts, each checked; the required ones present. */
const checkParts = (parts: ReadonlyArray<PartInfo>, value: unknown, q: string): Check => {
  const names = parts.map((p) => p.name)
  if (!Predicate.isObject(value) || Array.isArray(value)) {
    return bad("answer.partsObject", { q, parts: names.join(", ") })
  }
  const unknown = Object.keys(value).find((key) => !names.includes(key))
  if (unknown !== undefined) {
    return bad("answer.unknownPart", { q, part: JSON.stringify(unknown), parts: names.join(", ") })
  }
  const out: Record<string, string> = {}
  for (const info of parts) {
    const raw = value[info.name]
    const s = Predicate.isString(raw) ? raw.trim() : raw
    if (s === undefined || s === null || s === "") {
      if (!info.optional) return bad("answer.partRequired", { q, part: info.name })
      continue
    }
    if (!Predicate.isString(s)) return bad("answer.partText", { q, part: info.name })
    const problem = partProblem(info, s)
    if (problem !== undefined)
      return bad(
        problem.key,
        problem.max === undefined ? { q, part: info.name } : { q, part: info.name, max: problem.max }
      )
    out[info.name] = s
  }
  return ok(out)
}

/** A question in parts, of the parts `all` may ask. */
const partsType = <const T extends string, S extends Schema.Top>(
  type: T,
  label: string,
  options: S,
  all: ReadonlyArray<PartInfo>,
  describe: string
) =>
  questionType({
    type,
    label,
    options,
    parts: all,
    check: (field, value, q) => checkParts(askedParts(all, field.options), value, q),
    parse: (field, _answers, posted) => {
      const given = askedParts(all, field.options).flatMap(({ name }) => {
        const value = postedUnder(posted, name)[0]
        return value === undefined ? [] : [[name, value] as const]
      })
      return given.length === 0 ? undefined : Object.fromEntries(given)
    },
    view: (field: QuestionField, { voice, entered, error }) => html`<fieldset${attr(
      "aria-describedby",
      describedBy(field, error)
    )}>
${legend(field, voice.say)}
<div class="parts" data-parts>
${askedParts(all, field.options).map(
  (part, index) =>
    html`<div class="part"><label for="a-${part.name}">${voice.say(`part.${part.name}` as MessageKey)}${
      part.optional ? html` <span class="optional">${voice.say("page.optional")}</span>` : null
    }</label>
<input id="a-${part.name}" name="a.${part.name}" type="${
      part.name === "email" ? "email" : part.name === "phone" ? "tel" : "text"
    }" value="${entered.parts?.[part.name]?.[0] ?? ""}" autocomplete="${part.autocomplete}" maxlength="${part.maxLength}"${attr(
      "autofocus",
      index === 0 && "autofocus"
    )}${attr("required", field.required && !part.optional && "required")}${attr(
      "aria-describedby",
      error ? "error" : null
    )}${attr("aria-invalid", error ? "true" : false)}></div>
`
)}</div>
</fieldset>`,
    display: (field, answer) => {
      if (Array.isArray(answer) || !Predicate.isObject(answer)) return undefined
      const given = new Map<string, unknown>(Object.entries(answer))
      return askedParts(all, field.options)
        .flatMap(({ name }) => {
          const part = given.get(name)
          return Predicate.isString(part) && part !== "" ? [part] : []
        })
        .join(", ")
    },
    sheet: (_field, key, shown) => [textColumn(key, shown, WIDE)],
    operators: ["contains", "notContains", "isEmpty", "isNotEmpty"],
    generator: { describe }
  })

/** A person's details: name, e-mail, phone, company. */
export const Contact = partsType(
  "contact",
  "Contact details",
  ContactOptions,
  PARTS.contact,
  "contact (a person's details in one step: options.parts from name, email, phone, company; options.optionalParts)"
)

/** A postal address in parts. */
export const Address = partsType(
  "address",
  "Address",
  AddressOptions,
  PARTS.address,
  "address (a postal address in parts: options.parts from line1, line2, city, region, postalCode, country; options.optionalParts)"
)
