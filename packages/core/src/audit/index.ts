/**
 * The face of `audit/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * from "./AuditLog.ts"
export * as AuditLogModule from "./AuditLog.ts"
