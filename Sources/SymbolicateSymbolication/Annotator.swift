import Foundation
import SymbolicateCore
import SymbolicateCrashReport
import SymbolicateDWARF
import SymbolicateDiscovery
import SymbolicateSystemSymbols

/// What the annotator did to one report: the numbers a user (or CI policy) acts on.
public struct SymbolicationSummary: Sendable, Codable, Equatable {
    /// Images the report lists as app-owned, and how many of them had a usable debug file.
    public var appImages: Int = 0
    public var appImagesWithDebugFile: Int = 0
    /// Frames in app images, and how many of them now carry a function name.
    public var appFrames: Int = 0
    public var appFramesSymbolicated: Int = 0
    /// Frames rewritten in total (app and system images with debug files).
    public var framesSymbolicated: Int = 0
    /// Image name → debug file used, for every image matched by UUID.
    public var debugFiles: [String: String] = [:]
    public var diagnostics: [ImageDiagnostic] = []
    /// Debug-file lookups made: one per distinct (image, address), however many frames repeat
    /// it. A measure of the work, not part of the output.
    package var addressesLookedUp = 0

    private enum CodingKeys: String, CodingKey {
        case appImages, appImagesWithDebugFile, appFrames, appFramesSymbolicated, framesSymbolicated, debugFiles, diagnostics
    }

    /// Nothing symbolicated yet (also what a report read without debug files counts as).
    public init() {}

    /// True when some app image had no usable debug file (`--require-all` fails on it).
    public var hasUnsymbolicatedAppImage: Bool {
        diagnostics.contains { $0.isAppImage && $0.kind != .matchedByName }
    }

    /// Images symbolicated with a debug file matched by name only (no UUID in the report).
    public var unverifiedImages: [String] {
        diagnostics.filter { $0.kind == .matchedByName }.map(\.imageName)
    }
}

