import Foundation
import Testing

/// Compares text with a file kept beside the tests (`__Snapshots__/NAME.txt`).
/// Run with `MIGA_RECORD_SNAPSHOTS=1` to write the files anew, then read the
/// diff before committing it.
func assertSnapshot(_ text: String, named name: String, filePath: String = #filePath,
                    sourceLocation: SourceLocation = #_sourceLocation) throws {
    let folder = ((filePath as NSString).deletingLastPathComponent as NSString)
        .appendingPathComponent("__Snapshots__")
    let file = (folder as NSString).appendingPathComponent(name + ".txt")
    if ProcessInfo.processInfo.environment["MIGA_RECORD_SNAPSHOTS"] == "1" {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try (text + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        return
    }
    guard let recorded = try? String(contentsOfFile: file, encoding: .utf8) else {
        Issue.record("no snapshot \(name); run with MIGA_RECORD_SNAPSHOTS=1 to record it", sourceLocation: sourceLocation)
        return
    }
    #expect(text + "\n" == recorded, "snapshot \(name) differs", sourceLocation: sourceLocation)
}
