/**
 * `npm start`: the qforms standalone server (see `Serve.ts`).
 *
 * This file only turns on Node's compile cache before loading the server: the
 * code of qforms and its ~350 modules, compiled (and type-stripped) once, is
 * kept on disk, so later starts skip parsing and compiling it — about a third
 * of a cold start. The cache lives in `NODE_COMPILE_CACHE` or the system's
 * temporary directory; `NODE_DISABLE_COMPILE_CACHE=1` turns it off, and a
 * start that cannot write it runs without.
 */
import { enableCompileCache } from "node:module"

enableCompileCache()
await import("./Serve.ts")
