import Foundation
import SymbolicateCrashReport
import SymbolicateExplain
import SymbolicatePresentation
import SymbolicateSourceContext
import SymbolicateSymbolication

/// The facts batch mode keeps about one report once it has been written: enough for the
/// summary, CI policy and annotations, and nothing that grows with the report's size.
public struct BatchReportResult: Sendable, Encodable, Equatable {
    /// The input as shown to the user (`reports/a.ips`, `logs.zip!a.ips`).
    public var input: String
    /// Output file relative to the output folder; nil when nothing was written.
    public var output: String?
    /// Why the report could not be read or written; nil on success.
    public var error: String?

    /// `text`, `ips` or `ips-text`.
    public var format: String?
    public var processName: String?
    public var appVersion: String?
    public var osVersion: String?
    public var incidentIdentifier: String?
    /// Whether the report records a crash rather than a jetsam event, hang, resource report,
    /// stackshot or kernel panic (`kind`): only crashes are crash groups and `::error`s.
    public var isCrash: Bool = false
    /// `ReportKind.identifier`: `crash`, `jetsam`, `hang`, `resource-cpu`, `kernel-panic`, …
    public var kind: String = ReportKind.crash.identifier
    /// The app, normalised: the process name (`MemoryLeakingApp`), not its bundle ID.
    public var app: String?
    /// Basename of the source file of `function` (`Records.c`), when the debug info or the
    /// report gave one.
    public var file: String?
    /// Grouping key: kind, exception, app and first app frame (function + file), normalised;
    /// written as its text.
    public var signature: CrashSignature?
    /// `EXC_BAD_ACCESS (SIGSEGV)`, plus the termination namespace and code when they say more.
    public var exception: String?
    /// First app frame of the crashed thread after symbolication (or its image and offset).
    public var function: String?
    /// `File.swift:42` as Apple prints it.
    public var location: String?
    /// Full source path and line from the debug info, for `--github-annotations`.
    public var sourceFile: String?
    public var sourceLine: Int?
    /// The image holding that frame.
    public var image: String?
    /// A compiler trap message from the inline chain (`Swift runtime failure: …`).
    public var reason: String?
    public var appFrames: Int = 0
    public var appFramesSymbolicated: Int = 0
    /// Missing, mismatched or unreadable debug files for this report's images.
    public var diagnostics: [ImageDiagnostic] = []
    /// One-sentence diagnosis from the explain knowledge base. Set for the first report of
    /// each signature (the group's example), and for every report with `--explain`.
    public var diagnosis: String?

    /// What a cut or pasted report lacks (`report ends inside Thread 0; no Binary Images
    /// section`); nil for a complete report. Partial reports are counted and listed on their
    /// own, never as crash groups: their frames are matched by name, unverified.
    public var missing: String?

    /// The lines around the crash in the `--source-root` checkout, with their history: set for
    /// the first report of each signature (the group's example) only.
    package var sourceContext: SourceContext?

    /// The file turned out not to be a crash report at all (a README next to the reports):
    /// with `error` set. Files met while walking folders are then skipped, not unreadable.
    public var isNotAReport: Bool = false

    /// What the crash inbox made of it (`--upload`); nil when it was not sent.
    public var upload: BatchUpload?

    package init(input: String) { self.input = input }

    package var isReadable: Bool { error == nil }

    /// The same facts without the source lines (kept by the report's group instead).
    var withoutSourceContext: BatchReportResult {
        var copy = self
        copy.sourceContext = nil
        return copy
    }

    /// Read, but cut short (see `missing`).
    package var isPartial: Bool { missing != nil }

    /// True when an app image of the report had no usable debug file.
    package var hasMissingAppDebugFile: Bool { diagnostics.contains { $0.isAppImage } }

    /// True when some app frame still has no function name after symbolication.
    package var hasUnsymbolicatedAppFrames: Bool { appFramesSymbolicated < appFrames }

    package mutating func record(report: CrashReport, summary: SymbolicationSummary) {
        format = report.format.rawValue
        processName = report.processName
        appVersion = report.appVersion
        osVersion = report.osVersion
        incidentIdentifier = report.incidentIdentifier
        kind = report.kind.identifier
        isCrash = CrashSignature.isCrash(report.kind)
        missing = report.completeness.isComplete ? nil : report.completeness.summary
        app = CrashSignature.appName(report)
        appFrames = summary.appFrames
        appFramesSymbolicated = summary.appFramesSymbolicated
        diagnostics = summary.diagnostics

        let headline = Headline(report: report)
        exception = headline.exception
        function = headline.function
        location = headline.location
        // Legacy macOS text names images by bundle ID in frames (`dev.mobile.App`), `.ips`
        // by file name (`App`): the file name from the image's path is what both agree on.
        image = headline.image.map { CrashSignature.imageFileName($0, in: report) }
        reason = headline.reason
        // `<compiler-generated>` is no file to point an annotation at.
        if let path = headline.sourceFile, !path.hasPrefix("<") {
            sourceFile = path
            sourceLine = headline.sourceLine
        }
        file = sourceFile.map(lastPathComponent)
        if let name = function, CrashSignature.isBareAddress(name) {
            // A frame "named" by its address is not a name: fall back to image + offset.
            function = nil
        }
        if function == nil, let image {
            // `CrashApp + 0x4410` for a first app frame nothing could name: the offset in the
            // image is stable across launches (ASLR moves the load address, not the offset),
            // so unsymbolicated crashes of one build still group together.
            function = headline.imageOffset.map { "\(image) + 0x\(String($0, radix: 16))" } ?? image
        }
        // Aborts are told apart by who stopped the process (malloc's check, libc++abi's
        // terminate handler, an assertion): two reports on the same path group together.
        let via = CrashSignature.isCrash(report.kind) ? AbortPath(report: report)?.groupingText : nil
        signature = CrashSignature(kind: report.kind, exception: exception, function: function, file: file, app: app, via: via)
    }
}

