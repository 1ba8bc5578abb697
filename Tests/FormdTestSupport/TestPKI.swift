import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A throwaway CA and server certificates made with the `openssl` CLI in a temp folder.
public final class TestPKI {
    public let dir: String
    public var caCert: String { dir + "/ca.pem" }

    public init() throws {
        dir = NSTemporaryDirectory() + "formd-tls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                 "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=formd test CA"])
    }

    deinit { try? FileManager.default.removeItem(atPath: dir) }

    /// A certificate for localhost/127.0.0.1 signed by the CA, as (chain path, key path).
    @discardableResult
    public func issue(
        _ name: String, organization: String = "formd", subjectAltName: String = "DNS:localhost,IP:127.0.0.1"
    ) throws -> (cert: String, key: String) {
        let ext = dir + "/\(name).ext"
        try "subjectAltName=\(subjectAltName)\n".write(toFile: ext, atomically: true, encoding: .utf8)
        try run(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                 "-keyout", "\(name).key", "-out", "\(name).csr", "-subj", "/O=\(organization)/CN=localhost"])
        try run(["x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                 "-days", "2", "-extfile", ext, "-out", "\(name).pem"])
        return (dir + "/\(name).pem", dir + "/\(name).key")
    }

    private func run(_ args: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        p.arguments = args
        p.currentDirectoryURL = URL(fileURLWithPath: dir)
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw HarnessError("openssl \(args.joined(separator: " ")) failed: \(p.terminationStatus)")
        }
    }
}
