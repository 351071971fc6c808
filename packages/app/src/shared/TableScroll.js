// @ts-check
// A wide table on a narrow screen scrolls inside its own labelled region (focusable, so keyboard users can scroll
// it too) instead of pushing the whole page sideways.
import { html } from "htm/preact"

/** @param {{ label: string, children?: unknown }} props */
export const TableScroll = ({ label, children }) =>
  html`<div class="table-scroll" tabindex="0" role="region" aria-label=${label}>${children}</div>`
