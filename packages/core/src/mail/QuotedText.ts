/**
 * The quoted-history cut of e-mail replies: a pure, self-contained function,
 * linear in the text (one pass from the end, one from the top; every pattern
 * bounded per line). It runs in the worker thread that parses replies
 * (`MailParsing.ts` sends it its source), so it must use nothing from outside
 * its own body.
 */

/**
 * The new part of a reply: the text above the quoted history (`On … wrote:`,
 * `-----Original Message-----`, an Outlook `From:` block, `>` lines) and above
 * the signature (`-- `, "Sent from my iPhone"), trimmed.
 *
 * @example
 * ```ts
 * stripQuoted("Thanks!\n\n-- \nAda\n\nOn Mon, 1 Jan 2026, Forms wrote:\n> Hello")
 * // "Thanks!"
 * ```
 */
export const stripQuoted = (text: string): string => {
  // Everything it uses is inside it: the worker that parses replies runs this very function
  // (see MailParsing.ts), off the event loop.
  // A line that starts the quoted history of a reply (in the common clients' wording: "On … wrote:",
  // "-----Original Message-----", an Outlook "From:" block), or a signature or a client's footer
  // ("-- ", "Sent from my iPhone"). One pattern, tested on a trimmed line of at most 1,000 characters;
  // every repetition is bounded or followed by a fixed end, so a line costs at most a few thousand steps.
  const CUT_LINE = new RegExp(
    [
      "^(?:On\\b.{0,300}\\bwrote:",
      "Le\\b.{0,300}\\ba écrit\\s*:",
      "Am\\b.{0,300}\\bschrieb\\b[^:]{0,100}:",
      "El\\b.{0,300}\\bescribió:",
      "-{2,}\\s*(?:Original|Forwarded) Message\\s*-{2,}",
      "_{10,}",
      "From:\\s.+",
      "--)\\s*$",
      "^(?:Sent from my \\w|Get Outlook for |Envoyé de mon )"
    ].join("|"),
    "i"
  )
  // Every header and signature pattern starts with one of these letters (a cheap gate for long texts).
  const PATTERN_STARTS = new Set(["o", "l", "a", "e", "-", "_", "f", "s", "g"])
  const lines = text.replace(/\r\n?/g, "\n").split("\n")
  // Linear in the text: one pass from the end finds where the block of quoted
  // (or blank) lines that runs to the end starts; one pass from the top cuts.
  let quotedTail = lines.length
  while (quotedTail > 0) {
    const rest = lines[quotedTail - 1]!.trim()
    if (rest !== "" && !rest.startsWith(">")) break
    quotedTail--
  }
  let end = lines.length
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim()
    // Blank and quoted lines start no header nor signature: only the quote rule applies to them.
    if (line === "") continue
    if (line.charCodeAt(0) === 62 /* > */) {
      if (i >= quotedTail) {
        end = i
        break
      }
      continue
    }
    if (!PATTERN_STARTS.has(line[0]!.toLowerCase())) continue
    // A header split over two lines ("On Mon, … Forms <x@y>\nwrote:") is joined before matching.
    // Quote headers are short lines; a long one is never tested (it keeps the patterns' cost bounded).
    if (
      (line.length <= 1_000 && CUT_LINE.test(line)) ||
      (/^On\b/i.test(line) && i + 1 < lines.length && /\bwrote:\s*$/i.test(lines[i + 1]!.trim()))
    ) {
      end = i
      break
    }
  }
  return lines.slice(0, end).join("\n").trim()
}
