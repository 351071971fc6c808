/**
 * Signed JSON (kernel/SignedJson.ts): what is sealed opens with the same
 * secret and context, and nothing else does.
 */
import { randomBytes } from "node:crypto"
import * as Result from "effect/Result"
import { describe, expect, it } from "vitest"
import { seal, unseal } from "../src/kernel/SignedJson.ts"

const secret = randomBytes(32)
const json = JSON.stringify({ form: "abc", sentAt: 1 })

describe("SignedJson", () => {
  it("opens what it sealed, and refuses a change, another secret or another context", () => {
    const token = seal(secret, "qforms-test.v1.", json)
    expect(unseal(secret, "qforms-test.v1.", token)).toEqual(Result.succeed(json))
    const [payload, mac] = token.split(".") as [string, string]
    const changed = `${Buffer.from(json.replace("abc", "abd")).toString("base64url")}.${mac}`
    expect(unseal(secret, "qforms-test.v1.", changed)).toEqual(Result.fail("forged"))
    expect(unseal(randomBytes(32), "qforms-test.v1.", token)).toEqual(Result.fail("forged"))
    expect(unseal(secret, "qforms-other.v1.", token)).toEqual(Result.fail("forged"))
    expect(unseal(secret, "qforms-test.v1.", `${payload}.${mac.slice(0, -2)}`)).toEqual(Result.fail("forged"))
  })

  it("calls anything but two base64url parts malformed", () => {
    for (const token of ["", ".", "a", "a.b.c", "a b.c", "a.b=", `${"x".repeat(10)}.`]) {
      expect(unseal(secret, "qforms-test.v1.", token), token).toEqual(Result.fail("malformed"))
    }
  })
})
