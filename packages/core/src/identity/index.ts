/**
 * The face of `identity/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * from "./Accounts.ts"
export * from "./ApiKeys.ts"
export * from "./Invitations.ts"
export * from "./Members.ts"
export * as Passwords from "./Passwords.ts"
export * from "./Sessions.ts"
export * from "./Workspaces.ts"
export * from "./ApiKeyCache.ts"
