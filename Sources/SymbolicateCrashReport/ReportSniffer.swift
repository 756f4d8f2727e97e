import Foundation
import SymbolicateCore

/// Tells crash reports from other files by content only: batch mode asks it of every file met
/// while walking folders, `report` of a debug-file argument that may be the report.
public enum ReportSniffer {
    /// Text keys every Apple text report format has at least one of near the top (`sample`
    /// output starts with `Analysis of sampling`), and the Swift runtime backtrace's crash line.
    static let textMarkers = [
        "Incident Identifier:", "Exception Type:", "Crashed Thread:", "Triggered by Thread:",
        "Hardware Model:", "Termination Reason:", "Binary Images:", "Event:", "Exception Codes:",
        "panic(cpu ", "Analysis of sampling", "Call graph:",
        // The Swift runtime's backtraces on Linux, text and JSON (possibly after other output).
        "*** Program crashed: ", "\"kind\": \"crashReport\"",
    ]
    /// Members of an `.ips` header line or JSON body, or of a MetricKit payload.
    static let jsonMarkers = [
        "\"bug_type\"", "\"incident", "\"crashReporterKey\"", "\"exception\"", "\"threads\"", "\"procName\"",
        "\"crashDiagnostics\"", "\"hangDiagnostics\"", "\"cpuExceptionDiagnostics\"",
        "\"diskWriteExceptionDiagnostics\"", "\"appLaunchDiagnostics\"", "\"callStackTree\"",
    ]

    /// How much of a file the sniffer reads.
    public static let prefixLength = 16 * 1024

    /// Whether the first 16 KiB of the file look like a crash report.
    public static func looksLikeReport(path: String) -> Bool {
        guard let prefix = RegularFile.prefix(path: path, count: prefixLength) else { return false }
        return looksLikeReport(prefix: prefix)
    }

    public static func looksLikeReport(prefix: Data) -> Bool {
        // Searched as bytes (the markers are ASCII): Data's iterator and Foundation's String
        // search were most of the time batch mode spent finding its inputs.
        prefix.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
            if memchr(base, 0, bytes.count) != nil { return false }  // binary
            let text = String(decoding: bytes, as: UTF8.self)
            let trimmed = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
            // `[`: a MetricKit export holding several payloads.
            let markers = trimmed.hasPrefix("{") || trimmed.hasPrefix("[") ? jsonMarkerBytes : textMarkerBytes
            return markers.contains { marker in
                marker.withUnsafeBytes { ByteSearch.contains(bytes, $0) }
            }
        }
    }

    private static let textMarkerBytes = textMarkers.map { Array($0.utf8) }
    private static let jsonMarkerBytes = jsonMarkers.map { Array($0.utf8) }
}
