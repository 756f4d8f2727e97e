import Foundation
import SymbolicateCrashReport

/// The facts batch mode keeps about one report once it has been written: enough for the
/// summary, CI policy and annotations, and nothing that grows with the report's size.
public struct BatchReportResult: Sendable, Codable, Equatable {
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
    /// Whether the report records a crash (an exception, a termination or a crashed thread)
    /// rather than, say, a stackshot.
    public var isCrash: Bool = false
    /// Grouping key: exception + first app frame of the crashed thread, normalised.
    public var signature: String?
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

    public init(input: String) { self.input = input }

    public var isReadable: Bool { error == nil }

    /// True when an app image of the report had no usable debug file.
    public var hasMissingAppDebugFile: Bool { diagnostics.contains { $0.isAppImage } }

    /// True when some app frame still has no function name after symbolication.
    public var hasUnsymbolicatedAppFrames: Bool { appFramesSymbolicated < appFrames }

    mutating func record(report: CrashReport, summary: SymbolicationSummary) {
        format = report.format.rawValue
        processName = report.processName
        appVersion = report.appVersion
        osVersion = report.osVersion
        incidentIdentifier = report.incidentIdentifier
        isCrash = report.exception != nil || report.termination != nil || report.crashedThread != nil
        appFrames = summary.appFrames
        appFramesSymbolicated = summary.appFramesSymbolicated
        diagnostics = summary.diagnostics

        let headline = Headline(report: report)
        exception = headline.exception.map(CrashSignature.normaliseException)
        function = headline.function
        location = headline.location
        image = headline.image
        reason = headline.reason
        sourceFile = headline.sourceFile
        sourceLine = headline.sourceLine
        if function == nil, let image = headline.image {
            // `CrashApp + 0x4410` for a first app frame nothing could name: the offset in the
            // image is stable across launches (ASLR moves the load address, not the offset),
            // so unsymbolicated crashes of one build still group together.
            function = headline.imageOffset.map { "\(image) + 0x\(String($0, radix: 16))" } ?? image
        }
        signature = CrashSignature.make(exception: exception, function: function)
    }
}

/// Crash grouping keys.
public enum CrashSignature {
    /// `EXC_BAD_ACCESS (SIGSEGV) in ca_record_body`.
    ///
    /// Normalised so that copies of one crash agree whatever their format, build or launch:
    /// whitespace collapsed, `+ offset` suffixes and concrete addresses removed from function
    /// names (an offset varies with the build; the function does not), exception codes left
    /// out (they hold fault addresses).
    public static func make(exception: String?, function: String?) -> String {
        let exceptionPart = exception.map(normaliseException) ?? "no exception"
        guard let function else { return exceptionPart + " in an unknown frame" }
        return exceptionPart + " in " + normaliseFunction(function)
    }

    /// Termination codes are printed in decimal by text reports (`FRONTBOARD 2343432205`)
    /// and in hex by `.ips` (`0x8badf00d`): numbers become lowercase hex so both agree.
    public static func normaliseException(_ exception: String) -> String {
        collapse(exception).split(separator: " ").map { token -> String in
            let text = String(token)
            if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = UInt64(text) {
                return "0x" + String(value, radix: 16)
            }
            if text.lowercased().hasPrefix("0x"), let value = UInt64(text.dropFirst(2), radix: 16) {
                return "0x" + String(value, radix: 16)
            }
            return text
        }.joined(separator: " ")
    }

    static func normaliseFunction(_ function: String) -> String {
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

    static func collapse(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
