import { databaseTargets } from "./support/Databases.ts"
import { storageSuite } from "./StorageSuite.ts"

for (const target of databaseTargets) storageSuite(target)
