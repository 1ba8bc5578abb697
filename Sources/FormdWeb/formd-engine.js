// formd-engine.js: the formd engine (FormdCore compiled to WebAssembly, formd-engine.wasm) for
// browsers and Node. A dependency-free ES module, no build step. docs/WASM.md.
//
//   import { FormdEngine } from './formd-engine.js';
//   const engine = await FormdEngine.load(wasmBytesOrResponseOrURL);
//   const form = engine.loadForm('signup', definitionBytesOrText);   // throws FormdDefinitionError
//   const v = form.validate({ email: 'x' }, { locale: 'nb' });       // { status, valid, json, answer, deferredFormats }
//   const e = form.evaluate(values, { changed: ['email'], locale: 'nb', state: null });
//   form.free();
//
// Answers are the server's bytes (`json`, a string; `answer`, parsed). `deferredFormats` lists
// the fields whose `format` pattern this build cannot check (no regex engine for it in
// WebAssembly yet): their check passed here and only the server's answer is final for them.
// A trap (an engine bug) loses the instance: the engine switches to a spare one made ahead,
// reloads the forms it holds, and throws FormdEngineTrap for that call; the handles stay valid.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A definition the engine refuses: `problems` are `FILE:LINE:COL: error: PATH: MESSAGE` lines. */
export class FormdDefinitionError extends Error {
  constructor(problems) {
    super(problems.join('\n'));
    this.name = 'FormdDefinitionError';
    this.problems = problems;
  }
}

/**
 * A request the engine cannot answer: bad values JSON (`position` is `LINE:COL` when known), a
 * `changed` id the form does not have (`unknownChanged`), a damaged `state` token.
 */
export class FormdRequestError extends Error {
  constructor(message, details = {}) {
    super(message);
    this.name = 'FormdRequestError';
    Object.assign(this, details);
  }
}

/** The module trapped (an engine bug): the call has no answer; the engine has recovered. */
export class FormdEngineTrap extends Error {
  constructor(cause) {
    super(`formd-engine.wasm trapped: ${cause && cause.message}`);
    this.name = 'FormdEngineTrap';
    this.cause = cause;
  }
}

function bytesOf(x) {
  if (x instanceof Uint8Array) return x;
  if (typeof x === 'string') return encoder.encode(x);
  if (x instanceof ArrayBuffer) return new Uint8Array(x);
  if (ArrayBuffer.isView(x)) return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  return encoder.encode(JSON.stringify(x));  // values as an object
}

async function compile(source) {
  source = await source;  // a fetch() promise is fine too
  if (source instanceof WebAssembly.Module) return source;
  if (typeof Response !== 'undefined' && source instanceof Response) {
    if (WebAssembly.compileStreaming && (source.headers.get('content-type') || '').startsWith('application/wasm')) {
      return WebAssembly.compileStreaming(source);
    }
    return WebAssembly.compile(await source.arrayBuffer());
  }
  if (typeof source === 'string' || source instanceof URL) {
    if (typeof process !== 'undefined' && process.versions && process.versions.node && !/^https?:/.test(String(source))) {
      const { readFile } = await import('node:fs/promises');
      const path = source instanceof URL || String(source).startsWith('file:') ? new URL(source) : String(source);
      return WebAssembly.compile(await readFile(path));
    }
    return compile(await fetch(source));
  }
  return WebAssembly.compile(bytesOf(source));
}

export class FormdEngine {
  /** Compiles the module (bytes, a Response or a promise of one, a URL or path, or a WebAssembly.Module) and starts an instance. */
  static async load(source, { limits = {} } = {}) {
    const module = await compile(source);
    const [active, spare] = await Promise.all([WebAssembly.instantiate(module, {}), WebAssembly.instantiate(module, {})]);
    const engine = new FormdEngine(module, active, spare);
    engine.limits = { ...FormdEngine.defaultLimits, ...limits };
    return engine;
  }

