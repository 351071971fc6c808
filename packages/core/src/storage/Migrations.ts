/**
 * The one set of migrations, run on PostgreSQL and on PGlite alike: one module
 * per migration in `migrations/`, named by its id. Adding one is writing its
 * file and running `npm run db:checksums`, which records its checksum and
 * lists it in `MigrationList.ts` (generated; CI checks both).
 *
 * Tables are created unqualified: the connection's `search_path` starts with
 * the configured qforms schema (see `Database.ts`), so qforms can live in its
 * own schema of a host application's database.
 *
 * A migration that has landed is history: deployed databases have run it and
 * record its id and name in `qforms_migrations`, so it is never edited,
 * renamed or renumbered — `test/Migrations.test.ts` compares every file with
 * the checksum recorded in `migrations/checksums.json`, and CI checks that
 * `schema.sql` (`npm run db:schema`) is the schema they build. A change is a
 * new migration with the next id. Ids 0004, 0005 and 0013–0015 were skipped
 * when migrations were numbered and never existed; the gaps stay, since
 * renumbering would make deployed databases run a migration twice.
 */
import * as Migrator from "effect/sql/Migrator"
import { migrations } from "./MigrationList.ts"

/**
 * Every migration of qforms, in order: the modules of `migrations/`, listed by
 * `MigrationList.ts` (generated from the folder).
 */
export const loader = Migrator.fromRecord(migrations)

/**
 * Runs the migrations that have not run yet (in one transaction, with a lock
 * on PostgreSQL so concurrent starts do not race).
 */
export const run = Migrator.make({})({ loader, table: "qforms_migrations" })
