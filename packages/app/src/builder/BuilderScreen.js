// @ts-check
// The form builder: questions of every type with their options, a live one-question-at-a-time preview, and the stages editor.
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { api, base, messageOf, publicUrl, shell } from "../shared/Api.js"
import { ConfirmationEditor } from "./ConfirmationEditor.js"
import { EndingsEditor, HiddenFieldsEditor, LogicEditor, PagesEditor, VariablesEditor } from "./LogicEditors.js"
import { TranslationsEditor } from "./TranslationsEditor.js"
import { ImagePicker } from "../shared/ImagePicker.js"
import { ThemeEditor } from "../shared/ThemeEditor.js"
import { NotificationsEditor } from "./NotificationsEditor.js"
import { AssignmentEditor } from "./AssignmentEditor.js"
import { CaseFieldsEditor } from "./CaseFieldsEditor.js"
import { MoveButtons, moved } from "../shared/Ordering.js"
import { t, withParts } from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").Field} Field */
/** @typedef {import("../shared/Types.js").FormWithFields} FormWithFields */
/** @typedef {import("../shared/Types.js").Stage} Stage */
/** @typedef {import("../shared/Types.js").FieldTypeInfo["type"]} FieldType */
/** @typedef {import("../shared/Types.js").HiddenField} HiddenField */
/** @typedef {Record<string, any>} DraftOptions the options being edited: any option key of any type, as the inputs hold them */
/**
 * A question being edited: `key` tells drafts apart before they have an id; logic is kept as the server gave it.
 * @typedef {{ key: number, id?: number, type: FieldType, label: string, required: boolean, options: DraftOptions,
 *   sensitive?: boolean, logic?: ReadonlyArray<import("../shared/Types.js").LogicRule>, showIf?: Field["showIf"], calculate?: Field["calculate"],
 *   page?: string }} Draft
 */

/** The question types and the option keys each takes: the server's Schemas, as the page tells them (`shell`). */
const questionTypes = shell.fieldTypes
/** @param {FieldType} type */
const typeName = (type) => questionTypes.find((info) => info.type === type)?.label ?? type
/** @param {FieldType} type */
const optionKeysOf = (type) => questionTypes.find((info) => info.type === type)?.options ?? ["placeholder", "help"]

let nextKey = 1
/** @param {Pick<Field, "type" | "label" | "required"> & Partial<Field>} field @returns {Draft} */
const draftOf = (field) => ({
  key: nextKey++,
  id: field.id,
  type: field.type,
  label: field.label,
  required: field.required,
  ...(field.sensitive === true ? { sensitive: true } : {}),
  options: { ...(field.options ?? {}) },
  // Form logic (when the server has it): kept as the server gave it, sent back as edited.
  ...(field.logic === undefined ? {} : { logic: field.logic }),
  ...(field.showIf === undefined || field.showIf === null ? {} : { showIf: field.showIf }),
  ...(field.calculate === undefined ? {} : { calculate: field.calculate }),
  ...(field.page === undefined ? {} : { page: field.page })
})

/**
 * An instant (ISO 8601) as a datetime-local input shows it, in the browser's own time zone.
 * @param {string | undefined} iso
 */
const localInput = (iso) => {
  if (iso === undefined) return ""
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) return ""
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)
}

/** The question as the API takes it: only the option keys of its type, empty ones left out. @param {Draft} draft */
const toInput = (draft) => {
  const allowed = optionKeysOf(draft.type)
  /** @type {DraftOptions} */
  const options = {}
  for (const key of allowed) {
    const value = draft.options[key]
    // An empty list of optional parts says "none", which is not the default.
    if (value === undefined || value === "" || (Array.isArray(value) && value.length === 0 && key !== "optionalParts"))
      continue
    options[key] = value
  }
  if (
    (draft.type === "select" || draft.type === "checkboxes" || draft.type === "ranking") &&
    options.choices === undefined
  )
    options.choices = []
  if (draft.type === "matrix") {
    options.rows ??= []
    options.columns ??= []
  }
  return {
    ...(draft.id === undefined ? {} : { id: draft.id }),
    type: draft.type,
    label: draft.label,
    required: draft.type === "statement" ? false : draft.required,
    ...(draft.sensitive === true && draft.type !== "statement" ? { sensitive: true } : {}),
    options: Object.keys(options).length === 0 ? null : options,
    ...(draft.logic === undefined || draft.logic.length === 0 ? {} : { logic: draft.logic }),
    ...(draft.showIf === undefined || draft.showIf === null ? {} : { showIf: draft.showIf }),
    ...(draft.calculate === undefined || draft.calculate.length === 0 ? {} : { calculate: draft.calculate }),
    ...(draft.page === undefined ? {} : { page: draft.page })
  }
}

/** @param {string} text */
const numberOrUndefined = (text) => (text === "" ? undefined : Number(text))

/**
 * The parts a contact or address asks, in their order, and which may be left empty.
 * @param {{ draft: Draft, update: (draft: Draft) => void, disabled: boolean,
 *   parts: NonNullable<import("../shared/Types.js").FieldTypeInfo["parts"]>, id: (name: string) => string }} props
 */
