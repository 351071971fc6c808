// The dependency rules of the source tree (issues #21 and #50), checked in CI by `npm run lint:deps`.
// The folders of packages/core/src in one order, lowest first (tools/Contexts.json, which
// docs/architecture.md's tree is generated from): a folder imports only the folders before it, and
// only through their index.ts (its face). Options.ts is a leaf every folder may read. The composition
// root (the files at the top of src/: Http.ts, Services.ts, Qforms.ts, Bootstrap.ts, NodeTransport.ts)
// sees every folder, through its face too; the public entry point index.ts re-exports modules by path.
// The surfaces (http, mcp, pages, app) never import each other; pages and app not the API definition.
// Adapters, examples and the test kit see only the public entry point "@qforms/core" (examples also "@qforms/core/s3").
const order = require("./tools/Contexts.json").map(([folder]) => folder)
const core = "^packages/core/src/"
const root = `${core}[^/]+\\.ts$`
const rootButOptions = `${core}(?!Options\\.ts$)[^/]+\\.ts$`
const layer = (name, from, forbidden, comment) => ({
  name,
  comment,
  severity: "error",
  from: { path: from },
  to: { path: forbidden }
})
/** Folder `order[i]` may import none of the folders from `order[i]` on (but itself), nor the composition root. */
const inOrder = order.map((folder, i) => {
  const later = order.slice(i + 1)
  return layer(
    `${folder}-imports-only-earlier-folders`,
    `${core}${folder}/`,
    later.length === 0 ? rootButOptions : `${core}(${later.join("|")})/|${rootButOptions}`,
    `${folder}/ imports only ${i === 0 ? "nothing of ours" : `the folders before it (${order.slice(0, i).join(", ")})`}.`
  )
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
    ...inOrder,
    {
      name: "another-folder-through-its-face",
      comment: "A folder of core is imported from outside only through its index.ts.",
      severity: "error",
      from: { path: `${core}([^/]+)/` },
      to: { path: `${core}[^/]+/`, pathNot: [`${core}$1/`, `${core}[^/]+/index\\.ts$`] }
    },
    {
      name: "the-root-through-faces",
      comment: "The composition root imports a folder through its index.ts (the public entry point re-exports modules by path).",
      severity: "error",
      from: { path: `${core}(?!index\\.ts$)[^/]+\\.ts$` },
      to: { path: `${core}[^/]+/(?!index\\.ts$)` }
    },
    {
      name: "not-its-own-face",
      comment: "A folder's modules import each other directly, never their own index.ts (which would load the whole folder first).",
      severity: "error",
      from: { path: `${core}([^/]+)/`, pathNot: `${core}[^/]+/index\\.ts$` },
      to: { path: `${core}$1/index\\.ts$` }
    },
    {
      name: "statements-stay-in-contexts",
      comment:
        "The surfaces and what they share run no SQL of their own (effect/sql's types may name errors): statements live in the contexts, storage/ and ops/.",
      severity: "error",
      from: { path: `${core}(web|api|http|mcp|pages|app)/` },
      to: { path: "(^|/)node_modules/effect/.*/sql/", dependencyTypesNot: ["type-only"] }
    },
    layer("http-calls-no-other-surface", `${core}http/`, `${core}(mcp|pages|app)/`, "Surfaces do not call each other."),
    layer("mcp-calls-no-other-surface", `${core}mcp/`, `${core}(http|pages|app)/`, "Surfaces do not call each other."),
    layer("pages-call-no-other-surface", `${core}pages/`, `${core}(http|mcp|app|api)/`, "Surfaces do not call each other."),
    layer("app-calls-no-other-surface", `${core}app/`, `${core}(http|mcp|pages|api)/`, "Surfaces do not call each other."),
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
    exclude: { path: "^(packages|examples)/[^/]+/dist/" },
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
