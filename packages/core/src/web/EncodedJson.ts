/**
 * JSON answers encoded once per value: for a value served again and again
 * unchanged (a form kept by the form cache stays one object until it
 * changes), its Schema encoding and `JSON.stringify` are done on the first
 * request and the text is kept beside the object (a `WeakMap`, so it goes
 * with it). On a cached `GET /api/forms/{id}` encoding the form was the
 * largest part of the request's own work (issue #51).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as HttpServerResponse from "effect/http/HttpServerResponse"

/**
 * An answer maker for values of `schema`: `200 application/json` with the
 * value encoded as the HttpApi would, from memory when the same object was
 * answered before. Only for values never mutated after they were first answered.
 *
 * @example
 * ```ts
 * const answer = EncodedJson.make(FormWithFields)
 * return answer(yield* forms.get(actor, id)) // an HttpServerResponse, which the HttpApi sends as it is
 * ```
 */
export const make = <S extends Schema.Codec<object, unknown>>(schema: S) => {
  const encode = Schema.encodeSync(schema)
  const texts = new WeakMap<S["Type"], string>()
  return (value: S["Type"]): HttpServerResponse.HttpServerResponse => {
    let text = texts.get(value)
    if (text === undefined) {
      text = JSON.stringify(encode(value))
      texts.set(value, text)
    }
    return HttpServerResponse.text(text, { contentType: "application/json" })
  }
}
