import Foundation
import SymbolicateCore
import SymbolicateJSON

/// A crash reporter's own JSON layout (KSCrash, Sentry), kept as read so `--format ips` can
/// give the symbolicated report back in that layout.
///
/// Readers of these layouts translate what the report says into the terms of an `.ips` body
/// (`usedImages`, `threads[].frames[]` with `imageIndex`/`imageOffset`, `exception`,
/// `termination`, `asi`) and let `IPSParser.fill` build the model, so the model, the Apple
/// text rendering and every later stage are the ones an `.ips` of the same crash gets: the
/// same crash read from any of the three layouts prints the same frame lines.
struct ForeignJSONSource: Sendable {
    enum Layout: String, Sendable {
        case kscrash = "KSCrash"
        case sentry = "Sentry"
    }
    var layout: Layout
    /// The JSON document as read (after the repairs a damaged KSCrash report needed).
    var bytes: [UInt8]
    /// Where this report's object sits in the document (an element of a batch array).
    var reportPath: [JSONPathStep]
    /// For each backtrace of the model, where its frames sit in the document.
    var frameSlots: [BacktraceKind: FrameSlot]
}

enum JSONPathStep: Sendable, Hashable {
    case key(String)
    case index(Int)
}

/// Where one backtrace's frames sit: the path to the JSON array, and for each model frame
/// the element it came from (Sentry lists callers first, so the order is reversed there).
struct FrameSlot: Sendable {
    var path: [JSONPathStep]
    var elements: [Int]
}

extension [JSONPathStep] {
    /// `crash.threads[2].backtrace.contents`, as warnings name places.
    var dotted: String {
        var out = ""
        for step in self {
            switch step {
            case .key(let k): out += out.isEmpty ? k : "." + k
            case .index(let i): out += "[\(i)]"
            }
        }
        return out
    }
}

extension JSONValue {
    /// An `.ips` `exception`'s Mach fields as both reporters record them: the exception's name,
    /// its BSD signal, and `codes` as Apple prints the code and subcode pair.
    mutating func setMachException(_ name: String?, signal: String?, code: UInt64?, subcode: UInt64?) {
        set("type", name.map(JSONValue.string))
        set("signal", signal.map(JSONValue.string))
        set("codes", .string("\(DarwinNames.hex64(code ?? 0)), \(DarwinNames.hex64(subcode ?? 0))"))
    }

    /// The value at `path`, nil when any step is missing.
    func at(_ path: [JSONPathStep]) -> JSONValue? {
        var current: JSONValue? = self
        for step in path {
            switch step {
            case .key(let k): current = current?[k]
            case .index(let i):
                guard let list = current?.arrayValue, list.indices.contains(i) else { return nil }
                current = list[i]
            }
        }
        return current
    }

    /// An address written as a number or as a hex/decimal string (Sentry writes
    /// `"0x000000018a14159c"`, KSCrash plain numbers).
    var addressValue: UInt64? { uint64Value }
}

/// Who crashed, as a foreign report states it: what the `.ips` header line and the opening
/// members of its body say (incident, time, process, app version, OS, device). Both readers
/// fill one, so both layouts open their `.ips` the same way.
struct ForeignIdentity {
    var incident: JSONValue?
    var captureTime: String?
    var processName: String?
    var bundleShortVersion: JSONValue?
    var bundleVersion: JSONValue?
    var bundleIdentifier: JSONValue?
    /// `iOS`, `macOS`, `Mac OS X`…, its version and build.
    var osName: String?
    var osVersion: String?
    var osBuild: JSONValue?
    var model: JSONValue?
    var arch: String?

    /// The `.ips` header line's object: a crash (`bug_type` 309), its incident and app.
    var header: JSONValue {
        var header = JSONValue.object([])
        header.set("bug_type", .string("309"))
        header.set("incident_id", incident)
        header.set("app_name", processName.map(JSONValue.string))
        return header
    }
}

/// Builds the `.ips` body a foreign report is translated into; members keep their order.
struct SynthesizedIPS {
    private(set) var body = JSONValue.object([])
    var images: [JSONValue] = []
    /// Image index by load address, for frames that name their image by address.
    private var imageByBase: [UInt64: Int] = [:]
    private var ranges: [(base: UInt64, end: UInt64, index: Int)] = []

    mutating func set(_ key: String, _ value: JSONValue?) { body.set(key, value) }

