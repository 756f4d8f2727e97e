import Foundation
import SymbolicateCrashReport
import SymbolicateDWARF
import SymbolicateDiscovery
import SymbolicateSymbolication
import SymbolicateSystemSymbols

/// Where one run's debug files come from, as the request gave them.
package struct DebugFileInputs: Sendable {
    /// Debug-file arguments (dSYMs, folders, `.xcarchive`, zips); a missing one is an error.
    package var explicit: [String] = []
    /// Looked at one level deep (the report's folder and the current directory).
    package var shallowFolders: [String] = []
    /// Searched recursively (`SYMBOLICATE_DSYM_PATH`).
    package var searchFolders: [String] = []
    /// Where debug-file zips are unpacked once and kept; nil unpacks them for this run only.
    package var zipCache: ZipCache?
    /// Where Xcode leaves dSYMs, asked (with no explicit file) for the app's images the
    /// index has none for; nil asks nowhere.
    package var xcodeDSYMs: XcodeDSYMSearch?

    package init(
        explicit: [String] = [], shallowFolders: [String] = [], searchFolders: [String] = [], zipCache: ZipCache? = nil,
        xcodeDSYMs: XcodeDSYMSearch? = nil
    ) {
        self.explicit = explicit
        self.shallowFolders = shallowFolders
        self.searchFolders = searchFolders
        self.zipCache = zipCache
        self.xcodeDSYMs = xcodeDSYMs
    }
}

/// The parts of one run, built once from its inputs: the debug-file index, the opened debug
/// files and the annotator over them. `report`, `explain` and `batch` each build one and do
/// only what is theirs with it (print, diagnose, summarise); a server brings its own prepared
/// index (`init(prepared:…)`), the same parts otherwise.
package struct RunAssembly: Sendable {
    package let index: DebugFileIndex
    package let sessions: DebugSessionCache
    /// Symbolicates the run's reports over `index` and `sessions`.
    package let annotator: Annotator
    /// What finding the debug files has to say (Xcode's places searched), in order.
    package private(set) var messages: [ReportMessage] = []
    /// App images whose dSYM the index of Xcode's folders answered with no folder walked.
    package private(set) var xcodeIndexAnswers = 0
    /// Walks of the request's inputs and folders: one. Xcode's dSYMs found for what that walk
    /// lacked are added to its index, never a second index over the same inputs.
    package private(set) var indexBuilds = 0

    /// The parts over `inputs`, for `reports` (read first: Xcode's dSYMs are looked for the
    /// app's images among them that the inputs had none for).
    /// - Throws: why the first unusable explicit input cannot be used.
    package init(
        _ inputs: DebugFileInputs, reports: [CrashReport], options: Annotator.Options = .init(),
        objectPathMap: ObjectPathMap = ObjectPathMap(), systemSymbols: SystemSymbols? = nil,
        remoteDebugFiles: (any RemoteDebugFiles)? = nil, shouldStop: (@Sendable () -> Bool)? = nil
    ) throws(DiscoveryError) {
        var index = try DebugFileIndex(
            inputs: inputs.explicit, shallowFolders: inputs.shallowFolders, searchFolders: inputs.searchFolders,
            zipCache: inputs.zipCache)
        var messages: [ReportMessage] = []
        var xcodeIndexAnswers = 0
        if inputs.explicit.isEmpty, let xcode = inputs.xcodeDSYMs {
            let wanted = Set(reports.flatMap(\.appImages).compactMap(\.debugID).filter { index.entries(id: $0).isEmpty })
            let outcome = xcode.locate(wanted)
            messages = outcome.messages.map(ReportMessage.xcodeDSYMs)
            xcodeIndexAnswers = outcome.fromIndex
            if !outcome.bundles.isEmpty {
                index = DebugFileIndex(index, then: try DebugFileIndex(inputs: outcome.bundles, zipCache: inputs.zipCache))
            }
        }
        self.init(
            index: index, sessions: DebugSessionCache(objectPathMap: objectPathMap), options: options,
            systemSymbols: systemSymbols, remoteDebugFiles: remoteDebugFiles, shouldStop: shouldStop)
        self.messages = messages
        self.xcodeIndexAnswers = xcodeIndexAnswers
        indexBuilds = 1
    }

    /// The parts over an index already built (a server's, indexed and opened once for many
    /// requests): nothing is walked.
    package init(
        index: DebugFileIndex, sessions: DebugSessionCache, options: Annotator.Options = .init(),
        systemSymbols: SystemSymbols? = nil, remoteDebugFiles: (any RemoteDebugFiles)? = nil,
        shouldStop: (@Sendable () -> Bool)? = nil
    ) {
        self.index = index
        self.sessions = sessions
        var annotator = Annotator(index: index, sessions: sessions, options: options, systemSymbols: systemSymbols)
        annotator.remoteDebugFiles = remoteDebugFiles
        annotator.shouldStop = shouldStop
        self.annotator = annotator
    }

    /// The pipeline every report of the run takes.
    package var pipeline: ReportPipeline { ReportPipeline(annotator: annotator) }
}
