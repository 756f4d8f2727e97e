import Foundation
import SymbolicateCrashReport
import SymbolicateDiscovery
import SymbolicateSymbolication

/// What the implicit debug-file search looked at, for the one line that says so: a search
/// that found nothing is never silent and never a mystery.
public struct DebugFileSearch: Sendable, Equatable {
    public var folders: Int
    public var files: Int
    /// Debug files found, counted as the user knows them (a bundle once, not per slice).
    public var found: Int
    /// The report's folder and the current directory were searched (no debug-file argument).
    public var nearReport: Bool
    /// `SYMBOLICATE_DSYM_PATH` was searched.
    public var searchPath: Bool

    public init(folders: Int, files: Int, found: Int, nearReport: Bool, searchPath: Bool) {
        self.folders = folders
        self.files = files
        self.found = found
        self.nearReport = nearReport
        self.searchPath = searchPath
    }

    init(_ index: DebugFileIndex, nearReport: Bool, searchPath: Bool) {
        self.init(
            folders: index.searched.folders, files: index.searched.files, found: Set(index.entries.map(\.displayPath)).count,
            nearReport: nearReport, searchPath: searchPath)
    }
}

/// Why a report or explain run stopped. Each case carries what the message names.
public enum ReportFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// A debug-file argument is missing or unusable.
    case debugFiles(DiscoveryError)
    /// `-o` names the report or a debug file.
    case outputReplacesInput(output: String, input: String)
    /// The report cannot be read or is not a report.
    case unreadableReport(CrashReportError)
    /// The report cannot be given in the asked format (`--format ips` of a text report).
    case cannotRender(CrashReportError)
    /// The output file cannot be written.
    case cannotWrite(path: String, reason: String)
    /// The caller gave up before the end (`ReportRequest.shouldStop`: a server's request past
    /// its time limit); nothing was written.
    case stopped

    public var exitStatus: ExitStatus {
        switch self {
        case .debugFiles, .unreadableReport: return .invalidInput
        case .outputReplacesInput, .cannotRender: return .usage
        case .cannotWrite: return .cannotWrite
        case .stopped: return .failed
        }
    }

    public var description: String {
        switch self {
        case .debugFiles(let error): return error.description
        case .outputReplacesInput(let output, let input):
            return "--output \(output) would replace the input \(input); choose another output file"
        case .unreadableReport(let error), .cannotRender(let error): return error.description
        case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
        case .stopped: return "stopped before the end: the run was given up on"
        }
    }
}

/// Everything `report` and `explain` tell the user besides the output, in the order it happens.
public enum ReportMessage: RunMessage, Equatable {
    /// `symbolicate App.dSYM crash.crash`: read the right way round.
    case swappedArguments(debugFile: String, report: String)
    /// What the implicit search looked at.
    case searched(DebugFileSearch)
    /// A file skipped while indexing debug files.
    case debugFileProblem(DebugFileProblem)
    /// A line of the report that could not be read, or what a partial report lacks.
    case parseWarning(ParseWarning)
    /// An image left without (or with an unverified) debug file.
    case image(ImageDiagnostic)
    /// A debug file the user named that no image used.
    case unusedDebugFile(UnusedDebugFile)
    /// A folder the user named as debug files that held none usable (no dSYM, DWARF or Mach-O
    /// file with a UUID, no .xcarchive, no zip of them).
    case emptyDebugFolder(String)
    /// After the images left without a dSYM: where dSYMs are kept and how to give them (once a run).
    case whereDSYMsAre
    /// The image without debug information is a Debug build's code (`App.debug.dylib`): where
    /// a Debug build keeps its DWARF instead of a dSYM.
    case whereDebugBuildsKeepDWARF(image: String)
    /// The headline, when it is not part of the output: for the person at the terminal
    /// (standard output when the report goes to a file, else standard error).
    case headline(String, on: OutputStream)
    /// What a system-symbols place held, where the default one was looked for, a place for
    /// another OS build (each said once per run; the text carries its own `warning:`).
    case systemSymbols(String)
    /// What symbol servers, debuginfod, dsymForUUID or the cache said (a server down, a
    /// status, a refused file; each once per run, carrying its own `warning:` or `note:`).
    case symbolSources(String)
    /// `-v`: where an image's debug information came from (a debug file, a symbol server's
    /// URL, the cache, system symbols).
    case debugFileUsed(image: String, from: String)
    /// `--require-all` fails the report (at `path`) for this reason.
    case requireAll(path: String, RequireAllShortfall)
    /// What the search where Xcode leaves dSYMs did: one line per place searched, and for the
    /// index when it answered.
    case xcodeDSYMs(String)
    /// `explain`: every report read says the process kept running (a resource report with no
    /// action taken, a non-fatal exception): explained, but not a crash (exit 65).
    case processKeptRunning(path: String)
    /// The run stopped.
    case failure(ReportFailure)

