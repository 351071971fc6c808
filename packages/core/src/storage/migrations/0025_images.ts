/**
 * Migration 0025_images. A workspace's image library (files/Images.ts):
 * pictures its forms show (a theme's logo, images on choices), uploaded by
 * its members and kept until deleted. The bytes live in the blob store under
 * `<workspace id>/<image id>`, as uploaded files' do; the row records them.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table images (
      id text primary key,
      workspace_id integer not null references workspaces(id) on delete cascade,
      name text not null,
      size integer not null,
      type text not null,
      width integer,
      height integer,
      storage_key text not null,
      created_at timestamptz not null
    )`
  yield* sql`create index images_workspace_created on images (workspace_id, created_at desc, id desc)`
})
