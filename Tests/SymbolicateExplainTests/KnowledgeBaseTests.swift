import Foundation
import Testing

@testable import SymbolicateExplain

/// Terms and numbers below were copied by reading the project's explain reference
/// (shared/reference/explain.md); the section is named on each list.
@Suite struct KnowledgeBaseTests {
    let base = KnowledgeBase.standard

    // §2.1 Mach exception types [xnu exception_types.h].
    static let exceptionTypes: [(String, UInt64)] = [
        ("EXC_BAD_ACCESS", 1), ("EXC_BAD_INSTRUCTION", 2), ("EXC_ARITHMETIC", 3), ("EXC_EMULATION", 4),
        ("EXC_SOFTWARE", 5), ("EXC_BREAKPOINT", 6), ("EXC_SYSCALL", 7), ("EXC_MACH_SYSCALL", 8),
        ("EXC_RPC_ALERT", 9), ("EXC_CRASH", 10), ("EXC_RESOURCE", 11), ("EXC_GUARD", 12), ("EXC_CORPSE_NOTIFY", 13),
    ]

    @Test(arguments: exceptionTypes)
    func exceptionTypeIsExplained(name: String, number: UInt64) {
        let answer = base.explain(name)
        let entry = answer.entries.first
        #expect(entry?.term == name)
        #expect(entry?.kind == .exceptionType)
        #expect(entry?.values == [number])
        #expect(entry?.meaning.isEmpty == false)
    }

    // §2.3 Darwin signals with their strsignal() text.
    static let signals: [(String, UInt64, String)] = [
        ("SIGQUIT", 3, "Quit: 3"), ("SIGILL", 4, "Illegal instruction: 4"), ("SIGTRAP", 5, "Trace/BPT trap: 5"),
        ("SIGABRT", 6, "Abort trap: 6"), ("SIGFPE", 8, "Floating point exception: 8"), ("SIGKILL", 9, "Killed: 9"),
        ("SIGBUS", 10, "Bus error: 10"), ("SIGSEGV", 11, "Segmentation fault: 11"), ("SIGSYS", 12, "Bad system call: 12"),
        ("SIGPIPE", 13, "Broken pipe: 13"), ("SIGTERM", 15, "Terminated: 15"),
    ]

    @Test(arguments: signals)
    func signalIsExplainedByNameAndIndicator(name: String, number: UInt64, indicator: String) {
        let byName = base.explain(name).entries.first
        #expect(byName?.kind == .signal)
        #expect(byName?.values == [number])
        #expect(base.explain(indicator).entries.first?.term == name)
        // "SIGNAL <n>" as printed in Termination Reason resolves to the same signal.
        #expect(base.explain("SIGNAL \(number)").entries.contains { $0.term == name })
    }

    @Test func sigtrmSpellingFromReportCrashIsSIGTERM() {
        #expect(base.explain("SIGTRM").entries.first?.term == "SIGTERM")
    }

    // §4.13 termination codes: hex and decimal columns of the table.
    static let terminationCodes: [(String, UInt64)] = [
        ("0x8badf00d", 2343432205), ("0xc00010ff", 3221229823), ("0xdead10cc", 3735883980),
        ("0xbaadca11", 3131951633), ("0xbad22222", 3134333474), ("0xbaddd15c", 3135099228),
        ("0xc51bad01", 3306925313), ("0xc51bad02", 3306925314), ("0xc51bad03", 3306925315),
        ("0xd00d2bad", 3490524077), ("0x2182bad2", 562215634), ("0x2182bad3", 562215635),
        ("0x2182bad4", 562215636), ("0x2bad45ec", 732775916), ("0xbaaaaaad", 3131746989),
        ("0xdeadfa11", 3735943697), ("0xfeedfacf", 4277009103), ("0xdeadfeed", 3735944941),
    ]

    @Test(arguments: terminationCodes)
    func terminationCodeIsExplainedInHexAndDecimal(hexCode: String, decimal: UInt64) {
        let byHex = base.explain(hexCode).entries
        let byDecimal = base.explain(String(decimal)).entries
        let upper = base.explain(hexCode.uppercased().replacingOccurrences(of: "0X", with: "0x")).entries
        #expect(byHex.count == 1)
        #expect(byHex.first?.kind == .terminationCode)
        #expect(byHex.first?.values == [decimal])
        #expect(byDecimal.map(\.term) == byHex.map(\.term))
        #expect(upper.map(\.term) == byHex.map(\.term))
    }

