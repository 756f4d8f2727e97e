import Foundation
import SymbolicateCrashReport

/// A kernel panic (issue 41): the panic string read (`KernelPanicFacts`), its family
/// (`KernelPanicFamily`) with what it names (the service, controller, zone, driver or kext),
/// and the family's steps.
extension Diagnostician {
    /// `field` is where the panic string is: `panicString` in an `.ips`, `Panic` in text.
    func classifyKernelPanic(field: String) -> Verdict? {
        guard let panic = report.kernelPanic else { return nil }
        let (family, subject) = KernelPanicFamily.classify(panic)
        let entry = base.entries(named: KnowledgeBase.panicFamilyTerm(family)).first
        found.matched = Diagnosis.Match(catalogue: "kernel-panic", id: family.rawValue, subject: subject)
        found.quote(
            .label(field), panic.line, entry.map { Phrase(.notePanicFamily, ["title": $0.titlePhrase, "id": .text(family.rawValue)]) })
        if let task = panic.panickedTask {
            let quote = panic.panickedPID.map { "\(task) [\($0)]" } ?? task
            found.quote(Phrase(.fieldPanickedTask), quote)
        }
        for kext in panic.backtraceKexts.prefix(4) {
            let text = kext.bundleID + (kext.version.map { " (\($0))" } ?? "")
            found.quote(.label("Kernel Extensions in backtrace"), text, kext.isApple ? nil : Phrase(.noteThirdPartyKext))
        }
        found.use(entry, causes: 1)
        found.use(base.entry(.kernelPanicReport))
        if family == .thirdPartyKext, let subject {
            found.step(.stepRemoveKext, ["kext": .text(subject)])
        }
        found.note(.noteKernelPanic)
        let title = entry?.titlePhrase ?? .text(family.rawValue)
        let message = panic.message.count > 160 ? String(panic.message.prefix(160)) + "…" : panic.message
        if let subject {
            return Verdict(
                .notACrash, .stated, .verdictKernelPanicFamilySubject,
                ["title": title, "subject": .text(subject), "message": .text(message)])
        }
        return Verdict(.notACrash, .stated, .verdictKernelPanicFamily, ["title": title, "message": .text(message)])
    }
}
