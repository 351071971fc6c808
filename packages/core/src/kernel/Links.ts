/**
 * The links qforms puts in what it answers and sends: the base URL they are
 * built on, per request (`LinkBase`) or from configuration only
 * (`SentLinkBase`), and the application's page of a response. Every context
 * that writes a link reads it here, so links agree everywhere.
 *
 * @module
 */
import * as Context from "effect/Context"

/**
 * The base URL links to files are built on (`{base}/api/files/{fileId}`): the
 * configured `appUrl`, or the request's own scheme, host and mount prefix. The
 * HTTP layer sets it for each request; outside a request it is `""` (relative
 * links) unless the caller provides it.
 */
export const LinkBase = Context.Reference<string>("@qforms/core/Files/LinkBase", { defaultValue: () => "" })

/**
 * The base URL of links that are stored or leave the process (e-mails, event
 * payloads for webhooks and chat channels): the configured `appUrl` only,
 * set once from configuration and never from a request, so a forged `Host` or
 * `X-Forwarded-Host` cannot put its own origin into a message someone else
 * receives. `""` when no `appUrl` is configured (links stay relative; e-mail
 * refuses to start without one).
 */
export const SentLinkBase = Context.Reference<string>("@qforms/core/Files/SentLinkBase", { defaultValue: () => "" })

/** The link to the list of forms in the application (its home). */
export const formsLink = (appUrl: string) => `${appUrl.replace(/\/$/, "")}/app/`

/** The link to a form's responses in the application. */
export const formLink = (appUrl: string, formId: number) => `${appUrl.replace(/\/$/, "")}/app/forms/${formId}/responses`

/** The link to a response in the application. */
export const responseLink = (appUrl: string, responseId: number) =>
  `${appUrl.replace(/\/$/, "")}/app/responses/${responseId}`
