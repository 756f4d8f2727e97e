import Foundation
import SymbolicateCrashReport
import SymbolicatePipeline
import Testing

/// Reading `-`: bounded by the report size limit, so a mistaken pipe cannot fill memory.
@Suite struct StandardInputTests {
    @Test func readsToTheEndUnderTheLimit() throws {
        // A POSIX pipe whose write end the writer owns: only its descriptor crosses into the
        // @Sendable closure (Apple's SDK does not mark Pipe Sendable).
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let bytes = Data(repeating: 0x41, count: 3 << 20)
        DispatchQueue.global().async {
            let writer = FileHandle(fileDescriptor: writeEnd, closeOnDealloc: false)
            writer.write(bytes)
            try? writer.close()
        }
        let reader = FileHandle(fileDescriptor: readEnd, closeOnDealloc: true)
        #expect(StandardInput.read(reader, limit: 4 << 20) == bytes)
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