    /// The body's opening members from the report's identity.
    mutating func set(_ identity: ForeignIdentity) {
        set("incident", identity.incident)
        set("captureTime", identity.captureTime.map(JSONValue.string))
        set("procName", identity.processName.map(JSONValue.string))
        var bundle = JSONValue.object([])
        bundle.set("CFBundleShortVersionString", identity.bundleShortVersion)
        bundle.set("CFBundleVersion", identity.bundleVersion)
        bundle.set("CFBundleIdentifier", identity.bundleIdentifier)
        if bundle.objectValue?.isEmpty == false { set("bundleInfo", bundle) }
        if let name = identity.osName {
            var os = JSONValue.object([])
            os.set("train", .string([name, identity.osVersion].compactMap { $0 }.joined(separator: " ")))
            os.set("build", identity.osBuild)
            os.set("isEmbedded", .bool(!["macOS", "Mac OS X", "OS X"].contains(name)))
            set("osVersion", os)
        }
        set("modelCode", identity.model)
        if let cpu = identity.arch.flatMap(DarwinNames.cpuType(arch:)) { set("cpuType", .string(cpu)) }
    }

    /// `termination` for a process ended by a signal: its namespace and number, as data (the
    /// writers print the signal's description where Apple's report has it).
    mutating func setSignalTermination(_ number: Int, name: String?) {
        var termination = JSONValue.object([])
        termination.set("namespace", .string("SIGNAL"))
        termination.set("code", .int(number))
        set("termination", termination)
    }

    mutating func addImage(
        base: UInt64, size: UInt64?, uuid: String?, path: String?, name: String?, arch: String?
    ) {
        var image = JSONValue.object([])
        image.set("base", .int(base))
        if let size, size > 0 { image.set("size", .int(size)) }
        if let uuid { image.set("uuid", .string(uuid)) }
        if let path { image.set("path", .string(path)) }
        let shownName = name ?? path.flatMap { $0.split(separator: "/").last.map(String.init) }
        if let shownName { image.set("name", .string(shownName)) }
        if let arch { image.set("arch", .string(arch)) }
        let index = images.count
        images.append(image)
        if imageByBase[base] == nil { imageByBase[base] = index }
        if let size, size > 0 {
            let (last, overflow) = base.addingReportingOverflow(size - 1)
            if !overflow { ranges.append((base, last, index)) }
        }
    }

    /// The image a frame belongs to: by the load address the frame names, else by range.
    func imageIndex(base: UInt64?, address: UInt64) -> Int? {
        if let base, let i = imageByBase[base] { return i }
        return ranges.first { address >= $0.base && address <= $0.end }?.index
    }

    func imageBase(_ index: Int) -> UInt64? { images[index]["base"]?.uint64Value }

    func imageContains(_ index: Int, _ address: UInt64) -> Bool {
        guard let base = imageBase(index), address >= base else { return false }
        if let r = ranges.first(where: { $0.index == index }) { return address <= r.end }
        // No size: accept what lies within 4 GiB of the load address.
        return address - base < 0x1_0000_0000
    }

    /// One `.ips` frame for a runtime address; the address loses pointer-authentication bits
    /// when only the stripped one lands in its image (`stripped` counts those).
    func frame(
        address raw: UInt64, imageBase: UInt64?, symbol: String?, symbolAddress: UInt64?,
        stripped: inout [(UInt64, UInt64)]
    ) -> JSONValue {
        var address = raw
        var index = imageIndex(base: imageBase, address: raw)
        if let i = index, !imageContains(i, raw),
            let plain = PointerAuthentication.stripped(raw, where: { imageContains(i, $0) })
        {
            address = plain
            stripped.append((raw, plain))
        } else if index == nil, let plain = PointerAuthentication.stripped(raw, where: { imageIndex(base: nil, address: $0) != nil }) {
            address = plain
            index = imageIndex(base: nil, address: plain)
            stripped.append((raw, plain))
        }
        var frame = JSONValue.object([])
        if let index, let base = self.imageBase(index), address >= base {
            frame.set("imageOffset", .int(address - base))
            frame.set("imageIndex", .int(index))
        } else {
            frame.set("imageOffset", .int(address))
        }
        if let symbol, !symbol.isEmpty {
            frame.set("symbol", .string(symbol))
            if let symbolAddress, symbolAddress <= address { frame.set("symbolLocation", .int(address - symbolAddress)) }
        }
        return frame
    }

    mutating func finish() { body.set("usedImages", .array(images)) }
}

