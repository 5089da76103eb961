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
const HEADER = `<a class="brand" href="/">SPYGLASS</a><a href="/lobby">Lobby</a><a href="/">New table</a>
  <a href="/games">Games</a><a href="/ratings">Ratings</a><a href="/rules">Rules</a>`;
document.addEventListener("DOMContentLoaded", () => {
  const h = document.querySelector("header"); if (h) h.innerHTML = HEADER; });
// A clickable element that is not a <button> (a card, a player): reachable by Tab,
// pressed with Enter or Space, its state told to screen readers (aria-pressed).
function pressable(e, fn, pressed) {
  e.setAttribute("role", "button"); e.tabIndex = 0;
  if (pressed !== undefined) e.setAttribute("aria-pressed", pressed ? "true" : "false");
  e.addEventListener("click", fn);
  e.addEventListener("keydown", ev => {
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); fn(ev); } });
  return e;
}
// Copy a text to the clipboard (a button's label says whether it worked).
async function copyText(text, button) {
  try { await navigator.clipboard.writeText(text); button.textContent = "Copied"; }
  catch (e) { button.textContent = "Select and copy the link"; }
  setTimeout(() => { button.textContent = "Copy"; }, 2000);
}
// The creator's invite links and cancel token, kept in this browser per table.
function creatorOf(tableId) {
  try { return JSON.parse(localStorage.getItem(`spyglass.creator.${tableId}`) || "null"); }
  catch (e) { return null; }
}
// An SVG element, like el() (attributes set as given; children appended).
function svgEl(tag, attrs, ...kids) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, v);
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined)
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return e;
}
