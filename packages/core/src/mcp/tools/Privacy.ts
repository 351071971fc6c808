/**
 * The MCP tools of a person's data: erasure and export: each a domain service
 * call, with its input Schema taken from the HTTP API's (see `../McpTool.ts`).
 */
import * as Effect from "effect/Effect"
import {
  Erasure,
  ErasureRequest,
  ErasureResult,
  PersonalDataExport,
  PersonData,
  PersonExportRequest
} from "../../privacy/index.ts"
import { define, type McpTool } from "../McpTool.ts"

/** The tools of a person's data, bound to their services. */
export const tools = Effect.gen(function* () {
  const erasure = yield* Erasure
  const personalData = yield* PersonalDataExport

  const tools: ReadonlyArray<McpTool> = [
    define("erase_person", {
      title: "Erase a person's personal data",
      description:
        "Erases a person from the workspace (owners and admins only), by `email` or `contactId` (exactly one): " +
        "their responses (partial ones too) and files, e-mails sent to them and replies from them, their contact. " +
        "Unsent deliveries about them are cancelled; notes on other cases that name them are flagged for review, " +
        "not edited. Cannot be undone. Answers what was removed: a count and the ids of each kind.",
      input: ErasureRequest,
      output: ErasureResult,
      write: true,
      destructive: true,
      run: (actor, input) => erasure.erase(actor, input)
    }),
    define("export_person", {
      title: "Export a person's data",
      description:
        "Everything the workspace holds about a person (GDPR Article 15; owners and admins only), by `email` or " +
        "`contactId` (exactly one), found as `erase_person` finds them: their contact, responses (partial ones too) " +
        "with each question and answer, stage, tags and notes, e-mails sent to them and replies from them, and " +
        "their files listed with `downloadPath` (no bytes: the ZIP of GET /api/privacy/export holds them). " +
        "Recorded in the audit log (`privacy.export`).",
      input: PersonExportRequest,
      output: PersonData,
      write: false,
      run: (actor, input) => Effect.map(personalData.gather(actor, input, "json"), ({ data }) => data)
    })
  ]
  return tools
})