extension CrashReport {
    /// The model of a foreign report from its translated `.ips` body. Frame warnings of the
    /// translation are dropped (`frameWarnings` name the places in the original instead).
    /// `foreign` is the JSON document to give back for `--format ips`; a binary layout has none
    /// (`--format ips` then writes the translation).
    static func fromForeign(
        _ ips: SynthesizedIPS, identity: ForeignIdentity, path: String, format: ReportFormat, foreign: ForeignJSONSource?,
        warnings: [ParseWarning]
    ) -> CrashReport {
        let header = identity.header
        var ips = ips
        ips.finish()
        // Read back from its own text, as an `.ips` body is (its nesting is the input's, which
        // was read with the default bound, plus a few levels).
        var report = CrashReport(path: path, format: format, source: .none)
        if let body = (try? JSONParser.parseTape(Array(ips.body.compactText().utf8), maxDepth: JSONParser.deepMaxDepth))?.root {
            report.source = .ips(header: header, body: body, headerLine: "")
            IPSParser.fill(&report, from: body)
        }
        report.warnings.removeAll { w in
            guard let p = w.jsonPath else { return false }
            return p.hasPrefix("threads[") || p.hasPrefix("lastExceptionBacktrace") || p.hasPrefix("usedImages")
        }
        report.warnings.append(contentsOf: warnings)
        report.foreign = foreign
        return report.withDetectedKind()
    }
}

/// Names for numbers third-party reporters write without them.
enum DarwinNames {
    static let machExceptions = [
        1: "EXC_BAD_ACCESS", 2: "EXC_BAD_INSTRUCTION", 3: "EXC_ARITHMETIC", 4: "EXC_EMULATION",
        5: "EXC_SOFTWARE", 6: "EXC_BREAKPOINT", 7: "EXC_SYSCALL", 8: "EXC_MACH_SYSCALL",
        9: "EXC_RPC_ALERT", 10: "EXC_CRASH", 11: "EXC_RESOURCE", 12: "EXC_GUARD", 13: "EXC_CORPSE_NOTIFY",
    ]
    /// `kern_return_t` names of an `EXC_BAD_ACCESS` code, as Apple's reports print them.
    static let kernReturns: [UInt64: String] = [1: "KERN_INVALID_ADDRESS", 2: "KERN_PROTECTION_FAILURE"]
    static let signals = [
        1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGEMT",
        8: "SIGFPE", 9: "SIGKILL", 10: "SIGBUS", 11: "SIGSEGV", 12: "SIGSYS", 13: "SIGPIPE",
        14: "SIGALRM", 15: "SIGTERM",
    ]
    /// What Apple's reports print after `Termination Reason: Namespace SIGNAL, Code N`.
    static let signalIndicators = [
        4: "Illegal instruction: 4", 5: "Trace/BPT trap: 5", 6: "Abort trap: 6", 8: "Floating point exception: 8",
        9: "Killed: 9", 10: "Bus error: 10", 11: "Segmentation fault: 11", 13: "Broken pipe: 13", 15: "Terminated: 15",
    ]
    static func signalNumber(_ name: String) -> Int? { signals.first { $0.value == name }?.key }

    /// Apple's `Code Type` spelling for an architecture name (`arm64e` → `ARM-64`).
    static func cpuType(arch: String) -> String? {
        switch arch.lowercased() {
        case "arm64", "arm64e": "ARM-64"
        case "arm64_32": "ARM64_32"
        case "x86_64", "x86_64h": "X86-64"
        case "i386", "x86": "X86"
        case let a where a.hasPrefix("arm"): "ARM"
        default: nil
        }
    }

    /// Mach-O `cpu_type`/`cpu_subtype` to an architecture name.
    static func arch(cpuType: Int?, subtype: Int?) -> String? {
        guard let cpuType else { return nil }
        let sub = (subtype ?? 0) & 0x00FF_FFFF
        switch cpuType {
        case 0x0100_000C: return sub == 2 ? "arm64e" : "arm64"
        case 0x0200_000C: return "arm64_32"
        case 12: return [9: "armv7", 11: "armv7s", 12: "armv7k", 6: "armv6"][sub] ?? "arm"
        case 0x0100_0007: return sub == 8 ? "x86_64h" : "x86_64"
        case 7: return "i386"
        default: return nil
        }
    }

    static func hex64(_ v: UInt64) -> String {
        let digits = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }

    /// A report timestamp: text as written; numbers as seconds, or microseconds (KSCrash 3.x)
    /// when too large to be seconds, written `yyyy-MM-dd HH:mm:ss.SSSS +0000` in UTC. Past the
    /// year 9999 a number is no capture time a report can have: nil.
    static func timestamp(_ value: JSONValue?) -> String? {
        guard let value else { return nil }
        if case .string(let s) = value { return s }
        guard case .number(let n) = value, let d = Double(n), d.isFinite, d > 0 else { return nil }
        let seconds = d > 1e14 ? d / 1e6 : (d > 1e11 ? d / 1e3 : d)
        return utcTimestamp(seconds)
    }

