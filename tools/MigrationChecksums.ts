/**
 * Records the SHA-256 of every migration file that has no recorded checksum yet in
 * packages/core/src/storage/migrations/checksums.json (`npm run db:checksums`, once, when
 * a migration is added). It never changes a recorded checksum: a landed migration is
 * never edited, and `test/Migrations.test.ts` fails when one is.
 */
import { createHash } from "node:crypto"
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const dir = join(import.meta.dirname, "../packages/core/src/storage/migrations")
const file = join(dir, "checksums.json")
const recorded: Record<string, string> = JSON.parse(readFileSync(file, "utf8"))
for (const name of readdirSync(dir)
  .filter((name) => /^\d{4}_[a-z0-9_]+\.ts$/.test(name))
  .sort()) {
  const id = name.replace(/\.ts$/, "")
  if (recorded[id] !== undefined) continue
  recorded[id] = createHash("sha256")
    .update(readFileSync(join(dir, name)))
    .digest("hex")
  process.stdout.write(`recorded ${id}\n`)
}
writeFileSync(file, `${JSON.stringify(recorded, Object.keys(recorded).sort(), 2)}\n`)
