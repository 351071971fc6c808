// @ts-check
// The workspace's inbox across forms (`/app/inbox`): the built-in views "My open cases" and "All open cases", the
// saved views of `GET /api/views` (the member's own and the shared ones), the filters and sort of
// `GET /api/responses`, a choice of columns, and saving, renaming and deleting the views the member may change.
// The chosen view and whatever differs from it are kept in the URL, so a link or a reload shows the same list.
import { html } from "htm/preact"
import { useEffect, useRef, useState } from "preact/hooks"
import { api, base, events, messageOf } from "../shared/Api.js"
import { Bulk } from "./Bulk.js"
import { focusRow, rememberOrder, ShortcutHelp, toggleFocusedRow, useShortcuts } from "../shared/Shortcuts.js"
import { SlaBadge } from "../shared/SlaBadge.js"
import { formatDateTime, formatRelative, t } from "../shared/Words.js"
import {
  allColumns,
  builtInViews,
  effective,
  filterToSave,
  fromSaved,
  fromSearch,
  listQuery,
  withChange
} from "./Views.js"

/** @typedef {import("../shared/Types.js").WorkspaceResponseRow} Row */
/** @typedef {import("../shared/Types.js").WorkspaceResponseList} List */
/** @typedef {import("../shared/Types.js").SavedView} SavedView */
/** @typedef {import("../shared/Types.js").Member} Member */
/** @typedef {import("../shared/Types.js").FormSummary} FormSummary */
/** @typedef {import("../shared/Types.js").Stage} Stage */
/** @typedef {import("./Views.js").View} View */
/** @typedef {import("./Views.js").Overrides} Overrides */
/** @typedef {import("./Views.js").Column} Column */

const pageSize = 50

/** The built-in views in the application's language. */
const builtIns = () => builtInViews({ mine: t("workspaceInbox.mine"), open: t("workspaceInbox.allOpen") })

/** The view and overrides the address asks for. */
const fromAddress = () => fromSearch(location.search)

/** Writes the view and its overrides into the address (no new history entry). @param {string} key @param {Overrides} overrides */
const toAddress = (key, overrides) => {
  const params = new URLSearchParams({ view: key, ...overrides })
  history.replaceState(null, "", `${base}/app/inbox?${params}`)
}

/** @param {Row} row */
const who = (row) => row.name ?? row.email ?? t("inbox.responseNumber", { id: String(row.id) })

/** @param {string} iso */
const When = (iso) => html`<time datetime=${iso} title=${formatDateTime(iso)}>${formatRelative(iso)}</time>`

/**
 * Names a new view, or a view anew: a small inline form.
 * @param {{ label: string, initial: string, offerShared: boolean, submit: (name: string, shared: boolean) => Promise<void>, cancel: () => void }} props
 */
const NameForm = ({ label, initial, offerShared, submit, cancel }) => {
  const [name, setName] = useState(initial)
  const [shared, setShared] = useState(false)
  const [busy, setBusy] = useState(false)
  const input = useRef(/** @type {HTMLInputElement | null} */ (null))
  useEffect(() => input.current?.focus(), [])
  /** @param {Event} event */
  const onSubmit = (event) => {
    event.preventDefault()
    setBusy(true)
    submit(name.trim(), shared).finally(() => setBusy(false))
  }
  return html`<form class="row view-name" onSubmit=${onSubmit}>
    <label for="view-name">${label}</label>
    <input id="view-name" ref=${input} required maxlength="80" value=${name} onInput=${(e) => setName(e.currentTarget.value)} />
    ${
      offerShared
        ? html`<label><input type="checkbox" checked=${shared} onChange=${(e) => setShared(e.currentTarget.checked)} /> ${t("workspaceInbox.shareWithTeam")}</label>`
        : null
    }
    <button type="submit" disabled=${busy || name.trim() === ""}>${t("workspaceInbox.saveName")}</button>
    <button type="button" onClick=${cancel}>${t("workspaceInbox.cancel")}</button>
  </form>`
}

/** @param {{ columns: ReadonlyArray<Column>, setColumns: (columns: ReadonlyArray<Column>) => void, names: Readonly<Record<Column, string>> }} props */
const ColumnChooser = ({ columns, setColumns, names }) =>
  html`<details class="columns-chooser">
    <summary>${t("workspaceInbox.columns")}</summary>
    <fieldset>
      <legend class="sr-only">${t("workspaceInbox.columnsLegend")}</legend>
      ${allColumns.map((column) => {
        const on = columns.includes(column)
        return html`<label><input type="checkbox" checked=${on} disabled=${on && columns.length === 1}
          onChange=${() => setColumns(on ? columns.filter((c) => c !== column) : allColumns.filter((c) => c === column || columns.includes(c)))} /> ${names[column]}</label>`
      })}
    </fieldset>
  </details>`

