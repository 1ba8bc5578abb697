// Files and URLs are Foundation: native builds only (WebAssembly hosts pass the bytes).
#if !hasFeature(Embedded)
import Foundation

extension Form {
    /// Loads `<id>.json` (the id defaults to the file name without `.json`).
    public init(id: String? = nil, contentsOf url: URL, options: EvaluationOptions = EvaluationOptions()) throws {
        let id = id ?? url.deletingPathExtension().lastPathComponent
        let data = try Data(contentsOf: url)
        do {
            try self.init(id: id, json: data, options: options)
        } catch {
            throw FormDefinitionError(id: id, file: url.path, diagnostics: error.diagnostics)
        }
    }
}
#endif
