/**
 * The MCP tools of forms, their questions, stages, translations and the
 * workspace settings: each a domain service call, with its input Schema taken
 * from the HTTP API's (see `../McpTool.ts`).
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { FormTranslator, generateForm, GenerateFormInput } from "../../generation/index.ts"
import {
  CreateFormInput,
  Forms,
  FormSummary,
  FormWithFields,
  Stage,
  Stages,
  TranslationsModule as Translations,
  UpdateFormInput,
  WorkspaceSettings,
  WorkspaceSettingsStore
} from "../../forms/index.ts"
import { LanguageTag } from "../../languages/index.ts"
import { define, FormId, NoArguments, type McpTool } from "../McpTool.ts"

/** The tools of forms, their questions, stages, translations and the workspace settings, bound to their services. */
export const tools = Effect.gen(function* () {
  const forms = yield* Forms
  const stages = yield* Stages
  const generate = yield* generateForm
  const workspaceSettings = yield* WorkspaceSettingsStore
  const translator = yield* FormTranslator.make
  const Language = LanguageTag.annotate({ description: "A BCP 47 language tag: de, fr, pt-BR, zh-Hans, ar, …" })

  const tools: ReadonlyArray<McpTool> = [
    define("list_forms", {
      title: "List forms",
      description:
        "Lists every form of the workspace, most recently changed first, with its status " +
        "(draft, published, closed) and response count. Start here to find a form's `id`, which the other tools take as `formId`.",
      input: NoArguments,
      output: Schema.Struct({ forms: Schema.Array(FormSummary) }),
      write: false,
      run: (actor) => Effect.map(forms.list(actor), (list) => ({ forms: list }))
    }),
    define("get_form", {
      title: "Get a form with its questions",
      description:
        "Returns one form with its questions in order. Each question's `id` is the key of its answer in " +
        "a response's `values`. Use it before reading responses or changing the questions.",
      input: Schema.Struct({ formId: FormId }),
      output: FormWithFields,
      write: false,
      run: (actor, { formId }) => forms.get(actor, formId)
    }),
    define("create_form", {
      title: "Create a form",
      description:
        "Creates a draft form with the questions given in `fields` (in order) and the default stages " +
        '(New, In progress, Done). Publish it with update_form {status: "published"} to accept responses. ' +
        "To write the questions from a plain-language description instead, use generate_form.",
      input: CreateFormInput,
      output: FormSummary,
      write: true,
      run: (actor, input) => forms.create(actor, input)
    }),
    define("update_form", {
      title: "Change a form",
      description:
        "Changes a form's title, description, status (draft, published, closed) and/or questions. " +
        "`fields` replaces the whole question list: keep a question's `id` to keep it and its answers; " +
        "a question left out is deleted. Call get_form first to have the current questions. " +
        "Form logic: `hiddenFields` [{name}] take values from the page URL; a question's `logic` " +
        '[{if: Condition, then: {jumpTo: <later question id> | "page:<key>" | "end"}}] and `showIf` Condition refer to question ' +
        'ids, or to questions of the same call by their `ref` as "ref:<ref>". Pictures: `settings.theme.logo` and a ' +
        "select or checkboxes question's `options.images` {choice: image id} take ids from list_images. Pages: " +
        "`settings.pages` [{key, title?}] and a question's `page` show consecutive questions on one screen. " +
        'Retention: `settings.retention` {days: 1-3650, action: "delete" | "anonymise"} removes old responses ' +
        "once a day (null keeps them forever). `settings` replaces all settings: send the ones you keep.",
      input: Schema.Struct({ formId: FormId, ...UpdateFormInput.fields }),
      output: FormSummary,
      write: true,
      run: (actor, { formId, ...input }) => forms.update(actor, formId, input)
    }),
    define("generate_form", {
      title: "Generate a form from a description",
      description:
        'Writes the questions from a plain-language description (e.g. "an RSVP: name, email, ' +
        'attending yes or no, number of guests") and creates the form, as a draft unless `publish` is true. ' +
        "Returns the form with its questions; refine them with update_form.",
      input: GenerateFormInput,
      output: FormWithFields,
      write: true,
      run: (actor, input) => generate(actor, input)
    }),
    define("list_stages", {
      title: "List a form's stages",
      description:
        "Lists the stages of a form's cases in order (e.g. New, In progress, Done), each with the " +
        "`id` update_response takes as `stageId` and list_responses as `stage`. A closed stage ends a case.",
      input: Schema.Struct({ formId: FormId }),
      output: Schema.Struct({ stages: Schema.Array(Stage) }),
      write: false,
      run: (actor, { formId }) => Effect.map(stages.list(actor, formId), (list) => ({ stages: list }))
    }),
    define("get_workspace_settings", {
      title: "Get the workspace's settings",
      description:
        "Returns the workspace's settings: `theme`, the default theme (colours, font, corner radius, logo, button " +
        "words) of the public pages of its forms that have no theme of their own.",
      input: NoArguments,
      output: WorkspaceSettings,
      write: false,
      run: (actor) => workspaceSettings.get(actor)
    }),
    define("update_workspace_settings", {
      title: "Replace the workspace's settings",
      description:
        "Replaces the workspace's settings (owners and admins only); a key left out takes its default. `theme` is " +
        "checked as a form's is: colours that fail WCAG AA contrast are refused, naming the pair; a `logo` must be " +
        "an image id from list_images.",
      input: WorkspaceSettings,
      output: WorkspaceSettings,
      write: true,
      run: (actor, input) => workspaceSettings.replace(actor, input)
    }),
    define("list_translations", {
      title: "List a form's translations",
      description:
        "Returns the form's own language (`settings.language`, default en) and, for each language it is " +
        "translated into, its status (ready: the page offers it; draft: waiting for review) and how many of the " +
        "form's texts it has (`translated` of `total`).",
      input: Schema.Struct({ formId: FormId }),
      output: Translations.TranslationList,
      write: false,
      run: (actor, { formId }) => translator.list(actor, formId)
    }),
    define("get_translation", {
      title: "Get a form's translation",
      description:
        "Returns the form's translation into one language and `missing`: each text it still lacks, with where it " +
        'goes (`path`, e.g. ["fields", "12", "choices", "Red"]) and the form\'s own words (`source`). Translate ' +
        "those and send them with set_translation.",
      input: Schema.Struct({ formId: FormId, language: Language }),
      output: Translations.TranslationDetail,
      write: false,
      run: (actor, { formId, language }) => translator.get(actor, formId, language)
    }),
    define("set_translation", {
      title: "Set a form's translation",
      description:
        "Sets the form's translation into a language, replacing the one there was: `title`, `description`, " +
        "`fields` {<question id>: {label, help, placeholder, choices: {<the form's choice>: words}, rows, columns, " +
        "other, minLabel, maxLabel}}, `pages` and `endings` by key, `buttons`, `closedMessage`, `logoAlt`, " +
        "`confirmation` {subject, body}. Answers keep the form's own choices whatever the language. Use status " +
        '"draft" to keep it off the page until someone reviews it. Anything the form does not have is refused, naming it.',
      input: Schema.Struct({ formId: FormId, language: Language, translation: Translations.Translation }),
      output: Translations.TranslationDetail,
      write: true,
      run: (actor, { formId, language, translation }) => translator.put(actor, formId, language, translation)
    }),
    define("draft_translation", {
      title: "Draft a form's translation by machine",
      description:
        "Has the configured language model translate the texts the form's translation into a language lacks, and " +
        'saves the result as a draft (status "draft": the page does not offer it). Review it with get_translation, ' +
        'correct it and set status "ready" with set_translation. Fails without a language model (the offline ' +
        "generator writes English only); you can also translate the texts yourself and use set_translation.",
      input: Schema.Struct({ formId: FormId, language: Language }),
      output: Translations.TranslationDetail,
      write: true,
      run: (actor, { formId, language }) => translator.draft(actor, formId, language)
    })
  ]
  return tools
})
