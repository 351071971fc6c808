/**
 * The one build configuration of the published packages (@qforms/core and the adapters): each package's
 * `npm run build` runs `tsdown --config ../../tsdown.config.ts` in its own folder, so `src/index.ts` is its
 * package's entry and `dist/` its output. @qforms/core's build also copies the application's browser modules
 * (the private @qforms/app, never published) into its `dist/app/`, where an installed core serves them from.
 */
import { defineConfig } from "tsdown"

export default defineConfig({
  // Each package builds in its own folder: entry and dist/ are its own.
  cwd: process.cwd(),
  entry: ["src/index.ts"],
  format: "esm",
  platform: "node",
  target: "node22.19",
  dts: true,
  sourcemap: true,
  clean: true,
  fixedExtension: false,
  copy: (config) => (config.pkg?.name === "@qforms/core" ? [{ from: "../app/src", to: "dist", rename: "app" }] : [])
})
