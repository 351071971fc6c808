// @ts-check
// Merging duplicates on the case page: finding the other response of the same person, merging either way, the
// pointer's banner, and undoing a merge (`POST /api/responses/{id}/merge`, `DELETE /api/responses/{id}/merges/{dup}`).
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { api, base, messageOf, query } from "../shared/Api.js"
import { formatDateTime, t } from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").ResponseDetail} ResponseDetail */
/** @typedef {import("../shared/Types.js").ResponseRow} ResponseRow */
/** @typedef {import("../shared/Types.js").ResponseList} ResponseList */
/** @typedef {import("../shared/Types.js").Activity} Activity */

/** How long a merge can be undone (the server's `undoWindowMillis`; the server decides, this only hides the button). */
const undoWindowMillis = 24 * 60 * 60 * 1000

/** How a listed response reads: its number, name or e-mail, and when it came. @param {ResponseRow} row */
const label = (row) =>
  t("merge.candidate", {
    id: String(row.id),
    who: row.name ?? row.email ?? t("merge.anonymous"),
    date: formatDateTime(row.submittedAt)
  })

/**
 * The banner of a response merged into another: where its case went now, and the undo.
 * @param {{ row: ResponseRow, canWrite: boolean, onUndone: () => void }} props
 */
export const MergedBanner = ({ row, canWrite, onUndone }) => {
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const kept = row.mergedInto
  if (kept === undefined) return null
  const undo = async () => {
    setError(null)
    try {
      await api.del(`/responses/${kept}/merges/${row.id}`)
      onUndone()
    } catch (e) {
      setError(messageOf(e))
    }
  }
  return html`<div class="card stack" role="status">
    <p><strong>${t("merge.pointer", { id: String(kept) })}</strong>
      <a href=${`${base}/app/responses/${kept}`}>${t("merge.openKept", { id: String(kept) })}</a></p>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    ${canWrite ? html`<div><button type="button" onClick=${undo}>${t("merge.undo")}</button></div>` : null}
  </div>`
}

/**
 * Whether a `merged` activity can still be undone from the kept case: within the window, and not undone since.
 * @param {Activity} activity @param {ReadonlyArray<Activity>} activities @param {number} now
 */
export const undoable = (activity, activities, now) => {
  if (activity.type !== "merged") return false
  const duplicateId = /** @type {{ duplicateId?: unknown }} */ (activity.payload).duplicateId
  if (typeof duplicateId !== "number") return false
  if (now - Date.parse(activity.createdAt) >= undoWindowMillis) return false
  return !activities.some(
    (a) =>
      a.type === "unmerged" &&
      /** @type {{ duplicateId?: unknown }} */ (a.payload).duplicateId === duplicateId &&
      Date.parse(a.createdAt) >= Date.parse(activity.createdAt)
  )
}

/**
 * The undo of a merge, beside its activity on the kept case's timeline.
 * @param {{ keptId: number, activity: Activity, onDone: (error: string | null) => void }} props
 */
export const UndoMerge = ({ keptId, activity, onDone }) => {
  const duplicateId = /** @type {{ duplicateId: number }} */ (activity.payload).duplicateId
  const undo = async () => {
    try {
      await api.del(`/responses/${keptId}/merges/${duplicateId}`)
      onDone(null)
    } catch (e) {
      onDone(messageOf(e))
    }
  }
  return html` <button type="button" class="link" onClick=${undo}>${t("merge.undoOf", { id: String(duplicateId) })}</button>`
}

/**
 * Finding the duplicate of this case among its form's responses (by the respondent's e-mail or name first), and
 * merging it into this case, or this case into it; each asked once more before it is done.
 * @param {{ detail: ResponseDetail, onMerged: (keptId: number) => void }} props
 */
export const MergePanel = ({ detail, onMerged }) => {
  const row = detail.response
  const [search, setSearch] = useState(row.email ?? row.name ?? "")
  const [found, setFound] = useState(/** @type {ReadonlyArray<ResponseRow> | null} */ (null))
  const [pending, setPending] = useState(/** @type {{ kept: number, duplicate: number } | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  /** @param {SubmitEvent} event */
  const find = async (event) => {
    event.preventDefault()
    setError(null)
    setPending(null)
    try {
      /** @type {ResponseList} */
      const list = await api.get(
        `/forms/${detail.form.id}/responses${query({ q: search.trim() === "" ? undefined : search.trim(), limit: 11 })}`
      )
      setFound(list.responses.filter((r) => r.id !== row.id).slice(0, 10))
    } catch (e) {
      setError(messageOf(e))
    }
  }
  const merge = async () => {
    if (pending === null) return
    setError(null)
    try {
      await api.post(`/responses/${pending.kept}/merge`, { duplicateId: pending.duplicate })
      setPending(null)
      setFound(null)
      onMerged(pending.kept)
    } catch (e) {
      setError(messageOf(e))
    }
  }
  return html`<div class="stack">
    <strong id="merge-label">${t("merge.title")}</strong>
    <p class="muted">${t("merge.help")}</p>
    <form class="row" role="search" aria-labelledby="merge-label" onSubmit=${find}>
      <label for="merge-search">${t("merge.search")}</label>
      <input id="merge-search" type="search" maxlength="200" value=${search} onInput=${(e) => setSearch(e.target.value)} />
      <button type="submit">${t("merge.find")}</button>
    </form>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    ${
      found === null
        ? null
        : found.length === 0
          ? html`<p class="muted">${t("merge.noneFound")}</p>`
          : html`<ul class="plain stack" aria-label=${t("merge.found")}>${found.map(
              (other) => html`<li key=${other.id} class="stack">
                <span>${label(other)}</span>
                <div class="row">
                  <button type="button" onClick=${() => setPending({ kept: row.id, duplicate: other.id })}>${t("merge.intoThis", { id: String(other.id) })}</button>
                  <button type="button" onClick=${() => setPending({ kept: other.id, duplicate: row.id })}>${t("merge.thisInto", { id: String(other.id) })}</button>
                </div>
              </li>`
            )}</ul>`
    }
    ${
      pending === null
        ? null
        : html`<div class="card stack" role="alertdialog" aria-labelledby="merge-confirm">
      <p id="merge-confirm">${t("merge.confirm", { kept: String(pending.kept), duplicate: String(pending.duplicate) })}</p>
      <div class="row">
        <button class="primary" type="button" onClick=${merge}>${t("merge.confirmButton")}</button>
        <button type="button" onClick=${() => setPending(null)}>${t("merge.cancel")}</button>
      </div>
    </div>`
    }
  </div>`
}
