import Foundation
import SymbolicateCrashReport
import SymbolicateTestSupport
import Testing

@testable import SymbolicateExplain

/// Issue 41: Rust panics, kernel panic families, memory limits by process kind, and the
/// MetricKit near-nil access, each on a report of that shape.
@Suite struct RustPanicTests {
    /// The abort machinery, then the panic runtime (as rustc 1.8x links it), then `panicking`,
    /// then the crate's own frames and the Swift caller.
    static func frames(_ panicking: [String], own: [String] = ["demo_core::store::Store::get", "demo_get"]) -> [(String, String)] {
        [
            ("libsystem_kernel.dylib", "__pthread_kill"), ("libsystem_c.dylib", "abort"),
            ("Demo", "std::sys::pal::unix::abort_internal"), ("Demo", "std::process::abort"),
            ("Demo", "__rust_start_panic"), ("Demo", "rust_panic"), ("Demo", "std::panicking::rust_panic_with_hook"),
            ("Demo", "std::panicking::begin_panic_handler::{{closure}}"), ("Demo", "rust_begin_unwind"),
        ] + panicking.map { ("Demo", $0) } + own.map { ("Demo", $0) } + [("Demo", "ViewController.viewDidLoad()")]
    }

    static func diagnose(_ panicking: [String], asi: [String] = ["abort() called"]) throws -> Diagnosis {
        try diagnoseText(
            RuleDiagnosisTests.report(
                exception: ["Exception Type:  EXC_CRASH (SIGABRT)", "Exception Codes: 0x0000000000000000, 0x0000000000000000"], asi: asi,
                frames: frames(panicking)))
    }

    static let kinds: [(panicking: [String], kind: RustPanic.Kind)] = [
        (["core::panicking::panic_fmt", "core::panicking::panic_bounds_check"], .indexOutOfBounds),
        (["core::panicking::panic_fmt", "core::option::unwrap_failed"], .unwrapFailed),
        (["core::panicking::panic_fmt", "core::result::unwrap_failed"], .unwrapFailed),
        (["core::panicking::panic_fmt", "core::option::expect_failed"], .unwrapFailed),
        (["core::panicking::panic_fmt", "core::slice::index::slice_end_index_len_fail"], .sliceRange),
        (["core::panicking::panic_fmt", "core::str::slice_error_fail"], .sliceRange),
        (["core::panicking::panic_fmt", "core::panicking::panic_const::panic_const_add_overflow"], .arithmeticOverflow),
        (["core::panicking::panic_fmt", "core::panicking::panic_const::panic_const_div_by_zero"], .divideByZero),
        (["core::panicking::panic_nounwind_fmt", "core::panicking::panic_cannot_unwind"], .cannotUnwind),
        (["std::alloc::rust_oom", "__rg_oom", "alloc::alloc::handle_alloc_error"], .allocationFailure),
        (["core::panicking::panic_fmt"], .explicit),
    ]