/// A crash group's key, typed: what groups copies of one crash whatever their format, build or
/// launch, and keeps different crashes apart. Compared and hashed by its parts, never by text;
/// `description` is how summaries and the JSON output print it
/// (`EXC_BAD_ACCESS (SIGSEGV) in ca_record_body (Records.c) · CrashApp`; other kinds are
/// prefixed with theirs: `jetsam: … · SpringBoard`).
public struct CrashSignature: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// `ReportKind.identifier`, nil for crash kinds (one group whether `.crash`, Linux or MetricKit).
    public var kind: String?
    /// The exception and signal, whitespace collapsed (codes left out: they hold fault addresses).
    public var exception: String?
    /// The first app frame's function (`+ offset` and raw addresses removed), not its address
    /// or line, which move with every build; nil when no frame is known.
    public var function: String?
    /// That frame's source file name.
    public var file: String?
    /// The stop's own function (an abort path), when it is not the frame already named.
    public var via: String?
    /// The app, as its process name.
    public var app: String?

    package init(
        kind: ReportKind = .crash, exception: String?, function: String?, file: String? = nil, app: String? = nil, via: String? = nil
    ) {
        self.kind = Self.isCrash(kind) ? nil : kind.identifier
        self.exception = exception.map(Self.collapse)
        let function = function.map(Self.normaliseFunction)
        self.function = function
        self.file = function == nil ? nil : file
        let via = via.map(Self.normaliseFunction)
        self.via = via == function ? nil : via
        self.app = app
    }

    public var description: String {
        var text = kind.map { $0 + ": " } ?? ""
        text += exception ?? "no exception"
        if let function {
            text += " in " + function
            if let file { text += " (\(file))" }
        } else {
            text += " in an unknown frame"
        }
        if let via { text += " via " + via }
        if let app { text += " · " + app }
        return text
    }

    /// Written as its text, as the JSON output always had it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// The same key with its texts shared through `intern` (a batch keeps one per report).
    func interned(_ intern: (String?) -> String?) -> CrashSignature {
        var copy = self
        copy.kind = intern(kind)
        copy.exception = intern(exception)
        copy.function = intern(function)
        copy.file = intern(file)
        copy.via = intern(via)
        copy.app = intern(app)
        return copy
    }

    /// Crash kinds: what a team fixes as a crash. Jetsam events, hangs, resource reports,
    /// stackshots and panics are reported, but in their own sections.
    package static func isCrash(_ kind: ReportKind) -> Bool {
        switch kind {
        case .crash, .linuxBacktrace, .metricKit(.crash): return true
        default: return false
        }
    }

    /// The process name (not the bundle ID), else the executable's file name.
    package static func appName(_ report: CrashReport) -> String? {
        if let name = report.processName?.trimmingCharacters(in: .whitespaces), !name.isEmpty { return name }
        if let path = report.processPath, !path.isEmpty { return lastPathComponent(path) }
        return report.bundleIdentifier
    }

    /// The file name of the binary image called `name` (by its path), else `name`.
    static func imageFileName(_ name: String, in report: CrashReport) -> String {
        guard let image = report.binaryImages.first(where: { $0.name == name }), let path = image.path,
            !path.isEmpty, path != "???"
        else { return name }
        return lastPathComponent(path)
    }

    /// `0x00020d58`: a frame printed with its address where the name goes.
    package static func isBareAddress(_ text: String) -> Bool {
        let t = text.trimmingCharacters(in: .whitespaces)
        return t.lowercased().hasPrefix("0x") && t.count > 2 && t.dropFirst(2).allSatisfy(\.isHexDigit)
    }

    package static func normaliseFunction(_ function: String) -> String {
        var text = collapse(function)
        // `foo + 36` → `foo` (symbol-table names printed with an offset).
        if let range = text.range(of: #" \+ \d+$"#, options: .regularExpression) {
            text.removeSubrange(range)
        }
        // Keep `Image + 0x4410` (our unsymbolicated form) but drop other raw addresses.
        if !text.contains(" + 0x") {
            text = text.replacingOccurrences(of: #"0x[0-9a-fA-F]+"#, with: "0x…", options: .regularExpression)
        }
        return text
    }

    package static func collapse(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// `a/b/File.swift` → `File.swift`.
func lastPathComponent(_ path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
}

/// Shares equal strings between the results a batch keeps until its summary. Reports of
/// one app repeat the same process, versions, signature, exception, frame and diagnosis;
/// kept once, a 10,000-report run grows only by each report's own names (input, output,
/// incident), not by a copy of every fact per report.
final class StringPool: @unchecked Sendable {
    private let lock = NSLock()
    private var strings = Set<String>()

    func intern(_ value: String?) -> String? {
        guard let value else { return nil }
        // Short strings are stored inline (no allocation to share).
        guard value.utf8.count > 15 else { return value }
        lock.lock()
        defer { lock.unlock() }
        if let index = strings.firstIndex(of: value) { return strings[index] }
        strings.insert(value)
        return value
    }

    func shared(_ result: BatchReportResult) -> BatchReportResult {
        var result = result
        for field in [
            \BatchReportResult.format, \.processName, \.appVersion, \.osVersion, \.app, \.file,
            \.exception, \.function, \.location, \.sourceFile, \.image, \.reason, \.diagnosis, \.missing, \.error,
        ] {
            result[keyPath: field] = intern(result[keyPath: field])
        }
        result.kind = intern(result.kind) ?? result.kind
        result.signature = result.signature?.interned(intern)
        return result
    }
}
