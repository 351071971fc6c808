/**
 * Every MCP tool the endpoint offers an assistant, gathered from `tools/`
 * (one module per context: a new tool goes in its context's module).
 * Transport-free: `Mcp.ts` serves them over Streamable HTTP for the
 * authenticated member, with the resources (`McpResources.ts`) and the
 * prompt (`TriagePrompt.ts`).
 */
import * as Effect from "effect/Effect"
import * as FormsTools from "./tools/Forms.ts"
import * as CasesTools from "./tools/Cases.ts"
import * as IdentityTools from "./tools/Identity.ts"
import * as InsightsTools from "./tools/Insights.ts"
import * as DeliveriesTools from "./tools/Deliveries.ts"
import * as AuditTools from "./tools/Audit.ts"
import * as FilesTools from "./tools/Files.ts"
import * as PrivacyTools from "./tools/Privacy.ts"

/** Every tool, bound to the domain services. */
export const makeTools = Effect.map(
  Effect.all([
    FormsTools.tools,
    CasesTools.tools,
    IdentityTools.tools,
    InsightsTools.tools,
    DeliveriesTools.tools,
    AuditTools.tools,
    FilesTools.tools,
    PrivacyTools.tools
  ]),
  (groups) => groups.flat()
)