const PartsEditor = ({ draft, update, disabled, parts, id }) => {
  /** @param {DraftOptions} changes */
  const put = (changes) => update({ ...draft, options: { ...draft.options, ...changes } })
  /** @type {ReadonlyArray<string>} */
  const asked = draft.options.parts ?? parts.filter((p) => p.asked).map((p) => p.name)
  /** @type {ReadonlyArray<string>} */
  const optional = draft.options.optionalParts ?? parts.filter((p) => p.optional).map((p) => p.name)
  /** @param {string} name @param {boolean} on */
  const ask = (name, on) => {
    put({
      parts: parts.map((p) => p.name).filter((n) => (n === name ? on : asked.includes(n))),
      optionalParts: optional.filter((n) => n !== name || on)
    })
  }
  return html`<fieldset class="stack"><legend>${t("builder.partsAsked")}</legend>
    ${parts.map(
      (p) => html`<div class="row">
        <label><input type="checkbox" id=${id(`part-${p.name}`)} disabled=${disabled} checked=${asked.includes(p.name)}
          onChange=${(e) => ask(p.name, e.target.checked)} /> ${p.label}</label>
        <label><input type="checkbox" id=${id(`optional-${p.name}`)} disabled=${disabled || !asked.includes(p.name)} checked=${optional.includes(p.name)}
          onChange=${(e) =>
            put({
              optionalParts: parts
                .map((q) => q.name)
                .filter((n) => (n === p.name ? e.target.checked : optional.includes(n)))
            })} /> <span aria-hidden="true">${t("builder.partOptional")}</span><span class="sr-only">${t("builder.partOptionalFor", { part: p.label })}</span></label>
      </div>`
    )}
  </fieldset>`
}

