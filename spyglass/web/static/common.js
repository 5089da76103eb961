// Shared helpers for Spyglass pages (plain JS, no build step).
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined)
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return e;
}
async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.detail || r.statusText);
  return data;
}
const HEADER = `<a class="brand" href="/">SPYGLASS</a><a href="/">New table</a>
  <a href="/games">Games</a><a href="/ratings">Ratings</a>`;
document.addEventListener("DOMContentLoaded", () => {
  const h = document.querySelector("header"); if (h) h.innerHTML = HEADER; });
