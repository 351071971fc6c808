/**
 * Form generation: the offline generator on a table of descriptions, the
 * OpenAI-compatible generator against a real local HTTP server speaking the
 * chat-completions protocol, and `POST /api/v1/forms/generate` end to end.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { testHttpServer } from "@qforms/test-kit/Loopback"
import type { AddressInfo } from "node:net"
import { Effect, Exit, Option, Result } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Bootstrap from "../src/Bootstrap.ts"
import { ApiKeys } from "../src/identity/ApiKeys.ts"
import { FormGenerator, GeneratorFailed } from "../src/generation/FormGenerator.ts"
import { Members } from "../src/identity/Members.ts"
import * as OfflineFormGenerator from "../src/generation/OfflineFormGenerator.ts"
import * as OpenAiFormGenerator from "../src/generation/OpenAiFormGenerator.ts"
import * as Qforms from "../src/Qforms.ts"

// ---------------------------------------------------------------------------
// Offline generator
// ---------------------------------------------------------------------------

/** [type, label, required, options] — options only where the question has some. */
type Expected = readonly [string, string, boolean, object?]

const offlineCases: ReadonlyArray<readonly [string, string, ReadonlyArray<Expected>]> = [
  [
    "A job application form for a senior backend engineer. Ask for name, email, phone, LinkedIn profile, years of experience and a CV upload.",
    "Job application form for a senior backend engineer",
    [
      ["short_text", "Name", true],
      ["email", "Email", true],
      ["tel", "Phone number", false],
      ["url", "LinkedIn profile", false],
      ["number", "Years of experience", false, { min: 0 }],
      ["file", "CV", false, { accept: [".pdf", ".doc", ".docx"] }]
    ]
  ],
  [
    "Event RSVP for our summer party: ask for their name, email, whether they will attend, how many guests they will bring and dietary requirements (vegetarian, vegan, gluten-free or none).",
    "Event RSVP for our summer party",
    [
      ["short_text", "Name", true],
      ["email", "Email", true],
      ["yes_no", "Will you attend?", false],
      ["number", "How many guests will you bring?", false, { min: 0 }],
      ["select", "Dietary requirements", false, { choices: ["Vegetarian", "Vegan", "Gluten-free", "None"] }]
    ]
  ],
  [
    "NPS survey",
    "NPS survey",
    [
      ["nps", "How likely are you to recommend us to a friend or colleague?", true],
      ["long_text", "What is the main reason for your score?", false]
    ]
  ],
  [
    "Create a bug report form with summary, steps to reproduce, severity (low, medium, high or critical), browser (Chrome, Firefox, Safari, Edge) and a screenshot upload (optional).",
    "Bug report form",
    [
      ["short_text", "Summary", false],
      ["long_text", "Steps to reproduce", false],
      ["select", "Severity", false, { choices: ["Low", "Medium", "High", "Critical"] }],
      ["select", "Browser", false, { choices: ["Chrome", "Firefox", "Safari", "Edge"] }],
      ["file", "Screenshot", false, { accept: ["image/*"] }]
    ]
  ],
  [
    "Customer intake form. Collect full name, company, email, phone, website, budget and a description of the project. All fields are required.",
    "Customer intake form",
    [
      ["short_text", "Name", true],
      ["short_text", "Company", true],
      ["email", "Email", true],
      ["tel", "Phone number", true],
      ["url", "Website", true],
      ["number", "Budget", true, { min: 0 }],
      ["long_text", "Description of the project", true]
    ]
  ],
  [
    "Course feedback: rate the course out of 10, rate the instructor 1-5, what did they like most, what could be improved, would they recommend it to a friend?",
    "Course feedback",
    [
      ["rating", "Rating of the course", false, { max: 10 }],
      ["rating", "Rating of the instructor", false, { max: 5 }],
      ["long_text", "What did you like most?", false],
      ["long_text", "What could be improved?", false],
      ["yes_no", "Would you recommend it to a friend?", false]
    ]
  ],
  [
    "A contact form with name and email",
    "Contact form",
    [
      ["short_text", "Name", true],
      ["email", "Email", true]
    ]
  ],
  [
    "I need a newsletter signup",
    "Newsletter signup",
    [
      ["short_text", "Name", false],
      ["email", "Email", true],
      ["legal", "I agree to receive e-mails from you and know I can unsubscribe at any time", true]
    ]
  ],
  [
    "Visit booking: ask for name, date and time of the visit, preferred arrival time, what percentage of the day they can stay (0-100), and consent to the privacy policy.",
    "Visit booking",
    [
      ["short_text", "Name", true],
      ["datetime", "Date and time of the visit", false],
      ["time", "Preferred arrival time", false],
      ["slider", "What percentage of the day can you stay?", false],
      ["legal", "Consent to the privacy policy", true]
    ]
  ],
  [
    "Hotel stay survey. Rate each of the following: room, breakfast, staff. Anything else we should know?",
    "Hotel stay survey",
    [
      [
        "matrix",
        "Rate each of the following",
        false,
        { rows: ["Room", "Breakfast", "Staff"], columns: ["Very poor", "Poor", "Fair", "Good", "Excellent"] }
      ],
      ["long_text", "Anything else we should know", false]
    ]
  ],
  [
    "Product research. Rank these in order of importance: price, speed, support. Ask for name and email.",
    "Product research",
    [
      ["ranking", "Rank these in order of importance", false, { choices: ["Price", "Speed", "Support"] }],
      ["short_text", "Name", true],
      ["email", "Email", true]
    ]
  ],
  [
    "Book club poll: name, and your favourite genre, one of crime, poetry or other.",
    "Book club poll",
    [
      ["short_text", "Name", true],
      ["select", "Favourite genre", false, { choices: ["Crime", "Poetry"], allowOther: true }]
    ]
  ],
  [
    "Volunteer waiver: name, email, I agree to the waiver terms, and sign below.",
    "Volunteer waiver",
    [
      ["short_text", "Name", true],
      ["email", "Email", true],
      ["legal", "I agree to the waiver terms", true],
      ["signature", "Signature", true]
    ]
  ],
  [
    "Warranty claim: contact details, shipping address, the billing address (optional) and a photo of the damage.",
    "Warranty claim",
    [
      ["contact", "Contact details", false],
      ["address", "Shipping address", false],
      ["address", "Billing address", false],
      ["file", "Photo of the damage", false, { accept: ["image/*"] }]
    ]
  ],
  [
    "Workshop registration. Ask for name, email, t-shirt size, one of S, M, L or XL, and which sessions they want to attend (select all that apply): Keynote, Panel, Hands-on lab.",
    "Workshop registration",
    [
      ["short_text", "Name", true],
      ["email", "Email", true],
      ["select", "T-shirt size", false, { choices: ["S", "M", "L", "XL"] }],
      ["checkboxes", "Which sessions do you want to attend?", false, { choices: ["Keynote", "Panel", "Hands-on lab"] }]
    ]
  ],
  [
    "Please create a volunteer sign-up form.\n- Name\n- Email\n- Phone (optional)\n- Which days can you help? (Saturday, Sunday)\n- Do you have a car?",
    "Volunteer sign-up form",
    [
      ["short_text", "Name", true],
      ["email", "Email", true],
      ["tel", "Phone number", false],
      ["select", "Which days can you help?", false, { choices: ["Saturday", "Sunday"] }],
      ["yes_no", "Do you have a car?", false]
    ]
  ],
  [
    "Restaurant booking: ask for name, phone number, date, number of people and any special requests.",
    "Restaurant booking",
    [
      ["short_text", "Name", true],
      ["tel", "Phone number", false],
      ["date", "Date", false],
      ["number", "Number of people", false, { min: 0 }],
      ["long_text", "Any special requests", false]
    ]
  ],
  [
    "Pet adoption application. Ask for name, email, address, whether they have a garden, how many pets they already own, and tell us why they want to adopt.",
    "Pet adoption application",
    [
      ["short_text", "Name", true],
      ["email", "Email", true],
      ["address", "Address", false],
      ["yes_no", "Do you have a garden?", false],
      ["number", "How many pets do you already own?", false, { min: 0 }],
      ["long_text", "Why do you want to adopt?", false]
    ]
  ],
  [
    "Ask for date of birth, age, and website",
    "New form",
    [
      ["date", "Date of birth", false],
      ["number", "Age", false, { min: 0 }],
      ["url", "Website", false]
    ]
  ],
  [
    "A quick poll: what is your favourite colour? Do you like pizza?",
    "Quick poll",
    [
      ["short_text", "What is your favourite colour?", false],
      ["yes_no", "Do you like pizza?", false]
    ]
  ],
  [
    "Customer satisfaction survey. How satisfied are you with our service (1-5)? What could we do better? May we contact you?",
    "Customer satisfaction survey",
    [
      ["rating", "How satisfied are you with our service?", false, { max: 5 }],
      ["long_text", "What could we do better?", false],
      ["yes_no", "May we contact you?", false]
    ]
  ],
  [
    "Product feedback form. Ask which features they use (select all that apply: Dashboard, Reports, API, Integrations), how likely they are to recommend us, and any other comments.",
    "Product feedback form",
    [
      ["checkboxes", "Which features do you use?", false, { choices: ["Dashboard", "Reports", "API", "Integrations"] }],
      ["nps", "How likely are you to recommend us?", false],
      ["long_text", "Any other comments", false]
    ]
  ],
  [
    "Conference talk proposal: speaker name, email, talk title, abstract, session length (20 min, 40 min), a photo of the speaker and a link to previous talks.",
    "Conference talk proposal",
    [
      ["short_text", "Speaker name", false],
      ["email", "Email", true],
      ["short_text", "Talk title", false],
      ["long_text", "Abstract", false],
      ["select", "Session length", false, { choices: ["20 min", "40 min"] }],
      ["file", "Photo of the speaker", false, { accept: ["image/*"] }],
      ["url", "Link to previous talks", false]
    ]
  ],
  [
    "Gym membership signup - ask for full name, email, mobile, date of birth, membership type (monthly, annual or student) and whether they have any injuries.",
    "Gym membership signup",
    [
      ["short_text", "Name", true],
      ["email", "Email", true],
      ["tel", "Phone number", false],
      ["date", "Date of birth", false],
      ["select", "Membership type", false, { choices: ["Monthly", "Annual", "Student"] }],
      ["yes_no", "Do you have any injuries?", false]
    ]
  ],
  [
    "Support ticket",
    "Support ticket",
    [
      ["short_text", "Name", true],
      ["email", "Email", true],
      ["short_text", "Subject", true],
      ["long_text", "How can we help?", true],
      ["file", "Attachment", false]
    ]
  ],
  [
    "Make a simple contact us page form",
    "Contact us page form",
    [
      ["short_text", "Name", true],
      ["email", "Email", true],
      ["long_text", "Message", true]
    ]
  ],
  [
    "Website redesign quote request. Collect company name, website URL, budget (optional), deadline, and describe your goals.",
    "Website redesign quote request",
    [
      ["short_text", "Company name", false],
      ["url", "Website URL", false],
      ["number", "Budget", false, { min: 0 }],
      ["date", "Deadline", false],
      ["long_text", "Describe your goals", false]
    ]
  ],
  [
    "Employee onboarding checklist: name, start date, department (Engineering, Sales, Marketing, Support), laptop preference (Mac or Windows), t-shirt size and emergency contact phone.",
    "Employee onboarding checklist",
    [
      ["short_text", "Name", true],
      ["date", "Start date", false],
      ["select", "Department", false, { choices: ["Engineering", "Sales", "Marketing", "Support"] }],
      ["select", "Laptop preference", false, { choices: ["Mac", "Windows"] }],
      ["short_text", "T-shirt size", false],
      ["tel", "Emergency contact phone", false]
    ]
  ],
  [
    "Scholarship application: full name, email, university, GPA, upload your transcript (required), and write an essay on why you deserve it.",
    "Scholarship application",
    [
      ["short_text", "Name", true],
      ["email", "Email", true],
      ["short_text", "University", false],
      ["number", "GPA", false],
      ["file", "Transcript", true, { accept: [".pdf", ".doc", ".docx"] }],
      ["long_text", "Write an essay on why you deserve it", false]
    ]
  ],
  [
    "Wedding RSVP",
    "Wedding RSVP",
    [
      ["short_text", "Name", true],
      ["email", "Email", true],
      ["yes_no", "Will you attend?", true],
      ["number", "How many guests will you bring?", false, { min: 0 }],
      ["long_text", "Dietary requirements", false]
    ]
  ],
  [
    "Hotel booking",
    "Hotel booking",
    [
      ["short_text", "Name", true],
      ["email", "Email", true],
      ["tel", "Phone number", false],
      ["date", "Preferred date", true],
      ["number", "Number of people", false, { min: 1 }],
      ["long_text", "Anything we should know?", false]
    ]
  ],
  [
    "Exit interview: why are they leaving, rate their manager out of 10, would they work here again (yes or no), and anything else.",
    "Exit interview",
    [
      ["long_text", "Why are you leaving?", false],
      ["rating", "Rating of your manager", false, { max: 10 }],
      ["yes_no", "Would you work here again?", false],
      ["long_text", "Anything else", false]
    ]
  ],
  [
    "Quiz night team registration: team name, captain email, number of players, and dietary needs. Everything is optional.",
    "Quiz night team registration",
    [
      ["short_text", "Team name", false],
      ["email", "Captain email", false],
      ["number", "Number of players", false, { min: 0 }],
      ["long_text", "Dietary needs", false]
    ]
  ]
]

