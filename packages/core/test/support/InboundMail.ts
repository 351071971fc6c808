/**
 * Inbound e-mails as a mail server hands them to qforms' inbound route: raw
 * MIME text, and the reply of a respondent to a case e-mail (found by the
 * reply-to address with its token).
 */
import type { ReceivedMail } from "@qforms/test-kit/SmtpSink"

/** A raw MIME message (CRLF line ends). */
export const mime = (headers: Record<string, string>, body: string) =>
  `${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\r\n")}\r\n\r\n${body.replace(/\r?\n/g, "\r\n")}`

/** The reply-to address of a sent case e-mail: where the respondent's reply goes. */
export const tokenAddress = (mail: ReceivedMail) => mail.parsed.replyTo?.value[0]?.address ?? ""

/** A reply from `from` to a case e-mail, `text` with a PDF attached as `report.pdf`. */
export const replyWithPdf = (from: string, mail: ReceivedMail, text: string, pdf: Buffer) =>
  mime(
    {
      From: from,
      To: tokenAddress(mail),
      Subject: "Re: document",
      "MIME-Version": "1.0",
      "Content-Type": 'multipart/mixed; boundary="XyZ"'
    },
    [
      "--XyZ",
      "Content-Type: text/plain; charset=utf-8",
      "",
      text,
      "--XyZ",
      'Content-Type: application/pdf; name="report.pdf"',
      'Content-Disposition: attachment; filename="report.pdf"',
      "Content-Transfer-Encoding: base64",
      "",
      pdf.toString("base64"),
      "--XyZ--",
      ""
    ].join("\n")
  )
