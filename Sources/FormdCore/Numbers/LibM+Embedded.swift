#if hasFeature(Embedded)
// wasi-libc's libm (musl), linked into the module. `@_extern(c)` needs
// `-enable-experimental-feature Extern` (scripts/build-wasm passes it; native builds never see this).
@_extern(c, "pow") private func c_pow(_ x: Double, _ y: Double) -> Double
@_extern(c, "exp") private func c_exp(_ x: Double) -> Double
@_extern(c, "log") private func c_log(_ x: Double) -> Double
@_extern(c, "log2") private func c_log2(_ x: Double) -> Double
@_extern(c, "log10") private func c_log10(_ x: Double) -> Double
@_extern(c, "sin") private func c_sin(_ x: Double) -> Double
@_extern(c, "cos") private func c_cos(_ x: Double) -> Double
@_extern(c, "tan") private func c_tan(_ x: Double) -> Double
@_extern(c, "asin") private func c_asin(_ x: Double) -> Double
@_extern(c, "acos") private func c_acos(_ x: Double) -> Double
@_extern(c, "atan") private func c_atan(_ x: Double) -> Double

/// The C math functions formulas use: musl's, which may differ from glibc's in the last bit for
/// some inputs (sin, cos, tan, asin, acos, atan, log10); formulas round to 15 significant digits,
/// which hides most of it, and the parity runs cover them (docs/WASM.md).
enum LibM {
    static func pow(_ x: Double, _ y: Double) -> Double { c_pow(x, y) }
    static func exp(_ x: Double) -> Double { c_exp(x) }
    static func log(_ x: Double) -> Double { c_log(x) }
    static func log2(_ x: Double) -> Double { c_log2(x) }
    static func log10(_ x: Double) -> Double { c_log10(x) }
    static func sin(_ x: Double) -> Double { c_sin(x) }
    static func cos(_ x: Double) -> Double { c_cos(x) }
    static func tan(_ x: Double) -> Double { c_tan(x) }
    static func asin(_ x: Double) -> Double { c_asin(x) }
    static func acos(_ x: Double) -> Double { c_acos(x) }
    static func atan(_ x: Double) -> Double { c_atan(x) }
}
#endif
