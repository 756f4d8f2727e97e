import Foundation
import SymbolicateCore
import SymbolicateDemangling
import SymbolicateJSON

/// How the report was laid out on disk. Detected from content, never from the file extension.
public enum ReportFormat: String, Sendable, Codable, Equatable {
    /// Legacy/translated text (`.crash`, `.txt`, Report Version 104/105/12/…), optionally
    /// preceded by nothing but text.
    case text
    /// Modern `.ips`: a one-line JSON header followed by a JSON body.
    case ips
    /// Legacy `.ips`: a one-line JSON header followed by a text body.
    case ipsTextBody = "ips-text"
    /// One diagnostic of a MetricKit `MXDiagnosticPayload`, rendered in Apple's text layout.
    case metricKit = "metrickit"
    /// A KSCrash report (KSCrash's own JSON, or an SDK that keeps its layout).
    case kscrash
    /// A Sentry event (as exported from Sentry, or stored on disk by the Cocoa SDK).
    case sentry
    /// A PLCrashReporter report (`.plcrash`: its protobuf message), rendered in Apple's text layout.
    case plcrash

    /// JSON or binary: every part of the input is a field the reader read.
    public var isStructured: Bool { self != .text && self != .ipsTextBody }
}

/// A crash report in one model for both text and `.ips` input.
///
/// The parsed fields are a *reading* of the report; the writers never regenerate text
/// reports from these fields but from the original lines (see `TextWriter`), so a field the
/// parser got wrong can never corrupt the output.
public struct CrashReport: Sendable {
    /// The file this came from, as given by the caller; used in errors and warnings.
    public var path: String
    public var format: ReportFormat
    /// What the report is (crash, jetsam event, hang, …); set by the reader from `bug_type`
    /// and content.
    public var kind: ReportKind = .crash
    /// Whether the whole report reached us; a cut report lists what is missing.
    public var completeness: Completeness = .complete
    /// `bug_type` from the `.ips` header (`"309"` crash, `"288"` stackshot, `"298"` jetsam, …).
    public var bugType: String?
    /// Header fields in order: text `Key: value` lines before the first section, or for `.ips`
    /// the members of the header line.
    public var headerFields: [HeaderField]

    public var incidentIdentifier: String?
    public var processName: String?
    public var processID: Int?
    public var processPath: String?
    public var bundleIdentifier: String?
    public var appVersion: String?
    public var parentProcess: String?
    public var dateTime: String?
    /// `OS Version:` as printed (`iPhone OS 17.5 (21F79)`); what it says is `operatingSystem`.
    public var osVersion: String?
    /// The OS as the reader read it: platform, version and build (`.ips` `osVersion.train`/`build`, the text
    /// `OS Version:` line, a Linux backtrace's platform line).
    public var operatingSystem: OperatingSystem?
    public var hardwareModel: String?
    /// As printed, e.g. `ARM-64 (Native)`, `X86-64 (Translated)`.
    public var codeType: String?
    /// An Intel process run by Rosetta on Apple silicon: `.ips` `translated`, text `Code Type: X86-64 (Translated)`.
    public var isTranslated = false
    /// The process architecture when the report tells it (`Code Type:`, `Architecture:`,
    /// `cpuType`), in the one spelling images and debug files use too.
    public var architecture: Architecture?
    public var reportVersion: String?

    public var exception: ExceptionInfo?
    public var termination: TerminationInfo?
    /// Thread index named by `Triggered by Thread:`/`Crashed Thread:`/`faultingThread`.
    public var crashedThreadIndex: Int?
    /// Text of the `Application Specific Information:` section (text reports).
    public var applicationSpecificInformation: String?
    /// The `asi` object of an `.ips` body, unchanged.
    public var asi: JSONValue?

    public var threads: [Thread]
    public var lastExceptionBacktrace: Backtrace?
    public var asiBacktraces: [Backtrace]
    public var binaryImages: [BinaryImage]
    /// Things the parser met but did not understand; each names its line or JSON path.
    public var warnings: [ParseWarning]
    /// The `panic(cpu …)` line of a kernel panic report (`.ips` `panicString`'s first line).
    public var panicString: String?
    /// A MetricKit diagnostic's own keys, typed (nil for every other layout).
    public var metricKit: MetricKitFacts?
    /// Lines of a device or sysdiagnose log that say how a process ended (`DeviceLogReportReader`),
    /// in text order; empty for reports.
    public var logEvents: [DeviceLogEvent] = []
    /// What the report says about its crash, typed and read once when the report is read
    /// (`CrashFacts`): every later stage reads these instead of the text fields above. A reader
    /// with typed input sets what it knows; `readFacts()` reads the rest.
    public internal(set) var facts = CrashFacts()

