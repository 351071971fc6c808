// @ts-check
// The application's paths and the screen each shows (a tiny router over the History API reads them): the forms,
// the workspace's inbox, a form's responses and builder, a case, the settings and the account; anything else is
// "not found". Pure: the shell gives each screen its title in the account's language.

/** @typedef {import("../shared/Types.js").AppKey} AppKey */
/**
 * Which screen a path shows, the message of its title, and the form or response it is about.
 * @typedef {{ screen: string, titleKey: AppKey, formId?: number, responseId?: number }} Match
 */
/** A route as the screens get it: the match, its title in words. @typedef {Match & { title: string }} Route */

/** @type {ReadonlyArray<readonly [RegExp, (m: RegExpExecArray) => Match]>} */
const routes = [
  [/^\/app\/?$/, () => ({ screen: "forms", titleKey: "shell.forms" })],
  [/^\/app\/inbox\/?$/, () => ({ screen: "workspaceInbox", titleKey: "shell.inbox" })],
  [
    /^\/app\/forms\/(\d+)\/responses\/?$/,
    (m) => ({ screen: "inbox", titleKey: "shell.titleResponses", formId: Number(m[1]) })
  ],
  [/^\/app\/forms\/(\d+)\/?$/, (m) => ({ screen: "builder", titleKey: "shell.titleBuilder", formId: Number(m[1]) })],
  [
    /^\/app\/responses\/(\d+)\/?$/,
    (m) => ({ screen: "case", titleKey: "shell.titleResponse", responseId: Number(m[1]) })
  ],
  [/^\/app\/settings\/?$/, () => ({ screen: "settings", titleKey: "shell.settings" })],
  [/^\/app\/account\/?$/, () => ({ screen: "account", titleKey: "shell.account" })]
]

/**
 * The screen of an application path (below the mount prefix, with or without its query).
 * @param {string} path e.g. `/app/forms/12/responses?view=board`
 * @returns {Match}
 */
export const match = (path) => {
  const pathname = path.split("?")[0] ?? ""
  for (const [pattern, make] of routes) {
    const m = pattern.exec(pathname)
    if (m) return make(m)
  }
  return { screen: "missing", titleKey: "shell.notFound" }
}
