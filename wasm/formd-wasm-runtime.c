// formd-engine.wasm: the C symbols the Embedded Swift engine needs on wasm32-unknown-none-wasm that
// neither wasi-libc (libc.a) nor the toolchain's libswiftUnicodeDataTables.a provides, or that are
// provided here so the module imports nothing from its host (no WASI). Built by scripts/build-wasm.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <math.h>

// Double(String) / Float(String) in the Embedded stdlib call these (the full runtime has them in
// stdlib/public/stubs/Stubs.cpp). Same contract: returns the end of the parsed prefix, or NULL
// when the value is out of range (ERANGE with a huge or zero result), so Double("1e400") == nil
// as natively. wasi-libc's strtod is musl's and always uses the C locale.
const char *_swift_stdlib_strtod_clocale(const char *nptr, double *out) {
  char *end;
  errno = 0;
  double r = strtod(nptr, &end);
  *out = r;
  if ((r == HUGE_VAL || r == -HUGE_VAL || r == 0.0) && errno == ERANGE) return NULL;
  return end;
}
const char *_swift_stdlib_strtof_clocale(const char *nptr, float *out) {
  char *end;
  errno = 0;
  float r = strtof(nptr, &end);
  *out = r;
  if ((r == HUGE_VALF || r == -HUGE_VALF || r == 0.0f) && errno == ERANGE) return NULL;
  return end;
}

// Hasher's per-process seed (Set/Dictionary) and SystemRandomNumberGenerator. wasi-libc's
// arc4random_buf would import wasi_snapshot_preview1.random_get; this one keeps the module
// import-free: a fixed-seed splitmix64 stream (deterministic hashing, like
// SWIFT_DETERMINISTIC_HASHING natively). Fine for a sandboxed per-page engine; do not use
// for secrets.
static uint64_t formd_rng_state = 0x9E3779B97F4A7C15ull;
void arc4random_buf(void *buf, size_t n) {
  unsigned char *p = buf;
  while (n) {
    uint64_t z = (formd_rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    size_t k = n < 8 ? n : 8;
    memcpy(p, &z, k);
    p += k; n -= k;
  }
}

// print() in Embedded Swift writes through putchar; the engine never prints, and wasi-libc's
// putchar would drag in stdio + fd_write. A sink keeps the module import-free.
int putchar(int c) { return c; }

// Debian's libclang_rt.builtins-wasm32.a is built with -fstack-protector-strong (distribution
// hardening), so __udivti3/__umodti3 (128-bit division, used by FormNumber) reference these.
// Swift code is compiled with -disable-stack-protector and never does. A constant canary is
// enough to satisfy the builtins (wasm has no return-address overwrite to protect against:
// the call stack is not in linear memory).
uintptr_t __stack_chk_guard = 0x666f726du;  // "form"
_Noreturn void __stack_chk_fail(void) { __builtin_trap(); }
