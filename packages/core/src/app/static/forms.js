// @ts-check
// Forms: list with status and response counts, create, duplicate, delete, publish/close, public link and embed snippet, generate.
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { TableScroll } from "./table.js"
import { api, base, copy, formatDate, messageOf, navigate, publicUrl } from "./api.js"

/** @typedef {import("./types.js").FormSummary} FormSummary */
/** @typedef {import("./types.js").FormWithFields} FormWithFields */

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

  const load = () => api.get("/forms").then(setForms, (e) => setError(messageOf(e)))
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
    run(() => api.post("/forms", { title: title.trim() === "" ? "Untitled form" : title.trim() })).then((form) => {
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
    run(async () => {
      /** @type {FormWithFields} */
      const full = await api.get(`/forms/${form.id}`)
      const fields = full.fields.map(({ type, label, required, options }) => ({ type, label, required, options }))
      return api.post("/forms", { title: `Copy of ${full.title}`.slice(0, 200), description: full.description, fields })
    }, `"${form.title}" duplicated.`)
  /** @param {FormSummary} form */
  const remove = (form) => {
    if (!confirm(`Delete "${form.title}" and all ${form.responseCount} of its responses? This cannot be undone.`))
      return
    run(() => api.del(`/forms/${form.id}`), `"${form.title}" deleted.`)
  }
  /** @param {FormSummary} form @param {"published" | "closed"} status */
  const setStatus = (form, status) =>
    run(() => api.patch(`/forms/${form.id}`, { status }), `"${form.title}" is now ${status}.`)
  /** @param {string} text @param {string} what */
  const copyText = async (text, what) => setNotice((await copy(text)) ? `${what} copied.` : `Copy it by hand: ${text}`)

  return html`<h1 tabindex="-1">Forms</h1>
    <div aria-live="polite">${error ? html`<p class="error" role="alert">${error}</p>` : null}${notice ? html`<p class="notice">${notice}</p>` : null}</div>
    ${
      canWrite
        ? html`<div class="grid">
      <form class="row card" onSubmit=${create} aria-label="Create a form">
        <label for="new-title">New form</label>
        <input id="new-title" type="text" maxlength="200" placeholder="Title" value=${title} onInput=${(e) => setTitle(e.target.value)} />
        <button class="primary" type="submit" disabled=${busy}>Create</button>
      </form>
      <form class="stack card" onSubmit=${generate} aria-label="Generate a form from a description">
        <label for="prompt">Generate from description</label>
        <textarea id="prompt" maxlength="4000" required placeholder="A contact form asking for name, e-mail and a message" value=${prompt} onInput=${(e) => setPrompt(e.target.value)}></textarea>
        <div><button type="submit" disabled=${busy || prompt.trim() === ""}>Generate</button></div>
      </form>
    </div>`
        : null
    }
    <h2>All forms</h2>
    ${
      forms === null
        ? html`<p class="loading">Loading…</p>`
        : forms.length === 0
          ? html`<p>No forms yet.</p>`
          : html`<${TableScroll} label="Forms table"><table>
      <thead><tr><th scope="col">Title</th><th scope="col">Status</th><th scope="col">Responses</th><th scope="col">Changed</th><th scope="col">Actions</th></tr></thead>
      <tbody>${forms.map(
        (form) => html`<tr key=${form.id}>
        <td><a href=${`${base}/app/forms/${form.id}`}>${form.title}</a></td>
        <td><span class=${`badge ${form.status}`}>${form.status}</span></td>
        <td><a href=${`${base}/app/forms/${form.id}/responses`} aria-label=${`${form.responseCount} responses to ${form.title}`}>${form.responseCount}</a></td>
        <td>${formatDate(form.updatedAt)}</td>
        <td><div class="row">
          ${canWrite && form.status !== "published" ? html`<button onClick=${() => setStatus(form, "published")} aria-label=${`Publish ${form.title}`}>Publish</button>` : null}
          ${canWrite && form.status === "published" ? html`<button onClick=${() => setStatus(form, "closed")} aria-label=${`Close ${form.title}`}>Close</button>` : null}
          <button onClick=${() => copyText(publicUrl(form.publicId), "Public link")} aria-label=${`Copy link of ${form.title}`}>Copy link</button>
          <button aria-expanded=${details[form.id] ? "true" : "false"} onClick=${() => setDetails({ ...details, [form.id]: !details[form.id] })} aria-label=${`Embed ${form.title}`}>Embed</button>
          ${
            canWrite
              ? html`<button onClick=${() => duplicate(form)} aria-label=${`Duplicate ${form.title}`}>Duplicate</button>
          <button class="danger" onClick=${() => remove(form)} aria-label=${`Delete ${form.title}`}>Delete</button>`
              : null
          }
        </div>
        ${
          details[form.id]
            ? html`<div class="stack">
          <label for=${`embed-${form.id}`}>Embed snippet</label>
          <textarea id=${`embed-${form.id}`} readonly value=${embedSnippet(form)}></textarea>
          <div class="row"><button onClick=${() => copyText(embedSnippet(form), "Embed snippet")}>Copy snippet</button>
          <a href=${publicUrl(form.publicId)} target="_blank" rel="noopener">Open the public page</a></div>
        </div>`
            : null
        }
        </td>
      </tr>`
      )}</tbody>
    </table><//>`
    }`
}
