// formd.js: the browser client of formd. One ES module, no dependencies, no build step.
//
// Headless layer: FormdClient (the HTTP API), FormdError (problem+json answers), FormSession
// (answers applied in request order). Renderer: render(element, formId, options) draws any form
// from its definition and shows what formd answers. Where WebAssembly runs, the answers come
// from formd's own engine in the page (formd-engine.wasm, the same sources as the server), so
// typing needs no round trip and keeps working offline; a submit is always the server's verdict.
// Offline (docs/CLIENT.md): what a person typed is kept per form and version (never a secret
// field), a submit without network is queued and sent when the server answers again, and with
// the offline service worker (formd-sw.js) the page, this module, the engine and the form load
// with no network.
//
// The DOM contract the renderer keeps is documented in docs/CLIENT.md.

/** The server this module was loaded from: the module lives at `<server>/client/formd.js`. */
export const defaultServer = new URL("../", import.meta.url).href;

/** A failed request: a problem+json answer, or (status 0, slug "network") no answer at all. */
export class FormdError extends Error {
  constructor(status, problem = {}, { retryAfter = null, requestId = null } = {}) {
    super(problem.detail || problem.title || (status ? `HTTP ${status}` : "the server cannot be reached"));
    this.name = "FormdError";
    this.status = status;
    this.type = problem.type || (status ? "about:blank" : "/problems/network");
    this.slug = this.type.split("/").pop();
    this.title = problem.title || "";
    this.detail = problem.detail || "";
    this.retryAfter = retryAfter;
    this.requestId = requestId;
    // 412 `version-not-held` (API.md §3.1): the versions this replica holds, the current first.
    this.code = problem.code || null;
    this.currentVersion = problem.current_version || null;
    this.versions = Array.isArray(problem.versions) ? problem.versions : [];
  }
  get isNotFound() { return this.status === 404; }
  get isPreconditionFailed() { return this.status === 412; }
  get isOverloaded() { return this.status === 503; }
  get isNetwork() { return this.status === 0; }
}

/** The HTTP API: forms, definitions (cached, revalidated with ETags), evaluate and validate. */
export class FormdClient {
  constructor({ server = defaultServer, locale = null, fetch = null, offline = null } = {}) {
    this.server = new URL(server, location.href).href.replace(/\/?$/, "/");
    this.locale = locale;
    this.fetch = fetch || globalThis.fetch.bind(globalThis);
    this.definitions = new Map(); // id -> {version, definition}
    this.listeners = new Set(); // (event) => void, for logs: {phase: "request" | "response", ...}
    // The offline service worker's registration (a promise), when the page registered one;
    // otherwise the one that controls the page, if any (docs/CLIENT.md, "Offline").
    this.offline = offline;
    this.loaded = new Set(); // the GET URLs answered 200, for the offline worker to keep
  }

  /**
   * Asks the page's offline worker (formd-sw.js, or an app's worker that imports it) to keep what
   * this client loaded before the worker controlled the page (the first visit), and `extra` URLs
   * (the page itself). Resolves to true once they are kept, false when no worker runs.
   */
  async keepOffline(extra = []) {
    if (typeof navigator === "undefined" || !navigator.serviceWorker) return false;
    try {
      // The page's registration (none when registering failed, as offline) or the one in control.
      const registration = (await this.offline) || (await navigator.serviceWorker.getRegistration());
      if (!registration) return false;
      const worker = (await navigator.serviceWorker.ready).active;
      if (!worker) return false;
      const urls = [...new Set([...this.loaded, ...extra])];
      return await new Promise((resolve) => {
        const channel = new MessageChannel();
        const timer = setTimeout(() => resolve(false), 60000);
        channel.port1.onmessage = () => { clearTimeout(timer); resolve(true); };
        worker.postMessage({ type: "formd:keep", urls }, [channel.port2]);
      });
    } catch (e) {
      console.warn("formd: the offline worker could not keep the form", e);
      return false;
    }
  }

  url(path) {
    const u = new URL(path, this.server);
    if (this.locale) u.searchParams.set("locale", this.locale);
    return u.href;
  }

  /** `GET /forms`: `[{id, title, version, fields}]`. */
  async listForms() {
    return (await this.request("GET", "forms")).body.forms;
  }

  /** `GET /forms/{id}`, revalidated with `If-None-Match`: `{definition, version, language}`. A
   * form that gives its texts per language comes resolved for `locale` (`language` is then its
   * `Content-Language`), so the cache is per locale too; `{raw: true}` asks for it as written.
   * Otherwise it comes in the Hyper shape (`?shape=hyper`): formd reads a PureForm definition
   * for the renderer, so ids and kinds are the engine's, read in one place. */
  async definition(id, { raw = false } = {}) {
    const key = `${raw ? "raw" : this.locale || ""} ${id}`;
    const cached = this.definitions.get(key);
    const headers = cached ? { "If-None-Match": cached.version } : {};
    const path = `forms/${encodeURIComponent(id)}${raw ? "?raw=true" : "?shape=hyper"}`;
    const r = await this.request("GET", path, { headers, accept304: true });
    if (r.status === 304 && cached) return cached;
    const entry = { definition: r.body, version: r.headers.get("ETag"), language: r.headers.get("Content-Language") };
    this.definitions.set(key, entry);
    return entry;
  }

  /** Whether the server answers at all (its public style sheet loads from any origin): tells a
   * refused origin (CORS) from a server that is down, which a browser reports alike. */
  async reachable() {
    try {
      const r = await this.fetch(new URL("client/formd.css", this.server).href, { method: "HEAD", mode: "cors", cache: "no-store" });
      return r.ok;
    } catch {
      return false;
    }
  }

  /** `GET /forms/{id}?raw=true` as text: the definition's bytes as served (the page's engine loads
   * them, so its answers name the same version as the server's), and that version. */
  async definitionSource(id) {
    const r = await this.fetch(this.url(`forms/${encodeURIComponent(id)}?raw=true`), { mode: "cors", headers: { Accept: "application/json" } });
    if (!r.ok) throw new FormdError(r.status, {});
    this.loaded.add(r.url || this.url(`forms/${encodeURIComponent(id)}?raw=true`));
    return { text: await r.text(), version: r.headers.get("ETag") };
  }

  /** `POST /forms/{id}/evaluate`: the live state. `version` pins the definition (`If-Match`). */
  async evaluate(id, values = {}, changed = [], { version = null, signal } = {}) {
    return (await this.request("POST", `forms/${encodeURIComponent(id)}/evaluate`, {
      json: { values, changed }, version, signal,
    })).body;
  }

  /** `POST /forms/{id}/validate`: `{valid, values, errors, dropped, ...}`; invalid is not an error. */
  async validate(id, values = {}, { version = null, signal } = {}) {
    return (await this.request("POST", `forms/${encodeURIComponent(id)}/validate`, {
      json: values, version, signal, accept422: true,
    })).body;
  }

  async request(method, path, { json, headers = {}, version = null, signal, accept304 = false, accept422 = false } = {}) {
    const url = this.url(path);
    const init = { method, headers: { Accept: "application/json", ...headers }, signal, mode: "cors" };
    if (json !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(json);
    }
    if (version) init.headers["If-Match"] = version;
    const started = performance.now();
    this.emit({ phase: "request", method, url, body: json });
    let response;
    try {
      response = await this.fetch(url, init);
    } catch (e) {
      if (e && e.name === "AbortError") throw e;
      const error = new FormdError(0, { detail: `the server cannot be reached (${e && e.message ? e.message : e})` });
      this.emit({ phase: "response", method, url, status: 0, error, ms: performance.now() - started });
      throw error;
    }
    const requestId = response.headers.get("X-Request-Id");
    let body = null;
    if (response.status !== 304 && response.status !== 204) {
      const text = await response.text();
      try { body = text ? JSON.parse(text) : null; } catch { body = { detail: text }; }
    }
    this.emit({ phase: "response", method, url, status: response.status, body, requestId, ms: performance.now() - started });
    if (method === "GET" && response.status === 200) this.loaded.add(url);
    const language = response.headers.get("Content-Language");
    if (language) this.lastLanguage = language; // the page's engine answers in the server's language
    const ok = response.ok || (accept304 && response.status === 304) || (accept422 && response.status === 422);
    if (!ok) {
      const retry = response.headers.get("Retry-After");
      throw new FormdError(response.status, body || {}, { retryAfter: retry ? Number(retry) : null, requestId });
    }
    return { status: response.status, headers: response.headers, body, requestId };
  }

  emit(event) { for (const l of this.listeners) l(event); }
}

/**
 * One form's requests, numbered: an answer is applied only when no later request's answer has
 * been applied already, so answers that arrive out of order never replace a newer state.
 * `evaluate` and `validate` resolve to the answer, or to null when it arrived too late.
 */
export class FormSession {
  constructor(client, formId, { local = true } = {}) {
    this.client = client;
    this.formId = formId;
    this.version = null;
    this.sent = 0;
    this.applied = 0;
    this.state = null;
    this.useLocal = local;
    this.local = null; // the form in the page's engine, once loaded
    this.onMismatch = null; // (local, server) => void
  }

  /** formd-engine.wasm beside this module, compiled once per page; null where it cannot run. */
  static engine() {
    if (!FormSession.enginePromise) {
      FormSession.enginePromise = typeof WebAssembly !== "object" ? Promise.resolve(null)
        : import(new URL("formd-engine.js", import.meta.url).href)
          .then(async (m) => m.FormdEngine.load(await fetch(new URL("formd-engine.wasm", import.meta.url).href)))
          .catch((e) => { console.warn("formd: the form's rules run on the server (the page's engine did not load)", e); return null; });
    }
    return FormSession.enginePromise;
  }

  async load() {
    const { definition, version, language } = await this.client.definition(this.formId);
    if (this.local && versionDigits(version) !== versionDigits(this.version)) {
      // Another version: the server answers until the page's engine holds this one.
      this.local.free();
      this.local = null;
    }
    this.version = version;
    this.language = language || null;
    if (this.useLocal) this.ready = this.#loadLocal(version); // the server answers until it is ready
    return definition;
  }

