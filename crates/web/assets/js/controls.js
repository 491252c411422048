// nimlab explorer: The game of the page: the catalog, the family selector and its parameters, the spec.

import { $, $q, escapeHtml } from "./api.js";
import { game, view } from "./state.js";
import { showTable } from "./heatmap.js";

// ---- the game of the page -------------------------------------------------

export const catalog = [];

/** The request fields naming the game: the pasted rules (when the rules box is open
 *  and filled) or the spec (wrapped in misère / pass). */
export function gameFields() {
  const rules = $("rules").value.trim();
  if ($("rules-box").open && rules) return { rules };
  return { game: currentSpec() };
}

export function currentSpec() {
  let spec = $("spec").value.trim();
  if ($("pass").checked) spec = `pass(${spec})`;
  if ($("misere").checked) spec = `misere(${spec})`;
  return spec;
}

/** The value a parameter starts with: the catalog's default, else its example.
 *  @param {{default?: string | null, example?: string | null}} p */
export function startValue(p) {
  return p.default || p.example || "";
}

export function family() {
  return catalog.find((g) => g.name === $("family").value);
}

export function specFromFamily() {
  const f = family();
  if (!f) return;
  const args = [];
  for (const p of f.parameters) {
    const v = $("param-" + p.name).value.trim();
    if (v && v !== p.default) args.push(`${p.name}=${v}`);
  }
  $("spec").value = args.length ? `${f.name}(${args.join(",")})` : f.name;
}

/** One input per parameter of the family, with the catalog's help shown under it. */
export function showParams(values) {
  const f = family();
  const box = $("params");
  box.innerHTML = "";
  $("family-summary").textContent = f ? `Rules: ${f.summary}.` : "";
  if (!f) return;
  for (const p of f.parameters) {
    const label = document.createElement("label");
    label.textContent = `${p.name} `;
    const input = document.createElement("input");
    input.id = "param-" + p.name;
    input.value = values[p.name] ?? startValue(p);
    input.placeholder = p.default || p.kind;
    input.spellcheck = false;
    const hint = document.createElement("span");
    hint.className = "param-hint";
    hint.id = "hint-" + p.name;
    hint.textContent = `${p.help} (${p.kind}${p.default ? `, default ${p.default}` : ""})`;
    input.setAttribute("aria-describedby", hint.id);
    input.addEventListener("change", () => { specFromFamily(); showTable(); });
    label.appendChild(input);
    label.appendChild(hint);
    box.appendChild(label);
  }
}

/** After a table is shown: the family selector, parameters and formula box say what
 *  the game is (a spec typed by hand, a shared link or a rules file). */
export function syncControls(info, fields, typed) {
  view.family = typed.family || null;
  const sel = $("family");
  let rulesOption = /** @type {HTMLOptionElement | null} */ (sel.querySelector("option[value='']"));
  if (fields.rules) {
    if (!rulesOption) {
      rulesOption = document.createElement("option");
      rulesOption.value = "";
      rulesOption.textContent = "(rules file)";
      sel.prepend(rulesOption);
    }
    sel.value = "";
    showParams({});
    $("family-summary").textContent = `${info.game}: from the pasted rules file`;
  } else {
    if (rulesOption) rulesOption.remove();
    // The server read the spec: its family and arguments by name.
    if (typed.family && catalog.some((g) => g.name === typed.family)) {
      sel.value = typed.family;
      showParams(Object.fromEntries(typed.arguments.map((a) => [a.name, a.value])));
    }
  }
  const claim = info.closed_form ? "formula" : info.p_positions ? "p_positions" : "formula";
  $("formula").value = info.closed_form || info.p_positions || "";
  view.declared = $("formula").value;
  $q(`input[name=claim][value=${claim}]`).checked = true;
  $("check-result").textContent = "";
  $("check-result").className = "";
  formulaHelp(info);
}

/** The formula box's placeholder and syntax help: the game's variables (its
 *  coordinates) and the functions of the formula language, as /api/game lists them. */
export function formulaHelp(info) {
  const names = info.coordinate_names || [];
  $("formula").placeholder = names.length > 1 ? `e.g. ${names.join(" xor ")}` : names.length ? `e.g. ${names[0]} % 4` : "";
  $("formula-help").innerHTML =
    `<p>Variables: ${names.map((n) => `<code>${escapeHtml(n)}</code>`).join(", ") || "none"} (the coordinates).</p>` +
    `<p>Operators: <code>+ - * / %</code> (floor division, remainder), <code>^</code> (power), <code>xor</code> (the nim-sum), <code>&amp; | &lt;&lt; &gt;&gt;</code>, comparisons <code>== != &lt; &lt;= &gt; &gt;=</code>, <code>&amp;&amp; || !</code>, <code>if c then a else b</code>.</p>` +
    `<p>Functions: ${(info.formula_functions || []).map((f) => `<code>${escapeHtml(f)}(…)</code>`).join(", ")}.</p>` +
    `<p>With “P-positions” checked, write a condition that holds exactly at the P-positions, e.g. <code>${escapeHtml(names.join(" xor ") || "x")} == 0</code>.</p>`;
}