    public var severity: MessageSeverity {
        switch self {
        case .swappedArguments, .debugFileUsed: return .note
        case .searched, .parseWarning, .headline, .systemSymbols, .symbolSources, .xcodeDSYMs: return .plain
        case .debugFileProblem, .image, .unusedDebugFile, .emptyDebugFolder: return .warning
        case .whereDSYMsAre, .whereDebugBuildsKeepDWARF, .processKeptRunning: return .note
        case .failure, .requireAll: return .error
        }
    }

    public var body: String {
        switch self {
        case .swappedArguments(let debugFile, let report):
            return "\(debugFile) is a debug file and \(report) a crash report; reading them as `symbolicate \(report) \(debugFile)`"
        case .searched(let search):
            var places: [String] = []
            if search.nearReport { places.append("top level of the report's folder and the current directory") }
            if search.searchPath { places.append("SYMBOLICATE_DSYM_PATH") }
            return
                "searched \(search.folders) folder\(search.folders == 1 ? "" : "s"), \(search.files) file\(search.files == 1 ? "" : "s") "
                + "for debug files (\(places.joined(separator: ", "))): \(search.found) found"
        case .debugFileProblem(let problem): return problem.description
        case .parseWarning(let warning): return warning.description
        case .image(let diagnostic): return diagnostic.description
        case .unusedDebugFile(let unused): return unused.description
        case .emptyDebugFolder(let folder):
            return "\(folder) holds no usable debug file (no .dSYM bundle, DWARF or Mach-O file with a UUID, .xcarchive or zip of them)"
        case .whereDSYMsAre:
            return
                "dSYMs come from App Store Connect (the build's Download dSYM), Xcode's Organizer (the archive's Show in Finder) or an .xcarchive's dSYMs folder: give that folder, the .xcarchive or the zip after the report"
        case .whereDebugBuildsKeepDWARF(let image):
            return
                "\(image) is a Debug build's code (Xcode 16+), which has no dSYM unless the build made one: give the built app (DerivedData's Build/Products/Debug-iphoneos/ or Debug-iphonesimulator/ .app), whose debug map leads to the object files that keep the DWARF (--object-path-map OLD=NEW when they moved)"
        case .headline(let text, _): return text
        case .systemSymbols(let line), .symbolSources(let line), .xcodeDSYMs(let line): return line
        case .requireAll(let path, let shortfall): return "--require-all: \(path): \(shortfall)"
        case .debugFileUsed(let image, let from): return "\(image): symbolicated from \(from)"
        case .processKeptRunning(let path):
            return "\(path): not a crash: the report says the process kept running (the explanation is of what it reports)"
        case .failure(let failure): return failure.description
        }
    }

    public var stream: OutputStream {
        if case .headline(_, let stream) = self { return stream }
        return .standardError
    }

    public func text(tool: String) -> String {
        // The headline is the report's own first line, not a message of the tool's.
        if case .headline(let text, _) = self { return text + "\n" }
        return "\(tool): \(severity.label)\(body)\n"
    }
}
