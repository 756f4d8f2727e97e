import Foundation

/// Writes `contents` to `path` atomically: a temporary file in the same folder, then a
/// rename, so a reader (or a crash of ours) never sees a half-written output.
public func writeAtomically(_ contents: String, to path: String) throws {
    let writer = try AtomicFileWriter(path: path)
    do {
        try writer.write(contents)
        try writer.commit()
    } catch {
        writer.discard()
        throw error
    }
}

/// Writes a file in pieces to a temporary file next to it, then renames it into place, so
/// readers never see a half-written file (batch summaries stream through it).
public final class AtomicFileWriter {
    let path: String
    private let temporary: URL
    private let handle: FileHandle

    public init(path: String) throws {
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

    public func write(_ text: String) throws {
        try handle.write(contentsOf: Data(text.utf8))
    }

    public func commit() throws {
        try handle.close()
        if rename(temporary.path, path) != 0 {
            let message = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: message])
        }
    }

    public func discard() {
        try? handle.close()
        try? FileManager.default.removeItem(at: temporary)
    }
}
