/**
 * The face of `email/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export {
  type DigestContent,
  type DigestLanguage,
  digestLanguages,
  languageOf,
  render as renderDigest,
  type TopAnswer,
  unsubscribePage
} from "./DigestEmail.ts"
export * from "./DigestSchedule.ts"
export * from "./EmailReplies.ts"
export * as MailErasure from "./MailErasure.ts"
export * from "./RespondentEmails.ts"
export * from "./EmailTokens.ts"
export * as EmailRepliesModule from "./EmailReplies.ts"
