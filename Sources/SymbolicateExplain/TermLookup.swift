import Foundation
import SymbolicateCrashReport

/// The answer to `symbolicate explain TERM`: the entries that match, decoded numbers,
/// and — when nothing matches — the nearest spellings the knowledge base knows.
package struct TermExplanation: Codable, Sendable {
    package let query: String
    /// The matching entries, their prose in `language`.
    package let entries: [LocalizedEntry]
    /// Lines derived from the query itself (decoded bit fields, address classification).
    package let decoded: [String]
    /// Suggestions when the term is not known.
    package let nearMatches: [String]
    /// The language of the prose.
    package let language: Language

    package var isKnown: Bool { !entries.isEmpty }
}

extension KnowledgeBase {
    /// Explains a term as typed by a user: a name (`EXC_BAD_ACCESS`, `SIGABRT`), a code in hex
    /// or decimal (`0x8badf00d`, `2343432205`), a report line fragment
    /// (`EXC_BAD_ACCESS (SIGSEGV)`, `KERN_INVALID_ADDRESS at 0x10`, `Namespace SPRINGBOARD, Code 0x8badf00d`,
    /// `GUARD 2305845208237028115`) or a message (`Fatal error: Index out of range`).
    package func explain(_ rawQuery: String, language: Language = .english) -> TermExplanation {
        let trimmed = rawQuery.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(["\"", "'"]))
        // A line copied from a report keeps its field label (`Exception Type:  EXC_CRASH (SIGKILL)`).
        let (label, query) = Self.splitReportLabel(trimmed)
        var found: [KnowledgeEntry] = []
        var decoded: [Phrase] = []
        func add(_ more: [KnowledgeEntry]) {
            for entry in more where !found.contains(entry) { found.append(entry) }
        }

        guard !query.isEmpty else {
            return TermExplanation(query: rawQuery, entries: [], decoded: [], nearMatches: [], language: language)
        }
        add(entries(named: query))

        if found.isEmpty { explainStructured(query, add: add, decoded: &decoded) }
        if found.isEmpty, let value = parseNumber(query) { explainNumber(value, add: add, decoded: &decoded) }
        if found.isEmpty { add(entries(matchingText: query)) }
        if found.isEmpty, label == "Exception Codes" { explainCodePair(query, add: add, decoded: &decoded) }
        if found.isEmpty { explainWords(query, add: add, decoded: &decoded) }