    /// `seconds` since 1970 as `yyyy-MM-dd HH:mm:ss.SSSS +0000`, milliseconds truncated (as ICU's
    /// formatter writes `SSSS`), by arithmetic: a static DateFormatter is not `Sendable` on
    /// Apple's SDK (an error in Swift 6 mode there), and one made per call costs far more.
    static func utcTimestamp(_ seconds: Double) -> String? {
        guard seconds.isFinite, seconds >= 0, seconds < 253_402_300_800 else { return nil }
        let milliseconds = Int64((seconds * 1000).rounded(.down))
        let (days, inDay) = (milliseconds / 86_400_000, milliseconds % 86_400_000)
        // Days since 1970-01-01 to a proleptic Gregorian date: eras of 400 years (146,097
        // days) counted from 0000-03-01, so the leap day ends a year.
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func padded(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let hour = inDay / 3_600_000, minute = inDay / 60_000 % 60, second = inDay / 1000 % 60
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2)) \(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2))."
            + "\(padded(inDay % 1000, 3))0 +0000"
    }
}

/// How a foreign JSON document was damaged and what reading it took.
struct JSONRepair {
    var bytes: [UInt8]
    var value: JSONValue
    var notes: [(line: Int, message: String)]
}

enum LenientJSON {
    /// Parses `bytes`; a document a crashing process left damaged — trailing commas, or cut
    /// off — is repaired as far as it goes (commas dropped, the text cut back to the last
    /// complete member and the open containers closed), with a note naming each place.
    static func parse(_ bytes: [UInt8]) -> JSONRepair? {
        if let value = try? JSONParser.parse(bytes).value { return JSONRepair(bytes: bytes, value: value, notes: []) }
        var notes: [(line: Int, message: String)] = []
        var fixed = bytes
        let commas = trailingCommas(in: bytes)
        if !commas.isEmpty {
            let dropped = Set(commas)
            fixed = bytes.enumerated().compactMap { dropped.contains($0.offset) ? nil : $0.element }
            for offset in commas.prefix(20) {
                notes.append((line(of: offset, in: bytes), "trailing comma before a closing bracket; ignored"))
            }
            if let value = try? JSONParser.parse(fixed).value { return JSONRepair(bytes: fixed, value: value, notes: notes) }
        }
        let error: JSONSyntaxError
        do {
            _ = try JSONParser.parse(fixed)
            return nil
        } catch let e {
            error = e
        }
        // Only a document that stops early can be cut back; garbage in the middle is not guessed at.
        guard error.message.containsBytes("end") || error.message.containsBytes("unterminated") || error.message.containsBytes("truncated")
        else {
            return nil
        }
        for (cut, closers) in cutPoints(in: fixed, keeping: 64).reversed() {
            var candidate = Array(fixed[..<cut])
            candidate.append(contentsOf: closers)
            if let value = try? JSONParser.parse(candidate).value {
                let place = error.path.map { " (inside \($0))" } ?? ""
                notes.append(
                    (
                        error.line,
                        "the JSON ends early\(place): \(error.message); read up to line \(line(of: max(0, cut - 1), in: fixed)), the rest is missing"
                    ))
                return JSONRepair(bytes: candidate, value: value, notes: notes)
            }
        }
        return nil
    }

