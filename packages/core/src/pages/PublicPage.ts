/**
 * The public form page at `/f/{publicId}` (being split into `routes/`; for
 * now all of it is in `routes/Steps.ts`).
 */
export * from "./routes/Steps.ts"
