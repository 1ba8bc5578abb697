import Foundation

/// Tells when files of one folder may have changed, without polling: inotify on Linux
/// (DirectoryWatcher+Linux.swift). Where none can be set up, the registry polls.
protocol DirectoryWatcher: AnyObject, Sendable {
    func cancel()
}

/// How the registry notices changed definition files (`forms.watch`).
package enum FormWatchMode: String, Sendable, CaseIterable {
    /// inotify where the OS offers it, else polling.
    case auto
    /// inotify, with a full `stat` pass every 30 s as a safety net; start-up fails without it.
    case inotify
    /// A `stat` of every file each second, plus a read of every file each minute: for network
    /// file systems, whose changes made on other machines inotify does not see.
    case poll
}

/// What a watcher reports: the names that changed, or nil when it lost track (queue overflow,
/// the folder itself moved or deleted) and everything must be looked at again.
typealias DirectoryChanges = @Sendable (_ names: [String]?, _ watcherGone: Bool) -> Void
