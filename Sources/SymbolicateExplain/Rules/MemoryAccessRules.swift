import Foundation
import SymbolicateCrashReport

/// EXC_BAD_ACCESS refined by the fault address, the top frame and the stack depth.
extension Diagnostician {
    func badAccess() -> Verdict {
        if let signal = facts.signal, signal.contains("Code Signature") || signal.contains("CODESIGNING") { return codeSignature() }
        let fault = facts.faultDescription
        if let fault {
            found.quote(fault.field, fault.quote)
            if fault.name == "UNKNOWN_0x32" || fault.name == "KERN_CODESIGN_ERROR" {
                found.notes.append("Code 0x32 (50) is KERN_CODESIGN_ERROR in xnu's kern_return.h; this report printed it as \(fault.name).")
                return codeSignature(fault.name == "KERN_CODESIGN_ERROR" ? .stated : .likely)
            }
            if ["EXC_ARM_DA_ALIGN", "BUS_ADRALN", "EXC_ARM_SP_ALIGN"].contains(fault.name) {
                found.use(base.entries(named: fault.name).first, causes: 0)
                quoteTopFrames(count: 2)
                quoteFirstAppFrame()
                return Verdict(
                    .badMemoryAccess, .stated,
                    "Misaligned memory access (\(fault.name)) at \(hex(fault.address)): a load or store at an address the instruction cannot use — often a garbage pointer or a packed structure."
                )
            }
            found.use(base.entries(named: fault.name).first)
        } else if let codes = facts.codes {
            found.quote("Exception Codes", codes)
            found.use(base.entries(named: codes).first)
        }
        let thread = facts.crashedThread
        let top = thread?.frames.first
        if let thread, let top { found.quote("Thread \(thread.index) frame \(top.index)", top.evidenceText) }
        if let overflow = stackOverflowFromFrames() ?? recursion() { return overflow }
        if let message = facts.message, let entry = base.entries(matchingText: message, kinds: [.faultPattern]).first,
            entry.is(.stackOverflow)
        {
            found.use(entry, causes: 1)
            return Verdict(.stackOverflow, .stated, "Stack overflow: \(message)")
        }
        let kind = fault.map { FaultAddress(address: $0.address, stripped: $0.stripped) }
        if let fault, let kind {
            found.quote("Fault address", FaultAddress.describe(kind, address: fault.address))
        }
        let topNames = top?.functionNames.joined(separator: " ") ?? ""
        let inObjCRuntime = ["objc_msgSend", "objc_retain", "objc_release", "objc_autorelease", "objc_storeStrong"].contains {
            topNames.contains($0)
        }
        switch kind {
        case .objcConcurrentAccess?:
            found.use(base.entry(.objcConcurrentAccess), causes: 1)
            return Verdict(
                .objcConcurrentPropertyAccess, .likely,
                "Objective-C property accessed from two threads at once: the runtime's deliberate crash at an address ending in bad0.")
        case .highBits(let stripped)?:
            found.use(base.entry(.pointerAuthentication), causes: 1)
            let pac = facts.subtype?.contains("pointer authentication") ?? false
            return Verdict(
                .pointerAuthentication, pac ? .stated : .possible,
                pac
                    ? "Pointer authentication failure (arm64e): a signed pointer did not authenticate\(stripped.map { "; stripped address \(hex($0))" } ?? "") — a corrupted or freed pointer."
                    : "Bad access through a pointer with high bits set: a corrupted or uninitialised pointer (possibly a pointer-authentication failure)."
            )
        case .null?, .nearNull?:
            found.use(base.entry(.nullPointer), causes: 0)
            quoteFirstAppFrame()
            // pc equal to the fault address means the CPU tried to execute there (A-MEM).
            if let fault, let pc = facts.programCounter {
                if pc == (fault.stripped ?? fault.address) {
                    found.quote("Register pc", hex(pc), "equal to the fault address: an instruction fetch")
                    found.cause(.likely, "Calling through a nil function pointer, block or method implementation")
                } else {
                    let isNull = fault.stripped ?? fault.address == 0
                    found.cause(.likely, isNull ? "Dereferencing a nil pointer" : "Reading a member of a nil object or struct pointer")
                }
            } else {
                found.cause(.likely, "Reading a member of a nil object or struct pointer")
            }
            let address = fault.map { hex($0.stripped ?? $0.address) } ?? "0x0"
            if case .null? = kind {
                return Verdict(
                    .nilDereference, .likely, "nil pointer dereference: the code read or called through a NULL pointer (address 0x0).")
            }
            return Verdict(
                .nilDereference, .likely,
                "Likely a member of a nil object or struct pointer was read: the fault address \(address) is a small offset from NULL.")
        default:
            break
        }
        if inObjCRuntime {
            found.use(base.entry(.objcMsgSend), causes: 1)
            if let selector = facts.asiLines.first(where: { $0.contains("selector name:") }) {
                found.quote("Application Specific Information", selector, "the message being sent when it crashed")
            }
            quoteFirstAppFrame()
            return Verdict(
                .zombieObject, .likely,
                "Crash in \(top?.functionNames.first ?? "the Objective-C runtime"): likely a message sent to an over-released (deallocated) object."
            )
        }
        if facts.codes?.contains("EXC_I386_GPFLT") == true {
            found.use(base.entry(.generalProtectionFault), causes: 2)
            quoteFirstAppFrame()
            return Verdict(
                .badMemoryAccess, .likely,
                "General protection fault (x86): a garbage or non-canonical pointer was dereferenced; the address is not reported.")
        }
        quoteFirstAppFrame()
        found.cause(.likely, "A dangling pointer to freed memory (use-after-free) or an out-of-bounds access")
        found.cause(.possible, "Memory corruption that happened earlier, elsewhere")
        let address = fault.map { " at \(hex($0.stripped ?? $0.address))" } ?? ""
        return Verdict(
            .badMemoryAccess, .likely,
            "Bad memory access\(address): an invalid pointer was dereferenced (not nil: likely freed or out-of-bounds memory).")
    }

    /// Deep recursion: a long crashed-thread stack dominated by one repeating frame.
    func recursion() -> Verdict? {
        guard let thread = facts.crashedThread, thread.frames.count >= 128 else { return nil }
        var counts: [String: Int] = [:]
        for frame in thread.frames {
            let key =
                frame.functionNames.first ?? "\(frame.imageName ?? "?")+\(frame.imageOffset.map { String($0) } ?? String(frame.address))"
            counts[key, default: 0] += 1
        }
        guard let (function, count) = counts.max(by: { $0.value < $1.value }), count * 4 >= thread.frames.count else { return nil }
        found.quote(
            "Thread \(thread.index)", "\(thread.frames.count) frames; \(function) appears \(count) times", "a repeating frame: recursion")
        found.use(base.entry(.stackOverflow), causes: 1)
        return Verdict(
            .stackOverflow, .likely,
            "Stack overflow: the crashed thread has \(thread.frames.count) frames, \(count) of them \(function) — unbounded recursion.")
    }
}
