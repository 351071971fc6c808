// @ts-check
// Pictures from the workspace's image library (`/api/images`): a theme's logo and a choice's picture. One picker
// uploads a new image or takes one already in the library, shows it, and takes it off again.
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { api, base, messageOf } from "./Api.js"
import { t } from "./Words.js"

/** @typedef {import("./Types.js").Image} Image */

/** The library, loaded once per page and shared by every picker; reloaded after an upload. */
/** @type {Promise<ReadonlyArray<Image>> | undefined} */
let library
const loadLibrary = () => {
  library ??= api.get("/images").then((/** @type {{ data: ReadonlyArray<Image> }} */ list) => list.data)
  return library
}

/** Where the app shows an image of the library. @param {string} imageId */
export const imageUrl = (imageId) => `${base}/api/images/${encodeURIComponent(imageId)}`

/**
 * Picks an image of the library: upload a PNG, JPEG, GIF or WebP (at most 2 MB), or take one uploaded before.
 * @param {{ id: string, label: string, value: string | undefined, onChange: (imageId: string | undefined) => void, disabled: boolean }} props
 */
export const ImagePicker = ({ id, label, value, onChange, disabled }) => {
  const [images, setImages] = useState(/** @type {ReadonlyArray<Image>} */ ([]))
  const [error, setError] = useState("")
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    loadLibrary().then(setImages, () => setImages([]))
  }, [])
  /** @param {File} file */
  const upload = async (file) => {
    setBusy(true)
    setError("")
    try {
      const body = new FormData()
      body.append("file", file, file.name)
      /** @type {Image} */
      const image = await api.post("/images", body)
      library = undefined
      setImages(await loadLibrary())
      onChange(image.id)
    } catch (failure) {
      setError(messageOf(failure))
    } finally {
      setBusy(false)
    }
  }
  const current = images.find((image) => image.id === value)
  return html`<fieldset class="stack image-picker">
    <legend>${label}</legend>
    ${
      value === undefined
        ? null
        : html`<div class="row"><img class="thumb" src=${imageUrl(value)} alt=${t("images.pictureAlt", { label, name: current?.name ?? value })} />
          <button type="button" id=${`${id}-remove`} disabled=${disabled} onClick=${() => onChange(undefined)}>${t("images.remove")}</button></div>`
    }
    <div class="row">
      <div class="stack"><label for=${`${id}-file`}>${t("images.upload")}</label>
        <input id=${`${id}-file`} type="file" accept="image/png,image/jpeg,image/gif,image/webp" disabled=${disabled || busy}
          onChange=${(e) => {
            const file = e.target.files?.[0]
            if (file !== undefined) upload(file)
            e.target.value = ""
          }} /></div>
      ${
        images.length === 0
          ? null
          : html`<div class="stack"><label for=${`${id}-library`}>${t("images.library")}</label>
        <select id=${`${id}-library`} disabled=${disabled || busy} value=${value ?? ""}
          onChange=${(e) => onChange(e.target.value === "" ? undefined : e.target.value)}>
          <option value="">${t("images.none")}</option>
          ${images.map((image) => html`<option value=${image.id}>${image.name}</option>`)}
        </select></div>`
      }
    </div>
    ${busy ? html`<p role="status">${t("images.uploading")}</p>` : null}
    ${error === "" ? null : html`<p class="error" role="alert">${error}</p>`}
  </fieldset>`
}
