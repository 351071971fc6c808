// @ts-check
// A form in other languages: its own language, each translation's progress, and an editor of one translation
// that shows every text of the form beside its words in the other language (`/api/forms/{id}/translations`).
// A translation by machine (the configured language model) arrives as a draft, to review and mark ready.
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { api, messageOf, shell } from "../shared/Api.js"
import { language as appLanguage, t } from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").TranslationList} TranslationList */
/** @typedef {import("../shared/Types.js").TranslationDetail} TranslationDetail */

/** Where a text goes, as people read it: "Question 12 · choice “Red”". @param {ReadonlyArray<string>} path */
const placeOf = (path) => {
  const [top = "", key = "", part = "", item = ""] = path
  // A field's "other" would meet ICU's own `other` case of a select: it goes as "otherChoice".
  if (top === "fields")
    return t("translations.placeField", { question: key, part: part === "other" ? "otherChoice" : part, item })
  if (top === "pages") return t("translations.placePage", { key, part })
  if (top === "endings") return t("translations.placeEnding", { key, part })
  if (top === "buttons") return t("translations.placeButton", { button: key })
  if (top === "confirmation") return t("translations.placeConfirmation", { part: key })
  return t("translations.placeForm", { part: top })
}

/**
 * The translation with each text at its path (empty ones left out), as the API takes it.
 * @param {ReadonlyArray<{ path: ReadonlyArray<string>, text: string | null }>} texts
 * @param {"ready" | "draft"} status
 */
const translationOf = (texts, status) => {
  /** @type {Record<string, unknown>} */
  const out = { status }
  for (const { path, text } of texts) {
    if (text === null || text.trim() === "") continue
    /** @type {Record<string, unknown>} */
    let at = out
    for (const key of path.slice(0, -1)) {
      const next = Object.hasOwn(at, key) ? at[key] : undefined
      if (typeof next === "object" && next !== null) at = /** @type {Record<string, unknown>} */ (next)
      else {
        /** @type {Record<string, unknown>} */
        const fresh = {}
        Object.defineProperty(at, key, { value: fresh, enumerable: true, writable: true, configurable: true })
        at = fresh
      }
    }
    const last = path.at(-1)
    if (last !== undefined)
      Object.defineProperty(at, last, { value: text, enumerable: true, writable: true, configurable: true })
  }
  return out
}

/** @param {{ formId: number, language: string, canWrite: boolean, onClose: () => void, onChanged: () => void }} props */
const TranslationEditor = ({ formId, language, canWrite, onClose, onChanged }) => {
  const [detail, setDetail] = useState(/** @type {TranslationDetail | null} */ (null))
  const [texts, setTexts] = useState(
    /** @type {ReadonlyArray<{ path: ReadonlyArray<string>, source: string, text: string | null }>} */ ([])
  )
  const [status, setStatus] = useState(/** @type {"ready" | "draft"} */ ("ready"))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  const [busy, setBusy] = useState(false)
  /** @param {TranslationDetail} d */
  const show = (d) => {
    setDetail(d)
    setTexts(d.texts)
    setStatus(d.status)
  }
  useEffect(() => {
    api.get(`/forms/${formId}/translations/${language}`).then(show, (e) => setError(messageOf(e)))
  }, [formId, language])
  /** @param {SubmitEvent} event */
  const save = (event) => {
    event.preventDefault()
    setError(null)
    api.put(`/forms/${formId}/translations/${language}`, translationOf(texts, status)).then(
      /** @param {TranslationDetail} d */
      (d) => {
        show(d)
        setNotice(d.status === "draft" ? t("translations.savedDraft") : t("translations.savedReady"))
        onChanged()
      },
      (e) => setError(messageOf(e))
    )
  }
  const byMachine = () => {
    setError(null)
    setBusy(true)
    api.post(`/forms/${formId}/translations/${language}/draft`).then(
      /** @param {TranslationDetail} d */
      (d) => {
        show(d)
        setBusy(false)
        setNotice(t("translations.machineDone"))
        onChanged()
      },
      (e) => {
        setBusy(false)
        setError(messageOf(e))
      }
    )
  }
  const id = `tr-${language}`
  return html`<section class="card stack" aria-labelledby=${`${id}-title`} lang=${appLanguage}>
    <div class="spread"><h3 id=${`${id}-title`}>${detail?.name ?? language} <span class="muted">(${language})</span></h3>
      <button type="button" onClick=${onClose}>${t("translations.close")}</button></div>
    <div aria-live="polite">${error ? html`<p class="error" role="alert">${error}</p>` : null}${notice ? html`<p class="notice">${notice}</p>` : null}</div>
    ${
      detail === null
        ? html`<p class="loading">${t("translations.loading")}</p>`
        : html`<form class="stack" onSubmit=${save}>
      <p class="muted">${t("translations.textsTranslated", { translated: detail.translated, total: detail.total })}</p>
      ${texts.map(
        (text, index) => html`<div class="stack translation-text">
          <label for=${`${id}-${index}`}>${placeOf(text.path)}</label>
          <p class="muted source" id=${`${id}-${index}-source`}>${text.source}</p>
          ${
            text.source.length > 80 || text.source.includes("\n")
              ? html`<textarea id=${`${id}-${index}`} lang=${language} dir="auto" disabled=${!canWrite} aria-describedby=${`${id}-${index}-source`}
                  value=${text.text ?? ""} onInput=${(e) => setTexts(texts.map((x, i) => (i === index ? { ...x, text: e.target.value } : x)))}></textarea>`
              : html`<input id=${`${id}-${index}`} type="text" lang=${language} dir="auto" disabled=${!canWrite} aria-describedby=${`${id}-${index}-source`}
                  value=${text.text ?? ""} onInput=${(e) => setTexts(texts.map((x, i) => (i === index ? { ...x, text: e.target.value } : x)))} />`
          }
        </div>`
      )}
      <label for=${`${id}-status`}>${t("translations.statusLabel")}</label>
      <select id=${`${id}-status`} disabled=${!canWrite} value=${status} onChange=${(e) => setStatus(e.target.value === "draft" ? "draft" : "ready")}>
        <option value="ready">${t("translations.statusReady")}</option>
        <option value="draft">${t("translations.statusDraft")}</option>
      </select>
      ${
        canWrite
          ? html`<div class="row"><button class="primary" type="submit">${t("translations.save")}</button>
        <button type="button" disabled=${busy || detail.missing.length === 0} onClick=${byMachine}>${busy ? t("translations.translating") : t("translations.byMachine")}</button></div>`
          : null
      }
    </form>`
    }
  </section>`
}

