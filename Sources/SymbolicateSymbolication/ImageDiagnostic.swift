import SymbolicateCore

/// Why an image of the report was not (fully) symbolicated. Printed on stderr as a short
/// block and included in JSON output, so a missing or wrong dSYM is never silent.
public struct ImageDiagnostic: Sendable, Codable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable {
        /// No debug file with the image's UUID among the inputs.
        case missingDebugFile = "missing-debug-file"
        /// A debug file for an image of that name exists, but for another build (UUID).
        case uuidMismatch = "uuid-mismatch"
        /// The report gives no UUID for the image, so no debug file can be trusted for it.
        case missingUUID = "missing-uuid"
        /// A matching debug file exists but could not be read.
        case unreadableDebugFile = "unreadable-debug-file"
        /// The report gives no UUID (a cut report, an image known only from its frames); a
        /// debug file of the same name was used, unverified.
        case matchedByName = "matched-by-name"
        /// No UUID, and several debug files of that name (different builds): none was used.
        case ambiguousName = "ambiguous-name"
        /// The image's binary answers through its debug map, but an object file the map names
        /// (`debugFile`) is missing or changed since the link: its frames come from the
        /// symbol table.
        case objectFileProblem = "object-file-problem"
    }

    public var kind: Kind
    public var imageName: String
    public var uuid: DebugID?
    public var arch: Architecture?
    public var isAppImage: Bool
    /// The debug file concerned (mismatched or unreadable), as shown to the user.
    public var debugFile: String?
    /// UUID of `debugFile` when it differs from the report's.
    public var debugFileUUID: DebugID?
    /// Extra detail (e.g. the read error).
    public var detail: String?

    public init(
        kind: Kind, imageName: String, uuid: DebugID? = nil, arch: Architecture? = nil, isAppImage: Bool,
        debugFile: String? = nil, debugFileUUID: DebugID? = nil, detail: String? = nil
    ) {
        self.kind = kind
        self.imageName = imageName
        self.uuid = uuid
        self.arch = arch
        self.isAppImage = isAppImage
        self.debugFile = debugFile
        self.debugFileUUID = debugFileUUID
        self.detail = detail
    }

    /// A GNU build ID names the image (a Linux report): ELF wording, not dSYM/UUID.
    private var isELF: Bool { uuid?.kind == .buildID }

    /// An app image left without its build's dSYM (none found, or another build's): the case
    /// where the user has to go and fetch the right dSYM.
    public var needsTheBuildsDSYM: Bool {
        isAppImage && !isELF && (kind == .missingDebugFile || kind == .uuidMismatch)
    }

    /// A Debug build's code (Xcode 16+ `<name>.debug.dylib`), which has no dSYM unless the
    /// build made one: the built app's debug map answers instead.
    public var isDebugBuildCode: Bool { imageName.hasSuffix(".debug.dylib") }

    public var description: String {
        let id = [uuid?.description, arch?.name].compactMap { $0 }.joined(separator: " ")
        switch kind {
        case .missingDebugFile:
            return "no \(isELF ? "debug file" : "dSYM") for \(imageName)\(id.isEmpty ? "" : " <\(id)>")"
        case .uuidMismatch where isELF:
            return
                "debug file \(debugFile ?? "?") has build ID \(debugFileUUID?.description ?? "none") but the report expects \(uuid?.description ?? "?") for \(imageName)"
        case .uuidMismatch:
            return
                "dSYM \(debugFile ?? "?") has UUID \(debugFileUUID?.description ?? "?") but the report expects \(uuid?.description ?? "?") for \(imageName)"
        case .missingUUID:
            return "\(imageName) has no UUID in the report; not symbolicated"
        case .unreadableDebugFile:
            return "cannot read \(debugFile ?? "?") for \(imageName): \(detail ?? "unknown error")"
        case .matchedByName:
            return "\(imageName) has no UUID in the report; matched to \(debugFile ?? "?") by name only: its frames are marked [unverified]"
        case .ambiguousName:
            return "\(imageName) has no UUID in the report and several debug files have that name (\(detail ?? "")); not symbolicated"
        case .objectFileProblem:
            return "\(imageName): \(detail ?? "object file \(debugFile ?? "?") not usable"); its frames are named from the symbol table"
        }
    }
}
