import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit } from "effect"
import { Field } from "../src/forms/Fields.ts"
import * as StoredJson from "../src/storage/StoredJson.ts"

describe("StoredJson", () => {
  const decode = StoredJson.decode(Field, "a row of fields")
  const stored = { id: 1, type: "select", label: "Color", required: true, position: 0, options: { choices: ["Red"] } }

  it.effect("passes a stored value that matches its Schema through", () =>
    Effect.gen(function* () {
      expect(yield* decode(stored)).toEqual(stored)
      expect(yield* StoredJson.decodeNullable(Field, "x")(null)).toBeNull()
    })
  )

  it.effect("dies naming the column when a stored value does not match (never hands a wrong value on)", () =>
    Effect.gen(function* () {
      for (const bad of [
        { ...stored, options: { choices: "Red" } },
        { ...stored, showIf: { field: 1, nonsense: true } },
        { ...stored, type: "hologram" }
      ]) {
        const exit = yield* Effect.exit(decode(bad))
        expect(Exit.isFailure(exit)).toBe(true)
        if (Exit.isFailure(exit)) {
          const defect = Cause.squash(exit.cause)
          expect(defect).toBeInstanceOf(StoredJson.StoredValueMismatch)
          expect((defect as Error).message).toMatch(/^a row of fields does not match its schema/)
        }
      }
    })
  )
})
