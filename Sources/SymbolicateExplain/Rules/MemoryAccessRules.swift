import Foundation
import SymbolicateCrashReport

/// EXC_BAD_ACCESS refined by the fault address, the top frame and the stack depth.
extension Diagnostician {
    /// The fault names of a misaligned access (arm64's data and stack alignment faults, the signal's code).
    static let alignmentFaults: Set<String> = ["EXC_ARM_DA_ALIGN", "BUS_ADRALN", "EXC_ARM_SP_ALIGN"]

    func badAccess() -> Verdict {
        if facts.exception?.isCodeSignatureInvalid == true { return codeSignature() }
        let fault = fault
        // A misalignment named without its address (a crash service's `SIGBUS` over `BUS_ADRALN`).
        if fault == nil, let subtype = report.exception?.subtype?.trimmedBlanks, Self.alignmentFaults.contains(subtype) {
            found.quote(.label("Exception Subtype"), subtype)
            found.use(base.entries(named: subtype).first, causes: 0)
            quoteTopFrames(count: 2)
            quoteFirstAppFrame()
            return Verdict(.badMemoryAccess, .stated, .verdictMisalignedNoAddress, ["name": .text(subtype)])
        }
        if let fault {
            found.quote(.label(fault.field), fault.quote)
            if fault.name == "UNKNOWN_0x32" || fault.name == "KERN_CODESIGN_ERROR" {
                found.note(.noteCodeSignErrorName, ["name": .text(fault.name)])
                return codeSignature(fault.name == "KERN_CODESIGN_ERROR" ? .stated : .likely)
            }
            if Self.alignmentFaults.contains(fault.name) {
                found.use(base.entries(named: fault.name).first, causes: 0)
                quoteTopFrames(count: 2)
                quoteFirstAppFrame()
                return Verdict(
                    .badMemoryAccess, .stated, .verdictMisaligned, ["name": .text(fault.name), "address": .text(hex(fault.address))])
            }
            found.use(base.entries(named: fault.name).first)
        } else if let codes = report.exception?.codes {
            found.quote(.label("Exception Codes"), codes)
            found.use(base.entries(named: codes).first)
        }
        let thread = report.crashedThread
        let top = thread?.frames.first
        if let thread, let top { found.quote(.frame(thread.index, top.index), top.evidenceText) }
        if let overflow = stackOverflowFromFrames() ?? recursion() { return overflow }
        if let message = report.exceptionMessage, let entry = base.entries(matchingText: message, kinds: [.faultPattern]).first,
            entry.is(.stackOverflow)
        {
            found.use(entry, causes: 1)
            return Verdict(.stackOverflow, .stated, .verdictStackOverflowMessage, ["message": .text(message)])
        }
        let kind = fault.map { FaultAddress(address: $0.address, stripped: $0.stripped) }
        if let fault, let kind {
            found.quote(Phrase(.fieldFaultAddress), phrase: FaultAddress.describe(kind, address: fault.address))
        }
        let topNames = top?.functionNames.joined(separator: " ") ?? ""
        let inObjCRuntime =
            ["objc_msgSend", "objc_retain", "objc_release", "objc_autorelease", "objc_storeStrong"].contains {
                topNames.containsBytes($0)
            }
            // `objc_msgSend() selector name: …` in Application Specific Information: libobjc
            // recorded the message it was sending when it crashed, frames or not.
            || facts.statements.selectorLine != nil
        switch kind {
        case .objcConcurrentAccess?:
            found.use(base.entry(.objcConcurrentAccess), causes: 1)
            return Verdict(.objcConcurrentPropertyAccess, .likely, .verdictObjCConcurrentAccess)
        // Pointer authentication is arm64e's: on Intel a high address is a corrupted pointer.
        case .highBits(let stripped)? where !facts.platform.isIntel:
            found.use(base.entry(.pointerAuthentication), causes: 1)
            let pac = facts.exception?.isPointerAuthenticationFailure ?? false
            let key: PhraseKey =
                !pac ? .verdictHighBits : stripped == nil ? .verdictPointerAuthentication : .verdictPointerAuthenticationStripped
            return Verdict(.pointerAuthentication, pac ? .stated : .possible, key, ["stripped": .text(stripped.map(hex) ?? "")])
        case .null?, .nearNull?:
            // objc_msgSend and the retain calls return at once for a nil receiver: a fault just
            // above NULL inside them read a field of a class or object whose memory was freed.
            if inObjCRuntime, case .nearNull? = kind { break }
            found.use(base.entry(.nullPointer), causes: 0)
            quoteFirstAppFrame()
            // pc equal to the fault address means the CPU tried to execute there (A-MEM).
            if let fault, let pc = report.programCounter {
                if pc == (fault.stripped ?? fault.address) {
                    found.quote(Phrase(.fieldRegisterPC), hex(pc), Phrase(.notePCEqualsFault))
                    found.cause(.likely, .causeNilFunctionPointer)
                } else {
                    let isNull = fault.stripped ?? fault.address == 0
                    found.cause(.likely, isNull ? .causeNilDereference : .causeNilMember)
                }
            } else {
                found.cause(.likely, .causeNilMember)
            }
            let address = fault.map { hex($0.stripped ?? $0.address) } ?? "0x0"
            if case .null? = kind {
                return Verdict(.nilDereference, .likely, .verdictNilDereference)
            }
            return Verdict(.nilDereference, .likely, .verdictNilMember, ["address": .text(address)])
        default:
            break
        }
        if inObjCRuntime {
            found.use(base.entry(.objcMsgSend), causes: 1)
            if let selector = facts.statements.selectorLine {
                found.quote(.label("Application Specific Information"), selector, Phrase(.noteMessageBeingSent))
                // The selector after the line's last `: ` (`objc_msgSend() selector name: release`,
                // `Selector name found in current argument registers: respondsToSelector:`).
                let name = selector.range(of: ": ", options: .backwards).map { String(selector[$0.upperBound...]) } ?? selector
                found.cause(.likely, .causeSelectorBeingSent, ["selector": .text(name.trimmingCharacters(in: .whitespaces))])
            }
            quoteFirstAppFrame()
            return Verdict(
                .zombieObject, .likely, .verdictZombie,
                ["function": top?.functionNames.first.map(Phrase.text) ?? Phrase(.wordObjCRuntime)])
        }
        if facts.exception?.isGeneralProtectionFault == true {
            found.use(base.entry(.generalProtectionFault), causes: 2)
            quoteFirstAppFrame()
            return Verdict(.badMemoryAccess, .likely, .verdictGeneralProtection)
        }
        quoteFirstAppFrame()
        found.cause(.likely, .causeDanglingOrOutOfBounds)
        found.cause(.possible, .causeEarlierCorruption)
        if let fault {
            return Verdict(.badMemoryAccess, .likely, .verdictBadAccessAt, ["address": .text(hex(fault.stripped ?? fault.address))])
        }
        return Verdict(.badMemoryAccess, .likely, .verdictBadAccess)
    }

    /// Deep recursion: a long crashed-thread stack dominated by one repeating frame.
    func recursion() -> Verdict? {
        guard let thread = report.crashedThread, thread.frames.count >= 128 else { return nil }
        var counts: [String: Int] = [:]
        for frame in thread.frames {
            let key =
                frame.functionNames.first ?? "\(frame.imageName ?? "?")+\(frame.imageOffset.map { String($0) } ?? String(frame.address))"
            counts[key, default: 0] += 1
        }
        guard let (function, count) = counts.max(by: { $0.value < $1.value }), count * 4 >= thread.frames.count else { return nil }
        let values: [String: Phrase] = [
            "frames": .text(String(thread.frames.count)), "function": .text(function), "count": .text(String(count)),
        ]
        found.quote(
            Phrase(.fieldThread, ["thread": .text(String(thread.index))]), phrase: Phrase(.quoteRepeatingFrame, values),
            Phrase(.noteRepeatingFrame))
        found.use(base.entry(.stackOverflow), causes: 1)
        return Verdict(.stackOverflow, .likely, .verdictRecursion, values)
    }
}
