/**
 * The face of `storage/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * as ChangeFeedModule from "./ChangeFeed.ts"
export * as Database from "./Database.ts"
export * as DatabaseLink from "./DatabaseLink.ts"
export * as DiskSpace from "./DiskSpace.ts"
export * from "./DatabaseCatalog.ts"
export * from "./Notifications.ts"
export * as PgliteClient from "./PgliteClient.ts"
export * from "./SqlPriority.ts"
export * as StoredJson from "./StoredJson.ts"
export * from "./RateLimitStore.ts"
export * as RateLimitStoreModule from "./RateLimitStore.ts"
