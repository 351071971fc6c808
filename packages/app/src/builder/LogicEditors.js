// @ts-check
// Form logic in the builder: hidden fields, variables, jumps after a question, conditions to show one,
// calculations, and the form's endings.
import { html } from "htm/preact"
import { useState } from "preact/hooks"
import { language, t, withParts } from "../shared/Words.js"

/** The counts a question's logic summary lists ("1 rule, show-if, 2 calculations"). */
const list = new Intl.ListFormat(language, { type: "unit", style: "short" })

const operators = [
  ["equals", t("logic.opEquals")],
  ["notEquals", t("logic.opNotEquals")],
  ["contains", t("logic.opContains")],
  ["notContains", t("logic.opNotContains")],
  ["greaterThan", t("logic.opGreaterThan")],
  ["lessThan", t("logic.opLessThan")],
  ["isEmpty", t("logic.opIsEmpty")],
  ["isNotEmpty", t("logic.opIsNotEmpty")]
]

const conditionParts = (condition) => {
  const operator = operators.find(([op]) => condition !== undefined && op in condition)?.[0] ?? "equals"
  return { field: condition?.field ?? "", operator, value: condition?.[operator] ?? "" }
}
const conditionOf = ({ field, operator, value }) => ({
  field: typeof field === "string" && (field.startsWith("hidden:") || field.startsWith("var:")) ? field : Number(field),
  [operator]: operator === "isEmpty" || operator === "isNotEmpty" ? true : value
})

const ConditionEditor = ({ id, condition, earlier, hidden, variables = [], onChange, disabled }) => {
  const parts = conditionParts(condition)
  const set = (patch) => onChange(conditionOf({ ...parts, ...patch }))
  return html`<span class="row">
    <label class="sr-only" for=${`${id}-field`}>${t("logic.question")}</label>
    <select id=${`${id}-field`} disabled=${disabled} value=${String(parts.field)} onChange=${(e) => set({ field: e.target.value })}>
      <option value="">${t("logic.choose")}</option>
      ${earlier.map((d) => html`<option value=${String(d.id)}>${d.label}</option>`)}
      ${hidden.map((h) => html`<option value=${`hidden:${h.name}`}>${t("logic.hiddenOption", { name: h.name })}</option>`)}
      ${variables.map((v) => html`<option value=${`var:${v.name}`}>${t("logic.variableOption", { name: v.name })}</option>`)}
    </select>
    <label class="sr-only" for=${`${id}-op`}>${t("logic.operator")}</label>
    <select id=${`${id}-op`} disabled=${disabled} value=${parts.operator} onChange=${(e) => set({ operator: e.target.value })}>
      ${operators.map(([value, label]) => html`<option value=${value}>${label}</option>`)}</select>
    ${
      parts.operator === "isEmpty" || parts.operator === "isNotEmpty"
        ? null
        : html`<label class="sr-only" for=${`${id}-value`}>${t("logic.value")}</label>
      <input id=${`${id}-value`} type="text" disabled=${disabled} value=${String(parts.value)} onInput=${(e) => set({ value: e.target.value })} />`
    }
  </span>`
}

/**
 * Logic of one question (saved questions only: rules refer to question ids): jumps after it is answered, and a
 * show-if condition. The server's engine validates on save and its message is shown as is.
 */