/** @param {{ formId: number, canWrite: boolean, language: string | undefined, onLanguage: (language: string | undefined) => void }} props */
export const TranslationsEditor = ({ formId, canWrite, language, onLanguage }) => {
  const [list, setList] = useState(/** @type {TranslationList | null} */ (null))
  const [open, setOpen] = useState(/** @type {string | null} */ (null))
  const [adding, setAdding] = useState("")
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const load = () => api.get(`/forms/${formId}/translations`).then(setList, (e) => setError(messageOf(e)))
  useEffect(() => {
    load()
  }, [formId])
  const own = language ?? "en"
  const taken = new Set([own, ...(list?.translations ?? []).map((translation) => translation.language)])
  const offered = shell.languages.filter((l) => !taken.has(l.tag))
  /** @param {SubmitEvent} event */
  const add = (event) => {
    event.preventDefault()
    const tag = adding.trim()
    if (tag === "") return
    setError(null)
    api.put(`/forms/${formId}/translations/${encodeURIComponent(tag)}`, { status: "draft" }).then(
      () => {
        setAdding("")
        setOpen(tag)
        load()
      },
      (e) => setError(messageOf(e))
    )
  }
  /** @param {string} tag */
  const remove = (tag) => {
    setError(null)
    api.del(`/forms/${formId}/translations/${tag}`).then(
      () => {
        if (open === tag) setOpen(null)
        load()
      },
      (e) => setError(messageOf(e))
    )
  }
  return html`<section aria-labelledby="translations-title">
    <h2 id="translations-title">${t("translations.title")}</h2>
    <div aria-live="polite">${error ? html`<p class="error" role="alert">${error}</p>` : null}</div>
    <div class="card stack">
      <label for="form-language">${t("translations.formLanguage")}</label>
      <select id="form-language" disabled=${!canWrite} value=${own} onChange=${(e) => onLanguage(e.target.value === "en" ? undefined : e.target.value)}>
        ${[...shell.languages.map((l) => l.tag), ...(shell.languages.some((l) => l.tag === own) ? [] : [own])].map(
          (tag) =>
            html`<option value=${tag}>${shell.languages.find((l) => l.tag === tag)?.name ?? tag} (${tag})</option>`
        )}
      </select>
      <p class="muted">${t("translations.formLanguageHelp")}</p>
      ${
        list === null
          ? html`<p class="loading">${t("translations.loading")}</p>`
          : list.translations.length === 0
            ? html`<p class="muted">${t("translations.none")}</p>`
            : html`<table><caption class="sr-only">${t("translations.table")}</caption>
          <thead><tr><th scope="col">${t("translations.colLanguage")}</th><th scope="col">${t("translations.colStatus")}</th><th scope="col">${t("translations.colTranslated")}</th><th scope="col"><span class="sr-only">${t("translations.colActions")}</span></th></tr></thead>
          <tbody>${list.translations.map(
            (tr) => html`<tr>
            <td><span lang=${tr.language}>${tr.name}</span> (${tr.language})</td>
            <td>${t("translations.status", { status: tr.status })}</td>
            <td>${t("translations.progress", { translated: tr.translated, total: tr.total })}</td>
            <td class="row"><button type="button" aria-label=${t("translations.editLanguage", { language: tr.language })} onClick=${() => setOpen(tr.language)}>${t("translations.edit")}</button>
              ${canWrite ? html`<button type="button" class="danger" aria-label=${t("translations.deleteLanguage", { language: tr.language })} onClick=${() => remove(tr.language)}>${t("translations.delete")}</button>` : null}</td>
          </tr>`
          )}</tbody></table>`
      }
      ${
        canWrite
          ? html`<form class="row" onSubmit=${add}>
        <label for="translation-add">${t("translations.addLanguage")}</label>
        <input id="translation-add" type="text" list="translation-languages" placeholder="de, fr, ar, pt-BR…" maxlength="16" value=${adding}
          onInput=${(e) => setAdding(e.target.value)} />
        <datalist id="translation-languages">${offered.map((l) => html`<option value=${l.tag}>${l.name}</option>`)}</datalist>
        <button type="submit">${t("translations.add")}</button>
      </form>`
          : null
      }
    </div>
    ${open === null ? null : html`<${TranslationEditor} key=${open} formId=${formId} language=${open} canWrite=${canWrite} onClose=${() => setOpen(null)} onChanged=${load} />`}
  </section>`
}
