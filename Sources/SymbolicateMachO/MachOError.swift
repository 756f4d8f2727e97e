/// A Mach-O file could not be read: says which file, where, and what was wrong.
package struct MachOError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file being read.
    package var path: String
    /// Byte offset in the file where the problem was found, when one applies.
    package var offset: Int?
    /// What was wrong.
    package var message: String

    package init(path: String, offset: Int?, message: String) {
        self.path = path
        self.offset = offset
        self.message = message
    }

    package var description: String {
        if let offset {
            return "\(path): at offset 0x\(String(offset, radix: 16)): \(message)"
        }
        return "\(path): \(message)"
    }
}