    /// What the writers need to reproduce the input: original lines or the JSON documents.
    var source: Source
    /// Text reports: the lines the reader read as the report's structure (section titles, thread
    /// headers, register blocks, the header's identifying fields), 1-based. They state no crash
    /// message, so the fact reading that looks for one outside the fields passes them by.
    var structureLines: Set<Int> = []
    /// Text reports: first line of a frame → later lines that continue it (wrapped lines).
    /// A rewritten frame replaces all of them.
    var wrappedLines: [Int: [Int]] = [:]
    /// KSCrash and Sentry reports: the document in its own layout, for `--format ips`.
    var foreign: ForeignJSONSource?

    enum Source: Sendable {
        case text(TextDocument)
        /// The header line as read (with its line end; empty when the file had none) and the
        /// body's tape, so `--format ips` gives them back in their own layout.
        case ips(header: JSONValue, body: JSONNode, headerLine: String)
        case none
    }

    init(path: String, format: ReportFormat, source: Source) {
        self.path = path
        self.format = format
        self.headerFields = []
        self.threads = []
        self.asiBacktraces = []
        self.binaryImages = []
        self.warnings = []
        self.source = source
    }
}

public struct HeaderField: Sendable, Codable, Equatable {
    public var key: String
    public var value: String
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

public struct ExceptionInfo: Sendable, Codable, Equatable {
    /// `EXC_BAD_ACCESS`, `EXC_CRASH`, … or a bare signal name for third-party reporters.
    public var type: String?
    public var signal: String?
    public var codes: String?
    public var subtype: String?
    /// `Exception Note:` text (e.g. `EXC_CORPSE_NOTIFY`).
    public var note: String?
    /// `Exception Reason:`/`Exception Message:` when present.
    public var message: String?
    /// Set when the report itself says the process kept running: `.ips` `isNonFatal`/`isSimulated`
    /// (spelled as Apple's text translation prints it, `NON-FATAL CONDITION (this is NOT a crash)`)
    /// or a text `Exception Note:` saying `NOT a crash`.
    public var nonFatalNote: String?
    /// The uncaught Objective-C or C++ exception the text names (Xcode's console:
    /// `*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '…'`,
    /// libc++abi's `terminating due to uncaught exception of type …`). Only set by readers that
    /// read it from such a line; explain and the headline use it as read.
    public var uncaught: UncaughtException?
    /// A Swift runtime error the text prints (`Fatal error: …: file MyApp/X.swift, line 42`),
    /// with its kind, message and place as separate facts.
    public var runtimeError: SwiftRuntimeError?
    public init(
        type: String? = nil, signal: String? = nil, codes: String? = nil, subtype: String? = nil, note: String? = nil,
        message: String? = nil,
        nonFatalNote: String? = nil
    ) {
        self.type = type
        self.signal = signal
        self.codes = codes
        self.subtype = subtype
        self.note = note
        self.message = message
        self.nonFatalNote = nonFatalNote
    }
}

/// An exception that nothing caught, as the console or a debugger names it.
public struct UncaughtException: Sendable, Codable, Hashable {
    public enum Language: String, Sendable, Codable, Hashable {
        /// An `NSException` (`*** Terminating app due to uncaught exception 'Name', reason: '…'`).
        case objectiveC = "objc"
        /// A C++ exception (`libc++abi: terminating due to uncaught exception of type std::runtime_error: what`).
        case cxx = "c++"
    }
    public var language: Language
    /// `NSInvalidArgumentException`, or the C++ type (`std::runtime_error`); nil when only the
    /// reason is known (Xcode's editor banner shows the reason alone).
    public var name: String?
    /// The Objective-C reason or the C++ `what()` text.
    public var reason: String?
    public init(language: Language, name: String? = nil, reason: String? = nil) {
        self.language = language
        self.name = name
        self.reason = reason
    }
}

/// A Swift runtime error message: `Fatal error: Unexpectedly found nil while unwrapping an
/// Optional value: file MyApp/ViewController.swift, line 42` (or `MyApp/X.swift:42: Fatal error: …`).
public struct SwiftRuntimeError: Sendable, Codable, Hashable {
    /// `Fatal error`, `Precondition failed` or `Assertion failed`, as printed.
    public var kind: String
    /// The message after the kind (may be empty: `fatalError()` prints none).
    public var message: String
    /// The file as printed (`MyApp/ViewController.swift`), when the message names one.
    public var file: String?
    public var line: Int?
    public init(kind: String, message: String, file: String? = nil, line: Int? = nil) {
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
    }
}

public struct TerminationInfo: Sendable, Codable, Equatable {
    /// `SIGNAL`, `FRONTBOARD`, `TCC`, `CODESIGNING`, `LIBSYSTEM`, …
    public var namespace: String?
    /// As printed (`0x8badf00d`, `5`) — kept as text because Apple mixes hex and decimal.
    public var code: String?
    /// The human text (`indicator` in `.ips`, rest of the line in text).
    public var text: String?
    public var byProcess: String?
    /// Further lines of the reason: `.ips` `termination.details`, or in text the free lines after
    /// `Termination Reason:` (TCC usage text, dyld's `Library not loaded:`/`Referenced from:`).
    /// `nil` when there are none.
    public var details: [String]?
    public init(namespace: String? = nil, code: String? = nil, text: String? = nil, byProcess: String? = nil, details: [String]? = nil) {
        self.namespace = namespace
        self.code = code
        self.text = text
        self.byProcess = byProcess
        self.details = details
    }
}

/// Which backtrace a frame belongs to.
public enum BacktraceKind: Sendable, Codable, Hashable {
    case thread(Int)
    case lastException
    case asi(Int)
}

public struct Backtrace: Sendable, Codable, Equatable {
    /// Title as printed (`Last Exception Backtrace`, `Application Specific Backtrace 1`).
    public var title: String
    public var frames: [Frame]
    public init(title: String, frames: [Frame]) {
        self.title = title
        self.frames = frames
    }
}

extension CrashReport.Thread {
    /// The report says so: the main dispatch queue (`Dispatch queue: com.apple.main-thread`, or `sample`'s
    /// `DispatchQueue_1: com.apple.main-thread (serial)` as the name), or the name `main` (Swift backtraces).
    public var runsMainQueue: Bool {
        queue == "com.apple.main-thread" || name == "main" || (name ?? "").containsBytes("com.apple.main-thread")
    }
}

extension CrashReport {
    public struct Thread: Sendable, Codable, Equatable {
        /// Thread number as printed (text) or position in `threads[]` (`.ips`).
        public var index: Int
        public var name: String?
        public var queue: String?
        public var crashed: Bool
        public var frames: [Frame]
        /// Register state, in the order printed; only the crashed thread has one in text.
        public var registers: [Register]
        /// `.ips` thread `id`.
        public var threadID: UInt64?
        /// `index` is the reader's count, not the process's thread number (a crash service's
        /// text lists the crashed thread first and numbers none): thread 0 is then no evidence
        /// of the main thread. Not part of the JSON output.
        public var isNumberedByReader = false

