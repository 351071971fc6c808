// @ts-check
// The public page's progressive-enhancement script (plain ES2020, no dependency), inlined under the page's
// CSP nonce by pages/Assets.ts and type-checked with the application's scripts (tsconfig.static.json).
//
// Without it every step is a plain form post that renders the next screen. With it, the same posts go
// through `fetch` and only `<main>` is swapped: no full reload, focus moved to the new question, Enter to
// go on (Shift+Enter for a new line in long text), file uploads sent ahead of the step with a
// progress bar (XHR, for its upload progress events), and a pad to draw a signature on.
;(() => {
  // biome-ignore lint/suspicious/noRedundantUseStrict: the page inlines it as a classic script, not a module
  "use strict"
  const main = document.getElementById("qf")
  if (!main || !window.fetch || !window.DOMParser) return
  let busy = false

  // The page's messages in its language (`data-words` on <main>, see `screens/Document.ts`): `{name}` filled in.
  /** @type {Record<string, string>} */
  let words = {}
  const readWords = () => {
    try {
      words = JSON.parse(main.dataset.words || "{}")
    } catch {
      words = {}
    }
  }
  readWords()
  /**
   * @param {string} key
   * @param {string} fallback the English message
   * @param {Record<string, string | number>} [values]
   */
  const say = (key, fallback, values = {}) =>
    (words[`client.${key}`] || fallback).replace(/\{(\w+)\}/g, (whole, name) =>
      name in values ? String(values[name]) : whole
    )

  const focusScreen = () => {
    // A control, not the fieldset of a group (which carries aria-invalid too but takes no focus).
    /** @type {HTMLElement | null} */
    const error = main.querySelector(
      "input[aria-invalid=true]:not([type=hidden]), textarea[aria-invalid=true], select[aria-invalid=true]:not([hidden] *)"
    )
    /** @type {HTMLElement | null} */
    const target =
      error ||
      main.querySelector(
        "input:checked:not([type=hidden]), input:not([type=hidden]):not([tabindex='-1']), textarea, select:not([hidden] *), .rank-list button:not(:disabled), [data-focus]"
      )
    if (target) target.focus()
    else main.focus()
  }

  // The id of the label of the question an element belongs to: "question" on a screen of one question,
  // "q<id>-question" on a page of several (each question's ids carry its prefix, see `scoped` in `screens/Questions.ts`).
  /** @param {Element} element */
  const questionLabelId = (element) => {
    /** @type {HTMLElement | null} */
    const item = element.closest("[data-q]")
    return item ? `q${item.dataset.q}-question` : "question"
  }

  // A slider question's number box gets a range track beside it, kept in step both ways. The track has
  // no name: the box alone is posted, so a slider nobody touched stays unanswered.
  /** @param {HTMLFormElement} form */
  const enhanceSliders = (form) => {
    for (const box of form.querySelectorAll("[data-slider] input[type=number]")) {
      if (box instanceof HTMLInputElement) enhanceSlider(box)
    }
  }

  /** @param {HTMLInputElement} box */
  const enhanceSlider = (box) => {
    if (!box.parentElement) return
    const range = document.createElement("input")
    range.type = "range"
    range.min = box.min
    range.max = box.max
    range.step = box.step
    const low = Number(box.min)
    const step = Number(box.step)
    range.value = box.value !== "" ? box.value : String(low + Math.round((Number(box.max) - low) / 2 / step) * step)
    range.setAttribute("aria-labelledby", questionLabelId(box))
    const described = box.getAttribute("aria-describedby")
    if (described) range.setAttribute("aria-describedby", described)
    if (box.value === "") range.dataset.unset = ""
    range.addEventListener("input", () => {
      box.value = range.value
      delete range.dataset.unset
    })
    box.addEventListener("input", () => {
      if (box.value === "" || !Number.isFinite(Number(box.value))) return
      range.value = box.value
      delete range.dataset.unset
    })
    box.removeAttribute("autofocus")
    box.parentElement.insertBefore(range, box)
  }

  // A ranking's place selects become a list put in order with Move up / Move down buttons (or by
  // dragging). The selects stay in the form, hidden, and are set from the list on every move: the first
  // `places` items get 1, 2, …, the rest no place. A list nobody moved posts the places already chosen.
  /** @param {HTMLFormElement} form */
  const enhanceRankings = (form) => {
    for (const box of form.querySelectorAll("[data-ranking]")) {
      if (box instanceof HTMLElement) enhanceRanking(box)
    }
  }

  /** @param {HTMLElement} box */
  const enhanceRanking = (box) => {
    const places = Number(box.dataset.places)
    /** @type {Array<HTMLSelectElement>} */
    const selects = Array.from(box.querySelectorAll("select"))
    const labelOf = (/** @type {HTMLSelectElement} */ select) =>
      select.labels?.[0]?.textContent ?? select.name.slice(select.name.indexOf(".") + 1)
    const order = selects
      .map((select, index) => ({ select, index, place: Number(select.value) || Number.POSITIVE_INFINITY }))
      .sort((a, b) => a.place - b.place || a.index - b.index)
      .map((item) => item.select)
    const list = document.createElement("ol")
    list.className = "rank-list"
    list.setAttribute("aria-labelledby", questionLabelId(box))
    const status = document.createElement("p")
    status.className = "sr-only"
    status.setAttribute("aria-live", "polite")
    /** @param {number} at @param {number} to @param {boolean} [focusUp] */
    const move = (at, to, focusUp) => {
      if (to < 0 || to >= order.length) return
      const [item] = order.splice(at, 1)
      if (!item) return
      order.splice(to, 0, item)
      apply()
      status.textContent = `${labelOf(item)} is now in place ${to + 1} of ${order.length}`
      // Focus stays with the moved item: on the same button, or the other one at either end of the list.
      const row = list.children[to]
      const same = /** @type {HTMLButtonElement | null | undefined} */ (
        row?.querySelector(focusUp ? "button.up:not(:disabled)" : "button.down:not(:disabled)")
      )
      const other = /** @type {HTMLButtonElement | null | undefined} */ (row?.querySelector("button:not(:disabled)"))
      ;(same ?? other)?.focus()
    }
    /** @type {number | null} */
    let dragged = null
    const draw = () => {
      list.replaceChildren(
        ...order.map((select, index) => {
          const li = document.createElement("li")
          li.draggable = true
          const place = document.createElement("span")
          place.className = "place"
          place.textContent = select.value === "" ? "–" : `${select.value}.`
          const name = document.createElement("span")
          name.className = "name"
          name.textContent = labelOf(select)
          const up = document.createElement("button")
          up.type = "button"
          up.className = "up"
          up.textContent = "↑"
          up.setAttribute("aria-label", say("moveUp", "Move {label} up", { label: labelOf(select) }))
          up.disabled = index === 0
          up.addEventListener("click", () => move(index, index - 1, true))
          const down = document.createElement("button")
          down.type = "button"
          down.className = "down"
          down.textContent = "↓"
          down.setAttribute("aria-label", say("moveDown", "Move {label} down", { label: labelOf(select) }))
          down.disabled = index === order.length - 1
          down.addEventListener("click", () => move(index, index + 1, false))
          li.addEventListener("dragstart", () => {
            dragged = index
            li.classList.add("dragging")
          })
          li.addEventListener("dragend", () => li.classList.remove("dragging"))
          li.addEventListener("dragover", (event) => event.preventDefault())
          li.addEventListener("drop", (event) => {
            event.preventDefault()
            if (dragged !== null && dragged !== index) move(dragged, index, true)
            dragged = null
          })
          li.append(place, name, up, down)
          return li
        })
      )
    }
    const apply = () => {
      order.forEach((select, index) => {
        select.value = index < places ? String(index + 1) : ""
      })
      draw()
    }
    draw()
    for (const item of box.querySelectorAll(".rank-item")) item.setAttribute("hidden", "")
    box.prepend(list, status)
    const keep = document.createElement("button")
    keep.type = "button"
    keep.className = "keep"
    keep.textContent = say("keepOrder", "Keep this order")
    keep.addEventListener("click", () => {
      apply()
      status.textContent = say("orderIsAnswer", "The order shown is your answer")
    })
    box.append(keep)
  }

  // A signature question gets a pad to draw on (pointer events: mouse, finger or pen). The typed name
  // and consent box stay beside it, for whoever cannot or would rather not draw. A drawing is uploaded
  // as a PNG when the step is sent (see drawnSignature) and is then the answer.
  /** @param {HTMLFormElement} form */
  const enhanceSignature = (form) => {
    /** @type {HTMLElement | null} */
    const box = form.querySelector("[data-signature]")
    const canvas = box?.querySelector("canvas")
    const context = canvas?.getContext("2d")
    /** @type {HTMLInputElement | null} */
    const answer = form.querySelector("input[name=a]")
    const status = form.querySelector(".signature-status")
    const hint = form.querySelector("#signature-hint")
    if (!box || !canvas || !context || !answer || !status) return
    box.hidden = false
    if (hint)
      hint.textContent = say(
        "signatureDrawHint",
        "Draw your signature in the box, or type your full name and tick the box."
      )
    context.lineWidth = 2.5
    context.lineCap = "round"
    context.lineJoin = "round"
    context.strokeStyle = "#111"
    /** @param {PointerEvent} e */
    const at = (e) => {
      const rect = canvas.getBoundingClientRect()
      return {
        x: ((e.clientX - rect.left) * canvas.width) / rect.width,
        y: ((e.clientY - rect.top) * canvas.height) / rect.height
      }
    }
    let drawing = false
    canvas.addEventListener("pointerdown", (e) => {
      e.preventDefault()
      drawing = true
      canvas.setPointerCapture(e.pointerId)
      const p = at(e)
      context.beginPath()
      context.moveTo(p.x, p.y)
      // A dot for a tap.
      context.lineTo(p.x + 0.1, p.y + 0.1)
      context.stroke()
      canvas.dataset.drawn = "1"
    })
    canvas.addEventListener("pointermove", (e) => {
      if (!drawing) return
      const p = at(e)
      context.lineTo(p.x, p.y)
      context.stroke()
    })
    const stop = () => {
      if (!drawing) return
      drawing = false
      status.textContent = say("signatureDrawn", "Signature drawn. It is sent when you go on.")
    }
    canvas.addEventListener("pointerup", stop)
    canvas.addEventListener("pointercancel", stop)
    box.querySelector("button.clear")?.addEventListener("click", () => {
      context.clearRect(0, 0, canvas.width, canvas.height)
      delete canvas.dataset.drawn
      answer.value = ""
      status.textContent = say("drawingCleared", "Drawing cleared.")
    })
  }

  /** The page's upload route for one question. @param {string | undefined} fieldId */
  // With the page's language, so that a refusal (too large, a type not accepted, too many) is said in it.
  const uploadUrl = (fieldId) =>
    `${location.pathname.replace(/\/$/, "")}/uploads?fieldId=${encodeURIComponent(fieldId ?? "")}&lang=${encodeURIComponent(document.documentElement.lang)}`

  /**
   * An upload's JSON answer, or null when it is not JSON (a proxy's error page, a cut connection).
   * @param {string} text
   * @returns {{ readonly name?: string, readonly error?: string } | null}
   */
  const jsonOf = (text) => {
    try {
      return JSON.parse(text)
    } catch {
      return null
    }
  }

  /**
   * Uploads a signature drawn on this step's pad: its answer (the upload's JSON) to post, undefined when
   * nothing new is drawn, or an Error whose message says why the upload failed.
   * @param {HTMLFormElement} form
   * @returns {Promise<string | Error | undefined>}
   */
  const drawnSignature = async (form) => {
    /** @type {HTMLElement | null} */
    const box = form.querySelector("[data-signature]")
    const canvas = box?.querySelector("canvas")
    if (!box || !canvas || canvas.dataset.drawn !== "1") return undefined
    /** @type {Blob | null} */
    const png = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"))
    if (!png) return new Error(say("drawingUnreadable", "The drawing could not be read; type your name instead"))
    const body = new FormData()
    body.append("file", png, "signature.png")
    try {
      const response = await fetch(uploadUrl(box.dataset.field), {
        method: "POST",
        body,
        headers: { accept: "application/json" }
      })
      const text = await response.text()
      if (response.status === 201) return text
      return new Error(
        jsonOf(text)?.error ||
          say("signatureFailed", "The signature could not be sent (HTTP {status})", { status: response.status })
      )
    } catch {
      return new Error(say("signatureLost", "The signature could not be sent: the connection was lost"))
    }
  }

  // Typing an answer for "Other" chooses it (its radio button, checkbox or option), as a respondent means.
  /** @param {HTMLFormElement} form */
  const enhanceOther = (form) => {
    for (const text of form.querySelectorAll("[data-other-text]")) {
      // The Other choice of the same question (each question of a page is its own item).
      /** @type {HTMLInputElement | HTMLOptionElement | null} */
      const choice = (text.closest("[data-q]") ?? form).querySelector("input[data-other], option[data-other]")
      if (!(text instanceof HTMLInputElement) || !choice) continue
      text.addEventListener("input", () => {
        if (text.value.trim() === "") return
        if (choice instanceof HTMLOptionElement) choice.selected = true
        else choice.checked = true
      })
    }
  }

  const enhance = () => {
    const form = main.querySelector("form")
    if (!form) return
    form.noValidate = true
    enhanceSliders(form)
    enhanceRankings(form)
    enhanceSignature(form)
    enhanceOther(form)
    /** @type {HTMLInputElement | null} */
    const file = form.querySelector("input[type=file]")
    /** @type {HTMLInputElement | null} */
    const answer = form.querySelector("input[name=a]")
    /** @type {HTMLProgressElement | null} */
    const bar = form.querySelector("progress.upload")
    const status = form.querySelector(".upload-status")
    const error = form.querySelector(".error")
    if (!file || !answer || !bar || !status || !error) return
    file.addEventListener("change", () => {
      const chosen = file.files?.[0]
      if (!chosen) return
      const body = new FormData()
      body.append("file", chosen)
      const xhr = new XMLHttpRequest()
      xhr.open("POST", uploadUrl(file.dataset.field))
      xhr.setRequestHeader("accept", "application/json")
      busy = true
      bar.hidden = false
      bar.value = 0
      status.textContent = say("uploading", "Uploading {name}…", { name: chosen.name })
      xhr.upload.addEventListener("progress", (e) => {
        if (e.lengthComputable) bar.value = e.loaded / e.total
      })
      /** @param {string} message @param {boolean} ok */
      const done = (message, ok) => {
        busy = false
        bar.hidden = !ok
        status.textContent = ok ? message : ""
        error.textContent = ok ? "" : message
        file.setAttribute("aria-invalid", ok ? "false" : "true")
      }
      xhr.addEventListener("load", () => {
        const body = jsonOf(xhr.responseText)
        if (xhr.status === 201 && body) {
          answer.value = xhr.responseText
          bar.value = 1
          done(say("uploaded", "Uploaded {name}", { name: body.name ?? "" }), true)
        } else {
          answer.value = ""
          file.value = ""
          done(body?.error || say("uploadFailed", "The upload failed (HTTP {status})", { status: xhr.status }), false)
        }
      })
      xhr.addEventListener("error", () => done(say("uploadLost", "The upload failed: the connection was lost"), false))
      xhr.send(body)
    })
  }

  // Embedded by @qforms/embed (see packages/embed): the frame's fragment names the mode and theme
  // (`#qf-embed=inline&qf-theme=dark`, never sent to the server), applied before the first paint. The page then
  // talks to its host only after a hello from its parent window, and only to that hello's origin (which the
  // page's `frame-ancestors` already limits), each message with the hello's channel: never to `*`.
  const fragment = new URLSearchParams(location.hash.slice(1))
  const embedMode = window.parent !== window ? fragment.get("qf-embed") : null
  if (embedMode === "inline" || embedMode === "popup" || embedMode === "slider") {
    document.documentElement.dataset.embed = embedMode
    const theme = fragment.get("qf-theme")
    if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme
  }
  /** @type {{ readonly origin: string, readonly channel: string } | null} */
  let host = null
  /** @param {string} type @param {Record<string, unknown>} [detail] */
  const tell = (type, detail = {}) => {
    if (host) window.parent.postMessage({ ...detail, qforms: type, channel: host.channel }, host.origin)
  }
  /** What the screen shown is, for the host: its kind, the question and place on a question, the response at the end. */
  const screenOf = () => {
    /** @type {HTMLInputElement | null} */
    const at = main.querySelector("input[name=at]")
    /** @type {HTMLElement | null} */
    const sent = main.querySelector("[data-response]")
    if (sent) return { screen: "thanks", responseId: Number(sent.dataset.response) }
    if (!at) return { screen: "message" }
    if (at.value === "welcome" || at.value === "access") return { screen: at.value }
    /** @type {HTMLProgressElement | null} */
    const progress = main.querySelector(".progress progress")
    return {
      screen: "question",
      question: at.value,
      ...(progress ? { step: progress.value + 1, steps: progress.max } : {})
    }
  }
  const contentHeight = () => Math.ceil(document.body.getBoundingClientRect().height)
  // Whether this document has told the host of its response: once, be it from the screen the fetch path swapped
  // in or, when the step was posted in full (the fetch path's fallback), from the thank-you document itself.
  let toldSubmitted = false
  /** @param {ReturnType<typeof screenOf>} shown */
  const tellSubmitted = (shown) => {
    if (!host || toldSubmitted || shown.screen !== "thanks") return
    toldSubmitted = true
    tell("submitted", { responseId: shown.responseId })
  }
  if (embedMode) {
    // The embed greets every document the frame loads, so a document that answers a full-page post (its
    // address keeps the fragment: the form posts to the document's own address) handshakes as the first did.
    window.addEventListener("message", (event) => {
      const data = event.data
      if (event.source !== window.parent || event.origin === "null") return
      if (data?.qforms !== "hello" || typeof data.channel !== "string" || !/^[0-9a-f]{32}$/.test(data.channel)) return
      host = { origin: event.origin, channel: data.channel }
      const shown = screenOf()
      tell("ready", shown)
      tell("resize", { height: contentHeight() })
      tellSubmitted(shown)
    })
    new ResizeObserver(() => tell("resize", { height: contentHeight() })).observe(document.body)
    // Escape inside the frame closes a popup or slider, as it does on the host page.
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && embedMode !== "inline") tell("close")
    })
  }
  /** After a new screen: the host hears of it, and of the response once one is sent. */
  const screenChanged = () => {
    const shown = screenOf()
    tell("page-changed", shown)
    tellSubmitted(shown)
  }

  main.addEventListener("submit", async (event) => {
    const form = event.target
    if (!(form instanceof HTMLFormElement)) return
    event.preventDefault()
    if (busy) return
    busy = true
    const data = new FormData(form)
    data.delete("file")
    const submitter = event.submitter
    if ((submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement) && submitter.name)
      data.set(submitter.name, submitter.value)
    for (const button of form.querySelectorAll("button")) button.disabled = true
    const drawn = await drawnSignature(form)
    if (drawn instanceof Error) {
      const error = form.querySelector(".error#error")
      if (error) error.textContent = drawn.message
      for (const button of form.querySelectorAll("button")) button.disabled = false
      busy = false
      return
    }
    if (drawn !== undefined) {
      data.set("a", drawn)
      data.delete("a.typedName")
      data.delete("a.consent")
    }
    try {
      // A form of its own address (the resume link's) posts there, url-encoded as without the script.
      const plain = form.hasAttribute("data-plain")
      const response = await fetch(plain ? form.action : location.href, {
        method: "POST",
        body: plain ? new URLSearchParams(Array.from(data.entries(), ([k, v]) => [k, String(v)])) : data,
        headers: { "x-qforms-page": "1" }
      })
      // The page's own style and script are left out: only <main> is used, and a parsed copy of them
      // would only be refused by the CSP (their nonce is the new page's, not this one's).
      const text = (await response.text()).replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/g, "")
      const doc = new DOMParser().parseFromString(text, "text/html")
      const next = doc.getElementById("qf")
      if (!next) throw new Error("unexpected answer")
      main.innerHTML = next.innerHTML
      document.title = doc.title
      // The language may have changed (the page's switcher): the document's and the script's words follow.
      document.documentElement.lang = doc.documentElement.lang
      document.documentElement.dir = doc.documentElement.dir
      main.dataset.words = next.dataset.words || ""
      readWords()
      screenChanged()
      // An ending that takes the respondent on: its document's refresh is not run from here, so follow its link.
      const onward = main.querySelector("a[data-redirect]")
      if (onward instanceof HTMLAnchorElement) {
        location.assign(onward.href)
        return
      }
      busy = false
      enhance()
      focusScreen()
    } catch {
      busy = false
      form.submit()
    }
  })

  // Enter goes on from any control but a button or link (which Enter activates anyway) and a text
  // field (where the browser submits the form itself); Shift+Enter keeps its meaning (a new line in long text).
  main.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.shiftKey || event.isComposing) return
    const target = event.target
    if (!(target instanceof HTMLElement)) return
    const tag = target.tagName
    if (tag === "BUTTON" || tag === "A") return
    // Enter on the language switcher changes the language, not the answer.
    if (target instanceof HTMLSelectElement && target.hasAttribute("data-lang")) {
      event.preventDefault()
      /** @type {HTMLButtonElement | null} */
      const change = target.form?.querySelector("button.lang") ?? null
      target.form?.requestSubmit(change)
      return
    }
    const form =
      (target instanceof HTMLInputElement ||
      target instanceof HTMLTextAreaElement ||
      target instanceof HTMLSelectElement
        ? target.form
        : null) ?? main.querySelector("form")
    if (!form) return
    // In a contact or address, Enter moves to the next part; from the last one it goes on.
    const parts = target instanceof HTMLInputElement ? target.closest("[data-parts]") : null
    if (parts) {
      const inputs = Array.from(parts.querySelectorAll("input"))
      const at = inputs.indexOf(/** @type {HTMLInputElement} */ (target))
      if (at >= 0 && at < inputs.length - 1) {
        event.preventDefault()
        inputs[at + 1]?.focus()
        return
      }
    }
    const native = target instanceof HTMLInputElement && !["radio", "checkbox", "file", "range"].includes(target.type)
    if (native) return
    event.preventDefault()
    /** @type {HTMLButtonElement | null} */
    const ok = form.querySelector("button.ok")
    form.requestSubmit(ok)
  })

  enhance()
})()
