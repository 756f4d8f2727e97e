/// The rules that say what a value is: field names, path positions, shapes.
enum ScrubRules {
    /// Field names (letters and digits only, lower case: `Incident Identifier`, `incident_id`
    /// and `incidentID` are one name) whose value identifies a person, device or incident.
    static let identityFields: [String: ScrubKind] = [
        "incidentidentifier": .incident, "incident": .incident, "incidentid": .incident, "eventid": .incident,
        "crashreporterkey": .reporterKey, "anonymousuuid": .reporterKey, "anonuuid": .reporterKey,
        "deviceapphash": .reporterKey, "reporterkey": .reporterKey,
        "betaidentifier": .betaIdentifier, "betaid": .betaIdentifier,
        "sleepwakeuuid": .session, "bootsessionuuid": .session, "bootsessionid": .session, "bootuuid": .session,
        "udid": .udid, "deviceudid": .udid, "deviceidentifier": .udid, "identifierforvendor": .udid,
        "serialnumber": .serialNumber, "hardwareserialnumber": .serialNumber, "serial": .serialNumber,
        "devicename": .deviceName, "computername": .deviceName, "hostname": .deviceName, "localhostname": .deviceName,
        "email": .email, "emailaddress": .email, "useremail": .email,
        "ipaddress": .ipv4, "clientip": .ipv4, "remoteip": .ipv4,
        "username": .userName, "shortusername": .userName, "fullname": .userName, "login": .userName,
    ]

    /// Field names that identify only inside an object of a given name (Sentry's
    /// `contexts.device.name`, `user.id`): parent name → member name → kind.
    static let nestedIdentityFields: [String: [String: ScrubKind]] = [
        "device": ["name": .deviceName, "id": .udid],
        "user": ["name": .userName, "id": .userName, "email": .email],
    ]

    /// Home folder names that name nobody (and the placeholders public reports already use).
    static let anonymousHomes: Set<String> = ["shared", "user", "username", "guest", "me", "you", "runner", "$user", "${user}"]

    /// File name extensions that follow an `@` in names that are no e-mail address
    /// (`icon@2x.png`, `symbol@GOT.plt`).
    static let fileExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "pdf", "plt", "so", "dylib", "swift", "json", "ips", "crash", "txt", "framework", "app",
        "bundle", "dsym", "plist", "strings", "nib", "car", "storyboardc", "mm", "cpp", "xib", "appex", "got", "heic",
    ]

    /// The key a field name is looked up by.
    static func fieldKey<S: Sequence<UInt8>>(_ name: S) -> String {
        String(decoding: name.filter(isAlphanumeric).map(lowercased), as: UTF8.self)
    }

    /// An identifier in one spelling: upper case, no dashes (`4c4c443b-5555-…` = `4C4C443B5555…`).
    static func identity(_ value: String) -> String {
        String(value.uppercased().filter { $0 != "-" })
    }

    /// The key of the run's placeholder table: identifiers compare without case.
    static func normalised(_ value: String) -> String {
        value.utf8.allSatisfy { isHexDigit($0) || $0 == UInt8(ascii: "-") } ? value.uppercased() : value
    }

    static func isAlphanumeric(_ b: UInt8) -> Bool { isDigit(b) || isLetter(b) }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
    static func isHexDigit(_ b: UInt8) -> Bool { isDigit(b) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x66) }
    /// Letters, digits, `_` and any non-ASCII byte: what continues a word.
    static func isWord(_ b: UInt8) -> Bool { isAlphanumeric(b) || b == UInt8(ascii: "_") || b >= 0x80 }
    static func lowercased(_ b: UInt8) -> UInt8 { isLetter(b) ? b | 0x20 : b }

    /// `8-4-4-4-12` hex digits.
    static func isUUID(_ s: ArraySlice<UInt8>) -> Bool {
        guard s.count == 36 else { return false }
        for (offset, b) in s.enumerated() {
            if [8, 13, 18, 23].contains(offset) {
                if b != UInt8(ascii: "-") { return false }
            } else if !isHexDigit(b) {
                return false
            }
        }
        return true
    }

    /// Identifier-shaped: 16 or more hex digits (dashes allowed), so replacing every other
    /// occurrence of it cannot hit ordinary words or numbers.
    static func isIdentifierShaped(_ value: String) -> Bool {
        let digits = value.utf8.filter { $0 != UInt8(ascii: "-") }
        return digits.count >= 16 && digits.allSatisfy(isHexDigit)
    }
}

