import Foundation
import SymbolicateCore

/// Tells crash reports from other files by content only: batch mode asks it of every file met
/// while walking folders, `report` of a debug-file argument that may be the report.
package enum ReportSniffer {
    /// Text keys every Apple text report format has at least one of near the top (`sample`
    /// output starts with `Analysis of sampling`), and the Swift runtime backtrace's crash line.
    static let textMarkers = [
        "Incident Identifier:", "Exception Type:", "Crashed Thread:", "Triggered by Thread:",
        "Hardware Model:", "Termination Reason:", "Binary Images:", "Event:", "Exception Codes:",
        "panic(cpu ", "Analysis of sampling", "Call graph:",
        // The Swift runtime's backtraces on Linux, text and JSON (possibly after other output).
        "*** Program crashed: ", "💣 Program crashed: ", "\"kind\": \"crashReport\"",
        // Device log lines and crash services' text (issue 40): a file that has none is no log of
        // a crash; one that has one but states no fact is refused by the readers, as any other.
        "memorystatus: ", "exceeded mem limit: ", "killed by jetsam reason", "RBSProcessExitStatus|", "RBSTerminateContext|",
        "0x8badf00d", "0x8BADF00D", " failed to scene-", "watchdog transgression", "exited due to ", "exited abnormally ",
        "caught burning CPU", "Fatal Exception: ", "Non-fatal Exception: ", "Crashed: ", "### Reason", "EXC_BAD_ACCESS: ",
        "EXC_CRASH: ", "EXC_BREAKPOINT: ", "# Crashlytics",
    ]
    /// Members of an `.ips` header line or JSON body, a MetricKit payload, a KSCrash report or a
    /// Sentry event.
    static let jsonMarkers = [
        "\"bug_type\"", "\"incident", "\"crashReporterKey\"", "\"exception\"", "\"threads\"", "\"procName\"",
        "\"crashDiagnostics\"", "\"hangDiagnostics\"", "\"cpuExceptionDiagnostics\"",
        "\"diskWriteExceptionDiagnostics\"", "\"appLaunchDiagnostics\"", "\"callStackTree\"",
        // KSCrash reports (2.x sorts its keys: `binary_images` first) and Sentry events/envelopes.
        "\"binary_images\"", "\"recrash_report\"", "\"debug_meta\"", "\"event_id\"",
    ]

    /// Why a zip entry cannot be a crash report from its name and declared size alone, or nil
    /// when only its content can tell: shorter than the shortest marker above, larger than any
    /// report is read (`CrashReport.defaultSizeLimit`; a nested zip may be), or named as an
    /// image, a document or a compiled binary.
    package static func cannotBeAReport(relative: String, size: UInt64) -> String? {
        if size < shortestMarker {
            return "\(size) byte\(size == 1 ? "" : "s"): too small to be a crash report; not unpacked"
        }
        let name = relative.split(separator: "/").last.map(String.init) ?? relative
        let dot = name.lastIndex(of: ".")
        let ext = dot.map { name[name.index(after: $0)...].lowercased() } ?? ""
        if size > UInt64(CrashReport.defaultSizeLimit), ext != "zip" {
            return "\(size) bytes: over the \(CrashReport.defaultSizeLimit)-byte limit for crash reports; not unpacked"
        }
        if nonReportExtensions.contains(ext) { return "a .\(ext) file, not a crash report; not unpacked" }
        return nil
    }

    /// Extensions of files that are never crash reports and often fill an archive next to them.
    static let nonReportExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "heic", "tiff", "bmp", "mov", "mp4", "pdf", "dylib", "so", "a", "o", "car", "nib",
        "gz", "bz2", "xz", "tar",
    ]

    /// Bytes of the shortest marker: a file shorter than this cannot be a report.
    static let shortestMarker = UInt64((textMarkers + jsonMarkers).map(\.utf8.count).min() ?? 0)

    /// How much of a file the sniffer reads.
    package static let prefixLength = 16 * 1024

    /// Whether the first 16 KiB of the file look like a crash report.
    package static func looksLikeReport(path: String) -> Bool {
        guard let prefix = RegularFile.prefix(path: path, count: prefixLength) else { return false }
        return looksLikeReport(prefix: prefix)
    }

    package static func looksLikeReport(prefix: Data) -> Bool {
        // A binary layout (`.plcrash`) is told by its magic, before binary data is refused.
        let head = ArraySlice(prefix.prefix(ReportReaders.headLength))
        if ReportReaders.binary.contains(where: { $0.recognizes(head: head) }) { return true }
        // Searched as bytes (the markers are ASCII): Data's iterator and Foundation's String
        // search were most of the time batch mode spent finding its inputs.
        return prefix.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
            guard !bytes.isEmpty else { return false }
            // Binary: mostly control characters (a stray NUL in a text report is damage, read
            // with a warning, as `CrashReport.parseAll` does).
            var controls = 0
            for b in bytes where b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D && b != 0x0C { controls += 1 }
            if controls * 20 > bytes.count { return false }
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