    private static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        var n = 1
        for b in bytes[..<min(offset, bytes.count)] where b == 0x0A { n += 1 }
        return n
    }

    /// Offsets of commas outside strings followed (after blanks) by `}` or `]`.
    static func trailingCommas(in bytes: [UInt8]) -> [Int] {
        var out: [Int] = []
        var lastComma: Int?
        forEachByteOutsideStrings(bytes) { i, b in
            switch b {
            case 0x22: lastComma = nil
            case 0x2C: lastComma = i
            case 0x7D, 0x5D:
                if let c = lastComma { out.append(c) }
                lastComma = nil
            case 0x20, 0x09, 0x0A, 0x0D: break
            default: lastComma = nil
            }
        }
        return out
    }

    /// The last `keeping` places a cut-off document can end: before each comma and after each
    /// complete container, outside strings, with the brackets that close what is open there.
    /// One pass finds the places, a second takes the open brackets at just those (so a huge
    /// document costs two scans, not a copy of the bracket stack per comma).
    static func cutPoints(in bytes: [UInt8], keeping: Int) -> [(Int, [UInt8])] {
        var recent: [Int] = []
        scan(bytes) { offset, _ in
            recent.append(offset)
            if recent.count > keeping * 2 { recent.removeFirst(recent.count - keeping) }
        }
        let wanted = Set(recent.suffix(keeping))
        var out: [(Int, [UInt8])] = []
        scan(bytes) { offset, stack in
            if wanted.contains(offset) { out.append((offset, stack.reversed())) }
        }
        return out
    }

    /// Calls `place` at every cut place with the stack of closing brackets open there.
    private static func scan(_ bytes: [UInt8], _ place: (Int, [UInt8]) -> Void) {
        var stack: [UInt8] = []
        forEachByteOutsideStrings(bytes) { i, b in
            switch b {
            case 0x7B:
                stack.append(0x7D)
                place(i + 1, stack)
            case 0x5B:
                stack.append(0x5D)
                place(i + 1, stack)
            case 0x7D, 0x5D:
                if !stack.isEmpty { stack.removeLast() }
                if !stack.isEmpty { place(i + 1, stack) }
            case 0x2C:
                if !stack.isEmpty { place(i, stack) }
            default: break
            }
        }
    }

    /// The one walk both repairs share: every byte outside JSON strings, with its offset, and
    /// each string's opening quote (a string is a value, so it ends any run of blanks after a
    /// comma); the bytes inside a string, escapes included, are skipped.
    private static func forEachByteOutsideStrings(_ bytes: [UInt8], _ body: (Int, UInt8) -> Void) {
        var inString = false
        var escaped = false
        for (i, b) in bytes.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if b == 0x5C {
                    escaped = true
                } else if b == 0x22 {
                    inString = false
                }
                continue
            }
            if b == 0x22 { inString = true }
            body(i, b)
        }
    }
}

/// Pointer-authentication bits: arm64e return addresses as third-party reporters record them
/// (`0x5a6b000100a401bc` for `0x100a401bc`). Stripped only when the stripped address lands
/// where the plain one is expected, so kernel and other high addresses stay as written.
package enum PointerAuthentication {
    /// User-space address widths: 47 bits (macOS), then 39 (iOS devices).
    static let masks: [UInt64] = [(1 << 47) - 1, (1 << 39) - 1]

    package static func stripped(_ address: UInt64, where lands: (UInt64) -> Bool) -> UInt64? {
        for mask in masks {
            let plain = address & mask
            if plain != address, lands(plain) { return plain }
        }
        return nil
    }
}

extension CrashReport {
    /// Strips pointer-authentication bits from frame addresses that miss their image (or
    /// every image) only because of them, in any layout; one warning says how many.
    mutating func stripPointerAuthentication() {
        let images = binaryImages
        func lands(_ index: Int, _ address: UInt64) -> Bool {
            let image = images[index]
            guard address >= image.loadAddress else { return false }
            if let end = image.endAddress { return address <= end }
            return address - image.loadAddress < 0x1_0000_0000
        }
        var changed: [(UInt64, UInt64)] = []
        updateFrames { (frame: inout Frame) in
            let raw = frame.address
            if let i = frame.imageIndex, images.indices.contains(i) {
                guard !lands(i, raw), let plain = PointerAuthentication.stripped(raw, where: { lands(i, $0) }) else { return }
                frame.address = plain
                frame.imageOffset = plain - images[i].loadAddress
                changed.append((raw, plain))
            } else if frame.imageIndex == nil, !images.contains(where: { $0.contains(raw) }),
                let plain = PointerAuthentication.stripped(raw, where: { a in images.contains { $0.contains(a) } }),
                let i = images.firstIndex(where: { $0.contains(plain) })
            {
                frame.address = plain
                frame.imageIndex = i
                frame.imageOffset = plain - images[i].loadAddress
                if frame.imageName == nil { frame.imageName = images[i].name }
                changed.append((raw, plain))
            }
        }
        if let warning = ParseWarning.pointerAuthenticationStripped(changed, path: path) { warnings.append(warning) }
    }
}

extension ParseWarning {
    /// The one wording every layout uses for frame addresses whose pointer-authentication bits
    /// were stripped before lookup: how many, and the first one as it was and as looked up.
    static func pointerAuthenticationStripped(_ pairs: [(UInt64, UInt64)], path: String) -> ParseWarning? {
        guard let first = pairs.first else { return nil }
        let addresses = pairs.count == 1 ? "1 frame address" : "\(pairs.count) frame addresses"
        return ParseWarning(
            path: path,
            message:
                "\(addresses) carried pointer-authentication bits, stripped before lookup (0x\(String(first.0, radix: 16)) → 0x\(String(first.1, radix: 16)))"
        )
    }
}
