// @ts-check
// The application's entry (the module the shell page loads): links inside the application move without a reload,
// and the shell renders into the page's root.
import { html, render } from "htm/preact"
import { base, navigate } from "./shared/Api.js"
import { App } from "./shell/App.js"

// Links inside the application move without a reload (modifier clicks keep the browser's behaviour).
document.addEventListener("click", (event) => {
  /** @type {HTMLAnchorElement | null} */
  const link = event.target instanceof Element ? event.target.closest("a[href]") : null
  if (
    !link ||
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  )
    return
  const href = link.getAttribute("href") ?? ""
  if (
    link.target ||
    link.hasAttribute("download") ||
    !href.startsWith(`${base}/app`) ||
    href.startsWith(`${base}/app/sign`)
  )
    return
  event.preventDefault()
  navigate(href.slice(base.length))
})

const root = document.getElementById("root")
if (root) {
  root.textContent = ""
  render(html`<${App} />`, root)
}
