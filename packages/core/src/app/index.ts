/**
 * The face of `app/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * as App from "./App.ts"