/** @param {{ draft: Draft, update: (draft: Draft) => void, disabled: boolean }} props */
const OptionsEditor = ({ draft, update, disabled }) => {
  /** @param {string} name */
  const id = (name) => `q${draft.key}-${name}`
  /** @param {string} key @param {unknown} value */
  const set = (key, value) => update({ ...draft, options: { ...draft.options, [key]: value } })
  const partsInfo = questionTypes.find((info) => info.type === draft.type)?.parts ?? []
  /** @param {string} key @param {string} label */
  /** A number per choice (quotas, points), edited as "choice: number" lines. */
  const perChoice = (key, label) => html`<div class="stack"><label for=${id(key)}>${label}</label>
      <textarea id=${id(key)} disabled=${disabled}
        value=${Object.entries(draft.options[key] ?? {})
          .map(([choice, n]) => `${choice}: ${n}`)
          .join("\n")}
        onChange=${(e) => {
          /** @type {Record<string, number>} */
          const numbers = {}
          for (const line of e.target.value.split("\n")) {
            const at = line.lastIndexOf(":")
            const choice = line.slice(0, at).trim()
            const n = Number(line.slice(at + 1).trim())
            if (at > 0 && choice !== "" && line.slice(at + 1).trim() !== "" && Number.isFinite(n)) numbers[choice] = n
          }
          set(key, Object.keys(numbers).length === 0 ? undefined : numbers)
        }}></textarea></div>`
  /** A picture per choice (`options.images`), each from the workspace's image library. */
  const choicePictures = () => {
    /** @type {Record<string, string>} */
    const images = draft.options.images ?? {}
    return html`<details class="stack choice-pictures" open=${Object.keys(images).length > 0}>
      <summary>${t("builder.choicePictures")}</summary>
      ${(draft.options.choices ?? []).map(
        (
          choice,
          index
        ) => html`<${ImagePicker} id=${id(`image-${index}`)} label=${t("builder.choicePicture", { choice })}
          value=${images[choice]} disabled=${disabled}
          onChange=${(/** @type {string | undefined} */ imageId) => {
            const next = Object.fromEntries(
              Object.entries({ ...images, [choice]: imageId }).filter(
                ([c, v]) => v !== undefined && (draft.options.choices ?? []).includes(c)
              )
            )
            set("images", Object.keys(next).length === 0 ? undefined : next)
          }} />`
      )}
    </details>`
  }
  const num = (key, label) => html`<div class="stack"><label for=${id(key)}>${label}</label>
    <input id=${id(key)} type="number" disabled=${disabled} value=${draft.options[key] ?? ""} onInput=${(e) => set(key, numberOrUndefined(e.target.value))} /></div>`
  /** @param {string} key @param {string} label @param {string} placeholder */
  const text = (key, label, placeholder) => html`<div class="stack"><label for=${id(key)}>${label}</label>
    <input id=${id(key)} type="text" maxlength="100" disabled=${disabled} placeholder=${placeholder} value=${draft.options[key] ?? ""} onInput=${(e) => set(key, e.target.value.trim() === "" ? undefined : e.target.value)} /></div>`
  /** @param {string} key @param {string} label */
  const lines = (key, label) => html`<div class="stack"><label for=${id(key)}>${label}</label>
    <textarea id=${id(key)} disabled=${disabled} value=${(draft.options[key] ?? []).join("\n")}
      onInput=${(e) =>
        set(
          key,
          e.target.value
            .split("\n")
            .map((/** @type {string} */ c) => c.trim())
            .filter((/** @type {string} */ c) => c !== "")
        )}></textarea></div>`
  return html`<div class="grid">
    ${
      draft.type === "select" || draft.type === "checkboxes" || draft.type === "ranking"
        ? html`<div class="stack"><label for=${id("choices")}>${t("builder.choices")}</label>
      <textarea id=${id("choices")} disabled=${disabled} value=${(draft.options.choices ?? []).join("\n")}
        onInput=${(e) =>
          set(
            "choices",
            e.target.value
              .split("\n")
              .map((c) => c.trim())
              .filter((c) => c !== "")
          )}></textarea></div>`
        : null
    }
    ${draft.type === "checkboxes" ? html`<div class="row">${num("minSelections", t("builder.minSelections"))}${num("maxSelections", t("builder.maxSelections"))}</div>` : null}
    ${
      draft.type === "select" || draft.type === "checkboxes" || draft.type === "ranking"
        ? html`<div class="row"><label><input type="checkbox" id=${id("randomize")} disabled=${disabled} checked=${draft.options.randomize === true}
        onChange=${(e) => set("randomize", e.target.checked ? true : undefined)} /> ${t("builder.randomize")}</label>
      ${
        draft.type === "ranking"
          ? null
          : html`<label><input type="checkbox" id=${id("allowOther")} disabled=${disabled} checked=${draft.options.allowOther === true}
        onChange=${(e) => set("allowOther", e.target.checked ? true : undefined)} /> ${t("builder.allowOther")}</label>
      ${draft.options.allowOther === true ? text("otherLabel", t("builder.otherLabel"), t("builder.otherPlaceholder")) : null}`
      }</div>`
        : null
    }
    ${
      draft.type === "select" || draft.type === "checkboxes"
        ? html`${perChoice("quotas", t("builder.quotas"))}
      ${perChoice("points", t("builder.points"))}
      ${choicePictures()}`
        : null
    }
    ${draft.type === "ranking" ? num("top", t("builder.rankTop")) : null}
    ${
      draft.type === "matrix"
        ? html`<div class="row">${lines("rows", t("builder.rows"))}${lines("columns", t("builder.columns"))}</div>
      <div class="row"><label><input type="checkbox" id=${id("multiple")} disabled=${disabled} checked=${draft.options.multiple === true}
        onChange=${(e) => set("multiple", e.target.checked ? true : undefined)} /> ${t("builder.matrixMultiple")}</label>
      ${num("minRows", t("builder.matrixMinRows"))}</div>`
        : null
    }
    ${draft.type === "number" ? html`<div class="row">${num("min", t("builder.numberMin"))}${num("max", t("builder.numberMax"))}${num("step", t("builder.numberStep"))}</div>` : null}
    ${draft.type === "slider" ? html`<div class="row">${num("min", t("builder.sliderMin"))}${num("max", t("builder.sliderMax"))}${num("step", t("builder.sliderStep"))}</div>` : null}
    ${draft.type === "rating" ? num("max", t("builder.ratingMax")) : null}
    ${draft.type === "opinion_scale" ? html`<div class="row">${num("min", t("builder.scaleMin"))}${num("max", t("builder.scaleMax"))}</div>` : null}
    ${
      draft.type === "nps" || draft.type === "opinion_scale" || draft.type === "slider"
        ? html`<div class="row">${text("minLabel", t("builder.minLabel"), draft.type === "nps" ? t("builder.npsMinPlaceholder") : "")}${text(
            "maxLabel",
            t("builder.maxLabel"),
            draft.type === "nps" ? t("builder.npsMaxPlaceholder") : ""
          )}</div>`
        : null
    }
    ${partsInfo.length > 0 ? html`<${PartsEditor} draft=${draft} update=${update} disabled=${disabled} parts=${partsInfo} id=${id} />` : null}
    ${
      draft.type === "file"
        ? html`<div class="row"><div class="stack"><label for=${id("accept")}>${t("builder.accept")}</label>
      <input id=${id("accept")} type="text" disabled=${disabled} placeholder="image/*, .pdf" value=${(draft.options.accept ?? []).join(", ")}
        onInput=${(e) =>
          set(
            "accept",
            e.target.value
              .split(",")
              .map((c) => c.trim())
              .filter((c) => c !== "")
          )} /></div>
      ${num("maxSizeMb", t("builder.maxSizeMb"))}</div>`
        : null
    }
    <div class="row">
      <div class="stack"><label for=${id("help")}>${t("builder.help")}</label><input id=${id("help")} type="text" disabled=${disabled} value=${draft.options.help ?? ""} onInput=${(e) => set("help", e.target.value)} /></div>
      ${draft.type !== "statement" ? html`<div class="stack"><label for=${id("placeholder")}>${t("builder.placeholder")}</label><input id=${id("placeholder")} type="text" disabled=${disabled} value=${draft.options.placeholder ?? ""} onInput=${(e) => set("placeholder", e.target.value)} /></div>` : null}
    </div>
  </div>`
}

