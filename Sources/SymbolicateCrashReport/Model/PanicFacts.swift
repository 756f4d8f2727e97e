import Foundation

/// A kernel extension a panic's `Kernel Extensions in backtrace:` list names
/// (`com.example.driver(1.2.3)[UUID]@0x…->0x…`; its `dependency:` lines are not listed).
public struct PanicKext: Sendable, Hashable {
    public var bundleID: String
    public var version: String?

    public init(bundleID: String, version: String?) {
        self.bundleID = bundleID
        self.version = version
    }

    /// Apple's own kexts are `com.apple.*`; anything else was installed by someone else.
    public var isApple: Bool { bundleID.hasPrefix("com.apple.") }
}

/// What a kernel (or Secure Enclave, or bridgeOS) panic string says, read once: the panic's own
/// message, the CPU and caller, the task that was running, and the kexts in its backtrace.
/// The `.ips` `panicString` and the text form (`panic(cpu 1 caller 0x…): …` followed by the
/// backtrace and `BSD process name corresponding to current thread:`) are read the same way.
public struct KernelPanicFacts: Sendable, Hashable {
    /// The first line as the report has it (`panic(cpu 0 caller 0xfffffff0…): x86 CPU CATERR detected`).
    public var line: String
    /// The first line without its `panic(cpu N caller 0x…): ` prefix: what the kernel said.
    public var message: String
    public var cpu: Int?
    public var caller: UInt64?
    /// The task that was running (`Panicked task 0x…: … pid 0: kernel_task`, or
    /// `BSD process name corresponding to current thread: WindowServer`).
    public var panickedTask: String?
    public var panickedPID: Int?
    /// `Kernel Extensions in backtrace:`, in order.
    public var backtraceKexts: [PanicKext]

    /// Reads a panic string (its first line must hold `panic(`); nil otherwise.
    public init?(panicText: String) {
        let lines = panicText.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard let firstIndex = lines.firstIndex(where: { !$0.isEmpty }), lines[firstIndex].byteRange(of: "panic(") != nil else {
            return nil
        }
        var first = lines[firstIndex]
        // A paste wrapped at its width (`… watchdog timeout: no checkins from` / `watchdogd in 93
        // seconds …`): the kernel writes the panic's message on one line, and the lines after it
        // open with a capital (`Debugger message:`, `Panicked task`, `Backtrace`) or are fields
        // (`service: WindowServer, …`), so a long first line followed by words in lowercase that
        // open no field goes on there.
        if first.utf8.count >= 60, lines.indices.contains(firstIndex + 1), let next = lines[firstIndex + 1].first, next.isLowercase,
            let word = lines[firstIndex + 1].split(separator: " ").first, !word.hasSuffix(":")
        {
            first += " " + lines[firstIndex + 1]
        }
        guard let open = first.byteRange(of: "panic(") else { return nil }
        line = first
        let afterOpen = first[open.upperBound...]
        if let close = afterOpen.firstIndex(of: ")") {
            let inside = afterOpen[..<close].split(separator: " ")
            if let index = inside.firstIndex(of: "cpu"), inside.indices.contains(index + 1) { cpu = Int(inside[index + 1]) }
            if let index = inside.firstIndex(of: "caller"), inside.indices.contains(index + 1) {
                caller = UInt64(inside[index + 1].lowercased().replacingOccurrences(of: "0x", with: ""), radix: 16)
            }
            var rest = afterOpen[afterOpen.index(after: close)...].drop { $0 == ":" || $0 == " " }
            // Old panics quote the message: `"AMDFramebufferSI::setPowerState(…) timed out after 45732 ms"@/path:5296`.
            if rest.first == "\"", let end = rest.dropFirst().lastIndex(of: "\"") {
                rest = rest[rest.index(after: rest.startIndex)..<end]
            }
            message = String(rest).trimmingCharacters(in: .whitespaces)
        } else {
            message = String(afterOpen)
        }
        var kexts: [PanicKext] = []
        var inKexts = false
        for text in lines.dropFirst() {
            if text.hasPrefix("Panicked task "), let pid = text.range(of: "pid ", options: .backwards) {
                let tail = text[pid.upperBound...]
                let number = tail.prefix { $0.isNumber }
                panickedPID = Int(number)
                let name = tail.dropFirst(number.count).drop { $0 == ":" || $0 == " " }
                if !name.isEmpty { panickedTask = String(name) }
            } else if text.hasPrefix("BSD process name corresponding to current thread:"), panickedTask == nil {
                let name = text.dropFirst("BSD process name corresponding to current thread:".count).trimmingCharacters(in: .whitespaces)
                if !name.isEmpty, name != "Unknown" { panickedTask = name }
            }
            if text.hasPrefix("Kernel Extensions in backtrace") {
                inKexts = true
                continue
            }
            guard inKexts else { continue }
            if text.isEmpty { break }
            if text.hasPrefix("dependency:") { continue }
            // `com.example.driver(1.2.3)[UUID]@0x…->0x…`
            guard let paren = text.firstIndex(of: "(") else { break }
            let bundleID = String(text[..<paren])
            guard !bundleID.isEmpty, bundleID.containsBytes("."), !bundleID.containsBytes(" ") else { break }
            let version = text[text.index(after: paren)...].prefix { $0 != ")" }
            kexts.append(PanicKext(bundleID: bundleID, version: version.isEmpty ? nil : String(version)))
        }
        backtraceKexts = kexts
    }
}

extension CrashReport {
    /// The panic string of a kernel panic report, read (`KernelPanicFacts`): the `.ips`
    /// `panicString`, or the text report from its `panic(` line on. Nil for other reports.
    public var kernelPanic: KernelPanicFacts? {
        switch source {
        case .ips(_, let body, _):
            return body["panicString"]?.stringValue.flatMap(KernelPanicFacts.init(panicText:))
        case .text(let document):
            guard let start = document.lines.firstIndex(where: { $0.text.trimmedBlanks.hasPrefix("panic(") }) else { return nil }
            return KernelPanicFacts(panicText: document.lines[start...].map(\.text).joined(separator: "\n"))
        case .none:
            return nil
        }
    }
}
