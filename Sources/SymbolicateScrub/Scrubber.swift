/// Replaces what identifies a person, a device or an incident in a report's text with
/// placeholders, and keeps everything symbolication reads (image UUIDs and build IDs,
/// addresses, names, versions).
///
/// It works on the text, not on a model, so every layout the project reads (Apple's text,
/// `.ips`, KSCrash, Sentry, MetricKit, logs) comes out in its own layout; JSON stays valid
/// JSON because a replacement only ever swaps characters inside one JSON string or number-free
/// token for plain ASCII. A value is recognised by what it is, not by an example:
/// - by the field that holds it: a text `Key: value` line or a JSON `"key": "value"` member
///   whose key names an identity (`ScrubRules.identityFields`), and every other occurrence of
///   an identifier-shaped value found so;
/// - by where it sits in a path: the user folder of `/Users/NAME/` and `/home/NAME/`, a UUID
///   folder name (an app container, a simulator device);
/// - by its shape where the shape says it: e-mail and IP addresses, the two UDID shapes no
///   binary identity has (40 hex digits that are no image's build ID, `XXXXXXXX-XXXXXXXXXXXXXXXX`).
///
/// One `Scrubber` serves a whole run: the same value gets the same placeholder in every file.
public struct Scrubber: Sendable {
    /// Normalised value → its placeholder and kind, for the whole run.
    private var assigned: [String: (placeholder: String, kind: ScrubKind)] = [:]
    private var counters: [ScrubKind: Int] = [:]
    /// What was replaced so far, by kind.
    public private(set) var tally = ScrubTally()

    public init() {}

    /// Replaces every identifying value of `text`.
    /// - Parameters:
    ///   - text: a report's text, in any layout.
    ///   - keep: identifiers symbolication needs (image UUIDs, build IDs), in any spelling:
    ///     never replaced, whatever field or path they stand in.
    ///   - known: values the report readers identified (the incident id a KSCrash `report.id`
    ///     or a Sentry `event_id` holds), replaced wherever they occur.
    /// - Returns: the text with placeholders in their places, everything else byte for byte.
    public mutating func scrub(_ text: String, keep: Set<String> = [], known: [(value: String, kind: ScrubKind)] = []) -> String {
        let bytes = Array(text.utf8)
        let kept = Set(keep.map(ScrubRules.identity))
        var finder = CandidateFinder(bytes: bytes, kept: kept)
        finder.findFields()
        for (value, kind) in known { finder.addIdentifier(value, kind: kind) }
        finder.findIdentifierOccurrences()
        finder.findPaths()
        finder.findShapes()
        let chosen = Self.nonOverlapping(finder.candidates)
        guard !chosen.isEmpty else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var position = 0
        for candidate in chosen {
            output += bytes[position..<candidate.range.lowerBound]
            let value = String(decoding: bytes[candidate.range], as: UTF8.self)
            output += placeholder(for: value, kind: candidate.kind).utf8
            position = candidate.range.upperBound
        }
        output += bytes[position...]
        return String(decoding: output, as: UTF8.self)
    }

    /// The run's placeholder for `value`, counted in the tally.
    private mutating func placeholder(for value: String, kind: ScrubKind) -> String {
        let key = ScrubRules.normalised(value)
        if let known = assigned[key] {
            tally.count(known.kind, newValue: false)
            return known.placeholder
        }
        let number = (counters[kind] ?? 0) + 1
        counters[kind] = number
        let placeholder = kind.placeholder(number)
        assigned[key] = (placeholder, kind)
        tally.count(kind, newValue: true)
        return placeholder
    }

    /// The candidates in text order, a later one dropped when it overlaps one already taken
    /// (at the same start, the longer wins: a whole field value over an address inside it).
    static func nonOverlapping(_ candidates: [Candidate]) -> [Candidate] {
        let sorted = candidates.sorted {
            $0.range.lowerBound != $1.range.lowerBound ? $0.range.lowerBound < $1.range.lowerBound : $0.range.count > $1.range.count
        }
        var chosen: [Candidate] = []
        for candidate in sorted where !candidate.range.isEmpty {
            if let last = chosen.last, candidate.range.lowerBound < last.range.upperBound { continue }
            chosen.append(candidate)
        }
        return chosen
    }
}

/// A stretch of the text to replace and what it is.
struct Candidate: Sendable {
    var range: Range<Int>
    var kind: ScrubKind
}

/// What a scrub replaced: per kind, how many distinct values and how many occurrences.
public struct ScrubTally: Sendable, Codable, Equatable {
    public struct Entry: Sendable, Codable, Equatable {
        public var kind: ScrubKind
        /// Distinct values of this kind (each got its own placeholder).
        public var values: Int
        /// Occurrences replaced.
        public var replacements: Int
    }

    /// In `ScrubKind` order; kinds with nothing replaced are left out.
    public private(set) var kinds: [Entry] = []

    public init() {}

    /// All occurrences replaced.
    public var replacements: Int { kinds.reduce(0) { $0 + $1.replacements } }

    /// What was replaced after `earlier` was taken (one file of a run).
    public func since(_ earlier: ScrubTally) -> ScrubTally {
        var result = ScrubTally()
        for entry in kinds {
            let before = earlier.kinds.first { $0.kind == entry.kind }
            let difference = Entry(
                kind: entry.kind, values: entry.values - (before?.values ?? 0),
                replacements: entry.replacements - (before?.replacements ?? 0))
            if difference.replacements > 0 { result.kinds.append(difference) }
        }
        return result
    }

    mutating func count(_ kind: ScrubKind, newValue: Bool) {
        if let index = kinds.firstIndex(where: { $0.kind == kind }) {
            kinds[index].replacements += 1
            if newValue { kinds[index].values += 1 }
        } else {
            kinds.append(Entry(kind: kind, values: newValue ? 1 : 0, replacements: 1))
            kinds.sort { $0.kind < $1.kind }
        }
    }

    /// One line for a terminal: `replaced 5 values: incident 1 (3×), user-name 1 (4×)`, or
    /// that nothing was found.
    public var summary: String {
        guard !kinds.isEmpty else { return "nothing to replace" }
        let parts = kinds.map { "\($0.kind.rawValue) \($0.values) (\($0.replacements)×)" }
        return "replaced \(replacements) occurrence\(replacements == 1 ? "" : "s"): " + parts.joined(separator: ", ")
    }
}