/** The public page's one-question-at-a-time flow, drawn from the unsaved questions. */
/** @param {{ title: string, drafts: ReadonlyArray<Draft> }} props */
const Preview = ({ title, drafts }) => {
  const [index, setIndex] = useState(-1)
  // Questions on the same page are previewed together; a question without a page is a screen of its own.
  /** @type {Array<Array<Draft>>} */
  const screens = []
  for (const d of drafts) {
    const last = screens.at(-1)
    if (last !== undefined && d.page !== undefined && last[0]?.page === d.page) last.push(d)
    else screens.push([d])
  }
  const at = Math.min(index, screens.length - 1)
  const screen = screens[at]
  /** @param {Draft} draft */
  const question = (draft) => {
    /** @type {ReadonlyArray<string>} */
    const choices = draft.options.choices ?? []
    /** The choices, then Other with its box when offered, and a note when they are shuffled. @param {unknown[]} shown @param {string} mark */
    const withOther = (shown, mark) => [
      ...shown,
      draft.options.allowOther === true
        ? html`<span class="choice">${mark} ${draft.options.otherLabel || t("builder.previewOther")}: <span class="muted">${t("builder.previewYourAnswer")}</span></span>`
        : null,
      draft.options.randomize === true ? html`<p class="muted">${t("builder.previewRandomized")}</p>` : null
    ]
    /** @param {ReadonlyArray<string>} columns @param {string} mark */
    const scaleOf = (columns, mark) =>
      html`<div class="row">${columns.map((c) => html`<span class="choice">${mark} ${c}</span>`)}</div>`
    const partsPreview = () => {
      const parts = questionTypes.find((info) => info.type === draft.type)?.parts ?? []
      /** @type {ReadonlyArray<string>} */
      const asked = draft.options.parts ?? parts.filter((p) => p.asked).map((p) => p.name)
      return asked.map(
        (name) => html`<span class="choice muted">${parts.find((p) => p.name === name)?.label ?? name}</span>`
      )
    }
    /** @param {number} min @param {number} max */
    const scale = (min, max) =>
      html`<div class="row">${Array.from({ length: Math.max(0, max - min + 1) }, (_, i) => html`<span class="choice">${min + i}</span>`)}</div>`
    const input =
      {
        select: () =>
          withOther(
            choices.map((c) => html`<span class="choice">○ ${c}</span>`),
            "○"
          ),
        checkboxes: () =>
          withOther(
            choices.map((c) => html`<span class="choice">☐ ${c}</span>`),
            "☐"
          ),
        rating: () => scale(1, draft.options.max ?? 5),
        nps: () => scale(0, 10),
        opinion_scale: () => scale(draft.options.min ?? 1, draft.options.max ?? 5),
        slider: () =>
          html`<div class="row"><span>${draft.options.minLabel ?? draft.options.min ?? 0}</span><span class="choice muted" aria-hidden="true">——●——</span><span>${draft.options.maxLabel ?? draft.options.max ?? 100}</span></div>`,
        yes_no: () =>
          html`<div class="row"><span class="choice">${t("builder.previewYes")}</span><span class="choice">${t("builder.previewNo")}</span></div>`,
        legal: () => html`<span class="choice">☐ ${t("builder.previewAccept")}</span>`,
        matrix: () =>
          (draft.options.rows ?? []).map(
            (/** @type {string} */ row) =>
              html`<p class="muted">${row}</p>${scaleOf(draft.options.columns ?? [], draft.options.multiple === true ? "☐" : "○")}`
          ),
        ranking: () =>
          html`<ol>${choices.slice(0, draft.options.top ?? choices.length).map((c) => html`<li class="choice">${c}</li>`)}</ol>`,
        contact: () => partsPreview(),
        address: () => partsPreview(),
        statement: () => null,
        file: () => html`<span class="choice">${t("builder.previewChooseFile")}</span>`,
        signature: () =>
          html`<span class="choice muted">✍ ${t("builder.previewSignatureDraw")}</span><span class="choice">☐ ${t("builder.previewSignatureAgree")}</span>`,
        long_text: () =>
          html`<span class="choice muted">${draft.options.placeholder || t("builder.previewLongAnswer")}</span>`
      }[draft.type] ??
      (() => html`<span class="choice muted">${draft.options.placeholder || typeName(draft.type)}</span>`)
    return html`<p class="q">${draft.label || t("builder.previewNoText")}${draft.required ? html`<span aria-hidden="true"> *</span>` : null}</p>
      ${draft.options.help ? html`<p class="muted">${draft.options.help}</p>` : null}
      ${input()}`
  }
  const body = () =>
    at < 0 || screen === undefined
      ? html`<p class="q">${title}</p><p class="muted">${t("builder.previewWelcome")}</p>`
      : html`<p class="muted">${t("builder.previewPosition", { position: at + 1, total: screens.length })}</p>${screen.map((d) => question(d))}`
  return html`<section class="preview" aria-labelledby="preview-title">
    <h2 id="preview-title">${t("builder.previewTitle")}</h2>
    <div aria-live="polite">${body()}</div>
    <div class="row">
      <button onClick=${() => setIndex(Math.max(-1, at - 1))} disabled=${at < 0}>${t("builder.previewBack")}</button>
      <button onClick=${() => setIndex(Math.min(screens.length - 1, at + 1))} disabled=${at >= screens.length - 1}>${t("builder.previewNext")}</button>
    </div>
  </section>`
}

