/** The application's paths and the screen each shows, with the form or response it is about. */
import { describe, expect, it } from "vitest"
import { match } from "../src/shell/Routes.js"

describe("Routes", () => {
  it("matches each screen's path, with or without a final slash or a query", () => {
    expect(match("/app")).toEqual({ screen: "forms", titleKey: "shell.forms" })
    expect(match("/app/")).toEqual({ screen: "forms", titleKey: "shell.forms" })
    expect(match("/app/inbox?view=open")).toEqual({ screen: "workspaceInbox", titleKey: "shell.inbox" })
    expect(match("/app/forms/12")).toEqual({ screen: "builder", titleKey: "shell.titleBuilder", formId: 12 })
    expect(match("/app/forms/12/responses?view=board")).toEqual({
      screen: "inbox",
      titleKey: "shell.titleResponses",
      formId: 12
    })
    expect(match("/app/responses/7/")).toEqual({ screen: "case", titleKey: "shell.titleResponse", responseId: 7 })
    expect(match("/app/settings")).toEqual({ screen: "settings", titleKey: "shell.settings" })
    expect(match("/app/account")).toEqual({ screen: "account", titleKey: "shell.account" })
  })

  it('shows "not found" for anything else', () => {
    for (const path of ["/app/forms/abc", "/app/forms/12/edit", "/app/responses", "/apps", "/app/settings/keys"]) {
      expect(match(path), path).toEqual({ screen: "missing", titleKey: "shell.notFound" })
    }
  })
})
