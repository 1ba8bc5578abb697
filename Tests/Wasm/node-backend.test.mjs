// docs/EMBEDDING.md's Node backend, as written there: a server-side handler validating a posted
// submission with formd-engine.wasm, answering what formd would. Run by `node --test Tests/Wasm/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { FormdEngine } from '../../Sources/FormdWeb/formd-engine.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

// --- the guide's lines -------------------------------------------------------------------------
const engine = await FormdEngine.load(await readFile(join(root, '.build/wasm/formd-engine.wasm')));
const signup = engine.loadForm('signup', await readFile(join(root, 'Forms/signup.json')));

const server = createServer(async (req, res) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  const verdict = signup.validate(body || '{}');   // the posted JSON, as text or an object
  res.writeHead(verdict.valid ? 200 : 422, { 'Content-Type': 'application/json' });
  res.end(verdict.json);                            // the same bytes formd answers
});
// ------------------------------------------------------------------------------------------------

test('a Node backend answers a submission as formd does', async () => {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${server.address().port}/`;
    const sent = { email: 'ola@example', username: 'o', password: 'short' };
    const r = await fetch(url, { method: 'POST', body: JSON.stringify(sent) });
    assert.equal(r.status, 422);
    const text = await r.text();
    const answer = JSON.parse(text);
    assert.equal(answer.valid, false);
    assert.equal(answer.form, 'signup');
    assert.ok(answer.errors.some((e) => e.field === 'email'), 'the e-mail is refused');
    assert.ok(!('password' in answer.values), 'a secret field is never echoed');
    const formd = join(root, '.build/release/formd');
    if (existsSync(formd)) {
      const native = spawnSync(formd, ['validate', 'Forms/signup.json', '-'], { cwd: root, input: JSON.stringify(sent) });
      assert.equal(text, native.stdout.toString().trimEnd(), 'byte for byte what formd answers');
    }
  } finally {
    server.close();
  }
});
