/**
 * One `put` into a local BlobStore, as a process of its own (for tests that
 * trace its system calls): `node BlobPut.ts <directory> <key>`.
 */
import { Effect, Stream } from "effect"
import * as BlobStore from "../../src/files/BlobStore.ts"

const [directory, key] = process.argv.slice(2)
await Effect.runPromise(
  Effect.flatMap(BlobStore.BlobStore, (store) =>
    store.put(key!, Stream.make(new TextEncoder().encode("durable bytes")))
  ).pipe(Effect.provide(BlobStore.layerLocal({ directory: directory! })))
)
