import Foundation
import SymbolicateCrashReport
import SymbolicateTestSupport
import Testing

@testable import SymbolicateExplain

/// Issue 48: explain never claims a message, a reason or a backtrace is absent when the input has
/// one. Every report and crash text the project holds (Fixtures/**, the shared corpus, the tune
/// part of Fixtures/crashtexts; never the holdouts) is read and diagnosed, and each sentence that
/// says something is missing is checked against the typed facts the reader read.
@Suite struct AbsenceClaimTests {
    /// What a sentence claims the report lacks.
    enum Absent: Sendable {
        /// A message, reason or stated cause.
        case message
        /// The crashed thread's backtrace.
        case backtrace
    }

    /// The sentences that say something is not in the report, and what each says is missing.
    static let claims: [PhraseKey: Absent] = [
        .verdictNotEnoughInformation: .message, .noteNoExceptionInformation: .message,
        .noteExceptionNameMissing: .message, .noteExceptionNameMissingNoASI: .message,
        .noteAssertionMessageMissing: .message, .noteAssertionMessageMissingNoASI: .message,
        .noteSwiftMessageMissing: .message, .noteSwiftMessageMissingSymbolicate: .message, .verdictSwiftCheckStopped: .message,
        .noteDispatchMessageMissing: .message, .noteCppTypeMissing: .message, .noteCppWhatMissing: .message,
        .verdictAbortUnexplained: .message, .verdictAbortFrom: .message, .verdictAbortFromCalledFrom: .message,
        .causeUncaughtUnrecorded: .message, .verdictObjCExceptionUnnamed: .message,
        .verdictThrowSiteRuleLikely: .message, .verdictCrashedIn: .message, .verdictCrashedInCalledFrom: .message,
        .verdictTraceTrapNoThread: .backtrace, .verdictAbortNoThread: .backtrace,
    ]

    /// Folders under Fixtures/ that hold no reports (sources, binaries, expected outputs) or must
    /// not be read (the holdouts are measured once, at the end of issue 48).
    static let skippedFolders = [
        "/expected/", "/holdout/", "/holdout2/", "/holdout3/", "/holdout4/", "/holdout5/", "/holdout6/", "/holdout7/", "/holdout8/",
        "/holdout9/", "/holdout10/", "/holdout11/", "/holdout12/", "/holdout13/", "/holdout14/", "/holdout15/", "/holdout16/",
        "/holdout17/", "/holdout18/", "/holdout19/", "/holdout20/", "/holdout21/", "/holdout22/", "/holdout23/", "/holdout24/",
        "/holdout25/", "/holdout26/", "/holdout27/", "/holdout28/", "/holdout29/", "/src/", "/bin/", "/tools/", "/system-symbols/",
        ".dSYM/", "/audit/", "/debugmap/", "/elf-lto/",
    ]

