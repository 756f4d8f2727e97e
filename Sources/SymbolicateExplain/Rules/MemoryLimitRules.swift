import Foundation
import SymbolicateCrashReport

/// A termination for memory (issue 41): which kind of process it was (app, extension type,
/// watch app; `CrashReport.processKind`), the limit that kind has, the footprint when the
/// report gives it, and how to measure and lower it.
extension Diagnostician {
    /// Adds the process kind's evidence, cause and steps; returns the verdict to lead with when
    /// the kind is not a plain app (an extension or a watch app has its own, lower limit), else nil.
    func readMemoryLimit(name: String?, footprint: UInt64?, category: Diagnosis.Category) -> Verdict? {
        guard let fact = report.processKind, let limit = MemoryLimit.of(fact.kind),
            let entry = base.entries(named: limit.term).first
        else { return nil }
        let processName = name ?? report.processName ?? fact.bundleName ?? "?"
        found.matched = Diagnosis.Match(catalogue: "memory-limit", id: fact.kind.identifier, subject: fact.bundleName ?? name)
        let shownBy: Phrase =
            switch fact.evidence {
            case .bundlePath(let path): Phrase(.wordKindFromPath, ["path": .text(path)])
            case .extensionPoint(let point): Phrase(.wordKindFromExtensionPoint, ["point": .text(point)])
            case .processName(let name): Phrase(.wordKindFromName, ["name": .text(name)])
            }
        found.quote(
            Phrase(.fieldProcessKind), phrase: Phrase(.quoteProcessKind, ["kind": .text(fact.kind.identifier), "shownBy": shownBy]),
            entry.titlePhrase)
        let limitText: Phrase
        if let stated = report.statedMemoryLimitBytes {
            limitText = Phrase(.wordLimitStated, ["limit": .text(CrashReport.byteCount(stated))])
        } else if let range = limit.megabytes {
            let figure = range.lowerBound == range.upperBound ? "\(range.lowerBound) MB" : "\(range.lowerBound)–\(range.upperBound) MB"
            limitText = Phrase(.wordLimitObserved, ["limit": .text(figure)])
        } else {
            limitText = Phrase(.wordLimitUnknown)
        }
        let footprintText = footprint.map { Phrase(.wordFootprint, ["size": .text(CrashReport.byteCount($0))]) } ?? .verbatim("")
        found.use(entry, causes: 0)
        found.cause(
            .likely, .causeOverKindLimit,
            ["name": .text(processName), "kind": entry.titlePhrase, "limit": limitText, "footprint": footprintText])
        found.causes.insert(found.causes.removeLast(), at: 0)
        // `step` puts each step first: the last one written leads.
        for step in entry.stepPhrases.reversed() { found.step(step) }
        found.step(.stepMeasureProcessMemory, ["name": .text(processName)])
        if case .app = fact.kind { return nil }
        return Verdict(
            category, .stated, .verdictMemoryLimitKind,
            ["name": .text(processName), "kind": entry.titlePhrase, "limit": limitText, "footprint": footprintText])
    }
}
