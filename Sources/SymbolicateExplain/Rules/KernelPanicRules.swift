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
        let short = Self.withShortPaths(panic.message)
        let message = short.count > 160 ? String(short.prefix(160)) + "…" : short
        if let subject {
            return Verdict(
                .notACrash, .stated, .verdictKernelPanicFamilySubject,
                ["title": title, "subject": .text(subject), "message": .text(message)])
        }
        // A panic no family names is said by its message alone (its family's title is "Kernel panic").
        if family == .other { return Verdict(.notACrash, .stated, .verdictKernelPanicMessage, ["message": .text(message)]) }
        return Verdict(.notACrash, .stated, .verdictKernelPanicFamily, ["title": title, "message": .text(message)])
    }

    /// The message with each absolute path cut to its file's name (an assertion's `file:
    /// /AppleInternal/Library/BuildRoots/…/xnu/bsd/kern/uipc_mbuf.c, line: 4839`): the headline
    /// keeps what names the check, where the build machine's folders would fill it.
    static func withShortPaths(_ message: String) -> String {
        var words: [Substring] = []
        for word in message.split(separator: " ", omittingEmptySubsequences: false) {
            guard word.hasBytePrefix("/"), word.utf8.count > 40, word.dropFirst().containsBytes("/") else {
                words.append(word)
                continue
            }
            var path = word
            var tail: Substring = ""
            while let last = path.last, [",", ";", ")", "."].contains(last) {
                tail = String(last) + tail
                path = path.dropLast()
            }
            words.append((path.split(separator: "/").last ?? path) + tail)
        }
        return words.joined(separator: " ")
    }
}