    /// Issue 17: explanations cite Apple's documentation and WWDC sessions and Apple's open
    /// source only (xnu, dyld, Libc, Swift); no decompilations, third-party reporters or blogs.
    /// A Rust panic cites the Rust project's documentation (issue 41).
    static let allowedSourcePrefixes = [
        "https://developer.apple.com/documentation/", "https://developer.apple.com/library/archive/",
        "https://developer.apple.com/videos/play/wwdc", "https://github.com/apple-oss-distributions/",
        "https://github.com/swiftlang/swift/", "https://www.swift.org/", "https://swift.org/",
        // Issue 41: Apple's support articles and bug-reporting page (kernel panics), and the Rust
        // project's own documentation for Rust panics (the project that owns the code).
        "https://support.apple.com/", "https://developer.apple.com/bug-reporting/", "https://doc.rust-lang.org/",
        // Issue 48: LLVM's libc++, the C++ standard library Apple ships, for its exception types.
        "https://github.com/llvm/llvm-project/",
    ]

    @Test(arguments: KnowledgeBase.standard.entries)
    func everySourceIsApplesDocumentationOrSource(entry: KnowledgeEntry) {
        #expect(!entry.sources.isEmpty, "\(entry.term) cites nothing")
        for source in entry.sources {
            #expect(Self.allowedSourcePrefixes.contains { source.url.hasPrefix($0) }, "\(entry.term) cites \(source.url)")
        }
    }

    // §4.13 status column: these rest on third-party material only.
    @Test(arguments: ["0xdeadfa11", "0xdeadfeed"])
    func thirdPartyCodesAreMarkedCommunityReported(code: String) {
        #expect(base.explain(code).entries.first?.isCommunityReported == true)
    }

    @Test(arguments: ["0x8badf00d", "0xdead10cc", "EXC_BAD_ACCESS", "SIGABRT"])
    func documentedTermsAreNotMarkedCommunityReported(term: String) {
        #expect(base.explain(term).entries.first?.isCommunityReported == false)
    }

    // §2.4 EXC_BAD_ACCESS codes.
    static let badAccessCodes: [(String, UInt64)] = [
        ("KERN_INVALID_ADDRESS", 1), ("KERN_PROTECTION_FAILURE", 2), ("KERN_NO_ACCESS", 8),
        ("KERN_MEMORY_FAILURE", 9), ("KERN_MEMORY_ERROR", 10), ("KERN_CODESIGN_ERROR", 50),
        ("EXC_ARM_DA_ALIGN", 0x101), ("EXC_ARM_DA_DEBUG", 0x102), ("EXC_ARM_SP_ALIGN", 0x103),
        ("EXC_ARM_SWP", 0x104), ("EXC_ARM_PAC_FAIL", 0x105),
    ]

    @Test(arguments: badAccessCodes)
    func badAccessCodeIsExplained(name: String, value: UInt64) {
        let entry = base.explain(name).entries.first
        #expect(entry?.kind == .exceptionCode)
        #expect(entry?.values == [value])
    }

    // §2.7 namespaces as printed by ReportCrash, with xnu numbers.
    static let namespaces: [(String, UInt64)] = [
        ("JETSAM", 1), ("SIGNAL", 2), ("CODESIGNING", 3), ("HANGTRACER", 4), ("TEST", 5), ("DYLD", 6),
        ("LIBXPC", 7), ("OBJC", 8), ("EXEC", 9), ("SPRINGBOARD", 10), ("FRONTBOARD", 10), ("TCC", 11),
        ("REPORTCRASH", 12), ("COREANIMATION", 13), ("AGGREGATED", 14), ("RUNNINGBOARD", 15), ("SKYWALK", 16),
        ("SETTINGS", 17), ("LIBSYSTEM", 18), ("FOUNDATION", 19), ("WATCHDOG", 20), ("METAL", 21),
        ("WATCHKIT", 22), ("GUARD", 23), ("ANALYTICS", 24), ("SANDBOX", 25), ("SECURITY", 26),
        ("ENDPOINTSECURITY", 27), ("PAC_EXCEPTION", 28), ("BLUETOOTH_CHIP", 29), ("PORT_SPACE", 30),
        ("WEBKIT", 31), ("BACKLIGHTSERVICES", 32), ("ROSETTA", 34),
    ]

