/**
 * The `signature` question type: a full name typed with the signer's
 * consent (`{typedName, consent: true}`), which works everywhere, or a
 * drawing the page's script uploads (a PNG of at most 1 MB, then a
 * {@link FileAnswer}). Its options are only a placeholder and help.
 *
 * @module
 */
import * as Predicate from "effect/Predicate"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { attr, html, stripBidiControls } from "../../kernel/index.ts"
import { bad, ok } from "./AnswerChecks.ts"
import { TypedSignatureInput } from "./AnswerShapes.ts"
import { fileLink } from "./AnswerText.ts"
import { decodeFileAnswer } from "./File.ts"
import { BaseOptions } from "./OptionFields.ts"
import { describedBy, legend } from "./PageControls.ts"
import { postedUnder, postedUpload } from "./PostedAnswers.ts"
import { type Check, questionType } from "./QuestionType.ts"
import { textColumn, WIDE } from "./SheetColumns.ts"

/** The most characters a typed signature's name may have. */
export const TYPED_SIGNATURE_MAX = 200

/** The most bytes a drawn signature's PNG may have: 1 MB (a drawn line over a 600×200 canvas is some 10–40 KB). */
export const SIGNATURE_MAX_BYTES = 1024 * 1024

const decodeTypedSignature = Schema.decodeUnknownResult(TypedSignatureInput)

/** A signature: a drawn PNG uploaded to the question, or a typed full name with consent. */
const checkSignature = (q: string, value: unknown): Check => {
  const file = decodeFileAnswer(value)
  if (Result.isSuccess(file)) {
    if (file.success.type !== "image/png") return bad("answer.signaturePng", { q })
    if (file.success.size > SIGNATURE_MAX_BYTES) return bad("answer.signatureSize", { q })
    return ok(file.success)
  }
  const typed = decodeTypedSignature(value)
  if (Result.isFailure(typed)) {
    return bad("answer.signatureShape", { q })
  }
  const name = stripBidiControls(typed.success.typedName).trim().replace(/\s+/g, " ")
  if (name === "") return bad("answer.signatureName", { q })
  if (name.length > TYPED_SIGNATURE_MAX) return bad("answer.signatureNameMax", { q, max: TYPED_SIGNATURE_MAX })
  if (!typed.success.consent) return bad("answer.signatureConsent", { q })
  return ok({ typedName: name, consent: true })
}

/** A signature, drawn or typed. */
export const Signature = questionType({
  type: "signature",
  label: "Signature (drawn or typed)",
  options: BaseOptions,
  upload: {
    withStep: false,
    limits: () => ({ maxSizeMb: SIGNATURE_MAX_BYTES / (1024 * 1024), accept: ["image/png"] })
  },
  check: (_field, value, q) => checkSignature(q, value),
  // A typed name (with or without the consent box) is the answer; else a drawing the script uploaded.
  parse: (_field, answers, posted) => {
    const typedName = postedUnder(posted, "typedName")[0]
    const consent = postedUnder(posted, "consent")[0] === "yes"
    return typedName !== undefined || consent ? { typedName: typedName ?? "", consent } : postedUpload(answers)
  },
  /**
   * A full name typed with a consent box, which works everywhere; the page's script adds a pad to draw on
   * (pointer, touch or pen) whose PNG, once drawn, is the answer instead. A drawing kept from before is carried
   * in the hidden answer until it is cleared or a name is typed.
   */
  view: (field, { entered, error, voice }) => {
    const typed = entered.parts?.typedName?.[0] ?? ""
    const consent = entered.parts?.consent?.[0] === "yes"
    const drawn = entered.file
    const invalid = attr("aria-invalid", error ? "true" : false)
    return html`<fieldset${attr("aria-describedby", describedBy(field, error, "signature-hint"))}>
${legend(field, voice.say)}
<p class="hint" id="signature-hint">${voice.say("question.signatureHint")}</p>
<div class="signature" data-signature data-field="${field.id}" hidden>
<canvas class="pad" width="600" height="200" role="img" aria-label="${voice.say("question.signaturePad")}"></canvas>
<button type="button" class="clear">${voice.say("question.signatureClear")}</button>
</div>
<input type="hidden" name="a" value="${drawn ? JSON.stringify(drawn) : ""}">
<p class="signature-status" id="signature-status" aria-live="polite">${drawn ? voice.say("question.signatureKept") : ""}</p>
<div class="part"><label for="a-typedName">${voice.say("question.fullName")}</label>
<input id="a-typedName" name="a.typedName" type="text" value="${typed}" autocomplete="name" maxlength="200" autofocus${attr("placeholder", field.options?.placeholder)}${attr(
      "aria-describedby",
      error ? "error" : null
    )}${invalid}></div>
<label class="choice legal"><input type="checkbox" name="a.consent" value="yes"${attr(
      "checked",
      consent && "checked"
    )}> ${voice.say("question.signatureConsent")}</label>
</fieldset>`
  },
  // A drawn signature reads "Drawn signature" (with its link); a typed one by its name.
  display: (_field, answer, linkBase) => {
    if (Array.isArray(answer) || !Predicate.isObject(answer)) return undefined
    if ("typedName" in answer && Predicate.isString(answer.typedName)) return undefined
    if (!("fileId" in answer) || !Predicate.isString(answer.fileId) || !Predicate.isString(answer.name))
      return undefined
    return linkBase === undefined ? "Drawn signature" : `Drawn signature (${fileLink(linkBase, answer.fileId)})`
  },
  sheet: (_field, key, shown) => [textColumn(key, shown, WIDE)],
  summary: { kind: "files", drawnOrTyped: true },
  tallyKeys: ({ typed, key, answer }) => ({
    scalars: [
      `case when ${typed("object")} then ${key("c:")} || ` +
        `case when jsonb_exists(${answer}, 'fileId') then 'drawn' else 'typed' end end`
    ],
    arrays: []
  }),
  operators: ["isEmpty", "isNotEmpty"],
  generator: {
    describe:
      'signature (a signature drawn or typed as a full name with consent, for agreements and waivers: "sign below"; set required to true)'
  }
})
