/**
 * `@qforms/express` on Express 4 (installed as `express4`): the HTTP contract
 * on the embedded database in an express-host style app, and the adapter's
 * own promises.
 */
import express4 from "express4"
import { httpContractSuite } from "@qforms/test-kit/HttpContract"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { startWithQforms } from "@qforms/test-kit/TestServer"
import { adapterSuite } from "./support/AdapterSuite.ts"
import { mountIn } from "./support/Host.ts"

for (const target of databaseTargets.filter((t) => t.name === "pglite")) {
  httpContractSuite(target, startWithQforms(mountIn(express4)), "@qforms/express on Express 4", { smoke: true })
}

adapterSuite(express4, "Express 4")
