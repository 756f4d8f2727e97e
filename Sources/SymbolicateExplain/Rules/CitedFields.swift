import Foundation
import SymbolicateCrashReport

/// Evidence cites only what the reader can find in what they gave (issue 54): a field the
/// input does not print (`Exception Message` of a pasted `Fatal error:` line, which the console
/// reader stores in that field) is cited by the input line that holds the quote, and frames
/// pasted without their thread's title are "pasted frame N", not "Thread 0 frame N".
extension Diagnostician {
    func citingTheInput(_ evidence: [FoundEvidence]) -> [FoundEvidence] {
        let pasted = report.pastedThread != nil
        var printed: [String: Bool] = [:]
        return evidence.map { item in
            var item = item
            if case .verbatim(let label) = item.field {
                let isPrinted = printed[label] ?? report.inputPrints(field: label)
                printed[label] = isPrinted
                if !isPrinted {
                    let line = item.quote.quotedText.first.flatMap { report.inputLine(holding: $0) }
                    item.field = line.map { Phrase(.fieldInputLine, ["line": .text(String($0))]) } ?? Phrase(.fieldInputText)
                }
            }
            if pasted {
                item.field = item.field.namingPastedFrames()
                item.note = item.note?.namingPastedFrames()
            }
            return item
        }
    }
}

extension Phrase {
    /// The phrase with each `thread N frame M` of a pasted thread (whose number the input never
    /// gave) said as `pasted frame M`.
    func namingPastedFrames() -> Phrase {
        switch self {
        case .catalog(let key, let values):
            if key == .fieldThreadFrame || key == .placeThreadFrame, let frame = values["frame"] {
                return Phrase(key == .fieldThreadFrame ? .fieldPastedFrame : .placePastedFrame, ["frame": frame])
            }
            return .catalog(key, values.mapValues { $0.namingPastedFrames() })
        case .lowercasedInEnglish(let phrase): return .lowercasedInEnglish(phrase.namingPastedFrames())
        case .list(let items): return .list(items.map { $0.namingPastedFrames() })
        case .sequence(let items): return .sequence(items.map { $0.namingPastedFrames() })
        case .verbatim, .knowledge, .throwSite: return self
        }
    }
}
