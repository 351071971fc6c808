// @ts-check
// The responses inbox: a paged table with the list filters, a board by stage (drag-and-drop and keyboard moves),
// a summary of what the answers say (insights/SummaryView.js), bulk actions, CSV and XLSX export of the current filter, and live
// updates from the event stream.
import { html } from "htm/preact"
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks"
import { api, base, events, messageOf, query } from "../shared/Api.js"
import {
  focusedRow,
  focusRow,
  rememberOrder,
  ShortcutHelp,
  toggleFocusedRow,
  useShortcuts
} from "../shared/Shortcuts.js"
import { SlaBadge } from "../shared/SlaBadge.js"
import { SummaryView } from "../insights/SummaryView.js"
import { formatDateTime, formatRelative, t } from "../shared/Words.js"
import { Bulk } from "./Bulk.js"
import { filterQuery, noFilters } from "./FilterQuery.js"

/** @typedef {import("../shared/Types.js").ResponseRow} ResponseRow */
/** @typedef {import("../shared/Types.js").ResponseList} ResponseList */
/** @typedef {import("../shared/Types.js").Stage} Stage */
/** @typedef {import("../shared/Types.js").BulkUpdateResult} BulkUpdateResult */
/** @typedef {import("./FilterQuery.js").Filters} Filters */
/** @typedef {Pick<ResponseList, "form" | "stages" | "members" | "allTags" | "fields">} Meta what the screen shows besides the rows */
/** @typedef {{ rows: ReadonlyArray<ResponseRow>, next: string | null }} Column */
/** @typedef {"table" | "board" | "summary"} View */

/** The inbox's views, in the order of their tabs. @type {ReadonlyArray<View>} */
const views = ["table", "board", "summary"]

const pageSize = 100
const columnSize = 50

/** @param {ResponseRow} row */
const who = (row) => row.name ?? row.email ?? t("inbox.responseNumber", { id: String(row.id) })

/** When something happened, relative, the exact moment in its title. @param {string | null | undefined} iso */
const When = (iso) =>
  iso ? html`<time datetime=${iso} title=${formatDateTime(iso)}>${formatRelative(iso)}</time>` : null

/** @param {{ meta: Meta, filters: Filters, setFilters: (filters: Filters) => void }} props */
const Filters = ({ meta, filters, setFilters }) => {
  /** @param {keyof Filters} key @returns {(e: Event & { currentTarget: HTMLInputElement | HTMLSelectElement }) => void} */
  const set = (key) => (e) => setFilters({ ...filters, [key]: e.currentTarget.value })
  return html`<form class="filters" role="search" aria-label=${t("inbox.filterResponses")} onSubmit=${(e) => e.preventDefault()}>
    <div class="field"><label for="f-q">${t("inbox.search")}</label><input id="f-q" type="search" value=${filters.q} onInput=${set("q")} placeholder=${t("inbox.searchPlaceholder")} /></div>
    <div class="field"><label for="f-stage">${t("inbox.stage")}</label><select id="f-stage" value=${filters.stage} onChange=${set("stage")}>
      <option value="">${t("inbox.anyStage")}</option><option value="none">${t("inbox.noStage")}</option>
      ${meta.stages.map((s) => html`<option value=${String(s.id)}>${s.name}</option>`)}</select></div>
    <div class="field"><label for="f-assignee">${t("inbox.assignee")}</label><select id="f-assignee" value=${filters.assignee} onChange=${set("assignee")}>
      <option value="">${t("inbox.anyone")}</option><option value="none">${t("inbox.unassigned")}</option>
      ${meta.members.map((m) => html`<option value=${String(m.accountId)}>${m.name ?? m.email}</option>`)}</select></div>
    <div class="field"><label for="f-tag">${t("inbox.tag")}</label><select id="f-tag" value=${filters.tag} onChange=${set("tag")}>
      <option value="">${t("inbox.anyTag")}</option>${meta.allTags.map((tag) => html`<option value=${tag}>${tag}</option>`)}</select></div>
    <div class="field"><label for="f-from">${t("inbox.from")}</label><input id="f-from" type="date" value=${filters.from} onChange=${set("from")} /></div>
    <div class="field"><label for="f-to">${t("inbox.to")}</label><input id="f-to" type="date" value=${filters.to} onChange=${set("to")} /></div>
    <div class="field"><label for="f-due">${t("inbox.due")}</label><select id="f-due" value=${filters.due} onChange=${set("due")}>
      <option value="">${t("inbox.dueAny")}</option><option value="overdue">${t("inbox.dueOverdue")}</option><option value="today">${t("inbox.dueToday")}</option><option value="week">${t("inbox.dueWeek")}</option>
    </select></div>
  </form>`
}

