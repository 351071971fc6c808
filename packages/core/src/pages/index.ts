/**
 * The face of `pages/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * as EmbedScript from "./EmbedScript.ts"
export * as PublicPage from "./PublicPage.ts"
export * as StatusPage from "./StatusPage.ts"
export * from "./UploadLimits.ts"
export * as Uploads from "./Uploads.ts"
export * as Welcome from "./Welcome.ts"
