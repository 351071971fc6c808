/**
 * A workspace's image library: the pictures its forms' pages show, a theme's
 * logo (`theme.logo`) and images on choices (`options.images` of a select or
 * checkboxes question). Members who may change forms upload them
 * (`POST /api/images`, PNG, JPEG, GIF or WebP of at most
 * {@link MAX_IMAGE_BYTES}, recognised from the bytes, never SVG, which could
 * run scripts); every member lists and views them; an image still used by a
 * form or by the workspace's theme cannot be deleted (409 naming where).
 *
 * The bytes live in the `BlobStore` under `<workspace id>/<image id>`, as
 * uploaded files' do, and count towards the workspace's storage quota
 * (`Files.claimQuota`). The public page serves an image only to the pages
 * that show it (`/f/{publicId}/images/{imageId}`, see `pages/routes/Images.ts`).
 * Forms refer to images by id (`forms/ImageRefs.ts`).
 *
 * @module
 */
import { randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import type * as Stream from "effect/Stream"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Actors, Conflict, type Forbidden, InvalidInput } from "../kernel/index.ts"
import { imageIdPattern } from "../forms/index.ts"
import { type BlobNotFound, BlobStore, BlobStoreError } from "./BlobStore.ts"
import {
  cleanFileName,
  FileTooLarge,
  Files,
  inspect,
  sniff,
  type StorageQuotaExceeded,
  UnsupportedFileType,
  UploadQuotas
} from "./Files.ts"

/** The largest image accepted: 2 MiB. */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024

/** The content types of images, recognised from their first bytes. */
export const imageTypes: ReadonlyArray<string> = ["image/png", "image/jpeg", "image/gif", "image/webp"]

/** A new image id. */
export const makeImageId = (): string => `img_${randomBytes(16).toString("base64url")}`

/**
 * An image of the library.
 *
 * @example
 * ```ts
 * const logo: Image = { id: "img_…", name: "logo.png", size: 48213, type: "image/png", width: 320, height: 80, createdAt: "2026-11-26T10:00:00.000Z" }
 * ```
 */
export const Image = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  size: Schema.Int,
  type: Schema.String.annotate({ description: "image/png, image/jpeg, image/gif or image/webp." }),
  width: Schema.NullOr(Schema.Int).annotate({ description: "In pixels, when the file says (null otherwise)." }),
  height: Schema.NullOr(Schema.Int).annotate({ description: "In pixels, when the file says (null otherwise)." }),
  createdAt: Schema.String
}).annotate({ identifier: "Image" })
export type Image = typeof Image.Type

/** The images of a workspace, newest first. */
export const ImageList = Schema.Struct({ data: Schema.Array(Image) }).annotate({ identifier: "ImageList" })
export type ImageList = typeof ImageList.Type

/** No such image in the workspace. Answered as 404. */
export class ImageNotFound extends Schema.TaggedError<ImageNotFound>()("ImageNotFound", {
  message: Schema.String
}) {}

/** What {@link Images} `upload` takes: the file part of a multipart request (or any byte stream). */
export interface ImageUpload<E> {
  /** The file name the client gave (path parts are dropped). */
  readonly filename: string
  /** The bytes, read once, as they arrive. */
  readonly content: Stream.Stream<Uint8Array, E>
}

/** Every way an upload can be refused (besides the content stream's own errors). */
export type ImageUploadError =
  | Forbidden
  | InvalidInput
  | FileTooLarge
  | UnsupportedFileType
  | StorageQuotaExceeded
  | BlobStoreError
  | SqlError.SqlError

// ---------------------------------------------------------------------------
// Dimensions
// ---------------------------------------------------------------------------

/** Bytes kept from the start of an upload to read its dimensions (a JPEG's frame header may follow large metadata). */
const HEAD_BYTES = 64 * 1024

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8)
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16)
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!

/** A JPEG's size from its first start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC), scanning segment by segment. */
const jpegSize = (b: Uint8Array): { readonly width: number; readonly height: number } | undefined => {
  let i = 2
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined
    const marker = b[i + 1]!
    if (marker === 0xff) {
      i += 1
      continue
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: u16be(b, i + 5), width: u16be(b, i + 7) }
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2
      continue
    }
    i += 2 + u16be(b, i + 2)
  }
  return undefined
}

/**
 * The width and height of a PNG, GIF, WebP or JPEG from its first bytes;
 * `undefined` when they do not say (a truncated head, a broken file).
 *
 * @example
 * ```ts
 * dimensions("image/png", head) // { width: 320, height: 80 }
 * ```
 */
