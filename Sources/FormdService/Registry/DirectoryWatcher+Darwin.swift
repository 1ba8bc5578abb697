#if !os(Linux)
import Foundation

extension FormRegistry {
    /// No change notification here yet (kqueue's vnode events would be the Darwin one): poll.
    func makeDirectoryWatcher(queue: DispatchQueue, onChange: @escaping DirectoryChanges) -> (any DirectoryWatcher)? { nil }
}
#endif
