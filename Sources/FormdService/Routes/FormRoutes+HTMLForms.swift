import FormdCore
import FormdHTTP
import Foundation

/// A `<form>` posted by a browser with JavaScript off: the browser asks for HTML, so a JSON answer
/// would end the user's journey on raw JSON. With `html.success_url` / `html.error_url` set, such a
/// post gets a 303 to the page for its outcome (API.md §4).
extension FormRoutes {
    /// The 303 for an HTML form post whose client asks for HTML (`Accept` names `text/html`
    /// and not `application/json`), when a URL for the outcome is configured; else nil.
    func htmlRedirect(_ form: Form, _ answer: FormAnswer, _ request: HTTPRequest) -> HTTPResponse? {
        guard let accept = request.headers.list("Accept")?.lowercased(), accept.contains("text/html"),
            !accept.contains("application/json")
        else { return nil }
        let valid = answer.isValid
        guard let base = valid ? htmlSuccessURL : htmlErrorURL else { return nil }
        var query = [("form", form.id)]
        if !valid { query.append(("fields", answer.subjectsInError.joined(separator: ","))) }
        let encoded = query.map { "\($0.0)=\(Self.queryEscape($0.1))" }.joined(separator: "&")
        let location = base + (base.contains("?") ? "&" : "?") + encoded
        var r = HTTPResponse(status: 303, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array("See \(location)\n".utf8))
        r.headers.set("Location", location)
        r.headers.set("Cache-Control", "no-store")
        return r
    }

    static func queryEscape(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~,")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
