import Foundation
import SymbolicateCrashReport

extension Diagnosis {
    /// Puts the app's line itself into the step that says to open it (`--source-root`): `code`
    /// gives the text of a compile path's line, or nil when the checkout has no such line. The
    /// step is found by its structure, not its words: the one whose `{location}` value is the
    /// crashed thread's app line (explain's "open X:N" step, or a rule's step naming the same
    /// line), in the decision the diagnosis was worded from.
    package mutating func showAppLine(of report: CrashReport, _ code: (_ file: String, _ line: Int) -> String?) {
        guard let line = report.crashedAppLine, let file = line.file, let number = line.line, let location = line.location,
            let text = code(file, number)?.trimmedBlanks, !text.isEmpty
        else { return }
        let steps = Diagnostician(report: report, base: .standard).decide().steps
        guard steps.count == nextSteps.count, let index = steps.firstIndex(where: { $0.names(location: location) }) else { return }
        nextSteps[index] = Catalog.text(.stepOpenWithLine, language, ["step": nextSteps[index], "code": text])
    }
}

extension Phrase {
    /// A catalog sentence whose `{location}` is `location` (`Profile.swift:28`).
    func names(location: String) -> Bool {
        guard case .catalog(_, let values) = self, case .verbatim(let value)? = values["location"] else { return false }
        return value == location
    }
}
