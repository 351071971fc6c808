/**
 * A bad setting stops the server before it opens anything: exit 1 and a
 * message naming the variable.
 */
import { describe, expect, it } from "vitest"
import { spawnServer } from "./support/Processes.ts"

describe("settings", () => {
  it.concurrent.each([
    [{ LOG_LEVEL: "Loud" }, /^Invalid configuration: .*\(in LOG_LEVEL\)\n$/],
    [{ LOG_FORMAT: "xml" }, /^Invalid configuration: .*"pretty".*"json".*\(in LOG_FORMAT\)\n$/s],
    [{ PORT: "70000" }, /^Invalid configuration: Expected a value between 0 and 65535 \(in PORT\)\n$/],
    [{ QFORMS_RATE_LIMIT_BURST: "many" }, /^Invalid configuration: .*\(in QFORMS_RATE_LIMIT_BURST\)\n$/],
    [{ QFORMS_FORM_GENERATOR: "gpt" }, /^Invalid configuration: .*"offline".*\(in QFORMS_FORM_GENERATOR\)\n$/s],
    [
      { QFORMS_FORM_GENERATOR: "openai" },
      /^Invalid configuration: the openai form generator needs QFORMS_LLM_BASE_URL and QFORMS_LLM_MODEL \(in QFORMS_FORM_GENERATOR\)\n$/
    ],
    [
      { QFORMS_LLM_BASE_URL: "http://127.0.0.1:11434/v1" },
      /^Invalid configuration: the openai form generator needs QFORMS_LLM_MODEL \(in QFORMS_FORM_GENERATOR\)\n$/
    ],
    [{ QFORMS_LLM_BASE_URL: "not a url", QFORMS_LLM_MODEL: "m" }, /^Invalid configuration: .*\(in QFORMS_LLM_BASE_URL\)\n$/],
    [{ QFORMS_LLM_TIMEOUT: "0" }, /^Invalid configuration: .*greater than 0.*\(in QFORMS_LLM_TIMEOUT\)\n$/],
    [{ QFORMS_PGLITE_SHARED_BUFFERS: "lots" }, /^Invalid configuration: .*kB, MB or GB.*\(in QFORMS_PGLITE_SHARED_BUFFERS\)\n$/],
    [{ QFORMS_PGLITE_SHARED_BUFFERS: "64kB" }, /^Invalid configuration: 64kB is out of range.*\(in QFORMS_PGLITE_SHARED_BUFFERS\)\n$/],
    [
      { QFORMS_PARTIAL_RESPONSE_MAX_AGE_DAYS: "0" },
      /^Invalid configuration: .*greater than 0.*\(in QFORMS_PARTIAL_RESPONSE_MAX_AGE_DAYS\)\n$/
    ],
    [{ QFORMS_EVENT_STREAMS_PER_KEY: "0" }, /^Invalid configuration: .*at least 1.*\(in QFORMS_EVENT_STREAMS_PER_KEY\)\n$/],
    [{ QFORMS_EVENT_STREAMS_MAX: "lots" }, /^Invalid configuration: .*\(in QFORMS_EVENT_STREAMS_MAX\)\n$/],
    [{ QFORMS_EVENT_STREAM_RECHECK_SECONDS: "-1" }, /^Invalid configuration: .*greater than 0.*\(in QFORMS_EVENT_STREAM_RECHECK_SECONDS\)\n$/],
    [{ QFORMS_SMTP_URL: "http://mail.example.com" }, /^Invalid configuration: QFORMS_SMTP_URL must start with smtp:\/\/ or smtps:\/\/\n$/],
    [{ QFORMS_SMTP_URL: "smtp://mail.example.com:587" }, /^Invalid configuration: QFORMS_SMTP_URL needs QFORMS_MAIL_FROM/],
    [
      { QFORMS_SMTP_URL: "smtp://mail.example.com:587", QFORMS_MAIL_FROM: "f@example.com", QFORMS_INBOUND_ADDRESS: "reply@in.example.com" },
      /^Invalid configuration: QFORMS_INBOUND_ADDRESS must contain \{token\}/
    ],
    [
      { QFORMS_SMTP_URL: "smtp://mail.example.com:587", QFORMS_MAIL_FROM: "f@example.com", QFORMS_IMAP_URL: "pop3://x" },
      /^Invalid configuration: QFORMS_IMAP_URL must look like imaps:\/\//
    ]
  ])("%j: exit 1 with a message", async (env, message) => {
    // A data directory that must never be created: nothing is opened.
    const server = spawnServer({ QFORMS_DATA_DIR: "/nonexistent/qforms-never-created", ...env })
    expect(await server.exited).toBe(1)
    expect(server.stderr()).toMatch(message)
    expect(server.stdout()).toBe("")
  })
})
