import SymbolicateCore
import SymbolicateCrashReport

/// The knowledge base: every entry, plus lookups by term, by value and by text.
///
/// Entries live in `KB+*.swift` as plain data; this type only indexes them so the
/// diagnosis and `explain TERM` share one source of truth.
package struct KnowledgeBase: Sendable {
    package let entries: [KnowledgeEntry]
    private let byKey: [String: [Int]]
    /// Positions of the entries of each kind carrying each value: a number from a report is
    /// looked up, not compared with every entry (a report may carry thousands).
    private let byValue: [ValueKey: [Int]]
    /// Every entry's text patterns in one index: the needle ids of each entry's patterns, and
    /// each needle's length (the most specific pattern is the longest).
    private let patterns: (index: NeedleIndex, ids: [[Int]], lengths: [Int])

    private struct ValueKey: Hashable {
        let kind: TermKind
        let value: UInt64
    }

    /// The built-in knowledge base.
    package static let standard = KnowledgeBase(
        entries:
            exceptionTypes + softwareCodes + exceptionCodes + faultPatterns + signals + exceptionNotes
            + guardTypes + resourceTypes + namespaces + namespaceCodes + terminationCodes + jetsamReasons
            + reportTypes + swiftMessages + concurrencyMessages + applicationSpecificMessages
            + objcExceptions + cxxExceptions + dyldErrors + frameSymbols + abortPathFrames + rustPanics + panicFamilies + memoryLimits
            + debugLayerMessages
            + messageClasses)

    package init(entries: [KnowledgeEntry]) {
        self.entries = entries
        var index: [String: [Int]] = [:]
        for (position, entry) in entries.enumerated() {
            for key in Set(([entry.term] + entry.aliases).map(Self.normalize)) {
                index[key, default: []].append(position)
            }
        }
        byKey = index
        var values: [ValueKey: [Int]] = [:]
        for (position, entry) in entries.enumerated() {
            for value in Set(entry.values) {
                values[ValueKey(kind: entry.kind, value: value), default: []].append(position)
            }
        }
        byValue = values
        var needles: [String] = []
        var ids: [[Int]] = []
        for entry in entries {
            ids.append(
                entry.patterns.map { pattern in
                    needles.append(pattern)
                    return needles.count - 1
                })
        }
        patterns = (NeedleIndex(needles), ids, needles.map(\.count))
    }

    /// Case- and whitespace-insensitive key used for exact lookups.
    static func normalize(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ").uppercased()
    }

    /// Entries whose term or an alias equals `key` (ignoring case and spacing).
    package func entries(named key: String) -> [KnowledgeEntry] {
        (byKey[Self.normalize(key)] ?? []).map { entries[$0] }
    }

    /// The entry of a given kind with this exact term or alias.
    package func entry(_ key: String, kind: TermKind) -> KnowledgeEntry? {
        entries(named: key).first { $0.kind == kind }
    }

    /// Entries of `kind` whose numeric value is `value` (optionally within a namespace).
    package func entries(kind: TermKind, value: UInt64, namespace: String? = nil) -> [KnowledgeEntry] {
        let wanted = namespace?.uppercased()
        return (byValue[ValueKey(kind: kind, value: value)] ?? []).map { entries[$0] }.filter {
            wanted == nil || $0.namespace?.uppercased() == wanted
        }
    }

    /// The entry for a termination namespace, accepting FRONTBOARD/SPRINGBOARD style names.
    package func namespace(_ name: String) -> KnowledgeEntry? {
        entry(name, kind: .terminationNamespace)
    }

    /// Entries whose text patterns occur in `text` (case-sensitive, as the reference says),
    /// most specific (longest pattern) first.
    /// The text is read once per pattern, in linear time (`MessageScan.occurs`): it is a report's
    /// line, as long as the report makes it.
    package func entries(matchingText text: String, kinds: Set<TermKind>? = nil) -> [KnowledgeEntry] {
        var found: [(entry: KnowledgeEntry, length: Int)] = []
        // Every entry's patterns are looked for in one pass over the text (`patternIndex`).
        let present = patterns.index.found(in: text)
        // A message class (`limit`, `timed out`) classifies a stated message no entry knows;
        // it is asked for by kind only, never a term's answer of its own.
        // (An entry is copied only when one of its patterns is there: most are not.)
        for position in entries.indices {
            var best: Int?
            for id in patterns.ids[position] where present[id] { best = max(best ?? 0, patterns.lengths[id]) }
            guard let best else { continue }
            let kind = entries[position].kind
            if kinds?.contains(kind) ?? (kind != .messageClass) { found.append((entries[position], best)) }
        }
        return found.sorted { $0.length > $1.length }.map(\.entry)
    }

    /// Every spelling the base knows, for near-match suggestions.
    var allKeys: [String] {
        entries.flatMap { [$0.term] + $0.aliases }
    }
}
