#if canImport(Darwin)
import Darwin

extension DefinitionFile.Stamp {
    /// Modification and status-change times (`st_mtimespec`, `st_ctimespec` on Darwin).
    static func times(_ st: stat) -> (modified: timespec, changed: timespec) { (st.st_mtimespec, st.st_ctimespec) }
}

extension DefinitionFile {
    /// `read(2)`, callable where a type has a `read` of its own.
    static func readFD(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { Darwin.read(fd, buffer, count) }
}
#endif
