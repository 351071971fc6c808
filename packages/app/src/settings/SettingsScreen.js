// @ts-check
// Settings (members, API keys shown once, webhooks with their secret shown once, delivery log, retry, test ping, the
// workspace's page theme) and the account.
import { html } from "htm/preact"
import { useEffect, useRef, useState } from "preact/hooks"
import { TableScroll } from "../shared/TableScroll.js"
import { api, call, copy, messageOf } from "../shared/Api.js"
import { LanguageChooser } from "./LanguageChooser.js"
import { AuditLog } from "./AuditLog.js"
import { Privacy } from "../privacy/Privacy.js"
import { ThemeEditor } from "../shared/ThemeEditor.js"
import { formatDateTime, formatNumber, t } from "../shared/Words.js"

/** @typedef {import("../shared/Types.js").SessionInfo} SessionInfo */
/** @typedef {import("../shared/Types.js").Member} Member */
/** @typedef {import("../shared/Types.js").Invitation} Invitation */
/** @typedef {import("../shared/Types.js").ApiKey} ApiKey */
/** @typedef {import("../shared/Types.js").AnySubscription} AnySubscription */
/** @typedef {import("../shared/Types.js").Delivery} Delivery */
/** @typedef {import("../shared/Types.js").DeliveryLog} DeliveryLogPage */
/** @typedef {import("../shared/Types.js").FormSummary} FormSummary */
/** @typedef {import("../shared/Types.js").Stage} Stage */
/** @typedef {import("../shared/Types.js").DeadLetterList} DeadLetterList */
/** @typedef {import("../shared/Types.js").WebhookAlertList} WebhookAlertList */
/** @typedef {import("../shared/Types.js").ReplayResult} ReplayResult */
/** @typedef {SessionInfo["role"]} Role */

/** @type {ReadonlyArray<Role>} */
const roles = ["owner", "admin", "member", "viewer"]

/** A role's name for people (the API keeps the literal). @param {string} role */
const roleName = (role) => t("shell.role", { role })

/**
 * Loads once (and again when `deps` change); `reload` loads again.
 * @template T
 * @param {() => Promise<T>} load
 * @param {ReadonlyArray<unknown>} [deps]
 * @returns {[T | null, () => Promise<void>, string | null, (error: string | null) => void]}
 */
