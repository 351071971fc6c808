/**
 * The face of `ops/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * as DatabaseBackup from "./DatabaseBackup.ts"
export * as DatabaseCopy from "./DatabaseCopy.ts"
