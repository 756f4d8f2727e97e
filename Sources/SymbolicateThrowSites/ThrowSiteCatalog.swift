import SymbolicateCore

/// One rule an API enforces by throwing (an Objective-C exception, a C++ exception, a runtime
/// stop): how a report shows it (the exception's name, the raising frame, the reason's words),
/// the rule in one sentence, the usual fix, and the public pages it was written from. The data
/// is `Catalogs/throw-sites.json`; `Generated/ThrowSites.generated.swift` is generated from it
/// (`scripts/generate-catalogs.py`, `make catalogs`, as every catalogue).
package struct ThrowSiteEntry: Sendable, Equatable {
    /// Stable identifier (`uikit.tableview.invalid-row-count`): JSON output and grouping use it.
    package let id: String
    /// The framework or SDK that enforces the rule, as its vendor names it.
    package let framework: String
    /// Exception names (Objective-C) or thrown types (C++) this entry accepts; empty for any.
    package let exceptions: [String]
    /// Fragments of the raising frame's function name.
    package let symbols: [String]
    /// Fragments of the exception's reason or the report's message.
    package let reasons: [String]
    /// The rule, by language code (`en`, `ja`).
    package let rule: [String: String]
    /// The usual fix, first step, by language code.
    package let fix: [String: String]
    /// Public pages (documentation, the SDK's issue tracker) the entry was written from.
    package let sources: [String]

    package init(
        id: String, framework: String, exceptions: [String], symbols: [String], reasons: [String], rule: [String: String],
        fix: [String: String], sources: [String]
    ) {
        self.id = id
        self.framework = framework
        self.exceptions = exceptions
        self.symbols = symbols
        self.reasons = reasons
        self.rule = rule
        self.fix = fix
        self.sources = sources
    }
}

extension ThrowSiteEntry {
    /// True when the entry lists no names or lists `name`; a name that carries its message after
    /// a colon (React Native's `RCTFatalException: Unhandled JS Exception: …`) counts as its prefix.
    package func accepts(_ name: String) -> Bool {
        exceptions.isEmpty || exceptions.contains { name == $0 || name.hasPrefix($0 + ":") }
    }
}

/// What a report shows about a throw, read from its typed fields by the caller.
package struct ThrowEvidence: Sendable, Equatable {
    /// The exception's name (`NSInternalInconsistencyException`) or thrown type, when the report names it.
    package var exceptionName: String?
    /// Function names of the raising frames, nearest the throw first: the first frames below
    /// the throwing machinery (`objc_exception_throw`, `__cxa_throw`, the assertion handler).
    package var raisingFrames: [String]
    /// The exception's own reason (or message) when the report carries one: when it does, an
    /// entry that lists reasons must find one of them.
    package var reason: String?
    /// Every line the reason fragments are looked for in: the reason, the exception message,
    /// Application Specific Information, termination details.
    package var texts: [String]

    package init(exceptionName: String? = nil, raisingFrames: [String] = [], reason: String? = nil, texts: [String] = []) {
        self.exceptionName = exceptionName
        self.raisingFrames = raisingFrames
        self.reason = reason
        self.texts = texts
    }
}

/// The entry a report matched, with what matched.
package struct ThrowSiteMatch: Sendable, Equatable {
    package let entry: ThrowSiteEntry
    /// The raising frame whose name holds one of the entry's symbols.
    package let frame: String?
    /// The entry's reason fragment found in the report's text.
    package let reasonFragment: String?
}

