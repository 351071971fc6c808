// @ts-check
// Forms: list with status and response counts, create, duplicate, delete, publish/close, public link and embed snippet,
// generate; above the list, once there is a form, how the cases of every form are doing (insights/CaseMetrics.js).
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { TableScroll } from "../shared/TableScroll.js"
import { api, base, copy, messageOf, navigate, publicUrl } from "../shared/Api.js"
import { WorkspaceCases } from "../insights/CaseMetrics.js"
import { formatDateTime, formatNumber, t } from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").FormSummary} FormSummary */
/** @typedef {import("../shared/Types.js").FormWithFields} FormWithFields */

/** @param {FormSummary} form */
const embedSnippet = (form) =>
  `<iframe src="${publicUrl(form.publicId)}" title="${form.title.replaceAll('"', "&quot;")}"\n        style="width:100%;max-width:720px;height:640px;border:0" loading="lazy"></iframe>`

/** @param {{ canWrite: boolean }} props */
export const FormsScreen = ({ canWrite }) => {
  const [forms, setForms] = useState(/** @type {ReadonlyArray<FormSummary> | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  const [title, setTitle] = useState("")
  const [prompt, setPrompt] = useState("")
  const [busy, setBusy] = useState(false)
  const [details, setDetails] = useState(/** @type {Record<number, boolean>} */ ({}))

  // Each load of the list (after a form is created, duplicated or deleted) counts the cases again too.
  const [loads, setLoads] = useState(0)
  const load = () =>
    api.get("/forms").then(
      /** @param {ReadonlyArray<FormSummary>} list */
      (list) => {
        setForms(list)
        setLoads((n) => n + 1)
      },
      (e) => setError(messageOf(e))
    )
  useEffect(() => {
    load()
  }, [])

  /**
   * @template T
   * @param {() => Promise<T>} action
   * @param {string} [done]
   */
  const run = async (action, done) => {
    setBusy(true)
    setError(null)
    setNotice(null)
    try {
      const result = await action()
      if (done) setNotice(done)
      await load()
      return result
    } catch (e) {
      setError(messageOf(e))
    } finally {
      setBusy(false)
    }
  }

  /** @param {SubmitEvent} event */
  const create = (event) => {
    event.preventDefault()
    run(() => api.post("/forms", { title: title.trim() === "" ? t("forms.untitled") : title.trim() })).then((form) => {
      if (form) navigate(`/app/forms/${form.id}`)
    })
  }
  /** @param {SubmitEvent} event */
  const generate = (event) => {
    event.preventDefault()
    run(() => api.post("/v1/forms/generate", { prompt })).then((form) => {
      if (form) navigate(`/app/forms/${form.id}`)
    })
  }
  /** @param {FormSummary} form */
  const duplicate = (form) =>
    run(
      async () => {
        /** @type {FormWithFields} */
        const full = await api.get(`/forms/${form.id}`)
        const fields = full.fields.map(({ type, label, required, options }) => ({ type, label, required, options }))
        return api.post("/forms", {
          title: t("forms.copyTitle", { title: full.title }).slice(0, 200),
          description: full.description,
          fields
        })
      },
      t("forms.duplicated", { title: form.title })
    )
  /** @param {FormSummary} form */
  const remove = (form) => {
    if (!confirm(t("forms.confirmDelete", { title: form.title, count: form.responseCount }))) return
    run(() => api.del(`/forms/${form.id}`), t("forms.deleted", { title: form.title }))
  }
  /** @param {FormSummary} form @param {"published" | "closed"} status */
  const setStatus = (form, status) =>
    run(() => api.patch(`/forms/${form.id}`, { status }), t("forms.statusChanged", { title: form.title, status }))
  /** @param {string} text @param {string} copied what to say when it worked */
  const copyText = async (text, copied) => setNotice((await copy(text)) ? copied : t("forms.copyByHand", { text }))

  return html`<h1 tabindex="-1">${t("forms.title")}</h1>
    <div aria-live="polite">${error ? html`<p class="error" role="alert">${error}</p>` : null}${notice ? html`<p class="notice">${notice}</p>` : null}</div>
    ${
      canWrite
        ? html`<div class="grid">
      <form class="row card" onSubmit=${create} aria-label=${t("forms.createForm")}>
        <label for="new-title">${t("forms.newForm")}</label>
        <input id="new-title" type="text" maxlength="200" placeholder=${t("forms.titlePlaceholder")} value=${title} onInput=${(e) => setTitle(e.target.value)} />
        <button class="primary" type="submit" disabled=${busy}>${t("forms.create")}</button>
      </form>
      <form class="stack card" onSubmit=${generate} aria-label=${t("forms.generateForm")}>
        <label for="prompt">${t("forms.generateLabel")}</label>
        <textarea id="prompt" maxlength="4000" required placeholder=${t("forms.generatePlaceholder")} value=${prompt} onInput=${(e) => setPrompt(e.target.value)}></textarea>
        <div><button type="submit" disabled=${busy || prompt.trim() === ""}>${t("forms.generate")}</button></div>
      </form>
    </div>`
        : null
    }
    ${forms !== null && forms.length > 0 ? html`<${WorkspaceCases} version=${loads} />` : null}
    <h2>${t("forms.allForms")}</h2>
    ${
      forms === null
        ? html`<p class="loading">${t("forms.loading")}</p>`
        : forms.length === 0
          ? html`<p>${t("forms.empty")}</p>`
          : html`<${TableScroll} label=${t("forms.table")}><table>
      <thead><tr><th scope="col">${t("forms.colTitle")}</th><th scope="col">${t("forms.colStatus")}</th><th scope="col">${t("forms.colResponses")}</th><th scope="col">${t("forms.colChanged")}</th><th scope="col">${t("forms.colActions")}</th></tr></thead>
      <tbody>${forms.map(
        (form) => html`<tr key=${form.id}>
        <td><a href=${`${base}/app/forms/${form.id}`}>${form.title}</a></td>
        <td><span class=${`badge ${form.status}`}>${t("forms.status", { status: form.status })}</span></td>
        <td><a href=${`${base}/app/forms/${form.id}/responses`} aria-label=${t("forms.responsesTo", { count: form.responseCount, title: form.title })}>${formatNumber(form.responseCount)}</a></td>
        <td>${formatDateTime(form.updatedAt)}</td>
        <td><div class="row">
          ${canWrite && form.status !== "published" ? html`<button onClick=${() => setStatus(form, "published")} aria-label=${t("forms.publishForm", { title: form.title })}>${t("forms.publish")}</button>` : null}
          ${canWrite && form.status === "published" ? html`<button onClick=${() => setStatus(form, "closed")} aria-label=${t("forms.closeForm", { title: form.title })}>${t("forms.close")}</button>` : null}
          <button onClick=${() => copyText(publicUrl(form.publicId), t("forms.linkCopied"))} aria-label=${t("forms.copyLinkOf", { title: form.title })}>${t("forms.copyLink")}</button>
          <button aria-expanded=${details[form.id] ? "true" : "false"} onClick=${() => setDetails({ ...details, [form.id]: !details[form.id] })} aria-label=${t("forms.embedForm", { title: form.title })}>${t("forms.embed")}</button>
          ${
            canWrite
              ? html`<button onClick=${() => duplicate(form)} aria-label=${t("forms.duplicateForm", { title: form.title })}>${t("forms.duplicate")}</button>
          <button class="danger" onClick=${() => remove(form)} aria-label=${t("forms.deleteForm", { title: form.title })}>${t("forms.delete")}</button>`
              : null
          }
        </div>
        ${
          details[form.id]
            ? html`<div class="stack">
          <label for=${`embed-${form.id}`}>${t("forms.embedSnippet")}</label>
          <textarea id=${`embed-${form.id}`} readonly value=${embedSnippet(form)}></textarea>
          <div class="row"><button onClick=${() => copyText(embedSnippet(form), t("forms.snippetCopied"))}>${t("forms.copySnippet")}</button>
          <a href=${publicUrl(form.publicId)} target="_blank" rel="noopener">${t("forms.openPublicPage")}</a></div>
        </div>`
            : null
        }
        </td>
      </tr>`
      )}</tbody>
    </table><//>`
    }`
}
