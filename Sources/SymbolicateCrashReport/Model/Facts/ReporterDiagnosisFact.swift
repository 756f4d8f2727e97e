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
    /// The part of the reporter that reads the crash (KSCrash's `CrashDoctor`, debuggerd's `Cause` line).
    public var tool: String { reporter == "KSCrash" ? "CrashDoctor" : label }

    public init(reporter: String, label: String, lines: [String]) {
        self.reporter = reporter
        self.label = label
        self.lines = lines
    }

    /// Whether an Application Specific Information line, as read (`FactReading.boundedLines`), is one
    /// of the diagnosis's: `label: line`, or the line alone (a reporter's Apple-format text that
    /// prints the diagnosis under the exception's own lines, as Sentry's does).
    package func states(_ informationLine: String) -> Bool {
        var rest = informationLine.trimmingCharacters(in: .whitespaces)
        if rest.hasBytePrefix(label + ":") { rest = rest.dropFirst(label.utf8.count + 1).trimmingCharacters(in: .whitespaces) }
        return lines.contains { $0.trimmingCharacters(in: .whitespaces) == rest }
    }

    /// KSCrash's CrashDoctor as its Apple-format texts print it, in KSCrash and the reporters built
    /// on it (Sentry's SentryCrash, Bugsnag's and Raygun's copies): after its label in the extra
    /// information (`CrashDoctor Diagnosis: …`, `Recrash Diagnosis: …`), or alone in Application
    /// Specific Information. Alone, a line is the doctor's only when it opens as one of the
    /// sentences the doctor writes (its whole vocabulary: `diagnoseCrash:` in KSCrashDoctor.m).
    /// Nil when no line is.
    package static func crashDoctor(in informationLines: [String]) -> ReporterDiagnosisFact? {
        var found: [String] = []
        var label = "CrashDoctor"
        for line in informationLines {
            let text = line.trimmingCharacters(in: .whitespaces)
            if let labelled = labels.first(where: { text.hasBytePrefix($0.text) }) {
                let rest = text.dropFirst(labelled.text.utf8.count).trimmingCharacters(in: .whitespaces)
                if !rest.isEmpty {
                    found.append(rest)
                    label = labelled.label
                }
            } else if openings.contains(where: { text.hasBytePrefix($0) }) {
                found.append(text)
            } else if !found.isEmpty, text.hasBytePrefix(originated) {
                found.append(text)
            }
        }
        return found.isEmpty ? nil : ReporterDiagnosisFact(reporter: "KSCrash", label: label, lines: found)
    }

    /// Android's debuggerd reading a tombstone's fault (Android 8 on): `Cause: null pointer
    /// dereference`, `Cause: stack pointer is in a non-existent map; likely due to stack overflow.`,
    /// `Cause: [MTE]: Use After Free, 0 bytes into a 32-byte allocation`, under the signal line, in a
    /// tombstone or logcat's copy of it (each line after logcat's prefix). Nil when the text has no
    /// tombstone signal line before such a line.
    package static func debuggerdCause(in document: TextDocument) -> ReporterDiagnosisFact? {
        var sawSignal = false
        for line in document.lines.prefix(4_000) where line.text.containsBytes("ignal ") || line.text.containsBytes("Cause: ") {
            let text = document.readings.strip(line.text).trimmedBlanks
            if text.hasBytePrefix("signal "), text.containsBytes(" (SIG") {
                sawSignal = true
            } else if sawSignal, text.hasBytePrefix("Cause: ") {
                let cause = text.dropFirst(7).trimmedBlanks
                guard !cause.isEmpty, cause.utf8.count <= 400 else { return nil }
                return ReporterDiagnosisFact(reporter: "debuggerd", label: "Cause", lines: [String(cause)])
            }
        }
        return nil
    }

    private static let labels = [
        (text: "CrashDoctor Diagnosis:", label: "CrashDoctor Diagnosis"), (text: "Recrash Diagnosis:", label: "Recrash Diagnosis"),
    ]
    /// The line the doctor adds under most diagnoses: where the app's code last ran.
    private static let originated = "Originated at or in a subcall of "
    private static let openings = [
        "Attempted to dereference null pointer", "Attempted to dereference garbage", "Rogue memory write has corrupted memory",
        "Math error (usually caused from division by 0)", "Possible zombie in call: ", "Main thread deadlocked in ", "Stack overflow in ",
        "No diagnosis due to exception ",
    ]
}
