/**
 * `@qforms/express` on Express 4 (installed as `express4`): the HTTP contract
 * on the embedded database in an express-host style app, and the adapter's
 * own promises.
 */
import express4 from "express4"
import { httpContractSuite } from "../../core/test/HttpContractSuite.ts"
import { databaseTargets } from "../../core/test/support/Databases.ts"
import { startWithQforms } from "../../core/test/support/TestServer.ts"
import { adapterSuite } from "./support/AdapterSuite.ts"
import { mountIn } from "./support/Host.ts"

for (const target of databaseTargets.filter((t) => t.name === "pglite")) {
  httpContractSuite(target, startWithQforms(mountIn(express4)), "@qforms/express on Express 4")
}

adapterSuite(express4, "Express 4")
