// node wasm/bench/wasm-bench.mjs FORM VALUES [N]: validate N times through formd-engine.js in one
// instance (values bytes in, answer bytes out, as a page would); per-call time, instantiate and
// load times, and linear memory before and after (it must return to its baseline).
import { readFileSync } from 'node:fs';
import { FormdEngine } from '../../Sources/FormdWeb/formd-engine.js';

const [formPath, valuesPath, n = '10000'] = process.argv.slice(2);
const wasm = readFileSync(process.env.FORMD_WASM ?? new URL('../../.build/wasm/formd-engine.wasm', import.meta.url));
let t = performance.now();
const engine = await FormdEngine.load(wasm);
const instantiateMs = performance.now() - t;
t = performance.now();
const form = engine.loadForm('employment', readFileSync(formPath));
const loadMs = performance.now() - t;
const values = readFileSync(valuesPath);
t = performance.now();
const first = form.validate(values);
const firstMs = performance.now() - t;
// Warm up long enough for V8 to tier up from Liftoff to TurboFan (background threads: slower on a busy host).
for (let i = 0; i < 3000; i++) form.validate(values);
const probe = () => { const p = engine.exports.formd_alloc(64); engine.exports.formd_free(p); return p; };
const mem0 = engine.memoryBytes, p0 = probe();
t = performance.now();
for (let i = 0; i < Number(n); i++) form.validate(values);
const dt = performance.now() - t;
console.log(JSON.stringify({
  wasm_us_per_validate: +(dt * 1000 / Number(n)).toFixed(1), calls: Number(n), instantiate_ms: +instantiateMs.toFixed(1),
  load_ms: +loadMs.toFixed(1), first_validate_ms: +firstMs.toFixed(2), answer_bytes: first.bytes.length,
  memory_bytes_before: mem0, memory_bytes_after: engine.memoryBytes, probe_before: p0, probe_after: probe(),
}));
