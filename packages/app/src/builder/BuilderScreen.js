// @ts-check
// The form builder: the form's settings, its questions of every type with their options and logic, a live
// one-question-at-a-time preview, and the editors of its stages, assignment, case fields, notifications,
// confirmation e-mail and translations.
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { api, base, messageOf, publicUrl } from "../shared/Api.js"
import { ConfirmationEditor } from "./ConfirmationEditor.js"
import { EndingsEditor, HiddenFieldsEditor, LogicEditor, PagesEditor, VariablesEditor } from "./LogicEditors.js"
import { TranslationsEditor } from "./TranslationsEditor.js"
import { ThemeEditor } from "../shared/ThemeEditor.js"
import { NotificationsEditor } from "./NotificationsEditor.js"
import { AssignmentEditor } from "./AssignmentEditor.js"
import { CaseFieldsEditor } from "./CaseFieldsEditor.js"
import { moved } from "../shared/Ordering.js"
import { t, withParts } from "../shared/Words.js"
import { questionTypes, takesAnswer, typeInfo } from "../shared/QuestionTypes.js"
import { numberOrUndefined, localInput } from "./InputValues.js"
import { draftOf, toInput } from "./Drafts.js"
import { OptionsEditor } from "./OptionsEditor.js"
import { Preview } from "./Preview.js"
import { StagesEditor } from "./StagesEditor.js"

/** @typedef {import("../shared/Types.js").FormWithFields} FormWithFields */
/** @typedef {import("../shared/Types.js").FieldTypeInfo["type"]} FieldType */
/** @typedef {import("../shared/Types.js").HiddenField} HiddenField */
/** @typedef {import("./Drafts.js").Draft} Draft */

/** @param {{ route: import("../shell/Routes.js").Route, canWrite: boolean }} props */
export const BuilderScreen = ({ route, canWrite }) => {
  const formId = route.formId ?? 0
  const [form, setForm] = useState(/** @type {FormWithFields | null} */ (null))
  const [drafts, setDrafts] = useState(/** @type {ReadonlyArray<Draft>} */ ([]))
  const [title, setTitle] = useState("")
  const [description, setDescription] = useState("")
  // A new question is of the registry's first type unless another is chosen.
  const [newType, setNewType] = useState(/** @type {FieldType | undefined} */ (questionTypes[0]?.type))
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
    if (newType === undefined) return
    // A question that must have choices starts with two to rename.
    const draft = draftOf({
      type: newType,
      label: "",
      required: false,
      options: typeInfo(newType).requiredOptions.includes("choices")
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
        fields: drafts.map((draft) => toInput(draft, typeInfo(draft.type))),
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
          ${takesAnswer(draft.type) ? html`<label><input type="checkbox" disabled=${!canWrite} checked=${draft.required} onChange=${(e) => update(index)({ ...draft, required: e.target.checked })} /> ${t("builder.required")}</label>` : null}
          ${takesAnswer(draft.type) ? html`<label title=${t("builder.sensitiveHelp")}><input type="checkbox" disabled=${!canWrite} checked=${draft.sensitive === true} onChange=${(e) => update(index)({ ...draft, sensitive: e.target.checked })} /> ${t("builder.sensitive")}</label>` : null}
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
