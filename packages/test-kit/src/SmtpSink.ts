/**
 * A real SMTP server on a loopback port (the `smtp-server` package) that
 * keeps every message it accepts, parsed with `mailparser`: shared by the
 * tests of e-mail notifications and respondent e-mails.
 */
import type { AddressInfo } from "node:net"
import { type ParsedMail, simpleParser } from "mailparser"
import { SMTPServer } from "smtp-server"

/** One accepted message: the envelope, the raw source and the parsed message. */
export interface ReceivedMail {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly raw: string
  readonly parsed: ParsedMail
}

/**
 * Starts the server. `reject` answers the next N messages with this SMTP
 * error code (e.g. 451 to make the sender retry, 550 to refuse for good).
 */
export const smtpSink = async () => {
  const received: Array<ReceivedMail> = []
  const rejections: Array<number> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        const code = rejections.shift()
        if (code !== undefined) {
          const error = Object.assign(new Error(`rejected for the test (${code})`), { responseCode: code })
          return callback(error)
        }
        const raw = Buffer.concat(chunks).toString("utf8")
        simpleParser(raw).then(
          (parsed) => {
            received.push({
              from: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              parsed
            })
            callback()
          },
          (error: Error) => callback(error)
        )
      })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The next messages are refused with these codes, one each. */
    reject: (...codes: ReadonlyArray<number>) => void rejections.push(...codes),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