  /**
   * The server's limits that are not the engine's own (the engine's — `limits.max_text_bytes`,
   * `limits.max_instances`, JSON nesting, the regex bound, a definition's complexity — are built
   * in, with the server's defaults): `forms.max_file_bytes` for a definition,
   * `limits.max_body_bytes` for values, `limits.max_changed` for `changed`. Refused as the server
   * refuses them, before any work. `FormdEngine.load(source, {limits: {...}})` sets others (a
   * server configured otherwise).
   */
  static defaultLimits = { maxDefinitionBytes: 8 << 20, maxBodyBytes: 1 << 20, maxChanged: 10000 };

  /**
   * Use `FormdEngine.load`. Browsers refuse to instantiate a module this size synchronously on
   * the main thread, so a spare instance is made ahead: after a trap the engine switches to it at
   * once and makes the next spare in the background.
   */
  constructor(module, active, spare) {
    this.module = module;
    this.exports = active.exports;
    this.spare = spare;
    /** handle -> { id, bytes, file, native }: what a new instance needs to reload. */
    this.forms = new Map();
    this.nextHandle = 1;
    this.traps = 0;
    this.limits = { ...FormdEngine.defaultLimits };
  }

  #replaceInstance() {
    const spare = this.spare;
    this.spare = null;
    this.exports = spare ? spare.exports : new WebAssembly.Instance(this.module, {}).exports;  // sync only if traps come faster than spares
    this.spareReady = WebAssembly.instantiate(this.module, {}).then((instance) => { this.spare = instance; });
  }

  /** Linear memory in bytes (it only grows; the allocator reuses what calls free). */
  get memoryBytes() {
    return this.exports.memory.buffer.byteLength;
  }

  #put(bytes, owned) {
    const e = this.exports;
    const ptr = e.formd_alloc(bytes.length);
    owned.push(ptr);
    new Uint8Array(e.memory.buffer, ptr, bytes.length).set(bytes);
    return [ptr, bytes.length];
  }

  /** Reads and frees an answer buffer. */
  #take(ptr, withDeferred) {
    const e = this.exports;
    const view = new DataView(e.memory.buffer);  // after the call: memory may have grown
    const status = view.getUint32(ptr, true);
    const length = view.getUint32(ptr + 4, true);
    const body = new Uint8Array(e.memory.buffer, ptr + 8, length).slice();
    let deferred = [];
    if (withDeferred && status <= 1) {  // answers (not problems) carry the deferred list
      const n = view.getUint32(ptr + 8 + length, true);
      deferred = JSON.parse(decoder.decode(new Uint8Array(e.memory.buffer, ptr + 12 + length, n)));
    }
    e.formd_free(ptr);
    return { status, body, deferred };
  }

  /** Calls export `name`; inputs are numbers or byte arrays (passed as pointer, length). */
  #call(name, inputs, withDeferred) {
    const owned = [];
    try {
      const args = [];
      for (const x of inputs) {
        if (typeof x === 'number') args.push(x);
        else args.push(...this.#put(x, owned));
      }
      const answer = this.#take(this.exports[name](...args), withDeferred);
      for (const p of owned) this.exports.formd_free(p);
      return answer;
    } catch (error) {
      if (!(error instanceof WebAssembly.RuntimeError)) throw error;
      // The instance may have trapped mid-allocation: drop it, start a new one, reload the forms.
      this.traps += 1;
      this.#replaceInstance();
      for (const form of this.forms.values()) form.native = this.#loadNative(form.id, form.bytes, form.file);
      throw new FormdEngineTrap(error);
    }
  }

  #loadNative(id, bytes, file) {
    const r = this.#call('formd_load', [encoder.encode(id), bytes, encoder.encode(file || '')], false);
    const text = decoder.decode(r.body);
    if (r.status !== 0) throw new FormdDefinitionError(text.split('\n'));
    return Number(text);
  }

  /**
   * Loads a definition (bytes or text) as form `id`; `file` names it in problems (default
   * `ID.json`). Throws FormdDefinitionError with the problems as `formd check` prints them; a
   * definition over `maxBytes` (the server's `forms.max_file_bytes`, 8 MiB) is refused unread.
   */
  loadForm(id, definition, { file, maxBytes = this.limits.maxDefinitionBytes } = {}) {
    const bytes = bytesOf(definition);
    if (bytes.length > maxBytes) {
      // The server's forms.max_file_bytes: such a definition is refused unread, as formd does.
      throw new FormdDefinitionError([`${file || `${id}.json`}: the file is ${bytes.length} bytes, over the limit of ${maxBytes} bytes (forms.max_file_bytes)`]);
    }
    const native = this.#loadNative(id, bytes, file);
    const handle = this.nextHandle++;
    this.forms.set(handle, { id, bytes, file, native });
    return new FormdForm(this, handle, id);
  }

  #native(handle) {
    const form = this.forms.get(handle);
    if (!form) throw new FormdRequestError('this form was freed');
    return form.native;
  }

  static #answer(r) {
    if (r.status === 2) {
      const message = decoder.decode(r.body);
      const position = /^(\d+):(\d+): /.exec(message);
      throw new FormdRequestError(message, position ? { position: `${position[1]}:${position[2]}` } : {});
    }
    if (r.status === 3) {
      const id = decoder.decode(r.body);
      throw new FormdRequestError(`changed names "${id}", which is not a field or dynamic section of the form`, { unknownChanged: id });
    }
    const json = decoder.decode(r.body);
    return {
      status: r.status,
      valid: r.status === 0,
      json,
      bytes: r.body,
      get answer() { return JSON.parse(json); },
      // Format ids (strings), and `{"remote": id}` entries: fields whose remote rule only the
      // server can decide (their local checks passed; docs/WASM.md).
      deferredFormats: r.deferred.filter((d) => typeof d === 'string'),
      deferredRemote: r.deferred.filter((d) => d && typeof d === 'object').map((d) => d.remote),
    };
  }

  /** Values over `limits.max_body_bytes`: refused as the server refuses such a body (413). */
  #valuesBytes(values) {
    const bytes = bytesOf(values);
    if (bytes.length > this.limits.maxBodyBytes) {
      throw new FormdRequestError('The request body is larger than the limit.', { status: 413, slug: 'body-too-large' });
    }
    return bytes;
  }

  validate(handle, values, { locale = '' } = {}) {
    const native = this.#native(handle);
    const bytes = this.#valuesBytes(values);
    return FormdEngine.#answer(this.#call('formd_validate', [native, bytes, encoder.encode(locale || '')], true));
  }

  evaluate(handle, values, { changed = [], locale = '', state } = {}) {
    const native = this.#native(handle);
    const bytes = this.#valuesBytes(values);
    if (changed.length > this.limits.maxChanged) {
      // The server's 400, word for word (limits.max_changed), before any work.
      throw new FormdRequestError(`"changed" lists ${changed.length} ids; at most ${this.limits.maxChanged} are accepted (limits.max_changed)`,
        { status: 400, slug: 'bad-request' });
    }
    const changedBytes = changed.length ? encoder.encode(JSON.stringify(changed)) : new Uint8Array();
    // state: undefined = not sent; null = first request; a string = the previous answer's token.
    const stateBytes = state === undefined ? new Uint8Array() : state === null ? encoder.encode('null') : encoder.encode(String(state));
    const r = this.#call('formd_evaluate', [native, bytes, changedBytes, encoder.encode(locale || ''), stateBytes], true);
    const answer = FormdEngine.#answer(r);
    answer.valid = undefined;  // evaluate has no verdict
    return answer;
  }

  free(handle) {
    const form = this.forms.get(handle);
    if (!form) return;
    this.forms.delete(handle);
    this.exports.formd_unload(form.native);
  }
}

/** One loaded definition. */
export class FormdForm {
  constructor(engine, handle, id) {
    this.engine = engine;
    this.handle = handle;
    this.id = id;
  }
  /** The validate answer: `{ status (0 valid, 1 invalid), valid, json, answer, deferredFormats }`. */
  validate(values, options) { return this.engine.validate(this.handle, values, options); }
  /** The evaluate answer: `{ json, answer, deferredFormats }`; options `changed`, `locale`, `state`. */
  evaluate(values, options) { return this.engine.evaluate(this.handle, values, options); }
  free() { this.engine.free(this.handle); }
}