        private enum CodingKeys: String, CodingKey {
            case index, name, queue, crashed, frames, registers, threadID
        }

        public init(
            index: Int, name: String? = nil, queue: String? = nil, crashed: Bool = false, frames: [Frame] = [], registers: [Register] = [],
            threadID: UInt64? = nil
        ) {
            self.index = index
            self.name = name
            self.queue = queue
            self.crashed = crashed
            self.frames = frames
            self.registers = registers
            self.threadID = threadID
        }
    }
}

public struct Register: Sendable, Codable, Equatable {
    public var name: String
    public var value: UInt64
    /// Extra text Apple prints (`(Breakpoint) brk 1`) or a symbol the value points into.
    public var note: String?
    public init(name: String, value: UInt64, note: String? = nil) {
        self.name = name
        self.value = value
        self.note = note
    }
}

/// One backtrace entry as the report had it, plus what the annotator learned.
public struct Frame: Sendable, Codable, Equatable {
    /// Index as printed (text) or position in its backtrace (`.ips`).
    public var index: Int
    public var imageName: String?
    /// Index into `CrashReport.binaryImages`; text frames are resolved by name, then address.
    public var imageIndex: Int?
    /// Absolute runtime address (`.ips`: image base + `imageOffset`).
    public var address: UInt64
    /// Offset from the image load address when the image is known.
    public var imageOffset: UInt64?
    /// Existing symbol (`-[UIViewController view]`, `<deduplicated_symbol>`, `???`), spelled as
    /// Apple's tools print it: a mangled Swift, C++ or Rust name the report gave is demangled
    /// when the report is read (`ReportReaders.read`), the report's own text kept in `mangledSymbol`.
    public var symbol: String? { didSet { nameSource = Self.nameSource(symbol, symbolication) } }
    /// The name exactly as the report gave it, when `symbol` holds its demangled form
    /// (`$s20sentry_ios_cocoapods14ViewControllerC10causeCrashyyypF`); nil otherwise.
    public var mangledSymbol: String?
    /// Offset into `symbol` as printed after ` + `.
    public var symbolOffset: UInt64?
    public var sourceFile: String?
    public var sourceLine: Int?
    /// The report already marked this frame as an inlined level.
    public var isInlined: Bool
    /// Filled by the annotator: innermost first, concrete function last. Writers render it.
    public var symbolication: [SymbolicatedFrame]? { didSet { nameSource = Self.nameSource(symbol, symbolication) } }
    /// Where the name printed for this frame comes from (the JSON output carries it): the
    /// report, or the debug file's symbol table or debug information. Kept in step with
    /// `symbol` and `symbolication`; `nil` while the frame has no name.
    public private(set) var nameSource: FrameNameSource?
    /// 1-based line of the report this frame was read from (text); `nil` for JSON.
    public var reportLine: Int?
    /// Set for nodes of a call graph (`sample`, spindump, microstackshot, MetricKit call
    /// trees): sample count and depth, so writers keep both.
    public var callGraph: CallGraphNode?
    /// Set when the report says what the address is: true for where execution was (a program
    /// counter, or a Swift async resume point), looked up as is; false for a return address,
    /// looked up one byte back. nil: the frame's position decides (the top frame is the PC).
    /// The Swift runtime's backtraces mark every frame (`[ra]`, `[async]`).
    public var isProgramCounter: Bool?
    /// Stored as an optional so the JSON dump carries `"addressUnknown": true` only when set.
    private var addressUnknown: Bool?
    /// False when the text printed the frame without an address (a crash service's web page,
    /// `File "X.swift", line 3, in f`): `address` is then 0 and means nothing; the frame keeps
    /// its name and place, and nothing looks it up.
    public var hasAddress: Bool {
        get { addressUnknown != true }
        set { addressUnknown = newValue ? nil : true }
    }
    /// Set by a paste's reader for a frame no listed image holds (a backtrace copied without its
    /// Binary Images): whether the frame is the app's code, judged from what its line names
    /// (`AppOwnership.isAppCode`). nil when an image decides, or when the line names nothing
    /// that tells; the JSON dump carries it only when set.
    public var isAppCodeWithoutImage: Bool?

