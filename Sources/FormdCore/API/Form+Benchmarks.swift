/// The one entry point the separate benchmark package needs beyond the public API: an
/// evaluation without an answer, to time the engine apart from decoding and writing.
/// `@_spi(Benchmarks)`: not part of the API apps use.
extension Form {
    /// Evaluates `values` for validate and returns the number of errors (nothing is written).
    @_spi(Benchmarks) public func benchmarkEvaluation(_ values: FormValues) -> Int {
        Evaluation(plan: loaded.plan, values: values, mode: .validate, options: options).errors.count
    }
}
