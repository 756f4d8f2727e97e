import Foundation
import SymbolicateCore
import SymbolicateSourceContext
import SymbolicateSymbolication

/// Everything a batch run found, grouped for people: "what to fix first".
public struct BatchSummary: Sendable, Encodable, Equatable {
    public struct Totals: Sendable, Codable, Equatable {
        /// Reports found (readable or not).
        public var reports: Int
        /// Reports parsed, symbolicated and written.
        public var processed: Int
        /// Reports (or inputs) that could not be read or written.
        public var unreadable: Int
        /// Distinct crash signatures.
        public var groups: Int
        /// Reports that are not crashes (jetsam, hang, resource, stackshot, panic, …), and
        /// their distinct signatures.
        public var otherReports: Int
        public var otherGroups: Int
        /// Cut or pasted reports (of any kind), and their distinct signatures: neither crash
        /// groups nor other reports.
        public var partialReports: Int
        public var partialGroups: Int
        /// Files met while walking folders/zips that are not crash reports.
        public var skipped: Int
        /// Processed reports with at least one app image without a usable debug file.
        public var reportsMissingDebugFiles: Int
        /// Processed reports with app frames still without a function name.
        public var reportsWithUnsymbolicatedAppFrames: Int
        /// What `--upload` did; nil (left out of summary.json) when nothing was sent.
        public var uploads: BatchUploadTotals?
    }

    /// Reports sharing one signature.
    public struct Group: Sendable, Codable, Equatable {
        public var count: Int
        public var signature: String
        /// `ReportKind.identifier` of the group's reports.
        public var kind: String
        /// The app (process name).
        public var app: String?
        public var exception: String?
        public var function: String?
        public var location: String?
        /// Full source path and line (from the first report of the group that has one).
        public var sourceFile: String?
        public var sourceLine: Int?
        public var reason: String?
        public var diagnosis: String?
        /// For a group of partial reports: what its first report lacks.
        public var missing: String?
        /// The first report of the group, in input order.
        public var example: String
        /// Its output file, relative to the output folder.
        public var exampleOutput: String?
        public var reports: [String]
        /// Distinct values, sorted numerically (`1.9` before `1.10`).
        public var appVersions: [String]
        public var osVersions: [String]
        /// The lines around the crash in the `--source-root` checkout, from the example: once
        /// per group.
        package var sourceContext: SourceContext?

        /// `1.0 – 1.2`, or the one version, or nil.
        public var appVersionRange: String? { Self.range(appVersions) }
        public var osVersionRange: String? { Self.range(osVersions) }

        static func range(_ values: [String]) -> String? {
            guard let first = values.first, let last = values.last else { return nil }
            return first == last ? first : "\(first) – \(last)"
        }
    }

    /// Debug files missing (or mismatched, unreadable) for one image, across all reports:
    /// one entry per image name however many builds (UUIDs) the reports hold.
    public struct MissingDebugFile: Sendable, Codable, Equatable {
        /// The problem of the first report that had one.
        public var kind: ImageDiagnostic.Kind
        public var image: String
        /// Distinct UUIDs asked for, in first-seen order.
        public var uuids: [DebugID]
        public var arch: Architecture?
        public var isAppImage: Bool
        /// Reports that needed it.
        public var reports: Int
        /// The message for the first report, as the single-report command prints it.
        public var message: String

        /// `no dSYM for Demo (2 builds, 5 reports)`.
        public var summaryLine: String {
            var parts: [String] = []
            if uuids.count > 1 { parts.append("\(uuids.count) builds") }
            parts.append("\(reports) report\(reports == 1 ? "" : "s")")
            let what: String
            switch kind {
            case .missingDebugFile: what = "no dSYM for \(image)"
            case .uuidMismatch: what = "dSYM for \(image) is for another build"
            case .missingUUID: what = "\(image) has no UUID in the report"
            case .unreadableDebugFile: what = "dSYM for \(image) cannot be read"
            case .matchedByName: what = "dSYM for \(image) matched by name only (unverified)"
            case .ambiguousName: what = "several dSYMs named like \(image), none verifiable"
            case .objectFileProblem: what = "object files of \(image) missing or changed since the link"
            }
            return what + " (" + parts.joined(separator: ", ") + ")"
        }
    }

