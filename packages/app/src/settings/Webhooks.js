// @ts-check
// The workspace's webhooks: a form's or every form's, for one or more events, filtered by stage and tag, with
// their signing secret shown once; a test send of any event of the catalogue, the delivery log, re-enabling, and
// the deliveries that gave up.
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { TableScroll } from "../shared/TableScroll.js"
import { api, messageOf } from "../shared/Api.js"
import { formatDateTime, formatNumber, t } from "../shared/Words.js"
import { useLoad } from "../shared/Load.js"
import { Status } from "../shared/Status.js"
import { DeliveryLog } from "../shared/DeliveryLog.js"
import { DeadLetters } from "./DeadLetters.js"
import { toggled } from "./CheckedList.js"
import { Secret } from "./Secret.js"

/** @typedef {import("../shared/Types.js").AnySubscription} AnySubscription */
/** @typedef {import("../shared/Types.js").FormSummary} FormSummary */
/** @typedef {import("../shared/Types.js").Stage} Stage */

/** The contract's two events, offered while the catalogue loads (or if it cannot). */
const specEvents = ["response.created", "response.stage_changed"]
/** The form choice of a workspace-wide subscription: every form of the workspace. */
const everyForm = "*"

/** Tags typed with commas between them: trimmed, without empty ones. @param {string} text */
const tagsOf = (text) =>
  text
    .split(",")
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "")

