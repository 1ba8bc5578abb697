import FormdCore
import Foundation
import Logging

/// One JSON object per line on standard error (`log.format` = `json`).
package struct JSONLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info
    let label: String

    package init(label: String) { self.label = label }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var w = JSONWriter(reservingCapacity: 256)
        w.beginObject()
        w.key("time")
        w.string(ISO8601DateFormatter().string(from: Date()))
        w.key("level")
        w.string(event.level.rawValue)
        w.key("logger")
        w.string(label)
        w.key("message")
        w.string(event.message.description)
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        for (k, v) in merged.sorted(by: { $0.key < $1.key }) {
            w.key(k)
            w.string(v.description)
        }
        w.endObject()
        w.append(byte: 0x0A)
        FileHandle.standardError.write(Data(w.bytes))
    }
}

package enum FormdLogging {
    /// Bootstraps swift-log once per process with the configured format and level.
    package static func bootstrap(format: ServiceConfiguration.LogFormat, level: String) {
        let lvl = Logger.Level(rawValue: level) ?? .info
        LoggingSystem.bootstrap { label in
            var h: any LogHandler = format == .json ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            h.logLevel = lvl
            return h
        }
    }
}
