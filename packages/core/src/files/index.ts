/**
 * The face of `files/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * from "./BlobStore.ts"
export * as BlobStoreModule from "./BlobStore.ts"
export * from "./Files.ts"
export * from "./Images.ts"
export * as TarArchive from "./TarArchive.ts"
export * as ZipWriter from "./ZipWriter.ts"
export * as FilesForForms from "./FilesForForms.ts"
export * as FilesModule from "./Files.ts"
