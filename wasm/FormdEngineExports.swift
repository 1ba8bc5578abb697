// The WebAssembly interface of formd-engine.wasm (docs/WASM.md). Its own module, FormdWasm, built
// by scripts/build-wasm against FormdCore's public API only, like any app that embeds the engine.
//
// Inputs are (pointer, length) pairs the host wrote into buffers from `formd_alloc`. Every call
// that answers returns a pointer to one buffer, which the host copies out and frees with
// `formd_free`:
//
//     [u32 LE status][u32 LE length][length bytes: body]
//     validate and evaluate answers (status 0 or 1) only:
//     [u32 LE length][length bytes: deferred, a JSON array of field ids (docs/WASM.md)]
//
// Statuses: 0 ok (validate: valid), 1 invalid (validate), 2 a problem (body: text),
// 3 `changed` names no field or dynamic section (body: the id).
import FormdCore

/// Loaded forms by handle (handle = index + 1; an unloaded slot is reused). One instance serves
/// one page or one worker: calls never overlap, so no lock.
nonisolated(unsafe) private var loadedForms: [Form?] = []

private func bytes(_ p: UnsafePointer<UInt8>?, _ n: Int32) -> [UInt8] {
    guard let p, n > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: p, count: Int(n)))
}

private func text(_ p: UnsafePointer<UInt8>?, _ n: Int32) -> String {
    String(decoding: bytes(p, n), as: UTF8.self)
}

private func answer(_ status: UInt32, _ body: [UInt8], deferred: [String]? = nil, remote: [RemoteQuestion] = []) -> UnsafeMutableRawPointer {
    var tail = deferred.map(jsonArray) ?? []
    // Remote rules the server decides (SEMANTICS §6.2): `{"remote":"<field id>"}` entries in the
    // same list, so a host that knows only format ids still reads it.
    if !remote.isEmpty && tail.count >= 2 {
        tail.removeLast()
        for (i, q) in remote.enumerated() {
            if tail.count > 1 || i > 0 { tail.append(UInt8(ascii: ",")) }
            tail += Array("{\"remote\":".utf8)
            tail += jsonArray([q.field]).dropFirst().dropLast()
            tail.append(UInt8(ascii: "}"))
        }
        tail.append(UInt8(ascii: "]"))
    }
    let size = 8 + body.count + (deferred == nil ? 0 : 4 + tail.count)
    let p = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
    p.storeBytes(of: status.littleEndian, as: UInt32.self)
    p.storeBytes(of: UInt32(body.count).littleEndian, toByteOffset: 4, as: UInt32.self)
    body.withUnsafeBytes { b in
        if let base = b.baseAddress, b.count > 0 { (p + 8).copyMemory(from: base, byteCount: b.count) }
    }
    if deferred != nil {
        p.storeBytes(of: UInt32(tail.count).littleEndian, toByteOffset: 8 + body.count, as: UInt32.self)
        tail.withUnsafeBytes { b in
            if let base = b.baseAddress, b.count > 0 { (p + 12 + body.count).copyMemory(from: base, byteCount: b.count) }
        }
    }
    return p
}

/// `["a","b"]`: field ids are plain text, but escape what JSON requires anyway.
private func jsonArray(_ items: [String]) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "[")]
    for (i, item) in items.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "\""))
        for b in item.utf8 {
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                out += [UInt8(ascii: "\\"), b]
            } else if b < 0x20 {
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(b >> 4)], hex[Int(b & 15)]]
            } else {
                out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
    out.append(UInt8(ascii: "]"))
    return out
}

private func answer(_ status: UInt32, _ body: String) -> UnsafeMutableRawPointer {
    answer(status, Array(body.utf8))
}

private func answer(_ a: FormAnswer) -> UnsafeMutableRawPointer {
    answer(a.isValid ? 0 : 1, a.json, deferred: a.deferredFormats, remote: a.remoteQuestions)
}

@_expose(wasm, "formd_alloc") @_cdecl("formd_alloc")
public func formdAlloc(_ size: Int32) -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer.allocate(byteCount: Int(max(size, 1)), alignment: 8)
}

@_expose(wasm, "formd_free") @_cdecl("formd_free")
public func formdFree(_ p: UnsafeMutableRawPointer?) { p?.deallocate() }

/// Loads a definition as form `id`. Status 0: the body is the handle, in decimal. Status 2: the
/// errors, one `FILE:LINE:COL: error: PATH: MESSAGE` line each, as `formd check` prints them
/// (`file` names the definition in them; empty: `ID.json`).
@_expose(wasm, "formd_load") @_cdecl("formd_load")
public func formdLoad(
    _ idPtr: UnsafePointer<UInt8>?, _ idLen: Int32, _ defPtr: UnsafePointer<UInt8>?, _ defLen: Int32,
    _ filePtr: UnsafePointer<UInt8>?, _ fileLen: Int32
) -> UnsafeMutableRawPointer {
    let id = text(idPtr, idLen)
    let file = fileLen > 0 ? text(filePtr, fileLen) : id + ".json"
    do {
        let form = try Form(id: id, json: bytes(defPtr, defLen))
        if let free = loadedForms.firstIndex(where: { $0 == nil }) {
            loadedForms[free] = form
            return answer(0, String(free + 1))
        }
        loadedForms.append(form)
        return answer(0, String(loadedForms.count))
    } catch {
        var lines: [String] = []
        for d in error.diagnostics where d.severity == .error { lines.append(d.formatted(file: file)) }
        return answer(2, lines.joined(separator: "\n"))
    }
}

