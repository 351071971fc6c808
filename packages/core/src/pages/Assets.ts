/**
 * The public page's style sheet and its progressive-enhancement script
 * (`static/page.js`), both inline under the page's CSP nonce (no framework,
 * no external request).
 *
 * Without the script every step is a plain form post that renders the next
 * screen. With it, the same posts go through `fetch` and only `<main>` is
 * swapped: no full reload, focus moved to the new question, Enter to go on
 * (Shift+Enter for a new line in long text), and file uploads sent ahead of
 * the step with a progress bar (XHR, for its upload progress events).
 */
import { readFileSync } from "node:fs"
import { PackagedFiles } from "../web/index.ts"
import { fontStacks, paletteOf, type Theme } from "../forms/index.ts"

const scriptPath = "pages/static/page.js"

/** The style sheet: readable without a framework, light and dark, visible focus, narrow screens first. */
export const css = `
:root{color-scheme:light dark;--font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;--radius:.4rem;--bg:#fff;--fg:#1a1a1a;--muted:#4a4a4a;--line:#767676;--accent:#0b57d0;--accent-fg:#fff;--error:#b3261e;--soft:#f1f4f9}
@media (prefers-color-scheme:dark){:root{--bg:#121212;--fg:#ececec;--muted:#c4c4c4;--line:#8a8a8a;--accent:#a8c7fa;--accent-fg:#062e6f;--error:#ffb4ab;--soft:#1f2328}}
*{box-sizing:border-box}
html{font-family:var(--font);font-size:18px;line-height:1.5;background:var(--bg);color:var(--fg)}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:1.5rem 1rem}
main{width:100%;max-width:40rem}
main:focus{outline:none}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 .75rem}
.form-title{font-size:.95rem;font-weight:600;color:var(--muted);margin:0 0 1rem}
.description,.help,.hint,.count{color:var(--muted)}
.page-title{font-size:1.4rem;margin:0 0 .5rem}
.item{margin:0 0 1.25rem}
.item+.item{border-top:1px solid var(--line);padding-top:1.25rem}
details.resume{margin-top:2.5rem;border-top:1px solid var(--line);padding-top:1rem}
details.resume summary{cursor:pointer;color:var(--muted)}
details.resume input{width:100%}
.question{display:block;font-size:1.35rem;font-weight:600;line-height:1.3;margin:0 0 .5rem;padding:0}
fieldset{border:0;margin:0;padding:0;min-width:0}
.req{color:var(--error);margin-inline-start:.2em}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
input[type=text],input[type=password],input[type=email],input[type=tel],input[type=url],input[type=number],input[type=date],input[type=time],input[type=datetime-local],textarea,select{width:100%;font:inherit;color:inherit;background:transparent;border:0;border-bottom:2px solid var(--line);padding:.4rem .1rem;margin:.5rem 0}
textarea{min-height:6rem;border:2px solid var(--line);border-radius:var(--radius);padding:.5rem;resize:vertical}
select{border:2px solid var(--line);border-radius:var(--radius);background:var(--bg)}
input[type=file]{font:inherit;margin:.75rem 0}
.choices{display:flex;flex-direction:column;gap:.5rem;margin:.75rem 0}
.choice{display:flex;align-items:center;gap:.6rem;border:2px solid var(--line);border-radius:var(--radius);padding:.5rem .75rem;cursor:pointer;background:var(--soft)}
.choice input{width:1.1rem;height:1.1rem;margin:0;accent-color:var(--accent)}
.rating{flex-direction:row;flex-wrap:wrap}
.rating .choice{min-width:3rem;justify-content:center}
.pictures{display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr))}
.pictures .choice{flex-wrap:wrap}
.pictures .choice img{order:-1;width:100%;aspect-ratio:4/3;object-fit:cover;border-radius:calc(var(--radius) / 2)}
.brand img{display:block;max-height:4rem;max-width:min(15rem,100%);width:auto;height:auto;margin:0 0 1rem}
.yes-no{flex-direction:row}
.slider{display:flex;align-items:center;gap:1rem}
.slider input[type=range]{flex:1;min-width:0;height:2rem;margin:.5rem 0;accent-color:var(--accent)}
.slider input[type=number]{flex:none;width:7rem}
.slider input[data-unset]{opacity:.45}
.parts{display:flex;flex-direction:column;gap:.25rem;margin:.5rem 0}
.other{margin-top:.75rem}
.part label{display:block;font-weight:600;margin-top:.5rem}
.optional{font-weight:400;color:var(--muted)}
.matrix-row{margin:.75rem 0 0}
.matrix-row legend{font-weight:600;padding:0}
.matrix-row .choices{margin:.35rem 0}
.signature[hidden]{display:none}
.signature{margin:.75rem 0;display:flex;flex-direction:column;align-items:flex-start;gap:.5rem}
.signature .pad{width:100%;max-width:600px;aspect-ratio:3/1;background:#fff;border:2px dashed var(--line);border-radius:.5rem;touch-action:none;cursor:crosshair}
.ranking{display:flex;flex-direction:column;gap:.5rem;margin:.75rem 0}
.rank-item{display:flex;align-items:center;gap:.75rem}
.rank-item select{width:auto;margin:0}
.rank-item[hidden]{display:none}
.keep{align-self:flex-start;background:transparent;color:var(--fg);border-color:var(--line)}
.rank-list{list-style:none;margin:.75rem 0;padding:0;display:flex;flex-direction:column;gap:.5rem}
.rank-list li{display:flex;align-items:center;gap:.5rem;border:2px solid var(--line);border-radius:var(--radius);padding:.35rem .5rem;background:var(--soft);cursor:grab}
.rank-list li.dragging{opacity:.6}
.rank-list .place{min-width:1.5rem;font-weight:600}
.rank-list .name{flex:1}
.rank-list button{padding:.2rem .6rem;border-color:var(--line);background:transparent;color:var(--fg)}
.rank-list button:disabled{opacity:.4;cursor:default}
.actions{display:flex;flex-wrap:wrap;align-items:center;gap:.75rem;margin-top:1.25rem}
button{font:inherit;font-weight:600;border-radius:var(--radius);padding:.5rem 1.2rem;cursor:pointer;border:2px solid var(--accent)}
.ok{background:var(--accent);color:var(--accent-fg)}
a.button{display:inline-block;font-weight:600;border-radius:var(--radius);padding:.5rem 1.2rem;border:2px solid var(--accent);text-decoration:none}
.back{background:transparent;color:var(--fg);border-color:var(--line);order:-1}
.hint{font-size:.85rem}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.choice:focus-within{outline:3px solid var(--accent);outline-offset:2px}
.error{color:var(--error);font-weight:600;margin:.5rem 0 0}
.error:empty{display:none}
.progress{display:flex;align-items:center;gap:.75rem;margin-bottom:1.5rem;font-size:.85rem;color:var(--muted)}
.progress progress{flex:1;height:.5rem;accent-color:var(--accent)}
.upload{width:100%}
input[type=file]{max-width:100%}
.hp{position:absolute;inset-inline-start:-10000px;top:auto;width:1px;height:1px;overflow:hidden}
.languages{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin-top:1.5rem;font-size:.85rem;color:var(--muted)}
.languages select{width:auto;margin:0;padding:.25rem .5rem}
.languages button{padding:.25rem .8rem;background:transparent;color:var(--fg);border-color:var(--line)}
[dir=rtl] input[type=email],[dir=rtl] input[type=tel],[dir=rtl] input[type=url]{direction:ltr;text-align:right}
@media (max-width:30rem){html{font-size:16px}.question{font-size:1.2rem}}
[data-embed=inline] body,[data-embed=popup] body{min-height:0}
[data-theme=light]{color-scheme:light;--bg:#fff;--fg:#1a1a1a;--muted:#4a4a4a;--line:#767676;--accent:#0b57d0;--accent-fg:#fff;--error:#b3261e;--soft:#f1f4f9}
[data-theme=dark]{color-scheme:dark;--bg:#121212;--fg:#ececec;--muted:#c4c4c4;--line:#8a8a8a;--accent:#a8c7fa;--accent-fg:#062e6f;--error:#ffb4ab;--soft:#1f2328}
`

