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
    }

    public var kind: Kind
    public var imageName: String
    public var uuid: String?
    public var arch: String?
    public var isAppImage: Bool
    /// The debug file concerned (mismatched or unreadable), as shown to the user.
    public var debugFile: String?
    /// UUID of `debugFile` when it differs from the report's.
    public var debugFileUUID: String?
    /// Extra detail (e.g. the read error).
    public var detail: String?

    public var description: String {
        let id = [uuid, arch].compactMap { $0 }.joined(separator: " ")
        switch kind {
        case .missingDebugFile:
            return "no dSYM for \(imageName)\(id.isEmpty ? "" : " <\(id)>")"
        case .uuidMismatch:
            return "dSYM \(debugFile ?? "?") has UUID \(debugFileUUID ?? "?") but the report expects \(uuid ?? "?") for \(imageName)"
        case .missingUUID:
            return "\(imageName) has no UUID in the report; not symbolicated"
        case .unreadableDebugFile:
            return "cannot read \(debugFile ?? "?") for \(imageName): \(detail ?? "unknown error")"
        }
    }
}
