import Testing
@testable import FormdCore

/// SEMANTICS §1: definitions are checked at load; every problem is listed with path and position.
@Suite struct EngineDefinitionCheckTests {
    /// Error messages of a one-section array definition with these fields.
    private func errors(_ fields: String...) -> [String] {
        let def = "[{\"sections\": [{\"id\": \"s\", \"fields\": [" + fields.joined(separator: ",") + "]}]}]"
        return Engine.errors(def).map(\.message)
    }

    @Test func bothDocumentShapes() throws {
        let field = #"{"id": "a", "type": "text"}"#
        let array = try Engine.run("[{\"sections\": [{\"fields\": [\(field)]}]}]", #"{"a": "x"}"#)
        let object = try Engine.run("{\"title\": \"T\", \"messages\": {}, \"groups\": [{\"sections\": [{\"fields\": [\(field)]}]}]}", #"{"a": "x"}"#)
        #expect(array.values == object.values)
        #expect(try Engine.load("{\"title\": \"T\", \"groups\": []}").title == "T")
        #expect(try Engine.load("[{\"title\": \"G\", \"sections\": []}]").title == "G")
        #expect(Engine.errors("42").count == 1)
        #expect(Engine.errors(#"{"templates": {}}"#).map(\.message) == [#"an object-shaped definition needs a "groups" array"#])
    }

    @Test func trailingCommasInDefinitionsOnly() throws {
        // segment-field.json of the original has trailing commas.
        let def = #"[{"sections": [{"fields": [{"id": "segment", "type": "segment", "value": "part_1", "values": [{"id": "part_1", "default": true,}, {"id": "part_2",},],},],},],},]"#
        let form = try Engine.load(def)
        // Served with each trailing comma removed: strict JSON, same tree.
        #expect(try JSONParser.parse(form.servedBytes).root == (try JSONParser.parse(def, options: .definition).root))
        #expect(form.servedBytes.count == def.utf8.count - 9)
        #expect(try Engine.run(form, "{}").text("segment") == "\"part_1\"")
        // Submissions are strict.
        #expect(throws: JSONParseError.self) { try JSONParser.parse(#"{"segment": "part_2",}"#, options: .submission) }
        // Strict files are served byte for byte.
        let strict = #"[{"sections": [ ]}]"#
        #expect(try Engine.load(strict).servedBytes == Array(strict.utf8))
    }

    @Test func lengthAliases() throws {
        let r = try Engine.run(Engine.fields(#"{"id": "x", "type": "text", "validations": {"minimum_length": 2, "maximum_length": 3}}"#), #"{"x": "a"}"#)
        #expect(r.codes("x") == ["min_length"])
        let r2 = try Engine.run(Engine.fields(#"{"id": "x", "type": "text", "validations": {"minimum_length": 2, "maximum_length": 3}}"#), #"{"x": "abcd"}"#)
        #expect(r2.codes("x") == ["max_length"])
        #expect(Engine.warnings(Engine.fields(#"{"id": "x", "type": "text", "validations": {"minimum_length": 2}}"#)).isEmpty)
    }

    @Test func duplicateIDs() {
        #expect(errors(#"{"id": "a"}"#, #"{"id": "b"}"#).isEmpty)
        #expect(errors(#"{"id": "a"}"#, #"{"id": "a"}"#) == [#"duplicate field id "a""#])
        let sections = #"[{"sections": [{"id": "s", "fields": []}]}, {"sections": [{"id": "s"}]}]"#
        #expect(Engine.errors(sections).map(\.message) == [#"duplicate section id "s""#])
        #expect(Engine.errors(#"[{"sections": [{"id": "s"}, {"id": "t"}]}]"#).isEmpty)
    }

    @Test func compareTo() {
        #expect(errors(#"{"id": "a"}"#, #"{"id": "b", "validations": {"compare_to": "a"}}"#).isEmpty)
        #expect(errors(#"{"id": "b", "validations": {"compare_to": "zz"}}"#) == [#"compare_to names no field: "zz""#])
    }

    @Test func formulas() {
        #expect(errors(#"{"id": "a", "type": "float"}"#, #"{"id": "t", "type": "float", "formula": "a * 2"}"#).isEmpty)
        #expect(errors(#"{"id": "t", "type": "float", "formula": "1 +"}"#).count == 1)
        #expect(errors(#"{"id": "t", "type": "float", "formula": "b * 2"}"#) == [#"formula names an unknown field "b""#])
        #expect(errors(#"{"id": "t", "type": "count", "formula": "sum(x[*].y)"}"#).count == 1)
        // Text templates keep unknown words literally: never an error.
        #expect(errors(#"{"id": "first_name"}"#, #"{"id": "t", "type": "text", "formula": "Mr first_name (+"}"#).isEmpty)
    }

    @Test func conditions() {
        let ok = #"{"id": "a", "targets": [{"id": "b", "type": "field", "action": "hide", "condition": "$a == 1"}]}, {"id": "b"}"#
        #expect(errors(ok).isEmpty)
        #expect(errors(#"{"id": "a", "targets": [{"id": "a", "type": "field", "action": "hide", "condition": "$a == "}]}"#).count == 1)
        #expect(errors(#"{"id": "a", "targets": [{"id": "a", "type": "field", "action": "hide", "condition": "$nope == 1"}]}"#)
            == [#"condition names an unknown field "nope""#])
    }

    @Test func regexes() {
        #expect(errors(#"{"id": "a", "validations": {"format": "^[a-z]+$"}}"#).isEmpty)
        #expect(errors(#"{"id": "a", "validations": {"format": "([a-z"}}"#).count == 1)
    }

    @Test func cycles() {
        #expect(errors(
            #"{"id": "subtotal", "type": "float", "formula": "total + 1"}"#,
            #"{"id": "total", "type": "float", "formula": "subtotal * 2"}"#) == ["formula cycle: subtotal -> total -> subtotal"])
        #expect(errors(
            #"{"id": "total", "type": "float", "formula": "subtotal * 2"}"#,
            #"{"id": "subtotal", "type": "float", "formula": "x + total"}"#, #"{"id": "x", "type": "float"}"#)
            == ["formula cycle: total -> subtotal -> total"])
        #expect(errors(#"{"id": "a", "type": "float", "formula": "a + 1"}"#) == ["formula cycle: a -> a"])
        #expect(errors(#"{"id": "a", "type": "text", "formula": "a b"}"#, #"{"id": "b"}"#) == ["formula cycle: a -> a"])
        #expect(errors(
            #"{"id": "a", "type": "float", "formula": "b"}"#, #"{"id": "b", "type": "float", "formula": "c"}"#,
            #"{"id": "c", "type": "float", "formula": "1"}"#).isEmpty)
    }

    @Test func dynamicSectionNeedsTemplate() {
        let ok = #"{"groups": [{"sections": [{"id": "t", "type": "dynamic"}]}], "templates": {"sections": [{"id": "t", "fields": []}]}}"#
        #expect(Engine.errors(ok).isEmpty)
        let bad = #"{"groups": [{"sections": [{"id": "t", "type": "dynamic"}]}]}"#
        #expect(Engine.errors(bad).map(\.message) == [#"dynamic section "t" has no template in templates.sections"#])
    }

    @Test func optionIDsRepeat() {
        #expect(errors(#"{"id": "s", "type": "select", "values": [{"id": 1}, {"id": "1"}, {"id": true}]}"#).isEmpty)
        #expect(errors(#"{"id": "s", "type": "select", "values": [{"id": 1}, {"id": 1.0}]}"#).count == 1)
        #expect(errors(#"{"id": "s", "type": "segment", "values": [{"id": "a"}, {"id": "a"}]}"#).count == 1)
    }

    @Test func jsonValueMustFitTheKind() {
        #expect(errors(#"{"id": "c", "type": "count", "value": "12"}"#, #"{"id": "s", "type": "switch", "value": 1}"#).isEmpty)
        #expect(errors(#"{"id": "c", "type": "count", "value": 1.5}"#) == ["value 1.5 cannot be held by a count field"])
        #expect(errors(#"{"id": "s", "type": "select", "value": 3, "values": [{"id": 1}]}"#).count == 1)
        #expect(errors(#"{"id": "d", "type": "date", "value": "yesterday"}"#).count == 1)
    }

    @Test func warningsDoNotReject() throws {
        let def = Engine.fields(
            #"{"id": "a", "type": "gizmo", "colour": "red", "targets": [{"id": "nowhere", "type": "field", "action": "show"}, {"id": "s", "type": "field", "action": "hide"}]}"#)
        let result = FormLoader.load(id: "f", bytes: Array(def.utf8))
        #expect(!result.hasErrors)
        let form = try #require(result.form)
        #expect(form.warnings.map(\.message) == [#"unknown key "colour" is ignored"#, #"target names no field: "nowhere""#])
        // The unknown type is custom.
        #expect(try Engine.run(form, #"{"a": [1]}"#).text("a") == "[1]")
        // Visual keys are known.
        let visual = Engine.fields(#"{"id": "v", "type": "text", "styles": {}, "size": {"width": 30}, "placeholder": "p", "info": "i", "accessibility_label": "l", "minimum_date": "2000-01-01", "maximum_date": "2001-01-01"}"#)
        #expect(Engine.warnings(visual).isEmpty)
    }

    @Test func allProblemsInOnePassWithPositions() {
        // The original-style multi-problem fixture: a bad regex, a target naming nothing, a duplicate id.
        let def = """
            [{"sections": [{"id": "s", "fields": [
              {"id": "a", "validations": {"format": "([a-z"}},
              {"id": "b", "targets": [{"id": "nowhere", "type": "field", "action": "show"}]},
              {"id": "a", "type": "text"},
              {"id": "c", "type": "float", "formula": "zz"}
            ]}]}]
            """
        let d = Engine.diagnostics(def)
        let errs = d.filter { $0.severity == .error }
        #expect(errs.count == 3)
        #expect(d.filter { $0.severity == .warning }.count == 1)
        let dup = errs.first { $0.message.hasPrefix("duplicate field id") }
        #expect(dup?.path == "[0].sections[0].fields[2].id")
        #expect(dup.map { "\($0.line):\($0.column)" } == "4:10")
        let regex = errs.first { $0.message.hasPrefix("regex") }
        // inside the pattern (ICU's offset), since 75b38fb; the pattern's opening quote is 2:41
        #expect(regex.map { "\($0.line):\($0.column)" } == "2:46")
        #expect(regex?.path == "[0].sections[0].fields[0].validations.format")
        let warning = d.first { $0.severity == .warning }
        #expect(warning.map { "\($0.line):\($0.column)" } == "3:34")
        let unknown = errs.first { $0.message.contains("unknown field") }
        // `zz` starts the formula string's content (line 5, column 44).
        #expect(unknown.map { "\($0.line):\($0.column)" } == "5:44")
    }

    @Test func expressionErrorColumnsAreFileColumns() throws {
        // `1 + 2 )`: the stray `)` is at column 7 of the formula.
        let formula = "1 + 2 )"
        do {
            _ = try Formula(parsing: formula)
            Issue.record("the formula should not parse")
        } catch {
            #expect(error.column == 7)
        }
        let line = #"  {"id": "t", "type": "float", "formula": "1 + 2 )"}"#
        let contentColumn = Array(line.utf8).firstIndex(of: UInt8(ascii: "1"))! + 1  // 1-based column of the content
        let def = "[{\"sections\": [{\"fields\": [\n" + line + "\n]}]}]"
        let err = try #require(Engine.errors(def).first)
        #expect(err.path == "[0].sections[0].fields[0].formula")
        #expect(err.line == 2)
        #expect(err.column == contentColumn + 6)
        // The same inside a condition, and with an escape before the error (columns count file characters).
        let cond = #"  {"id": "t", "targets": [{"id": "t", "action": "hide", "condition": "\"a\" == $nope"}]}"#
        let condDef = "[{\"sections\": [{\"fields\": [\n" + cond + "\n]}]}]"
        let c = try #require(Engine.errors(condDef).first)
        let condStart = Array(cond.utf8).firstIndex(of: UInt8(ascii: "\\"))! + 1
        #expect(c.message == #"condition names an unknown field "nope""#)
        #expect((c.line, c.column) == (2, condStart + 10))  // `\"a\" == ` is 10 file characters before `$nope`
    }

    @Test func syntaxErrorsHaveLineAndColumn() {
        let d = Engine.diagnostics("[{\"sections\": [\n  {\"id\": }\n]}]")
        #expect(d.count == 1)
        #expect(d.first?.severity == .error)
        #expect(d.first?.line == 2)
        #expect(d.first?.column == 10)
    }
}
