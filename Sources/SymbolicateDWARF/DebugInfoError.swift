/// Debug information could not be read: which file, where (when known), and what was wrong.
public struct DebugInfoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file being read (the DWARF file inside a dSYM bundle when there is one).
    public var path: String
    /// Byte offset in the file, or in the named DWARF section, where the problem was found.
    public var offset: UInt64?
    /// What was wrong, including libdwarf's own message when it reported the problem.
    public var message: String

    public init(path: String, offset: UInt64? = nil, message: String) {
        self.path = path
        self.offset = offset
        self.message = message
    }

    public var description: String {
        if let offset {
            return "\(path): at offset 0x\(String(offset, radix: 16)): \(message)"
        }
        return "\(path): \(message)"
    }
}