package enum ThrowSiteCatalog {
    /// The catalogue's reasons specific enough to say, wherever a line holds one, that a
    /// framework raised that exception: a phrase of at least four words and 25 characters
    /// (`Application tried to present modally a view controller`), not a fragment such as
    /// `beyond bounds` that other text holds too. TCC's sentence is left out: the console wraps
    /// it over lines, and the reader reads it whole by its opening.
    package static let statedReasons: [String] = Array(
        Set(
            entries.filter { $0.framework != "TCC" }.flatMap(\.reasons).filter {
                $0.utf8.count >= 25 && $0.split(separator: " ").count >= 4
            })
    ).sorted()

    /// The entry with `id`.
    package static func entry(id: String) -> ThrowSiteEntry? {
        entries.first { $0.id == id }
    }

    /// The entry whose rule the evidence shows, or nil. An entry needs its symbol in a raising
    /// frame or its reason in the text (an entry that lists reasons must find one whenever the
    /// report has a reason of its own), and an exception name it accepts. Both found beats the
    /// frame alone, which beats the reason alone; among equals the earlier entry wins (the file
    /// lists the narrower rule first). A frame alone that several entries name says nothing:
    /// no match. Byte-exact substring search, every needle in one pass over each text.
    package static func match(_ evidence: ThrowEvidence) -> ThrowSiteMatch? {
        // Which symbols occur in each raising frame and which reasons in the texts, for every
        // entry at once.
        let frameFinds = evidence.raisingFrames.map { name in
            var found = [Bool](repeating: false, count: needles.count)
            needles.mark(in: name, &found)
            return found
        }
        var textFinds = [Bool](repeating: false, count: needles.count)
        for text in evidence.texts { needles.mark(in: text, &textFinds) }
        var best: (score: Int, match: ThrowSiteMatch)?
        var tiedOnFrameAlone = false
        for (position, entry) in entries.enumerated() {
            if let name = evidence.exceptionName, !entry.accepts(name) { continue }
            let ids = needleIDs[position]
            let frame = evidence.raisingFrames.indices.first { f in ids.symbols.contains { frameFinds[f][$0] } }.map {
                evidence.raisingFrames[$0]
            }
            let fragment = entry.reasons.indices.first { textFinds[ids.reasons[$0]] }.map { entry.reasons[$0] }
            if !entry.reasons.isEmpty, evidence.reason != nil, fragment == nil { continue }
            guard frame != nil || fragment != nil else { continue }
            let score = (frame != nil ? 2 : 0) + (fragment != nil ? 1 : 0)
            if let current = best {
                if score == current.score, score == 2 { tiedOnFrameAlone = true }
                if score <= current.score { continue }
            }
            best = (score, ThrowSiteMatch(entry: entry, frame: frame, reasonFragment: fragment))
            tiedOnFrameAlone = false
        }
        guard let best, !(best.score == 2 && tiedOnFrameAlone) else { return nil }
        return best.match
    }

    /// Every entry's symbols and reasons, one needle each (`needleIDs` says which is whose).
    private static let needles = NeedleIndex(entries.flatMap { $0.symbols + $0.reasons })
    private static let needleIDs: [(symbols: [Int], reasons: [Int])] = {
        var next = 0
        return entries.map { entry in
            let symbols = Array(next..<next + entry.symbols.count)
            next += entry.symbols.count
            let reasons = Array(next..<next + entry.reasons.count)
            next += entry.reasons.count
            return (symbols, reasons)
        }
    }()

    /// True when `needle` occurs in `haystack`: Knuth–Morris–Pratt over UTF-8 bytes, so the time
    /// is linear in both lengths whatever the text (no backtracking).
    package static func occurs(_ needle: String, in haystack: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty else { return true }
        var failure = [Int](repeating: 0, count: pattern.count)
        var length = 0
        for index in 1..<max(pattern.count, 1) {
            while length > 0, pattern[index] != pattern[length] { length = failure[length - 1] }
            if pattern[index] == pattern[length] { length += 1 }
            failure[index] = length
        }
        var matched = 0
        for byte in haystack.utf8 {
            while matched > 0, byte != pattern[matched] { matched = failure[matched - 1] }
            if byte == pattern[matched] { matched += 1 }
            if matched == pattern.count { return true }
        }
        return false
    }
}
