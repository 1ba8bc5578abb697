// node --test Tests/Wasm/: Sources/FormdWeb/formd-engine.js over .build/wasm/formd-engine.wasm
// (scripts/build-wasm). With FORMD_BIN (default .build/release/formd, when built), answers are
// also compared byte for byte with `formd validate|evaluate`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, writeFileSync, mkdtempSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FormdEngine, FormdDefinitionError, FormdRequestError, FormdEngineTrap } from '../../Sources/FormdWeb/formd-engine.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const wasmPath = process.env.FORMD_WASM || join(root, '.build/wasm/formd-engine.wasm');
const formdBin = process.env.FORMD_BIN || join(root, '.build/release/formd');
const employment = readFileSync(join(root, 'Forms/employment.json'));
const engine = await FormdEngine.load(readFileSync(wasmPath));

const valid = {
  first_name: 'Ola', last_name: 'Nordmann', work_email: 'ola.nordmann@example.no', employment_type: 'permanent',
  start_date: '2024-01-15', base_salary: 1, bonus: 25000.5, vacation_weeks: 5, pension_percent: 5.5,
};
const invalid = { first_name: 'O', work_email: 'not an email', employment_type: 2, start_date: '2024-02-30' };

/** `formd ARGS FORM -` with `values` on stdin: { status, stdout }, or null when formd is not built. */
function formd(args, form, values) {
  if (!existsSync(formdBin)) return null;
  const r = spawnSync(formdBin, [...args, form, '-'], { input: JSON.stringify(values) });
  return { status: r.status, stdout: r.stdout.toString() };
}

test('validate: the server answer, bytes and status', () => {
  const form = engine.loadForm('employment', employment);
  const ok = form.validate(valid);
  assert.equal(ok.status, 0);
  assert.equal(ok.valid, true);
  assert.equal(ok.answer.form, 'employment');
  assert.equal(typeof ok.answer.values.total, 'number');  // a formula
  assert.deepEqual(ok.deferredFormats, []);
  const bad = form.validate(invalid, { locale: 'nb' });
  assert.equal(bad.status, 1);
  assert.equal(bad.valid, false);
  assert.ok(bad.answer.errors.some((e) => e.field === 'start_date'));
  const native = formd(['validate', '--locale', 'nb'], join(root, 'Forms/employment.json'), invalid);
  if (native) {
    assert.equal(native.status, 1);
    assert.equal(native.stdout, bad.json + '\n');
  }
  form.free();
});

test('evaluate: changed, locale, state token round trip', () => {
  const form = engine.loadForm('employment', employment);
  const first = form.evaluate(valid, { changed: ['employment_type'], locale: 'es', state: null });
  assert.equal(first.status, 0);
  assert.equal(typeof first.answer.state, 'string');
  assert.ok(first.answer.changes, 'a first request with state null gets changes');
  const native = formd(['evaluate', '--locale', 'es', '--changed', 'employment_type'], join(root, 'Forms/employment.json'), valid);
  if (native) {
    const plain = form.evaluate(valid, { changed: ['employment_type'], locale: 'es' });
    assert.equal(native.stdout, plain.json + '\n');
  }
  const next = form.evaluate({ ...valid, employment_type: 'temporary' }, { changed: ['employment_type'], state: first.answer.state });
  assert.equal(next.status, 0);
  assert.ok(next.answer.changes, 'a request with a token gets changes');
  assert.throws(() => form.evaluate(valid, { state: 'not-a-token' }), FormdRequestError);
  assert.throws(
    () => form.evaluate(valid, { changed: ['no_such_field'] }),
    (e) => e instanceof FormdRequestError && e.unknownChanged === 'no_such_field',
  );
  form.free();
});

test('a bad definition: FILE:LINE:COL problems as formd check prints them', () => {
  assert.throws(
    () => engine.loadForm('broken', '{"title": "x",\n  "groups": 3}', { file: 'Forms/broken.json' }),
    (e) => e instanceof FormdDefinitionError && e.problems.length > 0
      && e.problems.every((p) => /^Forms\/broken\.json:\d+:\d+: error: /.test(p)),
  );
  assert.throws(() => engine.loadForm('x', '{"title": '), (e) => /^x\.json:1:\d+: error: /.test(e.problems[0]));
});

test('bad values: position, and the object rule', () => {
  const form = engine.loadForm('employment', employment);
  assert.throws(() => form.validate('{"first_name": '), (e) => e instanceof FormdRequestError && /^\d+:\d+$/.test(e.position));
  assert.throws(() => form.validate('[1]'), (e) => e instanceof FormdRequestError && /JSON object/.test(e.message));
  assert.equal(form.validate('null').status, 1, 'null is no values: required fields fail');
  form.free();
});

test('a format the module cannot check is deferred, never guessed', () => {
  const phone = JSON.stringify({
    title: 'p', groups: [{ title: 'g', sections: [{ id: 's', fields: [
      { id: 'phone', type: 'text', title: 'Phone', validations: { format: '^\\+?[0-9 ]{8,19}$' } },
      { id: 'code', type: 'text', title: 'Code', validations: { format: '^[0-9]{4}$' } },
      { id: 'twice', type: 'text', title: 'Twice', validations: { format: '^(a)\\1$' } },
    ] }] }],
  });
  const form = engine.loadForm('phone', phone);
  const a = form.validate({ phone: 'abc', code: '12345', twice: 'ab' });
  assert.deepEqual(a.deferredFormats, ['twice'], 'a back-reference is server-only: deferred');
  assert.deepEqual(a.answer.errors.map((e) => [e.field, e.code]), [['phone', 'format'], ['code', 'format']],
    'the linear matcher decides phone, SimplePattern code');
  assert.deepEqual(form.validate({ code: '1234' }).deferredFormats, [], 'no value, no check, nothing deferred');
  form.free();
});

