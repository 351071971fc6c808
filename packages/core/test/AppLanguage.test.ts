/**
 * The application's own interface in English, German and Arabic: the
 * catalogues keep the message contract (test/support/Catalogues.ts), every key
 * the scripts use exists and every key is used; the language is chosen from
 * the account's stored preference, else Accept-Language, and the account sets
 * it through `PUT /app/account/language` (same origin, CSRF token); the sign-in
 * pages speak the browser's language; the shell page carries `lang`, `dir`,
 * the words and the question types in the chosen language. On every test
 * database.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as AppLanguage from "../src/app/AppLanguage.ts"
import { typeNames } from "../src/forms/questions/QuestionTypes.ts"
import { Sessions } from "../src/identity/Sessions.ts"
import { Workspaces } from "../src/identity/Workspaces.ts"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"
import { catalogueProblems } from "./support/Catalogues.ts"

const english = AppLanguage.catalogues.en

describe("AppLanguage catalogues", () => {
  for (const language of AppLanguage.appLanguages) {
    it(`${language}: every key, messages that parse, the English values, the language's plural categories`, () => {
      expect(catalogueProblems(language, AppLanguage.catalogues[language], english)).toEqual([])
    })
  }

  it("German and Arabic are translations, not copies of English", () => {
    for (const language of ["de", "ar"] as const) {
      const same = AppLanguage.appKeys.filter((key) => AppLanguage.catalogues[language][key] === english[key])
      expect(same.length, `${language} the same as English: ${same.join(", ")}`).toBeLessThan(
        AppLanguage.appKeys.length * 0.1
      )
    }
  })

  it("has every key the application's scripts and pages use, and no key nobody uses", () => {
    // The scripts (@qforms/app's modules), and the server's pages and routes (every module of src/app but the
    // catalogues themselves).
    const modules = (root: string) =>
      readdirSync(root, { recursive: true, encoding: "utf8" })
        .filter((path) => /\.(js|ts)$/.test(path) && !path.startsWith("catalogues"))
        .map((path) => readFileSync(join(root, path), "utf8"))
    const sources = [
      ...modules(join(import.meta.dirname, "../../app/src")),
      ...modules(join(import.meta.dirname, "../src/app"))
    ].join("\n")
    const used = new Set([...sources.matchAll(/["'`]([a-z][A-Za-z]*\.[A-Za-z_]+)["'`]/g)].map((m) => m[1]!))
    // Keys made from a value: the question types' names (ShellData), by type; a type's own words for an option's
    // editor (the builder's OptionsEditor.js), a key the scripts name followed by the type's name.
    const ownWords = (key: string) => {
      const at = key.lastIndexOf(".")
      return used.has(key.slice(0, at)) && (typeNames as ReadonlyArray<string>).includes(key.slice(at + 1))
    }
    const made = AppLanguage.appKeys.filter((key) => key.startsWith("fieldType.") || ownWords(key))
    const unused = AppLanguage.appKeys.filter((key) => !used.has(key) && !made.includes(key))
    expect(unused).toEqual([])
    const called = [...sources.matchAll(/\bt\(\s*"([^"]+)"/g)].map((m) => m[1]!)
    expect(called.filter((key) => !(key in english))).toEqual([])
  })

  it("chooses the account's language, else the browser's best, else English", () => {
    expect(AppLanguage.choose(null, "de-CH,de;q=0.9,en;q=0.5")).toBe("de")
    expect(AppLanguage.choose(null, "fr-FR,ar;q=0.8")).toBe("ar")
    expect(AppLanguage.choose(null, "fr-FR,ja")).toBe("en")
    expect(AppLanguage.choose(null, undefined)).toBe("en")
    expect(AppLanguage.choose("ar", "de")).toBe("ar")
    expect(AppLanguage.choose("xx", "de")).toBe("de")
  })

  it("says plurals by each language's rules, with its digits", () => {
    expect(AppLanguage.sayer("en")("auth.accountLocked", { minutes: 1 })).toContain("1 more minute.")
    expect(AppLanguage.sayer("de")("auth.accountLocked", { minutes: 14 })).toContain("14 Minuten")
    expect(AppLanguage.sayer("ar")("auth.accountLocked", { minutes: 2 })).toContain("دقيقتين")
    // In the language's own digits, whichever its locale data makes them.
    expect(AppLanguage.sayer("ar")("auth.accountLocked", { minutes: 5 })).toContain(
      `${new Intl.NumberFormat("ar").format(5)} دقائق`
    )
  })
})

for (const target of databaseTargets) {
  describe(`the application's language on ${target.name}`, () => {
    let server: TestServer
    let other: TestServer
    const password = "a long enough password"

    const signIn = async (on: TestServer, email: string) => {
      const response = await fetch(`${on.url}/app/sign-in`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: on.url },
        body: new URLSearchParams({ email, password }).toString()
      })
      const cookie = response.headers
        .getSetCookie()
        .find((c) => c.startsWith("qforms_session="))!
        .split(";")[0]!
      const session = (await (await fetch(`${on.url}/app/session`, { headers: { cookie } })).json()) as {
        csrfToken: string
      }
      return { cookie, csrf: session.csrfToken }
    }

    const seed = (on: TestServer, email: string) =>
      on.run(
        Effect.gen(function* () {
          yield* (yield* Workspaces).create({ name: "W", ownerEmail: email })
          yield* (yield* Sessions).setPassword(email, password)
        })
      )

    beforeAll(async () => {
      server = await startTestServer(target, { app: { signInRateLimit: { requestsPerSecond: 1000, burst: 1000 } } })
      other = await startTestServer(target, { app: { signInRateLimit: { requestsPerSecond: 1000, burst: 1000 } } })
      await seed(server, "lena@example.com")
      await seed(server, "omar@example.com")
      await seed(other, "lena@example.com")
    })
    afterAll(async () => {
      await server?.close()
      await other?.close()
    })

    it("shows the sign-in page in the browser's language, right to left for Arabic", async () => {
      const german = await (
        await fetch(`${server.url}/app/sign-in`, { headers: { "accept-language": "de-DE,de;q=0.9" } })
      ).text()
      expect(german).toContain('<html lang="de" dir="ltr">')
      expect(german).toContain("Bei qforms anmelden")
      expect(german).toContain("Passwort vergessen?")
      const arabic = await (await fetch(`${server.url}/app/sign-in`, { headers: { "accept-language": "ar" } })).text()
      expect(arabic).toContain('<html lang="ar" dir="rtl">')
      expect(arabic).toContain("تسجيل الدخول إلى qforms")
      const none = await (await fetch(`${server.url}/app/sign-in`)).text()
      expect(none).toContain('<html lang="en" dir="ltr">')
      expect(none).toContain("Sign in to qforms")
      const wrong = await fetch(`${server.url}/app/sign-in`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: server.url,
          "accept-language": "de"
        },
        body: new URLSearchParams({ email: "lena@example.com", password: "not it" }).toString()
      })
      expect(wrong.status).toBe(401)
      expect(await wrong.text()).toContain("E-Mail-Adresse oder Passwort ist falsch.")
    })

    it("follows the browser until the account chooses; the choice is stored and wins", async () => {
      const { cookie, csrf } = await signIn(server, "lena@example.com")
      const sessionIn = async (acceptLanguage: string) =>
        (await (
          await fetch(`${server.url}/app/session`, { headers: { cookie, "accept-language": acceptLanguage } })
        ).json()) as { language: string; languagePreference: string | null; languages: Array<{ tag: string }> }
      expect(await sessionIn("de")).toMatchObject({ language: "de", languagePreference: null, browserLanguage: "de" })
      expect((await sessionIn("fr")).language).toBe("en")
      expect((await sessionIn("fr")).languages.map((l) => l.tag)).toEqual(["en", "de", "ar"])

      const choose = (language: unknown, headers: Record<string, string> = {}) =>
        fetch(`${server.url}/app/account/language`, {
          method: "PUT",
          headers: {
            cookie,
            "content-type": "application/json",
            origin: server.url,
            "x-csrf-token": csrf,
            ...headers
          },
          body: JSON.stringify({ language })
        })
      const chosen = await choose("ar")
      expect(chosen.status).toBe(200)
      expect(await chosen.json()).toEqual({ language: "ar", languagePreference: "ar" })
      expect(await sessionIn("de")).toMatchObject({ language: "ar", languagePreference: "ar", browserLanguage: "de" })

      const shell = await (
        await fetch(`${server.url}/app/forms`, { headers: { cookie, "accept-language": "de" } })
      ).text()
      expect(shell).toContain('<html lang="ar" dir="rtl">')
      const words = JSON.parse(/<script type="application\/json" id="qforms-words">(.*?)<\/script>/s.exec(shell)![1]!)
      expect(words).toMatchObject({ language: "ar", direction: "rtl" })
      expect(words.messages["shell.forms"]).toBe("النماذج")
      const shellData = JSON.parse(
        /<script type="application\/json" id="qforms-shell">(.*?)<\/script>/s.exec(shell)![1]!
      )
      expect(shellData.fieldTypes.find((t: { type: string }) => t.type === "short_text").label).toBe("نص قصير")
      expect(shell).toContain("/app/assets/vendor/intl-messageformat.mjs")
      const vendored = await fetch(`${server.url}/app/assets/vendor/intl-messageformat.mjs`)
      expect(vendored.status).toBe(200)
      expect(await vendored.text()).toContain("IntlMessageFormat")

      // Another account, and the same address on another server, keep following their browsers.
      const omar = await signIn(server, "omar@example.com")
      expect(
        (
          (await (await fetch(`${server.url}/app/session`, { headers: { cookie: omar.cookie } })).json()) as {
            language: string
          }
        ).language
      ).toBe("en")
      const elsewhere = await signIn(other, "lena@example.com")
      expect(
        (
          (await (
            await fetch(`${other.url}/app/session`, { headers: { cookie: elsewhere.cookie, "accept-language": "de" } })
          ).json()) as { language: string }
        ).language
      ).toBe("de")

      // Bad choices, forged writes and strangers change nothing.
      for (const bad of ["fr", "", 7, "de-DE", { tag: "de" }]) {
        const refused = await choose(bad)
        expect(refused.status, String(bad)).toBe(400)
        expect(((await refused.json()) as { error: string }).error).toMatch(/language: one of en, de, ar/)
      }
      const notJson = await fetch(`${server.url}/app/account/language`, {
        method: "PUT",
        headers: { cookie, origin: server.url, "x-csrf-token": csrf, "content-type": "application/json" },
        body: "{not json"
      })
      expect(notJson.status).toBe(400)
      expect((await choose("de", { "x-csrf-token": "wrong" })).status).toBe(403)
      expect((await choose("de", { origin: "https://evil.example" })).status).toBe(403)
      const stranger = await fetch(`${server.url}/app/account/language`, {
        method: "PUT",
        headers: { "content-type": "application/json", origin: server.url },
        body: JSON.stringify({ language: "de" })
      })
      expect(stranger.status).toBe(401)
      expect((await sessionIn("de")).languagePreference).toBe("ar")

      // Null forgets the choice: the browser decides again.
      const forgot = await choose(null, { "accept-language": "de" })
      expect(await forgot.json()).toEqual({ language: "de", languagePreference: null })
      expect(await sessionIn("de")).toMatchObject({ language: "de", languagePreference: null })
    })
  })
}
