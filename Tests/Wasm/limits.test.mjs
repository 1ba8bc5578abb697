// node --test Tests/Wasm/: the module enforces the server's limits. The hostile definitions and
// values of the torture suite's rounds two and three (scripts/formd_torture/scenarios:
// engine_limits.py, round3.py) and a few more (nesting, sizes, a regex bound, a long text) go
// through formd-engine.wasm and through `formd serve` (when built): the same answer or the same
// refusal, never a trap, and the module's allocator back where it was after each call.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, writeFileSync, mkdtempSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FormdEngine, FormdDefinitionError, FormdRequestError } from '../../Sources/FormdWeb/formd-engine.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const wasmPath = process.env.FORMD_WASM || join(root, '.build/wasm/formd-engine.wasm');
const formdBin = process.env.FORMD_BIN || join(root, '.build/release/formd');
// The server below runs with limits.max_body_bytes 16 MiB and limits.max_changed 200,000; the
// module is told the same (FormdEngine.load's limits), and a second one keeps the defaults.
const wasm = readFileSync(wasmPath);
const engine = await FormdEngine.load(wasm, { limits: { maxBodyBytes: 16 << 20, maxChanged: 200000 } });
const defaults = await FormdEngine.load(wasm);

// ---- the hostile definitions (as the torture scenarios write them) ----------------------------

const EXPO_LINKS = 34;
function expoForm() {  // round two: t{i} = "t{i-1} t{i-1}", 2^34 bytes unbounded
  const fields = [{ id: 't0', type: 'text', value: 'x' }];
  for (let i = 1; i <= EXPO_LINKS; i++) fields.push({ id: `t${i}`, type: 'text', formula: `t${i - 1} t${i - 1}` });
  return { groups: [{ sections: [{ id: 's', fields }] }] };
}
function floodForm(maxInstances) {  // round two: aggregate shares and mutually hiding fields
  const section = { id: 'rows', type: 'dynamic', action_title: 'Add', fields: null };
  if (maxInstances) section.max_instances = maxInstances;
  return {
    groups: [{ sections: [{ id: 'top', fields: [{ id: 'total', type: 'float', formula: 'sum(rows[*].amount)' }] }, section] }],
    templates: { sections: [{ id: 'rows', fields: [
      { id: 'rows[:index].amount', type: 'float' },
      { id: 'rows[:index].share', type: 'float', formula: '$rows[:index].amount / sum(rows[*].amount)' },
      { id: 'rows[:index].p', type: 'text', targets: [{ id: 'rows[:index].q', type: 'field', action: 'hide' }] },
      { id: 'rows[:index].q', type: 'text', targets: [{ id: 'rows[:index].p', type: 'field', action: 'hide' }] },
    ] }] },
  };
}
function regexRowsForm() {  // round three: 4,000 small regex checks in one request
  const fmt = '[\\w._%+-]+@[\\w.-]+\\.\\w{2,}';
  const fields = [...'abcd'].map((c) => ({ id: `rows[:index].${c}`, type: 'text', validations: { format: fmt } }));
  return { groups: [{ sections: [{ id: 'rows', type: 'dynamic', max_instances: 1000 }] }], templates: { sections: [{ id: 'rows', fields }] } };
}
function changedForm() {  // round three: one evaluate naming one field 142,800 times
  const options = Array.from({ length: 50 }, (_, i) => ({ id: `o${i}`, targets: Array.from({ length: 4 }, (_, j) => (
    { id: `t${j}`, type: 'field', action: 'update', target_value: `v${i}`, condition: `$gate == ${j}` })) }));
  const fields = [{ id: 'm', type: 'multi_select', values: options }, { id: 'gate', type: 'count' }];
  for (let j = 0; j < 4; j++) fields.push({ id: `t${j}`, type: 'text' });
  return [{ id: 'g', sections: [{ id: 's', fields }] }];
}
const PUREFORM_BREAKOUT = [{ '<TextFieldCell + Pin>': { titleLabel: { text: 'PIN' },
  'textField?': { '<key>': 'pin', '<validators>': { custom: '[0-9]{4})|(?:.*' } } } }];
