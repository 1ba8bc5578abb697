#if os(Linux)
import Glibc

extension DefinitionFile.Stamp {
    /// Modification and status-change times (`st_mtim`, `st_ctim` on Linux).
    static func times(_ st: stat) -> (modified: timespec, changed: timespec) { (st.st_mtim, st.st_ctim) }
}

extension DefinitionFile {
    /// `read(2)`, callable where a type has a `read` of its own.
    static func readFD(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { Glibc.read(fd, buffer, count) }
}
#endif