    public struct Unreadable: Sendable, Codable, Equatable {
        public var input: String
        public var error: String
    }

    public var totals: Totals
    /// Crash groups, largest first; ties by first appearance.
    public var groups: [Group]
    /// Groups of reports that are not crashes (jetsam, hang, resource, stackshot, panic…),
    /// ordered the same way. Never a crash group, `::error` or failed JUnit case.
    public var otherGroups: [Group]
    /// Groups of cut or pasted reports, ordered the same way: counted apart because what they
    /// lack (threads, the image list and its UUIDs) leaves their signature and frames
    /// unverified. Never a crash group, `::error` or failed JUnit case.
    public var partialGroups: [Group]
    public var missingDebugFiles: [MissingDebugFile]
    public var unreadable: [Unreadable]
    public var skipped: [String]
    /// Why some of `skipped` were never read as reports (special files, zip entries that
    /// cannot be reports), by path; `summary.json`'s `skippedReasons`.
    public var skippedReasons: [String: String]
    /// Per-report facts, in input order.
    public var reports: [BatchReportResult]

    /// Groups `results`. Everything is ordered by input order or by count, never by
    /// completion order, so the same inputs give byte-identical summaries.
    package init(
        results: [BatchReportResult], inputProblems: [BatchInputProblem] = [], skipped: [String] = [],
        skippedReasons: [String: String] = [:]
    ) {
        struct GroupKey: Hashable {
            var signature: CrashSignature
            var isPartial: Bool
        }
        var order: [GroupKey] = []
        // Indices, not copies: a 10,000-report summary held every result two more times.
        var members: [GroupKey: [Int]] = [:]
        var missing: [String: MissingDebugFile] = [:]
        var missingOrder: [String] = []
        for (index, result) in results.enumerated() where result.isReadable {
            // A cut copy of a crash is kept apart from the complete ones (same signature,
            // other section).
            let key = GroupKey(
                signature: result.signature ?? CrashSignature(exception: nil, function: nil),
                isPartial: result.isPartial)
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(index)
            var seenInReport = Set<String>()
            for diagnostic in result.diagnostics {
                // Grouped per image: one line for "Demo", however many builds reports hold.
                let key = diagnostic.imageName
                guard seenInReport.insert(key).inserted else { continue }
                if missing[key] == nil {
                    missingOrder.append(key)
                    missing[key] = MissingDebugFile(
                        kind: diagnostic.kind, image: diagnostic.imageName, uuids: [],
                        arch: diagnostic.arch, isAppImage: diagnostic.isAppImage, reports: 0,
                        message: diagnostic.description)
                }
                guard var entry = missing[key] else { continue }
                entry.reports += 1
                entry.isAppImage = entry.isAppImage || diagnostic.isAppImage
                if let uuid = diagnostic.uuid, !entry.uuids.contains(uuid) { entry.uuids.append(uuid) }
                missing[key] = entry
            }
        }
        var crashGroups: [Group] = []
        var otherGroups: [Group] = []
        var partialGroups: [Group] = []
        for key in order {
            guard let indices = members[key], let firstIndex = indices.first else { continue }
            let first = results[firstIndex]
            let list = indices.lazy.map { results[$0] }
            let placed = list.first { $0.sourceFile != nil }
            var group = Group(
                count: list.count, signature: key.signature.description, kind: first.kind, app: first.app, exception: first.exception,
                function: first.function, location: placed?.location ?? first.location,
                sourceFile: placed?.sourceFile, sourceLine: placed?.sourceLine, reason: first.reason,
                diagnosis: list.lazy.compactMap(\.diagnosis).first, missing: first.missing,
                example: first.input, exampleOutput: first.output,
                reports: Array(list.map(\.input)),
                appVersions: Self.sortedDistinct(Array(list.compactMap(\.appVersion))),
                osVersions: Self.sortedDistinct(Array(list.compactMap(\.osVersion))))
            group.sourceContext = first.sourceContext
            if first.isPartial {
                partialGroups.append(group)
            } else if first.isCrash {
                crashGroups.append(group)
            } else {
                otherGroups.append(group)
            }
        }
        var unreadable = inputProblems.map { Unreadable(input: $0.input, error: $0.message) }
        unreadable += results.compactMap { result in
            result.isNotAReport ? nil : result.error.map { Unreadable(input: result.input, error: $0) }
        }
        // Files met in folders that turn out not to be reports (a README mentioning
        // "Exception Type:") are skipped like the ones the first bytes already gave away.
        let notReports = results.filter(\.isNotAReport)
        let skipped = skipped + notReports.map(\.input)

        let processed = results.lazy.filter(\.isReadable)
        self.groups = Self.largestFirst(crashGroups)
        self.otherGroups = Self.largestFirst(otherGroups)
        self.partialGroups = Self.largestFirst(partialGroups)
        // Most-needed first (stable): the images worth fetching a dSYM for lead the list.
        self.missingDebugFiles = missingOrder.compactMap { missing[$0] }.enumerated().sorted { a, b in
            a.element.reports != b.element.reports ? a.element.reports > b.element.reports : a.offset < b.offset
        }.map(\.element)
        self.unreadable = unreadable
        self.skipped = skipped
        self.skippedReasons = skippedReasons
        // The lines are the group's, not repeated in its example's entry.
        self.reports = results.contains { $0.sourceContext != nil } ? results.map { $0.withoutSourceContext } : results
        let uploads = BatchUploadTotals(results)
        self.totals = Totals(
            reports: results.count - notReports.count + inputProblems.count,
            processed: processed.count,
            unreadable: unreadable.count,
            groups: crashGroups.count,
            otherReports: processed.filter { !$0.isCrash && !$0.isPartial }.count,
            otherGroups: otherGroups.count,
            partialReports: processed.filter(\.isPartial).count,
            partialGroups: partialGroups.count,
            skipped: skipped.count,
            reportsMissingDebugFiles: processed.filter(\.hasMissingAppDebugFile).count,
            reportsWithUnsymbolicatedAppFrames: processed.filter(\.hasUnsymbolicatedAppFrames).count,
            uploads: uploads)
    }