const textForm = { groups: [{ sections: [{ id: 's', fields: [
  { id: 'note', type: 'text', validations: { max_length: 200 } },
  { id: 'echo', type: 'text', formula: 'note note note note' },
  { id: 'code', type: 'text', validations: { format: '^[A-Z]{2}[0-9]{4}$' } },
] }] }] };

const forms = {
  expo: expoForm(), flood50: floodForm(50), flood: floodForm(null), emails: regexRowsForm(), changes: changedForm(),
  text: textForm, employment: JSON.parse(readFileSync(join(root, 'Forms/employment.json'))),
};
// Refused at load, by the server and by the module alike.
const refused = {
  pin: JSON.stringify(PUREFORM_BREAKOUT),
  deepjson: '{"groups": ' + '['.repeat(100000) + ']'.repeat(100000) + '}',
  deepformula: JSON.stringify({ groups: [{ sections: [{ id: 's', fields: [
    { id: 'a', type: 'float' }, { id: 'b', type: 'float', formula: '('.repeat(20000) + '$a' + ')'.repeat(20000) }] }] }] }),
  bound: JSON.stringify({ groups: [{ sections: [{ id: 's', fields: [
    { id: 'a', type: 'text', validations: { format: '^(a{1,1000}){1,1000}$' } }] }] }] }),
};
// Patterns ICU refuses: the module (no ICU) refuses them with ICU's words, at the same place.
// (Not yet: `\p{NoSuchProperty}`, which the linear parser reads as outside its dialect (ICU knows
// property names it does not) rather than invalid: the module loads it and defers its checks.)
const INVALID_PATTERNS = ['(abc', 'a)', '*a', 'a{2,1}', '[z-a]', '[abc', 'a\\', 'x}', 'a{1', 'a{x}', '+', 'a**',
  'a{,3}', 'a|*', '(*)', '?', '{', '}', 'a{1,2', '(?:a|b', 'ab(cd(ef)', 'a{3,', '(a))', 'a(?:b', 'a{5,2}b', 'abc{2,1}def',
  '^[^@\\s]+@[^@\\s]+)\\.', '[]', '[^]', '[a-', 'x[0-'];
INVALID_PATTERNS.forEach((p, i) => {
  refused[`pattern${i}`] = JSON.stringify({ groups: [{ sections: [{ id: 's', fields: [{ id: 'a', type: 'text', validations: { format: p } }] }] }] });
});

// ---- the server, when built ---------------------------------------------------------------------

const dir = mkdtempSync(join(tmpdir(), 'formd-wasm-limits-'));
for (const [id, def] of Object.entries(forms)) writeFileSync(join(dir, `${id}.json`), JSON.stringify(def));
for (const [id, text] of Object.entries(refused)) writeFileSync(join(dir, `${id}.json`), text);
let base = null, proc = null;
if (existsSync(formdBin)) {
  proc = spawn(formdBin, ['serve', '--host', '127.0.0.1', '--port', '0', '--forms', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORMD_LIMITS_MAX_BODY_BYTES: String(16 << 20), FORMD_LIMITS_MAX_CHANGED: '200000', FORMD_LOG_LEVEL: 'error' },
  });
  base = await new Promise((resolve, reject) => {
    let seen = '';
    proc.stdout.on('data', (chunk) => {
      seen += chunk;
      const m = /listening on (http:\/\/[0-9.]+:\d+)/.exec(seen);
      if (m) resolve(m[1]);
    });
    proc.on('exit', (code) => reject(new Error(`formd exited (${code})`)));
  });
}
after(() => { if (proc) proc.kill('SIGTERM'); });

