// @ts-check
// A form's inbox filters as its screen holds them (the search, stage, assignee, tag, the days from and to, what is
// due) and as the list, the board, the summary and the exports ask for them. Pure.

/** @typedef {{ q: string, stage: string, assignee: string, tag: string, from: string, to: string, due: string }} Filters */

/** No filter: every response. @type {Filters} */
export const noFilters = { q: "", stage: "", assignee: "", tag: "", from: "", to: "", due: "" }

/**
 * The filters as the API's query takes them: the search trimmed, the days as the instants that open the first and
 * close the last in the browser's time zone ("" for none).
 * @param {Filters} filters
 */
export const filterQuery = (filters) => ({
  q: filters.q.trim(),
  stage: filters.stage,
  assignee: filters.assignee,
  tag: filters.tag,
  from: filters.from === "" ? "" : new Date(`${filters.from}T00:00:00`).toISOString(),
  to: filters.to === "" ? "" : new Date(`${filters.to}T23:59:59.999`).toISOString(),
  due: filters.due
})
