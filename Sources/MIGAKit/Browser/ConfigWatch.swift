#if canImport(Glibc)
import Glibc
#endif
import MIGACore
import MIGADesktop

/// Wakes a host that watches the rules when they may have changed: inotify
/// on MIGA's config folder (config.toml is written through a temporary file
/// and a rename, and a person's editor may do anything), and on the list of
/// kept rules in the data folder (`KeptRules`, which `miga uninstall`
/// writes). Whether the rules really changed is for the reader to tell.
final class ConfigWatch {
    /// Readable when something may have changed.
    let descriptor: Int32
    /// The data folder's watch, where only the kept list matters.
    private let dataWatch: Int32

    /// A watch on `paths`' folders, made (private) if they are missing; nil
    /// when the kernel gives no watch (the host then tells changes at the
    /// extension's next contact).
    init?(paths: XDGPaths) {
        try? makeDirectories(paths.configDirectory)
        try? makeDirectories(paths.dataDirectory)
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let changes = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
        let data = inotify_add_watch(fd, paths.dataDirectory, changes)
        guard inotify_add_watch(fd, paths.configDirectory, changes | UInt32(IN_DELETE_SELF | IN_MOVE_SELF)) >= 0, data >= 0 else {
            close(fd)
            return nil
        }
        descriptor = fd
        dataWatch = data
    }

    deinit { close(descriptor) }

    /// Reads what woke the watch; whether any of it may change the rules
    /// (anything in the config folder, the kept list in the data folder).
    func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 8192)
        var relevant = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return relevant }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (watch, length) = buffer.withUnsafeBytes { bytes in
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, Int(event.len))
                }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let name = buffer[nameStart..<min(count, nameStart + length)].prefix { $0 != 0 }
                if watch != dataWatch || Array(name) == Array(KeptRules.fileName.utf8) { relevant = true }
                offset = nameStart + length
            }
        }
    }
}