test('load: bytes, a path, a file URL, a Response, a promise of one', async () => {
  const bytes = readFileSync(wasmPath);
  for (const source of [bytes, wasmPath, new URL(`file://${wasmPath}`), new Response(bytes, { headers: { 'content-type': 'application/wasm' } }),
    Promise.resolve(new Response(bytes))]) {
    const e = await FormdEngine.load(source);
    assert.equal(e.loadForm('employment', employment).validate(valid).status, 0);
  }
});

test('free: the handle is gone, others keep working', () => {
  const a = engine.loadForm('employment', employment);
  const b = engine.loadForm('employment', employment);
  a.free();
  assert.throws(() => a.validate(valid), FormdRequestError);
  assert.equal(b.validate(valid).status, 0);
  b.free();
});

test('a trap switches to a fresh instance and reloads the forms', async () => {
  const local = await FormdEngine.load(engine.module);
  const form = local.loadForm('employment', employment);
  const real = local.exports;
  local.exports = { ...real, formd_validate: () => { throw new WebAssembly.RuntimeError('unreachable'); } };
  assert.throws(() => form.validate(valid), FormdEngineTrap);
  assert.equal(local.traps, 1);
  assert.notEqual(local.exports, real, 'a new instance');
  assert.equal(form.validate(valid).status, 0, 'the form works again, same handle');
  await local.spareReady;
  assert.ok(local.spare, 'a new spare instance for the next trap');
});

test('memory returns to its baseline over 10,000 calls', async () => {
  const local = await FormdEngine.load(engine.module);
  const form = local.loadForm('employment', employment);
  const values = JSON.stringify(invalid);
  const probe = () => { const p = local.exports.formd_alloc(64); local.exports.formd_free(p); return p; };
  // Warm up (lazy globals). Where a fresh 64-byte block lands may cycle among a few free holes
  // from one round of calls to the next (it does for validate since the remote-rule fields made
  // the evaluation larger); a leak shows as memory that grows or a first free block that climbs.
  let highest = 0;
  for (let round = 0; round < 4; round++) {
    for (let i = 0; i < 50; i++) form.validate(values);
    highest = Math.max(highest, probe());
  }
  const before = { bytes: local.memoryBytes, probe: highest };
  for (let i = 0; i < 5000; i++) {
    form.validate(values);
    form.evaluate(values, { changed: ['employment_type'], locale: 'nb' });
  }
  const after = probe();
  assert.deepEqual({ bytes: local.memoryBytes, probe: Math.max(after, highest) }, before);
});

test('remote rules are left to the server (SEMANTICS §6.2)', async () => {
  const local = await FormdEngine.load(engine.module);
  const def = JSON.stringify([{ id: 'g', sections: [{ id: 's', fields: [
    { id: 'username', type: 'text', validations: { min_length: 3, remote: 'users' } },
    { id: 'email', type: 'text', validations: { format: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]{2,}$' } }] }] }]);
  const form = local.loadForm('remote', def);
  const v = form.validate({ username: 'ola', email: 'ola@example.com' });
  assert.deepEqual(v.deferredRemote, ['username']);
  assert.ok(v.deferredFormats.every((d) => typeof d === 'string'));
  assert.equal(v.valid, true, 'no error for an undecided remote rule: the server decides');
  assert.deepEqual(form.validate({ username: 'ab' }).deferredRemote, [], 'local checks fail first: nothing to ask');
  assert.deepEqual(form.evaluate({ username: 'ola' }, { changed: ['email'] }).deferredRemote, [], 'evaluate asks for changed fields only');
  assert.deepEqual(form.evaluate({ username: 'ola' }, { changed: ['username'] }).deferredRemote, ['username']);
  form.free();
});

test('rows: a repeating section sent as rows is answered as rows, as formd answers it (API.md 4.3)', () => {
  const form = engine.loadForm('expenses', readFileSync(join(root, 'Forms/expenses.json'), 'utf8'));
  const values = {
    employee_name: 'Ola', department: 'sales', report_date: '2026-11-20',
    items: [{ description: 'Taxi', date: '2026-11-19', unit_price: 10, quantity: 2 }, { description: 'Tea', date: '2026-11-21', unit_price: 3 }],
  };
  const r = form.validate(values);
  assert.deepEqual(r.answer.values.items.map((i) => i.amount), [20, 3]);
  assert.deepEqual(r.answer.errors.map((e) => `${e.field}:${e.code}`), ['items[1].date:compare'], 'error keys stay flat field paths');
  const native = formd(['validate', '--forms', join(root, 'Forms')], 'expenses', values);
  if (native) assert.equal(r.json, native.stdout.trimEnd(), 'the same bytes as formd');
  assert.throws(() => form.validate({ items: 3 }), (e) => e instanceof FormdRequestError && /repeating section/.test(e.message));
  assert.throws(() => form.evaluate({ items: [], 'items[0].description': 'x' }), (e) => e instanceof FormdRequestError && /flat key/.test(e.message));
  form.free();
});