/** @param {{ canAdmin: boolean }} props */
export const Webhooks = ({ canAdmin }) => {
  const [list, reload, loadError] = useLoad(
    // The forms' own subscriptions, then the workspace-wide ones (every form).
    () =>
      /** @type {Promise<ReadonlyArray<AnySubscription>>} */ (
        Promise.all([api.get("/webhooks"), api.get("/webhooks/workspace-subscriptions")]).then(([own, wide]) => [
          ...own,
          ...wide
        ])
      )
  )
  const [forms] = useLoad(() => /** @type {Promise<ReadonlyArray<FormSummary>>} */ (api.get("/forms")))
  const [form, setForm] = useState("")
  const [event, setEvent] = useState("response.created")
  const [catalogue] = useLoad(
    () =>
      /** @type {Promise<{ events: ReadonlyArray<{ name: string, description: string }> }>} */ (
        api.get("/events/catalogue")
      )
  )
  // `ping` is in the catalogue but never subscribed to (the server refuses it): it is what the Test button sends
  // unless another event is chosen beside it.
  const eventNames =
    catalogue === null ? specEvents : catalogue.events.map((e) => e.name).filter((name) => name !== "ping")
  // `form.deleted` reaches only a subscription to every form: a form's own goes with the form.
  const subscribable = form === everyForm ? eventNames : eventNames.filter((name) => name !== "form.deleted")
  const [more, setMore] = useState(/** @type {ReadonlyArray<string>} */ ([]))
  const [stages] = useLoad(
    () =>
      form === "" || form === everyForm
        ? Promise.resolve({ stages: /** @type {ReadonlyArray<Stage>} */ ([]) })
        : /** @type {Promise<{ stages: ReadonlyArray<Stage> }>} */ (api.get(`/forms/${form}/stages`)),
    [form]
  )
  const [stageIds, setStageIds] = useState(/** @type {ReadonlyArray<number>} */ ([]))
  const [tags, setTags] = useState("")
  const [includeSensitive, setIncludeSensitive] = useState(false)
  const [version, setVersion] = useState(0)
  const [url, setUrl] = useState("")
  const [secret, setSecret] = useState(/** @type {string | null} */ (null))
  const [open, setOpen] = useState(/** @type {AnySubscription | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  /** @param {SubmitEvent} e */
  const subscribe = async (e) => {
    e.preventDefault()
    setError(null)
    try {
      const events = more.filter((name) => name !== event && subscribable.includes(name))
      const tagList = tagsOf(tags)
      const formStages = (stages?.stages ?? []).map((stage) => stage.id)
      const chosenStages = stageIds.filter((id) => formStages.includes(id))
      /** @type {{ secret: string }} */
      const created = await api.post(form === everyForm ? "/webhooks/workspace-subscriptions" : "/webhooks/subscribe", {
        ...(form === everyForm ? {} : { formId: Number(form) }),
        event,
        ...(events.length > 0 ? { events: [event, ...events] } : {}),
        ...(chosenStages.length > 0 || tagList.length > 0
          ? {
              filters: {
                ...(chosenStages.length > 0 ? { stageIds: chosenStages } : {}),
                ...(tagList.length > 0 ? { tags: tagList } : {})
              }
            }
          : {}),
        ...(includeSensitive ? { includeSensitive: true } : {}),
        targetUrl: url,
        source: "app"
      })
      setSecret(created.secret)
      setUrl("")
      setMore([])
      setStageIds([])
      setTags("")
      setIncludeSensitive(false)
      reload()
    } catch (err) {
      setError(messageOf(err))
    }
  }
  // The event each subscription's Test sends, by subscription id: a `ping` unless another is chosen.
  const [testEvents, setTestEvents] = useState(/** @type {Readonly<Record<string, string>>} */ ({}))
  /** @param {AnySubscription} s */
  const testEventOf = (s) => testEvents[s.id] ?? "ping"
  /** @param {AnySubscription} s */
  const test = (s) => {
    const chosen = testEventOf(s)
    // A ping is the server's own test body; any other event is sent as its catalogue example.
    const query = chosen === "ping" ? "" : `?event=${encodeURIComponent(chosen)}`
    return api.post(`/webhooks/subscribe/${s.id}/test${query}`).then(
      /** @param {{ ok: boolean, statusCode: number | null, durationMs: number, error: string | null }} r */
      (r) =>
        setNotice(
          r.ok
            ? t("settings.testAnswered", {
                event: chosen,
                code: String(r.statusCode),
                duration: formatNumber(r.durationMs)
              })
            : t("settings.testFailed", { event: chosen, reason: r.error ?? `HTTP ${r.statusCode}` })
        ),
      (err) => setError(messageOf(err))
    )
  }
  /** @param {AnySubscription} s */
  const remove = (s) =>
    confirm(t("settings.deleteWebhookConfirm", { url: s.targetUrl })) &&
    api.del(`/webhooks/subscribe/${s.id}`).then(
      () => {
        setNotice(t("settings.webhookDeleted"))
        reload()
      },
      (err) => setError(messageOf(err))
    )
  /** @param {AnySubscription} s */
  const enable = (s) =>
    api.patch(`/webhooks/subscribe/${s.id}`, { disabled: false }).then(
      () => {
        reload()
        setVersion(version + 1)
      },
      (err) => setError(messageOf(err))
    )
  return html`<section aria-labelledby="hooks-title">
    <h2 id="hooks-title">${t("settings.webhooksTitle")}</h2>
    <${Status} error=${error ?? loadError} notice=${notice} />
    ${secret ? html`<${Secret} label=${t("settings.signingSecret")} value=${secret} onDone=${() => setSecret(null)} />` : null}
    ${
      canAdmin
        ? html`<form class="stack" onSubmit=${subscribe}>
      <div class="row">
      <label for="hook-form">${t("settings.hookForm")}</label>
      <select id="hook-form" required value=${form} onChange=${(e) => {
        setForm(e.target.value)
        setStageIds([])
        if (e.target.value !== everyForm && event === "form.deleted") setEvent("response.created")
      }}>
        <option value="">${t("settings.chooseForm")}</option><option value=${everyForm}>${t("settings.everyForm")}</option>${(forms ?? []).map((f) => html`<option value=${String(f.id)}>${f.title}</option>`)}</select>
      <label for="hook-event">${t("settings.hookEvent")}</label>
      <select id="hook-event" value=${event} onChange=${(e) => setEvent(e.target.value)}>
        ${subscribable.map((name) => html`<option value=${name}>${name}</option>`)}</select>
      <label for="hook-url">${t("settings.hookUrl")}</label>
      <input id="hook-url" type="url" required maxlength="2000" value=${url} onInput=${(e) => setUrl(e.target.value)} placeholder="https://example.com/hook" />
      </div>
      <fieldset class="interval"><legend>${t("settings.hookMoreEvents")}</legend>
        <div class="row">${subscribable
          .filter((name) => name !== event)
          .map(
            (name) => html`<label key=${name}><input type="checkbox" checked=${more.includes(name)}
              onChange=${(e) => setMore(toggled(more, name, e.target.checked))} /> ${name}</label>`
          )}</div>
      </fieldset>
      ${
        (stages?.stages ?? []).length === 0
          ? null
          : html`<fieldset class="interval"><legend>${t("settings.hookStages")}</legend>
        <div class="row">${(stages?.stages ?? []).map(
          (stage) => html`<label key=${stage.id}><input type="checkbox" checked=${stageIds.includes(stage.id)}
            onChange=${(e) => setStageIds(toggled(stageIds, stage.id, e.target.checked))} /> ${stage.name}</label>`
        )}</div>
      </fieldset>`
      }
      <div class="row">
        <label for="hook-tags">${t("settings.hookTags")}</label>
        <input id="hook-tags" maxlength="2000" value=${tags} onInput=${(e) => setTags(e.target.value)} placeholder="vip, billing" aria-describedby="hook-tags-help" />
        <span id="hook-tags-help" class="muted">${t("settings.hookTagsHelp")}</span>
      </div>
      <div class="row">
        <label><input type="checkbox" checked=${includeSensitive} onChange=${(e) => setIncludeSensitive(e.target.checked)} /> ${t("settings.hookIncludeSensitive")}</label>
      </div>
      <div class="row"><button type="submit" class="primary">${t("settings.subscribe")}</button></div>
    </form>`
        : html`<p>${t("settings.webhooksAdminsOnly")}</p>`
    }
    ${
      list === null
        ? html`<p class="loading">${t("settings.loading")}</p>`
        : list.length === 0
          ? html`<p>${t("settings.noWebhooks")}</p>`
          : html`<${TableScroll} label=${t("settings.webhooksTable")}><table>
      <thead><tr><th scope="col">${t("settings.hookForm")}</th><th scope="col">${t("settings.colEvent")}</th><th scope="col">${t("settings.hookUrl")}</th><th scope="col">${t("settings.colSource")}</th><th scope="col" title=${t("settings.lastAnsweredHint")}>${t("settings.colLastAnswered")}</th><th scope="col">${t("settings.colActions")}</th></tr></thead>
      <tbody>${list.map(
        (s) => html`<tr key=${s.id}>
        <td>${
          "formTitle" in s
            ? s.formTitle
            : s.filters.formIds
              ? s.filters.formIds.map((id) => (forms ?? []).find((f) => f.id === id)?.title ?? `#${id}`).join(", ")
              : t("settings.allForms")
        }</td><td>${s.events.join(", ")}${
          s.filters.stageIds || s.filters.tags
            ? html`<br /><span class="muted">${t("settings.hookFilterSummary", {
                stages: String(s.filters.stageIds?.length ?? 0),
                tags: s.filters.tags?.join(", ") ?? "—"
              })}</span>`
            : null
        }</td><td>${s.targetUrl}${s.includeSensitive ? html`<br /><span class="muted">${t("settings.hookSensitiveIncluded")}</span>` : null}${s.disabled ? html`<br /><span class="error">${t("settings.webhookDisabled", { reason: s.disabledReason ?? "" })}</span>` : null}${
          !s.disabled && s.consecutiveFailures > 0
            ? html`<br /><span class="error">${t("settings.failuresInRow", { count: String(s.consecutiveFailures) })}</span>`
            : null
        }</td><td>${s.source}</td>
        <td>${s.lastSentAt ? formatDateTime(s.lastSentAt) : t("settings.never")}</td>
        <td><div class="row">
          <button onClick=${() => setOpen(s)} aria-label=${t("settings.deliveryLogOf", { title: s.targetUrl })}>${t("settings.log")}</button>
          ${
            canAdmin
              ? html`<label class="sr-only" for=${`test-event-${s.id}`}>${t("settings.testEvent", { url: s.targetUrl })}</label>
          <select id=${`test-event-${s.id}`} value=${testEventOf(s)}
            onChange=${(e) => setTestEvents({ ...testEvents, [s.id]: e.target.value })}>
            ${["ping", ...eventNames].map((name) => html`<option key=${name} value=${name}>${name}</option>`)}</select>
          <button onClick=${() => test(s)} aria-label=${t("settings.sendTest", { event: testEventOf(s), url: s.targetUrl })}>${t("settings.test")}</button>
          ${s.disabled ? html`<button onClick=${() => enable(s)}>${t("settings.enable")}</button>` : null}
          <button class="danger" onClick=${() => remove(s)} aria-label=${t("settings.deleteWebhook", { url: s.targetUrl })}>${t("settings.delete")}</button>`
              : null
          }
        </div></td>
      </tr>`
      )}</tbody></table><//>`
    }
    ${
      open
        ? html`<${DeliveryLog} title=${open.targetUrl} logPath=${`/webhooks/subscribe/${open.id}/deliveries`}
      retryPath=${(d) => `/webhooks/deliveries/${d.id}/retry`} onClose=${() => setOpen(null)} />`
        : null
    }
    <${DeadLetters} canAdmin=${canAdmin} version=${version} onReplayed=${reload} />
  </section>`
}