/// Finds the candidates of one text (see `Scrubber`).
struct CandidateFinder {
    let bytes: [UInt8]
    /// Image identities (upper case, no dashes) that are never replaced.
    let kept: Set<String>
    private(set) var candidates: [Candidate] = []
    /// Identifier-shaped values found in fields (and given by the readers): replaced everywhere.
    private var identifiers: [(value: [UInt8], kind: ScrubKind)] = []
    /// Where the whole value of any named field lies: such a value is what its name says it
    /// is (`"logWritingSignature"`, a hash), never taken for a UDID by its shape.
    private var namedValues: Set<Range<Int>> = []

    init(bytes: [UInt8], kept: Set<String>) {
        self.bytes = bytes
        self.kept = kept
    }

    private func isKept(_ range: Range<Int>) -> Bool {
        kept.contains(ScrubRules.identity(String(decoding: bytes[range], as: UTF8.self)))
    }

    /// A placeholder this scrubber writes (`incident-1`, `user-2`): left alone, so scrubbing
    /// twice changes nothing.
    private func isPlaceholder(_ value: String, kind: ScrubKind) -> Bool {
        let prefix = kind == .userName ? "user-" : kind.rawValue + "-"
        return value.hasPrefix(prefix) && value.dropFirst(prefix.count).allSatisfy(\.isNumber) && value.count > prefix.count
    }

    private mutating func add(_ range: Range<Int>, _ kind: ScrubKind) {
        guard !range.isEmpty, !isKept(range) else { return }
        candidates.append(Candidate(range: range, kind: kind))
    }

    /// A field's value: replaced where it stands, and everywhere else when it is identifier-shaped.
    private mutating func addFieldValue(_ range: Range<Int>, _ kind: ScrubKind) {
        let value = String(decoding: bytes[range], as: UTF8.self)
        guard !value.isEmpty, !isPlaceholder(value, kind: kind), !isKept(range) else { return }
        var kind = kind
        if kind == .ipv4 {
            // An address field holds what its shape says (a reserved address names nobody).
            let token = bytes[range]
            if Self.isIPv6(token) { kind = .ipv6 } else if !Self.isIPv4(token) { return }
        }
        candidates.append(Candidate(range: range, kind: kind))
        addIdentifier(value, kind: kind)
    }

    /// A value to replace wherever it occurs, when it is identifier-shaped.
    mutating func addIdentifier(_ value: String, kind: ScrubKind) {
        guard ScrubRules.isIdentifierShaped(value), !kept.contains(ScrubRules.identity(value)) else { return }
        let lower = Array(value.utf8.map(ScrubRules.lowercased))
        if !identifiers.contains(where: { $0.value == lower }) { identifiers.append((lower, kind)) }
    }

    // MARK: Fields

    /// Text `Key: value` lines and JSON `"key": "value"` members.
    mutating func findFields() {
        findTextFields()
        findJSONFields()
    }

