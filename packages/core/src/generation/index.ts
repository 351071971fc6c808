/**
 * The face of `generation/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * from "./FormGenerator.ts"
export * as FormTranslator from "./FormTranslator.ts"
