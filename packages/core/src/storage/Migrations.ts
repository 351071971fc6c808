/**
 * The one set of migrations, run on PostgreSQL and on PGlite alike: one module
 * per migration in `migrations/`, named by its id, listed here in order.
 *
 * Tables are created unqualified: the connection's `search_path` starts with
 * the configured qforms schema (see `Database.ts`), so qforms can live in its
 * own schema of a host application's database.
 *
 * A migration that has landed is history: deployed databases have run it and
 * record its id and name in `qforms_migrations`, so it is never edited,
 * renamed or renumbered — `test/Migrations.test.ts` compares every file with
 * the checksum recorded in `migrations/checksums.json`, and CI checks that
 * `schema.sql` (`npm run db:schema`) is the schema they build. A change is a
 * new migration with the next id. Ids 0004, 0005 and 0013–0015 were skipped
 * when migrations were numbered and never existed; the gaps stay, since
 * renumbering would make deployed databases run a migration twice.
 */
import * as Migrator from "effect/sql/Migrator"
import m0001_initial from "./migrations/0001_initial.ts"
import m0002_webhookSubscriptions from "./migrations/0002_webhook_subscriptions.ts"
import m0003_deliveries from "./migrations/0003_deliveries.ts"
import m0006_files from "./migrations/0006_files.ts"
import m0007_signingSecrets from "./migrations/0007_signing_secrets.ts"
import m0008_notificationChannels from "./migrations/0008_notification_channels.ts"
import m0009_formLogic from "./migrations/0009_form_logic.ts"
import m0010_respondentEmails from "./migrations/0010_respondent_emails.ts"
import m0011_appSignIn from "./migrations/0011_app_sign_in.ts"
import m0012_identityHardening from "./migrations/0012_identity_hardening.ts"
import m0016_streamHardening from "./migrations/0016_stream_hardening.ts"
import m0017_invitations from "./migrations/0017_invitations.ts"
import m0018_uploadQuotas from "./migrations/0018_upload_quotas.ts"
import m0019_formChanges from "./migrations/0019_form_changes.ts"
import m0020_accountNameChanges from "./migrations/0020_account_name_changes.ts"
import m0021_formSettings from "./migrations/0021_form_settings.ts"
import m0022_fieldCalculations from "./migrations/0022_field_calculations.ts"
import m0023_workspaceSettings from "./migrations/0023_workspace_settings.ts"
import m0024_workspacePageSettings from "./migrations/0024_workspace_page_settings.ts"
import m0025_images from "./migrations/0025_images.ts"
import m0026_fieldPages from "./migrations/0026_field_pages.ts"
import m0027_translations from "./migrations/0027_translations.ts"
import m0028_account_language from "./migrations/0028_account_language.ts"
import m0029_insights from "./migrations/0029_insights.ts"
import m0030_digests from "./migrations/0030_digests.ts"
import m0031_tallyUpsert from "./migrations/0031_tally_upsert.ts"
import m0032_eventCatalogue from "./migrations/0032_event_catalogue.ts"
import m0033_webhookAlerts from "./migrations/0033_webhook_alerts.ts"
import m0034_workspaceSubscriptions from "./migrations/0034_workspace_subscriptions.ts"
import m0035_auditLog from "./migrations/0035_audit_log.ts"
import m0036_privacy from "./migrations/0036_privacy.ts"
import m0037_rateLimitBuckets from "./migrations/0037_rate_limit_buckets.ts"
import m0038_retention from "./migrations/0038_retention.ts"
import m0039_sensitiveQuestions from "./migrations/0039_sensitive_questions.ts"
import m0040_sla from "./migrations/0040_sla.ts"
import m0041_assignmentRules from "./migrations/0041_assignment_rules.ts"
import m0042_statusLinks from "./migrations/0042_status_links.ts"
import m0043_assignmentRulesNotice from "./migrations/0043_assignment_rules_notice.ts"
import m0044_resumeLinks from "./migrations/0044_resume_links.ts"
import m0045_responseMerges from "./migrations/0045_response_merges.ts"
import m0046_workspaceInbox from "./migrations/0046_workspace_inbox.ts"
import m0047_caseFields from "./migrations/0047_case_fields.ts"
import m0048_savedViews from "./migrations/0048_saved_views.ts"
import m0050_resumeLinkAccess from "./migrations/0050_resume_link_access.ts"

/**
 * Every migration of qforms, in order. Add new ones at the end; never edit a
 * landed one.
 */
export const loader = Migrator.fromRecord({
  "0001_initial": m0001_initial,
  "0002_webhook_subscriptions": m0002_webhookSubscriptions,
  "0003_deliveries": m0003_deliveries,
  "0006_files": m0006_files,
  "0007_signing_secrets": m0007_signingSecrets,
  "0008_notification_channels": m0008_notificationChannels,
  "0009_form_logic": m0009_formLogic,
  "0010_respondent_emails": m0010_respondentEmails,
  "0011_app_sign_in": m0011_appSignIn,
  "0012_identity_hardening": m0012_identityHardening,
  "0016_stream_hardening": m0016_streamHardening,
  "0017_invitations": m0017_invitations,
  "0018_upload_quotas": m0018_uploadQuotas,
  "0019_form_changes": m0019_formChanges,
  "0020_account_name_changes": m0020_accountNameChanges,
  "0021_form_settings": m0021_formSettings,
  "0022_field_calculations": m0022_fieldCalculations,
  "0023_workspace_settings": m0023_workspaceSettings,
  "0024_workspace_page_settings": m0024_workspacePageSettings,
  "0025_images": m0025_images,
  "0026_field_pages": m0026_fieldPages,
  "0027_translations": m0027_translations,
  "0028_account_language": m0028_account_language,
  "0029_insights": m0029_insights,
  "0030_digests": m0030_digests,
  "0031_tally_upsert": m0031_tallyUpsert,
  "0032_event_catalogue": m0032_eventCatalogue,
  "0033_webhook_alerts": m0033_webhookAlerts,
  "0034_workspace_subscriptions": m0034_workspaceSubscriptions,
  "0035_audit_log": m0035_auditLog,
  "0036_privacy": m0036_privacy,
  "0037_rate_limit_buckets": m0037_rateLimitBuckets,
  "0038_retention": m0038_retention,
  "0039_sensitive_questions": m0039_sensitiveQuestions,
  "0040_sla": m0040_sla,
  "0041_assignment_rules": m0041_assignmentRules,
  "0042_status_links": m0042_statusLinks,
  "0043_assignment_rules_notice": m0043_assignmentRulesNotice,
  "0044_resume_links": m0044_resumeLinks,
  "0045_response_merges": m0045_responseMerges,
  "0046_workspace_inbox": m0046_workspaceInbox,
  "0047_case_fields": m0047_caseFields,
  "0048_saved_views": m0048_savedViews,
  "0050_resume_link_access": m0050_resumeLinkAccess
})

/**
 * Runs the migrations that have not run yet (in one transaction, with a lock
 * on PostgreSQL so concurrent starts do not race).
 */
export const run = Migrator.make({})({ loader, table: "qforms_migrations" })
