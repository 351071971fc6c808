/**
 * The public surface of `@qforms/core`: the entry point exports what a host
 * needs (see src/index.ts) and no internals, and the adapters, examples,
 * bench and reliability suite import only that entry point from core.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, resolve } from "node:path"
import { describe, expect, it } from "vitest"
import * as Core from "../src/index.ts"

const root = resolve(import.meta.dirname, "../../..")

/** Every .ts file under `dir`, node_modules and dist left out. */
const sources = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    if (name === "node_modules" || name === "dist") return []
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sources(path) : name.endsWith(".ts") ? [path] : []
  })

describe("the public surface of @qforms/core", () => {
  it("exports what a host needs and no internals", () => {
    expect(Object.keys(Core).sort()).toEqual([
      "Accounts",
      "Actors",
      "Answers",
      "Api",
      "ApiKeys",
      "AuditLog",
      "BlobStore",
      "Bootstrap",
      "Database",
      "DatabaseBackup",
      "DatabaseCopy",
      "Errors",
      "Fields",
      "FormGenerator",
      "Forms",
      "Ids",
      "Languages",
      "Mailer",
      "Members",
      "Messages",
      "Notes",
      "OpenAiFormGenerator",
      "Options",
      "Passwords",
      "PgliteClient",
      "PublicPage",
      "Qforms",
      "RateLimitStore",
      "Redact",
      "Responses",
      "RetrySchedule",
      "Services",
      "Sessions",
      "Stages",
      "Translations",
      "Webhooks",
      "Workspaces"
    ])
    expect(typeof Core.Qforms.make).toBe("function")
    expect(typeof Core.Qforms.layer).toBe("function")
    expect(typeof Core.Bootstrap.ensureDefaultWorkspace).toBe("function")
  })

  it("exports the API definition alone at @qforms/core/api (for @qforms/client/effect)", async () => {
    const manifest = JSON.parse(readFileSync(join(root, "packages/core/package.json"), "utf8"))
    expect(manifest.exports["./api"].source).toBe("./src/api/Api.ts")
    const api = await import("../src/api/Api.ts")
    expect(api.Documented).toBeDefined()
    expect(api.Api).toBe(Core.Api.Api)
  })

  it("exports the S3 store alone at @qforms/core/s3; nothing else of core loads the AWS SDK", async () => {
    const manifest = JSON.parse(readFileSync(join(root, "packages/core/package.json"), "utf8"))
    expect(manifest.exports["./s3"].source).toBe("./src/files/S3BlobStore.ts")
    expect(manifest.peerDependencies["@aws-sdk/client-s3"]).toBeDefined()
    expect(manifest.peerDependenciesMeta["@aws-sdk/client-s3"]).toEqual({ optional: true })
    expect(manifest.dependencies["@aws-sdk/client-s3"]).toBeUndefined()
    const s3 = await import("../src/files/S3BlobStore.ts")
    expect(Object.keys(s3).sort()).toEqual(["layer", "make", "minimumPartSize"])
    const importing = sources(join(root, "packages/core/src"))
      .filter((file) => /from "@aws-sdk\//.test(readFileSync(file, "utf8")))
      .map((file) => file.slice(root.length + 1))
    expect(importing).toEqual(["packages/core/src/files/S3BlobStore.ts"])
    expect(readFileSync(join(root, "packages/core/src/index.ts"), "utf8")).not.toMatch(/S3BlobStore/)
  })

  it("is the only way the adapters' and examples' code reaches core", () => {
    const shipped = [
      "packages/node-http/src",
      "packages/express/src",
      "packages/h3/src",
      "examples/standalone/src",
      "examples/express-host/src",
      "examples/h3-host/src"
    ]
    const reaching = shipped
      .flatMap((dir) => sources(join(root, dir)))
      .filter((file) => /from "[^"]*core\/src\//.test(readFileSync(file, "utf8")))
      .map((file) => file.slice(root.length + 1))
    expect(reaching).toEqual([])
  })
})
