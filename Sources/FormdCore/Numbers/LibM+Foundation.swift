#if !hasFeature(Embedded)
import Foundation

/// The C math functions formulas use: the platform's libm (glibc on Linux, libsystem_m on Apple).
/// WebAssembly: LibM+Embedded.swift.
enum LibM {
    static func pow(_ x: Double, _ y: Double) -> Double { Foundation.pow(x, y) }
    static func exp(_ x: Double) -> Double { Foundation.exp(x) }
    static func log(_ x: Double) -> Double { Foundation.log(x) }
    static func log2(_ x: Double) -> Double { Foundation.log2(x) }
    static func log10(_ x: Double) -> Double { Foundation.log10(x) }
    static func sin(_ x: Double) -> Double { Foundation.sin(x) }
    static func cos(_ x: Double) -> Double { Foundation.cos(x) }
    static func tan(_ x: Double) -> Double { Foundation.tan(x) }
    static func asin(_ x: Double) -> Double { Foundation.asin(x) }
    static func acos(_ x: Double) -> Double { Foundation.acos(x) }
    static func atan(_ x: Double) -> Double { Foundation.atan(x) }
}
#endif
