// English sentences of issue 41: the catalogue a diagnosis matched, Rust panics, kernel panic
// families and memory limits by process kind (the knowledge base's texts stay in its entries).

extension Catalog {
    static let englishIssue41: [PhraseKey: String] = [
        .uiMatched: "matched: {id}",
        .kindPanicFamily: "kernel panic family",
        .kindMemoryLimit: "process memory limit",
        .provenanceProjectDocumentation: "documented by the project that owns the code",
        .verdictRustPanic: "Rust panic: {title}{message}{site}.",
        .wordRustPanicMessage: " (\"{message}\")",
        .wordRustPanicAt: ", raised at {location}",
        .wordRustPanicIn: ", in {function}",
        .noteRustPanicMachinery: "Rust's panic machinery: the process stopped because Rust code panicked",
        .noteRustPanicKind: "the function that panicked: {kind}",
        .noteRustPanicLine: "the Rust runtime's own line: where the panic was raised and its message",
        .noteRustMessageMissing:
            "The report does not carry the panic's message: the Rust runtime prints it to standard error ('thread … panicked at …'), which crash reports do not keep.",
        .noteRustFirstOwnFrame: "first frame in the crate's own code (past core, std and alloc)",
        .stepOpenRustPanicLocation: "Open {location}: the Rust runtime says the panic was raised there",
        .stepRustBacktrace:
            "Run it again with RUST_BACKTRACE=1 (or full) in the environment: the Rust runtime then prints the panic's message and its backtrace to standard error",
        .stepRustFFIBoundary:
            "Where Swift, Objective-C or C calls into Rust, catch panics with std::panic::catch_unwind in every extern \"C\" function and return an error, or build with panic = \"abort\" so a panic stops at once where it happened",
        .stepRustCatchAtBoundary:
            "Wrap the body of every extern \"C\" function in std::panic::catch_unwind and return an error the caller checks: a panic cannot unwind out of it, so Rust aborts",
        .fieldReportLine: "Line {line}",
        .verdictKernelPanicFamily: "Kernel panic: {title}: {message}",
        .verdictKernelPanicFamilySubject: "Kernel panic: {title} ({subject}): {message}",
        .notePanicFamily: "{title} (family {id})",
        .fieldPanickedTask: "Panicked task",
        .noteThirdPartyKext: "not Apple's: the first suspect",
        .stepRemoveKext: "Update or remove {kext} and see whether the panics stop",
        .verdictMemoryLimitKind: "Memory limit: {name} was ended for its memory use{footprint}: {kind}; {limit}.",
        .fieldProcessKind: "Process kind",
        .quoteProcessKind: "{kind} ({shownBy})",
        .wordKindFromPath: "from its path {path}",
        .wordKindFromExtensionPoint: "from its extension point {point}",
        .wordKindFromName: "from its name {name}",
        .wordLimitStated: "the report states a limit of {limit}",
        .wordLimitObserved: "the limit developers observe for it is about {limit}",
        .wordLimitUnknown: "no figure for its limit is published or reliably observed",
        .wordFootprint: " at {size}",
        .causeOverKindLimit: "{name} went past its memory limit{footprint} ({kind}: {limit})",
        .stepMeasureProcessMemory:
            "Measure {name}'s footprint as the system counts it: Xcode's memory gauge while the debugger is attached, Instruments' Allocations and VM Tracker, and os_proc_available_memory() logged at run time",
    ]
}