        let suggestions = found.isEmpty ? nearMatches(for: query) : []
        return TermExplanation(
            query: trimmed, entries: found.map { $0.localized(language) }, decoded: decoded.map { $0.text(language) },
            nearMatches: suggestions, language: language)
    }

    /// How much of a query is compared with the known spellings for suggestions.
    static let nearMatchQueryLength = 200

    /// Field labels of the report lines that hold terms.
    static let reportLabels: Set<String> = [
        "Exception Type", "Exception Codes", "Exception Code", "Exception Subtype", "Exception Note", "Exception Reason",
        "Exception Message", "Termination Reason", "Termination Description", "Termination Signal", "Crashed Thread",
    ]

    /// `("Exception Type", "EXC_CRASH (SIGKILL)")` for a report line; `(nil, text)` otherwise.
    static func splitReportLabel(_ text: String) -> (label: String?, rest: String) {
        guard let colon = text.firstIndex(of: ":") else { return (nil, text) }
        let label = text[..<colon].trimmedBlanks
        guard reportLabels.contains(label) else { return (nil, text) }
        return (label, text[text.index(after: colon)...].trimmedBlanks)
    }

    /// `0x0000000000000001, 0x000000011ecc5adc`: the exception's code and, for memory faults,
    /// the address (older reports print no names).
    private func explainCodePair(_ text: String, add: ([KnowledgeEntry]) -> Void, decoded: inout [Phrase]) {
        let numbers = text.split(separator: ",").compactMap { parseNumber($0.trimmedBlanks) }
        guard numbers.count == 2, numbers[0] != 0 else { return }
        let codes = entries(kind: .exceptionCode, value: numbers[0])
        guard !codes.isEmpty else { return }
        add(codes)
        decoded.append(
            Phrase(
                .decodedCodePair,
                [
                    "code": .text(hex(numbers[0])), "terms": .text(codes.map(\.term).joined(separator: ", ")),
                    "address": FaultAddress.describe(FaultAddress(address: numbers[1], stripped: nil), address: numbers[1]),
                ]))
    }

    /// A report line that is not itself a term (`EXC_RESOURCE RESOURCE_TYPE_MEMORY (limit=50 MB,
    /// unused=0x0)`): the words in it that are — names in capitals with underscores, and
    /// termination codes such as 0xc00010ff.
    private func explainWords(_ text: String, add: ([KnowledgeEntry]) -> Void, decoded: inout [Phrase]) {
        var named: [String] = []
        for word in text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init) where word.count >= 3 {
            let matches: [KnowledgeEntry]
            if let code = ReportNumber.parseMarkedHex(word) {
                matches = entries(kind: .terminationCode, value: code)
            } else if word == word.uppercased(), word.first?.isLetter == true {
                matches = entries(named: word)
            } else {
                matches = []
            }
            if !matches.isEmpty {
                named.append(word)
                add(matches)
            }
        }
        if named.count > 1 { decoded.append(Phrase(.decodedTermsInLine, ["terms": .text(named.joined(separator: ", "))])) }
    }

    /// Report-line shapes: `TYPE (SIGNAL)`, `SUBTYPE at 0xADDR [-> 0xADDR]`, termination reasons.
    /// The exception's lines are read by the report's own field readers (`ExceptionInfo`), so a
    /// line means here what it means in a report.
    private func explainStructured(_ query: String, add: ([KnowledgeEntry]) -> Void, decoded: inout [Phrase]) {
        // EXC_BAD_ACCESS (SIGSEGV), EXC_CRASH (SIGKILL - CODESIGNING): an `Exception Type` field.
        let typeField = ExceptionInfo(typeField: query)
        if typeField.signal != nil, let type = typeField.type {
            let facts = typeField.facts
            let parts = entries(named: type) + (facts.signalName.map { entries(named: $0) } ?? [])
            if !parts.isEmpty {
                add(parts)
                if facts.isCodeSignatureInvalid { add(entries(named: "CODESIGNING")) }
                return
            }
        }
        // KERN_INVALID_ADDRESS at 0x0000000000000010 [-> 0x…]: an `Exception Subtype` field.
        let subtypeFacts = ExceptionInfo(subtype: query).facts
        if let fault = subtypeFacts.fault, let name = fault.name {
            add(entries(named: name))
            let address = FaultAddress(address: fault.address, stripped: fault.strippedAddress)
            decoded.append(FaultAddress.describe(address, address: fault.address))
            add(FaultAddress.entries(for: address, in: self))
            if subtypeFacts.isPointerAuthenticationFailure { add(entries(named: "POINTER_AUTHENTICATION_FAILURE")) }
            return
        }
        // Namespace SPRINGBOARD, Code 0x8badf00d  |  FRONTBOARD 2343432205  |  DYLD 1 Library missing
        let words = query.replacingOccurrences(of: ",", with: " ")
            .split(separator: " ").map(String.init)
            .filter { !["NAMESPACE", "CODE"].contains($0.uppercased()) }
        if words.count >= 2, let namespaceEntry = namespace(words[0]), let code = parseNumber(words[1]) {
            add([namespaceEntry])
            add(TerminationReason.entries(namespace: namespaceEntry.term, code: code, in: self))
            decoded.append(contentsOf: TerminationReason.decodedLines(namespace: namespaceEntry.term, code: code))
        }
    }

    private func explainNumber(_ value: UInt64, add: ([KnowledgeEntry]) -> Void, decoded: inout [Phrase]) {
        let magic = entries(kind: .terminationCode, value: value)
        if !magic.isEmpty {
            add(magic)
            return
        }
        // Small numbers are ambiguous: say which kinds of values they could be.
        let kinds: [TermKind] = [.exceptionType, .signal, .exceptionCode, .terminationNamespace]
        let candidates = kinds.flatMap { entries(kind: $0, value: value) }
        if !candidates.isEmpty {
            add(candidates)
            if candidates.count > 1 {
                decoded.append(Phrase(.decodedAmbiguous, ["value": .text(String(value))]))
            }
        }
    }

    /// Near spellings: close by edit distance, or sharing a substring of reasonable length.
    ///
    /// Linear in the query: only its first `nearMatchQueryLength` characters are compared (a
    /// term is a few words; many thousands typed or pasted are not a misspelling of one), the
    /// lengths are counted once, and the edit distance is computed only for keys whose length
    /// is within the threshold of the query's (the distance is at least the difference).
    package func nearMatches(for query: String, limit: Int = 6) -> [String] {
        let needle = Self.normalize(String(query.prefix(Self.nearMatchQueryLength)))
        let needleCount = needle.count
        var scored: [(key: String, score: Int)] = []
        var seen = Set<String>()
        for key in allKeys {
            let candidate = Self.normalize(key)
            guard !seen.contains(candidate) else { continue }
            seen.insert(candidate)
            let candidateCount = candidate.count
            let threshold = max(2, min(needleCount, candidateCount) / 3)
            let distance = abs(needleCount - candidateCount) > threshold ? threshold + 1 : editDistance(needle, candidate)
            if distance <= threshold {
                scored.append((key, distance))
            } else if needleCount >= 3,
                (needleCount <= candidateCount && candidate.contains(needle))
                    || (candidateCount >= 4 && candidateCount <= needleCount && needle.contains(candidate))
            {
                scored.append((key, threshold + 1 + abs(candidateCount - needleCount) / 4))
            }
        }
        return scored.sorted { ($0.score, $0.key) < ($1.score, $1.key) }.prefix(limit).map(\.key)
    }
}