    @Test(arguments: namespaces)
    func namespaceIsExplained(name: String, number: UInt64) {
        let entry = base.namespace(name)
        #expect(entry?.values == [number])
        #expect(base.explain(name).entries.contains { $0.kind == .terminationNamespace })
    }

    // The five examples named in the issue.
    @Test(arguments: ["EXC_BAD_ACCESS", "SIGABRT", "0x8badf00d", "KERN_INVALID_ADDRESS", "EXC_RESOURCE"])
    func issueExamplesRenderInEveryFormat(term: String) throws {
        let answer = base.explain(term)
        #expect(answer.isKnown)
        #expect(answer.renderText().contains(term))
        #expect(answer.renderMarkdown().contains("`\(term)`"))
        let json = try JSONSerialization.jsonObject(with: Data(answer.renderJSON().utf8)) as? [String: Any]
        let entries = json?["entries"] as? [[String: Any]]
        #expect(entries?.first?["term"] as? String == term)
    }

    @Test(arguments: [
        ("EXC_BAD_ACES", "EXC_BAD_ACCESS"), ("SIGABORT", "SIGABRT"), ("0x8badf00", "0x8badf00d"),
        ("KERN_INVALID_ADRESS", "KERN_INVALID_ADDRESS"), ("EXC_RESOURSE", "EXC_RESOURCE"),
    ])
    func unknownTermsListNearMatches(typo: String, expected: String) {
        let answer = base.explain(typo)
        #expect(!answer.isKnown)
        #expect(answer.nearMatches.contains(expected))
        #expect(answer.renderText().contains("is not known"))
        #expect(answer.renderText().contains(expected))
    }

    @Test func gibberishIsNotKnownAndSaysSo() {
        let answer = base.explain("qqqqzzzz")
        #expect(!answer.isKnown)
        #expect(answer.renderText().contains("is not known"))
    }

    // Report-line shapes quoted in the reference (§1.3, §3.1, §3.7, §3.20).
    @Test func exceptionTypeWithSignalExplainsBoth() {
        let terms = base.explain("EXC_BAD_ACCESS (SIGSEGV)").entries.map(\.term)
        #expect(terms.contains("EXC_BAD_ACCESS"))
        #expect(terms.contains("SIGSEGV"))
    }

    /// The `.crash` form of a code-signing kill nests the signal's own parentheses: the line is read
    /// as a report's `Exception Type` field is, so the type, the signal and the code-signing kill
    /// are all named.
    @Test func nestedSignalOfACodeSigningKillExplainsAllThree() {
        let terms = base.explain("Exception Type:  EXC_BAD_ACCESS (SIGKILL (Code Signature Invalid))").entries.map(\.term)
        #expect(terms.contains("EXC_BAD_ACCESS"), "\(terms)")
        #expect(terms.contains("SIGKILL"), "\(terms)")
        #expect(terms.contains("CODESIGNING"), "\(terms)")
        let dashed = base.explain("EXC_CRASH (SIGKILL - CODESIGNING)").entries.map(\.term)
        #expect(dashed.contains("EXC_CRASH") && dashed.contains("SIGKILL") && dashed.contains("CODESIGNING"), "\(dashed)")
    }

    /// In a line's words only a number written with `0x` is read as a termination code.
    @Test func onlyMarkedHexWordsOfALineAreCodes() {
        let marked = base.explain("the watchdog ended it with 0x8badf00d while launching").entries.map(\.term)
        #expect(marked.contains { $0.lowercased().contains("8badf00d") }, "\(marked)")
        let decimal = base.explain("the watchdog ended it with 2343432205 while launching").entries
        #expect(decimal.isEmpty, "\(decimal.map(\.term))")
    }

    @Test func subtypeWithSmallAddressIsNearNull() {
        let answer = base.explain("KERN_INVALID_ADDRESS at 0x0000000000000010")
        #expect(answer.entries.map(\.term).contains("KERN_INVALID_ADDRESS"))
        #expect(answer.entries.map(\.term).contains("NULL_POINTER_DEREFERENCE"))
        #expect(answer.decoded.first?.contains("offset 0x10") == true)
    }

    @Test func pacSubtypeIsPointerAuthentication() {
        let answer = base.explain(
            "KERN_INVALID_ADDRESS at 0x00006f126c1a9aa0 -> 0x000000126c1a9aa0 (possible pointer authentication failure)")
        #expect(answer.entries.map(\.term).contains("POINTER_AUTHENTICATION_FAILURE"))
        #expect(answer.decoded.first?.contains("0x126c1a9aa0") == true)
    }

