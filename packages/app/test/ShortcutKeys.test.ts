/**
 * What a key press does under the shortcuts (nothing with a modifier, in a field or once handled; `?` the help;
 * else its key's shortcut), the next case of the inbox's last list, and the row j and k move to.
 */
import { describe, expect, it } from "vitest"
import { neighbourIn, nextRow, pressed } from "../src/shared/ShortcutKeys.js"

const shortcuts = [
  { key: "j", label: "next" },
  { key: "k", label: "previous" },
  { key: "?", label: "a page's own question mark" }
]
const key = (
  name: string,
  held: Partial<Record<"ctrlKey" | "altKey" | "metaKey" | "defaultPrevented", boolean>> = {}
) => ({
  key: name,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  defaultPrevented: false,
  ...held
})

describe("ShortcutKeys", () => {
  it("gives a key its shortcut, and ? the help panel", () => {
    expect(pressed(key("j"), false, shortcuts)).toBe(shortcuts[0])
    expect(pressed(key("k"), false, shortcuts)).toBe(shortcuts[1])
    expect(pressed(key("?"), false, shortcuts)).toBe("help")
    expect(pressed(key("x"), false, shortcuts)).toBeUndefined()
  })

  it("leaves a key to the browser, the screen reader or the field with a modifier, when handled, or while typing", () => {
    expect(pressed(key("j", { ctrlKey: true }), false, shortcuts)).toBeUndefined()
    expect(pressed(key("j", { altKey: true }), false, shortcuts)).toBeUndefined()
    expect(pressed(key("j", { metaKey: true }), false, shortcuts)).toBeUndefined()
    expect(pressed(key("j", { defaultPrevented: true }), false, shortcuts)).toBeUndefined()
    expect(pressed(key("j"), true, shortcuts)).toBeUndefined()
    expect(pressed(key("?"), true, shortcuts)).toBeUndefined()
  })

  it("finds the case after or before one in the inbox's last list", () => {
    expect(neighbourIn([7, 3, 9], 3, 1)).toBe(9)
    expect(neighbourIn([7, 3, 9], 3, -1)).toBe(7)
    expect(neighbourIn([7, 3, 9], 9, 1)).toBeUndefined()
    expect(neighbourIn([7, 3, 9], 7, -1)).toBeUndefined()
    expect(neighbourIn([7, 3, 9], 4, 1)).toBeUndefined()
    expect(neighbourIn({ ids: [3, 9] }, 3, 1)).toBeUndefined()
    expect(neighbourIn([3, "9"], 3, 1)).toBeUndefined()
  })

  it("moves j and k within the table, from the first row when none has the focus", () => {
    expect(nextRow(5, -1, 1)).toBe(0)
    expect(nextRow(5, -1, -1)).toBe(0)
    expect(nextRow(5, 2, 1)).toBe(3)
    expect(nextRow(5, 2, -1)).toBe(1)
    expect(nextRow(5, 4, 1)).toBe(4)
    expect(nextRow(5, 0, -1)).toBe(0)
  })
})
