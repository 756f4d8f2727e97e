import Foundation
import SymbolicateCore

/// The family of a kernel (or Secure Enclave, or bridgeOS) panic, read from the panic's own
/// message: each family is recognised by the words xnu, its drivers or the coprocessor's
/// firmware put there. The raw value is the stable ID explain's JSON output carries
/// (`matched.id`). Read here, with the panic string, so that explain only interprets it.
package enum KernelPanicFamily: String, CaseIterable, Sendable {
    /// `watchdog timeout: no checkins from watchdogd`, `userspace watchdog timeout: no successful checkins from …`.
    case watchdogTimeout = "watchdog-timeout"
    /// `Kernel data abort`, `Kernel instruction fetch abort`; on Intel, `Kernel trap at …, type 14=page fault`.
    case kernelAbort = "kernel-abort"
    /// zalloc's checks: `zone_require`, `element modified after free`, `zone map exhausted`.
    case zoneCorruption = "zone-corruption"
    /// The SSD controller (ANS2, AppleANS…), NVMe or APFS.
    case storageController = "storage-controller"
    /// The GPU's driver or firmware (`AGX`, `GPU Panic`).
    case gpu
    /// A memory-tagging check (`MTE`, `tag check fault`).
    case memoryTagging = "memory-tagging"
    /// The Secure Enclave's own OS (`SEP panic`, `sepos`).
    case secureEnclave = "secure-enclave"
    /// A driver's power-state change that timed out, the power-management unit.
    case powerManagement = "power-management"
    /// `x86 CPU CATERR detected`: the T2/bridgeOS saw the Intel CPU's catastrophic error.
    case cpuCatastrophicError = "x86-cpu-caterr"
    /// A crash with a non-Apple kext in `Kernel Extensions in backtrace`.
    case thirdPartyKext = "third-party-kext"
    /// Any other panic string.
    case other

    /// The family and what the panic names (the service, controller, zone, driver or kext),
    /// from the message alone (and the backtrace's kexts). Each test reads the message once
    /// (`MessageScan.occurs`, linear time); the message is the panic's first line, so a driver
    /// merely loaded (the `loaded kexts:` list names AGX, APFS and ANS drivers on every Mac)
    /// never decides.
    package static func classify(_ panic: KernelPanicFacts) -> (family: KernelPanicFamily, subject: String?) {
        let message = panic.message
        let lower = Array(message.lowercased().utf8)
        func has(_ fragment: String) -> Bool { MessageScan.occurs(Array(fragment.utf8), in: lower) }
        let thirdParty = panic.backtraceKexts.first { !$0.isApple }
        if has("x86 cpu caterr") { return (.cpuCatastrophicError, nil) }
        if has("sep panic") || has("sepos") || has("sep rom") {
            return (.secureEnclave, word(after: "panic:", in: message, skipping: ": /"))
        }
        if has("watchdog timeout") {
            return (.watchdogTimeout, word(after: "checkins from ", in: message, skipping: " ") ?? (has("watchdogd") ? "watchdogd" : nil))
        }
        if has("agx") || has("gpu panic") || has("gpu restart") {
            return (.gpu, word(containing: "AGX", in: message))
        }
        if has("ans2") || has("appleans") || has("nvme") || has("apfs") {
            let subject = ["ANS2", "AppleANS", "NVMe", "nvme", "apfs", "APFS"].lazy.compactMap { word(containing: $0, in: message) }.first
            return (.storageController, subject)
        }
        if has("tag check fault") || containsWord("MTE", in: message) { return (.memoryTagging, thirdParty?.bundleID) }
        if has("setpowerstate") || containsWord("PMU", in: message) || has("thermal") {
            let driver = message.byteRange(of: "::setPowerState").map { range in
                String(message[..<range.lowerBound].reversed().prefix { isWord($0) }.reversed())
            }
            return (.powerManagement, driver.flatMap { $0.isEmpty ? nil : $0 })
        }
        if has("zalloc") || has("zone_require") || has("kernel memory") || has("element modified after free") || has("zone map") {
            if let thirdParty { return (.thirdPartyKext, thirdParty.bundleID) }
            return (.zoneCorruption, zoneName(in: message))
        }
        if has("kernel data abort") || has("kernel instruction fetch abort") || (has("kernel trap at") && has("page fault")) {
            if let thirdParty { return (.thirdPartyKext, thirdParty.bundleID) }
            return (.kernelAbort, nil)
        }
        if let thirdParty { return (.thirdPartyKext, thirdParty.bundleID) }
        return (.other, nil)
    }

    /// Letters, digits, `_`, `.`, `-`: a service (`com.apple.WindowServer`) or driver name.
    private static func isWord(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "." || character == "-"
    }

    /// The word after `marker` (case-insensitive), past any of `skipping`.
    private static func word(after marker: String, in text: String, skipping: String) -> String? {
        guard let range = text.range(of: marker, options: .caseInsensitive) else { return nil }
        let rest = text[range.upperBound...].drop { skipping.contains($0) }
        let found = rest.prefix { isWord($0) }.trimmingCharacters(in: CharacterSet(charactersIn: ".-"))
        return found.isEmpty ? nil : String(found)
    }

    /// The whole word of `text` that contains `fragment` (`AppleANS3NVMeController`).
    private static func word(containing fragment: String, in text: String) -> String? {
        guard let range = text.range(of: fragment) else { return nil }
        let before = text[..<range.lowerBound].reversed().prefix { isWord($0) && $0 != "." }
        let after = text[range.upperBound...].prefix { isWord($0) && $0 != "." }
        return String(before.reversed()) + fragment + after
    }

    /// `fragment` with no letter or digit on either side.
    private static func containsWord(_ fragment: String, in text: String) -> Bool {
        var rest = text[...]
        while let range = rest.range(of: fragment) {
            let beforeOK = range.lowerBound == text.startIndex || !text[text.index(before: range.lowerBound)].isLetter
            let afterOK = range.upperBound == text.endIndex || !(text[range.upperBound].isLetter || text[range.upperBound].isNumber)
            if beforeOK && afterOK { return true }
            rest = text[range.upperBound...]
        }
        return false
    }

    /// `[kalloc.128]: element modified after free` → `kalloc.128`; `… from zone VM map entries, …` → `VM map entries`.
    private static func zoneName(in message: String) -> String? {
        if let open = message.firstIndex(of: "["), let close = message[open...].firstIndex(of: "]") {
            let name = message[message.index(after: open)..<close]
            if !name.isEmpty, name.count <= 64 { return String(name) }
        }
        if let range = message.byteRange(of: "from zone ") {
            let name = message[range.upperBound...].prefix { $0 != "," && $0 != "(" }.trimmedBlanks
            if !name.isEmpty, name.count <= 64 { return name }
        }
        return nil
    }
}