/**
 * The CSS of a form's theme, put after the page's own style sheet so its
 * variables win on light and dark devices alike; empty without a theme. Made
 * of checked values only (colours `#rrggbb`, a named font stack, a whole
 * number of pixels), so nothing in it comes from free text.
 *
 * @example
 * ```ts
 * themeCss({ font: "serif", radius: 12 }) // ":root{--font:ui-serif,…;--radius:12px}"
 * ```
 */
export const themeCss = (theme: Theme | undefined): string => {
  if (theme === undefined) return ""
  const rules: Array<string> = []
  if (theme.font !== undefined) rules.push(`--font:${fontStacks[theme.font]}`)
  if (theme.radius !== undefined) rules.push(`--radius:${theme.radius}px`)
  const p = paletteOf(theme)
  if (p !== undefined) {
    rules.push(
      `color-scheme:${p.scheme}`,
      `--bg:${p.bg}`,
      `--fg:${p.fg}`,
      `--muted:${p.muted}`,
      `--line:${p.line}`,
      `--accent:${p.accent}`,
      `--accent-fg:${p.accentFg}`,
      `--error:${p.error}`,
      `--soft:${p.soft}`
    )
  }
  return rules.length === 0 ? "" : `\n:root{${rules.join(";")}}\n`
}

let scriptText: string | undefined

/**
 * The progressive-enhancement script (`static/page.js`, plain ES2020, no
 * dependency, type-checked), read once. Without it the page still works.
 */
export const script = (): string => {
  if (scriptText === undefined) {
    const path = PackagedFiles.locate(import.meta.url, scriptPath)
    if (path === undefined) {
      const looked = PackagedFiles.candidates(import.meta.url, scriptPath).join(", ")
      throw new Error(`qforms: the public page's script is missing (${looked})`)
    }
    scriptText = readFileSync(path, "utf8")
  }
  return scriptText
}
