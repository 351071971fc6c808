// @ts-check
// Settings (members, API keys shown once, webhooks with their secret shown once, delivery log, retry, test ping, the
// workspace's page theme) and the account.
import { html } from "htm/preact"
import { useEffect, useState } from "preact/hooks"
import { TableScroll } from "./table.js"
import { api, call, copy, formatDate, messageOf } from "./api.js"
import { ThemeEditor } from "./theme.js"

/** @typedef {import("./types.js").SessionInfo} SessionInfo */
/** @typedef {import("./types.js").Member} Member */
/** @typedef {import("./types.js").Invitation} Invitation */
/** @typedef {import("./types.js").ApiKey} ApiKey */
/** @typedef {import("./types.js").Subscription} Subscription */
/** @typedef {import("./types.js").Delivery} Delivery */
/** @typedef {import("./types.js").DeliveryLog} DeliveryLogPage */
/** @typedef {import("./types.js").FormSummary} FormSummary */
/** @typedef {SessionInfo["role"]} Role */

/** @type {ReadonlyArray<Role>} */
const roles = ["owner", "admin", "member", "viewer"]

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
    <strong>${label}: shown this once. Copy it now.</strong>
    <div class="secret" data-secret>${value}</div>
    <div class="row">
      <button class="primary" onClick=${async () => setCopied((await copy(value)) ? "Copied." : "Select the text and copy it by hand.")}>Copy</button>
      <button onClick=${onDone}>Done</button>
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
  /** @param {SubmitEvent} e */
  const invite = (e) => {
    e.preventDefault()
    setError(null)
    setNotice(null)
    setShown(null)
    api.post("/invitations", { email, role }).then(
      /** @param {import("./types.js").CreatedInvitation} created */
      (created) => {
        if (created.link) setShown({ label: `Invitation link for ${created.email}`, value: created.link })
        setNotice(
          created.emailed
            ? `Invitation sent to ${created.email}.`
            : (created.emailError ?? `${created.email} is invited: pass the link on (it works once, for 7 days).`)
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
      /** @param {import("./types.js").IssuedSignInLink} issued */
      (issued) => setShown({ label: `Sign-in link for ${m.email} (once, 15 minutes)`, value: issued.link }),
      (e) => setError(messageOf(e))
    )
  }
  return html`<section aria-labelledby="members-title">
    <h2 id="members-title">Members</h2>
    <${Status} error=${error ?? loadError ?? pendingError} notice=${notice} />
    ${shown === null ? null : html`<${Secret} label=${shown.label} value=${shown.value} onDone=${() => setShown(null)} />`}
    ${
      list === null
        ? html`<p class="loading">Loading…</p>`
        : html`<${TableScroll} label="Members table"><table>
      <thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Role</th>${canAdmin ? html`<th scope="col">Actions</th>` : null}</tr></thead>
      <tbody>${list.map(
        (m) => html`<tr key=${m.accountId}>
        <td>${m.name ?? "—"}${m.accountId === session.account.id ? " (you)" : ""}</td><td>${m.email}</td>
        <td>${
          canAdmin && manages(session, m)
            ? html`<select aria-label=${`Role of ${m.email}`} value=${m.role} onChange=${(e) => act(() => api.patch(`/members/${m.accountId}`, { role: e.target.value }), `${m.email} is now ${e.target.value}.`)}>
          ${givable(session, m).map((r) => html`<option value=${r}>${r}</option>`)}</select>`
            : m.role
        }</td>
        ${canAdmin ? html`<td>${manages(session, m) ? html`<div class="row">${m.accountId === session.account.id ? null : html`<button aria-label=${`Copy a sign-in link for ${m.email}`} onClick=${() => signInLink(m)}>Sign-in link</button>`}<button class="danger" aria-label=${`Remove ${m.email}`} onClick=${() => confirm(`Remove ${m.email} from the workspace? Their API keys stop working.`) && act(() => api.del(`/members/${m.accountId}`), `${m.email} removed.`)}>Remove</button></div>` : null}</td>` : null}
      </tr>`
      )}</tbody></table><//>`
    }
    ${
      canAdmin
        ? html`<form class="row" aria-label="Invite someone" onSubmit=${invite}>
      <label for="member-email">Invite by e-mail</label>
      <input id="member-email" type="email" required value=${email} onInput=${(e) => setEmail(e.target.value)} placeholder="name@example.com" />
      <label for="member-role">Role</label>
      <select id="member-role" value=${role} onChange=${(e) => setRole(e.target.value)}>${givable(session).map((r) => html`<option value=${r}>${r}</option>`)}</select>
      <button type="submit">Invite</button>
    </form><p class="muted">The invitee chooses their own password. Without e-mail set up, you get a link to pass on. A member who cannot sign in gets a one-time sign-in link from you.</p>
    <h3 id="pending-title">Pending invitations</h3>
    ${
      pending === null
        ? html`<p class="loading">Loading…</p>`
        : pending.length === 0
          ? html`<p class="muted">None.</p>`
          : html`<${TableScroll} label="Pending invitations table"><table aria-labelledby="pending-title">
      <thead><tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Expires</th><th scope="col">Actions</th></tr></thead>
      <tbody>${pending.map(
        (i) => html`<tr key=${i.id}>
        <td>${i.email}</td><td>${i.role}</td><td>${i.status === "expired" ? "expired" : formatDate(i.expiresAt)}</td>
        <td><button class="danger" aria-label=${`Revoke the invitation of ${i.email}`} onClick=${() => act(() => api.del(`/invitations/${i.id}`), `The invitation of ${i.email} is revoked.`)}>Revoke</button></td>
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
    return html`<section aria-labelledby="keys-title"><h2 id="keys-title">API keys</h2><p>Only owners and admins manage API keys.</p></section>`
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
    if (!confirm(`Revoke ${key.prefix}…? It stops working at once.`)) return
    api.del(`/api-keys/${key.id}`).then(
      () => {
        setNotice(`${key.prefix}… revoked.`)
        reload()
      },
      (e) => setError(messageOf(e))
    )
  }
  return html`<section aria-labelledby="keys-title">
    <h2 id="keys-title">API keys</h2>
    <${Status} error=${error ?? loadError} notice=${notice} />
    ${created ? html`<${Secret} label="New API key" value=${created} onDone=${() => setCreated(null)} />` : null}
    <form class="row" onSubmit=${create}>
      <label for="key-name">Key name</label>
      <input id="key-name" type="text" maxlength="100" value=${name} onInput=${(e) => setName(e.target.value)} placeholder="e.g. Zapier" />
      <button type="submit" class="primary">Create key</button>
    </form>
    ${
      list === null
        ? html`<p class="loading">Loading…</p>`
        : html`<${TableScroll} label="API keys table"><table>
      <thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead>
      <tbody>${list.map(
        (k) => html`<tr key=${k.id}>
        <td>${k.name ?? "—"}</td><td><code>${k.prefix}…</code></td><td>${formatDate(k.createdAt)}</td><td>${k.lastUsedAt ? formatDate(k.lastUsedAt) : "never"}</td>
        <td>${k.revokedAt ? `revoked ${formatDate(k.revokedAt)}` : "active"}</td>
        <td>${k.revokedAt ? null : html`<button class="danger" aria-label=${`Revoke ${k.name ?? k.prefix}`} onClick=${() => revoke(k)}>Revoke</button>`}</td>
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
        setNotice(`Delivery ${delivery.id} sent again.`)
        reload()
      },
      (e) => setError(messageOf(e))
    )
  return html`<div class="card stack" role="region" aria-label=${`Delivery log of ${title}`}>
    <div class="spread"><h3>Delivery log: ${title}</h3><button onClick=${onClose}>Close log</button></div>
    <${Status} error=${error ?? loadError} notice=${notice} />
    ${
      log === null
        ? html`<p class="loading">Loading…</p>`
        : log.deliveries.length === 0
          ? html`<p>No deliveries yet.</p>`
          : html`<${TableScroll} label=${`Deliveries of ${title}`}><table>
      <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Created</th><th scope="col">Actions</th></tr></thead>
      <tbody>${log.deliveries.map(
        (d) => html`<tr key=${d.id}>
        <td>${d.event}${d.responseId ? ` #${d.responseId}` : ""}</td><td>${d.status}</td>
        <td>${d.attempts.map((a) => html`<div>${formatDate(a.at)}: ${a.statusCode ?? a.error ?? "—"} (${a.durationMs} ms)</div>`)}</td>
        <td>${formatDate(d.createdAt)}</td>
        <td><button onClick=${() => retry(d)} aria-label=${`Retry delivery ${d.id}`}>Retry</button></td>
      </tr>`
      )}</tbody></table><//>`
    }
  </div>`
}

/** @param {{ canAdmin: boolean }} props */
const Webhooks = ({ canAdmin }) => {
  const [list, reload, loadError] = useLoad(
    () => /** @type {Promise<ReadonlyArray<Subscription>>} */ (api.get("/webhooks"))
  )
  const [forms] = useLoad(() => /** @type {Promise<ReadonlyArray<FormSummary>>} */ (api.get("/forms")))
  const [form, setForm] = useState("")
  const [event, setEvent] = useState("response.created")
  const [url, setUrl] = useState("")
  const [secret, setSecret] = useState(/** @type {string | null} */ (null))
  const [open, setOpen] = useState(/** @type {Subscription | null} */ (null))
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  /** @param {SubmitEvent} e */
  const subscribe = async (e) => {
    e.preventDefault()
    setError(null)
    try {
      /** @type {import("./types.js").CreatedSubscription} */
      const created = await api.post("/webhooks/subscribe", {
        formId: Number(form),
        event,
        targetUrl: url,
        source: "app"
      })
      setSecret(created.secret)
      setUrl("")
      reload()
    } catch (err) {
      setError(messageOf(err))
    }
  }
  /** @param {Subscription} s */
  const ping = (s) =>
    api.post(`/webhooks/subscribe/${s.id}/test`).then(
      /** @param {{ ok: boolean, statusCode: number | null, durationMs: number, error: string | null }} r */
      (r) =>
        setNotice(
          r.ok
            ? `Test ping answered ${r.statusCode} in ${r.durationMs} ms.`
            : `Test ping failed: ${r.error ?? `HTTP ${r.statusCode}`}.`
        ),
      (err) => setError(messageOf(err))
    )
  /** @param {Subscription} s */
  const remove = (s) =>
    confirm(`Delete the webhook to ${s.targetUrl}?`) &&
    api.del(`/webhooks/subscribe/${s.id}`).then(
      () => {
        setNotice("Webhook deleted.")
        reload()
      },
      (err) => setError(messageOf(err))
    )
  /** @param {Subscription} s */
  const enable = (s) =>
    api.patch(`/webhooks/subscribe/${s.id}`, { disabled: false }).then(reload, (err) => setError(messageOf(err)))
  return html`<section aria-labelledby="hooks-title">
    <h2 id="hooks-title">Webhooks</h2>
    <${Status} error=${error ?? loadError} notice=${notice} />
    ${secret ? html`<${Secret} label="Signing secret" value=${secret} onDone=${() => setSecret(null)} />` : null}
    ${
      canAdmin
        ? html`<form class="row" onSubmit=${subscribe}>
      <label for="hook-form">Form</label>
      <select id="hook-form" required value=${form} onChange=${(e) => setForm(e.target.value)}>
        <option value="">Choose…</option>${(forms ?? []).map((f) => html`<option value=${String(f.id)}>${f.title}</option>`)}</select>
      <label for="hook-event">Event</label>
      <select id="hook-event" value=${event} onChange=${(e) => setEvent(e.target.value)}>
        <option value="response.created">response.created</option><option value="response.stage_changed">response.stage_changed</option></select>
      <label for="hook-url">URL</label>
      <input id="hook-url" type="url" required maxlength="2000" value=${url} onInput=${(e) => setUrl(e.target.value)} placeholder="https://example.com/hook" />
      <button type="submit" class="primary">Subscribe</button>
    </form>`
        : html`<p>Only owners and admins manage webhooks.</p>`
    }
    ${
      list === null
        ? html`<p class="loading">Loading…</p>`
        : list.length === 0
          ? html`<p>No webhooks yet.</p>`
          : html`<${TableScroll} label="Webhooks table"><table>
      <thead><tr><th scope="col">Form</th><th scope="col">Event</th><th scope="col">URL</th><th scope="col">Source</th><th scope="col" title="When the receiver last answered (any status)">Last answered</th><th scope="col">Actions</th></tr></thead>
      <tbody>${list.map(
        (s) => html`<tr key=${s.id}>
        <td>${s.formTitle}</td><td>${s.event}</td><td>${s.targetUrl}${s.disabled ? html`<br /><span class="error">disabled: ${s.disabledReason}</span>` : null}</td><td>${s.source}</td>
        <td>${s.lastSentAt ? formatDate(s.lastSentAt) : "never"}</td>
        <td><div class="row">
          <button onClick=${() => setOpen(s)} aria-label=${`Delivery log of ${s.targetUrl}`}>Log</button>
          ${
            canAdmin
              ? html`<button onClick=${() => ping(s)} aria-label=${`Send a test ping to ${s.targetUrl}`}>Test</button>
          ${s.disabled ? html`<button onClick=${() => enable(s)}>Enable</button>` : null}
          <button class="danger" onClick=${() => remove(s)} aria-label=${`Delete the webhook to ${s.targetUrl}`}>Delete</button>`
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
  </section>`
}

/**
 * The workspace's default theme of its forms' public pages (`/api/workspace/settings`): worn by every form without a
 * theme of its own. Owners and admins change it.
 * @param {{ canAdmin: boolean }} props
 */
const PageTheme = ({ canAdmin }) => {
  const [settings, reload, loadError] = useLoad(
    () => /** @type {Promise<import("./types.js").WorkspaceSettings>} */ (api.get("/workspace/settings"))
  )
  const [theme, setTheme] = useState(/** @type {import("./types.js").WorkspaceSettings["theme"]} */ (undefined))
  const [dirty, setDirty] = useState(false)
  const [error, setError] = useState(/** @type {string | null} */ (null))
  const [notice, setNotice] = useState(/** @type {string | null} */ (null))
  useEffect(() => {
    if (settings !== null && !dirty) setTheme(settings.theme)
  }, [settings])
  const save = async () => {
    setError(null)
    setNotice(null)
    try {
      await api.put("/workspace/settings", { ...settings, theme })
      setDirty(false)
      setNotice("Theme saved.")
      await reload()
    } catch (e) {
      setError(messageOf(e))
    }
  }
  return html`<section class="stack" aria-labelledby="page-theme-title">
    <h2 id="page-theme-title">Theme of the form pages</h2>
    <p class="muted">Every form without a theme of its own wears this one on its public page and its embed.</p>
    <${Status} error=${error ?? loadError} notice=${notice} />
    ${
      settings === null
        ? html`<p class="loading">Loading…</p>`
        : html`<${ThemeEditor} theme=${theme} disabled=${!canAdmin} legend="Default theme" onChange=${(next) => {
            setTheme(next)
            setDirty(true)
          }} />
    ${canAdmin ? html`<div><button class="primary" disabled=${!dirty} onClick=${save}>Save theme</button></div>` : html`<p class="muted">Only an owner or admin can change it.</p>`}`
    }
  </section>`
}

/** @param {{ session: SessionInfo, canAdmin: boolean }} props */
export const SettingsScreen = ({ session, canAdmin }) => {
  const [tab, setTab] = useState("members")
  /** @type {ReadonlyArray<readonly [string, string]>} */
  const tabs = [
    ["members", "Members"],
    ["keys", "API keys"],
    ["webhooks", "Webhooks"],
    ["theme", "Page theme"]
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
  return html`<h1 tabindex="-1">Settings</h1>
    <div class="tabs" role="tablist" aria-label="Settings" onKeyDown=${onKey}>
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
      setNotice("Password changed. Your other sessions were signed out.")
    } catch (e) {
      setError(messageOf(e))
    }
  }
  return html`<h1 tabindex="-1">Account</h1>
    <p>${session.account.name ?? ""} ${session.account.email} · ${session.role}</p>
    ${
      session.via === "session"
        ? html`<form class="stack card" onSubmit=${submit}>
      <h2>Password</h2>
      <${Status} error=${error} notice=${notice} />
      <label for="current-password">Current password (leave empty if you never set one)</label>
      <input id="current-password" type="password" autocomplete="current-password" value=${current} onInput=${(e) => setCurrent(e.target.value)} />
      <label for="new-password">New password (at least 10 characters)</label>
      <input id="new-password" type="password" autocomplete="new-password" minlength="10" required value=${next} onInput=${(e) => setNext(e.target.value)} />
      <div><button class="primary" type="submit">Change password</button></div>
    </form>`
        : html`<p>You are signed in through the host application; manage your password there.</p>`
    }`
}
