#if hasFeature(Embedded)
extension FormatPattern {
    /// No weak references or locks in Embedded Swift, and a WebAssembly instance holds one or a
    /// few forms: no sharing, each use compiles its own (compiling defers, so it is cheap).
    package static func interned(_ source: String) throws(FormatPatternError) -> FormatPattern {
        try FormatPattern(source)
    }
}
#endif
