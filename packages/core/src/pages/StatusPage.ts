/**
 * The respondent's status page at `/s/{token}` (the link of
 * `cases/StatusLinks.ts`): the form's title, when the response was sent, its
 * stage as the team names it for respondents (a stage's `publicName`; none:
 * "received"), the e-mail thread of the case (the team's e-mails to the
 * respondent and the respondent's replies; never notes) and a reply form.
 *
 * - `GET /s/{token}`: the page; an unknown, malformed or revoked token is the
 *   same 404 page, saying nothing of whether it ever existed.
 * - `POST /s/{token}`: a reply (`application/x-www-form-urlencoded`, or
 *   `multipart/form-data` with attachments in `files`), stored as an e-mail
 *   reply is (`EmailReplies.fromPage`: same row, activity, reopening and
 *   `email.replied` event), then a redirect (303) back to the page.
 * - `GET /s/{token}/edit`: while the form allows it (`editableForHours`) and
 *   the response was sent less than that many hours ago, the respondent's
 *   answers to change (`StatusEditPage`; the status page links to it then);
 *   otherwise a 403 page in the form's language.
 * - `POST /s/{token}/edit`: the changed answers (url-encoded), checked and
 *   stored by `cases/StatusEdits.ts`, then a redirect (303) to the status
 *   page; refused answers show the page again (400) with the messages next to
 *   the questions and what was typed kept. Same defences as a reply.
 *
 * Works without JavaScript (the page carries none). Defences: the page's
 * CSP and headers (`PageSecurity.securityHeaders`); a post must come from
 * this site's own page (`Sec-Fetch-Site` / `Origin`, as the application's
 * writes); the token in the URL is the only credential, so a forged post from
 * elsewhere would have to know it; replies per client address are limited;
 * a body is at most the inbound e-mail limit (`mail.inboundMaxBytes`), its
 * text {@link MAX_REPLY_CHARS} characters, its files {@link MAX_ATTACHMENTS}
 * (each from the upload limiter's bucket, and counted against the storage
 * quotas).
 *
 * @module
 */
import * as ByteSize from "effect/ByteSize"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Multipart from "effect/http/Multipart"
import type { AnswerInput, FormWithFields } from "../forms/index.ts"
import { StatusEdits, StatusLinks, type StatusTarget } from "../cases/index.ts"
import { EmailReplies, type ReplyAttachment, RespondentEmails } from "../email/index.ts"
import { Mailer } from "../mail/index.ts"
import { MessageCatalogues } from "../languages/index.ts"
import { clientAddress, crossSiteRefusal, html, lines, RateLimit } from "../web/index.ts"
import { defaultSubmissionRateLimit, makeLimiter, page } from "./PageSecurity.ts"
import { UploadLimiter } from "./UploadLimits.ts"
import * as StatusEditPage from "./StatusEditPage.ts"
import { languageFor, plainVoice, speaker, type Voice } from "./Voice.ts"

/** The longest reply the page takes, in characters. */
export const MAX_REPLY_CHARS = 20_000
/** The most files one reply carries. */
export const MAX_ATTACHMENTS = 5

/** Whether a path is a status page's edit page (`/s/{token}/edit`). */
export const isStatusEditPath = (path: string): boolean => /^\/s\/[A-Za-z0-9_-]{1,100}\/edit$/.test(path)

/** Whether a path is a status page's (its posts may be multipart and larger than the router's body limit). */
export const isStatusPath = (path: string): boolean => /^\/s\/[A-Za-z0-9_-]{1,100}$/.test(path)

/** Settings of the status page. */
export interface StatusPageOptions {
  readonly frameAncestors?: ReadonlyArray<string> | undefined
  readonly trustedProxyHops?: number | undefined
  /** Replies per client address (default: the public page's submission limit). */
  readonly replyRateLimit?: RateLimit.RateLimitConfig | undefined
}