describe("OfflineFormGenerator", () => {
  it.each(offlineCases)("%s", (prompt, title, expected) => {
    const generated = OfflineFormGenerator.generate(prompt)
    if (Result.isFailure(generated)) throw new Error(generated.failure)
    expect(generated.success.title).toBe(title)
    expect(
      generated.success.fields.map(
        (field): Expected =>
          field.options === null
            ? [field.type, field.label, field.required]
            : [field.type, field.label, field.required, field.options]
      )
    ).toEqual(expected)
  })

  it("is deterministic", () => {
    for (const [prompt] of offlineCases) {
      expect(OfflineFormGenerator.generate(prompt)).toEqual(OfflineFormGenerator.generate(prompt))
    }
  })

  it("a description with nothing to ask fails with a hint, never a made-up form", () => {
    for (const prompt of ["p".repeat(4000), "hello", "Lorem ipsum dolor sit amet."]) {
      const generated = OfflineFormGenerator.generate(prompt)
      expect(Result.isFailure(generated)).toBe(true)
      if (Result.isFailure(generated)) expect(generated.failure).toMatch(/nothing to ask/)
    }
  })

  it("writes at most 20 questions, every one valid for the API", () => {
    const many = `Ask for ${Array.from({ length: 30 }, (_, i) => `detail number ${i + 1}`).join(", ")}.`
    const generated = OfflineFormGenerator.generate(many)
    if (Result.isFailure(generated)) throw new Error(generated.failure)
    expect(generated.success.fields).toHaveLength(OfflineFormGenerator.MAX_QUESTIONS)
  })
})