    @Test(arguments: kinds.indices)
    func eachKindIsNamedFromThePanickingFunction(_ index: Int) throws {
        let (panicking, kind) = Self.kinds[index]
        let diagnosis = try Self.diagnose(panicking)
        #expect(diagnosis.matched == Diagnosis.Match(catalogue: "rust-panic", id: kind.rawValue, subject: diagnosis.matched?.subject))
        #expect(diagnosis.headline.hasPrefix("Rust panic: "), "\(diagnosis.headline)")
        #expect(!diagnosis.headline.contains("no exception or message explains it"))
        #expect(diagnosis.nextSteps.contains { $0.contains("RUST_BACKTRACE=1") })
        // The crate's own frame, past core, std and alloc.
        #expect(
            diagnosis.evidence.contains {
                $0.quote.contains("demo_core::store::Store::get") && $0.note?.contains("crate's own code") == true
            })
        #expect(diagnosis.references.contains { $0.term == KnowledgeBase.rustPanicTerm(kind) })
    }

    /// `std::process::abort()` alone: the runtime aborted, no panic.
    @Test func abortWithoutPanicIsARuntimeAbort() throws {
        let text = RuleDiagnosisTests.report(
            exception: ["Exception Type:  EXC_CRASH (SIGABRT)"],
            frames: [
                ("libsystem_kernel.dylib", "__pthread_kill"), ("libsystem_c.dylib", "abort"),
                ("Demo", "std::sys::pal::unix::abort_internal"),
                ("Demo", "std::process::abort"), ("Demo", "demo_core::fatal"),
            ])
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.matched?.id == RustPanic.Kind.runtimeAbort.rawValue)
        #expect(diagnosis.category == .abort)
    }

    /// The message Rust printed (new two-line form, pasted with the report) names the place and is stated.
    @Test func messageAndLocationFromAPastedConsoleLine() throws {
        let text =
            RuleDiagnosisTests.report(
                exception: ["Exception Type:  EXC_CRASH (SIGABRT)"],
                frames: Self.frames(["core::panicking::panic_fmt", "core::panicking::panic_bounds_check"]))
            + "\nthread '<unnamed>' panicked at src/store.rs:42:18:\nindex out of bounds: the len is 3 but the index is 5\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
        let report = try CrashReport.parse(data: Data(text.utf8), path: "synthetic.crash")
        let message = try #require(report.rustPanicMessage)
        #expect(message.location == "src/store.rs:42:18")
        #expect(message.message == "index out of bounds: the len is 3 but the index is 5")
        let diagnosis = SymbolicateExplain.diagnose(report)
        #expect(diagnosis.certainty == .stated)
        #expect(diagnosis.headline.contains("the len is 3 but the index is 5"))
        #expect(diagnosis.nextSteps.first?.hasPrefix("Open src/store.rs:42:18") == true)
    }

    /// The older one-line form: `thread 'main' panicked at 'message', src/main.rs:4:5`.
    @Test func olderOneLineForm() {
        let found = RustPanicMessage.read(
            ["thread 'main' panicked at 'attempt to add with overflow', src/main.rs:4:5"], lineNumber: { $0 + 1 })
        #expect(found?.message == "attempt to add with overflow")
        #expect(found?.location == "src/main.rs:4:5")
        #expect(found?.standardCheck == .arithmeticOverflow)
        #expect(found.flatMap(RustPanic.Kind.fromMessage) == .arithmeticOverflow)
        let divide = RustPanicMessage(thread: "main", location: nil, message: "attempt to divide by zero", lineNumber: nil, line: "")
        #expect(RustPanic.Kind.fromMessage(divide) == .divideByZero)
    }

    /// A Swift crash with no Rust frame is not a Rust panic.
    @Test func swiftAbortIsNotARustPanic() throws {
        let diagnosis = try diagnoseText(
            RuleDiagnosisTests.report(
                exception: ["Exception Type:  EXC_CRASH (SIGABRT)"],
                frames: [("libsystem_kernel.dylib", "__pthread_kill"), ("libsystem_c.dylib", "abort"), ("Demo", "Demo.Model.load()")]))
        #expect(diagnosis.matched == nil)
    }
}

@Suite struct KernelPanicFamilyTests {
    /// A text panic as macOS writes it: the panic line, the panicked task, the kexts in the backtrace.
    static func panicText(_ message: String, kexts: [String] = []) -> String {
        var lines = [
            "panic(cpu 4 caller 0xfffffe0027b3c0d4): \(message)",
            "Debugger message: panic",
            "OS release type: User",
            "OS version: 23A344",
            "Panicked task 0xfffffe1b3e6c8678: 4412 pages, 23 threads: pid 412: WindowServer",
            "Panicked thread: 0xfffffe1b3f0e2a90, backtrace: 0xfffffe8f4b1a3540, tid: 5817",
            "\t\t  lr: 0xfffffe0027a4b2f8  fp: 0xfffffe8f4b1a35d0",
        ]
        if !kexts.isEmpty {
            lines.append("      Kernel Extensions in backtrace:")
            for kext in kexts {
                lines.append("         \(kext)[C5E1E8B6-0F0B-3F33-9C5B-24A4B6AF8F31]@0xfffffe00290a0000->0xfffffe00290b3fff")
                lines.append(
                    "            dependency: com.apple.iokit.IOPCIFamily(2.9)[4E2B4DCF-1B0D-3A61-A8A3-0E2D0B9F7B8A]@0xfffffe0028f00000->0xfffffe0028f2ffff"
                )
            }
        }
        lines += ["", "last started kext at 1234: com.apple.driver.AppleSEPKeyStore 2 (addr 0xfffffe00290a0000, size 16384)"]
        return lines.joined(separator: "\n") + "\n"
    }

