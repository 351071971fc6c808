/**
 * Per-form notification channels (Slack, Discord, Teams, a sheet, e-mail, any
 * URL). A channel is a delivery target beside webhook subscriptions: its
 * deliveries are written with the event and sent by the same worker.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table notification_channels (
      id text primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      form_id integer not null references forms (id) on delete cascade,
      position integer not null,
      type text not null check (type in ('slack', 'discord', 'teams', 'sheet', 'email', 'url')),
      enabled boolean not null,
      events text[] not null,
      config jsonb not null,
      secret text not null,
      created_at timestamptz not null,
      last_sent_at timestamptz
    )`
  yield* sql`create index notification_channels_form on notification_channels (form_id, position)`
  yield* sql`alter table deliveries alter column subscription_id drop not null`
  yield* sql`alter table deliveries add column channel_id text references notification_channels (id) on delete cascade`
  yield* sql`alter table deliveries add constraint deliveries_one_target check (num_nonnulls(subscription_id, channel_id) = 1)`
  yield* sql`create index deliveries_channel on deliveries (channel_id, id desc) where channel_id is not null`
})