export const LogicEditor = ({
  draft,
  index,
  drafts,
  hidden,
  variables = [],
  endings = [],
  pages = [],
  update,
  disabled
}) => {
  const earlier = drafts.slice(0, index + 1).filter((d) => d.id !== undefined)
  const later = drafts.slice(index + 1).filter((d) => d.id !== undefined)
  const rules = draft.logic ?? []
  const setRules = (next) => update({ ...draft, logic: next })
  const calculations = draft.calculate ?? []
  const setCalculations = (next) => update({ ...draft, calculate: next })
  if (draft.id === undefined) return html`<p class="muted">${t("logic.saveFirst")}</p>`
  const counts = [
    rules.length > 0 ? t("logic.ruleCount", { count: rules.length }) : "",
    draft.showIf ? t("logic.showIf") : "",
    calculations.length > 0 ? t("logic.calculationCount", { count: calculations.length }) : ""
  ].filter((c) => c !== "")
  return html`<details>
    <summary>${counts.length > 0 ? t("logic.summaryWith", { details: list.format(counts) }) : t("logic.summary")}</summary>
    <div class="stack">
      ${rules.map(
        (rule, r) => html`<div class="row" key=${r}>
        ${t("logic.if")} <${ConditionEditor} id=${`q${draft.key}-r${r}`} condition=${rule.if} earlier=${earlier} hidden=${hidden} variables=${variables} disabled=${disabled}
          onChange=${(condition) => setRules(rules.map((x, i) => (i === r ? { ...x, if: condition } : x)))} />
        <label for=${`q${draft.key}-r${r}-jump`}>${t("logic.thenGoTo")}</label>
        <select id=${`q${draft.key}-r${r}-jump`} disabled=${disabled} value=${String(rule.then?.jumpTo ?? "end")}
          onChange=${(e) => setRules(rules.map((x, i) => (i === r ? { ...x, then: { jumpTo: jumpOf(e.target.value) } } : x)))}>
          ${later.map((d) => html`<option value=${String(d.id)}>${d.label}</option>`)}
          ${pages.map((p) => html`<option value=${`page:${p.key}`}>${t("logic.jumpToPage", { page: p.title ?? p.key })}</option>`)}<option value="end">${t("logic.jumpToEnd")}</option>
          ${endings.map((e) => html`<option value=${`ending:${e.key}`}>${t("logic.jumpToEnding", { ending: e.title })}</option>`)}</select>
        ${disabled ? null : html`<button class="danger" onClick=${() => setRules(rules.filter((_, i) => i !== r))} aria-label=${t("logic.removeRule", { position: r + 1 })}>${t("logic.remove")}</button>`}
      </div>`
      )}
      ${disabled ? null : html`<div><button onClick=${() => setRules([...rules, { if: { field: draft.id, equals: "" }, then: { jumpTo: "end" } }])}>${t("logic.addJumpRule")}</button></div>`}
      <div class="row">
        <label><input type="checkbox" disabled=${disabled} checked=${draft.showIf !== undefined && draft.showIf !== null}
          onChange=${(e) => update({ ...draft, showIf: e.target.checked ? { field: earlier[0]?.id ?? "", isNotEmpty: true } : undefined })} /> ${t("logic.showOnlyIf")}</label>
        ${
          draft.showIf
            ? html`<${ConditionEditor} id=${`q${draft.key}-show`} condition=${draft.showIf} earlier=${drafts.slice(0, index).filter((d) => d.id !== undefined)} hidden=${hidden} variables=${variables} disabled=${disabled}
          onChange=${(condition) => update({ ...draft, showIf: condition })} />`
            : null
        }
      </div>
      ${calculations.map((calculation, c) => {
        const at = `q${draft.key}-c${c}`
        const operation = calculationOperations.find(([op]) => op in calculation)?.[0] ?? "add"
        const target = variables.find((v) => v.name === calculation.variable)
        const change = (patch) => setCalculations(calculations.map((x, i) => (i === c ? patch(x) : x)))
        return html`<div class="row" key=${`c${c}`}>
        <label for=${`${at}-var`}>${t("logic.thenChange")}</label>
        <select id=${`${at}-var`} disabled=${disabled} value=${calculation.variable}
          onChange=${(e) => change((x) => ({ ...x, variable: e.target.value }))}>
          ${variables.map((v) => html`<option value=${v.name}>${v.name}</option>`)}</select>
        <label class="sr-only" for=${`${at}-op`}>${t("logic.operation")}</label>
        <select id=${`${at}-op`} disabled=${disabled} value=${operation}
          onChange=${(e) => change((x) => calculationOf(x, e.target.value, x[operation], target))}>
          ${calculationOperations.map(([value, label]) => html`<option value=${value}>${label}</option>`)}</select>
        <label class="sr-only" for=${`${at}-from`}>${t("logic.valueFrom")}</label>
        <select id=${`${at}-from`} disabled=${disabled} value=${operandSource(calculation[operation])}
          onChange=${(e) =>
            change((x) =>
              calculationOf(x, operation, e.target.value === "" ? undefined : { field: refOf(e.target.value) }, target)
            )}>
          <option value="">${target?.type === "text" && operation === "set" ? t("logic.thisText") : t("logic.thisNumber")}</option>
          ${earlier.map((d) => html`<option value=${String(d.id)}>${t("logic.answerTo", { question: d.label })}</option>`)}
          ${hidden.map((h) => html`<option value=${`hidden:${h.name}`}>${t("logic.hiddenField", { name: h.name })}</option>`)}
          ${variables
            .filter((v) => v.name !== calculation.variable)
            .map(
              (v) => html`<option value=${`var:${v.name}`}>${t("logic.variable", { name: v.name })}</option>`
            )}</select>
        ${
          operandSource(calculation[operation]) === ""
            ? html`<label class="sr-only" for=${`${at}-value`}>${t("logic.value")}</label>
        <input id=${`${at}-value`} type=${target?.type === "text" && operation === "set" ? "text" : "number"} step="any" disabled=${disabled}
          value=${String(calculation[operation] ?? "")} onInput=${(e) => change((x) => calculationOf(x, operation, e.target.value, target))} />`
            : null
        }
        <label><input type="checkbox" disabled=${disabled} checked=${calculation.if !== undefined}
          onChange=${(e) => change(({ if: _, ...x }) => (e.target.checked ? { ...x, if: { field: draft.id, isNotEmpty: true } } : x))} /> ${t("logic.onlyIf")}</label>
        ${
          calculation.if === undefined
            ? null
            : html`<${ConditionEditor} id=${`${at}-if`} condition=${calculation.if} earlier=${earlier} hidden=${hidden} variables=${variables} disabled=${disabled}
          onChange=${(condition) => change((x) => ({ ...x, if: condition }))} />`
        }
        ${disabled ? null : html`<button class="danger" onClick=${() => setCalculations(calculations.filter((_, i) => i !== c))} aria-label=${t("logic.removeCalculation", { position: c + 1 })}>${t("logic.remove")}</button>`}
      </div>`
      })}
      ${
        disabled || variables.length === 0
          ? null
          : html`<div><button onClick=${() => setCalculations([...calculations, { variable: variables[0].name, add: 1 }])}>${t("logic.addCalculation")}</button></div>`
      }
    </div>
  </details>`
}

