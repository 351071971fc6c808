/**
 * The face of `mail/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * from "./Mailer.ts"
export * as MailerModule from "./Mailer.ts"
export * from "./MailParsing.ts"
export * from "./QuotedText.ts"
export * from "./MailLanguages.ts"