    static let families: [(message: String, kexts: [String], family: KernelPanicFamily, subject: String?)] = [
        (
            "watchdog timeout: no checkins from watchdogd in 90 seconds (27 total checkins since monitoring last enabled)", [],
            .watchdogTimeout, "watchdogd"
        ),
        (
            "userspace watchdog timeout: no successful checkins from com.apple.WindowServer in 120 seconds", [], .watchdogTimeout,
            "com.apple.WindowServer"
        ),
        ("Kernel data abort. at pc 0xfffffe0027d1b2a0, lr 0xfffffe0027d1b274 (saved state: 0xfffffe8f4b1a3280)", [], .kernelAbort, nil),
        ("Kernel instruction fetch abort at pc 0x0, lr 0xfffffe0027d1b274 (saved state: 0xfffffe8f4b1a3280)", [], .kernelAbort, nil),
        (
            "[kalloc.128]: element modified after free (off:72, val:0xfffffe1b3f0e2a90, sz:128, ptr:0xfffffe1b3e6c8600)", [],
            .zoneCorruption, "kalloc.128"
        ),
        (
            "zalloc: zone map exhausted while allocating from zone VM map entries, likely due to memory leak in zone VM map entries", [],
            .zoneCorruption, "VM map entries"
        ),
        ("ANS2 Recoverable Panic - assert failed: [5356]:0 <no_file>:0", [], .storageController, "ANS2"),
        ("AppleANS3NVMeController::taskTimeout: Timeout waiting for IO completion", [], .storageController, "AppleANS3NVMeController"),
        ("AGX GPU Panic: [AGXFirmware] Firmware timed out", [], .gpu, "AGX"),
        ("MTE tag check fault at 0xf00fffe1b3e6c8600 (pc 0xfffffe0027d1b2a0)", [], .memoryTagging, nil),
        ("SEP Panic: :sks /sks : 0x0003e0c5 0x0003d9e1 0x0003d6e5", [], .secureEnclave, "sks"),
        (
            "AppleDisplayCrossbar::setPowerState(0xfffffe1b3e6c8600 : 0xfffffe0029b8c3a0, 1 -> 0) timed out after 45732 ms", [],
            .powerManagement, "AppleDisplayCrossbar"
        ),
        ("x86 CPU CATERR detected", [], .cpuCatastrophicError, nil),
        (
            "Kernel data abort. at pc 0xfffffe0027d1b2a0, lr 0xfffffe0027d1b274",
            ["com.apple.iokit.IOUSBHostFamily(1.2)", "com.example.driver.FancyUSB(3.1.4)"], .thirdPartyKext, "com.example.driver.FancyUSB"
        ),
        ("Something the families do not know", [], .other, nil),
    ]

