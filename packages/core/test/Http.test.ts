import { databaseTargets } from "./support/Databases.ts"
import { httpContractSuite } from "./HttpContractSuite.ts"

for (const target of databaseTargets) httpContractSuite(target)
