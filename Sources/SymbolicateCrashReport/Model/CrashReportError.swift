import Foundation

/// Why a report could not be read. `description` is ready to print:
/// `file.ips:3: JSON body does not parse: expected ',' or '}' in an object (at threads[2].frames[5])`.
public struct CrashReportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        case unreadable, empty, tooLarge, binary, truncated, invalidJSON, headerWithoutBody, notACrashReport
        /// A binary report (`.plcrash`) whose encoding is broken before its end.
        case damaged
    }
    public var kind: Kind
    public var path: String
    /// 1-based line in the file, when the failure has one.
    public var line: Int?
    /// JSON path inside the body (`threads[2].frames[5]`), for `.ips` failures.
    public var jsonPath: String?
    public var message: String
    /// 0-based byte offset in the file, for binary reports (`.plcrash`), which have no lines.
    public var offset: Int?

    public init(kind: Kind, path: String, line: Int? = nil, jsonPath: String? = nil, offset: Int? = nil, message: String) {
        self.kind = kind
        self.path = path
        self.line = line
        self.jsonPath = jsonPath
        self.offset = offset
        self.message = message
    }

    public var description: String {
        var s = path
        if let line { s += ":\(line)" }
        s += ": " + message
        switch (offset, jsonPath) {
        case (let offset?, let place?): s += " (at byte \(offset), in \(place))"
        case (let offset?, nil): s += " (at byte \(offset))"
        case (nil, let place?): s += " (at \(place))"
        case (nil, nil): break
        }
        return s
    }
}