export const dimensions = (
  type: string,
  b: Uint8Array
): { readonly width: number; readonly height: number } | undefined => {
  const found = ((): { readonly width: number; readonly height: number } | undefined => {
    switch (type) {
      case "image/png":
        return b.length >= 24 ? { width: u32be(b, 16), height: u32be(b, 20) } : undefined
      case "image/gif":
        return b.length >= 10 ? { width: u16le(b, 6), height: u16le(b, 8) } : undefined
      case "image/webp": {
        if (b.length < 30) return undefined
        const chunk = String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!)
        if (chunk === "VP8 ") return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff }
        if (chunk === "VP8L") {
          const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)
          return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 }
        }
        if (chunk === "VP8X") return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 }
        return undefined
      }
      case "image/jpeg":
        return jpegSize(b)
      default:
        return undefined
    }
  })()
  return found !== undefined && found.width > 0 && found.height > 0 && found.width <= 65535 && found.height <= 65535
    ? found
    : undefined
}

// ---------------------------------------------------------------------------
// Service
// ---------------------------------------------------------------------------

interface ImageRow {
  readonly id: string
  readonly name: string
  readonly size: number
  readonly type: string
  readonly width: number | null
  readonly height: number | null
  readonly storage_key: string
  readonly created_at: Date
}

const toImage = (row: ImageRow): Image => ({
  id: row.id,
  name: row.name,
  size: row.size,
  type: row.type,
  width: row.width,
  height: row.height,
  createdAt: row.created_at.toISOString()
})

const columns = "id, name, size, type, width, height, storage_key, created_at"

/** Where an image is used: the titles of the forms (and the workspace's theme) that show it. */
const usersText = (forms: ReadonlyArray<string>, workspace: boolean): string =>
  [
    ...forms.slice(0, 3).map((title) => `form ${JSON.stringify(title)}`),
    ...(workspace ? ["the workspace's page theme"] : [])
  ]
    .join(", ")
    .concat(forms.length > 3 ? ` and ${forms.length - 3} more forms` : "")

/**
 * The workspace's image library.
 *
 * @example
 * ```ts
 * const images = yield* Images
 * const logo = yield* images.upload(actor, { filename: "logo.png", content: part.content })
 * yield* forms.update(actor, formId, { settings: { theme: { logo: logo.id } } })
 * ```
 */
