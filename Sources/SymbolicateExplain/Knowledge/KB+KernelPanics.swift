import Foundation

/// The families of kernel panics (issue 41), one entry each, keyed by the family's stable ID
/// (`KernelPanicFamily`). Where the words come from xnu, the entry cites xnu; where only real
/// panic files show them (drivers' and coprocessors' firmware), the entry says it is observed.
extension Citation {
    static let xnuZalloc = Citation(
        key: "XNU-ZALLOC", title: "xnu osfmk/kern/zalloc.c (zone_require, element modified after free, zone map exhausted)",
        url: "https://github.com/apple-oss-distributions/xnu/blob/main/osfmk/kern/zalloc.c")
    static let xnuSleh = Citation(
        key: "XNU-SLEH", title: "xnu osfmk/arm64/sleh.c (Kernel data abort, Kernel instruction fetch abort, tag check fault)",
        url: "https://github.com/apple-oss-distributions/xnu/blob/main/osfmk/arm64/sleh.c")
    static let xnuServicePM = Citation(
        key: "XNU-IOPM", title: "xnu iokit/Kernel/IOServicePM.cpp (setPowerState timed out)",
        url: "https://github.com/apple-oss-distributions/xnu/blob/main/iokit/Kernel/IOServicePM.cpp")
    static let macRestarts = Citation(
        key: "APPLE-PANIC", title: "Apple Support: If your Mac restarts and a message appears",
        url: "https://support.apple.com/en-us/104946")
    static let appleDiagnostics = Citation(
        key: "APPLE-DIAG", title: "Apple Support: Use Apple Diagnostics to test your Mac", url: "https://support.apple.com/en-us/102550")
    static let feedbackAssistant = Citation(
        key: "FEEDBACK", title: "Apple: Bug reporting (Feedback Assistant, with the panic file attached)",
        url: "https://developer.apple.com/bug-reporting/")
    static let kernelExtensions = Citation(
        key: "KEXT", title: "Apple: Kernel extensions (deprecated; use system extensions)",
        url: "https://developer.apple.com/documentation/kernel")
}

extension KnowledgeBase {
    /// `kernel panic: <family ID>`: the term a family's entry is found by.
    static func panicFamilyTerm(_ family: KernelPanicFamily) -> String { "kernel panic: " + family.rawValue }

    private static func family(
        _ family: KernelPanicFamily, _ title: String, _ meaning: String, causes: [String], steps: [String], sources: [Citation],
        provenance: Provenance, aliases: [String] = []
    ) -> KnowledgeEntry {
        KnowledgeEntry(
            term: panicFamilyTerm(family), kind: .panicFamily, title: title, meaning: meaning, causes: causes, checkNext: steps,
            sources: sources, provenance: provenance, aliases: aliases)
    }