// ---------------------------------------------------------------------------
// A chat-completions server
// ---------------------------------------------------------------------------

interface ModelCall {
  readonly headers: IncomingMessage["headers"]
  readonly body: {
    readonly model: string
    readonly messages: ReadonlyArray<{ readonly role: string; readonly content: string }>
    readonly response_format: { readonly type: string }
  }
}

type Reply = (call: ModelCall, index: number, res: ServerResponse) => void

/** A local HTTP server speaking the chat-completions protocol; each test sets its replies. */
const modelServer = () => {
  const calls: Array<ModelCall> = []
  let reply: Reply = (_, __, res) => res.writeHead(500).end()
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") return void res.writeHead(404).end()
      const call: ModelCall = { headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) }
      calls.push(call)
      reply(call, calls.length - 1, res)
    })
  })
  return {
    calls,
    server,
    set: (next: Reply) => {
      reply = next
      calls.length = 0
    },
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  }
}

const completion = (content: string) =>
  JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }]
  })

const answer = (res: ServerResponse, content: string) =>
  res.writeHead(200, { "content-type": "application/json" }).end(completion(content))

const goodForm = {
  title: "Bug report",
  description: "Tell us what went wrong.",
  fields: [
    { type: "short_text", id: null, label: "Summary", required: true, options: null },
    {
      type: "long_text",
      id: null,
      label: "Steps to reproduce",
      required: true,
      options: { placeholder: null, help: "One step a line" }
    },
    {
      type: "select",
      id: null,
      label: "Severity",
      required: true,
      options: { placeholder: null, help: null, choices: ["Low", "High"] }
    },
    {
      type: "rating",
      id: null,
      label: "How annoying is it?",
      required: false,
      options: { placeholder: null, help: null, max: 10 }
    },
    {
      type: "file",
      id: null,
      label: "Screenshot",
      required: false,
      options: { placeholder: null, help: null, accept: ["image/*"], maxSizeMb: 5 }
    }
  ]
}

