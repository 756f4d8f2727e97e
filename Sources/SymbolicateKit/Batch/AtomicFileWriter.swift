import Foundation

/// Writes a file in pieces to a temporary file next to it, then renames it into place, so
/// readers never see a half-written file (the streaming counterpart of `writeAtomically`).
final class AtomicFileWriter {
    let path: String
    private let temporary: URL
    private let handle: FileHandle

    init(path: String) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path,
                NSLocalizedDescriptionKey: "cannot create \(temporary.path)"])
        }
        handle = try FileHandle(forWritingTo: temporary)
    }

    func write(_ text: String) throws {
        try handle.write(contentsOf: Data(text.utf8))
    }

    func commit() throws {
        try handle.synchronize()
        try handle.close()
        if rename(temporary.path, path) != 0 {
            let message = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: message])
        }
    }

    func discard() {
        try? handle.close()
        try? FileManager.default.removeItem(at: temporary)
    }
}