export class Images extends Context.Service<
  Images,
  {
    /**
     * Streams one image to the blob store and records it (members who may
     * change forms). Refuses, leaving nothing behind, a file over
     * {@link MAX_IMAGE_BYTES} (as soon as it passes), one whose bytes are not
     * a PNG, JPEG, GIF or WebP, an empty one, and one over the workspace's
     * storage quota.
     */
    readonly upload: <E>(actor: Actors.Actor, input: ImageUpload<E>) => Effect.Effect<Image, ImageUploadError | E>
    /** The workspace's images, newest first (every member). */
    readonly list: (actor: Actors.Actor) => Effect.Effect<ImageList, SqlError.SqlError>
    /** One image's record and bytes (every member). */
    readonly download: (
      actor: Actors.Actor,
      imageId: string
    ) => Effect.Effect<
      { readonly image: Image; readonly content: Stream.Stream<Uint8Array, BlobStoreError> },
      ImageNotFound | BlobStoreError | SqlError.SqlError
    >
    /**
     * Deletes an image (members who may change forms): `Conflict` naming the
     * forms and theme that still show it.
     */
    readonly remove: (
      actor: Actors.Actor,
      imageId: string
    ) => Effect.Effect<void, Forbidden | ImageNotFound | Conflict | SqlError.SqlError>
    /** Of `imageIds`, those that are not images of the workspace (for checking a form or theme before it is saved). */
    readonly missing: (
      workspaceId: number,
      imageIds: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyArray<string>, SqlError.SqlError>
    /** An image's record and bytes for the public page, which checked that its form shows it. */
    readonly content: (
      workspaceId: number,
      imageId: string
    ) => Effect.Effect<
      { readonly image: Image; readonly content: Stream.Stream<Uint8Array, BlobStoreError> },
      ImageNotFound | BlobStoreError | SqlError.SqlError
    >
  }
>()("@qforms/core/Images") {
  static readonly layer = Layer.effect(
    Images,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const blobs = yield* BlobStore
      const files = yield* Files

      const upload = <E>(actor: Actors.Actor, input: ImageUpload<E>): Effect.Effect<Image, ImageUploadError | E> =>
        Effect.gen(function* () {
          yield* Actors.requireWrite(actor)
          const quotas = yield* UploadQuotas
          const name = cleanFileName(input.filename)
          const id = yield* Effect.sync(makeImageId)
          const key = `${actor.workspaceId}/${id}`
          const maxMb = MAX_IMAGE_BYTES / (1024 * 1024)
          const inspected = inspect(input.content, {
            maxBytes: MAX_IMAGE_BYTES,
            tooLarge: () => new FileTooLarge({ message: `an image may be at most ${maxMb} MB` }),
            over: (size) =>
              size > quotas.maxBytesPerWorkspace
                ? new FileTooLarge({ message: "this image is larger than the workspace's storage quota" })
                : undefined,
            // A JPEG's frame header, which gives its size, may follow large metadata.
            keep: HEAD_BYTES,
            judge: (head) => {
              const type = sniff(head)
              return type !== undefined && imageTypes.includes(type)
                ? undefined
                : new UnsupportedFileType({
                    message: `an image must be a PNG, JPEG, GIF or WebP file; ${
                      type === undefined ? "this file's content is none of these" : `this file's content is ${type}`
                    }`
                  })
            },
            empty: () => new InvalidInput({ message: "file: the image is empty" })
          })
          yield* blobs.put(key, inspected.stream)
          const size = inspected.size()
          // The judge passed: the bytes are one of the image types.
          const type = sniff(inspected.head())!
          const found = dimensions(type, inspected.head())
          const now = new Date(yield* Clock.currentTimeMillis)
          const rows = yield* sql
            .withTransaction(
              Effect.andThen(
                files.claimQuota(actor.workspaceId, null, size),
                sql<ImageRow>`
                insert into images (id, workspace_id, name, size, type, width, height, storage_key, created_at)
                values (${id}, ${actor.workspaceId}, ${name}, ${size}, ${type}, ${found?.width ?? null},
                  ${found?.height ?? null}, ${key}, ${now})
                returning ${sql.literal(columns)}`
              )
            )
            .pipe(Effect.onError(() => files.deleteBlobs([key])))
          return toImage(rows[0]!)
        }).pipe(Effect.withSpan("Images.upload"))

      const list = Effect.fn("Images.list")(function* (actor: Actors.Actor) {
        const rows = yield* sql<ImageRow>`
          select ${sql.literal(columns)} from images where workspace_id = ${actor.workspaceId}
          order by created_at desc, id desc limit 1000`
        return { data: rows.map(toImage) }
      })

      const find = (workspaceId: number, imageId: string) =>
        imageIdPattern.test(imageId)
          ? Effect.map(
              sql<ImageRow>`select ${sql.literal(columns)} from images where workspace_id = ${workspaceId} and id = ${imageId}`,
              (rows) => rows[0]
            )
          : Effect.succeed(undefined)

      const content = Effect.fn("Images.content")(function* (workspaceId: number, imageId: string) {
        const row = yield* find(workspaceId, imageId)
        if (row === undefined) return yield* new ImageNotFound({ message: `image ${imageId} not found` })
        const bytes = yield* blobs
          .get(row.storage_key)
          .pipe(
            Effect.catchTag("BlobNotFound", (missing: BlobNotFound) =>
              Effect.fail(
                new BlobStoreError({ message: `the bytes of image ${imageId} are missing: ${missing.message}` })
              )
            )
          )
        return { image: toImage(row), content: bytes }
      })

      const download = Effect.fn("Images.download")(function* (actor: Actors.Actor, imageId: string) {
        return yield* content(actor.workspaceId, imageId)
      })

      const remove = Effect.fn("Images.remove")(function* (actor: Actors.Actor, imageId: string) {
        yield* Actors.requireWrite(actor)
        const keys = yield* sql.withTransaction(
          Effect.gen(function* () {
            // The row lock makes a form being saved with the image wait (its check takes a share lock), then
            // see it gone.
            const locked = imageIdPattern.test(imageId)
              ? yield* sql`select id from images where workspace_id = ${actor.workspaceId} and id = ${imageId} for update`
              : []
            if (locked.length === 0) return yield* new ImageNotFound({ message: `image ${imageId} not found` })
            // The image's id is 128 random bits: found in a form's settings or a question's options, it is that image.
            const pattern = `%${imageId}%`
            const forms = yield* sql<{ readonly title: string }>`
              select title from forms f where f.workspace_id = ${actor.workspaceId} and (
                f.settings::text like ${pattern}
                or exists (select 1 from fields q where q.workspace_id = f.workspace_id and q.form_id = f.id
                  and q.options::text like ${pattern}))
              order by f.id`
            const theme = yield* sql`
              select 1 from workspace_page_settings
              where workspace_id = ${actor.workspaceId} and settings::text like ${pattern}`
            if (forms.length > 0 || theme.length > 0) {
              return yield* new Conflict({
                message: `image ${imageId} is still shown by ${usersText(
                  forms.map((f) => f.title),
                  theme.length > 0
                )}: remove it there first`
              })
            }
            const deleted = yield* sql<{ readonly storage_key: string }>`
              delete from images where workspace_id = ${actor.workspaceId} and id = ${imageId} returning storage_key`
            return deleted.map((d) => d.storage_key)
          })
        )
        yield* files.deleteBlobs(keys)
      })

      const missing = Effect.fn("Images.missing")(function* (workspaceId: number, imageIds: ReadonlyArray<string>) {
        const wanted = [...new Set(imageIds)]
        if (wanted.length === 0) return []
        const found = new Set(
          (yield* sql<{ readonly id: string }>`
            select id from images where workspace_id = ${workspaceId} and id in ${sql.in(wanted)} for share`).map(
            (row) => row.id
          )
        )
        return wanted.filter((id) => !found.has(id))
      })

      return Images.of({ upload, list, download, remove, missing, content })
    })
  ).pipe(Layer.provide([Files.layer]))
}
