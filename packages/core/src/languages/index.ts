/**
 * The face of `languages/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * from "./Languages.ts"
export * from "./Messages.ts"
export * as MessagesModule from "./Messages.ts"
