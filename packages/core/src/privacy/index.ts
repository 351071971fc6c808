/**
 * The face of `privacy/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * from "./Erasure.ts"
export * from "./PersonalDataExport.ts"
export * from "./Retention.ts"
export * as RetentionModule from "./Retention.ts"