/**
 * @param {{ meta: Meta, rows: ReadonlyArray<ResponseRow>, selected: Set<number>, setSelected: (ids: Set<number>) => void,
 *   canWrite: boolean, more: boolean, loadMore: () => void }} props
 */
const Table = ({ meta, rows, selected, setSelected, canWrite, more, loadMore }) => {
  const sentinel = useRef(/** @type {HTMLDivElement | null} */ (null))
  useEffect(() => {
    if (!sentinel.current || !more) return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) loadMore()
    })
    observer.observe(sentinel.current)
    return () => observer.disconnect()
  }, [more, rows.length])
  /** @param {number | null} id */
  const stageName = (id) => meta.stages.find((s) => s.id === id)?.name ?? "—"
  /** @param {number | null} id */
  const memberName = (id) => {
    const m = meta.members.find((x) => x.accountId === id)
    return m ? (m.name ?? m.email) : "—"
  }
  /** @param {number} id */
  const toggle = (id) => {
    const next = new Set(selected)
    next.has(id) ? next.delete(id) : next.add(id)
    setSelected(next)
  }
  const all = rows.length > 0 && rows.every((r) => selected.has(r.id))
  return html`<div class="inbox-scroll" tabindex="0" role="region" aria-label=${t("inbox.responsesTable")}>
    <table>
      <caption class="sr-only">${t("inbox.tableCaption")}</caption>
      <thead><tr>
        ${canWrite ? html`<th scope="col"><input type="checkbox" aria-label=${t("inbox.selectAll")} checked=${all} onChange=${() => setSelected(all ? new Set() : new Set(rows.map((r) => r.id)))} /></th>` : null}
        <th scope="col">${t("inbox.respondent")}</th><th scope="col">${t("inbox.submitted")}</th><th scope="col">${t("inbox.stage")}</th><th scope="col">${t("inbox.assignee")}</th><th scope="col">${t("inbox.tags")}</th>
      </tr></thead>
      <tbody>${rows.map(
        (row) => html`<tr key=${row.id}>
        ${canWrite ? html`<td><input type="checkbox" aria-label=${t("inbox.selectResponse", { name: who(row) })} checked=${selected.has(row.id)} onChange=${() => toggle(row.id)} /></td>` : null}
        <td><a href=${`${base}/app/responses/${row.id}`}>${who(row)}</a>${row.email && row.name ? html`<br /><span class="muted">${row.email}</span>` : null}</td>
        <td>${When(row.submittedAt)}${row.sla ? html`<br /><${SlaBadge} sla=${row.sla} />` : null}</td>
        <td>${stageName(row.stageId)}</td>
        <td>${memberName(row.assigneeId)}</td>
        <td>${row.tags.map((tag) => html`<span class="tag">${tag}</span>`)}</td>
      </tr>`
      )}</tbody>
    </table>
    ${more ? html`<div ref=${sentinel} class="row"><button onClick=${loadMore}>${t("inbox.loadMore")}</button></div>` : null}
  </div>`
}

/**
 * @param {{ formId: number, meta: Meta, filters: Filters, canWrite: boolean, announce: (message: string) => void,
 *   version: number }} props
 */
