/**
 * A workspace's settings of its forms' pages (`workspace_page_settings`, migration 0023), one JSON
 * object whose keys are all optional; an unknown key is refused, naming the
 * allowed ones:
 *
 * - `auditRetentionDays`: how long the audit log keeps an entry (`audit/AuditLog.ts`), 30 to 3650 days,
 *   default 365; the hourly prune reads it.
 * - `theme`: the theme of the public pages of the workspace's forms that have
 *   no theme of their own (`settings.theme` of a form wins whole, it is not
 *   merged), checked for contrast as a form's is (`forms/Theme.ts`).
 * - `businessHours`: the time zone, each weekday's intervals and the holidays
 *   the forms' SLAs count business time in (`forms/BusinessHours.ts`,
 *   `forms/Sla.ts`); absent, their clock runs 24/7 in UTC.
 *
 * Every member reads them (`GET /workspace/settings`); owners and admins
 * replace them (`PUT /workspace/settings`). The public page reads the theme
 * on every screen, so each process keeps the settings it read in memory
 * while the change feed is live; a change NOTIFYs `workspace:<id>` (a
 * trigger, migration 0023) and every process drops them.
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { Actors, type Forbidden, InvalidInput, strictStruct } from "../kernel/index.ts"
import { AuditLogModule as AuditLog } from "../audit/index.ts"
import { FormFiles } from "./FormFiles.ts"
import { ChangeFeedModule as ChangeFeed, StoredJson } from "../storage/index.ts"
import { BusinessHours } from "./BusinessHours.ts"
import { Theme } from "./Theme.ts"

/**
 * A workspace's settings: every key optional, unknown keys refused. `PUT
 * /workspace/settings` replaces them all.
 *
 * @example
 * ```ts
 * Schema.decodeUnknownSync(WorkspaceSettings)({ theme: { mode: "dark", radius: 0 } })
 * ```
 */
export const WorkspaceSettings = strictStruct(
  {
    theme: Schema.optionalKey(Schema.NullOr(Theme)).annotate({
      description:
        "The theme of the public pages of the workspace's forms that have no theme of their own (null or absent: none)."
    }),
    auditRetentionDays: Schema.optionalKey(
      Schema.NullOr(
        Schema.Int.check(
          Schema.isBetween(
            {
              minimum: AuditLog.minimumRetentionDays,
              maximum: 3650
            },
            {
              message: `auditRetentionDays must be a whole number of days from ${AuditLog.minimumRetentionDays} to 3650`
            }
          )
        )
      )
    ).annotate({
      description: `How long the audit log keeps an entry, in days (default ${AuditLog.defaultRetentionDays}, at least ${AuditLog.minimumRetentionDays}).`
    }),
    businessHours: Schema.optionalKey(Schema.NullOr(BusinessHours)).annotate({
      description:
        "When the workspace works, for the forms' SLAs (`settings.sla` of a form): a time zone, each day's " +
        "intervals and holidays. Null or absent: the SLA clock runs 24/7 in UTC."
    })
  },
  "workspace setting"
).annotate({
  identifier: "WorkspaceSettings",
  description: "Extension: settings of the whole workspace (the default theme of its forms' pages)."
})

/** Decoded {@link WorkspaceSettings}. @example `const s: WorkspaceSettings = { theme: { font: "serif" } }` */
export type WorkspaceSettings = typeof WorkspaceSettings.Type

/** The notice a change of a workspace's settings sends on the change feed (migration 0023). */
export const workspaceNotice = "workspace:"

const decodeSettings = StoredJson.decode(WorkspaceSettings, "workspace_page_settings.settings")

/**
 * Reading and replacing a workspace's settings, and the theme its forms'
 * pages wear by default.
 *
 * @example
 * ```ts
 * const settings = yield* WorkspaceSettingsStore
 * yield* settings.replace(actor, { theme: { mode: "dark" } })
 * const theme = yield* settings.themeOf(actor.workspaceId) // { mode: "dark" }
 * ```
 */