  /** Loads the definition as served into the page's engine: every evaluate then runs in the page,
   * with the server's own engine compiled to WebAssembly (same answers, byte for byte). */
  async #loadLocal(version) {
    try {
      const engine = await FormSession.engine();
      if (!engine) return;
      const source = await this.client.definitionSource(this.formId);
      // The same definition the page drew (its variants' versions share the digits).
      if (!source.version || source.version.slice(0, 33) !== String(version).slice(0, 33) || this.version !== version) return;
      const form = engine.loadForm(this.formId, source.text);
      if (this.local) this.local.free();
      this.local = form;
    } catch (e) {
      console.warn("formd: the form's rules run on the server", e);
    }
  }

  /** The answer of the page's engine, or null (no engine, or it failed: the server answers). */
  #localAnswer(kind, values, changed) {
    if (!this.local) return null;
    const locale = this.client.locale || this.client.lastLanguage || null;
    try {
      const r = kind === "evaluate" ? this.local.evaluate(values, { changed, locale }) : this.local.validate(values, { locale });
      const answer = r.answer;
      if (r.deferredFormats && r.deferredFormats.length) answer.deferredFormats = r.deferredFormats;
      // Remote rules (SEMANTICS §6.2) are decided by the server only: the page never guesses.
      if (r.deferredRemote && r.deferredRemote.length) answer.deferredRemote = r.deferredRemote;
      return answer;
    } catch (e) {
      console.warn("formd: the page's engine could not answer; asking the server", e);
      return null;
    }
  }

  evaluate(values, changed = []) {
    const local = this.#localAnswer("evaluate", values, changed);
    // A changed field whose remote rule is to be asked: the server answers (it asks the validator).
    if (local && !local.deferredRemote) return this.#ordered(async () => local, true);
    return this.#ordered(async () => {
      try {
        return await this.client.evaluate(this.formId, values, changed, { version: this.version });
      } catch (e) {
        // No answer from the server (offline, or before the page's engine was ready): the engine
        // answers (a remote rule then stays undecided), so a form opened offline still gets its state.
        if (!(e instanceof FormdError && e.isNetwork)) throw e;
        if (local) return local;
        if (!this.ready) throw e;
        await this.ready;
        const late = this.#localAnswer("evaluate", values, changed);
        if (!late) throw e;
        return late;
      }
    }, true);
  }

  /** `authoritative` (a submit): the server decides, and a local answer that differs from its
   * verdict is reported, because it is a bug. Otherwise (errors shown while fixing) the page's
   * engine answers when it can. */
  validate(values, { authoritative = true } = {}) {
    if (!authoritative) {
      const local = this.#localAnswer("validate", values, []);
      if (local && !local.deferredRemote) return this.#ordered(async () => local, false);
    }
    return this.#ordered(async () => {
      const verdict = await this.client.validate(this.formId, values, { version: this.version });
      const local = this.#localAnswer("validate", values, []);
      if (local && !local.deferredFormats && !local.deferredRemote && JSON.stringify(local) !== JSON.stringify(verdict)) {
        console.error("formd: the page's engine and the server disagree; the server's verdict wins", { local, server: verdict });
        if (this.onMismatch) this.onMismatch(local, verdict);
      }
      return verdict;
    }, false);
  }

  /** The number the next request will get; answers of requests numbered below it may still come. */
  get next() { return this.sent + 1; }

  async #ordered(send, isState) {
    const seq = ++this.sent;
    const answer = await send();
    if (seq < this.applied) return null;
    this.applied = seq;
    if (isState) this.state = answer;
    answer.seq = seq;
    return answer;
  }
}

// ---------------------------------------------------------------------------------------------
// The renderer

// The renderer's own words, in every locale formd has messages for. None of them names the
// product: they are read by the people who fill in the form.
const TEXTS = {
  en: {
    submit: "Submit", add: "Add", remove: "Remove", none: "—", yes: "Yes", no: "No",
    valid: "Everything looks good.", invalid: "Please correct the fields marked below.",
    loading: "Loading the form…",
    unreachable: "The form cannot reach the server right now. Your changes are kept and will be sent again.",
    busy: "The server is busy. Your changes are kept and will be sent again shortly.",
    broken: "Something went wrong with this form. Please try again later.",
    refused: "This form cannot be shown on this page.",
    unavailable: "The form could not be loaded. Please try again later.",
    ownerDetails: "Details for the site owner",
    partly: "Parts of this form are not available in {language}.",
    untranslated: "This form is not translated; it is shown as written.",
    updated: "This form was updated while you filled it in. Your answers are kept; please check the marked fields.",
    queued: "Queued: it will be sent as soon as the server can be reached.",
    resubmit: "The form changed before your answers were sent. Nothing was sent: check the marked fields and send again.",
    reenter: "Your answers are kept, but passwords and other hidden fields are not saved on this device. Enter them again and send.",
    added: "New: {list}.", removed: "Removed: {list}.", changedFields: "Changed: {list}.",
    languages: { en: "English", nb: "Norwegian", es: "Spanish" },
  },
  nb: {
    submit: "Send", add: "Legg til", remove: "Fjern", none: "—", yes: "Ja", no: "Nei",
    valid: "Alt ser riktig ut.", invalid: "Rett opp feltene som er merket nedenfor.",
    loading: "Laster skjemaet …",
    unreachable: "Skjemaet får ikke kontakt med serveren nå. Endringene dine er tatt vare på og sendes på nytt.",
    busy: "Serveren er opptatt. Endringene dine er tatt vare på og sendes på nytt om litt.",
    broken: "Noe gikk galt med skjemaet. Prøv igjen senere.",
    refused: "Skjemaet kan ikke vises på denne siden.",
    unavailable: "Skjemaet kunne ikke lastes. Prøv igjen senere.",
    ownerDetails: "Detaljer for den som drifter nettstedet",
    partly: "Deler av skjemaet finnes ikke på {language}.",
    untranslated: "Skjemaet er ikke oversatt; det vises slik det er skrevet.",
    updated: "Skjemaet ble oppdatert mens du fylte det ut. Svarene dine er tatt vare på; se over feltene som er merket.",
    queued: "I kø: sendes så snart serveren kan nås.",
    resubmit: "Skjemaet ble endret før svarene dine ble sendt. Ingenting er sendt: se over feltene som er merket, og send på nytt.",
    reenter: "Svarene dine er tatt vare på, men passord og andre skjulte felt lagres ikke på denne enheten. Fyll dem inn på nytt og send.",
    added: "Nytt: {list}.", removed: "Fjernet: {list}.", changedFields: "Endret: {list}.",
    languages: { en: "engelsk", nb: "norsk", es: "spansk" },
  },
  es: {
    submit: "Enviar", add: "Añadir", remove: "Quitar", none: "—", yes: "Sí", no: "No",
    valid: "Todo está correcto.", invalid: "Corrija los campos marcados a continuación.",
    loading: "Cargando el formulario…",
    unreachable: "El formulario no puede conectar con el servidor en este momento. Sus cambios se conservan y se enviarán de nuevo.",
    busy: "El servidor está ocupado. Sus cambios se conservan y se enviarán de nuevo en breve.",
    broken: "Algo ha fallado en este formulario. Inténtelo de nuevo más tarde.",
    refused: "Este formulario no se puede mostrar en esta página.",
    unavailable: "No se ha podido cargar el formulario. Inténtelo de nuevo más tarde.",
    ownerDetails: "Detalles para el responsable del sitio",
    partly: "Partes de este formulario no están disponibles en {language}.",
    untranslated: "Este formulario no está traducido; se muestra tal como está escrito.",
    updated: "Este formulario se actualizó mientras lo rellenaba. Sus respuestas se conservan; revise los campos marcados.",
    queued: "En cola: se enviará en cuanto se pueda conectar con el servidor.",
    resubmit: "El formulario cambió antes de enviar sus respuestas. No se ha enviado nada: revise los campos marcados y envíelo de nuevo.",
    reenter: "Sus respuestas se conservan, pero las contraseñas y otros campos ocultos no se guardan en este dispositivo. Vuelva a introducirlos y envíe.",
    added: "Nuevo: {list}.", removed: "Eliminado: {list}.", changedFields: "Modificado: {list}.",
    languages: { en: "inglés", nb: "noruego", es: "español" },
  },
};

/** The language (`en`, `nb`, `es`) of a locale tag, or null when it is none of them. */
function language(locale) {
  const lang = String(locale || "").toLowerCase().split(/[-_]/)[0];
  return TEXTS[lang] ? lang : ({ no: "nb", nn: "nb" }[lang] || null);
}

function texts(locale) {
  return TEXTS[language(locale || document.documentElement.lang || navigator.language) || "en"];
}

/** The tag Intl formats with: the chosen locale, else the page's, else the browser's. */
function intlLocale(locale) {
  const tag = locale || document.documentElement.lang || navigator.language || "en";
  try { return Intl.getCanonicalLocales(tag)[0] || "en"; } catch { return "en"; }
}

/**
 * The languages every per-language text of a definition (as written, `?raw=true`) is given in,
 * or null when it gives none per language (a form written in one language).
 */
function definitionLanguages(raw) {
  const TEXT_KEYS = new Set(["title", "info", "placeholder", "accessibility_label", "action_title"]);
  let common = null;
  const seen = new Set();
  const walk = (node, depth) => {
    if (!node || typeof node !== "object" || depth > 64 || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) { for (const x of node) walk(x, depth + 1); return; }
    for (const [k, v] of Object.entries(node)) {
      if (k === "messages") continue;
      if (TEXT_KEYS.has(k) && v && typeof v === "object" && !Array.isArray(v)) {
        const langs = Object.keys(v).map(language).filter(Boolean);
        common = common === null ? new Set(langs) : new Set(langs.filter((l) => common.has(l)));
      } else {
        walk(v, depth + 1);
      }
    }
  };
  walk(raw, 0);
  return common;
}

/**
 * What a form's `autocomplete`, `inputmode` and keyboard hints are, from its kind, `input_type`
 * and id (the last part of an instance id): `email`, `username`, `new-password`, `tel`,
 * `postal-code`, names and addresses, numeric keyboards for numbers and digit-only codes.
 */