const useLoad = (load, deps = []) => {
  const [value, setValue] = useState(/** @type {T | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const reload = () => load().then(setValue, (e) => setError(messageOf(e)))
  useEffect(() => {
    reload()
  }, deps)
  return [value, reload, error, setError]
}

/** @param {{ error: string | null, notice: string | null }} props */
const Status = ({ error, notice }) =>
  html`<div aria-live="polite">${error ? html`<p class="error" role="alert">${error}</p>` : null}${notice ? html`<p class="notice">${notice}</p>` : null}</div>`

/** A secret shown this once, with a copy button. */
/** @param {{ label: string, value: string, onDone: () => void }} props */
const Secret = ({ label, value, onDone }) => {
  const [copied, setCopied] = useState("")
  return html`<div class="card stack" role="region" aria-label=${label}>
    <strong>${t("settings.secretShownOnce", { label })}</strong>
    <div class="secret" data-secret>${value}</div>
    <div class="row">
      <button class="primary" onClick=${async () => setCopied((await copy(value)) ? t("settings.copied") : t("settings.copyByHand"))}>${t("settings.copy")}</button>
      <button onClick=${onDone}>${t("settings.done")}</button>
      <span aria-live="polite">${copied}</span>
    </div>
  </div>`
}

// The server's rule (Actors.requireAuthorityOver), mirrored so the screen offers only what it would allow: owners and
// admins act on themselves and on members below their role, and never give a role above their own.
/** @type {Record<Role, number>} */
const rank = { viewer: 0, member: 1, admin: 2, owner: 3 }
/** @param {SessionInfo} session @param {Member} m */
const manages = (session, m) => m.accountId === session.account.id || rank[m.role] < rank[session.role]
/** @param {SessionInfo} session @param {Member} [m] */
const givable = (session, m) =>
  roles.filter(
    (r) =>
      rank[r] <= rank[session.role] &&
      (m === undefined || m.accountId !== session.account.id || rank[r] <= rank[m.role])
  )

/** @param {{ session: SessionInfo, canAdmin: boolean }} props */
const Members = ({ session, canAdmin }) => {
  const [list, reload, loadError] = useLoad(() =>
    api.get("/members").then(/** @param {{ members: ReadonlyArray<Member> }} r */ (r) => r.members)
  )
  const [pending, reloadPending, pendingError] = useLoad(() =>
    canAdmin
      ? api.get("/invitations").then(/** @param {{ invitations: ReadonlyArray<Invitation> }} r */ (r) => r.invitations)
      : Promise.resolve(/** @type {ReadonlyArray<Invitation>} */ ([]))
  )
  const [email, setEmail] = useState("")
  const [role, setRole] = useState(/** @type {Role} */ ("member"))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  const [shown, setShown] = useState(/** @type {{ label: string, value: string } | null} */ (null))
  // An away mark being saved: the checkbox shows it at once (not the list's old value until the reload).
  const [awaySaving, setAwaySaving] = useState(/** @type {Readonly<Record<number, boolean>>} */ ({}))
  /** @param {() => Promise<unknown>} action @param {string} done */
  const act = (action, done) => {
    setError(null)
    setNotice(null)
    return action().then(
      () => {
        setNotice(done)
        return Promise.all([reload(), reloadPending()])
      },
      (e) => setError(messageOf(e))
    )
  }
  /** @param {Member} m @param {boolean} away */
  const markAway = (m, away) => {
    setAwaySaving((saving) => ({ ...saving, [m.accountId]: away }))
    act(
      () => api.put(`/members/${m.accountId}/away`, { away }),
      t(away ? "settings.markedAway" : "settings.markedBack", { email: m.email })
    ).finally(() =>
      setAwaySaving((saving) => {
        const { [m.accountId]: _, ...rest } = saving
        return rest
      })
    )
  }
  /** @param {SubmitEvent} e */
  const invite = (e) => {
    e.preventDefault()
    setError(null)
    setNotice(null)
    setShown(null)
    api.post("/invitations", { email, role }).then(
      /** @param {import("../shared/Types.js").CreatedInvitation} created */
      (created) => {
        if (created.link)
          setShown({ label: t("settings.invitationLinkFor", { email: created.email }), value: created.link })
        setNotice(
          created.emailed
            ? t("settings.invitationSent", { email: created.email })
            : (created.emailError ?? t("settings.invitedPassLinkOn", { email: created.email }))
        )
        setEmail("")
        return reloadPending()
      },
      (e) => setError(messageOf(e))
    )
  }
  /** @param {Member} m */
  const signInLink = (m) => {
    setError(null)
    setNotice(null)
    setShown(null)
    api.post(`/members/${m.accountId}/sign-in-link`).then(
      /** @param {import("../shared/Types.js").IssuedSignInLink} issued */
      (issued) => setShown({ label: t("settings.signInLinkFor", { email: m.email }), value: issued.link }),
      (e) => setError(messageOf(e))
    )
  }
  return html`<section aria-labelledby="members-title">
    <h2 id="members-title">${t("settings.membersTitle")}</h2>
    <${Status} error=${error ?? loadError ?? pendingError} notice=${notice} />
    ${shown === null ? null : html`<${Secret} label=${shown.label} value=${shown.value} onDone=${() => setShown(null)} />`}
    ${
      list === null
        ? html`<p class="loading">${t("settings.loading")}</p>`
        : html`<${TableScroll} label=${t("settings.membersTable")}><table>
      <thead><tr><th scope="col">${t("settings.colName")}</th><th scope="col">${t("settings.colEmail")}</th><th scope="col">${t("settings.colRole")}</th><th scope="col">${t("settings.colAway")}</th>${canAdmin ? html`<th scope="col">${t("settings.colActions")}</th>` : null}</tr></thead>
      <tbody>${list.map(
        (m) => html`<tr key=${m.accountId}>
        <td>${m.accountId === session.account.id ? t("settings.nameYou", { name: m.name ?? "—" }) : (m.name ?? "—")}</td><td>${m.email}</td>
        <td>${
          canAdmin && manages(session, m)
            ? html`<select aria-label=${t("settings.roleOf", { email: m.email })} value=${m.role} onChange=${(e) => act(() => api.patch(`/members/${m.accountId}`, { role: e.target.value }), t("settings.roleChanged", { email: m.email, role: roleName(e.target.value) }))}>
          ${givable(session, m).map((r) => html`<option value=${r}>${roleName(r)}</option>`)}</select>`
            : roleName(m.role)
        }</td>
        <td>${
          // Away: a member (not a viewer) for themself, owners and admins for anyone.
          canAdmin || (m.accountId === session.account.id && session.role !== "viewer")
            ? html`<input type="checkbox" aria-label=${t("settings.awayOf", { email: m.email })} checked=${awaySaving[m.accountId] ?? m.away} onChange=${(e) => markAway(m, e.target.checked)} />`
            : m.away
              ? t("settings.away")
              : ""
        }</td>
        ${canAdmin ? html`<td>${manages(session, m) ? html`<div class="row">${m.accountId === session.account.id ? null : html`<button aria-label=${t("settings.copySignInLink", { email: m.email })} onClick=${() => signInLink(m)}>${t("settings.signInLink")}</button>`}<button class="danger" aria-label=${t("settings.removeMember", { email: m.email })} onClick=${() => confirm(t("settings.removeMemberConfirm", { email: m.email })) && act(() => api.del(`/members/${m.accountId}`), t("settings.memberRemoved", { email: m.email }))}>${t("settings.remove")}</button></div>` : null}</td>` : null}
      </tr>`
      )}</tbody></table><//>`
    }
    ${
      canAdmin
        ? html`<form class="row" aria-label=${t("settings.inviteSomeone")} onSubmit=${invite}>
      <label for="member-email">${t("settings.inviteByEmail")}</label>
      <input id="member-email" type="email" required value=${email} onInput=${(e) => setEmail(e.target.value)} placeholder="name@example.com" />
      <label for="member-role">${t("settings.inviteRole")}</label>
      <select id="member-role" value=${role} onChange=${(e) => setRole(e.target.value)}>${givable(session).map((r) => html`<option value=${r}>${roleName(r)}</option>`)}</select>
      <button type="submit">${t("settings.invite")}</button>
    </form><p class="muted">${t("settings.inviteHelp")}</p>
    <h3 id="pending-title">${t("settings.pendingTitle")}</h3>
    ${
      pending === null
        ? html`<p class="loading">${t("settings.loading")}</p>`
        : pending.length === 0
          ? html`<p class="muted">${t("settings.pendingNone")}</p>`
          : html`<${TableScroll} label=${t("settings.pendingTable")}><table aria-labelledby="pending-title">
      <thead><tr><th scope="col">${t("settings.colEmail")}</th><th scope="col">${t("settings.colRole")}</th><th scope="col">${t("settings.colExpires")}</th><th scope="col">${t("settings.colActions")}</th></tr></thead>
      <tbody>${pending.map(
        (i) => html`<tr key=${i.id}>
        <td>${i.email}</td><td>${roleName(i.role)}</td><td>${i.status === "expired" ? t("settings.expired") : formatDateTime(i.expiresAt)}</td>
        <td><button class="danger" aria-label=${t("settings.revokeInvitation", { email: i.email })} onClick=${() => act(() => api.del(`/invitations/${i.id}`), t("settings.invitationRevoked", { email: i.email }))}>${t("settings.revoke")}</button></td>
      </tr>`
      )}</tbody></table><//>`
    }`
        : null
    }
  </section>`
}

/** @param {{ canAdmin: boolean }} props */
const ApiKeys = ({ canAdmin }) => {
  const [list, reload, loadError] = useLoad(() =>
    canAdmin
      ? api.get("/api-keys").then(/** @param {{ apiKeys: ReadonlyArray<ApiKey> }} r */ (r) => r.apiKeys)
      : Promise.resolve(/** @type {ReadonlyArray<ApiKey>} */ ([]))
  )
  const [name, setName] = useState("")
  const [created, setCreated] = useState(/** @type {string | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  if (!canAdmin)
    return html`<section aria-labelledby="keys-title"><h2 id="keys-title">${t("settings.apiKeysTitle")}</h2><p>${t("settings.apiKeysAdminsOnly")}</p></section>`
  /** @param {SubmitEvent} event */
  const create = async (event) => {
    event.preventDefault()
    setError(null)
    try {
      /** @type {{ key: string }} */
      const issued = await api.post("/api-keys", { name: name.trim() === "" ? null : name.trim() })
      setCreated(issued.key)
      setName("")
      reload()
    } catch (e) {
      setError(messageOf(e))
    }
  }
  /** @param {ApiKey} key */
  const revoke = (key) => {
    if (!confirm(t("settings.revokeKeyConfirm", { prefix: key.prefix }))) return
    api.del(`/api-keys/${key.id}`).then(
      () => {
        setNotice(t("settings.keyRevoked", { prefix: key.prefix }))
        reload()
      },
      (e) => setError(messageOf(e))
    )
  }
  return html`<section aria-labelledby="keys-title">
    <h2 id="keys-title">${t("settings.apiKeysTitle")}</h2>
    <${Status} error=${error ?? loadError} notice=${notice} />
    ${created ? html`<${Secret} label=${t("settings.newApiKey")} value=${created} onDone=${() => setCreated(null)} />` : null}
    <form class="row" onSubmit=${create}>
      <label for="key-name">${t("settings.keyName")}</label>
      <input id="key-name" type="text" maxlength="100" value=${name} onInput=${(e) => setName(e.target.value)} placeholder=${t("settings.keyNamePlaceholder")} />
      <button type="submit" class="primary">${t("settings.createKey")}</button>
    </form>
    ${
      list === null
        ? html`<p class="loading">${t("settings.loading")}</p>`
        : html`<${TableScroll} label=${t("settings.apiKeysTable")}><table>
      <thead><tr><th scope="col">${t("settings.colName")}</th><th scope="col">${t("settings.colPrefix")}</th><th scope="col">${t("settings.colCreated")}</th><th scope="col">${t("settings.colLastUsed")}</th><th scope="col">${t("settings.colStatus")}</th><th scope="col">${t("settings.colActions")}</th></tr></thead>
      <tbody>${list.map(
        (k) => html`<tr key=${k.id}>
        <td>${k.name ?? "—"}</td><td><code>${k.prefix}…</code></td><td>${formatDateTime(k.createdAt)}</td><td>${k.lastUsedAt ? formatDateTime(k.lastUsedAt) : t("settings.never")}</td>
        <td>${k.revokedAt ? t("settings.keyRevokedOn", { date: formatDateTime(k.revokedAt) }) : t("settings.keyActive")}</td>
        <td>${k.revokedAt ? null : html`<button class="danger" aria-label=${t("settings.revokeKey", { name: k.name ?? k.prefix })} onClick=${() => revoke(k)}>${t("settings.revoke")}</button>`}</td>
      </tr>`
      )}</tbody></table><//>`
    }
  </section>`
}

/** A delivery log (webhook subscription or notification channel) with every attempt and a retry per delivery. */
/**
 * A delivery log (a webhook's or a notification channel's), with retry.
 * @param {{ title: string, logPath: string, retryPath: (delivery: Delivery) => string, onClose: () => void }} props
 */
export const DeliveryLog = ({ title, logPath, retryPath, onClose }) => {
  const [log, reload, loadError] = useLoad(
    () => /** @type {Promise<DeliveryLogPage>} */ (api.get(`${logPath}?limit=50`)),
    [logPath]
  )
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  /** @param {Delivery} delivery */
  const retry = (delivery) =>
    api.post(retryPath(delivery)).then(
      () => {
        setNotice(t("settings.deliverySentAgain", { id: String(delivery.id) }))
        reload()
      },
      (e) => setError(messageOf(e))
    )
  return html`<div class="card stack" role="region" aria-label=${t("settings.deliveryLogOf", { title })}>
    <div class="spread"><h3>${t("settings.deliveryLogTitle", { title })}</h3><button onClick=${onClose}>${t("settings.closeLog")}</button></div>
    <${Status} error=${error ?? loadError} notice=${notice} />
    ${
      log === null
        ? html`<p class="loading">${t("settings.loading")}</p>`
        : log.deliveries.length === 0
          ? html`<p>${t("settings.noDeliveries")}</p>`
          : html`<${TableScroll} label=${t("settings.deliveriesOf", { title })}><table>
      <thead><tr><th scope="col">${t("settings.colEvent")}</th><th scope="col">${t("settings.colStatus")}</th><th scope="col">${t("settings.colAttempts")}</th><th scope="col">${t("settings.colCreated")}</th><th scope="col">${t("settings.colActions")}</th></tr></thead>
      <tbody>${log.deliveries.map(
        (d) => html`<tr key=${d.id}>
        <td>${d.event}${d.responseId ? ` #${d.responseId}` : ""}</td><td>${t("settings.deliveryState", { state: d.status })}</td>
        <td>${d.attempts.map((a) => html`<div>${t("settings.attempt", { time: formatDateTime(a.at), outcome: a.statusCode === null ? (a.error ?? "—") : String(a.statusCode), duration: formatNumber(a.durationMs) })}</div>`)}</td>
        <td>${formatDateTime(d.createdAt)}</td>
        <td><button onClick=${() => retry(d)} aria-label=${t("settings.retryDelivery", { id: String(d.id) })}>${t("settings.retry")}</button></td>
      </tr>`
      )}</tbody></table><//>`
    }
  </div>`
}

/** The contract's two events, offered while the catalogue loads (or if it cannot). */
const specEvents = ["response.created", "response.stage_changed"]
/** The form choice of a workspace-wide subscription: every form of the workspace. */
const everyForm = "*"

/**
 * A checkbox list's choice with `item` checked or not.
 * @template T @param {ReadonlyArray<T>} list @param {T} item @param {boolean} on @returns {ReadonlyArray<T>}
 */
const toggled = (list, item, on) => (on ? [...list.filter((x) => x !== item), item] : list.filter((x) => x !== item))

/** Tags typed with commas between them: trimmed, without empty ones. @param {string} text */
const tagsOf = (text) =>
  text
    .split(",")
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "")

/**
 * The workspace's webhook deliveries that gave up, with a bulk replay (owners and admins), and its failure alerts.
 * @param {{ canAdmin: boolean, version: number, onReplayed: () => void }} props
 */
const DeadLetters = ({ canAdmin, version, onReplayed }) => {
  const [dead, reload, loadError] = useLoad(
    () => /** @type {Promise<DeadLetterList>} */ (api.get("/webhooks/dead-letters?limit=50")),
    [version]
  )
  const [alerts] = useLoad(
    () => /** @type {Promise<WebhookAlertList>} */ (api.get("/webhooks/alerts?limit=20")),
    [version]
  )
  const [chosen, setChosen] = useState(/** @type {ReadonlyArray<number>} */ ([]))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  /** @param {number} id @param {boolean} on */
  const choose = (id, on) => setChosen(toggled(chosen, id, on))
  const replay = () =>
    api.post("/webhooks/dead-letters/replay", { deliveryIds: chosen }).then(
      /** @param {ReplayResult} r */
      (r) => {
        setNotice(t("settings.replayed", { replayed: String(r.replayed.length), skipped: String(r.skipped.length) }))
        setChosen([])
        reload()
        onReplayed()
      },
      (err) => setError(messageOf(err))
    )
  return html`<div class="stack">
    <h3 id="dead-title">${t("settings.deadLettersTitle")}</h3>
    <p>${t("settings.deadLettersHelp")}</p>
    <${Status} error=${error ?? loadError} notice=${notice} />
    ${
      dead === null
        ? html`<p class="loading">${t("settings.loading")}</p>`
        : dead.deliveries.length === 0
          ? html`<p>${t("settings.noDeadLetters")}</p>`
          : html`<${TableScroll} label=${t("settings.deadLettersTitle")}><table>
      <thead><tr>${canAdmin ? html`<th scope="col">${t("settings.colReplay")}</th>` : null}<th scope="col">${t("settings.hookForm")}</th><th scope="col">${t("settings.colEvent")}</th><th scope="col">${t("settings.colAttempts")}</th><th scope="col">${t("settings.colCreated")}</th></tr></thead>
      <tbody>${dead.deliveries.map((d) => {
        const last = d.attempts[d.attempts.length - 1]
        return html`<tr key=${d.id}>
        ${canAdmin ? html`<td><input type="checkbox" checked=${chosen.includes(d.id)} onChange=${(e) => choose(d.id, e.target.checked)} aria-label=${t("settings.chooseDeadLetter", { id: String(d.id) })} /></td>` : null}
        <td>${d.formTitle ?? t("settings.allForms")}</td><td>${d.event}${d.responseId ? ` #${d.responseId}` : ""}</td>
        <td>${String(d.attempts.length)}${last ? html`<br />${last.statusCode === null ? (last.error ?? "—") : String(last.statusCode)}` : null}</td>
        <td>${formatDateTime(d.createdAt)}</td>
      </tr>`
      })}</tbody></table><//>
      ${canAdmin ? html`<div class="row"><button class="primary" disabled=${chosen.length === 0} onClick=${replay}>${t("settings.replaySelected", { count: String(chosen.length) })}</button></div>` : null}`
    }
    <h3>${t("settings.alertsTitle")}</h3>
    ${
      alerts === null
        ? html`<p class="loading">${t("settings.loading")}</p>`
        : alerts.alerts.length === 0
          ? html`<p>${t("settings.noAlerts")}</p>`
          : html`<ul class="stack">${alerts.alerts.map(
              (a) =>
                html`<li key=${a.id}>${formatDateTime(a.createdAt)}: ${
                  a.kind === "failing"
                    ? t("settings.alertFailing", {
                        url: a.target,
                        form: a.formTitle ?? t("settings.allForms"),
                        count: String(a.failures)
                      })
                    : t("settings.alertDisabled", {
                        url: a.target,
                        form: a.formTitle ?? t("settings.allForms"),
                        reason: a.reason ?? ""
                      })
                }</li>`
            )}</ul>`
    }
  </div>`
}

/** @param {{ canAdmin: boolean }} props */
const Webhooks = ({ canAdmin }) => {
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

/**
 * The workspace's default theme of its forms' public pages (`/api/workspace/settings`): worn by every form without a
 * theme of its own. Owners and admins change it.
 * @param {{ canAdmin: boolean }} props
 */
const PageTheme = ({ canAdmin }) => {
  const [settings, reload, loadError] = useLoad(
    () => /** @type {Promise<import("../shared/Types.js").WorkspaceSettings>} */ (api.get("/workspace/settings"))
  )
  const [theme, setTheme] = useState(/** @type {import("../shared/Types.js").WorkspaceSettings["theme"]} */ (undefined))
  const [seeded, setSeeded] = useState(false)
  const [dirty, setDirty] = useState(false)
  // The effect below runs after the render that loaded the settings: a ref, not that render's `dirty`, tells it
  // whether the person has changed something since (their change must not be overwritten by the saved theme).
  const changed = useRef(false)
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  useEffect(() => {
    if (settings === null) return
    if (!changed.current) setTheme(settings.theme)
    setSeeded(true)
  }, [settings])
  const save = async () => {
    setError(null)
    setNotice(null)
    try {
      await api.put("/workspace/settings", { ...settings, theme })
      changed.current = false
      setDirty(false)
      setNotice(t("settings.themeSaved"))
      await reload()
    } catch (e) {
      setError(messageOf(e))
    }
  }
  return html`<section class="stack" aria-labelledby="page-theme-title">
    <h2 id="page-theme-title">${t("settings.themeTitle")}</h2>
    <p class="muted">${t("settings.themeHelp")}</p>
    <${Status} error=${error ?? loadError} notice=${notice} />
    ${
      settings === null || !seeded
        ? html`<p class="loading">${t("settings.loading")}</p>`
        : html`<${ThemeEditor} theme=${theme} disabled=${!canAdmin} legend=${t("settings.defaultTheme")} onChange=${(
            next
          ) => {
            changed.current = true
            setTheme(next)
            setDirty(true)
          }} />
    ${canAdmin ? html`<div><button class="primary" disabled=${!dirty} onClick=${save}>${t("settings.saveTheme")}</button></div>` : html`<p class="muted">${t("settings.themeAdminsOnly")}</p>`}`
    }
  </section>`
}

/** The days of the week as the business hours name them, Monday first. */
const weekDays = /** @type {const} */ (["mon", "tue", "wed", "thu", "fri", "sat", "sun"])

/**
 * The workspace's business hours (`businessHours` of `/api/workspace/settings`), which the forms' SLA targets count
 * in: a time zone, each day's intervals written "09:00-12:00, 13:00-17:00", and holidays. The server checks them
 * (overlaps, an end before the start, an unknown zone) and its message is shown. Owners and admins change them.
 * @param {{ canAdmin: boolean }} props
 */
const BusinessHoursSettings = ({ canAdmin }) => {
  const [settings, reload, loadError] = useLoad(
    () => /** @type {Promise<import("../shared/Types.js").WorkspaceSettings>} */ (api.get("/workspace/settings"))
  )
  const [form, setForm] = useState(/** @type {Record<string, string> | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  useEffect(() => {
    if (settings === null || form !== null) return
    const hours = settings.businessHours
    /** @type {Record<string, string>} */
    const next = { timeZone: hours?.timeZone ?? "", holidays: (hours?.holidays ?? []).join(", ") }
    for (const day of weekDays) next[day] = (hours?.week[day] ?? []).map((i) => `${i.from}-${i.to}`).join(", ")
    setForm(next)
  }, [settings])
  /** @param {string} text */
  const list = (text) =>
    text
      .split(/[,\s]+/)
      .map((part) => part.trim())
      .filter((part) => part !== "")
  const save = async () => {
    if (settings === null || form === null) return
    setError(null)
    setNotice(null)
    /** @type {Record<string, Array<{ from: string, to: string }>>} */
    const week = {}
    for (const day of weekDays) {
      const intervals = list(form[day] ?? "").map((part) => {
        const [from = "", to = ""] = part.split("-")
        return { from, to }
      })
      if (intervals.length > 0) week[day] = intervals
    }
    const { businessHours: _, ...rest } = settings
    const holidays = list(form.holidays ?? "")
    const businessHours =
      (form.timeZone ?? "").trim() === ""
        ? undefined
        : { timeZone: (form.timeZone ?? "").trim(), week, ...(holidays.length > 0 ? { holidays } : {}) }
    try {
      await api.put("/workspace/settings", businessHours === undefined ? rest : { ...rest, businessHours })
      setNotice(t("settings.hoursSaved"))
      await reload()
    } catch (e) {
      setError(messageOf(e))
    }
  }
  /** @param {string} key */
  const set = (key) => (/** @type {Event & { currentTarget: HTMLInputElement }} */ e) =>
    form === null ? undefined : setForm({ ...form, [key]: e.currentTarget.value })
  return html`<section class="stack" aria-labelledby="hours-title">
    <h2 id="hours-title">${t("settings.hoursTitle")}</h2>
    <p class="muted">${t("settings.hoursHelp")}</p>
    <${Status} error=${error ?? loadError} notice=${notice} />
    ${
      form === null
        ? html`<p class="loading">${t("settings.loading")}</p>`
        : html`<label for="hours-zone">${t("settings.hoursTimeZone")}</label>
    <input id="hours-zone" disabled=${!canAdmin} value=${form.timeZone} placeholder="Europe/Berlin" onInput=${set("timeZone")} />
    ${weekDays.map(
      (day) => html`<label for=${`hours-${day}`}>${t("settings.hoursDay", { day })}</label>
    <input id=${`hours-${day}`} disabled=${!canAdmin} value=${form[day]} placeholder="09:00-17:00" onInput=${set(day)} />`
    )}
    <label for="hours-holidays">${t("settings.hoursHolidays")}</label>
    <input id="hours-holidays" disabled=${!canAdmin} value=${form.holidays} placeholder="2026-12-25, 2026-12-26" onInput=${set("holidays")} />
    ${canAdmin ? html`<div><button class="primary" onClick=${save}>${t("settings.hoursSave")}</button></div>` : html`<p class="muted">${t("settings.themeAdminsOnly")}</p>`}`
    }
  </section>`
}

/** @param {{ session: SessionInfo, canAdmin: boolean }} props */
export const SettingsScreen = ({ session, canAdmin }) => {
  const [tab, setTab] = useState("members")
  /** @type {ReadonlyArray<readonly [string, string]>} */
  const tabs = [
    ["members", t("settings.tabMembers")],
    ["keys", t("settings.tabApiKeys")],
    ["webhooks", t("settings.tabWebhooks")],
    ["theme", t("settings.tabPageTheme")],
    ["hours", t("settings.tabHours")],
    ["privacy", t("settings.tabPrivacy")],
    ["audit", t("settings.tabAudit")]
  ]
  /** @param {KeyboardEvent} event */
  const onKey = (event) => {
    const index = tabs.findIndex(([id]) => id === tab)
    const next = event.key === "ArrowRight" ? index + 1 : event.key === "ArrowLeft" ? index - 1 : null
    if (next === null) return
    const [id] = tabs[(next + tabs.length) % tabs.length] ?? ["members"]
    setTab(id)
    requestAnimationFrame(() => document.getElementById(`tab-${id}`)?.focus())
  }
  return html`<h1 tabindex="-1">${t("settings.title")}</h1>
    <div class="tabs" role="tablist" aria-label=${t("settings.title")} onKeyDown=${onKey}>
      ${tabs.map(([id, label]) => html`<button role="tab" id=${`tab-${id}`} aria-selected=${tab === id ? "true" : "false"} aria-controls="settings-panel" tabindex=${tab === id ? "0" : "-1"} onClick=${() => setTab(id)}>${label}</button>`)}
    </div>
    <div id="settings-panel" role="tabpanel" aria-labelledby=${`tab-${tab}`}>
      ${
        tab === "members"
          ? html`<${Members} session=${session} canAdmin=${canAdmin} />`
          : tab === "keys"
            ? html`<${ApiKeys} canAdmin=${canAdmin} />`
            : tab === "theme"
              ? html`<${PageTheme} canAdmin=${canAdmin} />`
              : tab === "hours"
                ? html`<${BusinessHoursSettings} canAdmin=${canAdmin} />`
                : tab === "privacy"
                  ? html`<${Privacy} canAdmin=${canAdmin} />`
                  : tab === "audit"
                    ? html`<${AuditLog} canAdmin=${canAdmin} />`
                    : html`<${Webhooks} canAdmin=${canAdmin} />`
      }
    </div>`
}

/** @param {{ session: SessionInfo }} props */
export const AccountScreen = ({ session }) => {
  const [current, setCurrent] = useState("")
  const [next, setNext] = useState("")
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  /** @param {SubmitEvent} event */
  const submit = async (event) => {
    event.preventDefault()
    setError(null)
    setNotice(null)
    try {
      await call("POST", "/app/password", { currentPassword: current, newPassword: next })
      setCurrent("")
      setNext("")
      setNotice(t("account.passwordChanged"))
    } catch (e) {
      setError(messageOf(e))
    }
  }
  return html`<h1 tabindex="-1">${t("account.title")}</h1>
    <p>${session.account.name ?? ""} ${session.account.email} · ${roleName(session.role)}</p>
    <${LanguageChooser} session=${session} />
    ${
      session.via === "session"
        ? html`<form class="stack card" onSubmit=${submit}>
      <h2>${t("account.password")}</h2>
      <${Status} error=${error} notice=${notice} />
      <label for="current-password">${t("account.currentPassword")}</label>
      <input id="current-password" type="password" autocomplete="current-password" value=${current} onInput=${(e) => setCurrent(e.target.value)} />
      <label for="new-password">${t("account.newPassword")}</label>
      <input id="new-password" type="password" autocomplete="new-password" minlength="10" required value=${next} onInput=${(e) => setNext(e.target.value)} />
      <div><button class="primary" type="submit">${t("account.changePassword")}</button></div>
    </form>`
        : html`<p>${t("account.viaHost")}</p>`
    }`
}
