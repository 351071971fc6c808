/**
 * The face of `insights/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * from "./CaseMetrics.ts"
export * from "./Digests.ts"
export * from "./FormSummaries.ts"
export * from "./PageCounts.ts"
