import { databaseTargets } from "@qforms/test-kit/Databases"
import { storageSuite } from "./StorageSuite.ts"

for (const target of databaseTargets) storageSuite(target)
