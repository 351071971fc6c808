/**
 * The face of `kernel/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * from "./Actors.ts"
export * as Actors from "./Actors.ts"
export * from "./ConstantTime.ts"
export * from "./DisplayText.ts"
export * from "./Errors.ts"
export * from "./Html.ts"
export * from "./Ids.ts"
export * as Ids from "./Ids.ts"
export * from "./JsonSchemas.ts"
export * from "./Links.ts"
export * as Links from "./Links.ts"
export * from "./SignedJson.ts"
export * as SigningSecrets from "./SigningSecrets.ts"
export * from "./StrictStruct.ts"
export * from "./Tags.ts"
export * from "./TimeZones.ts"