/// Rewrites the frames of a report with function, file, line and inline chain from the
/// matching debug files.
///
/// Address arithmetic is `ImageSlide`'s (slide, lookup address, file address); the printed
/// `+ offset` is `address − slide − functionStart`, measured from the original address so
/// it matches what Apple prints.
package struct Annotator: Sendable {
    package struct Options: Sendable {
        /// Also rewrite frames that already carry a file and line. Frames with only a name
        /// (symbol-table names, from the OS or the Swift runtime) are resolved either way.
        package var resymbolicate = false
        package init(resymbolicate: Bool = false) { self.resymbolicate = resymbolicate }
    }

    package let index: DebugFileIndex
    package let sessions: DebugSessionCache
    package var options: Options
    /// Apple's own images (DeviceSupport folders, dyld shared caches), asked for images no
    /// debug file matched; nil names no system frame.
    package var systemSymbols: SystemSymbols?
    /// Symbol servers, debuginfod, dsymForUUID and their cache, asked for images with frames
    /// to name that no local debug file matched, before system symbols; nil asks nobody.
    package var remoteDebugFiles: (any RemoteDebugFiles)?
    /// Asked before each image is matched and each frame is named: true stops the work there
    /// (a server's request given up on), leaving the rest as the report gave it; the caller,
    /// which asked, ends the run. A report of a million frames is one long stage otherwise.
    package var shouldStop: (@Sendable () -> Bool)?

    package init(
        index: DebugFileIndex, sessions: DebugSessionCache = DebugSessionCache(), options: Options = Options(),
        systemSymbols: SystemSymbols? = nil
    ) {
        self.index = index
        self.sessions = sessions
        self.options = options
        self.systemSymbols = systemSymbols
    }

    /// Symbolicates `report` in place and says what happened. Never throws: an image whose
    /// debug file is missing or broken is a diagnostic, and its frames stay as they were.
    package func annotate(_ report: inout CrashReport) -> SymbolicationSummary {
        var summary = SymbolicationSummary()
        var sessionForImage: [Int: any DebugLookup] = [:]
        var unverified: Set<Int> = []
        let framesToName = systemSymbols == nil && remoteDebugFiles == nil ? [] : imagesWithFramesToName(report)
        let wantsSystemSymbols = systemSymbols == nil ? [] : framesToName
        let remote = remotelyWanted(report, positions: framesToName)

        var stopped = false
        // A Debug build's stub executable holds Apple's blank executor only: no dSYM is asked for.
        let debugStubs = AppOwnership.debugDylibStubs(in: report.binaryImages)
        for (position, image) in report.binaryImages.enumerated() {
            if let shouldStop, shouldStop() {
                stopped = true
                break
            }
            if image.isAppOwned, !debugStubs.contains(position) { summary.appImages += 1 }
            switch match(image, reportArchitecture: report.architecture, remote: remote[position]) {
            case .matched(let session, let entry, let verified):
                sessionForImage[position] = session
                if !verified {
                    unverified.insert(position)
                    summary.diagnostics.append(
                        ImageDiagnostic(
                            kind: .matchedByName, imageName: image.name, uuid: nil, arch: image.arch,
                            isAppImage: image.isAppOwned, debugFile: entry.displayPath, debugFileUUID: entry.debugID))
                }
                summary.debugFiles[image.name] = entry.displayPath
                if image.isAppOwned { summary.appImagesWithDebugFile += 1 }
            case .problem(let diagnostic) where diagnostic.kind == .missingDebugFile && debugStubs.contains(position):
                break
            case .problem(let diagnostic):
                summary.diagnostics.append(diagnostic)
            case .nothing:
                if wantsSystemSymbols.contains(position), let system = systemImage(image, report: report) {
                    sessionForImage[position] = system.lookup
                    summary.debugFiles[image.name] = system.displayPath
                }
            }
        }

        let images = report.binaryImages
        let resymbolicate = options.resymbolicate
        // Walk state per backtrace: frames arrive in order, so the top frame (and the inline
        // lines a report may already have printed for it) and existing inline chains can be
        // recognised without indices, which inline expansion shifts.
        var currentKind: BacktraceKind?
        var atTop = true
        var previous: Frame?
        // Object files of a debug map that frames needed but could not use, per image.
        var objectProblems: [Int: Set<DebugMapProblem>] = [:]
        // A deep recursion repeats a few addresses a million times: each is looked up once and
        // its frames share one chain (one array, not a copy per frame).
        var chains: [ChainKey: [SymbolicatedFrame]?] = [:]
        report.updateFrames { (kind: BacktraceKind, frame: inout Frame) in
            if stopped { return }
            if let shouldStop, shouldStop() {
                stopped = true
                return
            }
            if kind != currentKind {
                currentKind = kind
                atTop = true
                previous = nil
            } else if let previous, previous.address != frame.address {
                atTop = false
            }
            // A call-graph node is a program counter only where no callee follows it.
            let isTop = frame.callGraph.map(\.isLeaf) ?? frame.isProgramCounter ?? atTop
            let continuesInlineChain = previous.map { $0.isInlined && $0.address == frame.address } ?? false
            defer { previous = frame }
            let position = frame.imageIndex ?? images.firstIndex(where: { $0.contains(frame.address) })
            let image = position.flatMap { images.indices.contains($0) ? images[$0] : nil }
            if image?.isAppOwned == true { summary.appFrames += 1 }
            guard let position, let image, let session = sessionForImage[position] else {
                if image?.isAppOwned == true, !frame.isUnsymbolicated { summary.appFramesSymbolicated += 1 }
                return
            }
            // Lines the report already expanded as inline levels, and the concrete frame that
            // closes such a chain, are kept as they are: re-expanding would print the chain twice.
            if frame.isInlined { return }
            let named = !frame.isUnsymbolicated
            // A frame the report already placed in a file and line is kept unless asked to redo it;
            // a frame with only a name is resolved from DWARF: it gains the file, line and inline chain.
            let located = frame.sourceFile != nil && frame.sourceLine != nil
            if named && (continuesInlineChain || (located && !resymbolicate) || (!session.hasDWARF && !resymbolicate)) {
                if image.isAppOwned { summary.appFramesSymbolicated += 1 }
                return
            }
            let key = ChainKey(image: position, address: frame.address, isTop: isTop, requireDWARF: named && !resymbolicate)
            let chain: [SymbolicatedFrame]?
            if let known = chains[key] {
                chain = known
            } else {
                if let mapped = session as? DebugMapLookup {
                    let slide = ImageSlide(loadAddress: image.loadAddress, linkedAddress: mapped.linkedAddress)
                    if let problem = mapped.problem(at: slide.fileAddress(ImageSlide.lookupAddress(frame.address, isTopFrame: isTop))) {
                        objectProblems[position, default: []].insert(problem)
                    }
                }
                var resolved = Self.symbolicate(
                    frame: frame, isTopFrame: isTop, image: image, session: session, requireDWARF: key.requireDWARF)
                if unverified.contains(position), var levels = resolved {
                    for i in levels.indices { levels[i].isUnverified = true }
                    resolved = levels
                }
                chain = resolved
                if chains.count < Self.chainCacheLimit { chains[key] = .some(resolved) }
                summary.addressesLookedUp += 1
            }
            if let resolved = chain {
                frame.symbolication = resolved
                summary.framesSymbolicated += 1
                if image.isAppOwned { summary.appFramesSymbolicated += 1 }
            } else if image.isAppOwned, !frame.isUnsymbolicated {
                summary.appFramesSymbolicated += 1
            }
        }
        for (position, problems) in objectProblems.sorted(by: { $0.key < $1.key }) {
            let image = images[position]
            for problem in problems.sorted(by: { $0.object < $1.object }) {
                summary.diagnostics.append(
                    ImageDiagnostic(
                        kind: .objectFileProblem, imageName: image.name, uuid: image.debugID, arch: image.arch,
                        isAppImage: image.isAppOwned, debugFile: problem.object, detail: problem.description))
            }
        }
        report.notePlaceholderNames()
        return summary
    }

    /// What decides a frame's chain: the same image, address, top-of-stack and DWARF
    /// requirement always give the same answer.
    private struct ChainKey: Hashable {
        var image: Int
        var address: UInt64
        var isTop: Bool
        var requireDWARF: Bool
    }

    /// Chains remembered per run at most: a report of a million distinct addresses gains nothing
    /// from remembering them, and its cache would only add to the peak.
    static let chainCacheLimit = 1 << 16

    /// The inline chain for one frame, or nil when the debug file knows nothing there (or,
    /// with `requireDWARF`, when only its symbol table does: a name the report already gave
    /// is then kept rather than swapped for another name without a file and line).
    static func symbolicate(
        frame: Frame, isTopFrame: Bool, image: BinaryImage, session: any DebugLookup, requireDWARF: Bool = false
    ) -> [SymbolicatedFrame]? {
        let slide = ImageSlide(loadAddress: image.loadAddress, linkedAddress: session.linkedAddress)
        let fileAddress = slide.fileAddress(ImageSlide.lookupAddress(frame.address, isTopFrame: isTopFrame))
        guard let result = session.lookup(fileAddress: fileAddress), !result.frames.isEmpty else { return nil }
        if requireDWARF && result.source != .dwarf { return nil }
        let originalFileAddress = slide.fileAddress(frame.address)
        return result.frames.map { source in
            let base = originalFileAddress >= source.functionStart ? originalFileAddress : fileAddress
            var level = SymbolicatedFrame(
                function: source.function,
                offsetInFunction: base &- source.functionStart,
                file: source.file,
                line: source.line,
                column: source.column,
                isInlined: source.isInlined,
                nameSource: source.nameSource == .dwarf ? .debugInfo : .symbolTable
            )
            level.isGuess = source.isGuess
            return level
        }
    }

    private enum Match {
        /// `verified` is false for a match by image name alone (the report had no UUID).
        case matched(any DebugLookup, DebugFileEntry, verified: Bool)
        case problem(ImageDiagnostic)
        case nothing
    }

    /// Finds the debug file for an image by UUID (and arch when several slices share it).
    /// Images without any candidate are only reported when they are app-owned or when a
    /// debug file of the same name exists (a wrong build is always worth saying).
    private func match(_ image: BinaryImage, reportArchitecture: Architecture?, remote: WantedDebugFile? = nil) -> Match {
        guard let uuid = image.debugID else { return matchByName(image, arch: image.arch ?? reportArchitecture) }
        var candidates = index.entries(id: uuid, preferring: image.arch)
        if candidates.isEmpty, let remote, let remoteDebugFiles {
            candidates = remoteDebugFiles.entries(for: remote)
        }
        if !candidates.isEmpty {
            // Best candidate with DWARF wins; a symbol-table-only match is kept as a fallback,
            // and if nothing opens, the first failure is what the user needs to hear about.
            // A binary answering through its debug map (objects elsewhere) gives way to a dSYM.
            var fallback: (any DebugLookup, DebugFileEntry)?
            var mapped: (any DebugLookup, DebugFileEntry)?
            var firstFailure: (DebugInfoError, DebugFileEntry)?
            for candidate in candidates {
                switch sessions.session(for: candidate) {
                case .success(let session as DebugMapLookup):
                    if mapped == nil { mapped = (session, candidate) }
                case .success(let session):
                    if session.hasDWARF { return .matched(session, candidate, verified: true) }
                    if fallback == nil { fallback = (session, candidate) }
                case .failure(let error):
                    if firstFailure == nil { firstFailure = (error, candidate) }
                }
            }
            if let (session, entry) = mapped ?? fallback { return .matched(session, entry, verified: true) }
            if let (error, entry) = firstFailure {
                return .problem(
                    ImageDiagnostic(
                        kind: .unreadableDebugFile, imageName: image.name, uuid: uuid, arch: image.arch,
                        isAppImage: image.isAppOwned, debugFile: entry.displayPath, detail: error.message))
            }
        }
        let sameName = index.entries(imageName: image.name)
        if let other = sameName.first(where: { $0.architecture == image.arch }) ?? sameName.first {
            return .problem(
                ImageDiagnostic(
                    kind: .uuidMismatch, imageName: image.name, uuid: uuid, arch: image.arch,
                    isAppImage: image.isAppOwned, debugFile: other.displayPath, debugFileUUID: other.debugID))
        }
        if image.isAppOwned {
            return .problem(ImageDiagnostic(kind: .missingDebugFile, imageName: image.name, uuid: uuid, arch: image.arch, isAppImage: true))
        }
        return .nothing
    }

    /// An image without a UUID (cut report, image known only from frame lines): the debug
    /// file of the same name, when exactly one build of it is among the inputs. The match is
    /// unverified and said so.
    private func matchByName(_ image: BinaryImage, arch: Architecture?) -> Match {
        let sameName = index.entries(imageName: image.name)
        let builds = Set(sameName.map(\.debugID))
        guard !sameName.isEmpty else {
            return image.isAppOwned
                ? .problem(ImageDiagnostic(kind: .missingUUID, imageName: image.name, uuid: nil, arch: image.arch, isAppImage: true))
                : .nothing
        }
        // A fat dSYM has one UUID per slice: pick the slice of the report's architecture.
        let ofArch = arch.map { a in sameName.filter { $0.architecture == a } } ?? []
        let candidates = ofArch.isEmpty ? sameName : ofArch
        guard Set(candidates.map(\.debugID)).count == 1 || builds.count == 1 else {
            return .problem(
                ImageDiagnostic(
                    kind: .ambiguousName, imageName: image.name, uuid: nil, arch: arch, isAppImage: image.isAppOwned,
                    detail: candidates.map { "\($0.displayPath) <\($0.debugID)>" }.joined(separator: ", ")))
        }
        let ranked = index.entries(id: candidates[0].debugID, preferring: arch).filter {
            $0.path.hasSuffix("/" + image.name) || ($0.path as NSString).lastPathComponent == image.name
        }
        var firstFailure: (DebugInfoError, DebugFileEntry)?
        for candidate in ranked.isEmpty ? candidates : ranked {
            switch sessions.session(for: candidate) {
            case .success(let session): return .matched(session, candidate, verified: false)
            case .failure(let error): if firstFailure == nil { firstFailure = (error, candidate) }
            }
        }
        if let (error, entry) = firstFailure {
            return .problem(
                ImageDiagnostic(
                    kind: .unreadableDebugFile, imageName: image.name, uuid: nil, arch: arch,
                    isAppImage: image.isAppOwned, debugFile: entry.displayPath, detail: error.message))
        }
        return .nothing
    }
}

extension Annotator {
    /// Parses and symbolicates one report file.
    package func symbolicate(contentsOf path: String) throws(CrashReportError) -> (CrashReport, SymbolicationSummary) {
        var report = try CrashReport.parse(contentsOf: path)
        let summary = annotate(&report)
        return (report, summary)
    }
}