describe("OpenAiFormGenerator against a chat-completions server", () => {
  const model = modelServer()
  beforeAll(() => new Promise<void>((resolve) => model.server.listen(0, "127.0.0.1", resolve)))
  afterAll(() => new Promise<void>((resolve) => model.server.close(() => resolve())))

  const generate = (prompt: string, config: Partial<OpenAiFormGenerator.OpenAiGeneratorConfig> = {}) =>
    Effect.runPromiseExit(
      Effect.gen(function* () {
        return yield* (yield* FormGenerator).generate(prompt)
      }).pipe(
        Effect.provide(
          OpenAiFormGenerator.layer({ baseUrl: model.url(), model: "test-model", apiKey: "sk-test", ...config })
        )
      )
    )

  const failure = (exit: Exit.Exit<unknown, GeneratorFailed>): string => {
    if (Exit.isSuccess(exit)) throw new Error("expected a failure")
    const error = exit.cause.reasons.find((reason) => reason._tag === "Fail")
    if (error === undefined || error._tag !== "Fail")
      throw new Error(`expected a GeneratorFailed, got ${String(exit.cause)}`)
    expect(error.error).toBeInstanceOf(GeneratorFailed)
    return error.error.message
  }

  it("a valid structured answer → the form with those questions, asked with a JSON Schema from FieldInput", async () => {
    model.set((_, __, res) => answer(res, JSON.stringify(goodForm)))
    const exit = await generate("a bug report form")
    if (Exit.isFailure(exit)) throw new Error(String(exit.cause))
    expect(exit.value.title).toBe("Bug report")
    expect(exit.value.description).toBe("Tell us what went wrong.")
    expect(exit.value.fields.map((field) => [field.type, field.label, field.required])).toEqual([
      ["short_text", "Summary", true],
      ["long_text", "Steps to reproduce", true],
      ["select", "Severity", true],
      ["rating", "How annoying is it?", false],
      ["file", "Screenshot", false]
    ])
    expect(model.calls).toHaveLength(1)
    const call = model.calls[0]!
    expect(call.headers.authorization).toBe("Bearer sk-test")
    expect(call.body.model).toBe("test-model")
    expect(call.body.messages.at(-1)).toEqual({ role: "user", content: "a bug report form" })
    const format = call.body.response_format as {
      type: string
      json_schema: { schema: { properties: Record<string, unknown> } }
    }
    expect(format.type).toBe("json_schema")
    expect(Object.keys(format.json_schema.schema.properties)).toEqual(["title", "description", "fields"])
    expect(JSON.stringify(format.json_schema.schema)).toContain('"checkboxes"')
  })

  it("an answer in Markdown fences with talk around it is still read", async () => {
    model.set((_, __, res) =>
      answer(res, `Here is your form:\n\`\`\`json\n${JSON.stringify(goodForm)}\n\`\`\`\nEnjoy!`)
    )
    const exit = await generate("a bug report form")
    expect(Exit.isSuccess(exit)).toBe(true)
  })

  it("invalid JSON, then valid after the repair → success with two calls; the repair carries the errors", async () => {
    model.set((_, index, res) =>
      answer(res, index === 0 ? '{"title": "Bug report", "fields": [' : JSON.stringify(goodForm))
    )
    const exit = await generate("a bug report form")
    expect(Exit.isSuccess(exit)).toBe(true)
    expect(model.calls).toHaveLength(2)
    const repair = model.calls[1]!.body.messages
    expect(repair.at(-2)).toEqual({ role: "assistant", content: '{"title": "Bug report", "fields": [' })
    expect(repair.at(-1)!.content).toMatch(/cannot be used/)
  })

  it("a form that breaks the Schema (select without choices), then fixed → success; the errors name the problem", async () => {
    const broken = {
      ...goodForm,
      fields: [{ type: "select", id: null, label: "Severity", required: true, options: null }]
    }
    model.set((_, index, res) => answer(res, JSON.stringify(index === 0 ? broken : goodForm)))
    const exit = await generate("a bug report form")
    expect(Exit.isSuccess(exit)).toBe(true)
    expect(model.calls[1]!.body.messages.at(-1)!.content).toMatch(/options/)
  })

  it("garbage twice → 502-class failure after exactly two calls", async () => {
    model.set((_, __, res) => answer(res, "I cannot help with that."))
    const message = failure(await generate("a bug report form"))
    expect(message).toMatch(/unusable form twice/)
    expect(model.calls).toHaveLength(2)
  })

  it("a server that refuses json_schema is asked again in JSON mode, with the schema in the instructions", async () => {
    model.set((call, _, res) => {
      if (call.body.response_format.type === "json_schema") {
        return void res
          .writeHead(400, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: "response_format json_schema is not supported" } }))
      }
      answer(res, JSON.stringify(goodForm))
    })
    const exit = await generate("a bug report form")
    expect(Exit.isSuccess(exit)).toBe(true)
    expect(model.calls.map((call) => call.body.response_format.type)).toEqual(["json_schema", "json_object"])
    expect(model.calls[1]!.body.messages[0]!.content).toMatch(/JSON Schema: \{/)
  })

  it("a 401 from the model server → a failure naming the model server, not our API key", async () => {
    model.set((_, __, res) => res.writeHead(401, { "content-type": "application/json" }).end('{"error":"bad key"}'))
    const message = failure(await generate("a bug report form"))
    expect(message).toContain(`model server at ${new URL(model.url()).origin}`)
    expect(message).toMatch(/refused the request \(401\)/)
    expect(message).toMatch(/QFORMS_LLM_API_KEY/)
  })

  it("a 500 from the model server → failure with its status", async () => {
    model.set((_, __, res) => res.writeHead(500).end("overloaded"))
    expect(failure(await generate("a bug report form"))).toMatch(/answered 500: overloaded/)
  })

  it("slower than the timeout → failure, without waiting for the answer", async () => {
    model.set((_, __, res) => setTimeout(() => answer(res, JSON.stringify(goodForm)), 3_000))
    const started = performance.now()
    const message = failure(await generate("a bug report form", { timeout: "300 millis" }))
    expect(message).toMatch(/did not answer within/)
    expect(performance.now() - started).toBeLessThan(2_500)
  })

  it("connection refused → failure naming the server", async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const message = failure(await generate("a bug report form", { baseUrl: `http://127.0.0.1:${port}/v1` }))
    expect(message).toContain(`model server at http://127.0.0.1:${port} could not be reached`)
  })

  // -------------------------------------------------------------------------
  describe("POST /api/v1/forms/generate", () => {
    let qforms: Qforms.Qforms
    let server: Server
    let url: string
    let ownerKey: string
    let viewerKey: string

    beforeAll(async () => {
      qforms = await Qforms.make({
        database: {},
        logLevel: "None",
        delivery: { worker: false },
        formGenerator: OpenAiFormGenerator.layer({ baseUrl: model.url(), model: "test-model", timeout: "5 seconds" })
      })
      const first = await qforms.run(Bootstrap.ensureDefaultWorkspace({ ownerEmail: "owner@example.com" }))
      if (Option.isNone(first)) throw new Error("expected a first start")
      ownerKey = first.value.key
      viewerKey = await qforms.run(
        Effect.gen(function* () {
          const viewer = yield* (yield* Members).add(first.value.workspaceId, {
            email: "viewer@example.com",
            name: "V",
            role: "viewer"
          })
          return (yield* (yield* ApiKeys).create(first.value.workspaceId, {
            accountId: viewer.accountId,
            name: "viewer"
          })).key
        }).pipe(Effect.orDie)
      )
      server = testHttpServer(qforms.nodeHandler)
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    })
    afterAll(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await qforms.dispose()
    })

    const post = async (key: string, body: unknown) => {
      const response = await fetch(`${url}/api/v1/forms/generate`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body)
      })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    }

    it("publish: true → 201 FormWithFields, published, with the model's questions and default stages", async () => {
      model.set((_, __, res) => answer(res, JSON.stringify(goodForm)))
      const reply = await post(ownerKey, { prompt: "a bug report form", publish: true })
      expect(reply.status).toBe(201)
      expect(reply.body).toMatchObject({
        title: "Bug report",
        description: "Tell us what went wrong.",
        status: "published"
      })
      const fields = reply.body.fields as Array<{ type: string; label: string; options: unknown }>
      expect(fields.map((field) => field.label)).toEqual([
        "Summary",
        "Steps to reproduce",
        "Severity",
        "How annoying is it?",
        "Screenshot"
      ])
      expect(fields[2]!.options).toEqual({ choices: ["Low", "High"] })
      const stages = await fetch(`${url}/api/forms/${reply.body.id}/stages`, {
        headers: { authorization: `Bearer ${ownerKey}` }
      })
      expect(((await stages.json()) as { stages: Array<unknown> }).stages.length).toBeGreaterThan(0)
    })

    it("without publish → a draft", async () => {
      model.set((_, __, res) => answer(res, JSON.stringify(goodForm)))
      const reply = await post(ownerKey, { prompt: "a bug report form" })
      expect(reply.status).toBe(201)
      expect(reply.body.status).toBe("draft")
    })

    it("an unreachable or unusable model → 502 {error}, and no form is created", async () => {
      const before = await fetch(`${url}/api/forms`, { headers: { authorization: `Bearer ${ownerKey}` } }).then(
        (r) => r.json() as Promise<Array<unknown>>
      )
      model.set((_, __, res) => answer(res, "no"))
      const reply = await post(ownerKey, { prompt: "a bug report form" })
      expect(reply.status).toBe(502)
      expect(reply.body.error).toMatch(/unusable form twice/)
      const after = await fetch(`${url}/api/forms`, { headers: { authorization: `Bearer ${ownerKey}` } }).then(
        (r) => r.json() as Promise<Array<unknown>>
      )
      expect(after).toHaveLength(before.length)
    })

    it("prompt over 4000 or missing → 400 before the model is asked; a viewer key → 403", async () => {
      model.set((_, __, res) => answer(res, JSON.stringify(goodForm)))
      const tooLong = await post(ownerKey, { prompt: "p".repeat(4001) })
      expect(tooLong.status).toBe(400)
      expect(tooLong.body.error).toMatch(/prompt/)
      const missing = await post(ownerKey, {})
      expect(missing.status).toBe(400)
      expect(missing.body.error).toMatch(/prompt/)
      const viewer = await post(viewerKey, { prompt: "a bug report form" })
      expect(viewer.status).toBe(403)
      expect(typeof viewer.body.error).toBe("string")
      expect(model.calls).toHaveLength(0)
    })
  })
})

