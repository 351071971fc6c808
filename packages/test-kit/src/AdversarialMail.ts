/**
 * Hostile e-mail replies of a given size, in the shapes that made parsing
 * untrusted text super-linear: long runs of `>` lines that do not reach the
 * end, one long line without a newline, many signature markers, deeply nested
 * quotes, quote-header look-alikes, a huge header line, and HTML that costs
 * html-to-text the most. Shared by the core tests and the reliability suite.
 */

/** Repeats `unit` to exactly `size` characters. */
export const filled = (unit: string, size: number): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size)

/** The body shapes (plain text), each `size` characters. */
export const adversarialBodies = (
  size: number,
  newline = "\n"
): ReadonlyArray<{ readonly name: string; readonly body: string }> => [
  // Every line quoted but the last: each `>` line used to scan all the rest.
  { name: "quote lines", body: `${filled(`>${newline}`, size - 4)}end` },
  { name: "long line", body: filled("a", size) },
  { name: "signature markers", body: filled(`x${newline}--x${newline}`, size) },
  { name: "nested quotes", body: `${filled(`${">".repeat(1_000)}${newline}`, size - 4)}end` },
  { name: "quote-header look-alikes", body: filled(`Am ${"schrieb ".repeat(40)}${newline}`, size) },
  { name: "On lines", body: filled(`On ${" ".repeat(500)}x${newline}`, size) }
]

/**
 * Raw MIME replies of about `size` bytes to `to` (a reply address): the body
 * shapes as text/plain, plus a huge header line and a large HTML part.
 */
export const adversarialReplies = (
  to: string,
  size: number
): ReadonlyArray<{ readonly name: string; readonly raw: string }> => {
  const head = (contentType: string) =>
    `From: mallory@example.com\r\nTo: ${to}\r\nSubject: hostile\r\nContent-Type: ${contentType}\r\n\r\n`
  const room = size - head("text/plain; charset=utf-8").length - 64
  return [
    ...adversarialBodies(room, "\r\n").map(({ body, name }) => ({
      name,
      raw: head("text/plain; charset=utf-8") + body
    })),
    {
      name: "huge header line",
      raw: `From: mallory@example.com\r\nTo: ${to}\r\nX-Long: ${filled("a", room)}\r\nSubject: x\r\n\r\nhi`
    },
    { name: "html", raw: head("text/html; charset=utf-8") + filled("<b>x</b> ", room) },
    { name: "html unclosed tags", raw: head("text/html; charset=utf-8") + filled("<", room) },
    { name: "html script openings", raw: head("text/html; charset=utf-8") + filled("<script>x", room) }
  ]
}