    @Test func bad0AddressIsConcurrentPropertyAccess() {
        let answer = base.explain(
            "KERN_INVALID_ADDRESS at 0x400000000000bad0 -> 0x000000000000bad0 (possible pointer authentication failure)")
        #expect(answer.entries.map(\.term).contains("0xbad0"))
    }

    @Test(arguments: [
        ("Namespace SPRINGBOARD, Code 0x8badf00d", "0x8badf00d"),
        ("FRONTBOARD 2343432205", "0x8badf00d"),
        ("Namespace RUNNINGBOARD, Code 0xdead10cc", "0xdead10cc"),
        ("DYLD 1 Library missing", "DYLD 1"),
        ("CODESIGNING 2 Invalid Page", "CODESIGNING 2"),
        ("Namespace SIGNAL, Code 0xb", "SIGSEGV"),
        ("SIGNAL 5 Trace/BPT trap: 5", "SIGTRAP"),
    ])
    func terminationReasonLinesResolveNamespaceAndCode(line: String, expected: String) {
        let terms = base.explain(line).entries.map(\.term)
        #expect(terms.contains(expected))
        #expect(terms.first != expected)  // the namespace comes first
    }

    // §3.20: real iOS 15 report, termination code 2305845208237028115 = 0x2000020000013313:
    // type 1 (mach port), flavor 0x200 INVALID_NAME, target 0x13313 (port 78611).
    @Test func guardTerminationCodeIsDecoded() {
        let code = GuardCode(2305845208237028115)
        #expect(code.typeName == "GUARD_TYPE_MACH_PORT")
        #expect(code.flavorNames == ["INVALID_NAME"])
        #expect(code.target == 78611)
        let answer = base.explain("GUARD 2305845208237028115")
        #expect(answer.decoded.first?.contains("INVALID_NAME") == true)
        #expect(answer.entries.map(\.term).contains("GUARD_TYPE_MACH_PORT"))
    }

    // §2.6: FD flavors are bit flags; CLOSE = 0x1 on file descriptor 23.
    @Test func fdGuardFlavorBitsAreNamed() {
        let code = GuardCode((2 << 61) | (0x1 << 32) | 23)
        #expect(code.summary == "GUARD_TYPE_FD, flavor CLOSE, file descriptor 23")
    }

    // §2.5: CPU monitor code — type 1 flavor 1, limit 80% (bits 6–0) over 60 s (bits 31–7).
    @Test func resourceCodeIsDecoded() {
        let raw: UInt64 = (1 << 61) | (1 << 58) | (60 << 7) | 80
        let code = ResourceCode(raw)
        #expect(code.typeName == "RESOURCE_TYPE_CPU")
        #expect(code.flavorName == "FLAVOR_CPU_MONITOR")
        #expect(code.cpuLimit?.percent == 80)
        #expect(code.cpuLimit?.seconds == 60)
        let memory = ResourceCode((3 << 61) | (1 << 58) | 1450)
        #expect(memory.memoryLimitMB == 1450)
    }

    // §6.2: Swift messages are found inside longer ASI text.
    @Test(arguments: [
        (
            "Fatal error: Unexpectedly found nil while unwrapping an Optional value",
            "Unexpectedly found nil while unwrapping an Optional value"
        ),
        ("Swift/ContiguousArrayBuffer.swift:600: Fatal error: Index out of range", "Index out of range"),
        ("Fatal error: 'try!' expression unexpectedly raised an error: Foo.Bar", "'try!' expression unexpectedly raised an error"),
        ("Could not cast value of type 'NSNull' (0x1) to 'NSString' (0x2).", "Could not cast value of type"),
        (
            "BUG IN CLIENT OF LIBDISPATCH: dispatch_sync called on queue already owned by current thread",
            "dispatch_sync called on queue already owned by current thread"
        ),
    ])
    func messagesMatchTheMostSpecificEntry(text: String, expected: String) {
        #expect(base.entries(matchingText: text).first?.term == expected)
    }

    @Test func everyEntryHasMeaningAndALinkedSource() {
        for entry in base.entries {
            #expect(!entry.meaning.isEmpty, "\(entry.term)")
            #expect(!entry.sources.isEmpty, "\(entry.term)")
            #expect(entry.sources.allSatisfy { $0.url.hasPrefix("https://") }, "\(entry.term)")
        }
    }

