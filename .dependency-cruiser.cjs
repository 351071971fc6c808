// The dependency rules of the source tree (issue #21), checked in CI by `npm run lint:deps`.
// Layers of packages/core/src, lowest first; a layer may import only the layers below it:
//   kernel/ (ids, errors, display text, links, signing secrets) and Options.ts (leaf configuration)
//   languages/ (language tags, the page's message catalogues)
//   storage/ (the database, migrations, notifications)
//   the bounded contexts: identity/ forms/ cases/ insights/ files/ outbox/ email/ generation/ audit/
//   delivery/ (the background worker)
//   web/ (what every surface shares: request origin, security, rate limits, error table, HTML, caching)
//   api/ (the HTTP API definition: a contract, no handlers)
//   the surfaces: http/ (API handlers, docs, event stream, inbound e-mail) mcp/ pages/ app/ — never each other
//   the composition root: Http.ts Services.ts Qforms.ts Bootstrap.ts index.ts
// Adapters, examples and the test kit see only the public entry point "@qforms/core" (examples also "@qforms/core/s3").
const core = "^packages/core/src/"
const contexts = "(identity|forms|cases|insights|files|outbox|email|generation|audit)"
const root = `${core}[^/]+\\.ts$`
const rootButOptions = `${core}(?!Options\\.ts$)[^/]+\\.ts$`
const layer = (name, from, forbidden, comment) => ({
  name,
  comment,
  severity: "error",
  from: { path: from },
  to: { path: forbidden }
})
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import cycles, type-only imports included.",
      severity: "error",
      from: {},
      to: { circular: true }
    },
    layer("kernel-is-a-leaf", `${core}kernel/`, `${core}(?!kernel/)`, "The kernel imports nothing of ours."),
    layer(
      "languages-know-the-kernel-only",
      `${core}languages/`,
      `${core}(?!languages/|kernel/)`,
      "Language tags and message catalogues know nothing of the domain."
    ),
    layer("storage-knows-no-domain", `${core}storage/`, `${core}(?!storage/|kernel/)`, "Storage knows the kernel only."),
    layer(
      "domain-knows-no-surface",
      `${core}${contexts}/`,
      `${core}(delivery|web|api|http|mcp|pages|app)/|${rootButOptions}`,
      "The domain knows no HTTP, no pages, no app, no worker, no composition root."
    ),
    layer(
      "delivery-knows-no-surface",
      `${core}delivery/`,
      `${core}(web|api|http|mcp|pages|app)/|${rootButOptions}`,
      "The worker knows the domain and storage, not the surfaces."
    ),
    layer(
      "web-knows-no-surface",
      `${core}web/`,
      `${core}(delivery|api|http|mcp|pages|app)/|${rootButOptions}`,
      "What the surfaces share knows none of them."
    ),
    layer(
      "api-definition-has-no-handlers",
      `${core}api/`,
      `${core}(delivery|http|mcp|pages|app)/|${rootButOptions}`,
      "The API definition is a contract: no handlers, no surfaces."
    ),
    layer("http-calls-no-other-surface", `${core}http/`, `${core}(mcp|pages|app)/|${root}`, "Surfaces do not call each other."),
    layer("mcp-calls-no-other-surface", `${core}mcp/`, `${core}(http|pages|app)/|${root}`, "Surfaces do not call each other."),
    layer("pages-call-no-other-surface", `${core}pages/`, `${core}(http|mcp|app|api)/|${root}`, "Surfaces do not call each other."),
    layer("app-calls-no-other-surface", `${core}app/`, `${core}(http|mcp|pages|api)/|${root}`, "Surfaces do not call each other."),
    {
      name: "adapters-see-the-entry-point",
      comment: "Adapters and examples import @qforms/core's public entry point only.",
      severity: "error",
      from: { path: "^(packages/(express|h3|node-http)|examples/[^/]+)/src/" },
      to: {
        path: "^packages/core/",
        pathNot:
          "^packages/core/(src/index\\.ts|dist/index\\.(js|d\\.ts)|src/files/S3BlobStore\\.ts|dist/files/S3BlobStore\\.(js|d\\.ts))$"
      }
    },
    {
      name: "aws-sdk-only-in-the-s3-store",
      comment: "Only the S3 store (@qforms/core/s3) loads the AWS SDK, an optional peer dependency: a host without S3 never needs it.",
      severity: "error",
      from: { path: "^packages/core/src/", pathNot: "^packages/core/src/files/S3BlobStore\\.ts$" },
      to: { path: "(^|/)node_modules/@aws-sdk/" }
    },
    {
      name: "embed-is-a-leaf",
      comment: "The embed kit is a browser module that imports nothing of ours (core reads its file to serve it, never imports it).",
      severity: "error",
      from: { path: "^packages/embed/src/" },
      to: { path: "^(packages|examples)/(?!embed/)" }
    },
    {
      name: "app-is-a-leaf",
      comment: "The application's browser code (@qforms/app) imports nothing of ours, not even a type: core serves its files (app/AppFiles.ts) and never imports them. The one exception is the next rule's.",
      severity: "error",
      from: { path: "^packages/app/src/", pathNot: "^packages/app/src/shared/Types\\.js$" },
      to: { path: "^(packages|examples)/(?!app/)" }
    },
    {
      name: "app-types-only-from-core",
      comment: "The application's JSON types are core's Schemas' encoded side, named in JSDoc in src/shared/Types.js: types only, nothing loads them.",
      severity: "error",
      from: { path: "^packages/app/src/shared/Types\\.js$" },
      to: { path: "^(packages|examples)/(?!app/)", dependencyTypesNot: ["type-only"] }
    },
    {
      name: "app-shared-knows-no-feature",
      comment: "What several of the application's features use (src/shared/: the API client, words and formats, ordering, charts, …) imports no feature's folder.",
      severity: "error",
      from: { path: "^packages/app/src/shared/" },
      to: { path: "^packages/app/src/(?!shared/)" }
    },
    {
      name: "client-is-a-leaf",
      comment: "The fetch client runs in browsers and any JavaScript runtime: it imports nothing of ours (its types are generated into its own folder).",
      severity: "error",
      from: { path: "^packages/client/src/", pathNot: "^packages/client/src/effect\\.ts$" },
      to: { path: "^(packages|examples)/(?!client/)" }
    },
    {
      name: "client-effect-sees-the-api-definition",
      comment: "@qforms/client/effect imports core's API definition only (@qforms/core/api), never the rest of core.",
      severity: "error",
      from: { path: "^packages/client/src/effect\\.ts$" },
      to: { path: "^(packages|examples)/(?!client/)", pathNot: "^packages/core/(src/api/Api\\.ts|dist/api/Api\\.(js|d\\.ts))$" }
    },
    {
      name: "test-kit-sees-the-entry-point",
      comment: "The test kit drives core as a user does: through @qforms/core's public entry point only.",
      severity: "error",
      from: { path: "^packages/test-kit/src/" },
      to: { path: "^packages/core/", pathNot: "^packages/core/(src/index\\.ts|dist/index\\.(js|d\\.ts))$" }
    },
    {
      name: "no-test-kit-in-src",
      comment: "No package's source imports the test kit; only tests do.",
      severity: "error",
      from: { path: "^(packages|examples)/[^/]+/src/", pathNot: "^packages/test-kit/" },
      to: { path: "^packages/test-kit/" }
    },
    {
      name: "no-tests-in-src",
      comment: "Source never imports a test or a test helper.",
      severity: "error",
      from: { path: "^(packages|examples)/[^/]+/src/" },
      to: { path: "/test/" }
    }
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist)/" },
    tsPreCompilationDeps: true,
    // Types named in JSDoc (`import("…").Name`) are dependencies too: the application's JavaScript has no other kind.
    detectJSDocImports: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["source", "import", "default"],
      extensions: [".ts", ".js", ".mjs"]
    }
  }
}