/** A jump's target as the select holds it: a question id, "end", "ending:<key>" or "page:<key>". */
const jumpOf = (value) =>
  value === "end" || value.startsWith("ending:") || value.startsWith("page:") ? value : Number(value)

const calculationOperations = [
  ["add", t("logic.calcAdd")],
  ["subtract", t("logic.calcSubtract")],
  ["multiply", t("logic.calcMultiply")],
  ["set", t("logic.calcSet")]
]

/** Where a calculation's value comes from, as the "Value from" select holds it: "" for a value typed in. */
const operandSource = (operand) =>
  operand !== null && typeof operand === "object" && "field" in operand ? String(operand.field) : ""

/** A reference as the select holds it: a question id as a number, "hidden:…" and "var:…" as they are. */
const refOf = (value) => (/^\d+$/.test(value) ? Number(value) : value)

/**
 * A calculation with its one operation and value: a number, text when setting a text variable, or a value of the
 * form (`{ field }`), kept as it is.
 */
const calculationOf = (calculation, operation, value, variable) => {
  const { add: _a, subtract: _s, multiply: _m, set: _t, ...rest } = calculation
  if (value !== null && typeof value === "object") return { ...rest, [operation]: value }
  const text = variable?.type === "text" && operation === "set"
  const number = value === "" || value === undefined ? 0 : Number(value)
  return { ...rest, [operation]: text ? String(value ?? "") : Number.isFinite(number) ? number : 0 }
}

/**
 * The form's variables (`settings.variables`): numbers and texts its questions' calculations change, stored on
 * each response. `score` needs no declaring when choices give quiz points.
 */
