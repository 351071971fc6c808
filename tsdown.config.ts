/**
 * The one build configuration of the published packages (@qforms/core and the adapters): each package's
 * `npm run build` runs `tsdown --config ../../tsdown.config.ts` in its own folder, so `src/index.ts` is its
 * package's entry and `dist/` its output.
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
  fixedExtension: false
})
