// @ts-check
// The bulk actions on the selected responses of an inbox (a form's, the workspace's): a stage, an assignee, a tag
// added or removed.
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { api, messageOf } from "../shared/Api.js"
import { t } from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").ResponseList} ResponseList */
/** @typedef {import("../shared/Types.js").BulkUpdateResult} BulkUpdateResult */
/** @typedef {Pick<ResponseList, "stages" | "members">} Meta */

/**
 * The selected responses' bulk actions: one `PATCH /api/responses` each, applied to all of them or (when any
 * refuses, e.g. a response of another form for a stage) to none, with the server's reason announced.
 * The stage is offered only with stages to choose from (the workspace's inbox: once a form is chosen).
 * @param {{ meta: Meta, selected: Set<number>, done: () => void,
 *   announce: (message: string) => void }} props
 */
export const Bulk = ({ meta, selected, done, announce }) => {
  const [stage, setStage] = useState("")
  const [assignee, setAssignee] = useState("")
  const [tag, setTag] = useState("")
  const ids = [...selected]
  /**
   * @param {"inbox.bulkStageSet" | "inbox.bulkAssigned" | "inbox.bulkTagged" | "inbox.bulkUntagged"} report what to announce
   * @param {{ stageId?: number | null, assigneeId?: number | null, addTags?: string[], removeTags?: string[] }} change
   */
  const apply = async (report, change) => {
    try {
      /** @type {BulkUpdateResult} */
      const result = await api.patch("/responses", { ids, ...change })
      announce(t(report, { updated: result.changed, total: ids.length }))
    } catch (error) {
      announce(messageOf(error))
    }
    done()
  }
  return html`<div class="bulk" role="group" aria-label=${t("inbox.bulkActions")}>
    <strong>${t("inbox.selectedCount", { count: ids.length })}</strong>
    ${
      meta.stages.length === 0
        ? null
        : html`<label for="b-stage">${t("inbox.stage")}</label>
    <select id="b-stage" value=${stage} onChange=${(e) => setStage(e.target.value)}>
      <option value="">${t("inbox.choose")}</option><option value="none">${t("inbox.noStage")}</option>
      ${meta.stages.map((s) => html`<option value=${String(s.id)}>${s.name}</option>`)}</select>
    <button disabled=${stage === ""} onClick=${() => apply("inbox.bulkStageSet", { stageId: stage === "none" ? null : Number(stage) })}>${t("inbox.setStage")}</button>`
    }
    <label for="b-assignee">${t("inbox.assignLabel")}</label>
    <select id="b-assignee" value=${assignee} onChange=${(e) => setAssignee(e.target.value)}>
      <option value="">${t("inbox.choose")}</option><option value="none">${t("inbox.nobody")}</option>
      ${meta.members.map((m) => html`<option value=${String(m.accountId)}>${m.name ?? m.email}</option>`)}</select>
    <button disabled=${assignee === ""} onClick=${() => apply("inbox.bulkAssigned", { assigneeId: assignee === "none" ? null : Number(assignee) })}>${t("inbox.assign")}</button>
    <label for="b-tag">${t("inbox.tag")}</label>
    <input id="b-tag" type="text" maxlength="30" value=${tag} onInput=${(e) => setTag(e.target.value)} />
    <button disabled=${tag.trim() === ""} onClick=${() => apply("inbox.bulkTagged", { addTags: [tag.trim()] })}>${t("inbox.addTag")}</button>
    <button disabled=${tag.trim() === ""} onClick=${() => apply("inbox.bulkUntagged", { removeTags: [tag.trim()] })}>${t("inbox.removeTag")}</button>
  </div>`
}
