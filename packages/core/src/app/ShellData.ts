/**
 * What the application's page tells its scripts about this server, as JSON in
 * the page (`<script type="application/json" id="qforms-shell">`, data the
 * CSP does not run): the question types with their labels, the option keys
 * each takes and the condition operators it offers, whether it takes an
 * answer and how the case page shows and changes one (from the registry of
 * question types, `forms/questions/`, so the builder never lags behind the
 * API and the application names no type), and whether e-mail can be sent.
 * The scripts type it from here (`@qforms/app`'s `src/shared/Types.js`).
 */
import * as Schema from "effect/Schema"
import { type AnswerControl, builderTypes, FieldType } from "../forms/index.ts"
import { MemberRole } from "../kernel/index.ts"
import { builtInMessages, type MessageKey, nativeName } from "../languages/index.ts"
import { type AppKey, AppLanguage, appKeys, type Say } from "./AppLanguage.ts"

/** A question type as the builder offers it. */
export const FieldTypeInfo = Schema.Struct({
  type: FieldType,
  label: Schema.String,
  /** The option keys the type takes (`placeholder` and `help` for every one). */
  options: Schema.Array(Schema.String),
  /** The parts a `contact` or `address` question may ask, with whether each is asked and optional by default. */
  parts: Schema.optionalKey(
    Schema.Array(
      Schema.Struct({ name: Schema.String, label: Schema.String, asked: Schema.Boolean, optional: Schema.Boolean })
    )
  ),
  /** The condition operators the type's answers offer (`equals`, `greaterThan`, …). */
  operators: Schema.Array(Schema.String),
  /** The option keys the type's options Schema requires, each a list (a select's `choices`, a matrix's `rows`). */
  requiredOptions: Schema.Array(Schema.String),
  /** Whether a question of the type takes an answer (a statement does not: never required, never sensitive). */
  answered: Schema.Boolean,
  /** How the case page shows an answer beyond its shape: a ranking's places, a matrix's rows, a signature drawn or typed. */
  shown: Schema.optionalKey(Schema.Literals(["ranked", "byRow", "drawnOrTyped"])),
  /**
   * The control a member changes an answer with on the case page (the one the public page draws): a one-line
   * input of an HTML type (`numeric`: a number), several lines, one or several of the question's choices. Absent:
   * the case page keeps the answer as it is.
   */
  edit: Schema.optionalKey(
    Schema.Union([
      Schema.Struct({ kind: Schema.Literal("line"), type: Schema.String, numeric: Schema.optionalKey(Schema.Boolean) }),
      Schema.Struct({ kind: Schema.Literal("lines") }),
      Schema.Struct({ kind: Schema.Literal("choice") }),
      Schema.Struct({ kind: Schema.Literal("choices") })
    ])
  ),
  /**
   * How the builder's preview sketches a question of the type: by its control (`choice`, `choices`, `lines`,
   * `line`), its parts, a grid of rows and columns, a ranking, a drawing, an upload, a consent box, nothing
   * (`none`), or a scale or range from `min` to `max` (a question's own `min`/`max` options win), or the two buttons of a yes/no.
   */
  look: Schema.Union([
    Schema.Struct({
      kind: Schema.Literals([
        "none",
        "parts",
        "grid",
        "ranked",
        "drawing",
        "upload",
        "consent",
        "choice",
        "choices",
        "lines",
        "line",
        "yesNo"
      ])
    }),
    Schema.Struct({ kind: Schema.Literals(["scale", "range"]), min: Schema.Number, max: Schema.Number })
  ])
})

const known: ReadonlySet<string> = new Set(appKeys)
/** Whether the application has words of its own for a key (a type it knows). */
const isAppKey = (key: string): key is AppKey => known.has(key)

/** A type's control as the case page needs it: its kind, and a line's input type and whether it takes a number. */
const controlInfo = (control: AnswerControl): NonNullable<typeof FieldTypeInfo.Type.edit> =>
  control.kind !== "line"
    ? { kind: control.kind }
    : { kind: control.kind, type: control.type, ...(control.numeric === true ? { numeric: true } : {}) }

/** What the page's scripts know of the server before their first request. */
export const ShellData = Schema.Struct({
  fieldTypes: Schema.Array(FieldTypeInfo),
  /** Whether e-mail can be sent (SMTP configured): the case page offers writing to the respondent only then. */
  mail: Schema.Boolean,
  /** The languages the public page speaks (built in, and any the host added), each named in itself. */
  languages: Schema.Array(Schema.Struct({ tag: Schema.String, name: Schema.String }))
})

/** Decoded {@link ShellData}. */
export type ShellData = typeof ShellData.Type

/** Who is signed in, in which workspace, and what they may switch to (`GET /app/session`). */
export const SessionInfo = Schema.Struct({
  account: Schema.Struct({ id: Schema.Int, name: Schema.NullOr(Schema.String), email: Schema.String }),
  workspaceId: Schema.Int,
  /** The workspaces a qforms session may switch to (empty when the host's identity signs in). */
  workspaces: Schema.Array(Schema.Struct({ id: Schema.Int, name: Schema.String, role: MemberRole })),
  role: MemberRole,
  /** The token every write of the application carries (`x-csrf-token`); empty for the host's identity. */
  csrfToken: Schema.String,
  via: Schema.Literals(["session", "host"]),
  passwordSignIn: Schema.Boolean,
  /** The language the application speaks to this person. */
  language: AppLanguage,
  /** The language the account chose, or null: it follows the browser's `Accept-Language`. */
  languagePreference: Schema.NullOr(AppLanguage),
  /** The language the browser's `Accept-Language` asks for (what a null preference gives). */
  browserLanguage: AppLanguage,
  /** The languages the application speaks, each named in itself. */
  languages: Schema.Array(Schema.Struct({ tag: AppLanguage, name: Schema.String }))
})

/** Decoded {@link SessionInfo}. */
export type SessionInfo = typeof SessionInfo.Type

/**
 * The data of the page, as the text of its JSON script element.
 *
 * @example
 * ```ts
 * const shell = ShellData.toScriptText({ mail: true, languages: ["en", "de"], language: "de", say: AppLanguage.sayer("de") })
 * html`<script type="application/json" id="qforms-shell">${new Html(shell)}</script>`
 * ```
 */
export const toScriptText = (options: {
  readonly mail: boolean
  readonly languages: ReadonlyArray<string>
  readonly say: Say
  readonly language: AppLanguage
}): string =>
  JSON.stringify(
    Schema.encodeSync(ShellData)({
      fieldTypes: builderTypes.map(({ type, label, options: keys, parts, edit, ...told }) => {
        const key = `fieldType.${type}`
        return {
          type,
          // The application's words for the type; a type it has none for yet goes by its own English name.
          label: isAppKey(key) ? options.say(key) : label,
          options: keys,
          ...(parts === undefined
            ? {}
            : {
                parts: parts.map(({ name, asked, optional }) => ({
                  name,
                  // The public page's words for the parts, in the application's language.
                  label: builtInMessages.say(options.language, `part.${name}` as MessageKey),
                  asked,
                  optional
                }))
              }),
          // The operators, required option keys, whether it takes an answer and how one is shown: as the registry says.
          ...told,
          ...(edit === undefined ? {} : { edit: controlInfo(edit) })
        }
      }),
      mail: options.mail,
      languages: options.languages.map((tag) => ({ tag, name: nativeName(tag) }))
    })
  ).replaceAll("<", "\\u003c")
