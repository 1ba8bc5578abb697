/// One validation error of a state (SEMANTICS §6).
///
/// No init in this body: the evaluation builds errors with the synthesized memberwise init
/// (see the extension below for why), which an init declared here would remove.
package struct FormError: Sendable, Hashable {
    package enum Subject: Sendable, Hashable {
        case field(String)
        case section(String)
        case form
    }

    package var subject: Subject
    package var code: ErrorCode
    /// Params in output order; values are JSON.
    package var params: [(key: String, value: JSONValue)] { paramList.list }
    /// The params, with their JSON when the form's compiler wrote it (see `ParamList`).
    let paramList: ParamList
    /// The field's slot in the evaluation that made the error, or -1: the answer then copies
    /// the field's id as written at load (`SlotMap.quotedStaticIDs`) instead of escaping it.
    let slot: Int32
    /// The message, as a text or as the template it is rendered from: most errors are written
    /// into an answer once, and rendering straight into the answer's buffer spares a `String`
    /// built per error (about 2,400 instructions each under callgrind, most of it allocation).
    package var text: MessageText
    /// The message in the request's locale.
    package var message: String {
        get { text.rendered(params: params) }
        set { text = .plain(newValue) }
    }
    /// PureForm's key for the failed validator (`PFValidationRequiredFailure`), on errors of
    /// PureForm inputs (SEMANTICS §12); nil otherwise.
    package var messageKey: String?
    /// The code of an expression rule that names its own (`code` is then `.rule`).
    package var customCode: String?

    /// The code answers carry.
    package var codeText: String { customCode ?? code.rawValue }

    /// `codeText` for an answer: a built-in code is a constant.
    var answerCode: AnswerString { customCode.map { .text($0) } ?? .fixed(code.name) }

    package static func == (a: FormError, b: FormError) -> Bool {
        a.subject == b.subject && a.code == b.code && a.customCode == b.customCode && a.message == b.message
            && a.params.map({ $0.key }) == b.params.map({ $0.key }) && a.params.map({ $0.value }) == b.params.map({ $0.value })
    }

    package func hash(into h: inout Hasher) {
        h.combine(subject)
        h.combine(code)
        h.combine(message)
    }
}

/// The inits other than the memberwise one, which the evaluation uses: declared here, in an
/// extension, so that the struct keeps its synthesized memberwise init. An error built by an
/// explicit init and appended to a list was built in memory, copied into the list and the
/// original destroyed (about 400 instructions an error under callgrind); the memberwise init
/// builds it in place.
extension FormError {
    package init(
        subject: Subject, code: ErrorCode, params: [(key: String, value: JSONValue)], message: String,
        messageKey: String? = nil, customCode: String? = nil
    ) {
        self.init(subject: subject, code: code, params: params, text: .plain(message), messageKey: messageKey, customCode: customCode)
    }

    package init(
        subject: Subject, code: ErrorCode, params: [(key: String, value: JSONValue)], text: MessageText,
        messageKey: String? = nil, customCode: String? = nil
    ) {
        self.init(subject: subject, code: code, paramList: ParamList(params), slot: -1, text: text, messageKey: messageKey, customCode: customCode)
    }
}

/// An error's `params`, with their JSON (`{"min":2}`) when they depend only on the definition:
/// those lists are made once, when the form is compiled (`ErrorParams`), and an answer copies
/// their JSON instead of writing each key and value again (about 500 instructions a param under
/// callgrind). Lists made per error have no JSON: the answer writes them.
struct ParamList: Sendable, ExpressibleByArrayLiteral {
    /// One reference for the list and its JSON (nil: no params): an error holding two arrays
    /// retained and released both wherever it was copied and when it was destroyed.
    private let storage: Storage?

    final class Storage: Sendable {
        let list: [(key: String, value: JSONValue)]
        let json: [UInt8]

        init(list: [(key: String, value: JSONValue)], json: [UInt8]) {
            self.list = list
            self.json = json
        }
    }

    var list: [(key: String, value: JSONValue)] { storage?.list ?? [] }
    /// `list` as a JSON object, or empty.
    var json: [UInt8] { storage?.json ?? [] }

    init(_ list: [(key: String, value: JSONValue)]) {
        storage = list.isEmpty ? nil : Storage(list: list, json: [])
    }

    init(arrayLiteral elements: (key: String, value: JSONValue)...) {
        self.init(elements)
    }

    /// `list` with its JSON written now (the form's compiler's lists).
    init(encoding list: [(key: String, value: JSONValue)]) {
        var w = JSONWriter(reservingCapacity: 32)
        w.params(list)
        storage = Storage(list: list, json: w.bytes)
    }
}