/** @param {{ formId: number, canWrite: boolean }} props */
const StagesEditor = ({ formId, canWrite }) => {
  const [stages, setStages] = useState(/** @type {ReadonlyArray<Stage>} */ ([]))
  const [name, setName] = useState("")
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const load = () =>
    api.get(`/forms/${formId}/stages`).then(
      /** @param {{ stages: ReadonlyArray<Stage> }} r */ (r) => setStages(r.stages),
      (e) => setError(messageOf(e))
    )
  useEffect(() => {
    load()
  }, [formId])
  /** @param {() => Promise<unknown>} action */
  const act = (action) => {
    setError(null)
    action().then(load, (e) => setError(messageOf(e)))
  }
  /** @param {number} index @param {number} delta */
  const move = (index, delta) =>
    act(() => api.put(`/forms/${formId}/stages/order`, { stageIds: moved(stages, index, delta).map((s) => s.id) }))
  return html`<section aria-labelledby="stages-title">
    <h2 id="stages-title">${t("builder.stagesTitle")}</h2>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    ${stages.map(
      (stage, index) => html`<div class="stage-row" key=${stage.id}>
      <input type="text" aria-label=${t("builder.stageName", { position: index + 1 })} value=${stage.name} disabled=${!canWrite}
        onChange=${(e) => act(() => api.patch(`/stages/${stage.id}`, { name: e.target.value }))} />
      <input type="text" aria-label=${t("builder.stagePublicName", { stage: stage.name })} placeholder=${t("builder.stagePublicNameNone")}
        value=${stage.publicName ?? ""} disabled=${!canWrite} maxlength="60"
        onChange=${(e) => act(() => api.patch(`/stages/${stage.id}`, { publicName: e.target.value.trim() === "" ? null : e.target.value }))} />
      <input type="color" aria-label=${t("builder.stageColor", { stage: stage.name })} value=${stage.color ?? "#888888"} disabled=${!canWrite}
        onChange=${(e) => act(() => api.patch(`/stages/${stage.id}`, { color: e.target.value }))} />
      <label><input type="checkbox" checked=${stage.isClosed} disabled=${!canWrite}
        onChange=${(e) => act(() => api.patch(`/stages/${stage.id}`, { isClosed: e.target.checked }))} /> ${t("builder.stageClosed")}</label>
      ${
        canWrite
          ? html`<div class="row">
        <${MoveButtons} index=${index} count=${stages.length} up=${t("builder.stageMoveUp", { stage: stage.name })}
          down=${t("builder.stageMoveDown", { stage: stage.name })} move=${(/** @type {number} */ delta) => move(index, delta)} />
        <button class="danger" aria-label=${t("builder.stageDelete", { stage: stage.name })} onClick=${() => confirm(t("builder.stageDeleteConfirm", { stage: stage.name })) && act(() => api.del(`/stages/${stage.id}`))}>${t("builder.delete")}</button>
      </div>`
          : html`<span></span>`
      }
    </div>`
    )}
    ${
      canWrite
        ? html`<form class="row" onSubmit=${(e) => {
            e.preventDefault()
            act(() => api.post(`/forms/${formId}/stages`, { name }).then(() => setName("")))
          }}>
      <label for="new-stage">${t("builder.newStage")}</label>
      <input id="new-stage" type="text" required maxlength="50" value=${name} onInput=${(e) => setName(e.target.value)} />
      <button type="submit">${t("builder.addStage")}</button>
    </form>`
        : null
    }
  </section>`
}