function inputHints(f, kind, id) {
  const inputType = typeof f.input_type === "string" ? f.input_type.toLowerCase() : "";
  const key = (String(id).split(/[.\]]/).filter(Boolean).pop() || "").toLowerCase().replace(/[^a-z0-9]+/g, "_");
  const is = (re) => re.test(key);
  const h = { type: "text", inputmode: null, autocomplete: null, autocapitalize: null, spellcheck: null };
  const format = f.validations && typeof f.validations.format === "string" ? f.validations.format : "";
  const digitsOnly = /^\^(\[0-9\]|\\d)(\{\d+(,\d*)?\}|[+*])?\$$/.test(format); // "^[0-9]{4}$"
  if (kind === "email" || inputType === "email" || is(/(^|_)e_?mail($|_)/)) {
    h.type = "email";
    h.inputmode = "email";
    h.autocomplete = is(/^(e_?mail|contact_e_?mail|your_e_?mail)$/) ? "email" : is(/^work_e_?mail$/) ? "work email" : "off";
    h.spellcheck = "false";
  } else if (kind === "password" || f.secret === true) {
    h.type = kind === "password" ? "password" : "text";
    h.autocomplete = kind === "password" ? "new-password" : "off";
  } else if (inputType === "phone" || kind === "phone_number" || is(/(^|_)(phone|tel|telephone|mobile)(_number)?$/)) {
    h.type = "tel";
    h.autocomplete = "tel";
  } else if (is(/^username$|^user_name$|^login$/)) {
    h.autocomplete = "username";
    h.autocapitalize = "none";
    h.spellcheck = "false";
  } else if (is(/(^|_)(postal_code|postcode|post_code|zip|zip_code)$/)) {
    h.autocomplete = "postal-code";
    if (inputType === "number" || digitsOnly) h.inputmode = "numeric";
  } else if (is(/^(first_name|given_name|fornavn)$/)) h.autocomplete = "given-name";
  else if (is(/^(last_name|family_name|surname|etternavn)$/)) h.autocomplete = "family-name";
  else if (is(/^(name|full_name|your_name)$/) || (kind === "name" && !is(/company|org/))) h.autocomplete = "name";
  else if (is(/^(address|street_address|address_line_?1)$/)) h.autocomplete = "street-address";
  else if (is(/^(city|town)$/)) h.autocomplete = "address-level2";
  else if (is(/^country$/)) h.autocomplete = "country-name";
  else if (is(/^(company|company_name|organization|organisation)$/)) h.autocomplete = "organization";
  else if (is(/(^|_)(pin|pin_code|otp)$/)) { h.autocomplete = "off"; h.inputmode = "numeric"; }
  else if (is(/social_security|national_id|ssn|fodselsnummer|account_number/)) { h.autocomplete = "off"; h.inputmode = "numeric"; }
  if (h.type === "text" && !h.inputmode) {
    if (kind === "number" || kind === "count" || inputType === "number" || digitsOnly) h.inputmode = "numeric";
    else if (kind === "float" || inputType === "decimal") h.inputmode = "decimal";
  }
  return h;
}

let renderCount = 0;

const TEXT_KINDS = new Set(["text", "name", "email", "password", "number", "count", "float"]);


function el(tag, attrs = {}, children = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") e.textContent = v;
    else if (k === "className") e.className = v;
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of [].concat(children)) if (c) e.append(c);
  return e;
}