/// Levenshtein distance over characters; inputs are short terms (also the CLI's subcommand names).
package func editDistance(_ lhs: String, _ rhs: String) -> Int {
    let a = Array(lhs), b = Array(rhs)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

extension FaultAddress {
    /// A plain-language sentence about the address.
    static func describe(_ fault: FaultAddress, address: UInt64) -> Phrase {
        let value = Phrase.text(hex(address))
        switch fault {
        case .null:
            return Phrase(.addressNull)
        case .nearNull(let offset):
            return Phrase(.addressNearNull, ["address": value, "offset": .text(hex(offset))])
        case .objcConcurrentAccess:
            return Phrase(.addressBad0, ["address": value])
        case .highBits(let stripped):
            if let stripped {
                return Phrase(.addressHighBitsStripped, ["address": value, "stripped": .text(hex(stripped))])
            }
            return Phrase(.addressHighBits, ["address": value])
        case .other:
            return Phrase(.addressOrdinary, ["address": value])
        }
    }

    /// Knowledge-base entries that explain the address pattern.
    static func entries(for fault: FaultAddress, in base: KnowledgeBase) -> [KnowledgeEntry] {
        switch fault {
        case .null, .nearNull: base.entries(named: "NULL_POINTER_DEREFERENCE")
        case .objcConcurrentAccess: base.entries(named: "0xbad0")
        case .highBits: base.entries(named: "POINTER_AUTHENTICATION_FAILURE")
        case .other: []
        }
    }
}

/// Interpreting `namespace + code` pairs.
enum TerminationReason {
    /// Namespaces whose codes are small enumerations rather than magic numbers.
    static let scopedNamespaces: Set<String> = ["DYLD", "CODESIGNING", "EXEC", "LIBSYSTEM", "LIBXPC"]

    static func entries(namespace: String, code: UInt64, in base: KnowledgeBase) -> [KnowledgeEntry] {
        let name = namespace.uppercased()
        switch name {
        case "SIGNAL":
            return base.entries(kind: .signal, value: code)
        case "JETSAM":
            return base.entries(kind: .jetsamReason, value: code)
        case "GUARD":
            let guardCode = GuardCode(code)
            return guardCode.typeName.map { base.entries(named: $0) } ?? []
        case _ where scopedNamespaces.contains(name):
            return base.entries(kind: .namespaceCode, value: code, namespace: name)
        default:
            return base.entries(kind: .terminationCode, value: code)
        }
    }

    static func decodedLines(namespace: String, code: UInt64) -> [Phrase] {
        if namespace.uppercased() == "GUARD" {
            return [Phrase(.decodedGuardCode, ["code": .text(hex(code)), "summary": .text(GuardCode(code).summary)])]
        }
        return []
    }
}
