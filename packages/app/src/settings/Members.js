// @ts-check
// The workspace's members (their roles, away marks, one-time sign-in links, removal) and the invitations: owners
// and admins invite and revoke.
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { TableScroll } from "../shared/TableScroll.js"
import { api, messageOf } from "../shared/Api.js"
import { formatDateTime, t } from "../shared/Words.js"
import { useLoad } from "../shared/Load.js"
import { Status } from "../shared/Status.js"
import { changesRoleOf, givable, manages } from "./Roles.js"
import { Secret } from "./Secret.js"

/** @typedef {import("../shared/Types.js").SessionInfo} SessionInfo */
/** @typedef {import("../shared/Types.js").Member} Member */
/** @typedef {import("../shared/Types.js").Invitation} Invitation */
/** @typedef {SessionInfo["role"]} Role */

/** A role's name for people (the API keeps the literal). @param {string} role */
const roleName = (role) => t("shell.role", { role })

/** @param {{ session: SessionInfo, canAdmin: boolean }} props */
export const Members = ({ session, canAdmin }) => {
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
          canAdmin && changesRoleOf(session, m)
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
        ${canAdmin ? html`<td>${changesRoleOf(session, m) ? html`<div class="row">${m.accountId === session.account.id || !manages(session, m) ? null : html`<button aria-label=${t("settings.copySignInLink", { email: m.email })} onClick=${() => signInLink(m)}>${t("settings.signInLink")}</button>`}<button class="danger" aria-label=${t("settings.removeMember", { email: m.email })} onClick=${() => confirm(t("settings.removeMemberConfirm", { email: m.email })) && act(() => api.del(`/members/${m.accountId}`), t("settings.memberRemoved", { email: m.email }))}>${t("settings.remove")}</button></div>` : null}</td>` : null}
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