    private mutating func findTextFields() {
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D { lineEnd += 1 }
            textField(in: lineStart..<lineEnd)
            lineStart = lineEnd + 1
        }
    }

    /// `Incident Identifier: 59C2…`: a key of letters, digits, spaces and `/_-` up to the first
    /// colon, then the value to the end of the line (trailing blanks left).
    private mutating func textField(in line: Range<Int>) {
        var i = line.lowerBound
        while i < line.upperBound, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        let keyStart = i
        while i < line.upperBound, bytes[i] != UInt8(ascii: ":") {
            let b = bytes[i]
            guard ScrubRules.isAlphanumeric(b) || b == 0x20 || b == UInt8(ascii: "/") || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
            else { return }
            i += 1
        }
        guard i < line.upperBound, i - keyStart >= 2, i - keyStart <= 40 else { return }
        let kind = ScrubRules.identityFields[ScrubRules.fieldKey(bytes[keyStart..<i])]
        i += 1
        while i < line.upperBound, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        var end = line.upperBound
        while end > i, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        namedValues.insert(i..<end)
        if let kind { addFieldValue(i..<end, kind) }
    }

    /// The end of the JSON string whose opening quote is at `start` (the index of its closing
    /// quote), or nil when the line ends first (a quote in a text report).
    private func stringEnd(from start: Int) -> Int? {
        var i = start + 1
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\\"): i += 2
            case UInt8(ascii: "\""): return i
            case 0x0A, 0x0D: return nil
            default: i += 1
            }
        }
        return nil
    }

    private func skipBlanks(_ i: inout Int) {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
    }

    /// Every `"key" : "value"` member, with the name of the object each lies in (for
    /// `nestedIdentityFields`); strings are skipped whole, so braces inside them do not count.
    private mutating func findJSONFields() {
        var parents: [String?] = []
        var pendingParent: String?
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "{"):
                if parents.count < 256 { parents.append(pendingParent) }
                pendingParent = nil
                i += 1
            case UInt8(ascii: "}"):
                _ = parents.popLast()
                pendingParent = nil
                i += 1
            case UInt8(ascii: "\""):
                guard let keyEnd = stringEnd(from: i) else {
                    i += 1
                    continue
                }
                let key = ScrubRules.fieldKey(bytes[(i + 1)..<keyEnd])
                var j = keyEnd + 1
                skipBlanks(&j)
                guard j < bytes.count, bytes[j] == UInt8(ascii: ":") else {
                    i = keyEnd + 1
                    continue
                }
                j += 1
                skipBlanks(&j)
                pendingParent = key
                if j < bytes.count, bytes[j] == UInt8(ascii: "\""), let valueEnd = stringEnd(from: j) {
                    namedValues.insert((j + 1)..<valueEnd)
                    let parent = parents.last ?? nil
                    if let kind = parent.flatMap({ ScrubRules.nestedIdentityFields[$0]?[key] }) ?? ScrubRules.identityFields[key] {
                        addFieldValue((j + 1)..<valueEnd, kind)
                    }
                    i = valueEnd + 1
                } else {
                    i = j
                }
            default:
                i += 1
            }
        }
    }

    /// Every other occurrence of the identifiers found, whole words only, any case.
    mutating func findIdentifierOccurrences() {
        guard !identifiers.isEmpty else { return }
        for (value, kind) in identifiers {
            guard let first = value.first else { continue }
            var i = 0
            while i + value.count <= bytes.count {
                if ScrubRules.lowercased(bytes[i]) == first, (i == 0 || !ScrubRules.isWord(bytes[i - 1])),
                    i + value.count == bytes.count || !ScrubRules.isWord(bytes[i + value.count]),
                    bytes[i..<(i + value.count)].map(ScrubRules.lowercased).elementsEqual(value)
                {
                    candidates.append(Candidate(range: i..<(i + value.count), kind: kind))
                    i += value.count
                } else {
                    i += 1
                }
            }
        }
    }

    // MARK: Paths

    /// A path separator at `i`: `/`, or JSON's escaped `\/`. Returns its length.
    private func separator(at i: Int) -> Int? {
        guard i < bytes.count else { return nil }
        if bytes[i] == UInt8(ascii: "/") { return 1 }
        if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") { return 2 }
        return nil
    }

    private func hasPrefix(_ word: String, at i: Int) -> Bool {
        let w = Array(word.utf8)
        return i + w.count <= bytes.count && bytes[i..<(i + w.count)].elementsEqual(w)
    }

    /// User names in home folders and UUID folder names: a simulator's (a folder of `Devices`,
    /// `XCTestDevices`) is its UDID, any other an app's container.
    mutating func findPaths() {
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "/") else {
                i += 1
                continue
            }
            let after = i + 1
            for home in ["Users", "home"] where hasPrefix(home, at: after) {
                if let length = separator(at: after + home.utf8.count) { homeName(from: after + home.utf8.count + length) }
            }
            if after + 36 <= bytes.count, ScrubRules.isUUID(bytes[after..<(after + 36)]), separator(at: after + 36) != nil {
                add(after..<(after + 36), parentComponent(before: i).hasSuffix("Devices") ? .udid : .container)
            }
            i += 1
        }
    }

    /// The folder name that ends at the separator whose `/` is at `slash`.
    private func parentComponent(before slash: Int) -> String {
        var end = slash
        if end > 0, bytes[end - 1] == UInt8(ascii: "\\") { end -= 1 }
        var start = end
        while start > 0, bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private mutating func homeName(from start: Int) {
        var end = start
        while end < bytes.count, !Self.endsPathName(bytes[end]) { end += 1 }
        let name = String(decoding: bytes[start..<end], as: UTF8.self)
        guard !name.isEmpty, !ScrubRules.anonymousHomes.contains(name.lowercased()), !isPlaceholder(name, kind: .userName),
            !name.hasPrefix("$"), !name.hasPrefix("%"), !name.hasPrefix("<")
        else { return }
        add(start..<end, .userName)
    }

    private static func endsPathName(_ b: UInt8) -> Bool {
        [UInt8]("/\\\"' \t\r\n<>:,;()[]{}".utf8).contains(b)
    }

    // MARK: Shapes

    /// E-mail and IP addresses, and the UDID shapes no image identity has.
    mutating func findShapes() {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            let startsWord = i == 0 || !ScrubRules.isWord(bytes[i - 1])
            if b == UInt8(ascii: "@") {
                email(at: i)
                i += 1
            } else if startsWord, ScrubRules.isHexDigit(b) || b == UInt8(ascii: ":") {
                i = max(i + 1, shapesStarting(at: i))
            } else {
                i += 1
            }
        }
    }

    /// The token at `start` (after a non-word byte) as an IPv4, IPv6 or UDID; returns where
    /// scanning goes on.
    private mutating func shapesStarting(at start: Int) -> Int {
        let previous = start > 0 ? bytes[start - 1] : 0x20
        // IPv4: digits and dots, not inside a longer dotted or colon-joined run.
        if ScrubRules.isDigit(bytes[start]), previous != UInt8(ascii: "."), previous != UInt8(ascii: ":") {
            var end = start
            while end < bytes.count, ScrubRules.isDigit(bytes[end]) || bytes[end] == UInt8(ascii: ".") { end += 1 }
            var token = end
            while token > start, bytes[token - 1] == UInt8(ascii: ".") { token -= 1 }
            if end == bytes.count || !(ScrubRules.isWord(bytes[end]) || bytes[end] == UInt8(ascii: ":")),
                Self.isIPv4(bytes[start..<token]), !isVersionContext(start), previous != UInt8(ascii: "("), !isImageLine(start)
            {
                add(start..<token, .ipv4)
                return end
            }
        }
        // IPv6 (with an optional zone), or a hex run that is a UDID.
        var end = start
        while end < bytes.count, ScrubRules.isHexDigit(bytes[end]) || bytes[end] == UInt8(ascii: ":") || bytes[end] == UInt8(ascii: ".") {
            end += 1
        }
        if previous != UInt8(ascii: ":"), previous != UInt8(ascii: "."), bytes[start..<end].contains(UInt8(ascii: ":")) {
            var token = end
            while token > start, bytes[token - 1] == UInt8(ascii: ".") { token -= 1 }
            var zoneEnd = token
            if zoneEnd < bytes.count, bytes[zoneEnd] == UInt8(ascii: "%") {
                zoneEnd += 1
                while zoneEnd < bytes.count, ScrubRules.isAlphanumeric(bytes[zoneEnd]) { zoneEnd += 1 }
            }
            if zoneEnd == bytes.count || !ScrubRules.isWord(bytes[zoneEnd]), Self.isIPv6(bytes[start..<token]) {
                add(start..<zoneEnd, .ipv6)
                return zoneEnd
            }
        }
        end = start
        while end < bytes.count, ScrubRules.isHexDigit(bytes[end]) || bytes[end] == UInt8(ascii: "-") { end += 1 }
        let run = bytes[start..<end]
        if end == bytes.count || !ScrubRules.isWord(bytes[end]) {
            if run.count == 25, run[start + 8] == UInt8(ascii: "-"), run.filter({ $0 == UInt8(ascii: "-") }).count == 1 {
                add(start..<end, .udid)
            } else if run.count == 40, run.allSatisfy(ScrubRules.isHexDigit), !namedValues.contains(start..<end) {
                add(start..<end, .udid)
            }
        }
        return end
    }

    /// Four dotted numbers 0…255, none of the reserved documentation, loopback or
    /// unspecified addresses (they name nobody).
    static func isIPv4(_ token: ArraySlice<UInt8>) -> Bool {
        let parts = token.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        var numbers: [Int] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(ScrubRules.isDigit), part.count == 1 || part.first != UInt8(ascii: "0"),
                let n = Int(String(decoding: part, as: UTF8.self)), n <= 255
            else { return false }
            numbers.append(n)
        }
        let text = String(decoding: token, as: UTF8.self)
        if numbers[0] == 127 || numbers[0] == 0 || numbers == [255, 255, 255, 255] { return false }
        return !["192.0.2.", "198.51.100.", "203.0.113."].contains { text.hasPrefix($0) }
    }

    /// An IPv6 address in full (8 groups) or compressed (`::`, once) form, an IPv4 tail
    /// allowed; not loopback, unspecified or documentation (`2001:db8::/32`).
    static func isIPv6(_ token: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: token, as: UTF8.self).lowercased()
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2, text.filter({ $0 == ":" }).count >= 2 else { return false }
        var groups = 0
        var nonEmpty = 0
        for (h, half) in halves.enumerated() where !half.isEmpty {
            let parts = half.split(separator: ":", omittingEmptySubsequences: false)
            for (p, part) in parts.enumerated() {
                if part.contains(".") {
                    // An IPv4 tail: only last.
                    guard h == halves.count - 1, p == parts.count - 1, isIPv4(ArraySlice(Array(part.utf8))) || part.hasPrefix("127.")
                    else { return false }
                    groups += 2
                    nonEmpty += 1
                } else {
                    guard (1...4).contains(part.count), part.utf8.allSatisfy(ScrubRules.isHexDigit) else { return false }
                    groups += 1
                    if part.contains(where: { $0 != "0" }) { nonEmpty += 1 }
                }
            }
        }
        if halves.count == 2 ? groups > 7 : groups != 8 { return false }
        if nonEmpty < 2 { return false }  // ::, ::1, fe80:: and the like name nobody
        return !text.hasPrefix("2001:db8:") && !text.hasPrefix("2001:0db8:")
    }

    /// A dotted quad on a Binary Images line (`0x7fff… - 0x7fff… com.apple.X (1.0 - 114.20.6.145)`)
    /// is the image's version.
    private func isImageLine(_ i: Int) -> Bool {
        var start = i
        while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
        while start < i, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        return hasPrefix("0x", at: start)
    }

    /// A dotted quad on a line about versions or builds (`Version: 1.2.3.4`) is a version.
    private func isVersionContext(_ i: Int) -> Bool {
        var start = i
        while start > 0, bytes[start - 1] != 0x0A, i - start < 200 { start -= 1 }
        let prefix = String(decoding: bytes[start..<i].map(ScrubRules.lowercased), as: UTF8.self)
        return prefix.contains("version") || prefix.contains("build")
    }

    /// `name@domain.tld`, unless the "domain" is a file name (`icon@2x.png`).
    private mutating func email(at: Int) {
        var start = at
        while start > 0, ScrubRules.isAlphanumeric(bytes[start - 1]) || "._%+-".utf8.contains(bytes[start - 1]) { start -= 1 }
        while start < at, bytes[start] == UInt8(ascii: ".") { start += 1 }
        var end = at + 1
        while end < bytes.count, ScrubRules.isAlphanumeric(bytes[end]) || bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: "-")
        {
            end += 1
        }
        while end > at + 1, bytes[end - 1] == UInt8(ascii: ".") || bytes[end - 1] == UInt8(ascii: "-") { end -= 1 }
        guard start < at, end > at + 1 else { return }
        let domain = String(decoding: bytes[(at + 1)..<end], as: UTF8.self)
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }), let tld = labels.last, tld.count >= 2,
            tld.utf8.allSatisfy(ScrubRules.isLetter), !ScrubRules.fileExtensions.contains(tld.lowercased())
        else { return }
        if let first = labels.first, first.hasSuffix("x"), first.dropLast().allSatisfy(\.isNumber) { return }
        if domain.lowercased() == "example.invalid" { return }  // a placeholder of ours
        add(start..<end, .email)
    }
}
