/**
 * The face of `api/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * from "./Api.ts"
