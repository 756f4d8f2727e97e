import Foundation

/// The parts of `symbolicate batch`'s `summary.json` the CLI tests read, in one place so every
/// test decodes the file the same way (keys as the batch writer spells them).
public struct BatchSummaryJSON: Decodable, Sendable {
    public struct Group: Decodable, Sendable {
        public var count: Int
        public var signature: String
        public var kind: String
        public var reports: [String]
        public var example: String
        public var app: String?
        public var missing: String?
        public var diagnosis: String?
        public var sourceFile: String?
        public var sourceLine: Int?
    }

    public struct Totals: Decodable, Sendable {
        public var reports: Int
        public var processed: Int
        public var unreadable: Int
        public var groups: Int
        public var otherReports: Int
        public var partialReports: Int
        public var partialGroups: Int
        public var skipped: Int
    }

    public struct Report: Decodable, Sendable {
        public var input: String
        public var kind: String
        public var output: String?
        public var missing: String?
    }

    public struct Missing: Decodable, Sendable {
        public var image: String
        public var isAppImage: Bool
        public var reports: Int
    }

    public struct Unreadable: Decodable, Sendable {
        public var input: String
        public var error: String
    }

    public var totals: Totals
    public var groups: [Group]
    public var otherGroups: [Group]
    public var partialGroups: [Group]
    public var reports: [Report]
    public var skipped: [String]
    /// Why some of `skipped` were never read as reports, by path.
    public var skippedReasons: [String: String]
    public var missingDebugFiles: [Missing]
    public var unreadable: [Unreadable]

    /// Reads `summary.json` from a batch output folder.
    public static func read(from folder: URL) throws -> BatchSummaryJSON {
        try JSONDecoder().decode(BatchSummaryJSON.self, from: Data(contentsOf: folder.appendingPathComponent("summary.json")))
    }
}
