/**
 * The document around every screen of the public page: its head (the page's
 * style and, when asked, its script, both under the response's CSP nonce),
 * its language and direction, the messages of its script, and the form's
 * logo above a screen with the address of a form's image.
 */
import type { FormWithFields } from "../../forms/index.ts"
import type { MessageKey } from "../../languages/index.ts"
import * as Assets from "../Assets.ts"
import { Html, html } from "../../web/index.ts"

/** A whole document around a screen, with the style and script under the response's CSP nonce. */
export const document = (options: {
  readonly title: string
  readonly nonce: string
  readonly body: Html
  /** Whether to include the enhancement script (not on pages without a form). */
  readonly script: boolean
  /** More style after the page's own: a form's theme (`Assets.themeCss`), made of checked values only. */
  readonly style?: string | undefined
  /** Where the page takes the respondent at once (an ending's redirect), by the document's refresh. */
  readonly redirect?: string | undefined
  /** The page's language and direction (default English, left to right). */
  readonly language?: string | undefined
  readonly direction?: "ltr" | "rtl" | undefined
  /** The messages the page's script shows, in the page's language (`client.*`). */
  readonly words?: Readonly<Record<string, string>> | undefined
}): string =>
  html`<!doctype html>
<html lang="${options.language ?? "en"}" dir="${options.direction ?? "ltr"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
${options.redirect === undefined ? null : html`<meta http-equiv="refresh" content="0; url=${options.redirect}">`}
<title>${options.title}</title>
<style nonce="${options.nonce}">${new Html(Assets.css + (options.style ?? ""))}</style>
</head>
<body>
<main id="qf" tabindex="-1"${options.words === undefined ? null : html` data-words="${JSON.stringify(options.words)}"`}>
${options.body}
</main>
${options.script ? html`<script nonce="${options.nonce}">${new Html(Assets.script())}</script>` : null}
</body>
</html>
`.value

/**
 * Where the page shows an image of its form (`/f/{publicId}/images/{imageId}`), relative to the page's own
 * URL `…/f/{publicId}` so that it holds under any prefix the host mounts the page at.
 */
export const imageSrc = (form: { readonly publicId: string }, imageId: string): string =>
  `${encodeURIComponent(form.publicId)}/images/${encodeURIComponent(imageId)}`

/**
 * A screen of a form with its theme's logo at the top (`theme.logo`; its `logoAlt` for screen readers, else
 * decoration), or the screen alone.
 */
export const branded = (form: FormWithFields, body: Html): Html => {
  const theme = form.settings.theme
  if (theme?.logo === undefined) return body
  return html`<div class="brand"><img src="${imageSrc(form, theme.logo)}" alt="${theme.logoAlt ?? ""}"></div>
${body}`
}

/** The messages of the page's script (`static/page.js`), for {@link document}'s `words`. */
export const clientMessageKeys: ReadonlyArray<MessageKey> = [
  "client.moveUp",
  "client.moveDown",
  "client.keepOrder",
  "client.orderIsAnswer",
  "client.signatureDrawHint",
  "client.signatureDrawn",
  "client.drawingCleared",
  "client.drawingUnreadable",
  "client.signatureFailed",
  "client.signatureLost",
  "client.uploading",
  "client.uploaded",
  "client.uploadFailed",
  "client.uploadLost"
]
