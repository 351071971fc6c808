/**
 * Multi-language forms over real HTTP, on every test database: translations
 * read and written with the form and one language at a time, what each
 * lacks, what the form does not have refused, kept in step when the form
 * changes; the authorization matrix (roles × two workspaces); the public
 * page without JavaScript in three languages (chosen by Accept-Language, by
 * `?lang=` and by its switcher; `lang` and `dir` on the document; the page's
 * own words and the checks' messages in the language); the response
 * recording its language with answers keyed as in the form's own; the
 * confirmation e-mail, through a real SMTP server, in that language; the
 * response list and CSV keeping the form's own labels.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { waitFor } from "@qforms/test-kit/Conditions"
import { databaseTargets } from "@qforms/test-kit/Databases"
import { api, getPage, hidden, listResponses, postStep, tokenOf } from "@qforms/test-kit/PublicForms"
import { keysByRole, type Role, roles } from "@qforms/test-kit/Seeds"
import { smtpSink } from "@qforms/test-kit/SmtpSink"
import { startTestServer, type TestServer } from "@qforms/test-kit/TestServer"

/** The expected rule, written independently of the code under test. */
const mayWrite = (role: Role) => role !== "viewer"

let counter = 0

/** The `lang` and `dir` of a page's document. */
const documentLanguage = (html: string) => {
  const match = /<html lang="([^"]*)" dir="([^"]*)">/.exec(html)
  return { lang: match?.[1], dir: match?.[2] }
}

/** The text of a page without its markup (entities of quotes undone), for reading what it says. */
const textOf = (html: string) =>
  html
    .replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")

for (const target of databaseTargets) {
  describe(`translations on ${target.name}`, () => {
    let server: TestServer
    let smtp: Awaited<ReturnType<typeof smtpSink>>

    beforeAll(async () => {
      smtp = await smtpSink()
      server = await startTestServer(target, {
        rateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
        publicPage: {
          minSubmitSeconds: 0,
          submissionRateLimit: { requestsPerSecond: 1000, burst: 1000 },
          stepRateLimit: { requestsPerSecond: 1000, burst: 1000 }
        },
        appUrl: "http://qforms.test",
        mail: { url: smtp.url, from: "Forms <forms@example.com>" },
        delivery: { worker: true, schedule: [0, 50, 100], pollIntervalMs: 100 }
      })
    })
    afterAll(async () => {
      await server?.close()
      await smtp?.close()
    })

    const seed = () => server.run(keysByRole(`tr${++counter}`))

    /** A published survey in English: name, e-mail, a colour (choices) and yes/no; the default confirmation on. */
    const survey = async (key: string) => {
      const created = await api(server, key, "POST", "/forms", {
        title: "Customer survey",
        description: "Two minutes, no more.",
        settings: { language: "en", theme: { buttons: { submit: "Send it" } } },
        fields: [
          { type: "short_text", label: "Your name", required: true, options: { help: "As you like to be called" } },
          { type: "email", label: "Email", required: true },
          { type: "select", label: "Favourite colour", required: true, options: { choices: ["Red", "Blue", "Green"] } },
          { type: "yes_no", label: "Subscribe?", required: true }
        ]
      })
      expect(created.status, created.text).toBe(201)
      const formId = created.body.id as number
      const [name, email, colour, subscribe] = (created.body.fields as ReadonlyArray<{ id: number }>).map((f) => f.id)
      const confirmation = await api(server, key, "PUT", `/forms/${formId}/confirmation`, {
        enabled: true,
        subject: "We received your response",
        body: "Thank you for your response. This is what you sent:\n\n{{answers}}"
      })
      expect(confirmation.status, confirmation.text).toBe(200)
      return { formId, ids: { name: name!, email: email!, colour: colour!, subscribe: subscribe! } }
    }

    type Ids = Awaited<ReturnType<typeof survey>>["ids"]

    /** The survey in German (with its own confirmation), French (without) and Arabic. */
    const translations = (ids: Ids) => ({
      de: {
        title: "Kundenumfrage",
        description: "Zwei Minuten, nicht mehr.",
        fields: {
          [ids.name]: { label: "Ihr Name", help: "Wie Sie genannt werden möchten" },
          [ids.email]: { label: "E-Mail-Adresse" },
          [ids.colour]: { label: "Lieblingsfarbe", choices: { Red: "Rot", Blue: "Blau", Green: "Grün" } },
          [ids.subscribe]: { label: "Abonnieren?" }
        },
        buttons: { submit: "Abschicken" },
        confirmation: { subject: "Wir haben Ihre Antwort erhalten", body: "Danke! Ihre Antworten:\n\n{{answers}}" }
      },
      fr: {
        title: "Enquête client",
        fields: {
          [ids.name]: { label: "Votre nom" },
          [ids.email]: { label: "Adresse e-mail" },
          [ids.colour]: { label: "Couleur préférée", choices: { Red: "Rouge", Blue: "Bleu", Green: "Vert" } },
          [ids.subscribe]: { label: "S’abonner ?" }
        },
        buttons: { submit: "Envoyer" }
      },
      ar: {
        title: "استطلاع العملاء",
        description: "دقيقتان لا أكثر.",
        fields: {
          [ids.name]: { label: "اسمك", help: "كما تحب أن تُنادى" },
          [ids.email]: { label: "البريد الإلكتروني" },
          [ids.colour]: { label: "لونك المفضل", choices: { Red: "أحمر", Blue: "أزرق", Green: "أخضر" } },
          [ids.subscribe]: { label: "هل تريد الاشتراك؟" }
        },
        buttons: { submit: "إرسال" }
      }
    })

    it("reads and writes translations with the form and per language, lists what each lacks, and refuses what the form does not have", async () => {
      const { keys } = await seed()
      const { formId, ids } = await survey(keys.owner)
      const all = translations(ids)

      // One language at a time: the answer says how far it is and what it lacks.
      const put = await api(server, keys.owner, "PUT", `/forms/${formId}/translations/fr`, all.fr)
      expect(put.status, put.text).toBe(200)
      expect(put.body).toMatchObject({ language: "fr", name: "Français", direction: "ltr", status: "ready" })
      // The form's texts: title, description, 4 labels, 1 help, 3 choices, the submit button's words, and the
      // confirmation's subject and body (it is sent).
      expect(put.body.total).toBe(13)
      expect(put.body.translated).toBe(9)
      expect(put.body.missing).toEqual([
        { path: ["description"], source: "Two minutes, no more." },
        { path: ["fields", String(ids.name), "help"], source: "As you like to be called" },
        { path: ["confirmation", "subject"], source: "We received your response" },
        {
          path: ["confirmation", "body"],
          source: "Thank you for your response. This is what you sent:\n\n{{answers}}"
        }
      ])

      // With the form: all of them at once, replacing; read back with the form.
      const patched = await api(server, keys.owner, "PATCH", `/forms/${formId}`, { translations: all })
      expect(patched.status, patched.text).toBe(200)
      const form = (await api(server, keys.owner, "GET", `/forms/${formId}`)).body
      expect(Object.keys(form.translations).sort()).toEqual(["ar", "de", "fr"])
      expect(form.translations.de.fields[String(ids.colour)].choices).toEqual({
        Red: "Rot",
        Blue: "Blau",
        Green: "Grün"
      })

      const list = await api(server, keys.owner, "GET", `/forms/${formId}/translations`)
      expect(list.status).toBe(200)
      expect(list.body.language).toBe("en")
      // By language tag, whatever order they were given in.
      expect(
        list.body.translations.map((t: { language: string; translated: number; total: number }) => [
          t.language,
          t.translated,
          t.total
        ])
      ).toEqual([
        ["ar", 11, 13],
        ["de", 13, 13],
        ["fr", 9, 13]
      ])
      expect(list.body.translations.find((t: { language: string }) => t.language === "ar").direction).toBe("rtl")

      // What the form does not have is refused, naming it; so is its own language, and a tag that is not one.
      const refused = async (language: string, body: unknown, status = 400) => {
        const answer = await api(server, keys.owner, "PUT", `/forms/${formId}/translations/${language}`, body)
        expect(answer.status, answer.text).toBe(status)
        return answer.body.error as string
      }
      expect(await refused("it", { fields: { "999999": { label: "Nome" } } })).toContain(
        "translations.it.fields.999999: no question 999999 in this form"
      )
      expect(await refused("it", { fields: { [ids.colour]: { choices: { Purple: "Viola" } } } })).toContain(
        `translations.it.fields.${ids.colour}.choices.Purple: question ${ids.colour} has no choice "Purple"`
      )
      expect(await refused("it", { fields: { [ids.email]: { placeholder: "tu@esempio.it" } } })).toContain(
        `question ${ids.email} has no placeholder`
      )
      expect(await refused("it", { pages: { intro: { title: "Inizio" } } })).toContain('no page "intro"')
      expect(await refused("en", { title: "Survey" })).toContain("en is the form's own language")
      expect(await refused("it", { title: "" })).toContain("title must not be empty")
      expect(await refused("it", { titel: "Sondaggio" })).toContain('unknown translation key "titel"')
      expect(await refused("it_IT", { title: "Sondaggio" })).toContain(
        "a language must be a tag such as de, pt-BR or zh-Hans"
      )

      // Taken away: 204, then 404.
      expect((await api(server, keys.owner, "DELETE", `/forms/${formId}/translations/fr`)).status).toBe(204)
      const gone = await api(server, keys.owner, "GET", `/forms/${formId}/translations/fr`)
      expect(gone.status).toBe(404)
      expect(gone.body.error).toBe(`form ${formId} has no translation into fr`)
      expect((await api(server, keys.owner, "DELETE", `/forms/${formId}/translations/fr`)).status).toBe(404)

      // A change of the form takes out of its translations what it no longer has (a choice, a question).
      const questions = form.fields.map(({ position: _, ...rest }: Record<string, unknown>) => rest)
      const withoutGreen = questions.map((q: { id: number; options: unknown }) =>
        q.id === ids.colour ? { ...q, options: { choices: ["Red", "Blue"] } } : q
      )
      const changed = await api(server, keys.owner, "PATCH", `/forms/${formId}`, {
        fields: withoutGreen.filter((q: { id: number }) => q.id !== ids.subscribe)
      })
      expect(changed.status, changed.text).toBe(200)
      const de = (await api(server, keys.owner, "GET", `/forms/${formId}/translations/de`)).body
      expect(de.translation.fields[String(ids.colour)].choices).toEqual({ Red: "Rot", Blue: "Blau" })
      expect(de.translation.fields[String(ids.subscribe)]).toBeUndefined()
      expect(de.translated).toBe(de.total)
    })

    it("lets every role read translations and owners, admins and members write them; never across workspaces", async () => {
      const a = await seed()
      const b = await seed()
      const { formId, ids } = await survey(a.keys.owner)
      const other = await survey(b.keys.owner)
      const de = translations(ids).de
      for (const role of roles) {
        const put = await api(server, a.keys[role], "PUT", `/forms/${formId}/translations/de`, de)
        const removed = await api(server, a.keys[role], "DELETE", `/forms/${formId}/translations/de`)
        if (mayWrite(role)) {
          expect(put.status, `${role}: ${put.text}`).toBe(200)
          expect(removed.status, `${role}: ${removed.text}`).toBe(204)
        } else {
          expect(put.status, `${role}: ${put.text}`).toBe(403)
          expect(put.body.error).toBe("this key belongs to a viewer, who can only read")
          expect(removed.status).toBe(403)
        }
        expect((await api(server, a.keys[role], "GET", `/forms/${formId}/translations`)).status).toBe(200)
        // The other workspace's form is not there for this one (a viewer's write is refused before it is looked for).
        for (const method of ["GET", "PUT", "DELETE"] as const) {
          const across = await api(
            server,
            a.keys[role],
            method,
            `/forms/${other.formId}/translations/de`,
            method === "PUT" ? de : undefined
          )
          expect(across.status, `${role} ${method}`).toBe(method !== "GET" && !mayWrite(role) ? 403 : 404)
        }
        const listed = await api(server, b.keys[role], "GET", `/forms/${formId}/translations`)
        expect(listed.status).toBe(404)
      }
      // Workspace B's form never got a translation from A.
      expect((await api(server, b.keys.owner, "GET", `/forms/${other.formId}/translations`)).body.translations).toEqual(
        []
      )
    })

    it("answers the page in three languages without JavaScript, records the language, keys answers as the form's own, and confirms by e-mail in that language", async () => {
      const { keys } = await seed()
      const { formId, ids } = await survey(keys.owner)
      const form = (await api(server, keys.owner, "GET", `/forms/${formId}`)).body
      expect(
        (
          await api(server, keys.owner, "PATCH", `/forms/${formId}`, {
            translations: translations(ids),
            status: "published"
          })
        ).status
      ).toBe(200)
      const publicId = form.publicId as string

      const step = (html: string, pairs: ReadonlyArray<readonly [string, string]>, move = "next", headers = {}) =>
        postStep(
          server,
          publicId,
          [["token", tokenOf(html)], ["at", hidden(html, "at")], ["website", ""], ...pairs, ["move", move]],
          headers
        )

      const cases = [
        {
          language: "de",
          accept: "de-AT,de;q=0.9,en;q=0.5",
          dir: "ltr",
          title: "Kundenumfrage",
          start: "Starten",
          name: "Ihr Name",
          help: "Wie Sie genannt werden möchten",
          badEmail: '"E-Mail-Adresse"',
          colour: "Rot",
          submit: "Abschicken",
          thanks: "Vielen Dank",
          subject: "Wir haben Ihre Antwort erhalten",
          inMail: ["Danke! Ihre Antworten:", "Lieblingsfarbe", "Rot", "Abonnieren?", "Ja"]
        },
        {
          language: "fr",
          accept: "fr-CH, fr;q=0.9",
          dir: "ltr",
          title: "Enquête client",
          start: "Commencer",
          name: "Votre nom",
          help: "As you like to be called",
          badEmail: '"Adresse e-mail"',
          colour: "Rouge",
          submit: "Envoyer",
          thanks: "Merci",
          subject: "Nous avons bien reçu votre réponse",
          inMail: ["Couleur préférée", "Rouge", "S’abonner ?", "Oui"]
        },
        {
          language: "ar",
          accept: "ar-EG,ar;q=0.9",
          dir: "rtl",
          title: "استطلاع العملاء",
          start: "ابدأ",
          name: "اسمك",
          help: "كما تحب أن تُنادى",
          badEmail: '"البريد الإلكتروني"',
          colour: "أحمر",
          submit: "إرسال",
          thanks: "شكرًا",
          subject: "تلقّينا ردّك",
          inMail: ["لونك المفضل", "أحمر", "هل تريد الاشتراك؟", "نعم"]
        }
      ]
      for (const c of cases) {
        const headers = { "accept-language": c.accept }
        const welcome = await getPage(server, `/f/${publicId}`, headers)
        expect(welcome.status).toBe(200)
        expect(documentLanguage(welcome.text), c.language).toEqual({ lang: c.language, dir: c.dir })
        const words = textOf(welcome.text)
        expect(words).toContain(c.title)
        // The page's own words in the language: the count of questions, the Start button, the switcher.
        expect(words, c.language).toContain(c.start)
        expect(welcome.text).toContain('<select id="lang" name="lang" data-lang>')
        for (const [language, name] of [
          ["en", "English"],
          ["de", "Deutsch"],
          ["fr", "Français"],
          ["ar", "العربية"]
        ]) {
          expect(welcome.text).toContain(`<option value="${language}" lang="${language}"`)
          expect(welcome.text).toContain(`>${name}</option>`)
        }

        const first = await step(welcome.text, [], "start", headers)
        expect(textOf(first.text)).toContain(c.name)
        expect(textOf(first.text)).toContain(c.help)
        const second = await step(first.text, [["a", `Ada ${c.language}`]], "next", headers)
        // A wrong e-mail address: the check's message in the language, naming the question in it.
        const wrong = await step(second.text, [["a", "not an address"]], "next", headers)
        expect(wrong.status).toBe(400)
        const error =
          /<p class="error" id="error"[^>]*>([^<]*)<\/p>/.exec(wrong.text)?.[1]?.replace(/&quot;/g, '"') ?? ""
        expect(error, c.language).toContain(c.badEmail)
        expect(error).not.toContain("must be an email address")
        const third = await step(wrong.text, [["a", `ada.${c.language}@example.com`]], "next", headers)
        // The choices in the language; what is posted stays the form's own choice.
        expect(third.text).toContain(`value="Red"`)
        expect(textOf(third.text)).toContain(c.colour)
        expect(textOf(third.text)).not.toContain(" Blue ")
        const fourth = await step(third.text, [["a", "Red"]], "next", headers)
        expect(textOf(fourth.text)).toContain(c.submit)
        const before = smtp.received.length
        const done = await step(fourth.text, [["a", "yes"]], "next", headers)
        expect(done.status, done.text.slice(0, 400)).toBe(200)
        expect(documentLanguage(done.text)).toEqual({ lang: c.language, dir: c.dir })
        expect(textOf(done.text)).toContain(c.thanks)

        // The confirmation e-mail, in the language the response was given in.
        const mail = await waitFor(() =>
          smtp.received.slice(before).find((m) => m.to.includes(`ada.${c.language}@example.com`))
        )
        expect(mail.parsed.subject, c.language).toBe(c.subject)
        for (const text of c.inMail) expect(mail.parsed.text ?? "", `${c.language}: ${text}`).toContain(text)
      }

      // Stored: each response's language, its answers keyed and worded as the form's own.
      const stored = await listResponses(server, keys.owner, formId)
      const byName = new Map(stored.map((r) => [r.values[String(ids.name)] as string, r]))
      for (const c of cases) {
        const response = byName.get(`Ada ${c.language}`)!
        expect(response.language).toBe(c.language)
        expect(response.values).toEqual({
          [ids.name]: `Ada ${c.language}`,
          [ids.email]: `ada.${c.language}@example.com`,
          [ids.colour]: "Red",
          [ids.subscribe]: true
        })
      }
      // The flat answers and the CSV keep the form's own labels, whatever language was answered in.
      const flat = await api(server, keys.owner, "GET", `/forms/${formId}/responses?flat=1`)
      for (const response of flat.body.responses) {
        expect(Object.keys(response.answers)).toEqual(["Your name", "Email", "Favourite colour", "Subscribe?"])
        expect(response.answers["Favourite colour"]).toBe("Red")
      }
      const csv = await fetch(`${server.url}/api/forms/${formId}/responses.csv`, {
        headers: { authorization: `Bearer ${keys.owner}` }
      })
      expect((await csv.text()).split("\n")[0]).toContain("Favourite colour")
    })

    it("lets ?lang= and the switcher choose the language, keeping what was typed, and never offers a draft", async () => {
      const { keys } = await seed()
      const { formId, ids } = await survey(keys.owner)
      const all = translations(ids)
      const patched = await api(server, keys.owner, "PATCH", `/forms/${formId}`, {
        translations: { de: all.de, fr: { ...all.fr, status: "draft" } },
        status: "published"
      })
      expect(patched.status, patched.text).toBe(200)
      const publicId = (await api(server, keys.owner, "GET", `/forms/${formId}`)).body.publicId as string

      // ?lang= wins over the browser's language; a draft is not offered (nor chosen by the browser).
      const asked = await getPage(server, `/f/${publicId}?lang=de`, { "accept-language": "fr" })
      expect(documentLanguage(asked.text)).toEqual({ lang: "de", dir: "ltr" })
      expect(asked.text).not.toContain('<option value="fr"')
      const browser = await getPage(server, `/f/${publicId}`, { "accept-language": "fr" })
      expect(documentLanguage(browser.text).lang).toBe("en")
      const unknown = await getPage(server, `/f/${publicId}?lang=xx-Nope`, { "accept-language": "de" })
      expect(documentLanguage(unknown.text).lang).toBe("de")

      // On the first question in German, a name typed, then the switcher to English: the same question, the
      // name kept, nothing checked or saved; the next steps stay in English whatever the browser says.
      const step = (html: string, pairs: ReadonlyArray<readonly [string, string]>, move = "next") =>
        postStep(
          server,
          publicId,
          [["token", tokenOf(html)], ["at", hidden(html, "at")], ["website", ""], ...pairs, ["move", move]],
          { "accept-language": "de" }
        )
      const first = await step(asked.text, [], "start")
      expect(textOf(first.text)).toContain("Ihr Name")
      const switched = await step(
        first.text,
        [
          ["a", "Grace"],
          ["lang", "en"]
        ],
        "lang"
      )
      expect(switched.status).toBe(200)
      expect(documentLanguage(switched.text).lang).toBe("en")
      expect(textOf(switched.text)).toContain("Your name")
      expect(switched.text).toContain('value="Grace"')
      expect(hidden(switched.text, "at")).toBe(String(ids.name))
      const next = await step(switched.text, [["a", "Grace"]])
      expect(documentLanguage(next.text).lang).toBe("en")
      expect(textOf(next.text)).toContain("Email")
    })
  })
}
