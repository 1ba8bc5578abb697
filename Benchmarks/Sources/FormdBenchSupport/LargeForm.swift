/// Generator of a large, realistic-shaped definition and its submission (nothing big is committed).
///
/// At `scale` 1 the definition has 10,000 static fields in 1,000 blocks of ten
/// (100 sections of 100 fields, 10 groups), plus a small summary section and a dynamic section:
///
/// | slot | id      | kind                                                                  |
/// |------|---------|-----------------------------------------------------------------------|
/// | 0    | `a{k}`  | float, required, 0…1000                                               |
/// | 1    | `t{k}`  | text, 2…40 chars; target `show d{k}` with condition `$a{k} > 50`      |
/// | 2    | `d{k}`  | text, hidden until shown                                              |
/// | 3    | `s{k}`  | select x (default, value 1) / y (value 2, hides `w{k}`)               |
/// | 4    | `e{k}`  | email, max 80                                                         |
/// | 5    | `c{k}`  | count, 0…100                                                          |
/// | 6    | `w{k}`  | switch                                                                |
/// | 7    | `b{k}`  | date, required                                                        |
/// | 8    | `g{k}`  | date, `compare_to b{k}` `>=`                                          |
/// | 9    | `f{k}`  | float formula, chains of 10: `a{k} + c{k}`, then `f{k-1} + a{k} * 2 + s{k}` |
///
/// so 1,000 formulas (100 chains of 10) and 1,000 conditions. The dynamic section `items` has a
/// template of 5 fields (a per-instance formula and a per-instance condition), summarised by
/// `sum(items[*].total)` / `count(items[*].total)`; the submission has 100 instances.
/// Everything (blocks, instances) scales linearly with `scale`.
public struct LargeForm: Sendable {
    public let scale: Int
    /// One block fewer from scale 10 on: 100,000 static fields plus the summary and template
    /// fields would pass the engine's limit of 100,000 fields per definition.
    public var blocks: Int { 1000 * scale - (scale >= 10 ? 1 : 0) }
    public var instances: Int { 100 * scale }
    public var staticFields: Int { blocks * 10 }
    public var formulas: Int { blocks }
    public var conditions: Int { blocks }

    public init(scale: Int) { self.scale = scale }

    public func definition() -> [UInt8] {
        var o = ""
        o.reserveCapacity(blocks * 1400)
        o += "{\"title\":\"Large \(scale)\",\"groups\":["
        let blocksPerSection = 10
        let sectionsPerGroup = 10
        let sections = (blocks + blocksPerSection - 1) / blocksPerSection
        var k = 0
        for s in 0..<sections {
            if s % sectionsPerGroup == 0 {
                if s > 0 { o += "]}," }
                o += "{\"id\":\"g\(s / sectionsPerGroup)\",\"title\":\"Group \(s / sectionsPerGroup)\",\"sections\":["
            } else {
                o += ","
            }
            o += "{\"id\":\"sec\(s)\",\"title\":\"Section \(s)\",\"fields\":["
            for b in 0..<blocksPerSection where k < blocks {
                if b > 0 { o += "," }
                block(k, into: &o)
                k += 1
            }
            o += "]}"
        }
        o += "]},"
        // Dynamic section and its summary.
        o += """
            {"id":"orders","title":"Orders","sections":[\
            {"id":"items","type":"dynamic","fields":null,"action_title":"Add item","max_instances":\(instances * 2)},\
            {"id":"summary","fields":[\
            {"id":"order_total","title":"Order total","type":"float","formula":"sum(items[*].total)"},\
            {"id":"order_lines","title":"Order lines","type":"count","formula":"count(items[*].total)"}]}]}],
            "templates":{"sections":[{"id":"items","fields":[\
            {"id":"items[:index].qty","title":"Quantity","type":"count","validations":{"required":true,"min_value":1,"max_value":1000}},\
            {"id":"items[:index].price","title":"Price","type":"float","validations":{"min_value":0,"max_value":100000}},\
            {"id":"items[:index].total","title":"Line total","type":"float","formula":"items[:index].qty * items[:index].price"},\
            {"id":"items[:index].note","title":"Note","type":"text","validations":{"max_length":200},\
            "targets":[{"id":"items[:index].detail","type":"field","action":"show","condition":"$items[:index].total > 100"}]},\
            {"id":"items[:index].detail","title":"Detail","type":"text","hidden":true}]}]}}
            """
        return Array(o.utf8)
    }

    private func block(_ k: Int, into o: inout String) {
        let formula = k % 10 == 0 ? "a\(k) + c\(k)" : "f\(k - 1) + a\(k) * 2 + s\(k)"
        o += """
            {"id":"a\(k)","title":"Amount \(k)","type":"float","validations":{"required":true,"min_value":0,"max_value":1000}},\
            {"id":"t\(k)","title":"Text \(k)","type":"text","validations":{"min_length":2,"max_length":40},\
            "targets":[{"id":"d\(k)","type":"field","action":"show","condition":"$a\(k) > 50"}]},\
            {"id":"d\(k)","title":"Detail \(k)","type":"text","hidden":true,"validations":{"max_length":100}},\
            {"id":"s\(k)","title":"Choice \(k)","type":"select","values":[\
            {"id":"x","title":"X","default":true,"value":1},\
            {"id":"y","title":"Y","value":2,"targets":[{"id":"w\(k)","type":"field","action":"hide"}]}]},\
            {"id":"e\(k)","title":"E-mail \(k)","type":"email","validations":{"max_length":80}},\
            {"id":"c\(k)","title":"Count \(k)","type":"count","validations":{"min_value":0,"max_value":100}},\
            {"id":"w\(k)","title":"Switch \(k)","type":"switch"},\
            {"id":"b\(k)","title":"From \(k)","type":"date","validations":{"required":true}},\
            {"id":"g\(k)","title":"To \(k)","type":"date","validations":{"compare_to":"b\(k)","compare_rule":">="}},\
            {"id":"f\(k)","title":"Formula \(k)","type":"float","disabled":true,"formula":"\(formula)"}
            """
    }

    /// A submission filling most fields (about 9 keys a block) and `instances` template instances.
    /// A few values are deliberately invalid (1 in 97 amounts too big, 1 in 89 dates reversed),
    /// so the response carries some errors, as a real one might.
    public func submission() -> [UInt8] {
        var o = ""
        o.reserveCapacity(blocks * 260 + instances * 90)
        o += "{"
        for k in 0..<blocks {
            if k > 0 { o += "," }
            let amount = k % 97 == 0 ? 5000 : (k * 37) % 100
            let choice = k % 7 == 0 ? "y" : "x"
            let to = k % 89 == 0 ? "2023-12-31" : "2024-02-\(10 + k % 18)"
            o += "\"a\(k)\":\(amount),\"t\(k)\":\"note \(k)\",\"d\(k)\":\"detail for \(k)\","
            o += "\"s\(k)\":\"\(choice)\",\"e\(k)\":\"user\(k)@example.com\",\"c\(k)\":\(k % 50),"
            o += "\"w\(k)\":\(k % 2 == 0),\"b\(k)\":\"2024-01-15\",\"g\(k)\":\"\(to)\""
        }
        for i in 0..<instances {
            o += ",\"items[\(i)].qty\":\(1 + i % 5),\"items[\(i)].price\":\"\(i % 60).50\",\"items[\(i)].note\":\"line \(i)\""
        }
        o += "}"
        return Array(o.utf8)
    }
}
