import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading one definition file with a size limit: the size is checked with `fstat` before any
/// byte is read, and the read itself stops past the limit (the file may grow meanwhile), so a
/// huge or sparse file costs one `stat`, not its size in memory. Shared by the registry and
/// `formd check`/`validate`/`evaluate`.
package enum DefinitionFile {
    /// `forms.max_file_bytes` by default: 8 MiB, some 800 times the largest bundled form.
    package static let defaultMaxBytes = 8 << 20

    /// What `stat` says of a file, to notice changes without reading it. `changed` (ctime) moves
    /// on every write and every `utime`, and cannot be set back, so a `cp -p` that restores the
    /// size and mtime still changes it.
    package struct Stamp: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var modified: timespec
        var changed: timespec

        init(_ st: stat) {
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
            size = Int(st.st_size)
            (modified, changed) = Self.times(st)
        }

        package static func == (a: Stamp, b: Stamp) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }

        /// Whether the file changed less than `seconds` before `reference` (a `now()` taken
        /// before this stamp): a further write within the same timestamp tick could then leave
        /// the stamp as it is.
        func changed(within seconds: Double, of reference: timespec) -> Bool {
            Double(reference.tv_sec - changed.tv_sec) + Double(reference.tv_nsec - changed.tv_nsec) / 1e9 < seconds
        }
    }

    /// The wall clock, as file timestamps use it.
    static func now() -> timespec {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return t
    }

    package enum Failure: Error, Equatable, CustomStringConvertible {
        case notRegular
        /// `size` is nil when the file grew past the limit while it was read.
        case tooLarge(size: Int?, limit: Int)
        case unreadable(errno: Int32)

        package var description: String {
            switch self {
            case .notRegular: "not a regular file"
            case .tooLarge(let size?, let limit):
                "the file is \(size) bytes, over the limit of \(limit) bytes (forms.max_file_bytes)"
            case .tooLarge(nil, let limit):
                "the file grew past the limit of \(limit) bytes (forms.max_file_bytes) while it was read"
            case .unreadable(let e): "cannot read the file: \(String(cString: strerror(e)))"
            }
        }
    }

    /// The stamp of a regular file (following symlinks), or nil.
    static func stamp(_ path: String) -> Stamp? {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Stamp(st)
    }

    /// The file's bytes, at most `limit`, with the stamp of what was read.
    package static func read(_ path: String, limit: Int) -> Result<(bytes: [UInt8], stamp: Stamp), Failure> {
        // O_NONBLOCK: a FIFO swapped in after the caller's stat must not block open(2).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failure(.unreadable(errno: errno)) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return .failure(.unreadable(errno: errno)) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return .failure(.notRegular) }
        let size = Int(st.st_size)
        guard size <= limit else { return .failure(.tooLarge(size: size, limit: limit)) }
        // One byte over the expected size, so growth (up to the limit) is still read in one go.
        var bytes = [UInt8](repeating: 0, count: min(size, limit) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= limit else { return .failure(.tooLarge(size: nil, limit: limit)) }
                bytes.append(contentsOf: repeatElement(0, count: min(max(count, 4096), limit + 1 - count)))
            }
            let n = bytes.withUnsafeMutableBytes { Self.readFD(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(errno: errno))
            }
            if n == 0 { break }
            count += n
        }
        guard count <= limit else { return .failure(.tooLarge(size: nil, limit: limit)) }
        bytes.removeSubrange(count...)
        return .success((bytes, Stamp(st)))
    }

    /// FNV-1a, 64-bit: to tell whether a file's bytes changed, not a defence against forgery
    /// (only the operator writes the forms folder).
    static func digest(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h = (h ^ UInt64(b)) &* 0x100_0000_01b3
        }
        return h
    }
}