export const VariablesEditor = ({ variables, setVariables, disabled }) => {
  const [name, setName] = useState("")
  const [type, setType] = useState("number")
  return html`<section aria-labelledby="variables-title">
    <h2 id="variables-title">${t("logic.variablesTitle")}</h2>
    <p class="muted">${withParts("logic.variablesHelp", { syntax: html`<code>{{var:name}}</code>` })}</p>
    <ul class="row">${variables.map((v) => html`<li class="tag">${v.initial === undefined ? t("logic.variableTag", { name: v.name, type: v.type }) : t("logic.variableTagInitial", { name: v.name, type: v.type, initial: v.initial })}${disabled ? null : html` <button class="link" aria-label=${t("logic.removeVariable", { name: v.name })} onClick=${() => setVariables(variables.filter((x) => x.name !== v.name))}>×</button>`}</li>`)}</ul>
    ${
      disabled
        ? null
        : html`<div class="row"><label for="variable-name">${t("logic.addVariable")}</label>
      <input id="variable-name" type="text" value=${name} onInput=${(e) => setName(e.target.value)} />
      <label class="sr-only" for="variable-type">${t("logic.type")}</label>
      <select id="variable-type" value=${type} onChange=${(e) => setType(e.target.value)}><option value="number">${t("logic.typeNumber")}</option><option value="text">${t("logic.typeText")}</option></select>
      <button disabled=${name.trim() === ""} onClick=${() => {
        setVariables([...variables, { name: name.trim(), type }])
        setName("")
      }}>${t("logic.add")}</button></div>`
    }
  </section>`
}

/** A labelled text box (or area) of the endings and pages editors. */
const textField = (at, label, value, set, multiline, disabled) =>
  html`<div class="stack"><label for=${at}>${label}</label>
    ${
      multiline
        ? html`<textarea id=${at} disabled=${disabled} value=${value ?? ""} onInput=${(ev) => set(ev.target.value)}></textarea>`
        : html`<input id=${at} type="text" disabled=${disabled} value=${value ?? ""} onInput=${(ev) => set(ev.target.value)} />`
    }</div>`

/**
 * The form's endings (`settings.endings`): the screen after sending, chosen by a jump, else the first whose
 * condition holds, else the first without one.
 */
export const EndingsEditor = ({ endings, setEndings, questions, hidden, variables, disabled }) => {
  const change = (e, patch) => setEndings(endings.map((x, i) => (i === e ? patch(x) : x)))
  const text = (e, key, label, value, set, multiline = false) =>
    textField(`ending-${e}-${key}`, label, value, set, multiline, disabled)
  const optional = (value) => (value.trim() === "" ? undefined : value)
  return html`<section aria-labelledby="endings-title">
    <h2 id="endings-title">${t("logic.endingsTitle")}</h2>
    <p class="muted">${withParts("logic.endingsHelp", {
      fieldSyntax: html`<code>{{field:id}}</code>`,
      variableSyntax: html`<code>{{var:name}}</code>`
    })}</p>
    ${endings.map(
      (ending, e) => html`<fieldset class="card stack" key=${e}>
      <legend>${t("logic.ending", { position: e + 1 })}</legend>
      ${text(e, "key", t("logic.endingKey"), ending.key, (v) => change(e, (x) => ({ ...x, key: v.trim() })))}
      ${text(e, "title", t("logic.endingTitle"), ending.title, (v) => change(e, (x) => ({ ...x, title: v })))}
      ${text(e, "message", t("logic.endingMessage"), ending.message, (v) => change(e, ({ message: _, ...x }) => ({ ...x, ...(optional(v) === undefined ? {} : { message: v }) })), true)}
      <div class="row"><label><input type="checkbox" disabled=${disabled} checked=${ending.when !== undefined}
        onChange=${(ev) => change(e, ({ when: _, ...x }) => (ev.target.checked ? { ...x, when: { field: variables[0] ? `var:${variables[0].name}` : (questions[0]?.id ?? ""), greaterThan: 0 } } : x))} /> ${t("logic.onlyWhen")}</label>
      ${
        ending.when === undefined
          ? null
          : html`<${ConditionEditor} id=${`ending-${e}-when`} condition=${ending.when} earlier=${questions} hidden=${hidden} variables=${variables} disabled=${disabled}
        onChange=${(condition) => change(e, (x) => ({ ...x, when: condition }))} />`
      }</div>
      ${text(e, "button-label", t("logic.buttonLabel"), ending.button?.label, (v) => change(e, (x) => withButton(x, { label: v })))}
      ${text(e, "button-url", t("logic.buttonUrl"), ending.button?.url, (v) => change(e, (x) => withButton(x, { url: v })))}
      ${text(e, "redirect", t("logic.redirect"), ending.redirectUrl, (v) => change(e, ({ redirectUrl: _, ...x }) => ({ ...x, ...(optional(v) === undefined ? {} : { redirectUrl: v.trim() }) })))}
      ${disabled ? null : html`<div><button class="danger" onClick=${() => setEndings(endings.filter((_, i) => i !== e))}>${t("logic.removeEnding", { position: e + 1 })}</button></div>`}
    </fieldset>`
    )}
    ${disabled ? null : html`<div><button onClick=${() => setEndings([...endings, { key: `ending${endings.length + 1}`, title: t("logic.defaultEndingTitle") }])}>${t("logic.addEnding")}</button></div>`}
  </section>`
}