export class WorkspaceSettingsStore extends Context.Service<
  WorkspaceSettingsStore,
  {
    /** The settings of the actor's workspace (any member). */
    readonly get: (actor: Actors.Actor) => Effect.Effect<WorkspaceSettings, SqlError.SqlError>
    /** Replaces the settings of the actor's workspace (owners and admins). */
    readonly replace: (
      actor: Actors.Actor,
      settings: WorkspaceSettings
    ) => Effect.Effect<WorkspaceSettings, Forbidden | InvalidInput | SqlError.SqlError>
    /** The default theme of a workspace's forms' pages, if it has one: kept in memory while the feed is live. */
    readonly themeOf: (workspaceId: number) => Effect.Effect<Theme | undefined, SqlError.SqlError>
    /** A workspace's business hours, if it has them (the SLAs' clock): kept in memory while the feed is live. */
    readonly businessHoursOf: (workspaceId: number) => Effect.Effect<BusinessHours | undefined, SqlError.SqlError>
  }
>()("@qforms/core/WorkspaceSettings") {
  static readonly layer = Layer.effect(
    WorkspaceSettingsStore,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const files = yield* FormFiles
      const kept = yield* ChangeFeed.keep<WorkspaceSettings>("workspace settings", {
        capacity: 1_000,
        onNotice: (notice, kept) => {
          if (notice.startsWith(workspaceNotice)) kept.drop(notice.slice(workspaceNotice.length))
        }
      })

      const read = Effect.fnUntraced(function* (workspaceId: number) {
        const cached = kept.get(String(workspaceId))
        if (cached !== undefined) return cached
        const stamp = kept.stamp()
        const rows = yield* sql<{ readonly settings: unknown }>`
          select settings from workspace_page_settings where workspace_id = ${workspaceId}`
        const settings = rows.length === 0 ? {} : yield* decodeSettings(rows[0]!.settings)
        kept.put(stamp, String(workspaceId), settings)
        return settings
      })

      const get = Effect.fn("WorkspaceSettings.get")(function* (actor: Actors.Actor) {
        return yield* read(actor.workspaceId)
      })

      const replace = Effect.fn("WorkspaceSettings.replace")(function* (actor: Actors.Actor, given: WorkspaceSettings) {
        yield* Actors.requireAdmin(actor)
        // A setting given as null is cleared: stored as absent.
        const settings = Object.fromEntries(
          Object.entries(given).filter(([, value]) => value !== null)
        ) as WorkspaceSettings
        const logo = settings.theme?.logo
        yield* Effect.ensuring(
          sql.withTransaction(
            Effect.gen(function* () {
              // The check's share lock keeps the logo from being deleted until the save commits.
              if (logo !== undefined && (yield* files.missingImages(actor.workspaceId, [logo])).length > 0) {
                const message = `theme.logo: no image ${logo} in this workspace (upload images with POST /api/images)`
                return yield* new InvalidInput({ message, details: [{ path: "theme.logo", message }] })
              }
              const before = yield* read(actor.workspaceId)
              const keys = [...new Set([...Object.keys(before), ...Object.keys(settings)])].filter(
                (key) =>
                  JSON.stringify(before[key as keyof WorkspaceSettings]) !==
                  JSON.stringify(settings[key as keyof WorkspaceSettings])
              )
              if (keys.length > 0)
                yield* AuditLog.record(sql, actor, {
                  action: "workspace.settings_changed",
                  target: { type: "workspace", id: actor.workspaceId },
                  details: { keys }
                })
              yield* sql`
              insert into workspace_page_settings (workspace_id, settings)
              values (${actor.workspaceId}, ${JSON.stringify(settings)}::jsonb)
              on conflict (workspace_id) do update set settings = excluded.settings`
            })
          ),
          // Other processes hear the trigger's notice; this one drops its copy at once.
          Effect.sync(() => kept.drop(String(actor.workspaceId)))
        )
        return settings
      })

      const themeOf = (workspaceId: number) => Effect.map(read(workspaceId), (settings) => settings.theme ?? undefined)

      const businessHoursOf = (workspaceId: number) =>
        Effect.map(read(workspaceId), (settings) => settings.businessHours ?? undefined)

      return WorkspaceSettingsStore.of({ get, replace, themeOf, businessHoursOf })
    })
  )
}
