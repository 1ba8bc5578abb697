import Foundation

enum MediaType {
    /// `Application/JSON; charset=utf-8` → `application/json`.
    static func essence(_ header: String) -> String {
        let main = header.split(separator: ";", maxSplits: 1).first ?? ""
        return main.trimmingCharacters(in: .whitespaces).lowercased()
    }
}