    @Test(arguments: families.indices)
    func eachFamilyFromItsPanicString(_ index: Int) throws {
        let row = Self.families[index]
        let text = Self.panicText(row.message, kexts: row.kexts)
        let panic = try #require(KernelPanicFacts(panicText: text))
        let (family, subject) = KernelPanicFamily.classify(panic)
        #expect(family == row.family, "\(row.message)")
        #expect(subject == row.subject, "\(row.message)")
        // Through the whole pipeline: the text report reads, and explain names the family.
        let report = try CrashReport.parse(data: Data(text.utf8), path: "panic.txt")
        let diagnosis = SymbolicateExplain.diagnose(report)
        #expect(diagnosis.matched == Diagnosis.Match(catalogue: "kernel-panic", id: row.family.rawValue, subject: row.subject))
        #expect(diagnosis.headline.hasPrefix("Kernel panic: "))
        #expect(!diagnosis.nextSteps.isEmpty)
        #expect(diagnosis.evidence.contains { $0.field == "Panicked task" && $0.quote == "WindowServer [412]" })
        let japanese = SymbolicateExplain.diagnose(report, language: .japanese)
        #expect(japanese.headline.hasPrefix("カーネルパニックです"))
    }

    /// The real panics of the shared corpus: the AMD framebuffer's power-state timeout (text)
    /// and the bridgeOS CPU CATERR (its panic string, from a `.ips` whose header is malformed).
    @Test func realPanicsOfTheCorpus() throws {
        let amd = Corpus.bundled("icdab__kernel-panic-text_amd-power-state_macos.crash")
        let report = try CrashReport.parse(contentsOf: amd.path)
        let diagnosis = SymbolicateExplain.diagnose(report)
        #expect(diagnosis.matched == Diagnosis.Match(catalogue: "kernel-panic", id: "power-management", subject: "AMDFramebufferSI"))
        #expect(diagnosis.evidence.contains { $0.field == "Panicked task" && $0.quote == "kernel_task" })
        let bridge = try String(
            contentsOf: TestPaths.fixtures.appendingPathComponent("panics/icdab__bridgeos-panic_imac_bug210_malformed-json.crash"),
            encoding: .utf8)
        let start = try #require(bridge.range(of: "panic(cpu 0 caller"))
        let end = try #require(bridge[start.lowerBound...].range(of: "\","))
        let panicString = String(bridge[start.lowerBound..<end.lowerBound]).replacingOccurrences(of: "\\n", with: "\n")
        let panic = try #require(KernelPanicFacts(panicText: panicString))
        #expect(panic.panickedTask == "kernel_task")
        #expect(panic.panickedPID == 0)
        #expect(KernelPanicFamily.classify(panic).family == .cpuCatastrophicError)
    }

    /// A loaded driver never decides: `loaded kexts:` names AGX and APFS on every Mac.
    @Test func onlyTheMessageDecides() throws {
        let text =
            Self.panicText("Something the families do not know") + "loaded kexts:\ncom.apple.AGXG13X\t1\ncom.apple.filesystems.apfs\t2\n"
        let panic = try #require(KernelPanicFacts(panicText: text))
        #expect(KernelPanicFamily.classify(panic).family == .other)
    }
}

@Suite struct MemoryLimitTests {
    /// An `EXC_RESOURCE` memory report of a process at `path`.
    static func report(path: String, limit: String? = "(limit=50 MB, unused=0x0)") -> String {
        let name = (path as NSString).lastPathComponent
        var text = RuleDiagnosisTests.report(
            exception: [
                "Exception Type:  EXC_RESOURCE", "Exception Subtype: MEMORY", "Exception Message: " + (limit ?? "(no limit given)"),
                "Exception Note:  EXC_CORPSE_NOTIFY", "Termination Reason: JETSAM 7",
            ], frames: [("Demo", ""), ("Demo", "")])
        text = text.replacingOccurrences(
            of: "/private/var/containers/Bundle/Application/0A0B0C0D-0000-1111-2222-333344445555/Demo.app/Demo", with: path)
        text = text.replacingOccurrences(of: "Process:             Demo [4242]", with: "Process:             \(name) [4242]")
        return text.replacingOccurrences(of: " Demo arm64 ", with: " \(name) arm64 ").replacingOccurrences(
            of: "\nDemo  ", with: "\n\(name)  ")
    }

    static let root = "/private/var/containers/Bundle/Application/0A0B0C0D-0000-1111-2222-333344445555/Demo.app"

