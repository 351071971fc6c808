export * as Database from "./storage/Database.ts"
export * as PgliteClient from "./storage/PgliteClient.ts"
