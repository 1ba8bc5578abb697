// A command-line app on FormdClient: what an iOS or macOS app does with a form, in a terminal.
//
//   swift run formd-client-example [SERVER] [--cache DIR]
//
// It lists the forms, loads `signup`, evaluates a half-filled sign-up (newsletter on: its topic
// appears), validates it (errors in Norwegian), then a complete one (the normalised values).
// With --cache the definition is kept in DIR, so a second run while formd is down still answers,
// computed on this machine: the results are then marked "local".
import FormdClient
import FormdCore
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
var cache: URL?
if let i = arguments.firstIndex(of: "--cache"), i + 1 < arguments.count {
    cache = URL(fileURLWithPath: arguments[i + 1])
    arguments.removeSubrange(i...(i + 1))
}
let server = URL(string: arguments.first ?? "http://127.0.0.1:8080")!
let formd = FormdClient(server: server, locale: "nb", offline: true, cacheDirectory: cache)

func show(_ label: String, _ result: FormdClient.Result) {
    let source = result.source == .server ? "server" : "local"
    print("\(label) [\(source)] valid=\(result.state.isValid) version=\(result.version)")
    for e in result.state.errors { print("  \(e.field ?? "-"): \(e.code): \(e.message)") }
}

do {
    do {
        let forms = try await formd.forms()
        print("forms:", forms.map(\.id).joined(separator: ", "))
    } catch where error.isUnreachable {
        print("forms: formd cannot be reached (\(server)); working offline")
    }
    let form = try await formd.form("signup")
    print("signup: \(form.title), \(form.version)")

    let draft: FormValues = ["email": "ola@example", "username": "ola", "newsletter": true]
    let live = try await formd.evaluate("signup", draft, changed: ["newsletter"])
    show("evaluate", live)
    print("  newsletter_topic visible:", live.state.field("newsletter_topic")?.isVisible == true)

    show("validate draft", try await formd.validate("signup", draft))

    let complete: FormValues = [
        "email": "ola@example.com", "username": "ola_n", "password": "hemmelig1",
        "password_confirmation": "hemmelig1", "terms": "true",
    ]
    let verdict = try await formd.validate("signup", complete)
    show("validate complete", verdict)
    print("  values:", FormValue.object(verdict.state.values).jsonText)
} catch {
    print("error:", error)
    exit(1)
}
