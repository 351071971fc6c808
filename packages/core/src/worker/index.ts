/**
 * The face of `worker/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * as Worker from "./Worker.ts"