/**
 * The form's pages (`settings.pages`): questions shown together on one screen. Each question picks its page (a
 * question without one is asked on its own); a page's questions must follow one another, which the server checks.
 */
export const PagesEditor = ({ pages, setPages, disabled }) => {
  const change = (p, patch) => setPages(pages.map((x, i) => (i === p ? patch(x) : x)))
  const optional = (value) => (value.trim() === "" ? undefined : value)
  const text = (p, key, label, value, set, multiline = false) =>
    textField(`page-${p}-${key}`, label, value, set, multiline, disabled)
  return html`<section aria-labelledby="pages-title">
    <h2 id="pages-title">${t("logic.pagesTitle")}</h2>
    <p class="muted">${t("logic.pagesHelp")}</p>
    ${pages.map(
      (page, p) => html`<fieldset class="card stack" key=${p}>
      <legend>${t("logic.page", { position: p + 1 })}</legend>
      ${text(p, "key", t("logic.pageKey"), page.key, (v) => change(p, (x) => ({ ...x, key: v.trim() })))}
      ${text(p, "title", t("logic.pageTitle"), page.title, (v) => change(p, ({ title: _, ...x }) => ({ ...x, ...(optional(v) === undefined ? {} : { title: v }) })))}
      ${text(p, "description", t("logic.pageDescription"), page.description, (v) => change(p, ({ description: _, ...x }) => ({ ...x, ...(optional(v) === undefined ? {} : { description: v }) })), true)}
      ${disabled ? null : html`<div><button class="danger" onClick=${() => setPages(pages.filter((_, i) => i !== p))}>${t("logic.removePage", { position: p + 1 })}</button></div>`}
    </fieldset>`
    )}
    ${disabled ? null : html`<div><button onClick=${() => setPages([...pages, { key: `page${pages.length + 1}` }])}>${t("logic.addPage")}</button></div>`}
  </section>`
}

/** An ending with its button's label or link changed: no button while both are empty. */
const withButton = (ending, patch) => {
  const { button, ...rest } = ending
  const next = { label: "", url: "", ...button, ...patch }
  return next.label.trim() === "" && next.url.trim() === "" ? rest : { ...rest, button: next }
}

/** The form's hidden fields (values from the page URL or the API). */
export const HiddenFieldsEditor = ({ hidden, setHidden, disabled }) => {
  const [name, setName] = useState("")
  return html`<section aria-labelledby="hidden-title">
    <h2 id="hidden-title">${t("logic.hiddenTitle")}</h2>
    <p class="muted">${withParts("logic.hiddenHelp", { example: html`<code>/f/…?ref=newsletter</code>` })}</p>
    <ul class="row">${hidden.map((h) => html`<li class="tag">${h.name}${disabled ? null : html` <button class="link" aria-label=${t("logic.removeHidden", { name: h.name })} onClick=${() => setHidden(hidden.filter((x) => x.name !== h.name))}>×</button>`}</li>`)}</ul>
    ${
      disabled
        ? null
        : html`<div class="row"><label for="hidden-name">${t("logic.addHidden")}</label>
      <input id="hidden-name" type="text" value=${name} onInput=${(e) => setName(e.target.value)} />
      <button disabled=${name.trim() === ""} onClick=${() => {
        setHidden([...hidden, { name: name.trim() }])
        setName("")
      }}>${t("logic.add")}</button></div>`
    }
  </section>`
}
