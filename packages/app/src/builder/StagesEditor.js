// @ts-check
// A form's stages of the case board: named (and named for the respondent), coloured, closed or open, ordered,
// added and deleted.
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { api, messageOf } from "../shared/Api.js"
import { MoveButtons, moved } from "../shared/Ordering.js"
import { t } from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").Stage} Stage */

/** @param {{ formId: number, canWrite: boolean }} props */
export const StagesEditor = ({ formId, canWrite }) => {
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