    static let kinds: [(bundle: String, kind: ProcessKind)] = [
        ("PlugIns/BroadcastUploadExtension.appex/BroadcastUploadExtension", .appExtension(.broadcastUpload)),
        ("PlugIns/NotificationService.appex/NotificationService", .appExtension(.notificationService)),
        ("PlugIns/NotificationContent.appex/NotificationContent", .appExtension(.notificationContent)),
        ("PlugIns/WidgetExtension.appex/WidgetExtension", .appExtension(.widget)),
        ("PlugIns/TodayExtension.appex/TodayExtension", .appExtension(.today)),
        ("PlugIns/ShareExtension.appex/ShareExtension", .appExtension(.share)),
        ("PlugIns/ActionExtension.appex/ActionExtension", .appExtension(.action)),
        ("PlugIns/Keyboard.appex/Keyboard", .appExtension(.keyboard)),
        ("PlugIns/PacketTunnel.appex/PacketTunnel", .appExtension(.packetTunnel)),
        ("PlugIns/FileProvider.appex/FileProvider", .appExtension(.fileProvider)),
        ("PlugIns/IntentsExtension.appex/IntentsExtension", .appExtension(.intents)),
        ("PlugIns/PhotoEditing.appex/PhotoEditing", .appExtension(.photoEditing)),
        ("PlugIns/Helper.appex/Helper", .appExtension(nil)),
        ("Watch/DemoWatch.app/DemoWatch", .watchApp),
        ("Demo", .app),
    ]

    @Test(arguments: kinds.indices)
    func eachKindItsLimit(_ index: Int) throws {
        let (bundle, kind) = Self.kinds[index]
        let path = Self.root + "/" + bundle
        var text = Self.report(path: path)
        if kind == .watchApp {
            text = text.replacingOccurrences(of: "iPhone OS 16.0 (20A362)", with: "Watch OS 10.0 (21R356)")
                .replacingOccurrences(of: "iPhone14,2", with: "Watch6,1")
        }
        let report = try CrashReport.parse(data: Data(text.utf8), path: "memory.crash")
        #expect(report.processKind?.kind == kind, "\(bundle)")
        #expect(report.statedMemoryLimitBytes == 50 << 20)
        let diagnosis = SymbolicateExplain.diagnose(report)
        #expect(diagnosis.matched?.catalogue == "memory-limit")
        #expect(diagnosis.matched?.id == kind.identifier)
        #expect(diagnosis.evidence.contains { $0.field == "Process kind" && $0.quote.hasPrefix(kind.identifier) })
        #expect(diagnosis.causes.first?.text.contains("the report states a limit of 50.0 MB") == true, "\(diagnosis.causes)")
        #expect(diagnosis.nextSteps.contains { $0.contains("os_proc_available_memory") })
        if kind != .app {
            #expect(diagnosis.headline.hasPrefix("Memory limit: "), "\(diagnosis.headline)")
        }
        #expect(SymbolicateExplain.diagnose(report, language: .japanese).causes.first?.text.contains("上限") == true)
    }

    /// Without a stated limit, the figure developers observe for the type (50 MB for a broadcast upload extension).
    @Test func observedLimitWhenTheReportStatesNone() throws {
        let path = Self.root + "/PlugIns/Broadcast.appex/Broadcast"
        let report = try CrashReport.parse(data: Data(Self.report(path: path, limit: nil).utf8), path: "memory.crash")
        let diagnosis = SymbolicateExplain.diagnose(report)
        #expect(diagnosis.headline.contains("about 50 MB"), "\(diagnosis.headline)")
    }

