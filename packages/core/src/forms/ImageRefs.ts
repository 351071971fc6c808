/**
 * The images a form shows, by their ids in the workspace's image library
 * (`files/Images.ts`): its theme's `logo` and its questions' `options.images`
 * (a picture per choice of a select or checkboxes question). Forms refer to
 * images only through these two places, so that a save can check that each
 * exists and the public page can serve exactly the images its form shows.
 *
 * @module
 */
import * as Schema from "effect/Schema"

/** The shape of an image id: `img_` and 22 URL-safe characters (128 random bits). */
export const imageIdPattern = /^img_[A-Za-z0-9_-]{22}$/

/**
 * An image id, as forms and themes refer to an image of the library.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(ImageId)("img_Vv2x0Zr8cQ1b5m3Jq7nT0w") // ok
 * ```
 */
export const ImageId = Schema.String.check(
  Schema.isPattern(imageIdPattern, { message: "an image id is img_ and 22 letters, digits, - or _ (see /api/images)" })
).annotate({ identifier: "ImageId", description: "An image of the workspace's library (`img_…`, see /api/images)." })

/**
 * The ids of the images a form shows: its theme's logo, then each question's
 * choice images, each once.
 *
 * @example
 * ```ts
 * imageIdsOf([{ options: { images: { Tea: "img_…a" } } }], { theme: { logo: "img_…b" } }) // ["img_…b", "img_…a"]
 * ```
 */
export const imageIdsOf = (
  fields: ReadonlyArray<{
    readonly options?: { readonly images?: Readonly<Record<string, string>> | undefined } | null
  }>,
  settings: { readonly theme?: { readonly logo?: string | undefined } | undefined } | undefined
): ReadonlyArray<string> => {
  const ids = new Set<string>()
  if (settings?.theme?.logo !== undefined) ids.add(settings.theme.logo)
  for (const field of fields) for (const id of Object.values(field.options?.images ?? {})) ids.add(id)
  return [...ids]
}