    /// Stable sort: equal counts keep first-seen (input) order.
    static func largestFirst(_ groups: [Group]) -> [Group] {
        groups.enumerated().sorted { a, b in
            if a.element.count != b.element.count { return a.element.count > b.element.count }
            return a.offset < b.offset
        }.map(\.element)
    }

    static func sortedDistinct(_ values: [String]) -> [String] {
        Array(Set(values)).sorted { $0.compare($1, options: [.numeric]) == .orderedAscending }
    }
}

/// `--fail-on`: which findings make the run exit 1.
public enum BatchFailurePolicy: String, Sendable, CaseIterable, Codable {
    /// Always exit 0 once at least one report was read.
    case never
    /// Any crash report at all (the UI-test run crashed), or an unreadable report.
    case crash
    /// Any app frame left without a function name, or an unreadable report.
    case unsymbolicated
    /// Any app image without a usable debug file (missing, mismatched, unreadable), or an
    /// unreadable report.
    case missingDSYM = "missing-dsym"

    /// Whether `summary` trips this policy, and why (for the last line on stderr).
    package func violation(in summary: BatchSummary) -> String? {
        if self == .never { return nil }
        if summary.totals.unreadable > 0 {
            return "\(summary.totals.unreadable) input(s) could not be read"
        }
        switch self {
        case .never:
            return nil
        case .crash:
            let crashes = summary.reports.filter { $0.isReadable && $0.isCrash && !$0.isPartial }.count
            return crashes > 0 ? "\(crashes) crash report(s) in \(summary.totals.groups) group(s)" : nil
        case .unsymbolicated:
            let n = summary.totals.reportsWithUnsymbolicatedAppFrames
            return n > 0 ? "\(n) report(s) with unsymbolicated app frames" : nil
        case .missingDSYM:
            let n = summary.totals.reportsMissingDebugFiles
            return n > 0 ? "\(n) report(s) with an app image without a usable dSYM" : nil
        }
    }
}
