// @ts-check
// The workspace inbox's views: the built-in ones and the saved ones (`GET /api/views`), what differs from a view
// (its overrides: filters, sort, columns, kept in the address), the list's query and the filter a view saves. Pure.

/** @typedef {import("../shared/Types.js").SavedView} SavedView */
/** @typedef {SavedView["columns"][number]} Column */
/** @typedef {SavedView["sort"]} Sort */
/** @typedef {SavedView["filter"]} ViewFilter a view's filter as the API keeps it */
/**
 * @typedef {{ key: string, name: string, shared: boolean, canChange: boolean, filter: ViewFilter, sort: Sort,
 *   columns: ReadonlyArray<Column>, saved: SavedView | null }} View a built-in or saved view
 */
/** @typedef {Readonly<Record<string, string>>} Overrides what differs from the view: filter keys, `sort`, `columns` */

/** Every column, in the order the chooser lists them. @type {ReadonlyArray<Column>} */
export const allColumns = ["form", "name", "email", "stage", "assignee", "tags", "due", "submittedAt"]
/** @type {ReadonlyArray<Column>} */
export const defaultColumns = ["form", "name", "email", "stage", "assignee", "submittedAt"]
/** The filters the screen edits (a saved view's `from`, `to` and `field` are kept and applied as they are). */
export const editable = ["formId", "stage", "assignee", "tag", "due", "open", "q"]

/**
 * The built-in views, "My open cases" and "All open cases", by the names given.
 * @param {{ mine: string, open: string }} names
 * @returns {ReadonlyArray<View>}
 */
export const builtInViews = (names) => [
  {
    key: "mine",
    name: names.mine,
    shared: false,
    canChange: false,
    filter: { assignee: "me", open: "true" },
    sort: "newest",
    columns: defaultColumns,
    saved: null
  },
  {
    key: "open",
    name: names.open,
    shared: false,
    canChange: false,
    filter: { open: "true" },
    sort: "newest",
    columns: defaultColumns,
    saved: null
  }
]

/** @param {SavedView} view @returns {View} */
export const fromSaved = (view) => ({
  key: String(view.id),
  name: view.name,
  shared: view.shared,
  canChange: view.canChange,
  filter: view.filter,
  sort: view.sort,
  columns: view.columns,
  saved: view
})

/** A filter key's value in a view, as the screen's controls hold it ("" when absent). @param {ViewFilter} filter @param {string} key */
export const filterValue = (filter, key) => {
  const value = /** @type {Record<string, unknown>} */ (filter)[key]
  return value === undefined || Array.isArray(value) ? "" : String(value)
}

/** What the view shows once the overrides are laid over it. @param {View} view @param {Overrides} overrides */
export const effective = (view, overrides) => ({
  filter: Object.fromEntries(editable.map((key) => [key, overrides[key] ?? filterValue(view.filter, key)])),
  sort: /** @type {Sort} */ (overrides.sort ?? view.sort),
  columns: /** @type {ReadonlyArray<Column>} */ (
    overrides.columns === undefined ? view.columns : overrides.columns.split(",")
  )
})

/**
 * The query of `GET /api/responses` for a view and its overrides: the edited filters, the view's others (`from`,
 * `to`, each `field`), the sort.
 * @param {View} view @param {Overrides} overrides
 */
export const listQuery = (view, overrides) => {
  const shown = effective(view, overrides)
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(shown.filter)) if (value.trim() !== "") params.set(key, value.trim())
  for (const key of ["from", "to"])
    if (filterValue(view.filter, key) !== "") params.set(key, filterValue(view.filter, key))
  const field = view.filter.field
  for (const value of field === undefined ? [] : Array.isArray(field) ? field : [field]) params.append("field", value)
  params.set("sort", shown.sort)
  return params
}

/**
 * The filter to save: the shown one in the API's form (ids as numbers), with the view's `from`, `to` and `field`.
 * @param {View} view @param {Overrides} overrides @returns {ViewFilter}
 */
export const filterToSave = (view, overrides) => {
  const { filter } = effective(view, overrides)
  /** @type {Record<string, unknown>} */
  const out = {}
  for (const [key, raw] of Object.entries(filter)) {
    const value = raw.trim()
    if (value === "") continue
    out[key] = ["formId", "stage", "assignee"].includes(key) && /^\d+$/.test(value) ? Number(value) : value
  }
  for (const key of ["from", "to", "field"]) {
    const kept = /** @type {Record<string, unknown>} */ (view.filter)[key]
    if (kept !== undefined) out[key] = kept
  }
  return /** @type {ViewFilter} */ (out)
}

/** The view and overrides an address's query asks for ("My open cases" without any). @param {string} search */
export const fromSearch = (search) => {
  const params = new URLSearchParams(search)
  /** @type {Record<string, string>} */
  const overrides = {}
  for (const key of [...editable, "sort", "columns"]) {
    const value = params.get(key)
    if (value !== null) overrides[key] = value
  }
  return { key: params.get("view") ?? "mine", overrides }
}

/**
 * The overrides once a filter, the sort or the columns are set: a value equal to the view's is no override; another
 * form (or none) drops the stage, since stages are a form's.
 * @param {View} view @param {Overrides} overrides @param {string} name @param {string} value
 * @returns {Overrides}
 */
export const withChange = (view, overrides, name, value) => {
  const own = name === "sort" ? view.sort : name === "columns" ? view.columns.join(",") : filterValue(view.filter, name)
  /** @type {Record<string, string>} */
  const next = { ...overrides }
  if (value === own) delete next[name]
  else next[name] = value
  // Stages are a form's: another form (or none) drops the stage.
  if (name === "formId") {
    if (filterValue(view.filter, "stage") === "") delete next.stage
    else next.stage = ""
  }
  return next
}