/** @param {{ canWrite: boolean }} props */
export const WorkspaceInboxScreen = ({ canWrite }) => {
  const start = useRef(fromAddress())
  const [saved, setSaved] = useState(/** @type {ReadonlyArray<SavedView> | null} */ (null))
  const [forms, setForms] = useState(/** @type {ReadonlyArray<FormSummary>} */ ([]))
  const [members, setMembers] = useState(/** @type {ReadonlyArray<Member>} */ ([]))
  const [stages, setStages] = useState(/** @type {ReadonlyArray<Stage>} */ ([]))
  const [key, setKey] = useState(start.current.key)
  const [overrides, setOverrides] = useState(/** @type {Overrides} */ (start.current.overrides))
  const [rows, setRows] = useState(/** @type {ReadonlyArray<Row> | null} */ (null))
  const [cursor, setCursor] = useState(/** @type {string | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [message, setMessage] = useState("")
  const [naming, setNaming] = useState(/** @type {"new" | "rename" | null} */ (null))
  const [help, setHelp] = useState(false)
  const [version, setVersion] = useState(0)
  const [selected, setSelected] = useState(/** @type {Set<number>} */ (new Set()))
  // Loads overlap (typing in the search, a live update): only the newest one started may paint.
  const latest = useRef(0)

  const loadViews = () =>
    api.get("/views").then(
      /** @param {{ views: ReadonlyArray<SavedView> }} reply */
      (reply) => setSaved(reply.views),
      (e) => setError(messageOf(e))
    )
  useEffect(() => {
    loadViews()
    api.get("/forms").then(setForms, (e) => setError(messageOf(e)))
    api.get("/members").then(
      /** @param {{ members: ReadonlyArray<Member> }} reply */
      (reply) => setMembers(reply.members),
      (e) => setError(messageOf(e))
    )
  }, [])

  const views = [...builtIns(), ...(saved ?? []).map(fromSaved)]
  // A view that is gone (deleted, or not this member's) shows "My open cases" instead.
  const view = views.find((v) => v.key === key) ?? (saved === null ? null : views[0])
  const shown = view === null ? null : effective(view, overrides)
  const formId = shown?.filter.formId ?? ""

  useEffect(() => {
    if (view !== null) toAddress(view.key, overrides)
  }, [view?.key, JSON.stringify(overrides)])

  useEffect(() => {
    setStages([])
    if (formId === "") return
    api.get(`/forms/${formId}/stages`).then(
      /** @param {{ stages: ReadonlyArray<Stage> }} reply */
      (reply) => setStages(reply.stages),
      () => setStages([])
    )
  }, [formId])

  const listParams = view === null ? null : listQuery(view, overrides)
  const listKey = listParams === null ? "" : listParams.toString()
  useEffect(() => {
    if (listParams === null) return
    const started = ++latest.current
    const timer = setTimeout(
      () => {
        listParams.set("limit", String(pageSize))
        api.get(`/responses?${listParams}`).then(
          /** @param {List} list */
          (list) => {
            if (started !== latest.current) return
            setError(null)
            setRows(list.responses)
            setCursor(list.nextCursor ?? null)
            // The selection keeps the rows still shown.
            const shown = new Set(list.responses.map((r) => r.id))
            setSelected((previous) => new Set([...previous].filter((id) => shown.has(id))))
          },
          (e) => {
            if (started === latest.current) setError(messageOf(e))
          }
        )
      },
      (overrides.q ?? "") === "" ? 0 : 250
    )
    return () => clearTimeout(timer)
  }, [listKey, version])

  // A new or changed response anywhere in the workspace reloads the first page.
  useEffect(() => events(undefined, () => setVersion((v) => v + 1)), [])
  useEffect(() => rememberOrder((rows ?? []).map((r) => r.id)), [rows])

  const loadMore = () => {
    if (cursor === null || listParams === null) return
    const started = latest.current
    listParams.set("limit", String(pageSize))
    listParams.set("cursor", cursor)
    api.get(`/responses?${listParams}`).then(
      /** @param {List} list */
      (list) => {
        if (started !== latest.current) return
        setRows((previous) => [...(previous ?? []), ...list.responses])
        setCursor(list.nextCursor ?? null)
      },
      (e) => setError(messageOf(e))
    )
  }

  /** Sets a filter, the sort or the columns; a value equal to the view's is no override. @param {string} name @param {string} value */
  const change = (name, value) => {
    if (view === null) return
    setOverrides(withChange(view, overrides, name, value))
  }
  /** @param {string} name @returns {(e: Event & { currentTarget: HTMLInputElement | HTMLSelectElement }) => void} */
  const set = (name) => (e) => change(name, e.currentTarget.value)

  /** @param {string} next */
  const choose = (next) => {
    setKey(next)
    setOverrides({})
    setNaming(null)
    setMessage("")
  }

  /** @param {() => Promise<unknown>} run @param {string} done */
  const act = async (run, done) => {
    try {
      await run()
      setError(null)
      setMessage(done)
    } catch (e) {
      setError(messageOf(e))
      throw e
    }
  }
  /** @param {string} name @param {boolean} shared */
  const saveAs = (name, shared) =>
    view === null || shown === null
      ? Promise.resolve()
      : act(
          async () => {
            /** @type {SavedView} */
            const created = await api.post("/views", {
              name,
              shared,
              filter: filterToSave(view, overrides),
              sort: shown.sort,
              columns: shown.columns
            })
            await loadViews()
            setKey(String(created.id))
            setOverrides({})
            setNaming(null)
          },
          t("workspaceInbox.viewSaved", { name })
        ).catch(() => undefined)
  const saveChanges = () =>
    view?.saved && shown
      ? act(
          async () => {
            await api.patch(`/views/${view.key}`, {
              filter: filterToSave(view, overrides),
              sort: shown.sort,
              columns: shown.columns
            })
            await loadViews()
            setOverrides({})
          },
          t("workspaceInbox.viewUpdated", { name: view.name })
        ).catch(() => undefined)
      : undefined
  /** @param {string} name */
  const rename = (name) =>
    view?.saved
      ? act(
          async () => {
            await api.patch(`/views/${view.key}`, { name })
            await loadViews()
            setNaming(null)
          },
          t("workspaceInbox.viewRenamed", { name })
        ).catch(() => undefined)
      : Promise.resolve()
  const remove = () => {
    if (!view?.saved || !confirm(t("workspaceInbox.deleteConfirm", { name: view.name }))) return
    act(
      async () => {
        await api.del(`/views/${view.key}`)
        await loadViews()
        choose("mine")
      },
      t("workspaceInbox.viewDeleted", { name: view.name })
    ).catch(() => undefined)
  }

  const rowsSelector = "#cases tbody tr"
  /** @param {1 | -1} step */
  const moveRow = (step) => focusRow(rowsSelector, "a.case-link", step)
  /** Ticks or unticks the focused row. */
  const toggleRow = () => toggleFocusedRow(rowsSelector)
  /** @type {ReadonlyArray<import("../shared/Shortcuts.js").Shortcut>} */
  const shortcuts = [
    { key: "j", label: t("shortcuts.nextResponse"), run: () => moveRow(1) },
    { key: "k", label: t("shortcuts.previousResponse"), run: () => moveRow(-1) },
    ...(canWrite ? [{ key: "x", label: t("shortcuts.select"), run: toggleRow }] : []),
    { key: "/", label: t("shortcuts.search"), run: () => document.getElementById("w-q")?.focus() }
  ]
  useShortcuts(shortcuts, () => setHelp(true))

  if (view === null || shown === null)
    return error
      ? html`<h1 tabindex="-1">${t("workspaceInbox.heading")}</h1><p class="error" role="alert">${error}</p>`
      : html`<p class="loading">${t("inbox.loading")}</p>`

  /** @type {Readonly<Record<Column, string>>} */
  const names = {
    form: t("workspaceInbox.columnForm"),
    name: t("inbox.respondent"),
    email: t("workspaceInbox.columnEmail"),
    stage: t("inbox.stage"),
    assignee: t("inbox.assignee"),
    tags: t("inbox.tags"),
    due: t("inbox.due"),
    submittedAt: t("inbox.submitted")
  }
  /** @param {number | null} id */
  const memberName = (id) => {
    const m = members.find((x) => x.accountId === id)
    return id === null ? "—" : m ? (m.name ?? m.email) : t("workspaceInbox.formerMember")
  }
  /** @param {number} id */
  const toggle = (id) => {
    const next = new Set(selected)
    next.has(id) ? next.delete(id) : next.add(id)
    setSelected(next)
  }
  const allSelected = rows !== null && rows.length > 0 && rows.every((r) => selected.has(r.id))
  const changed = Object.keys(overrides).length > 0
  const mine = (saved ?? []).filter((v) => !v.shared)
  const sharedViews = (saved ?? []).filter((v) => v.shared)
  // The case link sits on the name; without a name column, a number column of its own carries it.
  const linkOnName = shown.columns.includes("name")
  /** @param {Row} row @param {string} text */
  const caseLink = (row, text) => html`<a class="case-link" href=${`${base}/app/responses/${row.id}`}>${text}</a>`
  /** @param {Row} row @param {Column} column */
  const cell = (row, column) => {
    switch (column) {
      case "form":
        return html`<a href=${`${base}/app/forms/${row.formId}/responses`}>${row.formTitle}</a>`
      case "name":
        return caseLink(row, who(row))
      case "email":
        return row.email ?? "—"
      case "stage":
        return row.stageName ?? "—"
      case "assignee":
        return memberName(row.assigneeId)
      case "tags":
        return row.tags.map((tag) => html`<span class="tag">${tag}</span>`)
      case "due":
        return row.sla ? html`<${SlaBadge} sla=${row.sla} />` : "—"
      case "submittedAt":
        return When(row.submittedAt)
    }
  }

  return html`<div class="spread">
      <h1 tabindex="-1">${t("workspaceInbox.heading")}</h1>
      <div class="row no-print"><${ShortcutHelp} shortcuts=${shortcuts} open=${help} setOpen=${setHelp} /></div>
    </div>
    <div class="row view-bar">
      <label for="w-view">${t("workspaceInbox.view")}</label>
      <select id="w-view" value=${view.key} onChange=${(e) => choose(e.currentTarget.value)}>
        <optgroup label=${t("workspaceInbox.builtIn")}>
          ${builtIns().map((v) => html`<option value=${v.key}>${v.name}</option>`)}
        </optgroup>
        ${mine.length > 0 ? html`<optgroup label=${t("workspaceInbox.yourViews")}>${mine.map((v) => html`<option value=${String(v.id)}>${v.name}</option>`)}</optgroup>` : null}
        ${sharedViews.length > 0 ? html`<optgroup label=${t("workspaceInbox.sharedViews")}>${sharedViews.map((v) => html`<option value=${String(v.id)}>${t("workspaceInbox.sharedOption", { name: v.name })}</option>`)}</optgroup>` : null}
      </select>
      ${view.shared ? html`<span class="badge">${t("workspaceInbox.shared")}</span>` : null}
      ${changed ? html`<span class="muted">${t("workspaceInbox.changed")}</span>` : null}
      ${changed && view.canChange ? html`<button onClick=${saveChanges}>${t("workspaceInbox.saveChanges")}</button>` : null}
      ${changed ? html`<button onClick=${() => choose(view.key)}>${t("workspaceInbox.reset")}</button>` : null}
      <button onClick=${() => setNaming("new")}>${t("workspaceInbox.saveAs")}</button>
      ${view.canChange ? html`<button onClick=${() => setNaming("rename")} aria-label=${t("workspaceInbox.renameView", { name: view.name })}>${t("workspaceInbox.rename")}</button>` : null}
      ${view.canChange ? html`<button class="danger" onClick=${remove} aria-label=${t("workspaceInbox.deleteView", { name: view.name })}>${t("workspaceInbox.delete")}</button>` : null}
    </div>
    ${
      naming === "new"
        ? html`<${NameForm} label=${t("workspaceInbox.newViewName")} initial="" offerShared=${canWrite} submit=${saveAs} cancel=${() => setNaming(null)} />`
        : naming === "rename"
          ? html`<${NameForm} label=${t("workspaceInbox.viewName")} initial=${view.name} offerShared=${false} submit=${(name) => rename(name)} cancel=${() => setNaming(null)} />`
          : null
    }
    <p class="live" aria-live="polite" role="status">${message}</p>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    <form class="filters" role="search" aria-label=${t("workspaceInbox.filterCases")} onSubmit=${(e) => e.preventDefault()}>
      <div class="field"><label for="w-q">${t("inbox.search")}</label><input id="w-q" type="search" maxlength="200" value=${shown.filter.q} onInput=${set("q")} placeholder=${t("inbox.searchPlaceholder")} /></div>
      <div class="field"><label for="w-form">${t("workspaceInbox.columnForm")}</label><select id="w-form" value=${shown.filter.formId} onChange=${set("formId")}>
        <option value="">${t("workspaceInbox.anyForm")}</option>
        ${forms.map((f) => html`<option value=${String(f.id)}>${f.title}</option>`)}</select></div>
      ${
        formId === ""
          ? null
          : html`<div class="field"><label for="w-stage">${t("inbox.stage")}</label><select id="w-stage" value=${shown.filter.stage} onChange=${set("stage")}>
        <option value="">${t("inbox.anyStage")}</option><option value="none">${t("inbox.noStage")}</option>
        ${stages.map((s) => html`<option value=${String(s.id)}>${s.name}</option>`)}</select></div>`
      }
      <div class="field"><label for="w-assignee">${t("inbox.assignee")}</label><select id="w-assignee" value=${shown.filter.assignee} onChange=${set("assignee")}>
        <option value="">${t("inbox.anyone")}</option><option value="me">${t("workspaceInbox.me")}</option><option value="none">${t("inbox.unassigned")}</option>
        ${members.map((m) => html`<option value=${String(m.accountId)}>${m.name ?? m.email}</option>`)}</select></div>
      <div class="field"><label for="w-tag">${t("inbox.tag")}</label><input id="w-tag" type="text" maxlength="30" value=${shown.filter.tag} onInput=${set("tag")} /></div>
      <div class="field"><label for="w-open">${t("workspaceInbox.state")}</label><select id="w-open" value=${shown.filter.open} onChange=${set("open")}>
        <option value="">${t("workspaceInbox.openOrClosed")}</option><option value="true">${t("workspaceInbox.openOnly")}</option><option value="false">${t("workspaceInbox.closedOnly")}</option></select></div>
      <div class="field"><label for="w-due">${t("inbox.due")}</label><select id="w-due" value=${shown.filter.due} onChange=${set("due")}>
        <option value="">${t("inbox.dueAny")}</option><option value="overdue">${t("inbox.dueOverdue")}</option><option value="today">${t("inbox.dueToday")}</option><option value="week">${t("inbox.dueWeek")}</option></select></div>
      <div class="field"><label for="w-sort">${t("workspaceInbox.sort")}</label><select id="w-sort" value=${shown.sort} onChange=${set("sort")}>
        <option value="newest">${t("workspaceInbox.newest")}</option><option value="oldest">${t("workspaceInbox.oldest")}</option></select></div>
      <${ColumnChooser} columns=${shown.columns} names=${names} setColumns=${(columns) => change("columns", columns.join(","))} />
    </form>
    ${
      canWrite && selected.size > 0
        ? html`<${Bulk} meta=${{ stages: formId === "" ? [] : stages, members }}
            selected=${selected} announce=${setMessage} done=${() => {
              setSelected(new Set())
              setVersion((v) => v + 1)
            }} />`
        : null
    }
    ${
      rows === null
        ? html`<p class="loading">${t("inbox.loading")}</p>`
        : rows.length === 0
          ? html`<p>${t("workspaceInbox.none")}</p>`
          : html`<div id="cases" class="inbox-scroll" tabindex="0" role="region" aria-label=${t("workspaceInbox.casesTable")}>
        <table>
          <caption class="sr-only">${t("workspaceInbox.caption", { view: view.name })}</caption>
          <thead><tr>
            ${canWrite ? html`<th scope="col"><input type="checkbox" aria-label=${t("inbox.selectAll")} checked=${allSelected} onChange=${() => setSelected(allSelected ? new Set() : new Set(rows.map((r) => r.id)))} /></th>` : null}
            ${linkOnName ? null : html`<th scope="col">${t("workspaceInbox.columnNumber")}</th>`}
            ${shown.columns.map((column) => html`<th scope="col">${names[column]}</th>`)}
          </tr></thead>
          <tbody>${rows.map(
            (row) => html`<tr key=${row.id}>
            ${canWrite ? html`<td><input type="checkbox" aria-label=${t("inbox.selectResponse", { name: who(row) })} checked=${selected.has(row.id)} onChange=${() => toggle(row.id)} /></td>` : null}
            ${linkOnName ? null : html`<td>${caseLink(row, `#${row.id}`)}</td>`}
            ${shown.columns.map((column) => html`<td>${cell(row, column)}</td>`)}
          </tr>`
          )}</tbody>
        </table>
        ${cursor !== null ? html`<div class="row"><button onClick=${loadMore}>${t("inbox.loadMore")}</button></div>` : null}
      </div>`
    }
    ${rows !== null && rows.length > 0 ? html`<p class="muted">${t(cursor ? "inbox.shownMore" : "inbox.shown", { count: rows.length })}</p>` : null}`
}