    public init(
        index: Int, imageName: String? = nil, imageIndex: Int? = nil, address: UInt64, imageOffset: UInt64? = nil,
        symbol: String? = nil, symbolOffset: UInt64? = nil, sourceFile: String? = nil, sourceLine: Int? = nil,
        isInlined: Bool = false, symbolication: [SymbolicatedFrame]? = nil, reportLine: Int? = nil
    ) {
        self.index = index
        self.imageName = imageName
        self.imageIndex = imageIndex
        self.address = address
        self.imageOffset = imageOffset
        self.symbol = symbol
        self.symbolOffset = symbolOffset
        self.sourceFile = sourceFile
        self.sourceLine = sourceLine
        self.isInlined = isInlined
        self.symbolication = symbolication
        self.reportLine = reportLine
        nameSource = Self.nameSource(symbol, symbolication)
    }

    private static func nameSource(_ symbol: String?, _ symbolication: [SymbolicatedFrame]?) -> FrameNameSource? {
        if let concrete = symbolication?.last { return concrete.nameSource ?? .debugInfo }
        guard let symbol, symbol != "???", !symbol.isEmpty else { return nil }
        return .report
    }

    /// True when the report gave no function name for this frame (only `base + offset`,
    /// `???`, nothing, or a placeholder such as `<redacted>`), i.e. it is worth symbolicating.
    public var isUnsymbolicated: Bool {
        guard let symbol else { return true }
        return symbol == "???" || symbol.isEmpty || PlaceholderName(symbol) != nil
    }
}

/// Where a frame sits in a call graph. Thread backtraces list callees first; a call graph
/// nests callees under their callers, each node with the samples that passed through it.
public struct CallGraphNode: Sendable, Codable, Equatable {
    /// Samples in which this frame was on the stack (`2449` in `2449 ???  (in MyApp) …`).
    public var sampleCount: Int
    /// 0 for a thread's outermost frame; callees are one deeper than their caller.
    public var depth: Int
    /// True when no callee follows: the frame's address is where the thread was (a program
    /// counter), not a return address, so it is looked up as is.
    public var isLeaf: Bool
    public init(sampleCount: Int, depth: Int, isLeaf: Bool) {
        self.sampleCount = sampleCount
        self.depth = depth
        self.isLeaf = isLeaf
    }
}

/// Where a frame's printed name was read.
public enum FrameNameSource: String, Sendable, Codable, Equatable {
    /// The report's own text (an OS, the Swift runtime or another tool named the frame).
    case report
    /// The matching debug file's symbol table (no DWARF covers the address, or the
    /// outermost frame, named by its covering symbol as llvm-symbolizer and atos do).
    case symbolTable
    /// The matching debug file's DWARF (subprogram or inlined call).
    case debugInfo
}

/// One level of a symbolicated frame (innermost first in an array).
public struct SymbolicatedFrame: Sendable, Codable, Equatable {
    public var function: String
    public var offsetInFunction: UInt64
    /// Full path as recorded in the debug info.
    public var file: String?
    public var line: Int?
    public var column: Int?
    public var isInlined: Bool
    /// Stored as an optional so the JSON dump carries `"unverified": true` only when set.
    private var unverified: Bool?
    /// The debug file was matched to the image by name only (the report gave no UUID), so
    /// nothing proves it is the build that crashed. Every output format marks such frames.
    public var isUnverified: Bool {
        get { unverified ?? false }
        set { unverified = newValue ? true : nil }
    }
    /// Where `function` was read (`nil` in JSON written before it was recorded).
    public var nameSource: FrameNameSource?
    /// Stored as an optional so the JSON dump carries `"guess": true` only when set.
    private var guess: Bool?
    /// The name came from a symbol table and the offset is more than the function could span
    /// (the address lies past the end of the symbol's section): the nearest symbol is only a
    /// guess at the code. Every output format marks such frames.
    public var isGuess: Bool {
        get { guess ?? false }
        set { guess = newValue ? true : nil }
    }
    public init(
        function: String, offsetInFunction: UInt64, file: String? = nil, line: Int? = nil, column: Int? = nil, isInlined: Bool,
        nameSource: FrameNameSource? = nil
    ) {
        self.nameSource = nameSource
        self.function = function
        self.offsetInFunction = offsetInFunction
        self.file = file
        self.line = line
        self.column = column
        self.isInlined = isInlined
    }
}

/// A loaded image from `Binary Images:` or `usedImages`.
public struct BinaryImage: Sendable, Codable, Equatable {
    public var loadAddress: UInt64
    /// Last address (inclusive) as printed in text, or base + size − 1 for `.ips`.
    public var endAddress: UInt64?
    /// Name as printed: executable name, or the bundle identifier in older macOS reports.
    public var name: String
    public var arch: Architecture?
    /// The image's UUID (or build ID); `nil` when the report has none or it is malformed.
    public var debugID: DebugID?
    public var path: String?
    public var version: String?
    /// Whether the image belongs to the app rather than the OS; set by the reader from the
    /// rules in `AppOwnership`, the one place they live.
    public var isAppOwned: Bool
    /// `.ips` `source` (`P`, `A`, `S`, `T`) when present.
    public var source: String?
    /// 1-based report line (text); `nil` for JSON.
    public var reportLine: Int?
    /// `true` only for an image the report's Binary Images list lacks (cut or pasted report),
    /// known from frames that print their image's load address. Stored as an optional so the
    /// JSON dump carries it only when set.
    private var inferredFromFrames: Bool?