    /// Every file that may be a report: Fixtures/** (skipping the folders above) and the shared corpus.
    static let inputs: [String] = {
        var urls: [URL] = []
        if let walk = FileManager.default.enumerator(at: TestPaths.fixtures, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey])
        {
            for case let url as URL in walk {
                let path = url.path
                guard !skippedFolders.contains(where: { path.contains($0) }) else { continue }
                let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey])
                guard values?.isRegularFile == true, (values?.fileSize ?? 0) < 4 << 20 else { continue }
                guard ["crash", "ips", "txt", "json", "log", "panic", "text"].contains(url.pathExtension) else { continue }
                urls.append(url)
            }
        }
        if Corpus.isAvailable {
            let root = Corpus.reportsDirectory.deletingLastPathComponent()
            if let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) {
                for case let url as URL in walk where ["crash", "ips", "txt", "json"].contains(url.pathExtension) { urls.append(url) }
            }
        }
        let root = TestPaths.packageRoot.deletingLastPathComponent().path + "/"
        return urls.map { $0.path.hasPrefix(root) ? String($0.path.dropFirst(root.count)) : $0.path }.sorted()
    }()

    /// The catalog sentences a phrase is made of, nested ones included.
    static func keys(_ phrase: Phrase) -> [PhraseKey] {
        switch phrase {
        case .catalog(let key, let values): [key] + values.keys.sorted().flatMap { values[$0].map(keys) ?? [] }
        case .knowledge(let text): PhraseKey(rawValue: text.id).map { [$0] } ?? []
        case .lowercasedInEnglish(let inner): keys(inner)
        case .list(let items), .sequence(let items): items.flatMap(keys)
        case .verbatim, .throwSite: []
        }
    }

    /// The messages the facts hold that state a cause: an exception's reason, a Swift runtime
    /// error, an assertion, a reader's own crash line, or a line of Application Specific
    /// Information whose words a message family or class of the catalog reads.
    static func statedCauses(_ facts: CrashFacts) -> [String] {
        var found: [String] = []
        if let reason = facts.uncaughtException?.exception.reason, !reason.isEmpty { found.append(reason) }
        if let error = facts.swiftRuntimeError { found.append("\(error.kind): \(error.message)") }
        if let quote = facts.assertion?.quote { found.append(quote) }
        let words = KnowledgeBase.standard.entries.filter { [.messageClass, .debugLayerMessage].contains($0.kind) }.flatMap(\.patterns)
            .map { $0.lowercased() }
        for message in facts.statedMessages {
            // libc++abi's line for an Objective-C exception names its type only (`… of type
            // NSException`): no name, no reason, no cause.
            if message.family == .objcException, message.text.hasSuffix(" of type NSException") { continue }
            switch message.source {
            case .appSpecificInformation, .exceptionMessage:
                let text = message.text.lowercased()
                if words.contains(where: { text.contains($0) }) { found.append(message.text) }
            default: found.append(message.text)
            }
        }
        return found
    }

    @Test func theInputsIncludeReportsAndCrashTexts() {
        #expect(Self.inputs.count > 300)
        #expect(Self.inputs.contains { $0.contains("crashtexts/tune/") })
        #expect(
            !Self.inputs.contains {
                $0.contains("crashtexts/holdout/") || $0.contains("crashtexts/holdout2/") || $0.contains("crashtexts/holdout3/")
                    || $0.contains("crashtexts/holdout4/") || $0.contains("crashtexts/holdout5/")
                    || $0.contains("crashtexts/holdout6/") || $0.contains("crashtexts/holdout7/")
                    || $0.contains("crashtexts/holdout8/") || $0.contains("crashtexts/holdout9/")
                    || $0.contains("crashtexts/holdout10/") || $0.contains("crashtexts/holdout11/")
                    || $0.contains("crashtexts/holdout12/") || $0.contains("crashtexts/holdout13/")
                    || $0.contains("crashtexts/holdout14/") || $0.contains("crashtexts/holdout15/")
                    || $0.contains("crashtexts/holdout16/") || $0.contains("crashtexts/holdout17/")
                    || $0.contains("crashtexts/holdout18/") || $0.contains("crashtexts/holdout19/")
                    || $0.contains("crashtexts/holdout20/") || $0.contains("crashtexts/holdout21/")
                    || $0.contains("crashtexts/holdout22/") || $0.contains("crashtexts/holdout23/")
                    || $0.contains("crashtexts/holdout24/") || $0.contains("crashtexts/holdout25/")
                    || $0.contains("crashtexts/holdout26/") || $0.contains("crashtexts/holdout27/")
                    || $0.contains("crashtexts/holdout28/") || $0.contains("crashtexts/holdout29/")
            })
    }

    @Test(arguments: inputs)
    func noAbsenceClaimContradictsTheFacts(input: String) throws {
        let root = TestPaths.packageRoot.deletingLastPathComponent()
        let path = input.hasPrefix("/") ? input : root.appendingPathComponent(input).path
        // Not a report (a symbol map, a manifest, a near-miss): nothing is diagnosed, nothing claimed.
        guard let report = try? CrashReport.parse(contentsOf: path) else { return }
        let decision = Diagnostician(report: report, base: .standard).decide()
        let phrases = [decision.headline] + decision.notes + decision.causes.map(\.phrase)
        let claimed = Set(phrases.flatMap(Self.keys)).compactMap { key in Self.claims[key].map { (key, $0) } }
        for (key, absent) in claimed {
            switch absent {
            case .message:
                let stated = Self.statedCauses(report.facts)
                #expect(stated.isEmpty, "\(input): says \(key) but the report states \(stated.first ?? "")")
            case .backtrace:
                let frames = report.crashedThread?.frames.count ?? 0
                #expect(frames == 0, "\(input): says \(key) but the crashed thread has \(frames) frames")
            }
        }
    }
}