const Board = ({ formId, meta, filters, canWrite, announce, version }) => {
  /** @type {ReadonlyArray<{ id: number | null, name: string, color: string | null, isClosed?: boolean }>} */
  const columns = [{ id: null, name: t("inbox.noStage"), color: null }, ...meta.stages]
  const [cards, setCards] = useState(/** @type {Record<string, Column>} */ ({}))
  const [over, setOver] = useState(/** @type {string | null} */ (null))
  // A card moved with the keyboard is re-created in its new column; it takes the focus back in the same
  // render that creates it, so the next key press always reaches it.
  const refocus = useRef(/** @type {{ id: number, column: string } | null} */ (null))
  useLayoutEffect(() => {
    if (refocus.current === null) return
    const { id, column } = refocus.current
    const card = document.getElementById(`card-${id}`)
    // A list fetched before the move may still show the card in its old column: wait for one that shows the move.
    if (card && cards[column]?.rows.some((row) => row.id === id)) {
      refocus.current = null
      card.focus()
    }
  }, [cards])
  /** @param {number | null} stageId */
  const key = (stageId) => (stageId === null ? "none" : String(stageId))
  // Loads overlap (a move, then the live update it causes): only the newest one started may paint, so a slower,
  // older answer never puts a card back in the column it left.
  const latest = useRef(0)
  const load = () => {
    const started = ++latest.current
    return Promise.all(
      columns.map((column) =>
        api
          .get(
            `/forms/${formId}/responses${query({ ...filterQuery(filters), stage: key(column.id), limit: columnSize })}`
          )
          .then(
            /** @param {ResponseList} list @returns {[string, ResponseList["responses"], string | null]} */
            (list) => [key(column.id), list.responses, list.nextCursor ?? null]
          )
      )
    ).then((entries) => {
      if (started === latest.current)
        setCards(Object.fromEntries(entries.map(([k, rows, next]) => [k, { rows, next }])))
    })
  }
  useEffect(() => {
    load()
  }, [formId, JSON.stringify(filters), meta.stages.length, version])

  /** @param {ResponseRow} row @param {number | null} stageId @param {boolean} viaKeyboard */
  const moveTo = async (row, stageId, viaKeyboard) => {
    if (row.stageId === stageId) return
    try {
      await api.patch(`/responses/${row.id}`, { stageId })
      const name = columns.find((c) => c.id === stageId)?.name
      announce(t("inbox.moved", { name: who(row), stage: name ?? "" }))
      if (viaKeyboard) refocus.current = { id: row.id, column: key(stageId) }
      await load()
    } catch (e) {
      announce(t("inbox.moveFailed", { name: who(row), error: messageOf(e) }))
    }
  }
  /** @param {ResponseRow} row @param {number} index @returns {(event: KeyboardEvent) => void} */
  const onKey = (row, index) => (event) => {
    if (!canWrite) return
    // The arrow points at the column the card goes to: in a right-to-left language the next stage is on the left.
    const forward = document.documentElement.dir === "rtl" ? "ArrowLeft" : "ArrowRight"
    const backward = forward === "ArrowLeft" ? "ArrowRight" : "ArrowLeft"
    const delta = event.key === forward ? 1 : event.key === backward ? -1 : 0
    if (delta === 0) return
    const target = columns[index + delta]
    if (!target) return
    event.preventDefault()
    moveTo(row, target.id, true)
  }
  return html`<p class="muted" id="board-help">${canWrite ? t("inbox.boardHelp") : t("inbox.readOnly")}</p>
    <div class="board">
    ${columns.map((column, index) => {
      const column_ = cards[key(column.id)]
      return html`<section class=${`column${over === key(column.id) ? " over" : ""}`} aria-labelledby=${`col-${key(column.id)}`}
        onDragOver=${(e) => {
          if (canWrite) {
            e.preventDefault()
            setOver(key(column.id))
          }
        }}
        onDragLeave=${() => setOver(null)}
        onDrop=${(e) => {
          e.preventDefault()
          setOver(null)
          const id = Number(e.dataTransfer.getData("text/plain"))
          const row = Object.values(cards)
            .flatMap((c) => c.rows)
            .find((r) => r.id === id)
          if (row) moveTo(row, column.id, false)
        }}>
        <h2 id=${`col-${key(column.id)}`}>${
          column.color
            ? html`<span class="swatch" ref=${(el) => {
                if (el) el.style.background = column.color
              }}></span>`
            : null
        }${column.isClosed ? t("inbox.closedStage", { stage: column.name }) : column.name}
          <span class="muted"> · ${column_ ? t(column_.next ? "inbox.columnCountMore" : "inbox.columnCount", { count: column_.rows.length }) : "…"}</span></h2>
        <ul>${(column_?.rows ?? []).map(
          (
            row
          ) => html`<li key=${row.id} id=${`card-${row.id}`} class="board-card" tabindex="0" draggable=${canWrite ? "true" : "false"}
            aria-describedby="board-help" aria-label=${t("inbox.cardLabel", { name: who(row), stage: column.name })}
            onDragStart=${(e) => {
              e.dataTransfer.setData("text/plain", String(row.id))
              e.dataTransfer.effectAllowed = "move"
            }}
            onKeyDown=${onKey(row, index)}>
          <a href=${`${base}/app/responses/${row.id}`}>${who(row)}</a>
          <div class="muted">${When(row.submittedAt)}</div>
          <div>${row.tags.map((tag) => html`<span class="tag">${tag}</span>`)}</div>
        </li>`
        )}</ul>
      </section>`
    })}
  </div>`
}

