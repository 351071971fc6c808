/**
 * The public page's style sheet and its progressive-enhancement script, both
 * inline under the page's CSP nonce (no framework, no external request).
 *
 * Without the script every step is a plain form post that renders the next
 * screen. With it, the same posts go through `fetch` and only `<main>` is
 * swapped: no full reload, focus moved to the new question, Enter to go on
 * (Shift+Enter for a new line in long text), and file uploads sent ahead of
 * the step with a progress bar (XHR, for its upload progress events).
 */

/** The style sheet: readable without a framework, light and dark, visible focus, narrow screens first. */
export const css = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1a1a1a;--muted:#4a4a4a;--line:#767676;--accent:#0b57d0;--accent-fg:#fff;--error:#b3261e;--soft:#f1f4f9}
@media (prefers-color-scheme:dark){:root{--bg:#121212;--fg:#ececec;--muted:#c4c4c4;--line:#8a8a8a;--accent:#a8c7fa;--accent-fg:#062e6f;--error:#ffb4ab;--soft:#1f2328}}
*{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:18px;line-height:1.5;background:var(--bg);color:var(--fg)}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:1.5rem 1rem}
main{width:100%;max-width:40rem}
main:focus{outline:none}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 .75rem}
.form-title{font-size:.95rem;font-weight:600;color:var(--muted);margin:0 0 1rem}
.description,.help,.hint,.count{color:var(--muted)}
.question{display:block;font-size:1.35rem;font-weight:600;line-height:1.3;margin:0 0 .5rem;padding:0}
fieldset{border:0;margin:0;padding:0;min-width:0}
.req{color:var(--error);margin-left:.2em}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
input[type=text],input[type=email],input[type=tel],input[type=url],input[type=number],input[type=date],textarea,select{width:100%;font:inherit;color:inherit;background:transparent;border:0;border-bottom:2px solid var(--line);padding:.4rem .1rem;margin:.5rem 0}
textarea{min-height:6rem;border:2px solid var(--line);border-radius:.3rem;padding:.5rem;resize:vertical}
select{border:2px solid var(--line);border-radius:.3rem;background:var(--bg)}
input[type=file]{font:inherit;margin:.75rem 0}
.choices{display:flex;flex-direction:column;gap:.5rem;margin:.75rem 0}
.choice{display:flex;align-items:center;gap:.6rem;border:2px solid var(--line);border-radius:.4rem;padding:.5rem .75rem;cursor:pointer;background:var(--soft)}
.choice input{width:1.1rem;height:1.1rem;margin:0;accent-color:var(--accent)}
.rating{flex-direction:row;flex-wrap:wrap}
.rating .choice{min-width:3rem;justify-content:center}
.yes-no{flex-direction:row}
.actions{display:flex;flex-wrap:wrap;align-items:center;gap:.75rem;margin-top:1.25rem}
button{font:inherit;font-weight:600;border-radius:.4rem;padding:.5rem 1.2rem;cursor:pointer;border:2px solid var(--accent)}
.ok{background:var(--accent);color:var(--accent-fg)}
.back{background:transparent;color:var(--fg);border-color:var(--line);order:-1}
.hint{font-size:.85rem}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.choice:focus-within{outline:3px solid var(--accent);outline-offset:2px}
.error{color:var(--error);font-weight:600;margin:.5rem 0 0}
.error:empty{display:none}
.progress{display:flex;align-items:center;gap:.75rem;margin-bottom:1.5rem;font-size:.85rem;color:var(--muted)}
.progress progress{flex:1;height:.5rem;accent-color:var(--accent)}
.upload{width:100%}
.hp{position:absolute;left:-10000px;top:auto;width:1px;height:1px;overflow:hidden}
@media (max-width:30rem){html{font-size:16px}.question{font-size:1.2rem}}
`

/** The progressive-enhancement script (plain ES2020, no dependency). */
export const script = `
(() => {
  "use strict";
  const main = document.getElementById("qf");
  if (!main || !window.fetch || !window.DOMParser) return;
  let busy = false;

  const focusScreen = () => {
    const error = main.querySelector("[aria-invalid=true]");
    const target = error || main.querySelector("input:checked:not([type=hidden]), input:not([type=hidden]):not([tabindex='-1']), textarea, select, [data-focus]");
    if (target) target.focus(); else main.focus();
  };

  const enhance = () => {
    const form = main.querySelector("form");
    if (!form) return;
    form.noValidate = true;
    const file = form.querySelector("input[type=file]");
    if (!file) return;
    const answer = form.querySelector("input[name=a]");
    const bar = form.querySelector("progress.upload");
    const status = form.querySelector(".upload-status");
    const error = form.querySelector(".error");
    file.addEventListener("change", () => {
      const chosen = file.files && file.files[0];
      if (!chosen) return;
      const body = new FormData();
      body.append("file", chosen);
      const xhr = new XMLHttpRequest();
      xhr.open("POST", location.pathname.replace(/\\/$/, "") + "/uploads?fieldId=" + encodeURIComponent(file.dataset.field));
      xhr.setRequestHeader("accept", "application/json");
      busy = true;
      bar.hidden = false;
      bar.value = 0;
      status.textContent = "Uploading " + chosen.name + "…";
      xhr.upload.addEventListener("progress", (e) => { if (e.lengthComputable) bar.value = e.loaded / e.total; });
      const done = (message, ok) => {
        busy = false;
        bar.hidden = !ok;
        status.textContent = ok ? message : "";
        error.textContent = ok ? "" : message;
        file.setAttribute("aria-invalid", ok ? "false" : "true");
      };
      xhr.addEventListener("load", () => {
        let body = null;
        try { body = JSON.parse(xhr.responseText); } catch (e) { body = null; }
        if (xhr.status === 201 && body) {
          answer.value = xhr.responseText;
          bar.value = 1;
          done("Uploaded " + body.name, true);
        } else {
          answer.value = "";
          file.value = "";
          done((body && body.error) || "The upload failed (HTTP " + xhr.status + ")", false);
        }
      });
      xhr.addEventListener("error", () => done("The upload failed: the connection was lost", false));
      xhr.send(body);
    });
  };

  main.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    event.preventDefault();
    if (busy) return;
    busy = true;
    const data = new FormData(form);
    data.delete("file");
    const submitter = event.submitter;
    if (submitter && submitter.name) data.set(submitter.name, submitter.value);
    for (const button of form.querySelectorAll("button")) button.disabled = true;
    try {
      const response = await fetch(location.href, { method: "POST", body: data, headers: { "x-qforms-page": "1" } });
      // The page's own style and script are left out: only <main> is used, and a parsed copy of them
      // would only be refused by the CSP (their nonce is the new page's, not this one's).
      const text = (await response.text()).replace(/<style[\\s\\S]*?<\\/style>|<script[\\s\\S]*?<\\/script>/g, "");
      const doc = new DOMParser().parseFromString(text, "text/html");
      const next = doc.getElementById("qf");
      if (!next) throw new Error("unexpected answer");
      main.innerHTML = next.innerHTML;
      document.title = doc.title;
      busy = false;
      enhance();
      focusScreen();
    } catch (e) {
      busy = false;
      form.submit();
    }
  });

  // Enter goes on from any control but a button or link (which Enter activates anyway) and a text
  // field (where the browser submits the form itself); Shift+Enter keeps its meaning (a new line in long text).
  main.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.shiftKey || event.isComposing) return;
    const target = event.target;
    const tag = target.tagName;
    if (tag === "BUTTON" || tag === "A") return;
    const form = target.form || main.querySelector("form");
    if (!form) return;
    const native = tag === "INPUT" && !["radio", "checkbox", "file"].includes(target.type);
    if (native) return;
    event.preventDefault();
    form.requestSubmit(form.querySelector("button.ok"));
  });

  enhance();
})();
`