    /// The image is known only from frame lines (`0x1002c8410 0x1002c4000 + 17424`): no UUID,
    /// no size. A debug file can be matched to it by name only, which is unverified.
    public var isInferredFromFrames: Bool {
        get { inferredFromFrames ?? false }
        set { inferredFromFrames = newValue ? true : nil }
    }

    public init(
        loadAddress: UInt64, endAddress: UInt64? = nil, name: String, arch: Architecture? = nil, debugID: DebugID? = nil,
        path: String? = nil, version: String? = nil, isAppOwned: Bool = false, source: String? = nil, reportLine: Int? = nil
    ) {
        self.loadAddress = loadAddress
        self.endAddress = endAddress
        self.name = name
        self.arch = arch
        self.debugID = debugID
        self.path = path
        self.version = version
        self.isAppOwned = isAppOwned
        self.source = source
        self.reportLine = reportLine
    }

    // JSON output keeps the key it always had.
    private enum CodingKeys: String, CodingKey {
        case loadAddress, endAddress, name, arch, debugID = "uuid", path, version, isAppOwned, source, reportLine, inferredFromFrames
    }

    public func contains(_ address: UInt64) -> Bool {
        guard address >= loadAddress else { return false }
        if let endAddress { return address <= endAddress }
        return false
    }
}

/// Something the parser skipped or could not read; the line still passes through untouched.
public struct ParseWarning: Sendable, Codable, Equatable, CustomStringConvertible {
    public var path: String
    /// 1-based line in the file, when known.
    public var line: Int?
    /// JSON path (`threads[2].frames[5]`), for `.ips` bodies.
    public var jsonPath: String?
    public var message: String
    /// What kind of problem it is, so that a command can pick warnings without reading messages.
    public var kind: Kind = .malformed

