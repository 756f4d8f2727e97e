import Foundation

/// Why a report could not be read. `description` is ready to print:
/// `file.ips:3: JSON body does not parse: expected ',' or '}' in an object (at threads[2].frames[5])`.
public struct CrashReportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        case unreadable, empty, tooLarge, binary, truncated, invalidJSON, headerWithoutBody, notACrashReport
    }
    public var kind: Kind
    public var path: String
    /// 1-based line in the file, when the failure has one.
    public var line: Int?
    /// JSON path inside the body (`threads[2].frames[5]`), for `.ips` failures.
    public var jsonPath: String?
    public var message: String

    public init(kind: Kind, path: String, line: Int? = nil, jsonPath: String? = nil, message: String) {
        self.kind = kind
        self.path = path
        self.line = line
        self.jsonPath = jsonPath
        self.message = message
    }

    public var description: String {
        var s = path
        if let line { s += ":\(line)" }
        s += ": " + message
        if let jsonPath { s += " (at \(jsonPath))" }
        return s
    }
}