/** @param {{ route: import("../shell/Routes.js").Route, canWrite: boolean }} props */
export const BuilderScreen = ({ route, canWrite }) => {
  const formId = route.formId ?? 0
  const [form, setForm] = useState(/** @type {FormWithFields | null} */ (null))
  const [drafts, setDrafts] = useState(/** @type {ReadonlyArray<Draft>} */ ([]))
  const [title, setTitle] = useState("")
  const [description, setDescription] = useState("")
  const [newType, setNewType] = useState(/** @type {FieldType} */ ("short_text"))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  const [dirty, setDirty] = useState(false)
  const [hidden, setHidden] = useState(/** @type {ReadonlyArray<HiddenField> | null} */ (null))
  const [settings, setSettings] = useState(/** @type {FormWithFields["settings"]} */ ({}))

  const load = () =>
    api.get(`/forms/${formId}`).then(
      /** @param {FormWithFields} f */
      (f) => {
        setForm(f)
        setTitle(f.title)
        setDescription(f.description ?? "")
        setDrafts(f.fields.map(draftOf))
        setHidden(Array.isArray(f.hiddenFields) ? f.hiddenFields : null)
        setSettings(f.settings ?? {})
        setDirty(false)
      },
      (e) => setError(messageOf(e))
    )
  useEffect(() => {
    load()
  }, [formId])

  /** @param {ReadonlyArray<Draft>} next */
  const change = (next) => {
    setDrafts(next)
    setDirty(true)
    setNotice(null)
  }
  /** @param {number} index @returns {(draft: Draft) => void} */
  const update = (index) => (draft) => change(drafts.map((d, i) => (i === index ? draft : d)))
  /** @param {number} index @param {number} delta */
  const move = (index, delta) => {
    const draft = drafts[index]
    if (draft === undefined) return
    change(moved(drafts, index, delta))
    requestAnimationFrame(() => document.getElementById(`q${draft.key}-label`)?.focus())
  }
  const add = () => {
    const draft = draftOf({
      type: newType,
      label: "",
      required: false,
      options:
        newType === "select" || newType === "checkboxes"
          ? { choices: [t("builder.defaultChoice", { number: 1 }), t("builder.defaultChoice", { number: 2 })] }
          : {}
    })
    change([...drafts, draft])
    requestAnimationFrame(() => document.getElementById(`q${draft.key}-label`)?.focus())
  }
  /** @param {"published" | "closed"} [status] */
  const save = async (status) => {
    setError(null)
    setNotice(null)
    try {
      await api.patch(`/forms/${formId}`, {
        title,
        description: description.trim() === "" ? null : description,
        fields: drafts.map(toInput),
        ...(status === undefined ? {} : { status }),
        ...(hidden === null ? {} : { hiddenFields: hidden }),
        settings
      })
      await load()
      setNotice(
        status === undefined
          ? t("builder.saved")
          : status === "published"
            ? t("builder.savedPublished")
            : t("builder.savedClosed")
      )
    } catch (e) {
      setError(messageOf(e))
    }
  }

  // What calculations and conditions may name: the declared variables, and `score` once choices give points.
  const declared = settings.variables ?? []
  const variables =
    declared.some((v) => v.name === "score") ||
    !drafts.some((d) => d.options.points !== undefined && Object.keys(d.options.points).length > 0)
      ? declared
      : [...declared, { name: "score", type: "number" }]
  const prefillSyntax = html`<code>?prefill.<var>${t("builder.prefillQuestionId")}</var>=${t("builder.prefillValue")}</code>`
  if (form === null)
    return error
      ? html`<h1 tabindex="-1">${t("builder.formHeading")}</h1><p class="error" role="alert">${error}</p>`
      : html`<p class="loading">${t("builder.loading")}</p>`
  return html`<div class="spread">
      <h1 tabindex="-1">${form.title} <span class=${`badge ${form.status}`}>${t("builder.status", { status: form.status })}</span></h1>
      <div class="row">
        <a class="button" href=${`${base}/app/forms/${formId}/responses`}>${t("builder.responses")}</a>
        ${form.status === "published" ? html`<a href=${publicUrl(form.publicId)} target="_blank" rel="noopener">${t("builder.publicPage")}</a>` : null}
      </div>
    </div>
    <div aria-live="polite">${error ? html`<p class="error" role="alert">${error}</p>` : null}${notice ? html`<p class="notice">${notice}</p>` : null}</div>
    <div class="builder">
      <div>
        <div class="card stack">
          <label for="form-title">${t("builder.title")}</label>
          <input id="form-title" type="text" maxlength="200" value=${title} disabled=${!canWrite} onInput=${(e) => {
            setTitle(e.target.value)
            setDirty(true)
          }} />
          <label for="form-description">${t("builder.description")}</label>
          <textarea id="form-description" disabled=${!canWrite} value=${description} onInput=${(e) => {
            setDescription(e.target.value)
            setDirty(true)
          }}></textarea>
          <label><input type="checkbox" id="form-skip-prefilled" disabled=${!canWrite} checked=${settings.skipPrefilled === true}
            onChange=${(e) => {
              setSettings({ ...settings, skipPrefilled: e.target.checked ? true : undefined })
              setDirty(true)
            }} /> ${t("builder.skipPrefilled")}</label>
          <label><input type="checkbox" id="form-one-per-email" disabled=${!canWrite} checked=${settings.oneResponsePerEmail === true}
            onChange=${(e) => {
              setSettings({ ...settings, oneResponsePerEmail: e.target.checked ? true : undefined })
              setDirty(true)
            }} /> ${t("builder.onePerEmail")}</label>
          <label><input type="checkbox" id="form-one-per-device" disabled=${!canWrite} checked=${settings.oneResponsePerDevice === true}
            onChange=${(e) => {
              setSettings({ ...settings, oneResponsePerDevice: e.target.checked ? true : undefined })
              setDirty(true)
            }} /> ${t("builder.onePerDevice")}</label>
          <div class="row">
            <div class="stack"><label for="form-closes-at">${t("builder.closesAt")}</label>
              <input id="form-closes-at" type="datetime-local" disabled=${!canWrite} value=${localInput(settings.closesAt)}
                onInput=${(e) => {
                  const at = e.target.value === "" ? undefined : new Date(e.target.value)
                  setSettings({
                    ...settings,
                    closesAt: at === undefined || Number.isNaN(at.getTime()) ? undefined : at.toISOString()
                  })
                  setDirty(true)
                }} /></div>
            <div class="stack"><label for="form-max-responses">${t("builder.maxResponses")}</label>
              <input id="form-max-responses" type="number" min="1" step="1" disabled=${!canWrite} value=${settings.maxResponses ?? ""}
                onInput=${(e) => {
                  setSettings({ ...settings, maxResponses: numberOrUndefined(e.target.value) })
                  setDirty(true)
                }} /></div>
          </div>
          <label for="form-access-code">${t("builder.accessCode")}</label>
          <input id="form-access-code" type="text" maxlength="64" autocomplete="off" spellcheck="false" disabled=${!canWrite}
            aria-describedby="form-access-code-help" value=${settings.accessCode ?? ""} onInput=${(e) => {
              setSettings({ ...settings, accessCode: e.target.value.trim() === "" ? undefined : e.target.value })
              setDirty(true)
            }} />
          <p class="muted" id="form-access-code-help">${t("builder.accessCodeHelp")}</p>
          <${ThemeEditor} theme=${settings.theme} disabled=${!canWrite} onChange=${(theme) => {
            setSettings({ ...settings, theme })
            setDirty(true)
          }} />
          <label for="form-retention-action">${t("builder.retention")}</label>
          <select id="form-retention-action" disabled=${!canWrite} aria-describedby="form-retention-help"
            value=${settings.retention?.action ?? ""} onChange=${(e) => {
              const action = e.target.value
              setSettings({
                ...settings,
                retention:
                  action === "delete" || action === "anonymise"
                    ? { days: settings.retention?.days ?? 365, action }
                    : undefined
              })
              setDirty(true)
            }}>
            <option value="">${t("builder.retentionForever")}</option>
            <option value="delete">${t("builder.retentionDelete")}</option>
            <option value="anonymise">${t("builder.retentionAnonymise")}</option>
          </select>
          ${
            settings.retention
              ? html`<label for="form-retention-days">${t("builder.retentionDays")}</label>
          <input id="form-retention-days" type="number" min="1" max="3650" step="1" disabled=${!canWrite}
            value=${settings.retention.days} onInput=${(e) => {
              const retention = settings.retention
              if (retention)
                setSettings({ ...settings, retention: { ...retention, days: numberOrUndefined(e.target.value) ?? 0 } })
              setDirty(true)
            }} />`
              : null
          }
          <p class="muted" id="form-retention-help">${t("builder.retentionHelp")}</p>
          <label for="form-editable-hours">${t("builder.editableForHours")}</label>
          <input id="form-editable-hours" type="number" min="1" max="720" step="1" disabled=${!canWrite}
            aria-describedby="form-editable-hours-help" value=${settings.editableForHours ?? ""} onInput=${(e) => {
              setSettings({ ...settings, editableForHours: numberOrUndefined(e.target.value) })
              setDirty(true)
            }} />
          <p class="muted" id="form-editable-hours-help">${t("builder.editableForHoursHelp")}</p>
          <fieldset class="sla-targets" aria-describedby="form-sla-help">
            <legend>${t("builder.sla")}</legend>
            ${
              /** @type {const} */ ([
                ["firstResponseMinutes", "builder.slaFirstResponse", 1],
                ["resolveMinutes", "builder.slaResolve", 1],
                ["warnBeforeMinutes", "builder.slaWarnBefore", 0]
              ]).map(
                ([key, label, min]) => html`<label for=${`form-sla-${key}`}>${t(label)}</label>
            <input id=${`form-sla-${key}`} type="number" min=${min} max="100000" step="1" disabled=${!canWrite}
              value=${settings.sla?.[key] ?? ""} onInput=${(e) => {
                const sla = { ...(settings.sla ?? {}), [key]: numberOrUndefined(e.target.value) }
                if (sla[key] === undefined) delete sla[key]
                setSettings({ ...settings, sla: Object.keys(sla).length === 0 ? undefined : sla })
                setDirty(true)
              }} />`
              )
            }
            <p class="muted" id="form-sla-help">${t("builder.slaHelp")}</p>
          </fieldset>
          <label for="form-closed-message">${t("builder.closedMessage")}</label>
          <textarea id="form-closed-message" maxlength="1000" disabled=${!canWrite} placeholder=${t("builder.closedMessagePlaceholder")}
            value=${settings.closedMessage ?? ""} onInput=${(e) => {
              setSettings({ ...settings, closedMessage: e.target.value.trim() === "" ? undefined : e.target.value })
              setDirty(true)
            }}></textarea>
          <p class="muted">${
            form.fields[0] === undefined
              ? withParts("builder.prefillHelp", { syntax: prefillSyntax })
              : withParts("builder.prefillHelpExample", {
                  syntax: prefillSyntax,
                  example: html`<code>?prefill.${form.fields[0].id}=…</code>`
                })
          }</p>
        </div>
        <h2>${t("builder.questions")}</h2>
        ${drafts.length === 0 ? html`<p class="muted">${t("builder.noQuestions")}</p>` : null}
        <ol class="stack" aria-label=${t("builder.questions")}>
        ${drafts.map(
          (draft, index) => html`<li class="question-card" key=${draft.key}>
          <div class="fields">
            <div class="stack"><label for=${`q${draft.key}-label`}>${t("builder.questionNumber", { position: index + 1 })}</label>
              <input id=${`q${draft.key}-label`} type="text" disabled=${!canWrite} value=${draft.label} onInput=${(e) => update(index)({ ...draft, label: e.target.value })} /></div>
            <div class="stack"><label for=${`q${draft.key}-type`}>${t("builder.type")}</label>
              <select id=${`q${draft.key}-type`} disabled=${!canWrite} value=${draft.type} onChange=${(e) => update(index)({ ...draft, type: e.target.value })}>
                ${questionTypes.map(({ type, label }) => html`<option value=${type}>${label}</option>`)}
              </select></div>
          </div>
          ${draft.type !== "statement" ? html`<label><input type="checkbox" disabled=${!canWrite} checked=${draft.required} onChange=${(e) => update(index)({ ...draft, required: e.target.checked })} /> ${t("builder.required")}</label>` : null}
          ${draft.type !== "statement" ? html`<label title=${t("builder.sensitiveHelp")}><input type="checkbox" disabled=${!canWrite} checked=${draft.sensitive === true} onChange=${(e) => update(index)({ ...draft, sensitive: e.target.checked })} /> ${t("builder.sensitive")}</label>` : null}
          <${OptionsEditor} draft=${draft} update=${update(index)} disabled=${!canWrite} />
          ${
            (settings.pages ?? []).length === 0
              ? null
              : html`<div class="stack"><label for=${`q${draft.key}-page`}>${t("builder.page")}</label>
            <select id=${`q${draft.key}-page`} disabled=${!canWrite} value=${draft.page ?? ""}
              onChange=${(e) => {
                const { page: _, ...rest } = draft
                update(index)(e.target.value === "" ? rest : { ...rest, page: e.target.value })
              }}>
              <option value="">${t("builder.pageOwn")}</option>
              ${(settings.pages ?? []).map((p) => html`<option value=${p.key}>${p.title ?? p.key}</option>`)}
            </select></div>`
          }
          ${hidden === null ? null : html`<${LogicEditor} draft=${draft} index=${index} drafts=${drafts} hidden=${hidden} variables=${variables} endings=${settings.endings ?? []} pages=${settings.pages ?? []} update=${update(index)} disabled=${!canWrite} />`}
          ${
            canWrite
              ? html`<div class="row">
            <button aria-label=${t("builder.moveUp", { position: index + 1 })} disabled=${index === 0} onClick=${() => move(index, -1)}>${t("builder.up")}</button>
            <button aria-label=${t("builder.moveDown", { position: index + 1 })} disabled=${index === drafts.length - 1} onClick=${() => move(index, 1)}>${t("builder.down")}</button>
            <button class="danger" aria-label=${t("builder.deleteQuestion", { position: index + 1 })} onClick=${() => change(drafts.filter((_, i) => i !== index))}>${t("builder.delete")}</button>
          </div>`
              : null
          }
        </li>`
        )}
        </ol>
        ${
          canWrite
            ? html`<div class="row card">
          <label for="new-type">${t("builder.addQuestionType")}</label>
          <select id="new-type" value=${newType} onChange=${(e) => setNewType(e.target.value)}>
            ${questionTypes.map(({ type, label }) => html`<option value=${type}>${label}</option>`)}
          </select>
          <button onClick=${add}>${t("builder.addQuestion")}</button>
        </div>
        <div class="row">
          <button class="primary" onClick=${() => save()} disabled=${!dirty}>${t("builder.save")}</button>
          ${form.status !== "published" ? html`<button onClick=${() => save("published")}>${t("builder.saveAndPublish")}</button>` : html`<button onClick=${() => save("closed")}>${t("builder.saveAndClose")}</button>`}
          ${dirty ? html`<span class="muted">${t("builder.unsavedChanges")}</span>` : null}
        </div>`
            : null
        }
        ${
          hidden === null
            ? null
            : html`<${HiddenFieldsEditor} hidden=${hidden} setHidden=${(
                /** @type {ReadonlyArray<HiddenField>} */ next
              ) => {
                setHidden(next)
                setDirty(true)
              }} disabled=${!canWrite} />`
        }
        ${
          hidden === null
            ? null
            : html`<${VariablesEditor} variables=${settings.variables ?? []} disabled=${!canWrite} setVariables=${(
                next
              ) => {
                setSettings(({ variables: _, ...rest }) => (next.length === 0 ? rest : { ...rest, variables: next }))
                setDirty(true)
              }} />
        <${PagesEditor} pages=${settings.pages ?? []} disabled=${!canWrite}
          setPages=${(next) => {
            setSettings(({ pages: _, ...rest }) => (next.length === 0 ? rest : { ...rest, pages: next }))
            // Questions on a page that is gone are asked on their own again.
            const keys = new Set(next.map((p) => p.key))
            change(
              drafts.map((d) => (d.page === undefined || keys.has(d.page) ? d : (({ page: _, ...rest }) => rest)(d)))
            )
            setDirty(true)
          }} />
        <${EndingsEditor} endings=${settings.endings ?? []} questions=${drafts.filter((d) => d.id !== undefined)} hidden=${hidden} variables=${variables} disabled=${!canWrite}
          setEndings=${(next) => {
            setSettings(({ endings: _, ...rest }) => (next.length === 0 ? rest : { ...rest, endings: next }))
            setDirty(true)
          }} />`
        }
        <${StagesEditor} formId=${formId} canWrite=${canWrite} />
        <${AssignmentEditor} formId=${formId} canWrite=${canWrite} />
        <${CaseFieldsEditor} formId=${formId} canWrite=${canWrite} />
        <${NotificationsEditor} formId=${formId} canWrite=${canWrite} />
        <${ConfirmationEditor} formId=${formId} canWrite=${canWrite} />
        <${TranslationsEditor} formId=${formId} canWrite=${canWrite} language=${settings.language}
          onLanguage=${(language) => {
            setSettings(({ language: _, ...rest }) => (language === undefined ? rest : { ...rest, language }))
            setDirty(true)
          }} />
      </div>
      <${Preview} title=${title} drafts=${drafts} />
    </div>`
}