    static let panicFamilies: [KnowledgeEntry] = [
        family(
            .watchdogTimeout, "Watchdog timeout panic",
            "The system stopped answering its watchdog: watchdogd (or, for a userspace watchdog timeout, a system service such as WindowServer) did not check in within the allowed time, so the kernel panicked to restart the machine. The service or thread that stopped is the one to follow.",
            causes: [
                "A system service hung waiting on a driver, a disk or the GPU (the panic names the service that stopped checking in)",
                "The machine was so overloaded or stalled (thermal throttling, memory thrashing) that the watchdog starved",
            ],
            steps: [
                "Look in the panic file for the service that stopped checking in and for what its threads were waiting on",
                "Update macOS and remove third-party kernel or system extensions, then see whether it recurs",
                "If it recurs, report it to Apple with Feedback Assistant and attach the panic file",
            ],
            sources: [.macRestarts, .feedbackAssistant], provenance: .observed,
            aliases: ["watchdog timeout: no checkins from watchdogd", "userspace watchdog timeout"]),
        family(
            .kernelAbort, "Kernel data abort",
            "Kernel code read, wrote or jumped through an invalid address (a data abort, or an instruction fetch abort when it jumped). The kernel or a kernel extension has a bug, or memory corrupted it; the panic's backtrace and its list of kernel extensions say whose code it was.",
            causes: [
                "A bug in the kernel or a kernel extension (a pointer used after it was freed, or never set)",
                "Failing memory or other hardware, when the panics recur with different backtraces",
            ],
            steps: [
                "Read the panic's Kernel Extensions in backtrace list: a non-Apple one there is the first suspect",
                "Update macOS; if the panics recur with different backtraces, run Apple Diagnostics",
                "Report it to Apple with Feedback Assistant and attach the panic file",
            ],
            sources: [.xnuSleh, .macRestarts, .appleDiagnostics], provenance: .openSource,
            aliases: ["Kernel data abort", "Kernel instruction fetch abort"]),
        family(
            .zoneCorruption, "Kernel zone allocator check",
            "The kernel's memory allocator (zalloc) found its own data wrong: an element written after it was freed, an address that is not in the zone it should be (zone_require), or a zone map exhausted by a kernel memory leak. The zone named in the panic says which kind of kernel object.",
            causes: [
                "Kernel memory was written after it was freed, by the kernel or a kernel extension",
                "A kernel memory leak filled the zone map (zone map exhausted: the panic names the zone that grew)",
            ],
            steps: [
                "Note the zone the panic names; remove third-party kernel extensions and see whether it recurs",
                "Report it to Apple with Feedback Assistant and attach the panic file",
            ],
            sources: [.xnuZalloc, .feedbackAssistant], provenance: .openSource,
            aliases: ["zone_require", "element modified after free", "zone map exhausted"]),
        family(
            .storageController, "Storage controller panic",
            "The panic comes from the storage stack: the SSD's controller (ANS2, AppleANS…), its NVMe driver or APFS. The controller's firmware or the drive reported a failure the kernel could not recover from.",
            causes: [
                "The SSD or its controller is failing, or its firmware hit a bug",
                "File-system damage APFS could not handle",
            ],
            steps: [
                "Back up now, then run Disk Utility's First Aid on the startup disk",
                "Run Apple Diagnostics and update macOS (it updates the controller's firmware)",
                "If it recurs, have the Mac serviced and report it to Apple with the panic file",
            ],
            sources: [.macRestarts, .appleDiagnostics], provenance: .observed, aliases: ["ANS2", "AppleANS"]),
        family(
            .gpu, "GPU panic",
            "The GPU's driver or firmware (AGX on Apple silicon) stopped with an error the kernel could not recover from. An app can trigger it only through a bug in the driver or firmware; the app that was drawing is a lead, not the cause.",
            causes: [
                "A bug in the GPU driver or firmware, hit by some app's graphics or compute work",
                "A GPU hardware fault, when it recurs with different apps",
            ],
            steps: [
                "Update macOS (it carries the GPU driver and firmware)",
                "Note which app was drawing (the panicked task) and whether external displays were attached",
                "Report it to Apple with Feedback Assistant and attach the panic file",
            ],
            sources: [.macRestarts, .feedbackAssistant], provenance: .observed, aliases: ["AGX", "GPU Panic"]),
        family(
            .memoryTagging, "Memory-tagging fault in the kernel",
            "Memory tagging (MTE) caught kernel code using memory through a pointer whose tag does not match: a use after free or an out-of-bounds access in the kernel or a kernel extension, stopped where it happened.",
            causes: ["A use after free or out-of-bounds access in kernel code or a kernel extension"],
            steps: ["Report it to Apple with Feedback Assistant and attach the panic file; the tag check names the access itself"],
            sources: [.xnuSleh, .feedbackAssistant], provenance: .openSource, aliases: ["tag check fault"]),
        family(
            .secureEnclave, "Secure Enclave panic",
            "The Secure Enclave's own operating system (sepOS) panicked, and the main kernel panicked with it. The word after 'SEP Panic:' names the Secure Enclave app that stopped (sks is its key store).",
            causes: ["A Secure Enclave firmware bug", "A hardware fault, when it recurs"],
            steps: [
                "Update the OS (it carries the Secure Enclave's firmware)",
                "If it recurs, report it to Apple with Feedback Assistant and attach the panic file, and have the device serviced",
            ],
            sources: [.macRestarts, .feedbackAssistant], provenance: .observed, aliases: ["SEP panic", "sepos"]),
        family(
            .powerManagement, "Power-management timeout",
            "A driver did not finish a power-state change in time (setPowerState timed out), or the power-management unit reported a failure. The panic names the driver that did not answer.",
            causes: [
                "The driver named (often graphics) hung while its device changed power state, at sleep or wake",
                "A failing device or peripheral that the driver waits on",
            ],
            steps: [
                "Update macOS and the named driver's vendor software; disconnect peripherals and see whether it recurs",
                "Run Apple Diagnostics; report it to Apple with the panic file if it recurs",
            ],
            sources: [.xnuServicePM, .appleDiagnostics], provenance: .openSource, aliases: ["setPowerState timeout"]),
        family(
            .cpuCatastrophicError, "Intel CPU catastrophic error (bridgeOS)",
            "The T2 chip's bridgeOS saw the Intel CPU report a catastrophic error (CATERR) and restarted the Mac. The CPU stopped at the hardware level: no software on the Intel side wrote a panic of its own.",
            causes: ["A hardware fault (CPU, power delivery, logic board) or a firmware bug"],
            steps: [
                "Update macOS (it updates the firmware) and run Apple Diagnostics",
                "If it recurs, have the Mac serviced; report it to Apple with the panic file",
            ],
            sources: [.appleDiagnostics, .feedbackAssistant], provenance: .observed, aliases: ["x86 CPU CATERR"]),
        family(
            .thirdPartyKext, "Panic in a third-party kernel extension",
            "A kernel extension that is not Apple's is in the panic's backtrace: kernel code it runs, or code it called, stopped the system. It is the first suspect.",
            causes: ["A bug in the named kernel extension, or one incompatible with this OS version"],
            steps: [
                "Check which version of the extension is loaded (kmutil showloaded, systemextensionsctl list) and whether its vendor has a newer one",
                "Report it to the extension's vendor with the panic file",
            ],
            sources: [.kernelExtensions, .macRestarts], provenance: .observed, aliases: ["Kernel Extensions in backtrace"]),
        family(
            .other, "Kernel panic",
            "The kernel stopped the system with a message no known family matches. The panic string is the whole description.",
            causes: ["An OS bug, a driver bug or a hardware fault"],
            steps: ["Report it to Apple with Feedback Assistant and attach the panic file"],
            sources: [.macRestarts, .feedbackAssistant], provenance: .observed),
    ]
}