const formatTime = (at: Date | string) => `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`

/**
 * The routes of the status page (mounted by `Http.layer`).
 *
 * @example
 * ```ts
 * const Routes = StatusPage.layer({ frameAncestors: ["'none'"] })
 * ```
 */
export const layer = (options: StatusPageOptions = {}) =>
  HttpRouter.use(
    Effect.fnUntraced(function* (router) {
      const links = yield* StatusLinks
      const edits = yield* StatusEdits
      const emails = yield* RespondentEmails
      const replies = yield* EmailReplies
      const uploads = yield* UploadLimiter
      const messages = yield* MessageCatalogues
      const replyLimiter = yield* makeLimiter(options.replyRateLimit ?? defaultSubmissionRateLimit, "status-reply")
      const editLimiter = yield* makeLimiter(options.replyRateLimit ?? defaultSubmissionRateLimit, "status-edit")
      const speak = speaker(messages)
      const hops = options.trustedProxyHops ?? 0
      const frameAncestors = options.frameAncestors

      const tokenParam = Effect.map(HttpRouter.params, (params) => params["token"] ?? "")
      const voiceOf = (request: HttpServerRequest.HttpServerRequest) =>
        plainVoice(messages, request.headers["accept-language"])
      const notFound = (request: HttpServerRequest.HttpServerRequest) => {
        const voice = voiceOf(request)
        return page({
          status: 404,
          title: "Page not found",
          body: html`<h1 id="title" tabindex="-1" data-focus>Page not found</h1>
<p>There is nothing at this address. The link may have been replaced or withdrawn.</p>`,
          frameAncestors,
          voice
        })
      }
      const messagePage = (
        request: HttpServerRequest.HttpServerRequest,
        status: number,
        title: string,
        text: string,
        voice: Voice = voiceOf(request)
      ) =>
        page({
          status,
          title,
          body: html`<h1 id="title" tabindex="-1" data-focus>${title}</h1>
<p>${text}</p>`,
          frameAncestors,
          voice
        })

      /** The form in the page's language (its own, or a translation the browser asks for) and the page's voice. */
      const formVoice = (request: HttpServerRequest.HttpServerRequest, form: FormWithFields) =>
        speak(form, languageFor(form, { acceptLanguage: request.headers["accept-language"] }))

      const editClosed = (request: HttpServerRequest.HttpServerRequest, form: FormWithFields, token: string) => {
        const { voice } = formVoice(request, form)
        const title = voice.say("status.editClosedTitle")
        return page({
          status: 403,
          title,
          body: html`<h1 id="title" tabindex="-1" data-focus>${title}</h1>
<p>${voice.say("status.editClosedText")}</p>
<p><a href="../${token}">${voice.say("status.editBack")}</a></p>`,
          frameAncestors,
          voice
        })
      }

      /** The edit page: the answers as stored, or a refused post's as typed with its messages. */
      const editPage = (
        request: HttpServerRequest.HttpServerRequest,
        token: string,
        form: FormWithFields,
        stored: Parameters<typeof StatusEditPage.render>[0]["stored"],
        until: Date,
        refused?: Parameters<typeof StatusEditPage.render>[0]["refused"]
      ) => {
        const spoken = formVoice(request, form)
        const title = spoken.voice.say("status.changeAnswers")
        return page({
          status: refused === undefined ? 200 : 400,
          title: `${title}: ${spoken.form.title}`,
          body: StatusEditPage.render({
            form: spoken.form,
            voice: spoken.voice,
            stored,
            until: formatTime(until),
            action: "edit",
            back: `../${token}`,
            refused
          }),
          frameAncestors,
          voice: spoken.voice
        })
      }

      const statusPage = (
        request: HttpServerRequest.HttpServerRequest,
        token: string,
        target: StatusTarget,
        notice?: string,
        error?: { readonly status: number; readonly text: string; readonly reply: string }
      ) =>
        Effect.gen(function* () {
          const found = yield* links.headline(target)
          if (found === undefined) return notFound(request)
          const thread = yield* emails.forResponse(target.workspaceId, target.responseId)
          const editing = yield* edits.window(target)
          const entries = [
            ...thread.emails
              .filter((email) => email.status !== "failed")
              .map((email) => ({
                at: email.sentAt ?? "",
                who: "From the team",
                subject: email.subject,
                text: email.text,
                files: [] as ReadonlyArray<string>
              })),
            ...thread.replies.map((reply) => ({
              at: reply.receivedAt,
              who: "Your reply",
              subject: reply.subject,
              text: reply.text,
              files: reply.files.map((file) => file.name)
            }))
          ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
          const stage = found.stageName ?? "Received"
          const body = html`<h1 id="title" tabindex="-1" data-focus>${found.formTitle}</h1>
<p>Sent ${formatTime(found.submittedAt)}</p>
<p>Status: <strong>${stage}</strong></p>
${notice === undefined ? null : html`<p role="status">${notice}</p>`}
${
  editing?.open === true
    ? html`<p><a href="${token}/edit">${formVoice(request, editing.form).voice.say("status.changeAnswers")}</a></p>`
    : null
}
<h2>Messages</h2>
${
  entries.length === 0
    ? html`<p>No messages yet.</p>`
    : html`<ol class="thread">${entries.map(
        (entry) => html`<li><article><h3>${entry.who}: ${entry.subject}</h3>
<p><small>${entry.at === "" ? "queued" : formatTime(entry.at)}</small></p>
<p>${lines(entry.text)}</p>
${entry.files.length === 0 ? null : html`<p>Attached: ${entry.files.join(", ")}</p>`}</article></li>`
      )}</ol>`
}
<h2>Write to the team</h2>
<form method="post" action="${token}" enctype="multipart/form-data">
${error === undefined ? null : html`<p id="error" role="alert">${error.text}</p>`}
<p><label for="reply">Your message</label><br>
<textarea id="reply" name="text" rows="6" maxlength="${MAX_REPLY_CHARS}"${
            error === undefined ? "" : html` aria-describedby="error"`
          }>${error?.reply ?? ""}</textarea></p>
<p><label for="files">Attach files (optional, up to ${MAX_ATTACHMENTS})</label><br>
<input id="files" type="file" name="files" multiple></p>
<p><button type="submit">Send</button></p>
</form>`
          return page({
            status: error?.status ?? 200,
            title: found.formTitle,
            body,
            frameAncestors,
            voice: voiceOf(request)
          })
        })

      const show = Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const token = yield* tokenParam
        const target = yield* links.resolve(token)
        if (target === undefined) return notFound(request)
        const query = new URL(request.url, "http://x").searchParams
        const sent = query.get("sent") === "1"
        const edited = query.get("edited")
        if (edited === "1" || edited === "0") {
          const editing = yield* edits.window(target)
          const voice = editing === undefined ? voiceOf(request) : formVoice(request, editing.form).voice
          return yield* statusPage(
            request,
            token,
            target,
            voice.say(edited === "1" ? "status.editSaved" : "status.editUnchanged")
          )
        }
        return yield* statusPage(request, token, target, sent ? "Thank you: your message was sent." : undefined)
      })

      /** The reply's text and files: url-encoded or multipart, within the inbound e-mail limit. */
      const readReply = (request: HttpServerRequest.HttpServerRequest, maxBytes: number) =>
        Effect.gen(function* () {
          const type = (request.headers["content-type"] ?? "").toLowerCase()
          if (type.startsWith("application/x-www-form-urlencoded")) {
            const params = yield* Effect.mapError(request.urlParamsBody, () => 400 as const)
            const text = params.params.find(([key]) => key === "text")?.[1]
            return { text: typeof text === "string" ? text : "", files: [] as Array<ReplyAttachment> }
          }
          if (!type.startsWith("multipart/form-data")) return yield* Effect.fail(415 as const)
          let text = ""
          const files: Array<ReplyAttachment> = []
          let refused: 413 | 429 | undefined
          yield* Stream.runForEach(request.multipartStream, (part) => {
            if (Multipart.isField(part)) {
              if (part.key === "text") text = part.value
              return Effect.void
            }
            const file = part as Multipart.File
            return Effect.gen(function* () {
              const bytes = yield* file.contentEffect
              // A browser sends an empty part when no file was chosen.
              if (bytes.byteLength === 0 && file.name === "") return
              if (file.key !== "files" || files.length >= MAX_ATTACHMENTS) {
                refused = 413
                return
              }
              const decision = yield* uploads.take(request)
              if (!decision.allowed) {
                refused = 429
                return
              }
              files.push({ filename: file.name, contentType: file.contentType, content: bytes })
            })
          }).pipe(
            Effect.provideService(Multipart.MaxParts, MAX_ATTACHMENTS + 8),
            Effect.provideService(Multipart.MaxFieldSize, ByteSize.bytes(MAX_REPLY_CHARS * 4)),
            Effect.provideService(Multipart.MaxFileSize, ByteSize.bytes(maxBytes)),
            Effect.provideService(Multipart.FieldMimeTypes, []),
            Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxBytes)),
            Effect.mapError((e) =>
              e.reason._tag === "FileTooLarge" ||
              e.reason._tag === "BodyTooLarge" ||
              e.reason._tag === "FieldTooLarge" ||
              e.reason._tag === "TooManyParts"
                ? (413 as const)
                : (400 as const)
            )
          )
          if (refused !== undefined) return yield* Effect.fail(refused)
          return { text, files }
        })

      const reply = Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const refusal = crossSiteRefusal(request.headers)
        if (refusal !== undefined)
          return messagePage(request, 403, "Not sent", "Replies are sent from the status page itself.")
        const decision = yield* replyLimiter.take(`status:${clientAddress(request, hops)}`)
        if (!decision.allowed) {
          return messagePage(
            request,
            429,
            "Too many messages",
            `Too many messages from this address; try again in ${decision.retryAfterSeconds} seconds.`
          ).pipe(HttpServerResponse.setHeaders(RateLimit.headers(replyLimiter.config, decision)))
        }
        const token = yield* tokenParam
        const target = yield* links.resolve(token)
        if (target === undefined) return notFound(request)
        const maxBytes = (yield* Mailer).inboundMaxBytes
        const read = yield* Effect.result(readReply(request, maxBytes))
        if (Result.isFailure(read)) {
          const status = read.failure
          const text =
            status === 413
              ? `The message is too large: at most ${MAX_ATTACHMENTS} files and ${maxBytes} bytes in all.`
              : status === 429
                ? "Too many files from this address; try again later."
                : status === 415
                  ? "Send the form of this page."
                  : "The message could not be read; try again."
          return yield* statusPage(request, token, target, undefined, { status, text, reply: "" })
        }
        const { text, files } = read.success
        const trimmed = text.trim()
        if (trimmed === "" && files.length === 0)
          return yield* statusPage(request, token, target, undefined, {
            status: 400,
            text: "Write a message or attach a file.",
            reply: ""
          })
        if (text.length > MAX_REPLY_CHARS)
          return yield* statusPage(request, token, target, undefined, {
            status: 413,
            text: `A message may be at most ${MAX_REPLY_CHARS} characters.`,
            reply: text.slice(0, MAX_REPLY_CHARS)
          })
        const stored = yield* Effect.result(replies.fromPage(target.responseId, { text: trimmed, attachments: files }))
        if (Result.isFailure(stored)) {
          const failure = stored.failure
          if (failure._tag === "ReplyNotMatched") return notFound(request)
          if (failure._tag === "StorageQuotaExceeded")
            return yield* statusPage(request, token, target, undefined, {
              status: 413,
              text: failure.message,
              reply: text
            })
          return yield* Effect.fail(failure)
        }
        // Post/redirect/get: a reload does not send the message again.
        return HttpServerResponse.empty({ status: 303, headers: { location: `${token}?sent=1` } })
      })

      const showEdit = Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const token = yield* tokenParam
        const target = yield* links.resolve(token)
        if (target === undefined) return notFound(request)
        const editing = yield* edits.window(target)
        if (editing === undefined) return notFound(request)
        if (!editing.open || editing.until === undefined) return editClosed(request, editing.form, token)
        return editPage(request, token, editing.form, editing.answers, editing.until)
      })

      const saveEdit = Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        if (crossSiteRefusal(request.headers) !== undefined) {
          const voice = voiceOf(request)
          return messagePage(request, 403, voice.say("status.editNotSavedTitle"), voice.say("status.editCrossSite"))
        }
        const decision = yield* editLimiter.take(`status-edit:${clientAddress(request, hops)}`)
        if (!decision.allowed) {
          const voice = voiceOf(request)
          return messagePage(
            request,
            429,
            voice.say("status.editTooManyTitle"),
            voice.say("status.editTooMany", { seconds: decision.retryAfterSeconds })
          ).pipe(HttpServerResponse.setHeaders(RateLimit.headers(editLimiter.config, decision)))
        }
        const token = yield* tokenParam
        const target = yield* links.resolve(token)
        if (target === undefined) return notFound(request)
        const editing = yield* edits.window(target)
        if (editing === undefined) return notFound(request)
        if (!editing.open || editing.until === undefined) return editClosed(request, editing.form, token)
        const { voice } = formVoice(request, editing.form)
        const type = (request.headers["content-type"] ?? "").toLowerCase()
        const body = type.startsWith("application/x-www-form-urlencoded")
          ? yield* Effect.option(request.urlParamsBody)
          : undefined
        const pairs =
          body === undefined || body._tag === "None"
            ? undefined
            : body.value.params.flatMap(([key, value]) => (typeof value === "string" ? [[key, value] as const] : []))
        if (pairs === undefined || pairs.some(([, value]) => value.includes("\u0000"))) {
          return messagePage(
            request,
            400,
            voice.say("status.editNotSavedTitle"),
            voice.say("status.editUnreadable"),
            voice
          )
        }
        const posted = StatusEditPage.read(editing.form, pairs, voice.say)
        const refuse = (errors: ReadonlyMap<number, string>, notice: string) =>
          editPage(request, token, editing.form, editing.answers, editing.until!, {
            edits: posted.edits,
            posted: posted.posted,
            errors,
            notice
          })
        if (posted.problems.size > 0) return refuse(posted.problems, voice.say("status.editRefused"))
        const outcome = yield* edits.save(target, posted.edits as Record<string, AnswerInput>, voice.say)
        switch (outcome._tag) {
          case "Closed":
            return editClosed(request, editing.form, token)
          case "Refused": {
            const errors = new Map<number, string>()
            const general: Array<string> = []
            for (const issue of outcome.issues) {
              if (issue.fieldId === null) general.push(issue.message)
              else if (!errors.has(issue.fieldId)) errors.set(issue.fieldId, issue.message)
            }
            return refuse(errors, [voice.say("status.editRefused"), ...general].join(" "))
          }
          case "Saved":
            // Post/redirect/get: a reload does not post the answers again.
            return HttpServerResponse.empty({
              status: 303,
              headers: { location: `../${token}?edited=${outcome.changed > 0 ? "1" : "0"}` }
            })
        }
      })

      yield* router.add("GET", "/s/:token", show)
      yield* router.add("POST", "/s/:token", reply)
      yield* router.add("GET", "/s/:token/edit", showEdit)
      yield* router.add("POST", "/s/:token/edit", saveEdit)
    })
  )
