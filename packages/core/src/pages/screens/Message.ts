/**
 * The screen of a page that is not a step of a form: an unknown, closed or
 * full form, a refused step, a limit used up. Every string from a form is user
 * content and goes through the escaping `html` template.
 */
import { type Html, html } from "../../web/index.ts"

/** A page that is not a form screen: unknown form, closed form, refused step. */
export const message = (title: string, text: string, link?: { readonly href: string; readonly label: string }): Html =>
  html`<h1 id="title" tabindex="-1" data-focus>${title}</h1>
<p>${text}</p>
${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : null}`