    /// A real jetsam event (the corpus copy) whose killed process is renamed as Xcode names a
    /// notification service extension's target: the kind, its limit and the resident size.
    @Test func jetsamEventOfAnExtension() throws {
        let url = Corpus.bundled("icdab__jetsam-event_iphone_ios14-2b.ips")
        let text = try String(contentsOf: url, encoding: .utf8)
            .replacingOccurrences(of: #""name" : "dasd""#, with: #""name" : "NotificationServiceExtension""#)
        let report = try CrashReport.parse(data: Data(text.utf8), path: "jetsam.ips")
        #expect(report.jetsamVictim?.name == "NotificationServiceExtension")
        let diagnosis = SymbolicateExplain.diagnose(report)
        #expect(
            diagnosis.matched
                == Diagnosis.Match(catalogue: "memory-limit", id: "extension/notification-service", subject: "NotificationServiceExtension")
        )
        #expect(
            diagnosis.headline.hasPrefix("Memory limit: NotificationServiceExtension was ended for its memory use at 7.1 MB"),
            "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("about 24 MB"))
        #expect(
            diagnosis.evidence.contains { $0.field == "Process kind" && $0.quote.contains("from its name NotificationServiceExtension") })
    }

    /// A jetsam event lists names only: an extension type only when the name says one.
    @Test func namesAlone() {
        #expect(ProcessKindFact.from(processName: "NotificationServiceExtension")?.kind == .appExtension(.notificationService))
        #expect(ProcessKindFact.from(processName: "ShareMate") == nil)
        #expect(AppExtensionType(extensionPointIdentifier: "com.apple.broadcast-services-upload") == .broadcastUpload)
    }
}

@Suite struct MetricKitRegionTests {
    @Test func regionLineIsRead() {
        #expect(
            VMRegionFact(line: "0x8 is not in any region.  Bytes before following region: 4294967288")
                == VMRegionFact(address: 8, isInRegion: false))
        #expect(
            VMRegionFact(line: "0 is not in any region.  Bytes before following region: 4331307008")
                == VMRegionFact(address: 0, isInRegion: false))
        #expect(VMRegionFact(line: "0x16f603ff8 is in 0x16f600000-0x16f604000;  bytes after start: 16376")?.isInRegion == true)
        #expect(VMRegionFact(line: "REGION TYPE START - END") == nil)
    }

    /// The fixture's MetricKit null-deref diagnostic (`virtualMemoryRegionInfo` "0x8 is not in
    /// any region") is the `.crash` form's nil + 0x8, not "likely freed memory".
    @Test func metricKitNearNilIsANilMemberAccess() throws {
        let url = TestPaths.fixtures.appendingPathComponent("logs/crashapp-metrickit.json")
        let reports = try CrashReport.parseAll(data: Data(contentsOf: url), path: url.path)
        let crash = try #require(reports.first { $0.facts.exception?.vmRegion?.address == 8 })
        let diagnosis = SymbolicateExplain.diagnose(crash)
        #expect(diagnosis.category == .nilDereference)
        #expect(diagnosis.headline.contains("0x8"))
        #expect(!diagnosis.headline.contains("freed"))
        #expect(diagnosis.evidence.contains { $0.field == "VM Region Info" })
    }
}

/// Every Rust panic kind, kernel panic family and process kind has its knowledge-base entry,
/// with a meaning, a step and a source (a renamed entry must not silently drop them).
@Suite struct Issue41EntryTests {
    static func check(_ term: String) {
        let entry = KnowledgeBase.standard.entries(named: term).first
        #expect(entry != nil, "\(term)")
        #expect(!(entry?.meaning.isEmpty ?? true), "\(term)")
        #expect(!(entry?.checkNext.isEmpty ?? true), "\(term)")
        #expect(!(entry?.sources.isEmpty ?? true), "\(term)")
    }

    @Test func everyKindHasItsEntry() {
        for kind in RustPanic.Kind.allCases { Self.check(KnowledgeBase.rustPanicTerm(kind)) }
        for family in KernelPanicFamily.allCases { Self.check(KnowledgeBase.panicFamilyTerm(family)) }
        for type in AppExtensionType.allCases { Self.check(KnowledgeBase.memoryLimitTerm(.appExtension(type))) }
        for kind in [ProcessKind.app, .watchApp, .appExtension(nil)] { Self.check(KnowledgeBase.memoryLimitTerm(kind)) }
        #expect(MemoryLimit.table.count == AppExtensionType.allCases.count + 3)
    }
}
