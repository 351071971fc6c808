// @ts-check
// A case's SLA as a small badge (the inbox's rows, the case page): overdue, due soon, when it is due, or met.
import { html } from "htm/preact"
import { formatDateTime, formatRelative, t } from "./Words.js"

/** @typedef {NonNullable<import("./Types.js").ResponseRow["sla"]>} ResponseSla */

/**
 * The earliest due time of a target not met yet, if any.
 * @param {ResponseSla} sla
 */
const nextDue = (sla) =>
  [sla.firstRespondedAt === null ? sla.firstResponseDueAt : null, sla.resolvedAt === null ? sla.resolveDueAt : null]
    .filter((at) => at !== null)
    .sort()[0] ?? null

/**
 * The badge of a case's SLA; nothing for a case without one.
 * @param {{ sla: ResponseSla | undefined }} props
 */
export const SlaBadge = ({ sla }) => {
  if (sla === undefined) return null
  const due = nextDue(sla)
  const when = due === null ? "" : formatRelative(due)
  const title = due === null ? undefined : formatDateTime(due)
  if (sla.state === "overdue")
    return html`<span class="badge sla-overdue" title=${title}>${t("case.slaOverdue", { when })}</span>`
  if (sla.state === "warning")
    return html`<span class="badge sla-warning" title=${title}>${t("case.slaWarning", { when })}</span>`
  if (sla.state === "ok") return html`<span class="badge" title=${title}>${t("case.slaDue", { when })}</span>`
  return html`<span class=${sla.breached ? "badge sla-overdue" : "badge sla-met"}>${t(sla.breached ? "case.slaMissed" : "case.slaMet")}</span>`
}
