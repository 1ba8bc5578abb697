// The page at `/`: pick a loaded form, use it live, switch the locale, and see the last request,
// the last response and the actions formd reported. `/?form=<id>&locale=<tag>` opens a form.
import { FormdClient, render } from "./formd.js";

const $ = (sel) => document.querySelector(sel);
const picker = $("[data-page-forms]");
const localePicker = $("[data-page-locale]");
const host = $("[data-page-form]");
const requestOut = $("[data-page-request]");
const responseOut = $("[data-page-response]");
const statusOut = $("[data-page-status]");
const actionsLog = $("[data-page-actions]");
const link = $("#form-link");

const params = new URLSearchParams(location.search);
// The offline worker (formd-sw.js, at the server's root): the page, the client, the engine and
// every form opened here then load without network (docs/CLIENT.md, "Offline").
const offline = "serviceWorker" in navigator
  ? navigator.serviceWorker.register(new URL("../formd-sw.js", import.meta.url).href).catch((e) => {
    console.warn("formd: no offline worker", e);
    return null;
  })
  : null;
const client = new FormdClient({ locale: params.get("locale") || "en", offline });
let view = null;
let previousActions = new Set();

const pretty = (v) => (v === undefined ? "" : JSON.stringify(v, null, 2));
const path = (url) => { const u = new URL(url); return u.pathname + u.search; };

client.listeners.add((e) => {
  if (e.phase === "request") {
    requestOut.textContent = `${e.method} ${path(e.url)}${e.body === undefined ? "" : "\n\n" + pretty(e.body)}`;
  } else {
    statusOut.textContent = e.status ? `${e.status} · ${e.ms.toFixed(1)} ms` : "no answer";
    responseOut.textContent = e.error ? e.error.message : pretty(e.body);
  }
});

function logActions(answer) {
  const now = new Date().toISOString().slice(11, 23);
  const key = (a) => `${a.action} ${a.type} ${a.id}${"value" in a ? " = " + JSON.stringify(a.value) : ""}`;
  const current = new Set();
  const lines = [];
  for (const a of answer.actions || []) {
    const k = key(a);
    current.add(k);
    // Value targets ran in this request; structural ones are logged when they start or stop.
    if (a.action === "update" || a.action === "clear" || !previousActions.has(k)) lines.push(`${now} ${k}`);
  }
  for (const k of previousActions) if (!current.has(k) && !/^(update|clear) /.test(k)) lines.push(`${now} ended: ${k}`);
  previousActions = current;
  for (const line of lines) actionsLog.prepend(Object.assign(document.createElement("li"), { textContent: line }));
  while (actionsLog.children.length > 100) actionsLog.lastElementChild.remove();
}

function remember(formId) {
  const u = new URL(location.href);
  u.search = "";
  u.searchParams.set("form", formId);
  u.searchParams.set("locale", client.locale || "en");
  history.replaceState(null, "", u);
  link.href = u.href;
}

async function open(formId) {
  if (view) view.destroy();
  previousActions = new Set();
  actionsLog.replaceChildren();
  remember(formId);
  try {
    view = await render(host, formId, { client });
  } catch {
    view = null; // render() showed why in the host (data-formd-failed)
  }
}

host.addEventListener("formd:state", (e) => logActions(e.detail.answer));

async function main() {
  localePicker.value = ["en", "nb", "es"].includes(client.locale) ? client.locale : "en";
  client.locale = localePicker.value;
  let forms = [];
  try {
    forms = await client.listForms();
  } catch (e) {
    host.textContent = `The forms could not be listed: ${e.message}`;
    host.setAttribute("data-formd-failed", "network");
    return;
  }
  for (const f of forms) picker.append(Object.assign(document.createElement("option"), { value: f.id, textContent: `${f.title} (${f.id})` }));
  if (!forms.length) { host.textContent = "No forms are loaded: add <id>.json files to the forms folder."; return; }
  const wanted = params.get("form");
  picker.value = forms.some((f) => f.id === wanted) ? wanted : forms[0].id;
  picker.addEventListener("change", () => open(picker.value));
  localePicker.addEventListener("change", async () => {
    if (view) await view.setLocale(localePicker.value);
    remember(picker.value);
  });
  await open(picker.value);
}

main();
