import Foundation

/// A reader of a binary layout (PLCrashReporter's `.plcrash`), asked before the bytes are
/// decoded as text: text decoding refuses binary data, and a binary report has no lines.
/// Detection is by content (a magic at the start), as for text layouts.
package protocol BinaryReportReader: Sendable {
    associatedtype Evidence
    /// Whether a file starting with `head` (its first `headLength` bytes or fewer) is in
    /// this layout; nil when not.
    static func detect(head: ArraySlice<UInt8>) -> Evidence?
    /// The reports the bytes hold, never empty, each with its `kind` set. A damaged file is a
    /// `CrashReportError` naming the byte offset.
    static func read(_ bytes: [UInt8], evidence: Evidence, path: String) throws(CrashReportError) -> [CrashReport]
}

extension BinaryReportReader {
    /// Whether a file starting with `head` is in this layout.
    static func recognizes(head: ArraySlice<UInt8>) -> Bool { detect(head: head) != nil }
}

extension ReportReaders {
    /// The binary readers, asked in order before any text reader.
    package static let binary: [any BinaryReportReader.Type] = [PLCrashReportReader.self]

    /// How much of a file binary detection looks at.
    static let headLength = 16

    /// Reads with the first binary reader that recognises the bytes; nil when none does (the
    /// bytes are only copied once one does).
    static func readBinary(_ data: Data, path: String) throws(CrashReportError) -> [CrashReport]? {
        let head = ArraySlice(data.prefix(headLength))
        for reader in binary {
            guard var reports = try attemptBinary(reader, head, data, path: path) else { continue }
            try finish(&reports, path: path)
            return reports
        }
        return nil
    }

    private static func attemptBinary<Reader: BinaryReportReader>(
        _ reader: Reader.Type, _ head: ArraySlice<UInt8>, _ data: Data, path: String
    ) throws(CrashReportError) -> [CrashReport]? {
        guard let evidence = reader.detect(head: head) else { return nil }
        return try reader.read([UInt8](data), evidence: evidence, path: path)
    }
}
