import Foundation
import SymbolicateCrashReport
import SymbolicatePipeline
import Testing

/// Reading `-`: bounded by the report size limit, so a mistaken pipe cannot fill memory.
@Suite struct StandardInputTests {
    @Test func readsToTheEndUnderTheLimit() throws {
        let pipe = Pipe()
        let bytes = Data(repeating: 0x41, count: 3 << 20)
        DispatchQueue.global().async {
            pipe.fileHandleForWriting.write(bytes)
            try? pipe.fileHandleForWriting.close()
        }
        #expect(StandardInput.read(pipe.fileHandleForReading, limit: 4 << 20) == bytes)
    }

    @Test func stopsOneBytePastTheLimitAndTheParserRefusesIt() throws {
        // A file stands for the pipe: more than the limit waiting to be read.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stdin-\(UUID().uuidString).txt")
        try Data(repeating: 0x41, count: 3 << 20).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let data = StandardInput.read(handle, limit: 1 << 20)
        #expect(data.count == (1 << 20) + 1)
        #expect(throws: CrashReportError.self) {
            try CrashReport.parseAll(data: data, path: StandardInput.displayName, sizeLimit: 1 << 20)
        }
    }
}
