import Foundation

/// A crash reporter's own reading of the crash from its frames (KSCrash's CrashDoctor: `Rogue
/// memory write has corrupted memory.`, `Main thread deadlocked in …`). A guess by a program, not
/// the words of the code that stopped: it is shown with the report but stated as no message.
public struct ReporterDiagnosisFact: Sendable, Hashable {
    /// The reporter (`KSCrash`).
    public var reporter: String
    /// Its label where the report shows it, in Application Specific Information (`CrashDoctor`).
    public var label: String
    /// The diagnosis, a line each.
    public var lines: [String]

    public init(reporter: String, label: String, lines: [String]) {
        self.reporter = reporter
        self.label = label
        self.lines = lines
    }

    /// Whether an Application Specific Information line, as read (`FactReading.boundedLines`), is one
    /// of the diagnosis's: `label: line`.
    package func states(_ informationLine: String) -> Bool {
        guard informationLine.hasBytePrefix(label + ":") else { return false }
        let rest = informationLine.dropFirst(label.utf8.count + 1).trimmingCharacters(in: .whitespaces)
        return lines.contains { $0.trimmingCharacters(in: .whitespaces) == rest }
    }
}