async function server(path, body) {
  const r = await fetch(base + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  return { status: r.status, text: await r.text() };
}

/** Where a 64-byte allocation lands now (allocated and freed at once). */
const probe = (e = engine) => { const p = e.exports.formd_alloc(64); e.exports.formd_free(p); return p; };

/** Runs `call` 74 times: no trap, and after two warm-up calls (lazy tables) the module's memory
 * stays where it is: linear memory does not grow, and a probe allocation after each call lands on
 * addresses it has landed on before (dlmalloc cycles through its bins: 1 to 7 distinct
 * addresses over 72 calls in this file's run, 20 over 36 in another heap history, 23 over 400;
 * the count does not grow with the calls), where a leak in every call would put each probe on
 * fresh memory (72 distinct). Calls are deterministic (fixed hash seed), but which addresses
 * recur depends on the heap's history, so the bound is half the calls, not a count seen once.
 * Returns the last result (or the error it threw). */
function guarded(call, e = engine) {
  const traps = e.traps;
  const settle = () => { try { return call(); } catch (error) { return error; } };
  settle();
  settle();
  const bytes = e.memoryBytes;
  const probes = [];
  let result;
  for (let i = 0; i < 72; i++) {
    result = settle();
    probes.push(probe(e));
  }
  assert.equal(e.traps, traps, `no trap: ${result && result.message}`);
  assert.equal(e.memoryBytes, bytes, 'linear memory does not grow from call to call');
  assert.ok(new Set(probes).size <= 36, `the module's memory is back to its baseline after each call (probes ${probes})`);
  return result;
}

const loaded = Object.fromEntries(Object.entries(forms).map(([id, def]) => [id, engine.loadForm(id, JSON.stringify(def))]));

/** The module and the server give the same answer, byte for byte, for validate or evaluate. */
async function same(id, op, values, changed) {
  const text = typeof values === 'string' ? values : JSON.stringify(values);
  const local = guarded(() => (op === 'validate' ? loaded[id].validate(text) : loaded[id].evaluate(text, { changed })));
  if (!base) return local;
  const remote = await server(`/forms/${id}/${op}`, op === 'validate' ? text : `{"values": ${text}, "changed": ${JSON.stringify(changed || [])}}`);
  if (local instanceof Error) {
    assert.ok(local instanceof FormdRequestError, `${id}: ${local}`);
    assert.equal(remote.status, 400, `${id}: the server refuses too: ${remote.text.slice(0, 200)}`);
    return local;
  }
  assert.equal(remote.status, op === 'validate' ? (local.valid ? 200 : 422) : 200, `${id} ${op}`);
  assert.equal(local.json, remote.text, `${id} ${op}: the same bytes`);
  return local;
}

test('round two: exponential text stops at limits.max_text_bytes', async () => {
  const r = await same('expo', 'validate', {});
  assert.equal(r.status, 1);
  assert.deepEqual([...new Set(r.answer.errors.map((e) => e.code))], ['text_too_long']);
});

test('round two: out-of-range numbers are type errors, not a silent pass', async () => {
  for (const lit of ['1e200', '-1e200', '1e400', '-1e-200', '1e165', '9.99e164']) {
    const r = await same('employment', 'validate', `{"employment_type": "permanent", "bonus": ${lit}}`);
    const codes = r.answer.errors.filter((e) => e.field === 'bonus').map((e) => e.code);
    assert.deepEqual(codes, [lit === '9.99e164' ? 'max_value' : 'type'], lit);
  }
});

test('round two: an instance flood meets max_instances and the engine cap', async () => {
  const values = {};
  for (let i = 0; i < 4000; i++) Object.assign(values, { [`rows[${i}].amount`]: i + 1, [`rows[${i}].p`]: 'a', [`rows[${i}].q`]: 'b' });
  for (const id of ['flood50', 'flood']) {
    const v = await same(id, 'validate', values);
    assert.equal(v.status, 1);
    assert.ok(v.answer.errors.some((e) => e.code === 'max_instances'), id);
    await same(id, 'evaluate', values, ['rows']);
  }
});

test('round three: 4,000 regex checks in one request', async () => {
  const values = {};
  for (let i = 0; i < 1000; i++) for (const c of 'abcd') values[`rows[${i}].${c}`] = i % 2 ? 'ola@example.com' : 'not an address';
  const r = await same('emails', 'validate', values);
  assert.equal(r.status, 1);
  assert.equal(r.answer.errors.filter((e) => e.code === 'format').length, 2000);
});

test('round three: one field named 142,800 times in changed', async () => {
  const values = { m: Array.from({ length: 50 }, (_, i) => `o${i}`), gate: 2 };
  // With limits.max_changed 200,000 (the server here and the module): answered, cheaply.
  const started = performance.now();
  const r = await same('changes', 'evaluate', values, Array(142800).fill('m'));
  assert.equal(r.answer.values.t2, 'v49');
  assert.ok(performance.now() - started < 20000);
  // At the default (10,000): refused before any work, with the server's words.
  const form = defaults.loadForm('changes', JSON.stringify(forms.changes));
  const refusal = guarded(() => form.evaluate(values, { changed: Array(142800).fill('m') }), defaults);
  assert.ok(refusal instanceof FormdRequestError);
  assert.equal(refusal.message, '"changed" lists 142800 ids; at most 10000 are accepted (limits.max_changed)');
  assert.equal(refusal.status, 400);
  form.free();
});

test('values over limits.max_body_bytes are refused as the server refuses the body (413)', async () => {
  const form = defaults.loadForm('text', JSON.stringify(forms.text));
  const refusal = guarded(() => form.validate({ note: 'x'.repeat(1 << 20) }), defaults);
  assert.ok(refusal instanceof FormdRequestError && refusal.status === 413, String(refusal));
  assert.equal(form.validate({ note: 'x'.repeat(1000) }).status, 1, 'under the limit: answered');
  form.free();
});

test('definitions the server refuses at load are refused by the module: same problems, no trap', () => {
  for (const [id, text] of Object.entries(refused)) {
    const file = join(dir, `${id}.json`);
    const error = guarded(() => engine.loadForm(id, text, { file }));
    assert.ok(error instanceof FormdDefinitionError, `${id}: ${error}`);
    if (!base) continue;
    const check = spawnSync(formdBin, ['check', file], { encoding: 'utf8' });
    assert.notEqual(check.status, 0, id);
    const lines = (check.stdout + check.stderr).split('\n').filter((l) => l.includes(': error: '));
    assert.deepEqual(error.problems, lines, `${id}: the problems formd check prints`);
  }
});

test('a definition over the server\'s 8 MiB is refused before it reaches the module', () => {
  const big = JSON.stringify({ title: 'x'.repeat(8 << 20), groups: [] });
  const error = guarded(() => engine.loadForm('big', big, { file: 'big.json' }));
  assert.ok(error instanceof FormdDefinitionError, String(error));
  assert.equal(error.problems[0], `big.json: the file is ${big.length} bytes, over the limit of 8388608 bytes (forms.max_file_bytes)`);
});

test('values: deep nesting, a long text, broken JSON: the server\'s answer or problem', async () => {
  await same('text', 'validate', '{"note": ' + '['.repeat(100000) + ']'.repeat(100000) + '}');
  const long = await same('text', 'validate', { note: 'x'.repeat(1 << 20), code: 'AB1234' });
  assert.ok(long.answer.errors.some((e) => e.field === 'note' && e.code === 'max_length'));
  const echo = await same('text', 'evaluate', { note: 'y'.repeat(3 << 20) }, ['note']);
  assert.equal(echo.answer.values.echo, undefined, 'a formula past limits.max_text_bytes has no value');
  await same('text', 'validate', '{"note": "\\ud800", "code": ' + '1'.repeat(5000) + '}');
  await same('text', 'validate', '{"note": "unterminated');
  await same('text', 'validate', { code: 'ÅB1234' + 'é'.repeat(100) });  // non-ASCII: decided or deferred, never guessed
});