describe("the offline generator through the API (the default)", () => {
  it("POST /api/v1/forms/generate without a model configured writes the form from the description", async () => {
    const qforms = await Qforms.make({ database: {}, logLevel: "None", delivery: { worker: false } })
    const server = testHttpServer(qforms.nodeHandler)
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      const first = await qforms.run(Bootstrap.ensureDefaultWorkspace({ ownerEmail: "owner@example.com" }))
      if (Option.isNone(first)) throw new Error("expected a first start")
      const post = (prompt: string) =>
        fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/forms/generate`, {
          method: "POST",
          headers: { authorization: `Bearer ${first.value.key}`, "content-type": "application/json" },
          body: JSON.stringify({ prompt })
        })
      const reply = await post("A contact form. Ask for name, email and a message.")
      expect(reply.status).toBe(201)
      const form = (await reply.json()) as { title: string; fields: Array<{ type: string; label: string }> }
      expect(form.title).toBe("Contact form")
      expect(form.fields.map((field) => field.type)).toEqual(["short_text", "email", "long_text"])
      const nothing = await post("Lorem ipsum dolor sit amet.")
      expect(nothing.status).toBe(502)
      expect(((await nothing.json()) as { error: string }).error).toMatch(/nothing to ask/)
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await qforms.dispose()
    }
  })
})
