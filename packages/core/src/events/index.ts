/**
 * The face of `events/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * from "./EventCatalogue.ts"
export * as EventErasure from "./EventErasure.ts"
export * from "./Events.ts"
