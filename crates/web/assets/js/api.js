// nimlab explorer: The API client and the text helpers every module uses.

/** The page's controls: inputs, selects, buttons, canvases, details boxes — one type
 *  for what `$` returns, so a control's own properties (`value`, `checked`,
 *  `getContext`, `open`) are checked.
 *  @typedef {HTMLInputElement & HTMLSelectElement & HTMLCanvasElement & HTMLDetailsElement} Control */

/** The element of the page with this id.
 *  @param {string} id
 *  @returns {Control} */
export const $ = (id) => /** @type {Control} */ (document.getElementById(id));

/** The first element of the page matching a CSS selector, as a control.
 *  @param {string} selector
 *  @returns {Control} */
export const $q = (selector) => /** @type {Control} */ (document.querySelector(selector));

export async function api(path, body) {
  const res = await fetch("/api/" + path, body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await res.json();
  if (!res.ok) throw new Error(data.error ? data.error.message : res.statusText);
  return data;
}

export function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

/** A position of any game as people write it: numbers `3,5`, parts `1,2;5`, a board's
 *  text, a graph's vertices `{0,2}`, a pass position `board,1`. */
export const posText = (p) => {
  if (typeof p === "string" || typeof p === "number") return String(p);
  if (Array.isArray(p)) {
    const flat = p.every((x) => typeof x === "number" || (typeof x === "string" && /^\d+$/.test(x)));
    return p.map(posText).join(flat ? "," : ";");
  }
  if (p && Array.isArray(p.vertices)) return `{${p.vertices.join(",")}}`;
  if (p && "flag" in p) return `${posText(p.position)},${p.flag}`;
  return String(p);
};
