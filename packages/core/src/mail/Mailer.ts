/**
 * Mailer: sending e-mail over SMTP (nodemailer), for notification channels of
 * type `email` and for e-mails to respondents. It is configured by the host
 * (`Qforms.make({ mail })`; the standalone reads `QFORMS_SMTP_URL` and
 * `QFORMS_MAIL_FROM`); without configuration it is {@link notConfigured} and
 * every send fails with {@link MailNotConfigured}.
 *
 * nodemailer is imported on the first send, so a service that never sends
 * e-mail never loads it.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"

/** One message to send. */
export interface MailMessage {
  readonly to: ReadonlyArray<string>
  readonly subject: string
  readonly text: string
  readonly html?: string | undefined
  readonly replyTo?: string | undefined
  /** The `Message-ID` to use (with angle brackets), e.g. for matching replies by `In-Reply-To`. */
  readonly messageId?: string | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/** What the SMTP server said when it accepted a message. */
export interface MailSent {
  readonly messageId: string
  /** The SMTP reply code of the accepted message (250). */
  readonly code: number
  readonly response: string
}

/** No SMTP server is configured. */
export class MailNotConfigured extends Schema.TaggedError<MailNotConfigured>()("MailNotConfigured", {
  message: Schema.String
}) {}

/**
 * The SMTP server refused the message or could not be reached. `permanent`
 * when retrying the same message cannot help (a 5xx reply).
 */
export class MailFailed extends Schema.TaggedError<MailFailed>()("MailFailed", {
  message: Schema.String,
  code: Schema.NullOr(Schema.Number),
  permanent: Schema.Boolean
}) {}

/** SMTP connections one process keeps open (the worker sends at most this many e-mails at once). */
export const maxConnections = 4

/** The text every "not configured" answer carries (also the 409 of the API). */
export const notConfiguredMessage = "e-mail is not configured"

/** The settings of the SMTP mailer. */
export interface SmtpOptions {
  /** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465`. */
  readonly url: string
  /** The `From` of every message, e.g. `Forms <forms@example.com>`. */
  readonly from: string
  /** Connection, greeting and socket timeout in ms (default 10 s). */
  readonly timeoutMs?: number | undefined
  /**
   * Where respondents' replies go: an address with `{token}` in it, e.g.
   * `reply+{token}@in.example.com`, received by an inbound-mail service that
   * posts the raw message to `/inbound/email`. Without it, no `Reply-To` is set.
   */
  readonly inboundAddress?: string | undefined
  /**
   * The shared secret `/inbound/email` requires (header `x-qforms-inbound-secret`,
   * or the password of basic auth). Without it, inbound e-mail is refused (404).
   */
  readonly inboundSecret?: string | undefined
  /**
   * The largest inbound message taken, in bytes (default 1 MiB, {@link defaultInboundMaxBytes}):
   * a larger one is answered 413 on `/inbound/email` and skipped (marked seen, logged) over IMAP.
   * The service's request body limit applies to `/inbound/email` as well.
   */
  readonly inboundMaxBytes?: number | undefined
}

/** The default largest inbound message (1 MiB). */
export const defaultInboundMaxBytes = 1024 * 1024

/**
 * Sends e-mail. `configured` says whether sending can work at all.
 *
 * @example
 * ```ts
 * const mailer = yield* Mailer
 * if (mailer.configured) {
 *   yield* mailer.send({ to: ["ada@example.com"], subject: "Hello", text: "Hi Ada" })
 * }
 * ```
 */
export interface MailerService {
  readonly configured: boolean
  /** The sender address (`From`), null when not configured. */
  readonly from: string | null
  /** The reply address template (`reply+{token}@…`), null when replies are not received. */
  readonly inboundAddress: string | null
  /** The secret of `/inbound/email`, null when inbound e-mail is off. */
  readonly inboundSecret: string | null
  /** The largest inbound message taken, in bytes. */
  readonly inboundMaxBytes: number
  readonly send: (message: MailMessage) => Effect.Effect<MailSent, MailNotConfigured | MailFailed>
}

/** The mailer used when no SMTP server is configured: every send fails with {@link MailNotConfigured}. */
export const notConfigured: MailerService = {
  configured: false,
  from: null,
  inboundAddress: null,
  inboundSecret: null,
  inboundMaxBytes: defaultInboundMaxBytes,
  send: () => Effect.fail(new MailNotConfigured({ message: notConfiguredMessage }))
}

/**
 * The mailer in force. Not configured unless a layer ({@link layerSmtp})
 * provides one.
 */
export const Mailer = Context.Reference<MailerService>("@qforms/core/Mailer", { defaultValue: () => notConfigured })

const describe = (error: unknown): string =>
  Predicate.hasProperty(error, "message") && Predicate.isString(error.message) ? error.message : String(error)

const responseCodeOf = (error: unknown): number | null =>
  Predicate.hasProperty(error, "responseCode") && Predicate.isNumber(error.responseCode) ? error.responseCode : null

/**
 * Checks an SMTP URL: `smtp:` or `smtps:` with a host. Answers the problem, or
 * `undefined` when it is fine.
 *
 * @example
 * ```ts
 * smtpUrlProblem("smtp://user:pass@mail.example.com:587") // undefined
 * smtpUrlProblem("http://mail.example.com") // "QFORMS_SMTP_URL must start with smtp:// or smtps://"
 * ```
 */
export const smtpUrlProblem = (url: string): string | undefined => {
  const parsed = URL.canParse(url) ? new URL(url) : undefined
  if (parsed === undefined) return "QFORMS_SMTP_URL is not a URL (e.g. smtp://user:pass@mail.example.com:587)"
  if (parsed.protocol !== "smtp:" && parsed.protocol !== "smtps:") {
    return "QFORMS_SMTP_URL must start with smtp:// or smtps://"
  }
  if (parsed.hostname === "") return "QFORMS_SMTP_URL has no host"
  return undefined
}

/**
 * A mailer sending through the SMTP server at `url` (one pooled nodemailer
 * transport, created on the first send and closed with the layer).
 *
 * @example
 * ```ts
 * const Mail = Mailer.layerSmtp({ url: "smtp://user:pass@mail.example.com:587", from: "Forms <forms@example.com>" })
 * ```
 */
export const layerSmtp = (options: SmtpOptions): Layer.Layer<never> =>
  Layer.effect(
    Mailer,
    Effect.acquireRelease(
      Effect.sync(() => {
        const timeoutMs = options.timeoutMs ?? 10_000
        type Transport = {
          sendMail: (data: object) => Promise<{ messageId: string; response: string }>
          close: () => void
        }
        let transport: Promise<Transport> | undefined
        const open = () =>
          (transport ??= import("nodemailer").then(
            (nodemailer) =>
              nodemailer.createTransport({
                url: options.url,
                pool: true,
                maxConnections,
                connectionTimeout: timeoutMs,
                greetingTimeout: timeoutMs,
                socketTimeout: timeoutMs
              } as never) as unknown as Transport
          ))
        const send = (message: MailMessage) =>
          Effect.tryPromise({
            try: () =>
              open()
                .then((transport) =>
                  transport.sendMail({
                    from: options.from,
                    to: [...message.to],
                    subject: message.subject,
                    text: message.text,
                    ...(message.html === undefined ? {} : { html: message.html }),
                    ...(message.replyTo === undefined ? {} : { replyTo: message.replyTo }),
                    ...(message.messageId === undefined ? {} : { messageId: message.messageId }),
                    ...(message.headers === undefined ? {} : { headers: { ...message.headers } })
                  })
                )
                .then(
                  (info): MailSent => ({
                    messageId: info.messageId,
                    code: Number(/^(\d{3})/.exec(info.response ?? "")?.[1] ?? 250),
                    response: info.response ?? ""
                  })
                ),
            catch: (error) => {
              const code = responseCodeOf(error)
              return new MailFailed({
                message: describe(error),
                code,
                permanent: code !== null && code >= 500 && code < 600
              })
            }
          })
        const service: MailerService = {
          configured: true,
          from: options.from,
          inboundAddress: options.inboundAddress ?? null,
          inboundSecret: options.inboundSecret ?? null,
          inboundMaxBytes: options.inboundMaxBytes ?? defaultInboundMaxBytes,
          send
        }
        return {
          service,
          close: () =>
            transport?.then(
              (t) => t.close(),
              () => undefined
            ) ?? Promise.resolve()
        }
      }),
      ({ close }) => Effect.promise(close)
    ).pipe(Effect.map(({ service }) => service))
  )

/** The "not configured" mailer as a layer (the default anyway; for explicit wiring). */
export const layerNone: Layer.Layer<never> = Layer.succeed(Mailer)(notConfigured)