    /// Reads the reference itself (when the checkout sits next to it) and checks that every
    /// exception name, signal and termination code it mentions is known.
    @Test func everyTermNamedInTheReferenceIsKnown() throws {
        let reference = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/reference/explain.md")
        guard let text = try? String(contentsOf: reference, encoding: .utf8) else {
            print("skipped: reference not found at \(reference.path)")
            return
        }
        let pattern = try NSRegularExpression(pattern: #"\b(EXC_[A-Z0-9_]*[A-Z0-9]|SIG[A-Z0-9]+)\b|`(0x[0-9a-fA-F]{8})`"#)
        var terms = Set<String>()
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            for group in 1...2 {
                if let range = Range(match.range(at: group), in: text) { terms.insert(String(text[range])) }
            }
        }
        #expect(terms.count > 40)
        // Named by the reference from third-party reporters only (Crashpad's tag for Objective-C
        // exceptions): issue 17 allows Apple sources only, so there is nothing to cite for it.
        let thirdPartyOnly: Set = ["0xdeadc0de"]
        for term in terms.subtracting(thirdPartyOnly).sorted() {
            #expect(base.explain(term).isKnown, "\(term) is named in explain.md but not known")
        }
    }
}

/// More lists from the reference: namespace-scoped codes, jetsam reasons, Objective-C names.
@Suite struct ReferenceListTests {
    let base = KnowledgeBase.standard

    // §4.2 DYLD codes and §3.10 CODESIGNING codes, with their indicator texts.
    @Test(arguments: [
        ("DYLD 1 Library missing", "DYLD 1"), ("DYLD 2", "DYLD 2"), ("DYLD 4 Symbol missing", "DYLD 4"),
        ("DYLD 7", "DYLD 7"), ("CODESIGNING 1 Taskgated Invalid Signature", "CODESIGNING 1"),
        ("Namespace CODESIGNING, Code 0x2", "CODESIGNING 2"), ("CODESIGNING 4", "CODESIGNING 4"),
        ("LIBSYSTEM 4", "LIBSYSTEM 4"), ("EXEC 13", "EXEC 13"), ("LIBXPC 3", "LIBXPC 3"),
    ])
    func namespaceCodes(line: String, term: String) {
        #expect(base.explain(line).entries.map(\.term).contains(term))
    }

    // §4.11 / §5 jetsam reasons by name and by JETSAM code.
    @Test(arguments: [
        ("per-process-limit", 7), ("vm-pageshortage", 4), ("vnode-limit", 3), ("highwater", 2),
        ("fc-thrashing", 6), ("idle-exit", 9), ("cpulimit", 100),
    ])
    func jetsamReasons(name: String, code: UInt64) {
        #expect(base.explain(name).entries.first?.values == [code])
        #expect(base.explain("JETSAM \(code)").entries.contains { $0.term == name })
    }

    // §7 predefined Objective-C exception names.
    @Test(arguments: [
        "NSGenericException", "NSRangeException", "NSInvalidArgumentException", "NSInternalInconsistencyException",
        "NSObjectInaccessibleException", "NSObjectNotAvailableException", "NSDestinationInvalidException",
        "NSPortTimeoutException", "NSInvalidSendPortException", "NSInvalidReceivePortException",
        "NSPortSendException", "NSPortReceiveException", "NSMallocException", "NSUnknownKeyException",
    ])
    func objcExceptionNames(name: String) {
        #expect(base.explain(name).entries.first?.kind == .objcException)
    }

    // §2.5 and §2.6: EXC_RESOURCE subtypes and EXC_GUARD types.
    @Test(arguments: [
        "CPU", "CPU_FATAL", "WAKEUPS", "MEMORY", "IO", "THREADS", "PORTS",
        "GUARD_TYPE_MACH_PORT", "GUARD_TYPE_FD", "GUARD_TYPE_USER", "GUARD_TYPE_VN",
        "GUARD_TYPE_VIRT_MEMORY", "GUARD_TYPE_REJECTED_SC",
    ])
    func resourceAndGuardTypes(term: String) {
        let kind = base.explain(term).entries.first?.kind
        #expect(kind == .resourceType || kind == .guardType)
    }

    // §3.27 exception notes.
    @Test(arguments: ["EXC_CORPSE_NOTIFY", "SIMULATED (this is NOT a crash)", "NON-FATAL CONDITION (this is NOT a crash)"])
    func exceptionNotes(note: String) {
        #expect(base.explain(note).isKnown)
    }
}
