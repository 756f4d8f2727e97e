import Foundation
import SymbolicateCrashReport
import Testing

@testable import SymbolicateExplain

/// Rules the corpus has no example for, checked on small reports in Apple's text layout.
/// Each report's lines are the evidence; the expected answer is what those lines mean per
/// the reference (section named per test).
@Suite struct RuleDiagnosisTests {
    /// A minimal iOS text report: `exception` lines, then thread 0 with `frames`
    /// (`image symbol` pairs), then the two images the frames use.
    static func report(exception: [String], asi: [String] = [], frames: [(String, String)], extraThreads: String = "") -> String {
        var lines = [
            "Incident Identifier: 6D1E4F2A-1111-2222-3333-444455556666",
            "Hardware Model:      iPhone14,2",
            "Process:             Demo [4242]",
            "Path:                /private/var/containers/Bundle/Application/0A0B0C0D-0000-1111-2222-333344445555/Demo.app/Demo",
            "Identifier:          com.example.Demo",
            "Code Type:           ARM-64 (Native)",
            "OS Version:          iPhone OS 16.0 (20A362)",
            "Report Version:      104",
            "",
        ]
        lines += exception
        lines.append("Triggered by Thread:  0")
        lines.append("")
        if !asi.isEmpty {
            lines.append("Application Specific Information:")
            lines += asi
            lines.append("")
        }
        lines.append("Thread 0 name:  Dispatch queue: com.apple.main-thread")
        lines.append("Thread 0 Crashed:")
        for (index, frame) in frames.enumerated() {
            let (image, symbol) = frame
            let address = image == "Demo" ? 0x1_0000_4000 + UInt64(index) * 4 : 0x1_8a2f_5000 + UInt64(index) * 4
            let name = image.padding(toLength: 30, withPad: " ", startingAt: 0)
            let text = image == "Demo" && symbol.isEmpty ? "0x100000000 + \(address - 0x1_0000_0000)" : "\(symbol) + 16"
            lines.append(
                "\(index)".padding(toLength: 4, withPad: " ", startingAt: 0) + name + "\t       0x\(String(address, radix: 16)) \(text)")
        }
        lines.append("")
        if !extraThreads.isEmpty {
            lines.append(extraThreads)
            lines.append("")
        }
        lines += [
            "Binary Images:",
            "0x100000000 - 0x100007fff Demo arm64  <4c4c443b55553144a1e9455154cffd57> /private/var/containers/Bundle/Application/0A0B0C0D-0000-1111-2222-333344445555/Demo.app/Demo",
            "0x18a2e0000 - 0x18a31ffff libobjc.A.dylib arm64e  <1c4c443b55553144a1e9455154cffd58> /usr/lib/libobjc.A.dylib",
            "0x18a980000 - 0x18acfffff libswiftCore.dylib arm64e  <2c4c443b55553144a1e9455154cffd59> /usr/lib/swift/libswiftCore.dylib",
            "0x1cbb90000 - 0x1cbbcffff libsystem_kernel.dylib arm64e  <3c4c443b55553144a1e9455154cffd5a> /usr/lib/system/libsystem_kernel.dylib",
            "0x196100000 - 0x19617ffff libsystem_c.dylib arm64e  <5c4c443b55553144a1e9455154cffd5c> /usr/lib/system/libsystem_c.dylib",
            "0x1a0000000 - 0x1a003ffff libc++abi.dylib arm64e  <6c4c443b55553144a1e9455154cffd5d> /usr/lib/libc++abi.dylib",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    static let appFrames: [(String, String)] = [("Demo", ""), ("Demo", "")]

    // §4.13 0xdead10cc: RUNNINGBOARD kill for a lock held at suspension.
    @Test func lockedFileAtSuspension() throws {
        let diagnosis = try diagnoseText(
            Self.report(
                exception: [
                    "Exception Type:  EXC_CRASH (SIGKILL)",
                    "Exception Codes: 0x0000000000000000, 0x0000000000000000",
                    "Termination Reason: Namespace RUNNINGBOARD, Code 0xdead10cc",
                ], frames: Self.appFrames))
        #expect(diagnosis.category == .lockedFileAtSuspension)
        #expect(diagnosis.hasEvidence("Termination Reason: RUNNINGBOARD 0xdead10cc"))
        #expect(diagnosis.nextSteps.contains { $0.contains("beginBackgroundTask") })
    }

    // §4.13: the other kill codes map to their own categories.
    @Test(arguments: [
        ("Namespace FRONTBOARD, Code 0xc00010ff", Diagnosis.Category.thermal),
        ("Namespace RUNNINGBOARD, Code 0x2182bad2", .backgroundTimeLimit),
        ("Namespace FRONTBOARD, Code 0xbaadca11", .voipPush),
        ("Namespace SPRINGBOARD, Code 0x8badf00d", .watchdog),
    ])
    func systemKillCodes(reason: String, category: Diagnosis.Category) throws {
        let diagnosis = try diagnoseText(
            Self.report(
                exception: [
                    "Exception Type:  EXC_CRASH (SIGKILL)", "Termination Reason: \(reason)",
                ], frames: Self.appFrames))
        #expect(diagnosis.category == category, "\(diagnosis.headline)")
        #expect(diagnosis.certainty == .stated)
    }

    // §4.2: DYLD 1 Library missing with its detail lines.
    @Test func missingLibrary() throws {
        let diagnosis = try diagnoseText(
            Self.report(
                exception: [
                    "Exception Type:  EXC_CRASH (SIGABRT)",
                    "Termination Reason: DYLD 1 Library missing",
                    "Library not loaded: @rpath/Kit.framework/Kit",
                    "Referenced from: <4C4C443B-5555-3144-A1E9-455154CFFD57> /private/var/containers/Bundle/Application/X/Demo.app/Demo",
                ], frames: [("libsystem_kernel.dylib", "__abort_with_payload")]))
        #expect(diagnosis.category == .missingLibrary)
        #expect(diagnosis.headline.contains("library missing"))
        #expect(diagnosis.hasEvidence("Library not loaded: @rpath/Kit.framework/Kit"))
        #expect(diagnosis.notes.contains { $0.contains("backtrace is not the cause") })
    }

    // §3.9: an address ending in bad0 is the runtime's concurrent-property crash.
    @Test func objcConcurrentPropertyAccess() throws {
        let diagnosis = try diagnoseText(
            Self.report(
                exception: [
                    "Exception Type:  EXC_BAD_ACCESS (SIGSEGV)",
                    "Exception Subtype: KERN_INVALID_ADDRESS at 0x400000000000bad0 -> 0x000000000000bad0 (possible pointer authentication failure)",
                ], frames: [("libobjc.A.dylib", "objc_release"), ("Demo", "")]))
        #expect(diagnosis.category == .objcConcurrentPropertyAccess)
    }

    // §3.1: top frame objc_msgSend at an ordinary address suggests a zombie.
    @Test func zombieInObjcMsgSend() throws {
        let diagnosis = try diagnoseText(
            Self.report(
                exception: [
                    "Exception Type:  EXC_BAD_ACCESS (SIGSEGV)",
                    "Exception Subtype: KERN_INVALID_ADDRESS at 0x0000000281e4a3c0",
                ], asi: ["objc_msgSend() selector name: reloadData"], frames: [("libobjc.A.dylib", "objc_msgSend"), ("Demo", "")]))
        #expect(diagnosis.category == .zombieObject)
        #expect(diagnosis.hasEvidence("selector name: reloadData"))
        #expect(diagnosis.headline.contains("likely"))
        #expect(diagnosis.hasEvidence("objc_msgSend"))
    }

    // §3.8: a long stack of one repeating frame is unbounded recursion.
    @Test func deepRecursionIsStackOverflow() throws {
        let frames = [("Demo", "Tree.depth()")] + Array(repeating: ("Demo", "Tree.depth()"), count: 300) + [("Demo", "main")]
        let diagnosis = try diagnoseText(
            Self.report(
                exception: [
                    "Exception Type:  EXC_BAD_ACCESS (SIGSEGV)",
                    "Exception Subtype: KERN_PROTECTION_FAILURE at 0x000000016b5fbff0",
                ], frames: frames))
        #expect(diagnosis.category == .stackOverflow)
        #expect(diagnosis.headline.contains("Tree.depth()"))
    }

    // §6.1: the Swift runtime's message in ASI names the check.
    @Test func swiftFatalErrorMessageInASI() throws {
        let diagnosis = try diagnoseText(
            Self.report(
                exception: [
                    "Exception Type:  EXC_BREAKPOINT (SIGTRAP)",
                    "Exception Codes: 0x0000000000000001, 0x000000018a98520c",
                ], asi: ["Demo/Store.swift:41: Fatal error: Unexpectedly found nil while unwrapping an Optional value"],
                frames: [("libswiftCore.dylib", "_assertionFailure(_:_:file:line:flags:)"), ("Demo", "")]))
        #expect(diagnosis.category == .swiftRuntimeError)
        #expect(diagnosis.headline.contains("Store.swift:41"))
        #expect(diagnosis.causes.first?.likelihood == .likely)
    }

    // §6.4: an uncaught C++ exception leaves a libc++abi line in ASI.
    @Test func uncaughtCppException() throws {
        let diagnosis = try diagnoseText(
            Self.report(
                exception: ["Exception Type:  EXC_CRASH (SIGABRT)"],
                asi: ["libc++abi: terminating due to uncaught exception of type std::out_of_range: vector"],
                frames: [("libsystem_kernel.dylib", "__pthread_kill"), ("libc++abi.dylib", "abort_message"), ("Demo", "")]))
        #expect(diagnosis.category == .uncaughtCppException)
        #expect(diagnosis.headline.contains("std::out_of_range"))
    }

    // §6.4: stack canary failure is memory corruption.
    @Test func stackCanary() throws {
        let diagnosis = try diagnoseText(
            Self.report(
                exception: ["Exception Type:  EXC_CRASH (SIGABRT)"],
                frames: [
                    ("libsystem_kernel.dylib", "__pthread_kill"), ("libsystem_c.dylib", "abort"), ("libsystem_c.dylib", "__stack_chk_fail"),
                    ("Demo", ""),
                ]))
        #expect(diagnosis.category == .memoryCorruption)
    }

    // §3.22: EXC_RESOURCE MEMORY with its message.
    @Test func memoryResourceWarning() throws {
        let diagnosis = try diagnoseText(
            Self.report(
                exception: [
                    "Exception Type:  EXC_RESOURCE", "Exception Subtype: MEMORY",
                    "Exception Message: (Limit 50 MB) Crossed High Water Mark",
                ], frames: Self.appFrames))
        #expect(diagnosis.category == .resourceLimit)
        #expect(diagnosis.hasEvidence("Crossed High Water Mark"))
        #expect(diagnosis.references.contains { $0.term == "RESOURCE_TYPE_MEMORY" })
    }

    // §3.15 / §3.17: kills without a reason code, and termination requests.
    @Test(arguments: [("SIGKILL", Diagnosis.Category.killed), ("SIGTERM", .terminated), ("SIGQUIT", .terminated)])
    func signalsWithoutReason(signal: String, category: Diagnosis.Category) throws {
        let diagnosis = try diagnoseText(Self.report(exception: ["Exception Type:  EXC_CRASH (\(signal))"], frames: Self.appFrames))
        #expect(diagnosis.category == category)
        #expect(diagnosis.headline.contains(signal))
    }

    // §3.20: the packed GUARD termination code is decoded into the evidence.
    @Test func guardTerminationCode() throws {
        let diagnosis = try diagnoseText(
            Self.report(
                exception: [
                    "Exception Type:  EXC_GUARD (SIGKILL)", "Exception Subtype: GUARD_TYPE_MACH_PORT",
                    "Exception Message: INVALID_NAME on mach port 78611 (guarded with 0x0000000000000000)",
                    "Termination Reason: GUARD 2305845208237028115",
                ], frames: Self.appFrames))
        #expect(diagnosis.category == .guardViolation)
        #expect(diagnosis.hasEvidence("GUARD_TYPE_MACH_PORT, flavor INVALID_NAME, mach port 78611"))
    }

    // Never invent a cause: with only an exception type the answer stays generic and hedged.
    @Test func unknownExceptionStaysHedged() throws {
        let diagnosis = try diagnoseText(Self.report(exception: ["Exception Type:  EXC_SYSCALL"], frames: Self.appFrames))
        #expect(diagnosis.category == .unknown)
        #expect(diagnosis.certainty == .possible)
    }

    @Test func renderersCarryTheSameFacts() throws {
        let diagnosis = try diagnoseText(
            Self.report(
                exception: [
                    "Exception Type:  EXC_CRASH (SIGKILL)", "Termination Reason: Namespace RUNNINGBOARD, Code 0xdead10cc",
                ], frames: Self.appFrames))
        let text = diagnosis.renderText()
        let markdown = diagnosis.renderMarkdown()
        #expect(text.contains(diagnosis.headline))
        #expect(markdown.contains("**\(diagnosis.headline)**"))
        for item in diagnosis.evidence {
            #expect(text.contains(item.quote))
            #expect(markdown.contains(item.quote))
        }
        let decoded = try JSONDecoder().decode(Diagnosis.self, from: Data(diagnosis.renderJSON().utf8))
        #expect(decoded.category == diagnosis.category)
        #expect(decoded.evidence == diagnosis.evidence)
        #expect(diagnosis.jsonValue?["category"]?.stringValue == "lockedFileAtSuspension")
    }
}
