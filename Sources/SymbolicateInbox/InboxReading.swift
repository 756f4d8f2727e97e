import Foundation
import SymbolicateBatch
import SymbolicateCore
import SymbolicateCrashReport
import SymbolicateExplain
import SymbolicatePipeline
import SymbolicateSymbolication

extension InboxReport {
    /// What the inbox keeps of one symbolicated (and diagnosed) report: batch's signature
    /// parts as the key, the frames of the crashed thread, the typed facts, explain's decision
    /// and what the report states of version, OS, device and time.
    /// - Parameters:
    ///   - processed: the report after the pipeline (symbolicated, diagnosed).
    ///   - id: the content hash of the body the report was read from.
    ///   - receivedAt: when the body arrived.
    package init(processed: ProcessedReport, id: String, receivedAt: Date) {
        let report = processed.report
        let summary = processed.summary ?? SymbolicationSummary()
        var result = BatchReportResult(input: "")
        result.record(report: report, summary: summary)
        let crashed = Self.crashedThread(report)
        let frames = crashed.map { Self.frames(of: $0, in: report) } ?? []
        let via = CrashSignature.isCrash(report.kind) ? AbortPath(report: report)?.groupingText : nil
        let key = CrashGroupKey(
            kind: result.kind, exception: result.exception.map(CrashSignature.collapse), app: result.app,
            function: result.function.map(CrashSignature.normaliseFunction), file: result.file,
            via: via.map(CrashSignature.normaliseFunction),
            neighbours: Self.neighbours(in: frames, after: result.function.map(CrashSignature.normaliseFunction)))
        let stated = report.dateTime.flatMap(StatedTime.read)
        var os = report.osVersion
        if let system = report.operatingSystem, let platform = system.platform, let version = system.version {
            os = "\(platform.rawValue) \(version)"
        }
        let missing = Set(
            summary.diagnostics.filter(\.needsTheBuildsDSYM).compactMap(\.uuid))
        self.init(
            id: id, key: key, version: report.appVersion.flatMap { AppVersion($0) }, os: os, device: report.hardwareModel,
            incident: report.incidentIdentifier, statedTime: report.dateTime, seenAt: stated ?? receivedAt, receivedAt: receivedAt,
            frames: frames, facts: InboxFacts(report.facts),
            decision: processed.diagnosis.map { InboxDecision($0) }, awaiting: missing.sorted { $0.hexString < $1.hexString })
    }

    static func crashedThread(_ report: CrashReport) -> CrashReport.Thread? {
        if let index = report.crashedThreadIndex, let thread = report.threads.first(where: { $0.index == index }) { return thread }
        return report.threads.first(where: \.crashed)
    }

    /// The thread's frames, innermost function of each inline chain first, without addresses.
    static func frames(of thread: CrashReport.Thread, in report: CrashReport) -> [InboxFrame] {
        let appImages = Set(report.appImages.map(\.name))
        var frames: [InboxFrame] = []
        for frame in thread.frames {
            let isApp = frame.imageName.map(appImages.contains) ?? false
            if let chain = frame.symbolication, !chain.isEmpty {
                for (position, piece) in chain.enumerated() {
                    frames.append(
                        InboxFrame(
                            image: frame.imageName, function: piece.function, file: piece.file, line: piece.line, isApp: isApp,
                            isInlined: position < chain.count - 1))
                }
            } else {
                let name = frame.isUnsymbolicated ? nil : frame.symbol
                frames.append(
                    InboxFrame(image: frame.imageName, function: name, file: frame.sourceFile, line: frame.sourceLine, isApp: isApp))
            }
        }
        return frames
    }

    /// The callers of the group's function: the named frames after it (each inline chain
    /// read innermost first, so an inlined caller counts as a caller), normalised as batch
    /// normalises function names. The function is found by its name (the headline skips a
    /// trap's `Swift runtime failure` pseudo-frame), else it is the first app frame.
    static func neighbours(in frames: [InboxFrame], after function: String?) -> [String] {
        let named = { (frame: InboxFrame) in frame.function.map(CrashSignature.normaliseFunction) }
        guard
            let first = frames.firstIndex(where: { frame in function != nil && named(frame) == function })
                ?? frames.firstIndex(where: \.isApp)
        else { return [] }
        var names: [String] = []
        for frame in frames[(first + 1)...] {
            guard let function = frame.function, !CrashSignature.isBareAddress(function) else { continue }
            let name = CrashSignature.normaliseFunction(function)
            if names.last != name { names.append(name) }
            if names.count == CrashGroupKey.neighbourCount { break }
        }
        return names
    }
}

extension InboxFacts {
    init(_ facts: CrashFacts) {
        self.init()
        machException = facts.exception?.machType
        signal = facts.exception?.signal
        isNonFatal = facts.exception?.isNonFatal ?? false
        terminationNamespace = facts.termination?.namespace
        terminationCode = facts.termination?.code
        uncaughtLanguage = facts.uncaughtException?.exception.language.rawValue
        uncaughtName = facts.uncaughtException?.exception.name
        swiftRuntimeError = facts.swiftRuntimeError?.kind
    }
}

extension InboxDecision {
    init(_ diagnosis: Diagnosis) {
        self.init(
            category: diagnosis.category.rawValue, certainty: diagnosis.certainty.rawValue,
            matched: diagnosis.matched.map { "\($0.catalogue)/\($0.id)" }, throwSite: diagnosis.throwSite)
    }
}

/// The crash time a report states (`2026-11-20 10:00:00.1234 +0100`, `.ips` `captureTime`).
enum StatedTime {
    private static let formats = [
        "yyyy-MM-dd HH:mm:ss.SSSS Z", "yyyy-MM-dd HH:mm:ss.SS Z", "yyyy-MM-dd HH:mm:ss Z", "yyyy-MM-dd HH:mm:ss.SSSSSS Z",
    ]

    static func read(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }
}