/** `YYYY-MM-DDTHH:MM:SS(.sss)Z` (formd's canonical date-time) as a local `datetime-local` value. */
function utcToLocalInput(s) {
  const d = new Date(s);
  if (Number.isNaN(d.getTime())) return String(s);
  const p = (n, w = 2) => String(n).padStart(w, "0");
  return `${p(d.getFullYear(), 4)}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** The decimal separator of a locale (`,` in nb and es). */
function decimalSeparator(locale) {
  try {
    const part = new Intl.NumberFormat(intlLocale(locale)).formatToParts(1.5).find((p) => p.type === "decimal");
    return part ? part.value : ".";
  } catch {
    return ".";
  }
}

/**
 * A value as a person reads it in `locale`: numbers grouped, decimals (money) with two digits
 * (a title with "%" with up to two), dates and times in words, options by title, switches as
 * yes or no. For outputs (computed fields); what formd has stays in `data-value`.
 */
function displayValue(entry, value, locale, t) {
  if (value === null || value === undefined || value === "") return "";
  const tag = intlLocale(locale);
  try {
    if (entry.options) {
      const title = (id) => {
        const o = entry.options.find((x) => x.id === id);
        return o && o.title != null ? String(o.title) : String(id);
      };
      return Array.isArray(value) ? value.map(title).join(", ") : title(value);
    }
    if (entry.kind === "switch" && typeof value === "boolean") return value ? t.yes : t.no;
    if (typeof value === "number" && Number.isFinite(value)) {
      if (entry.kind === "float") {
        const percent = /%/.test(String(entry.def.title || ""));
        return new Intl.NumberFormat(tag, percent ? { maximumFractionDigits: 2 } : { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
      }
      return new Intl.NumberFormat(tag, { maximumFractionDigits: 20 }).format(value);
    }
    if (typeof value === "string" && entry.kind === "date" && /^\d{4}-\d\d-\d\d$/.test(value)) {
      return new Intl.DateTimeFormat(tag, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${value}T00:00:00Z`));
    }
    if (typeof value === "string" && entry.kind === "date_time") {
      const d = new Date(value);
      if (!Number.isNaN(d.getTime())) return new Intl.DateTimeFormat(tag, { dateStyle: "medium", timeStyle: "short" }).format(d);
    }
    if (typeof value === "string" && entry.kind === "time" && /^\d\d:\d\d(:\d\d)?$/.test(value)) {
      return new Intl.DateTimeFormat(tag, { timeStyle: "short", timeZone: "UTC" }).format(new Date(`1970-01-01T${value.length === 5 ? value + ":00" : value}Z`));
    }
  } catch {
    // A value or locale Intl does not take: shown as formd has it.
  }
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** A `datetime-local` value as RFC 3339 with the browser's offset for that moment. */
function localInputToRFC3339(s) {
  const withSeconds = /T\d\d:\d\d$/.test(s) ? s + ":00" : s;
  const d = new Date(withSeconds);
  if (Number.isNaN(d.getTime())) return s;
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? "+" : "-";
  const abs = Math.abs(off);
  return `${withSeconds.slice(0, 19)}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/**
 * Draws form `formId` into `element` and keeps it live. Options: `server` (default: where this
 * module came from), `client` (a FormdClient to share), `locale`, `debounce` (ms, default 0:
 * coalescing alone), `remoteDebounce` (ms before a field with a remote rule is checked, default
 * 300), `onSubmit(answer)`, `onState(answer)`. Resolves to a FormView.
 */
export async function render(element, formId, options = {}) {
  const client = options.client || new FormdClient({ server: options.server, locale: options.locale, fetch: options.fetch });
  if (options.locale) client.locale = options.locale;
  const view = new FormView(element, client, formId, options);
  element.formdView = view; // the handle for embedders and tests
  view.showLoading();
  try {
    await view.start();
  } catch (error) {
    // Never blank: the element says the form cannot be shown, and why for whoever runs the site.
    await view.showFailure(error);
    throw error;
  }
  return view;
}

/** The fields of a definition by id, each as its JSON text (a changed definition changes it). */
function fieldsOf(definition) {
  const out = new Map();
  const walk = (node, key) => {
    if (Array.isArray(node)) {
      for (const item of node) {
        if (key === "fields" && item && typeof item === "object" && typeof item.id === "string") out.set(item.id, JSON.stringify(item));
        walk(item, null);
      }
    } else if (node && typeof node === "object") {
      for (const [k, v] of Object.entries(node)) walk(v, k);
    }
  };
  walk(definition, null);
  return out;
}

/** A short digest of a text (FNV-1a, 32 bits): what the kept values remember of each field. */
function digest(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16);
}

/** A definition's fields as `{id: digest}`, kept with the values to tell later what changed. */
function fieldDigests(definition) {
  return Object.fromEntries([...fieldsOf(definition)].map(([id, json]) => [id, digest(json)]));
}

/** What changed from one definition to the next: `{added, removed, changed}` field ids. */
export function definitionChanges(before, after) {
  const a = fieldsOf(before), b = fieldsOf(after);
  return changesBetween(a, b);
}

function changesBetween(a, b) {
  return {
    added: [...b.keys()].filter((id) => !a.has(id)),
    removed: [...a.keys()].filter((id) => !b.has(id)),
    changed: [...b.keys()].filter((id) => a.has(id) && a.get(id) !== b.get(id)),
  };
}

/** The titles of a definition's fields by id (for the notice that lists what changed). */
function fieldTitles(definition) {
  const out = new Map();
  for (const [id, json] of fieldsOf(definition)) {
    try { const f = JSON.parse(json); if (typeof f.title === "string" && f.title.trim()) out.set(id, f.title.trim()); } catch { /* the id then */ }
  }
  return out;
}

/** The version's digits: a definition's variants (per locale) share them. */
function versionDigits(version) {
  return String(version || "").replace(/^W\//, "").replace(/"/g, "").slice(0, 32);
}

/** localStorage, or null where the page may not use it (a sandbox, a full quota, privacy modes). */
function storage() {
  try { return globalThis.localStorage || null; } catch { return null; }
}

/** A rendered form. `values` is what the user entered (and formd set); `state` formd's last answer. */
export class FormView {
  constructor(element, client, formId, options) {
    this.element = element;
    this.client = client;
    this.formId = formId;
    this.options = options;
    this.session = new FormSession(client, formId, { local: options.local !== false });
    this.session.onMismatch = (local, server) =>
      this.element.dispatchEvent(new CustomEvent("formd:mismatch", { bubbles: true, detail: { local, server } }));
    this.prefix = `formd${++renderCount}`;
    this.values = {};
    this.editSeq = {}; // key -> the session's request number at the time of the user's last edit
    this.pending = []; // changed ids not yet sent
    this.inFlight = null;
    this.timer = null;
    this.submitted = false;
    this.fields = new Map(); // field id (instance ids included) -> {def, wrapper, controls, kind, computed}
    this.sections = new Map(); // section id -> element
    this.dynamic = new Map(); // dynamic section id -> {template, container, instances: Set<n>, addButton}
    this.errorTargets = new Set();
    this.lastErrors = [];
    this.pendingSeq = {}; // field id -> the request whose answer ends its remote check's pending state
    this.instanceSeq = {}; // instance section id -> request number when the user added or removed it
    this.touched = new Set(); // field and section ids the person has left (blur) or added to
    this.attempted = false; // a submit was tried: every error shows from then on
    this.allErrors = []; // the last answer's errors, shown or not
    this.allWarnings = []; // and its warnings
    this.switched = false; // the person chose another locale after the form opened
    this.languages = undefined; // the languages every per-language text is in; null: none per language
    this.t = texts(client.locale);
    this.queued = false; // a submit is waiting for the server (docs/CLIENT.md, "Offline")
    this.queueTries = 0;
    this.onOnline = () => { if (this.queued) { this.queueTries = 0; this.sendQueued(); } };
    if (typeof window !== "undefined") window.addEventListener("online", this.onOnline);
  }

  get locale() { return this.client.locale; }

  async start() {
    this.definition = await this.session.load();
    // What the person typed before (a reload, a closed tab, offline): kept per form and version.
    const kept = this.restoreKept();
    this.build(kept ? kept.instances : null);
    if (kept) {
      for (const k of Object.keys(kept.values)) {
        const entry = this.fields.get(k);
        if ((entry && (entry.secret || entry.computed)) || this.isSecretKey(k)) delete kept.values[k];
      }
      this.values = kept.values;
      for (const [id, entry] of this.fields) if (Object.prototype.hasOwnProperty.call(kept.values, id)) this.writeControl(entry, kept.values[id]);
    }
    await this.loadLanguages();
    this.updateNotice();
    // The first state comes before the form shows; without it there is no form to show.
    const seq = this.session.next;
    const answer = await this.session.evaluate(this.submission(), []);
    if (answer) this.apply(answer, seq);
    if (kept && kept.changes) this.showChanges(kept.changes, kept.titles);
    this.resumeQueued(kept);
    // With an offline worker, what this form needs is kept for the next visit without network.
    this.client.keepOffline([typeof location !== "undefined" ? location.href : ""].filter(Boolean)).then((ok) => {
      if (ok && this.form) this.form.setAttribute("data-offline", "ready");
    });
  }

  // ---- kept values and the queued submit (docs/CLIENT.md, "Offline") --------------------------

  /** Kept per server, form and place in the page (the element's id): two forms on one page keep
   * their own values. */
  keyPrefix(kind) { return `formd:${kind}:${this.client.server}:${this.formId}:${this.element.id || ""}:`; }

  /** Saves what the person entered (never a secret field, never a computed one) and the
   * instances of each repeating section, under this form and version. */
  keep() {
    const store = this.options.keep === false ? null : storage();
    if (!store || !this.session.version) return;
    const values = {};
    for (const [k, v] of Object.entries(this.values)) {
      const entry = this.fields.get(k);
      if (entry && (entry.secret || entry.computed)) continue;
      if (!entry && this.isSecretKey(k)) continue;
      values[k] = v;
    }
    const instances = Object.fromEntries([...this.dynamic].map(([sid, d]) => [sid, [...d.instances.keys()]]));
    const record = { version: this.session.version, at: Date.now(), values, instances, fields: fieldDigests(this.definition) };
    const key = this.keyPrefix("values") + versionDigits(this.session.version);
    try {
      store.setItem(key, JSON.stringify(record));
      // One record per form: an earlier version's was carried over when the form opened.
      for (const k of Object.keys(store)) if (k.startsWith(this.keyPrefix("values")) && k !== key) store.removeItem(k);
    } catch (e) {
      console.warn("formd: the values could not be kept on this device", e);
    }
  }

  /** Whether a key is a secret field's (a template's `:index` id, for instances not drawn). */
  isSecretKey(key) {
    const m = /^(.*)\[(\d+)\]\.(.*)$/.exec(key);
    const d = m && this.dynamic.get(m[1]);
    const f = d && d.template && (d.template.fields || []).find((x) => x && FormView.instanceId(x.id, Number(m[2])) === key);
    return !!(f && (f.type === "password" || f.secret === true));
  }

  /** What was kept for this form: this version's values, or (the form changed since) another
   * version's, with what changed. */
  restoreKept() {
    const store = this.options.keep === false ? null : storage();
    if (!store) return null;
    let record = null;
    try {
      const exact = store.getItem(this.keyPrefix("values") + versionDigits(this.session.version));
      if (exact) record = JSON.parse(exact);
      else {
        for (const k of Object.keys(store)) {
          if (!k.startsWith(this.keyPrefix("values"))) continue;
          const r = JSON.parse(store.getItem(k));
          if (!record || (r && r.at > record.at)) record = r;
        }
      }
    } catch { return null; }
    if (!record || typeof record.values !== "object" || !record.values) return null;
    const instances = new Map(Object.entries(record.instances || {}).filter(([, v]) => Array.isArray(v)).map(([sid, v]) => [sid, v.map(Number).filter((n) => Number.isInteger(n) && n >= 0).slice(0, 100)]));
    const out = { values: { ...record.values }, instances };
    if (versionDigits(record.version) !== versionDigits(this.session.version) && record.fields) {
      out.changes = changesBetween(new Map(Object.entries(record.fields)), new Map(Object.entries(fieldDigests(this.definition))));
      out.titles = fieldTitles(this.definition);
    }
    return out;
  }

  /** Forgets the kept values and any queued submit (after a successful submit). */
  forget() {
    const store = storage();
    if (!store) return;
    try {
      for (const k of Object.keys(store)) if (k.startsWith(this.keyPrefix("values")) || k.startsWith(this.keyPrefix("queued"))) store.removeItem(k);
    } catch { /* nothing kept */ }
  }

  /** Whether a secret field (password, `"secret": true`) has a value: a queued submit then cannot
   * survive a reload (secrets are never stored). */
  hasSecretValues() {
    return [...this.fields].some(([k, entry]) => entry.secret && this.values[k] !== undefined && this.values[k] !== null && this.values[k] !== "");
  }

  /** A submit without network: kept (it survives a reload), `[data-form-status]` says so, and it
   * is sent by itself when the server answers again (the `online` event, and a backoff). */
  queue() {
    this.queued = true;
    this.keep();
    const store = storage();
    try {
      if (store) store.setItem(this.keyPrefix("queued") + "submit", JSON.stringify({ version: this.session.version, at: Date.now(), secrets: this.hasSecretValues() }));
    } catch { /* kept for this page only */ }
    this.showStatus("queued");
    this.banner.textContent = this.t.unreachable;
    this.banner.hidden = false;
    this.scheduleQueued();
  }

  unqueue() {
    this.queued = false;
    clearTimeout(this.queueTimer);
    const store = storage();
    try { if (store) store.removeItem(this.keyPrefix("queued") + "submit"); } catch { /* nothing kept */ }
  }

  /** The next try: 1, 2, 4, 8, 16, then every 30 seconds. */
  scheduleQueued() {
    clearTimeout(this.queueTimer);
    const delay = Math.min(30000, 1000 * 2 ** Math.min(this.queueTries++, 5));
    this.queueTimer = setTimeout(() => this.sendQueued(), delay);
  }

  async sendQueued() {
    if (!this.queued || this.sendingQueued || !this.form || !this.form.isConnected) return;
    this.sendingQueued = true;
    try { await this.submit({ fromQueue: true }); } finally { this.sendingQueued = false; }
  }

  /** After a reload: a submit queued before it is sent now, unless it had a secret value (never
   * stored): then the person is asked to enter it again and send. */
  resumeQueued(kept) {
    const store = storage();
    let record = null;
    try { record = store && JSON.parse(store.getItem(this.keyPrefix("queued") + "submit")); } catch { record = null; }
    if (!record) return;
    if (record.secrets) {
      this.unqueue();
      this.showStatus("reenter");
      return;
    }
    if (kept && kept.changes) {
      // The form changed since the submit was queued: the person checks the changes first.
      this.unqueue();
      this.showStatus("resubmit");
      return;
    }
    this.queued = true;
    this.attempted = true;
    this.showStatus("queued");
    this.queueTries = 0;
    this.sendQueued();
  }

  /** `[data-form-notice]`: the form was updated, and which fields were added, removed or changed. */
  showChanges(changes, titles) {
    const name = (id) => titles.get(id) || id;
    const parts = [this.t.updated];
    if (changes.added.length) parts.push(this.t.added.replace("{list}", changes.added.map(name).join(", ")));
    if (changes.removed.length) parts.push(this.t.removed.replace("{list}", changes.removed.map((id) => titles.get(id) || id).join(", ")));
    if (changes.changed.length) parts.push(this.t.changedFields.replace("{list}", changes.changed.map(name).join(", ")));
    this.notice.textContent = parts.join(" ");
    this.notice.hidden = false;
    for (const id of [...changes.added, ...changes.changed]) {
      const entry = this.fields.get(id);
      if (entry && entry.wrapper) entry.wrapper.setAttribute("data-formd-changed", "");
    }
  }

  /** While the definition loads: a short text in place of the embedder's fallback content. */
  showLoading() {
    if (this.element.querySelector(":scope > form.formd")) return;
    this.element.replaceChildren(el("p", { className: "formd-loading", role: "status", text: this.t.loading }));
    this.element.setAttribute("aria-busy", "true");
  }

  /**
   * The form cannot be shown: a short text for the person, the reason for whoever runs the site
   * (in a collapsed block and on the console), and `data-formd-failed` on the element: `origin`
   * (the server does not allow this page's origin), `network`, `not-found` or `error`.
   */
  async showFailure(error) {
    clearTimeout(this.timer);
    clearTimeout(this.retry);
    let reason = "error";
    let detail = error && error.message ? String(error.message) : String(error);
    if (error instanceof FormdError && error.isNetwork) {
      reason = "network";
      const server = new URL(this.client.server);
      if (server.origin !== location.origin && (await this.client.reachable())) {
        reason = "origin";
        detail = `The server at ${server.origin} refused this page's origin, ${location.origin}. `
          + `Add "${location.origin}" to its cors.allowed_origins (exact origins: scheme, host and port must match; `
          + `http://localhost:8000 and http://127.0.0.1:8000 are different origins).`;
      }
    } else if (error instanceof FormdError && error.isNotFound) {
      reason = "not-found";
    }
    console.error(`formd: the form "${this.formId}" cannot be shown: ${detail}`);
    const t = this.t;
    this.element.replaceChildren(el("div", { className: "formd formd-failed", role: "alert" }, [
      el("p", { className: "formd-failed-text", text: reason === "origin" ? t.refused : t.unavailable }),
      el("details", { className: "formd-failed-details" }, [el("summary", { text: t.ownerDetails }), el("p", { text: detail })]),
    ]));
    this.element.setAttribute("data-formd-failed", reason);
    this.element.removeAttribute("aria-busy");
  }

  /** Which languages the form's texts are given in (the definition as written tells). */
  async loadLanguages() {
    try {
      if (!this.client.locale) this.languages = definitionLanguages(this.definition);
      else if (!this.session.language) this.languages = null; // not per language: one language, as written
      else this.languages = definitionLanguages((await this.client.definition(this.formId, { raw: true })).definition);
    } catch {
      this.languages = undefined; // unknown: say nothing
    }
  }

  /** Says so when the form lacks the chosen language, instead of mixing languages silently. */
  updateNotice() {
    if (!this.notice) return;
    const lang = language(this.client.locale);
    let text = "";
    if (this.languages && lang && !this.languages.has(lang)) text = this.t.partly.replace("{language}", this.t.languages[lang]);
    else if (this.languages === null && this.switched) text = this.t.untranslated;
    this.notice.textContent = text;
    this.notice.hidden = !text;
    this.form.toggleAttribute("data-untranslated", !!text);
  }

  /** Switches the locale: messages come back in it with the next answer, and a form whose
   * definition gives its texts per language is drawn again in the new one (values kept). */
  async setLocale(locale) {
    if ((locale || null) !== this.client.locale) this.switched = true;
    this.client.locale = locale || null;
    this.t = texts(locale);
    const before = this.session.version;
    const definition = await this.session.load();
    if (this.session.version !== before) {
      this.definition = definition;
      this.rebuild();
    } else {
      this.relabel();
    }
    await this.loadLanguages();
    this.updateNotice();
    await this.refresh([]);
  }

  /** Draws the form again (new definition or language), keeping values, instances and errors. */
  rebuild() {
    const values = this.values;
    const instances = new Map([...this.dynamic].map(([sid, d]) => [sid, [...d.instances.keys()]]));
    const status = this.form && this.form.dataset.status;
    this.fields.clear(); this.sections.clear(); this.dynamic.clear(); this.errorTargets.clear();
    this.build(instances);
    this.values = values;
    for (const [id, entry] of this.fields) if (Object.prototype.hasOwnProperty.call(values, id)) this.writeControl(entry, values[id]);
    this.form.removeAttribute("data-loading");
    this.form.removeAttribute("aria-busy");
    if (status) this.showStatus(status);
    this.showErrors(this.allErrors);
    this.showWarnings(this.allWarnings);
  }

  /** Stops listening and empties the element. */
  destroy() {
    clearTimeout(this.timer);
    clearTimeout(this.retry);
    clearTimeout(this.queueTimer);
    if (typeof window !== "undefined") window.removeEventListener("online", this.onOnline);
    this.element.replaceChildren();
  }

  // ---- building ------------------------------------------------------------------------------

  build(instances = null) {
    const def = this.definition; // always the Hyper shape: the server reads PureForm (`?shape=hyper`)
    const groups = Array.isArray(def) ? def : def.groups || [];
    const templates = (!Array.isArray(def) && def.templates && def.templates.sections) || [];
    this.templates = new Map(templates.filter((s) => s && s.id).map((s) => [s.id, s]));
    this.t = texts(this.client.locale);
    const form = el("form", { className: "formd", "data-formd": this.formId, novalidate: true, "data-loading": true, "aria-busy": "true" });
    this.form = form;
    if (!Array.isArray(def) && typeof def.title === "string") form.append(el("h2", { className: "formd-title", text: def.title }));
    this.banner = el("div", { className: "formd-banner", "data-form-message": true, role: "alert", hidden: true });
    this.notice = el("p", { className: "formd-notice", "data-form-notice": true, hidden: true });
    this.formErrors = el("div", { className: "formd-error formd-form-errors", "data-form-errors": true, role: "alert" });
    form.append(this.notice, this.banner, this.formErrors);
    for (const group of groups) {
      if (!group || typeof group !== "object") continue;
      const fs = el("fieldset", { className: "formd-group", "data-group": group.id });
      if (group.title) fs.append(el("legend", { text: group.title }));
      for (const section of group.sections || []) {
        if (!section || typeof section !== "object") continue;
        const isDynamic = section.type === "dynamic";
        const sec = el("section", { className: isDynamic ? "formd-section formd-dynamic" : "formd-section", "data-section": section.id });
        if (section.title) sec.append(el("h3", { className: "formd-section-title", text: section.title }));
        if (section.id) this.sections.set(section.id, sec);
        if (isDynamic) {
          this.buildDynamic(sec, section);
        } else {
          const grid = el("div", { className: "formd-fields" });
          for (const f of section.fields || []) {
            const w = this.buildField(f, f && f.id, false);
            if (!w) continue;
            grid.append(w);
          }
          sec.append(grid);
        }
        fs.append(sec);
      }
      form.append(fs);
    }
    this.status = el("output", { className: "formd-status", "data-form-status": true, "aria-live": "polite" });
    const bar = el("div", { className: "formd-submit" });
    // The form's own submit buttons (button fields without targets) may be hidden with their
    // section; this one is shown whenever none of them is.
    this.submitButton = el("button", { type: "submit", className: "formd-button formd-primary", text: this.t.submit, "data-formd-submit": true });
    bar.append(this.submitButton, this.status);
    this.valuesOut = el("pre", { className: "formd-values", "data-form-values": true, hidden: true });
    form.append(bar, this.valuesOut);
    form.addEventListener("input", (e) => this.onInput(e));
    form.addEventListener("change", (e) => this.onInput(e));
    form.addEventListener("focusout", (e) => this.onBlur(e));
    form.addEventListener("submit", (e) => { e.preventDefault(); this.submit(); });
    form.addEventListener("click", (e) => this.onClick(e));
    // Repeating sections open with their min_instances (or, drawn again, the instances they had),
    // so that nobody is told to add one before they could act.
    for (const [sid, d] of this.dynamic) {
      let wanted = instances && instances.get(sid);
      if (!wanted) {
        const min = Number(d.section.min_instances ?? (d.template && d.template.min_instances));
        const max = Number(d.section.max_instances ?? (d.template && d.template.max_instances));
        const count = Number.isFinite(min) && min > 0 ? Math.min(Math.floor(min), Number.isFinite(max) && max >= 0 ? max : Infinity, 100) : 0;
        wanted = Array.from({ length: count }, (_, n) => n);
      }
      for (const n of wanted) this.addInstance(sid, n, false);
    }
    this.element.replaceChildren(form);
    this.element.removeAttribute("aria-busy");
  }

  buildDynamic(sec, section) {
    const template = this.templates.get(section.id);
    const container = el("div", { className: "formd-instances" });
    const add = el("button", {
      type: "button", className: "formd-button formd-add", "data-add-instance": section.id,
      text: section.action_title || this.t.add,
    });
    const error = el("div", { className: "formd-error", "data-error-for": section.id, id: `${this.prefix}-e-${section.id}`, "aria-live": "polite" });
    add.setAttribute("aria-describedby", error.id);
    sec.append(container, add, error);
    this.dynamic.set(section.id, { section, template, container, instances: new Map(), addButton: add, custom: !!section.action_title });
  }

  /** The `:index` ids of a template for instance `n`. */
  static instanceId(id, n) { return String(id).split(":index").join(String(n)); }

  addInstance(sectionId, n, focus) {
    const d = this.dynamic.get(sectionId);
    if (!d || d.instances.has(n) || !d.template) return;
    const id = `${sectionId}[${n}]`;
    const box = el("section", { className: "formd-section formd-instance", "data-section": id, "data-instance": n });
    if (d.template.title) box.append(el("h4", { className: "formd-instance-title", text: `${FormView.instanceId(d.template.title, n)}` }));
    const grid = el("div", { className: "formd-fields" });
    let remove = null;
    for (const f of d.template.fields || []) {
      if (!f || typeof f !== "object") continue;
      const fid = FormView.instanceId(f.id, n);
      // A template button without targets removes its instance (as the bundled forms use it).
      const isRemove = f.type === "button" && !(f.targets && f.targets.length) && !remove;
      const w = this.buildField({ ...f, id: fid, title: f.title && FormView.instanceId(f.title, n) }, fid, isRemove ? id : false);
      if (!w) continue;
      if (isRemove) remove = w.querySelector("button");
      grid.append(w);
    }
    if (!remove) {
      remove = el("button", { type: "button", className: "formd-button formd-remove", "data-remove-instance": id, text: this.t.remove });
      remove.dataset.generated = "";
      grid.append(el("div", { className: "formd-field formd-remove-field" }, remove));
    }
    remove.setAttribute("aria-label", `${remove.textContent} ${d.section.title || sectionId} ${n + 1}`);
    box.append(grid);
    // Instances by index, as formd orders them.
    const after = [...d.instances.entries()].filter(([k]) => k > n).sort((a, b) => a[0] - b[0])[0];
    d.container.insertBefore(box, after ? after[1] : null);
    d.instances.set(n, box);
    this.sections.set(id, box);
    if (focus) {
      const first = box.querySelector("input:not([readonly]), select:not([disabled]), textarea:not([readonly])");
      if (first) first.focus();
    }
  }

  removeInstanceDOM(sectionId, n) {
    const d = this.dynamic.get(sectionId);
    const box = d && d.instances.get(n);
    if (!box) return;
    for (const w of box.querySelectorAll("[data-field]")) this.fields.delete(w.dataset.field);
    this.sections.delete(`${sectionId}[${n}]`);
    box.remove();
    d.instances.delete(n);
  }

  buildField(f, id, removeFor) {
    if (!f || typeof f !== "object" || typeof id !== "string" || !id) return null;
    const kind = typeof f.type === "string" ? f.type : "text";
    const width = f.size && Number(f.size.width) > 0 ? Math.min(100, Number(f.size.width)) : 100;
    const wrapper = el("div", { className: `formd-field formd-kind-${kind.replace(/[^a-z0-9_-]/gi, "")}`, "data-field": id, "data-kind": kind });
    wrapper.style.setProperty("--formd-width", String(width));
    const cid = `${this.prefix}-f-${id}`;
    const errorId = `${this.prefix}-e-${id}`;
    const infoId = f.info ? `${this.prefix}-i-${id}` : null;
    const computed = typeof f.formula === "string" && f.formula.trim() !== "";
    // Secret fields (passwords, "secret": true) are never echoed by answers: the page keeps
    // what the person typed instead of taking the answer's (absent) value.
    const secret = kind === "password" || f.secret === true;
    const entry = { def: f, wrapper, kind, computed, secret, controls: [], options: null, infoId, errorId };
    let controls = [];
    const inputType = typeof f.input_type === "string" ? f.input_type : "";
    if (kind === "spacer") {
      wrapper.setAttribute("aria-hidden", "true");
      this.fields.set(id, entry);
      return wrapper;
    }
    if (kind === "button") {
      const b = el("button", { type: "button", className: "formd-button", text: f.title || id, "data-button": id });
      if (removeFor) {
        b.setAttribute("data-remove-instance", removeFor);
      } else if (!(f.targets && f.targets.length)) {
        // A button with no targets outside a template is the form's submit button.
        b.type = "submit";
        b.className = "formd-button formd-primary";
        wrapper.dataset.submit = "";
      }
      wrapper.append(b);
      entry.controls = [b];
      this.fields.set(id, entry);
      return wrapper;
    }
    const label = el("label", { className: "formd-label", for: cid, text: f.title || id });
    const options = Array.isArray(f.values) ? f.values.filter((o) => o && typeof o === "object" && "id" in o) : null;
    if (computed) {
      // formd computes it: an <output> (read, not edited), formatted for the locale; what formd
      // has is in data-value.
      const out = el("output", { id: cid, className: "formd-output", "data-value": "" });
      entry.output = out;
      entry.options = options;
      wrapper.append(label, out);
    } else if (kind === "multi_select" && options) {
      // One checkbox per option under the field's name: a native post repeats the key.
      const fs = el("fieldset", { className: "formd-segment formd-choices", id: cid });
      fs.append(el("legend", { className: "formd-label", text: f.title || id }));
      options.forEach((o, i) => {
        const bid = `${cid}-${i}`;
        const box = el("input", { type: "checkbox", id: bid, name: id, value: typeof o.id === "string" ? o.id : JSON.stringify(o.id) });
        box.dataset.option = String(i);
        controls.push(box);
        fs.append(el("span", { className: "formd-option" }, [box, el("label", { for: bid, text: o.title != null ? o.title : String(o.id) })]));
      });
      entry.options = options;
      entry.multiple = true;
      wrapper.append(fs);
    } else if ((kind === "select" || (options && kind !== "segment")) && options) {
      const select = el("select", { id: cid, name: id });
      if (!options.some((o) => o.default === true)) select.append(el("option", { value: "", text: this.t.none }));
      options.forEach((o, i) => select.append(el("option", { value: typeof o.id === "string" ? o.id : JSON.stringify(o.id), "data-option": i, text: o.title != null ? o.title : String(o.id) })));
      entry.options = options;
      controls = [select];
      wrapper.append(label, select);
    } else if (kind === "segment" && options) {
      const fs = el("fieldset", { className: "formd-segment", id: cid });
      fs.append(el("legend", { className: "formd-label", text: f.title || id }));
      options.forEach((o, i) => {
        const rid = `${cid}-${i}`;
        const radio = el("input", { type: "radio", id: rid, name: id, value: typeof o.id === "string" ? o.id : JSON.stringify(o.id) });
        radio.dataset.option = String(i);
        controls.push(radio);
        fs.append(el("span", { className: "formd-option" }, [radio, el("label", { for: rid, text: o.title != null ? o.title : String(o.id) })]));
      });
      entry.options = options;
      wrapper.append(fs);
    } else if (kind === "switch") {
      // value="true": a native form post of a checked box is a value formd accepts.
      const box = el("input", { type: "checkbox", id: cid, name: id, value: "true" });
      controls = [box];
      wrapper.append(el("span", { className: "formd-switch" }, [box, label]));
    } else if (kind === "textarea" || inputType === "textarea" || inputType === "multiline" || (f.size && Number(f.size.height) > 1 && TEXT_KINDS.has(kind))) {
      const ta = el("textarea", { id: cid, name: id, rows: Math.max(3, Number(f.size && f.size.height) || 3), placeholder: f.placeholder });
      controls = [ta];
      wrapper.append(label, ta);
    } else {
      let { type, inputmode, autocomplete, autocapitalize, spellcheck } = inputHints(f, kind, id);
      let step = null;
      if (kind === "date") { type = "date"; inputmode = null; }
      else if (kind === "time") { type = "time"; step = "1"; inputmode = null; }
      else if (kind === "date_time") { type = "datetime-local"; step = "1"; inputmode = null; }
      const input = el("input", {
        id: cid, name: id, type, inputmode, autocomplete, autocapitalize, spellcheck, step, placeholder: f.placeholder,
        min: kind === "date" && typeof f.minimum_date === "string" ? f.minimum_date.slice(0, 10) : null,
        max: kind === "date" && typeof f.maximum_date === "string" ? f.maximum_date.slice(0, 10) : null,
      });
      controls = [input];
      wrapper.append(label, input);
      if (kind === "date_time") {
        // datetime-local has no offset; a native post sends this RFC 3339 copy under the name.
        input.removeAttribute("name");
        entry.post = el("input", { type: "hidden", name: id });
        wrapper.append(entry.post);
      }
    }
    if (f.accessibility_label && controls.length === 1) controls[0].setAttribute("aria-label", f.accessibility_label);
    if (infoId) wrapper.append(el("p", { className: "formd-info", id: infoId, text: f.info }));
    const error = el("div", { className: "formd-error", "data-error-for": id, id: errorId, "aria-live": "polite" });
    wrapper.append(error);
    // Warnings (SEMANTICS §6.1): their own element and style; never aria-invalid.
    entry.warningId = `${this.prefix}-w-${id}`;
    wrapper.append(el("div", { className: "formd-warning", "data-warning-for": id, id: entry.warningId, role: "status", "aria-live": "polite" }));
    for (const c of controls) {
      c.dataset.key = id;
      if (infoId) c.setAttribute("aria-describedby", infoId);
    }
    entry.controls = controls;
    this.fields.set(id, entry);
    return wrapper;
  }

  relabel() {
    if (this.submitButton) this.submitButton.textContent = this.t.submit;
    for (const d of this.dynamic.values()) if (!d.custom) d.addButton.textContent = this.t.add;
    for (const b of this.form.querySelectorAll("[data-remove-instance][data-generated]")) b.textContent = this.t.remove;
    for (const entry of this.fields.values()) {
      if (entry.kind === "select" && entry.controls[0]) {
        const blank = entry.controls[0].querySelector('option[value=""]');
        if (blank) blank.textContent = this.t.none;
      }
    }
    this.showStatus(this.form.dataset.status || null);
  }

  // ---- reading the controls ------------------------------------------------------------------

  readControl(entry) {
    const c = entry.controls[0];
    if (entry.kind === "switch") return c.checked;
    if (entry.multiple) return entry.controls.filter((b) => b.checked).map((b) => entry.options[Number(b.dataset.option)].id);
    if (entry.options && c.tagName === "SELECT") {
      const o = c.selectedOptions[0];
      return !o || o.value === "" ? null : entry.options[Number(o.dataset.option)].id;
    }
    if (entry.options) {
      const on = entry.controls.find((r) => r.checked);
      return on ? entry.options[Number(on.dataset.option)].id : null;
    }
    if (c.value === "") return null;
    if (entry.kind === "date_time") return localInputToRFC3339(c.value);
    return c.value;
  }

  writeControl(entry, value) {
    const has = value !== undefined && value !== null;
    if (entry.output) {
      entry.output.textContent = displayValue(entry, value, this.client.locale, this.t);
      entry.output.dataset.value = !has ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);
      return;
    }
    const c = entry.controls[0];
    if (!c || entry.kind === "button") return;
    if (entry.kind === "switch") { c.checked = value === true; return; }
    if (entry.multiple) {
      const chosen = Array.isArray(value) ? value : has ? [value] : [];
      entry.controls.forEach((b) => { b.checked = chosen.includes(entry.options[Number(b.dataset.option)].id); });
      return;
    }
    if (entry.options) {
      const i = has ? entry.options.findIndex((o) => o.id === value) : -1;
      if (c.tagName === "SELECT") {
        const o = i >= 0 ? c.querySelector(`option[data-option="${i}"]`) : c.querySelector('option[value=""]');
        if (o) o.selected = true;
        else c.selectedIndex = -1;
      } else {
        entry.controls.forEach((r) => { r.checked = Number(r.dataset.option) === i; });
      }
      return;
    }
    if (entry.post) entry.post.value = has ? String(value) : "";
    const text = !has ? "" : entry.kind === "date_time" ? utcToLocalInput(value)
      : entry.kind === "float" && typeof value === "number" ? String(value).replace(".", decimalSeparator(this.client.locale)) // formd reads 2,5
      : typeof value === "object" ? JSON.stringify(value) : String(value);
    if (c.value !== text) c.value = text;
  }

  // ---- events --------------------------------------------------------------------------------

  onInput(e) {
    this.offline = false; // a new edit is sent at once, even after a failure
    const key = e.target && e.target.dataset ? e.target.dataset.key : null;
    const entry = key && this.fields.get(key);
    if (!entry || entry.computed) return;
    // Text controls report every keystroke as `input`; their `change` adds nothing.
    if (e.type === "change" && (e.target.tagName === "TEXTAREA" || (e.target.tagName === "INPUT" && !["checkbox", "radio"].includes(e.target.type)))) return;
    if (e.type === "input" && (e.target.type === "checkbox" || e.target.type === "radio" || e.target.tagName === "SELECT")) return;
    const v = this.readControl(entry);
    if (v === null) delete this.values[key];
    else this.values[key] = v;
    if (entry.post) entry.post.value = v === null ? "" : String(v);
    this.editSeq[key] = this.session.next;
    this.change(key);
  }

  onBlur(e) {
    const key = e.target && e.target.dataset ? e.target.dataset.key : null;
    const entry = key && this.fields.get(key);
    // A field's errors show once the person has left it (not while they are still in it, as
    // moving between the radios or boxes of one field).
    if (entry && !(e.relatedTarget instanceof Node && entry.wrapper.contains(e.relatedTarget)) && !this.touched.has(key)) {
      this.touched.add(key);
      this.showErrors(this.allErrors);
      this.showWarnings(this.allWarnings);
    }
    // Once the user leaves a control, it shows formd's canonical form of what they typed.
    const state = this.session.state;
    if (!entry || !state || this.pending.length || this.inFlight || (this.editSeq[key] || 0) > this.session.applied) return;
    if (entry.secret) return;
    if (state.fields && state.fields[key] && state.fields[key].visible) this.writeControl(entry, state.values[key]);
  }

  onClick(e) {
    const t = e.target.closest("button");
    if (!t || !this.form.contains(t)) return;
    if (t.dataset.addInstance) {
      const d = this.dynamic.get(t.dataset.addInstance);
      if (!d) return;
      const n = d.instances.size ? Math.max(...d.instances.keys()) + 1 : 0; // the first instance is [0]
      this.touched.add(t.dataset.addInstance);
      this.instanceSeq[`${t.dataset.addInstance}[${n}]`] = this.session.next;
      this.addInstance(t.dataset.addInstance, n, true);
      this.change(t.dataset.addInstance);
    } else if (t.dataset.removeInstance) {
      const m = /^(.*)\[(\d+)\]$/.exec(t.dataset.removeInstance);
      if (!m) return;
      const prefix = `${m[1]}[${m[2]}].`;
      for (const k of Object.keys(this.values)) if (k.startsWith(prefix)) delete this.values[k];
      const d = this.dynamic.get(m[1]);
      if (!d) return;
      this.touched.add(m[1]);
      this.instanceSeq[t.dataset.removeInstance] = this.session.next;
      this.removeInstanceDOM(m[1], Number(m[2]));
      d.addButton.focus();
      this.change(m[1]);
    } else if (t.dataset.button && t.type !== "submit") {
      this.change(t.dataset.button); // a button press runs its value targets
    }
  }

  /** Queues an evaluate naming `id` as changed; at most one evaluate is in flight at a time. */
  change(id) {
    if (!this.pending.includes(id)) this.pending.push(id);
    if (!this.queued) this.showStatus(null); // a queued submit stays queued, and sends the latest values
    this.keep();
    clearTimeout(this.timer);
    // A field with a remote rule asks a service of the site's (API.md §11): wait for a pause in
    // typing (`remoteDebounce`, default 300 ms) rather than asking for every keystroke.
    const remote = this.isRemote(id) ? Number(this.options.remoteDebounce ?? 300) || 0 : 0;
    const delay = Number(this.options.debounce) || remote;
    if (delay > 0) this.timer = setTimeout(() => this.flush(), delay);
    else this.flush();
  }

  flush() {
    if (this.inFlight || !this.pending.length) return this.inFlight;
    const changed = this.pending;
    this.pending = [];
    this.inFlight = this.refresh(changed).finally(() => {
      this.inFlight = null;
      if (this.pending.length && !this.offline) this.flush();
    });
    return this.inFlight;
  }

  /** What the form sends: the entered values, and one key per instance so that formd keeps it. */
  submission() {
    const out = {};
    for (const [k, v] of Object.entries(this.values)) {
      const entry = this.fields.get(k);
      if (entry && entry.computed) continue;
      out[k] = v;
    }
    for (const [sid, d] of this.dynamic) {
      if (!d.template) continue;
      const first = (d.template.fields || []).find((f) => f && f.id && f.type !== "button" && f.type !== "spacer");
      if (!first) continue;
      for (const n of d.instances.keys()) {
        const prefix = `${sid}[${n}].`;
        if (!Object.keys(out).some((k) => k.startsWith(prefix))) out[FormView.instanceId(first.id, n)] = null;
      }
    }
    return out;
  }

  async refresh(changed) {
    const seq = this.session.next;
    // Fields with a remote rule (API.md §11) show that their check runs until this answer (or a
    // newer one) is applied: `data-pending` on the field, `aria-busy` on its controls.
    const remote = changed.filter((id) => this.isRemote(id));
    for (const id of remote) this.setPending(id, seq);
    let answer;
    try {
      answer = await this.session.evaluate(this.submission(), changed);
    } catch (e) {
      for (const id of remote) this.clearPending(id, seq);
      this.failed(e, changed);
      return;
    }
    for (const id of remote) this.clearPending(id, seq);
    if (!answer) return;
    this.offline = false;
    this.banner.hidden = true;
    this.apply(answer, seq);
    if (this.submitted) {
      // After a failed submit, the whole validate verdict stays on screen while the user fixes it.
      try {
        const verdict = await this.session.validate(this.submission(), { authoritative: false });
        if (verdict) this.showErrors(verdict.errors);
      } catch (e) { this.failed(e, []); }
    }
  }

  async failed(error, changed) {
    if (error instanceof FormdError && error.isPreconditionFailed) {
      // The form changed on the server: load the new definition, keep the values, draw it again,
      // evaluate again and show what changed (API.md §3.1).
      const before = { version: this.session.version, definition: this.definition };
      const definition = await this.session.load();
      if (this.session.version === before.version) {
        // This replica does not hold our (newer) version yet, a rollout in progress: the next
        // request will likely reach one that does. Try again shortly, never in a tight loop.
        clearTimeout(this.retry);
        this.retry = setTimeout(() => { if (!this.inFlight) this.inFlight = this.refresh(changed).finally(() => { this.inFlight = null; }); }, 1000);
        return;
      }
      this.definition = definition;
      this.rebuild();
      const changes = definitionChanges(before.definition, definition);
      const titles = fieldTitles(before.definition);
      for (const [id, title] of fieldTitles(definition)) titles.set(id, title);
      this.showChanges(changes, titles);
      this.form.dispatchEvent(new CustomEvent("formd:changed", {
        bubbles: true, detail: { from: before.version, to: this.session.version, ...changes },
      }));
      return this.refresh(changed);
    }
    if (error instanceof FormdError && (error.isNetwork || error.isOverloaded)) {
      // Keep the edits and try again later (as Retry-After says, else in two seconds), not in a
      // loop; a new edit sends at once. Other problems are not retried: the banner says why.
      this.pending = [...changed.filter((c) => !this.pending.includes(c)), ...this.pending];
      this.offline = true;
      clearTimeout(this.retry);
      this.retry = setTimeout(() => {
        if (this.inFlight) return;
        if (this.pending.length) this.flush();
        else this.inFlight = this.refresh([]).finally(() => { this.inFlight = null; });
      }, 1000 * (error.retryAfter || 2));
    }
    // The person reads a short text in their language; the reason goes to the console.
    this.banner.textContent = !(error instanceof FormdError) ? this.t.broken
      : error.isNetwork ? this.t.unreachable : error.isOverloaded ? this.t.busy : this.t.broken;
    this.banner.hidden = false;
    console.warn(`formd: ${this.formId}: ${error && error.message ? error.message : error}`);
    this.form.dispatchEvent(new CustomEvent("formd:error", { bubbles: true, detail: { error } }));
  }

  // ---- applying formd's answer ---------------------------------------------------------------

  apply(answer, seq) {
    const forced = new Set((answer.actions || []).filter((a) => a.type === "field" && (a.action === "update" || a.action === "clear")).map((a) => a.id));
    const cleared = new Set((answer.actions || []).filter((a) => a.type === "field" && a.action === "clear").map((a) => a.id));
    // Instances: the ones formd evaluated, in its order; others (past max_instances) go away.
    for (const [sid, d] of this.dynamic) {
      const present = new Set();
      for (const id of Object.keys(answer.sections || {})) {
        if (id.startsWith(sid + "[")) {
          const m = /^\[(\d+)\]$/.exec(id.slice(sid.length));
          if (m) present.add(Number(m[1]));
        }
      }
      for (const n of present) if (!d.instances.has(n) && !this.localSince(`${sid}[${n}]`, seq)) this.addInstance(sid, n, false);
      for (const n of [...d.instances.keys()]) {
        if (!present.has(n) && !this.localSince(`${sid}[${n}]`, seq)) {
          const prefix = `${sid}[${n}].`;
          for (const k of Object.keys(this.values)) if (k.startsWith(prefix)) delete this.values[k];
          this.removeInstanceDOM(sid, n);
        }
      }
    }
    const active = document.activeElement;
    for (const [id, st] of Object.entries(answer.fields || {})) {
      const entry = this.fields.get(id);
      if (!entry) continue;
      entry.wrapper.hidden = !st.visible;
      entry.wrapper.toggleAttribute("data-required", !!st.required);
      entry.wrapper.toggleAttribute("data-disabled", !st.enabled);
      for (const c of entry.controls) {
        if (c.type === "radio" || c.type === "checkbox" || c.tagName === "SELECT" || c.tagName === "BUTTON") c.disabled = !st.enabled || (entry.computed && c.tagName !== "BUTTON");
        else c.readOnly = !st.enabled || entry.computed;
        if (st.required) c.setAttribute("aria-required", "true"); else c.removeAttribute("aria-required");
      }
      // A hidden field formd clears (`clear_when_hidden`, SEMANTICS §5.4) loses what was typed.
      if (!st.visible && cleared.has(id) && !entry.computed && entry.kind !== "button" && entry.kind !== "spacer") {
        delete this.values[id];
        this.writeControl(entry, null);
      }
      if (!st.visible || entry.kind === "button" || entry.kind === "spacer" || entry.secret) continue;
      const has = Object.prototype.hasOwnProperty.call(answer.values || {}, id);
      const value = has ? answer.values[id] : null;
      if (entry.computed) { this.writeControl(entry, value); continue; }
      if ((this.editSeq[id] || 0) > seq) continue; // typed since this request went out
      const focused = entry.controls.includes(active);
      if (focused && !forced.has(id)) continue;
      // formd's canonical value (defaults, updates and clears included) becomes the entered one.
      if (has) this.values[id] = value;
      else delete this.values[id];
      this.writeControl(entry, has ? value : null);
    }
    for (const [id, st] of Object.entries(answer.sections || {})) {
      const s = this.sections.get(id);
      if (s) s.hidden = !st.visible;
    }
    this.submitButton.hidden = [...this.form.querySelectorAll("[data-field][data-submit]")].some((w) => !w.closest("[hidden]"));
    this.showErrors(answer.errors);
    this.showWarnings(answer.warnings);
    if (answer.form && this.form.getAttribute("lang") !== this.client.locale) {
      if (this.client.locale) this.form.setAttribute("lang", this.client.locale);
    }
    this.form.removeAttribute("data-loading");
    this.form.removeAttribute("aria-busy");
    this.keep();
    this.form.dispatchEvent(new CustomEvent("formd:state", { bubbles: true, detail: { answer } }));
    if (this.options.onState) this.options.onState(answer);
  }

  /** Whether field `id` (an instance's too) has a remote rule: only the server can check it. */
  isRemote(id) {
    const entry = this.fields.get(id);
    const v = entry && entry.def && entry.def.validations;
    return !!(v && typeof v === "object" && typeof v.remote === "string");
  }

  setPending(id, seq) {
    const entry = this.fields.get(id);
    if (!entry) return;
    this.pendingSeq[id] = seq;
    entry.wrapper.setAttribute("data-pending", "");
    for (const c of entry.controls) c.setAttribute("aria-busy", "true");
  }

  /** Only the newest request's answer ends the pending state: a late one leaves it on. */
  clearPending(id, seq) {
    if (this.pendingSeq[id] !== seq) return;
    delete this.pendingSeq[id];
    const entry = this.fields.get(id);
    if (!entry) return;
    entry.wrapper.removeAttribute("data-pending");
    for (const c of entry.controls) c.removeAttribute("aria-busy");
  }

  /** An instance the user added or removed after request `seq` went out: its answer is older. */
  localSince(instanceId, seq) {
    return (this.instanceSeq[instanceId] || 0) > seq;
  }

  /** Whether an error shows now: after a submit was tried, or once the person has left its field
   * (a section: added or removed an instance); never on an untouched form. */
  errorShown(e) {
    if (this.attempted) return true;
    const id = e.field ?? e.section ?? null;
    if (id === null) return this.touched.size > 0;
    if (this.touched.has(id)) return true;
    const entry = this.fields.get(id);
    return !!(entry && entry.computed && this.touched.size > 0); // follows from what was entered
  }

  showErrors(errors) {
    this.allErrors = Array.isArray(errors) ? errors : [];
    errors = this.allErrors.filter((e) => e && typeof e === "object" && this.errorShown(e));
    for (const t of this.errorTargets) {
      t.textContent = "";
      const entry = this.fields.get(t.dataset.errorFor);
      if (entry) {
        entry.hasError = false;
        for (const c of entry.controls) c.removeAttribute("aria-invalid");
        this.describe(entry);
      }
      t.closest("[data-field], [data-section]")?.removeAttribute("data-invalid");
    }
    this.errorTargets.clear();
    this.formErrors.textContent = "";
    const byTarget = new Map();
    for (const e of errors || []) {
      const id = e.field ?? e.section ?? null;
      const target = id === null ? this.formErrors : this.form.querySelector(`[data-error-for="${CSS.escape(id)}"]`) || this.formErrors;
      if (!byTarget.has(target)) byTarget.set(target, []);
      byTarget.get(target).push(e.message || e.code);
    }
    for (const [target, messages] of byTarget) {
      target.textContent = messages.join(" ");
      if (target === this.formErrors) continue;
      this.errorTargets.add(target);
      target.closest("[data-field], [data-section]")?.setAttribute("data-invalid", "");
      const entry = this.fields.get(target.dataset.errorFor);
      if (entry) {
        entry.hasError = true;
        for (const c of entry.controls) c.setAttribute("aria-invalid", "true");
        this.describe(entry);
      }
    }
    this.lastErrors = errors || [];
  }

  /** A field's controls are described by its error (when it has one), its warning (when it has
   * one) and its info text. */
  describe(entry) {
    const ids = [entry.hasError ? entry.errorId : null, entry.hasWarning ? entry.warningId : null, entry.infoId].filter(Boolean);
    for (const c of entry.controls) {
      if (ids.length) c.setAttribute("aria-describedby", ids.join(" ")); else c.removeAttribute("aria-describedby");
    }
  }

  /** The answer's `warnings` (forms that declare them): shown as errors are (once the person has
   * left the field, or after a submit), in `[data-warning-for]`, with `data-warning` on the field;
   * they never set `aria-invalid` and never block a submit. */
  showWarnings(warnings) {
    this.allWarnings = Array.isArray(warnings) ? warnings : [];
    const list = this.allWarnings.filter((w) => w && typeof w === "object" && this.errorShown(w));
    const byField = new Map();
    for (const w of list) {
      const id = w.field ?? null;
      if (id === null || !this.fields.has(id)) continue;
      if (!byField.has(id)) byField.set(id, []);
      byField.get(id).push(w.message || w.code);
    }
    for (const [id, entry] of this.fields) {
      const messages = byField.get(id);
      const had = !!entry.hasWarning;
      entry.hasWarning = !!messages;
      if (!had && !messages) continue;
      const target = this.form.querySelector(`[data-warning-for="${CSS.escape(id)}"]`);
      if (target) target.textContent = messages ? messages.join(" ") : "";
      entry.wrapper.toggleAttribute("data-warning", !!messages);
      this.describe(entry);
    }
  }

  /** `[data-form-status]`: true (valid), false (invalid), null (nothing to say), or "queued" (a
   * submit waits for the server), "resubmit" (the form changed before it was sent), "reenter" (a
   * queued submit lost its secret values in a reload). */
  showStatus(valid) {
    if (valid === null) {
      this.status.textContent = "";
      delete this.status.dataset.status;
      delete this.form.dataset.status;
      return;
    }
    const status = typeof valid === "string" ? valid : valid ? "valid" : "invalid";
    this.status.textContent = { valid: this.t.valid, invalid: this.t.invalid, queued: this.t.queued, resubmit: this.t.resubmit, reenter: this.t.reenter }[status];
    this.status.dataset.status = status;
    this.form.dataset.status = status;
  }

  /** Sends validate with the current values; shows the errors inline or the normalised values. */
  async submit({ fromQueue = false } = {}) {
    // Let the edits in flight land first (a bounded wait: while formd is unreachable they stay queued).
    for (let i = 0; i < 3 && (this.inFlight || this.pending.length); i++) await (this.inFlight || this.flush());
    this.attempted = true;
    if (!fromQueue) this.queueTries = 0;
    let verdict;
    try {
      verdict = await this.session.validate(this.submission());
    } catch (e) {
      if (e instanceof FormdError && e.isNetwork) {
        // No network: the submit waits, kept, and goes by itself when the server answers again.
        if (fromQueue) this.scheduleQueued();
        else this.queue();
        return null;
      }
      if (e instanceof FormdError && e.isPreconditionFailed) {
        // The form changed meanwhile: the new definition is drawn with the values kept and what
        // changed is shown; nothing is sent until the person has seen it and sends again.
        const before = this.session.version;
        await this.failed(e, []);
        if (this.session.version === before) {
          if (this.queued) this.scheduleQueued(); // a replica behind the new version: try again
          return null;
        }
        this.unqueue();
        this.keep();
        this.showStatus("resubmit");
        return null;
      }
      this.failed(e, []);
      return null;
    }
    if (!verdict) return null;
    this.unqueue();
    if (verdict.valid) this.forget(); // sent and accepted: nothing left to keep
    this.banner.hidden = true;
    this.submitted = !verdict.valid;
    this.showErrors(verdict.errors);
    this.showWarnings(verdict.warnings);
    this.showStatus(verdict.valid);
    this.valuesOut.hidden = !verdict.valid;
    this.valuesOut.textContent = verdict.valid ? JSON.stringify(verdict.values, null, 2) : "";
    if (!verdict.valid) {
      const first = this.form.querySelector("[data-invalid] input, [data-invalid] select, [data-invalid] textarea");
      if (first) first.focus();
    }
    this.form.dispatchEvent(new CustomEvent("formd:submit", { bubbles: true, detail: { answer: verdict } }));
    if (this.options.onSubmit) this.options.onSubmit(verdict);
    return verdict;
  }
}

// One line of HTML embeds a form: <div data-formd-form="signup" data-formd-locale="nb"></div>
// next to <script type="module" src="https://formd.example/client/formd.js"></script>.
if (typeof document !== "undefined") {
  const auto = () => {
    for (const e of document.querySelectorAll("[data-formd-form]:not([data-formd-rendered])")) {
      e.setAttribute("data-formd-rendered", "");
      render(e, e.getAttribute("data-formd-form"), { locale: e.getAttribute("data-formd-locale") || null }).catch(() => {
        // render() has put the reason in the element (data-formd-failed) and on the console.
        if (!e.hasAttribute("data-formd-failed")) e.setAttribute("data-formd-failed", "error");
      });
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", auto);
  else auto();
}
