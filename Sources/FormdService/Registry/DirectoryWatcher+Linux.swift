#if os(Linux)
import Foundation
import Glibc

/// inotify on the forms folder: one descriptor, one Dispatch read source, no thread.
final class InotifyWatcher: DirectoryWatcher, @unchecked Sendable {
    private let source: DispatchSourceRead

    /// nil if inotify cannot watch `directory` (no support, out of watches, not a folder).
    init?(directory: String, queue: DispatchQueue, onChange: @escaping DirectoryChanges) {
        let fd = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        // Closing a written file and renaming into the folder are what editors, `cp` and
        // deployment tools do; a rename out or a delete removes a form; attributes catch `touch`.
        // `symlink(2)` and `link(2)` produce only IN_CREATE: without it a form added as a link
        // waited for the 30 s safety pass.
        let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE)
            | UInt32(IN_ATTRIB) | UInt32(IN_CREATE) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_ONLYDIR)
        guard inotify_add_watch(fd, directory, mask) >= 0 else {
            close(fd)
            return nil
        }
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler {
            var names: [String] = []
            var overflow = false
            var gone = false
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                if n <= 0 { break }
                var offset = 0
                let header = MemoryLayout<inotify_event>.size
                while offset + header <= n {
                    let (mask, length) = buffer.withUnsafeBytes { raw -> (UInt32, Int) in
                        let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        return (event.mask, Int(event.len))
                    }
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 { overflow = true }
                    if mask & (UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_IGNORED)) != 0 { gone = true }
                    if length > 0 {
                        let start = offset + header
                        let end = min(n, start + length)
                        let raw = buffer[start..<end].prefix { $0 != 0 }
                        let name = String(decoding: raw, as: UTF8.self)
                        // A created name counts when it is complete already: a link. A file being
                        // written (one link) is reported by its IN_CLOSE_WRITE, not read half-written.
                        if mask & UInt32(IN_CREATE) == 0 || Self.isLink(directory + "/" + name) { names.append(name) }
                    }
                    offset += header + length
                }
            }
            if overflow || gone {
                onChange(nil, gone)
            } else if !names.isEmpty {
                onChange(names, false)
            }
        }
        source.setCancelHandler { close(fd) }
        source.resume()
    }

    func cancel() { source.cancel() }

    /// A symbolic link, or a file with more than one hard link (`ln`): complete when it appears.
    static func isLink(_ path: String) -> Bool {
        var st = stat()
        guard lstat(path, &st) == 0 else { return false }
        return (st.st_mode & S_IFMT) == S_IFLNK || ((st.st_mode & S_IFMT) == S_IFREG && st.st_nlink > 1)
    }
}

extension FormRegistry {
    /// inotify on Linux.
    func makeDirectoryWatcher(queue: DispatchQueue, onChange: @escaping DirectoryChanges) -> (any DirectoryWatcher)? {
        InotifyWatcher(directory: directory, queue: queue, onChange: onChange)
    }
}
#endif
