import Foundation
import SymbolicateCrashReport
import SymbolicateDWARF

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

    /// True when some app image had no usable debug file (`--require-all` fails on it).
    public var hasUnsymbolicatedAppImage: Bool {
        diagnostics.contains { $0.isAppImage }
    }
}

/// Rewrites the frames of a report with function, file, line and inline chain from the
/// matching debug files.
///
/// Address arithmetic, named as in the design notes:
/// - `slide = loadAddress − __TEXT vmaddr` of the debug file's slice;
/// - `lookupAddress` = the frame's address for the top frame of each backtrace (a program
///   counter) and `address − 1` for every other frame (a return address points after the
///   call; − 1 lands inside it, as Apple's tools do);
/// - `fileAddress = lookupAddress − slide` is what the DWARF is asked about;
/// - `+ offset` = `address − slide − functionStart`, measured from the original address so
///   it matches what Apple prints.
public struct Annotator: Sendable {
    public struct Options: Sendable {
        /// Also rewrite frames the OS already symbolicated.
        public var resymbolicate = false
        public init(resymbolicate: Bool = false) { self.resymbolicate = resymbolicate }
    }

    public let index: DebugFileIndex
    public let sessions: DebugSessionCache
    public var options: Options

    public init(index: DebugFileIndex, sessions: DebugSessionCache = DebugSessionCache(), options: Options = Options()) {
        self.index = index
        self.sessions = sessions
        self.options = options
    }

    /// Symbolicates `report` in place and says what happened. Never throws: an image whose
    /// debug file is missing or broken is a diagnostic, and its frames stay as they were.
    public func annotate(_ report: inout CrashReport) -> SymbolicationSummary {
        var summary = SymbolicationSummary()
        var sessionForImage: [Int: DebugSession] = [:]

        for (position, image) in report.binaryImages.enumerated() {
            if image.isAppOwned { summary.appImages += 1 }
            switch match(image) {
            case .matched(let session, let entry):
                sessionForImage[position] = session
                summary.debugFiles[image.name] = entry.displayPath
                if image.isAppOwned { summary.appImagesWithDebugFile += 1 }
            case .problem(let diagnostic):
                summary.diagnostics.append(diagnostic)
            case .nothing:
                break
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
        report.updateFrames { (kind: BacktraceKind, frame: inout Frame) in
            if kind != currentKind {
                currentKind = kind
                atTop = true
                previous = nil
            } else if let previous, previous.address != frame.address {
                atTop = false
            }
            let isTop = atTop
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
            if !frame.isUnsymbolicated && (!resymbolicate || continuesInlineChain) {
                if image.isAppOwned { summary.appFramesSymbolicated += 1 }
                return
            }
            if let resolved = Self.symbolicate(frame: frame, isTopFrame: isTop, image: image, session: session) {
                frame.symbolication = resolved
                summary.framesSymbolicated += 1
                if image.isAppOwned { summary.appFramesSymbolicated += 1 }
            } else if image.isAppOwned, !frame.isUnsymbolicated {
                summary.appFramesSymbolicated += 1
            }
        }
        return summary
    }

    /// The inline chain for one frame, or nil when the debug file knows nothing there.
    static func symbolicate(frame: Frame, isTopFrame: Bool, image: BinaryImage, session: DebugSession) -> [SymbolicatedFrame]? {
        let slide = image.loadAddress &- session.textVMAddress
        let lookupAddress = isTopFrame ? frame.address : frame.address &- 1
        let fileAddress = lookupAddress &- slide
        guard let result = session.lookup(fileAddress: fileAddress), !result.frames.isEmpty else { return nil }
        let originalFileAddress = frame.address &- slide
        return result.frames.map { source in
            let base = originalFileAddress >= source.functionStart ? originalFileAddress : fileAddress
            return SymbolicatedFrame(
                function: source.function,
                offsetInFunction: base &- source.functionStart,
                file: source.file,
                line: source.line,
                column: source.column,
                isInlined: source.isInlined
            )
        }
    }

    private enum Match {
        case matched(DebugSession, DebugFileEntry)
        case problem(ImageDiagnostic)
        case nothing
    }

    /// Finds the debug file for an image by UUID (and arch when several slices share it).
    /// Images without any candidate are only reported when they are app-owned or when a
    /// debug file of the same name exists (a wrong build is always worth saying).
    private func match(_ image: BinaryImage) -> Match {
        guard let uuid = image.uuid else {
            return image.isAppOwned
                ? .problem(ImageDiagnostic(kind: .missingUUID, imageName: image.name, uuid: nil, arch: image.arch, isAppImage: true))
                : .nothing
        }
        let candidates = index.entries(uuid: uuid, preferringArch: image.arch)
        if !candidates.isEmpty {
            // Best candidate with DWARF wins; a symbol-table-only match is kept as a fallback,
            // and if nothing opens, the first failure is what the user needs to hear about.
            var fallback: (DebugSession, DebugFileEntry)?
            var firstFailure: (DebugInfoError, DebugFileEntry)?
            for candidate in candidates {
                switch sessions.session(for: candidate) {
                case .success(let session):
                    if session.hasDWARF { return .matched(session, candidate) }
                    if fallback == nil { fallback = (session, candidate) }
                case .failure(let error):
                    if firstFailure == nil { firstFailure = (error, candidate) }
                }
            }
            if let (session, entry) = fallback { return .matched(session, entry) }
            if let (error, entry) = firstFailure {
                return .problem(ImageDiagnostic(
                    kind: .unreadableDebugFile, imageName: image.name, uuid: uuid, arch: image.arch,
                    isAppImage: image.isAppOwned, debugFile: entry.displayPath, detail: error.message))
            }
        }
        let sameName = index.entries(imageName: image.name)
        if let other = sameName.first(where: { $0.arch == image.arch }) ?? sameName.first {
            return .problem(ImageDiagnostic(
                kind: .uuidMismatch, imageName: image.name, uuid: uuid, arch: image.arch,
                isAppImage: image.isAppOwned, debugFile: other.displayPath, debugFileUUID: other.uuid))
        }
        if image.isAppOwned {
            return .problem(ImageDiagnostic(kind: .missingDebugFile, imageName: image.name, uuid: uuid, arch: image.arch, isAppImage: true))
        }
        return .nothing
    }
}