    public enum Kind: Sendable, Equatable {
        /// A line or value that could not be read (it passes through untouched).
        case malformed
        /// The report is cut: the warning says what it lacks (`explain` shows only these).
        case partialReport
        /// Frames named by a placeholder (`<redacted>`, `__hidden#42_`, `<deduplicated_symbol>`):
        /// a note saying what the placeholder means, not a problem of the input.
        case placeholderName
        /// Frames whose mangled names are printed as they came because demangling them would
        /// pass the demanglers' bounds: a note, the report itself is fine.
        case nameNotDemangled
    }

    public init(path: String, line: Int? = nil, jsonPath: String? = nil, message: String, kind: Kind = .malformed) {
        self.path = path
        self.line = line
        self.jsonPath = jsonPath
        self.message = message
        self.kind = kind
    }

    // JSON output carries the text only, as it always has.
    private enum CodingKeys: String, CodingKey {
        case path, line, jsonPath, message
    }
    public var description: String {
        var s = path
        if let line { s += ":\(line)" }
        if let jsonPath { s += ": \(jsonPath)" }
        return s + (kind == .placeholderName || kind == .nameNotDemangled ? ": note: " : ": warning: ") + message
    }
}

// MARK: - Conveniences

extension CrashReport {
    /// The thread that crashed: the one flagged in its header, else the one named by
    /// `Triggered by Thread`/`faultingThread`.
    /// Frames pasted without their thread's title stand for it: they are what the reader asks about.
    public var crashedThread: Thread? {
        if let t = threads.first(where: { $0.crashed }) { return t }
        // A reporter that names the crashed thread's number above the one stack it prints
        // (Cr4shed's `Triggered by thread: 2` over `Call stack:`): that stack is the thread's.
        if let i = crashedThreadIndex, let t = threads.first(where: { $0.index == i }) { return t }
        // The only stack a text gives, under a title that marks no thread crashed (`Thread 0:`
        // under a crash service's `# Cause:` line): the stack of the crash it states.
        if crashedThreadIndex == nil, threads.count == 1, !threads[0].frames.isEmpty { return threads[0] }
        return pastedThread
    }

    /// The one thread of frames pasted without their `Thread N Crashed:` title
    /// (`MissingPart.framesWithoutThreadHeader`); its number is unknown. Nil in any other report.
    public var pastedThread: Thread? {
        completeness.missing.contains(.framesWithoutThreadHeader) ? threads.first : nil
    }