/** @param {{ route: import("../shell/Routes.js").Route, canWrite: boolean }} props */
export const InboxScreen = ({ route, canWrite }) => {
  const formId = route.formId ?? 0
  const params = new URLSearchParams(location.search)
  const [view, setView] = useState(/** @type {View} */ (views.find((v) => v === params.get("view")) ?? "table"))
  const [filters, setFilters] = useState(noFilters)
  const [meta, setMeta] = useState(/** @type {Meta | null} */ (null))
  const [rows, setRows] = useState(/** @type {ReadonlyArray<ResponseRow>} */ ([]))
  const [cursor, setCursor] = useState(/** @type {string | null} */ (null))
  const [selected, setSelected] = useState(/** @type {Set<number>} */ (new Set()))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [message, setMessage] = useState("")
  const [version, setVersion] = useState(0)
  const [help, setHelp] = useState(false)
  const loading = useRef(false)
  // The control a shortcut asked for once the render it waits on (the bulk actions appear with a selection) is done.
  const focusNext = useRef(/** @type {string | null} */ (null))
  useEffect(() => {
    const element = focusNext.current === null ? null : document.getElementById(focusNext.current)
    if (element === null) return
    focusNext.current = null
    element.focus()
  })
  useEffect(() => rememberOrder(rows.map((r) => r.id)), [rows])

  /** Loads the first page; a live update keeps the selection of the rows still shown. @param {boolean} [live] */
  const load = async (live = false) => {
    try {
      /** @type {ResponseList} */
      const list = await api.get(`/forms/${formId}/responses${query({ ...filterQuery(filters), limit: pageSize })}`)
      setMeta({
        form: list.form,
        stages: list.stages,
        members: list.members,
        allTags: list.allTags,
        fields: list.fields
      })
      setRows(list.responses)
      setCursor(list.nextCursor ?? null)
      const shown = new Set(list.responses.map((r) => r.id))
      setSelected((previous) => (live ? new Set([...previous].filter((id) => shown.has(id))) : new Set()))
    } catch (e) {
      setError(messageOf(e))
    }
  }
  const loadMore = async () => {
    if (!cursor || loading.current) return
    loading.current = true
    try {
      /** @type {ResponseList} */
      const list = await api.get(
        `/forms/${formId}/responses${query({ ...filterQuery(filters), limit: pageSize, cursor })}`
      )
      setRows((previous) => [...previous, ...list.responses])
      setCursor(list.nextCursor ?? null)
    } finally {
      loading.current = false
    }
  }
  useEffect(() => {
    const timer = setTimeout(() => load(), filters.q === "" ? 0 : 250)
    return () => clearTimeout(timer)
  }, [formId, JSON.stringify(filters)])
  // Live updates: a new or changed response reloads the first page (and the board).
  useEffect(
    () =>
      events(formId, (event) => {
        if (event.event === "response.created") {
          const name = event.respondent?.name ?? event.respondent?.email
          setMessage(name ? t("inbox.newResponseFrom", { name }) : t("inbox.newResponse"))
        }
        load(true)
        setVersion((v) => v + 1)
      }),
    [formId, JSON.stringify(filters)]
  )

  /** @param {View} next */
  const switchView = (next) => {
    setView(next)
    history.replaceState(null, "", `${base}/app/forms/${formId}/responses${next === "table" ? "" : `?view=${next}`}`)
  }
  /** The tabs follow the arrow keys (the next tab is on the left right to left), Home and End. @param {KeyboardEvent} e */
  const onTabKey = (e) => {
    const forward = document.documentElement.dir === "rtl" ? "ArrowLeft" : "ArrowRight"
    const backward = forward === "ArrowLeft" ? "ArrowRight" : "ArrowLeft"
    const at = views.indexOf(view)
    const next =
      e.key === forward
        ? views[(at + 1) % views.length]
        : e.key === backward
          ? views[(at + views.length - 1) % views.length]
          : e.key === "Home"
            ? views[0]
            : e.key === "End"
              ? views[views.length - 1]
              : undefined
    if (next === undefined) return
    e.preventDefault()
    switchView(next)
    requestAnimationFrame(() => document.getElementById(`tab-${next}`)?.focus())
  }
  const rowsSelector = "#view-panel tbody tr"
  /** Moves the focus to the next (1) or previous (-1) row's link. @param {1 | -1} step */
  const moveRow = (step) => view === "table" && focusRow(rowsSelector, "a", step)
  /** Ticks the focused row (or leaves the selection as it is) and moves to a bulk control. @param {string} control */
  const toBulk = (control) => {
    if (view !== "table" || !canWrite) return false
    const { all, at } = focusedRow(rowsSelector)
    const row = all[at]
    const id = row === undefined ? undefined : rows[at]?.id
    if (selected.size > 0) {
      document.getElementById(control)?.focus()
      return true
    }
    if (id === undefined) return false
    focusNext.current = control
    setSelected(new Set([id]))
    return true
  }
  /** Ticks or unticks the focused row. */
  const toggleRow = () => view === "table" && canWrite && toggleFocusedRow(rowsSelector)
  /** @type {ReadonlyArray<import("../shared/Shortcuts.js").Shortcut>} */
  const shortcuts = [
    { key: "j", label: t("shortcuts.nextResponse"), run: () => moveRow(1) },
    { key: "k", label: t("shortcuts.previousResponse"), run: () => moveRow(-1) },
    { key: "x", label: t("shortcuts.select"), run: toggleRow },
    { key: "a", label: t("shortcuts.assignSelected"), run: () => toBulk("b-assignee") },
    { key: "s", label: t("shortcuts.stageSelected"), run: () => toBulk("b-stage") },
    { key: "t", label: t("shortcuts.tagSelected"), run: () => toBulk("b-tag") },
    { key: "/", label: t("shortcuts.search"), run: () => document.getElementById("f-q")?.focus() }
  ]
  useShortcuts(shortcuts, () => setHelp(true))
  /** @type {Readonly<Record<View, string>>} */
  const tabNames = { table: t("inbox.table"), board: t("inbox.board"), summary: t("inbox.summary") }
  const refresh = () => {
    load()
    setVersion((v) => v + 1)
  }
  if (meta === null)
    return error
      ? html`<h1 tabindex="-1">${t("inbox.responses")}</h1><p class="error" role="alert">${error}</p>`
      : html`<p class="loading">${t("inbox.loading")}</p>`
  return html`<div class="spread">
      <h1 tabindex="-1">${t("inbox.heading", { form: meta.form.title })}</h1>
      <div class="row no-print">
        <a class="button" href=${`${base}/app/forms/${formId}`}>${t("inbox.editForm")}</a>
        <a class="button" download href=${`${base}/api/forms/${formId}/responses.csv${query(filterQuery(filters))}`}>${t("inbox.exportCsv")}</a>
        <a class="button" download href=${`${base}/api/forms/${formId}/responses.xlsx${query(filterQuery(filters))}`}>${t("inbox.exportXlsx")}</a>
        <${ShortcutHelp} shortcuts=${shortcuts} open=${help} setOpen=${setHelp} />
      </div>
    </div>
    <p class="live" aria-live="polite" role="status">${message}</p>
    <${Filters} meta=${meta} filters=${filters} setFilters=${setFilters} />
    <div class="tabs" role="tablist" aria-label=${t("inbox.view")} onKeyDown=${onTabKey}>
      ${views.map(
        (v) =>
          html`<button role="tab" id=${`tab-${v}`} aria-selected=${view === v ? "true" : "false"} tabindex=${view === v ? "0" : "-1"} aria-controls="view-panel" onClick=${() => switchView(v)}>${tabNames[v]}</button>`
      )}
    </div>
    <div id="view-panel" role="tabpanel" aria-labelledby=${`tab-${view}`}>
    ${
      view === "summary"
        ? html`<${SummaryView} formId=${formId} params=${filterQuery(filters)} version=${version} />`
        : view === "table"
          ? html`
      ${canWrite && selected.size > 0 ? html`<${Bulk} meta=${meta} selected=${selected} done=${refresh} announce=${setMessage} />` : null}
      ${rows.length === 0 ? html`<p>${t("inbox.noResponses")}</p>` : html`<${Table} meta=${meta} rows=${rows} selected=${selected} setSelected=${setSelected} canWrite=${canWrite} more=${cursor !== null} loadMore=${loadMore} />`}
      <p class="muted">${t(cursor ? "inbox.shownMore" : "inbox.shown", { count: rows.length })}</p>`
          : html`<${Board} formId=${formId} meta=${meta} filters=${filters} canWrite=${canWrite} announce=${setMessage} version=${version} />`
    }
    </div>`
}
