/**
 * The face of `forms/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * from "./Answers.ts"
export * from "./BusinessHours.ts"
export * from "./Endings.ts"
export * as EndingsModule from "./Endings.ts"
export * from "./Fields.ts"
export * as FormCacheModule from "./FormCache.ts"
export * from "./FormFiles.ts"
export * from "./FormLogic.ts"
export * as FormLogic from "./FormLogic.ts"
export * from "./FormResponseCount.ts"
export * from "./Forms.ts"
export * from "./FormSettings.ts"
export * from "./FormStatus.ts"
export * from "./ImageRefs.ts"
export * from "./Pages.ts"
export type {
  AnswerControl,
  Entered,
  PageView,
  QuestionField,
  SheetCell,
  SheetColumn,
  SummaryHints,
  TallyKeys,
  TallySql
} from "./questions/QuestionType.ts"
export * as QuestionTypes from "./questions/QuestionTypes.ts"
export * as SheetColumns from "./questions/SheetColumns.ts"
export * from "./Sensitive.ts"
export * as Sensitive from "./Sensitive.ts"
export * from "./Sla.ts"
export * as Sla from "./Sla.ts"
export * from "./Stages.ts"
export * from "./Summaries.ts"
export * as Summaries from "./Summaries.ts"
export * from "./Theme.ts"
export * from "./Translations.ts"
export * as TranslationsModule from "./Translations.ts"
export * from "./WorkspaceSettings.ts"
