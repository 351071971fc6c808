/**
 * The face of `web/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * from "./ApiErrors.ts"
export * as Caching from "./Caching.ts"
export * as EncodedJson from "./EncodedJson.ts"
export * as ErrorTable from "./ErrorTable.ts"
/** HTML built safely lives in the kernel (question types write their page view with it); the surfaces take it from here. */
export { attr, Html, html, lines, type Part } from "../kernel/index.ts"
export * from "./Identity.ts"
export * from "./MultipartUploads.ts"
export * as PackagedFiles from "./PackagedFiles.ts"
export * as RateLimit from "./RateLimit.ts"
export * from "./RequestOrigin.ts"
export * from "./Security.ts"
export * from "./Redact.ts"
export * from "./RouteBook.ts"