    /// The process's main thread, by the one rule every stage uses (headline, explain, batch): the thread
    /// running the main queue or named as the main thread, else thread 0, the process's first thread (a main
    /// thread inside `dispatch_sync` onto another queue shows that queue).
    public var mainThread: Thread? {
        threads.first(where: \.runsMainQueue)
            ?? (pastedThread == nil ? threads.first { $0.index == 0 && !$0.isNumberedByReader } : nil)
    }

    /// Whether `thread` is the main thread (`mainThread`).
    public func isMainThread(_ thread: Thread) -> Bool {
        mainThread.map { $0.index == thread.index && $0.threadID == thread.threadID } ?? false
    }

    public func image(for frame: Frame) -> BinaryImage? {
        guard let i = frame.imageIndex, binaryImages.indices.contains(i) else { return nil }
        return binaryImages[i]
    }

    public var appImages: [BinaryImage] { binaryImages.filter(\.isAppOwned) }

    /// Image containing `address`, if any image range covers it.
    public func image(containing address: UInt64) -> BinaryImage? {
        binaryImages.first(where: { $0.contains(address) })
    }

    /// Every backtrace with its kind, in report order: threads, then the Last Exception
    /// Backtrace, then ASI backtraces.
    public var allBacktraces: [(kind: BacktraceKind, frames: [Frame])] {
        var out: [(BacktraceKind, [Frame])] = threads.enumerated().map { (.thread($0.offset), $0.element.frames) }
        if let leb = lastExceptionBacktrace { out.append((.lastException, leb.frames)) }
        for (i, b) in asiBacktraces.enumerated() { out.append((.asi(i), b.frames)) }
        return out
    }

    /// Visits and lets the caller mutate every frame of every backtrace. For `.thread(i)`,
    /// `i` is the position in `threads`, not the printed thread number.
    public mutating func updateFrames(_ body: (BacktraceKind, inout Frame) throws -> Void) rethrows {
        for t in threads.indices {
            for f in threads[t].frames.indices { try body(.thread(t), &threads[t].frames[f]) }
        }
        if var leb = lastExceptionBacktrace {
            for f in leb.frames.indices { try body(.lastException, &leb.frames[f]) }
            lastExceptionBacktrace = leb
        }
        for b in asiBacktraces.indices {
            for f in asiBacktraces[b].frames.indices { try body(.asi(b), &asiBacktraces[b].frames[f]) }
        }
    }