/// Frees a form (its handle may be given to the next load).
@_expose(wasm, "formd_unload") @_cdecl("formd_unload")
public func formdUnload(_ handle: Int32) {
    let i = Int(handle) - 1
    if loadedForms.indices.contains(i) { loadedForms[i] = nil }
}

private func form(_ handle: Int32) -> Form? {
    let i = Int(handle) - 1
    return loadedForms.indices.contains(i) ? loadedForms[i] : nil
}

/// The locale as `formd validate --locale` picks it (empty: none given).
private func locale(_ p: UnsafePointer<UInt8>?, _ n: Int32) -> SupportedLocale {
    negotiateLocale(query: n > 0 ? text(p, n) : nil, acceptLanguage: nil)
}

/// The values document as `formd validate` reads it: an object, or null for none. The problem
/// is `LINE:COL: MESSAGE`, or a sentence; the host prefixes the values' name.
private func values(_ p: UnsafePointer<UInt8>?, _ n: Int32) -> Result<FormValues, ValuesProblem> {
    let document: FormValue
    do {
        document = try FormValue(json: bytes(p, n))
    } catch {
        return .failure(ValuesProblem(text: "\(error.line):\(error.column): \(error.message)"))
    }
    switch document {
    case .object(let o): return .success(o)
    case .null: return .success(FormValues())
    default: return .failure(ValuesProblem(text: "the values must be a JSON object"))
    }
}

private struct ValuesProblem: Error { let text: String }

/// What a validate or evaluate call answers: the bytes as `form`'s submission
/// (`Form.submission(fromJSON:)`: its ids as key hints, and answers that copy the values sent back
/// as they were sent), or, when that refuses them, `values` (`null` is no values there; otherwise
/// the problem in the generic decoder's words, as before).
private enum Sent {
    case submission(FormSubmission)
    case decoded(FormValues)

    init(_ form: Form, _ p: UnsafePointer<UInt8>?, _ n: Int32) throws(ValuesProblem) {
        if let s = try? form.submission(fromJSON: bytes(p, n)) {
            self = .submission(s)
            return
        }
        switch values(p, n) {
        case .failure(let problem): throw problem
        case .success(let v): self = .decoded(v)
        }
    }
}

/// `formd validate`: status 0 valid or 1 invalid (body: the validate answer, as the server's), or
/// 2 (body: the problem).
@_expose(wasm, "formd_validate") @_cdecl("formd_validate")
public func formdValidate(
    _ handle: Int32, _ valuesPtr: UnsafePointer<UInt8>?, _ valuesLen: Int32,
    _ localePtr: UnsafePointer<UInt8>?, _ localeLen: Int32
) -> UnsafeMutableRawPointer {
    guard let form = form(handle) else { return answer(2, "no form has handle \(handle)") }
    let sent: Sent
    do {
        sent = try Sent(form, valuesPtr, valuesLen)
    } catch {
        return answer(2, error.text)
    }
    do {
        switch sent {
        case .submission(let s): return answer(try form.validateAnswer(s, locale: locale(localePtr, localeLen)))
        case .decoded(let v): return answer(try form.validateAnswer(v, locale: locale(localePtr, localeLen)))
        }
    } catch {
        return answer(2, error.description)
    }
}

/// `formd evaluate`: `changed` is a JSON array of ids (empty: none); `state` is the previous
/// answer's `state` token, `null` for a first request that wants `changes`, or empty for none.
/// Status 0 (body: the evaluate answer, as the server's), 2 (body: the problem) or 3 (body: the
/// `changed` id the form does not have).
@_expose(wasm, "formd_evaluate") @_cdecl("formd_evaluate")
public func formdEvaluate(
    _ handle: Int32, _ valuesPtr: UnsafePointer<UInt8>?, _ valuesLen: Int32,
    _ changedPtr: UnsafePointer<UInt8>?, _ changedLen: Int32,
    _ localePtr: UnsafePointer<UInt8>?, _ localeLen: Int32,
    _ statePtr: UnsafePointer<UInt8>?, _ stateLen: Int32
) -> UnsafeMutableRawPointer {
    guard let form = form(handle) else { return answer(2, "no form has handle \(handle)") }
    let sent: Sent
    do {
        sent = try Sent(form, valuesPtr, valuesLen)
    } catch {
        return answer(2, error.text)
    }
    var changed: [String] = []
    if changedLen > 0 {
        guard case .array(let ids)? = try? FormValue(json: bytes(changedPtr, changedLen)) else {
            return answer(2, "changed must be a JSON array of ids")
        }
        for id in ids {
            guard case .string(let s) = id else { return answer(2, "changed must be a JSON array of ids") }
            changed.append(s)
        }
    }
    let previous: PreviousState
    let state = text(statePtr, stateLen)
    if stateLen <= 0 {
        previous = .notSent
    } else if state == "null" {
        previous = .initial
    } else {
        previous = .token(state)
    }
    do {
        let a: FormAnswer
        switch sent {
        case .submission(let s): a = try form.evaluateAnswer(s, changed: changed, previous: previous, locale: locale(localePtr, localeLen))
        case .decoded(let v): a = try form.evaluateAnswer(v, changed: changed, previous: previous, locale: locale(localePtr, localeLen))
        }
        return answer(0, a.json, deferred: a.deferredFormats, remote: a.remoteQuestions)
    } catch {
        switch error {
        case .unknownChangedID(let id): return answer(3, id)
        default: return answer(2, error.description)
        }
    }
}