    /// Same as `updateFrames(_:)` when the backtrace kind does not matter.
    public mutating func updateFrames(_ body: (inout Frame) throws -> Void) rethrows {
        try updateFrames { (_: BacktraceKind, frame: inout Frame) in try body(&frame) }
    }
}

// MARK: - Codable (the `--format json` dump)

extension CrashReport: Codable {
    enum CodingKeys: String, CodingKey {
        case path, format, kind, completeness, bugType, headerFields, incidentIdentifier, processName, processID, processPath
        case bundleIdentifier, appVersion, parentProcess, dateTime, osVersion, hardwareModel, codeType
        case architecture, reportVersion, exception, termination, crashedThreadIndex
        case applicationSpecificInformation, asi, threads, lastExceptionBacktrace, asiBacktraces
        case binaryImages, warnings, logEvents
        case metricKit
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(path: try c.decode(String.self, forKey: .path), format: try c.decode(ReportFormat.self, forKey: .format), source: .none)
        kind = try c.decodeIfPresent(ReportKind.self, forKey: .kind) ?? .crash
        completeness = try c.decodeIfPresent(Completeness.self, forKey: .completeness) ?? .complete
        bugType = try c.decodeIfPresent(String.self, forKey: .bugType)
        headerFields = try c.decodeIfPresent([HeaderField].self, forKey: .headerFields) ?? []
        incidentIdentifier = try c.decodeIfPresent(String.self, forKey: .incidentIdentifier)
        processName = try c.decodeIfPresent(String.self, forKey: .processName)
        processID = try c.decodeIfPresent(Int.self, forKey: .processID)
        processPath = try c.decodeIfPresent(String.self, forKey: .processPath)
        bundleIdentifier = try c.decodeIfPresent(String.self, forKey: .bundleIdentifier)
        appVersion = try c.decodeIfPresent(String.self, forKey: .appVersion)
        parentProcess = try c.decodeIfPresent(String.self, forKey: .parentProcess)
        dateTime = try c.decodeIfPresent(String.self, forKey: .dateTime)
        osVersion = try c.decodeIfPresent(String.self, forKey: .osVersion)
        hardwareModel = try c.decodeIfPresent(String.self, forKey: .hardwareModel)
        codeType = try c.decodeIfPresent(String.self, forKey: .codeType)
        // The dump carries the printed fields (its keys are only ever added): read them as the text reader does.
        operatingSystem = osVersion.flatMap { OperatingSystem(printed: $0) }
        isTranslated = codeType?.hasSuffix("(Translated)") ?? false
        architecture = try c.decodeIfPresent(Architecture.self, forKey: .architecture)
        reportVersion = try c.decodeIfPresent(String.self, forKey: .reportVersion)
        exception = try c.decodeIfPresent(ExceptionInfo.self, forKey: .exception)
        termination = try c.decodeIfPresent(TerminationInfo.self, forKey: .termination)
        crashedThreadIndex = try c.decodeIfPresent(Int.self, forKey: .crashedThreadIndex)
        applicationSpecificInformation = try c.decodeIfPresent(String.self, forKey: .applicationSpecificInformation)
        asi = try c.decodeIfPresent(JSONValue.self, forKey: .asi)
        threads = try c.decodeIfPresent([Thread].self, forKey: .threads) ?? []
        lastExceptionBacktrace = try c.decodeIfPresent(Backtrace.self, forKey: .lastExceptionBacktrace)
        asiBacktraces = try c.decodeIfPresent([Backtrace].self, forKey: .asiBacktraces) ?? []
        binaryImages = try c.decodeIfPresent([BinaryImage].self, forKey: .binaryImages) ?? []
        warnings = try c.decodeIfPresent([ParseWarning].self, forKey: .warnings) ?? []
        metricKit = try c.decodeIfPresent(MetricKitFacts.self, forKey: .metricKit)
        logEvents = try c.decodeIfPresent([DeviceLogEvent].self, forKey: .logEvents) ?? []
        readFacts()
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(path, forKey: .path)
        try c.encode(format, forKey: .format)
        try c.encode(kind, forKey: .kind)
        try c.encode(completeness, forKey: .completeness)
        try c.encodeIfPresent(bugType, forKey: .bugType)
        try c.encode(headerFields, forKey: .headerFields)
        try c.encodeIfPresent(incidentIdentifier, forKey: .incidentIdentifier)
        try c.encodeIfPresent(processName, forKey: .processName)
        try c.encodeIfPresent(processID, forKey: .processID)
        try c.encodeIfPresent(processPath, forKey: .processPath)
        try c.encodeIfPresent(bundleIdentifier, forKey: .bundleIdentifier)
        try c.encodeIfPresent(appVersion, forKey: .appVersion)
        try c.encodeIfPresent(parentProcess, forKey: .parentProcess)
        try c.encodeIfPresent(dateTime, forKey: .dateTime)
        try c.encodeIfPresent(osVersion, forKey: .osVersion)
        try c.encodeIfPresent(hardwareModel, forKey: .hardwareModel)
        try c.encodeIfPresent(codeType, forKey: .codeType)
        try c.encodeIfPresent(architecture, forKey: .architecture)
        try c.encodeIfPresent(reportVersion, forKey: .reportVersion)
        try c.encodeIfPresent(exception, forKey: .exception)
        try c.encodeIfPresent(termination, forKey: .termination)
        try c.encodeIfPresent(crashedThreadIndex, forKey: .crashedThreadIndex)
        try c.encodeIfPresent(applicationSpecificInformation, forKey: .applicationSpecificInformation)
        try c.encodeIfPresent(asi, forKey: .asi)
        try c.encode(threads, forKey: .threads)
        try c.encodeIfPresent(lastExceptionBacktrace, forKey: .lastExceptionBacktrace)
        try c.encode(asiBacktraces, forKey: .asiBacktraces)
        try c.encode(binaryImages, forKey: .binaryImages)
        try c.encode(warnings, forKey: .warnings)
        try c.encodeIfPresent(metricKit, forKey: .metricKit)
        if !logEvents.isEmpty { try c.encode(logEvents, forKey: .logEvents) }
    }
}
