import Foundation
import SymbolicateCore

/// What a report says about its crash, typed, read once when the report is read
/// (`ReportReaders.read`, `CrashReport.readFacts()`). Every later stage — explain's rules, the
/// headline, batch's crash signature, system symbols, serve — reads these values and never takes
/// a report's text apart again. A reader whose input carries a fact as data (a reporter's JSON key,
/// a console line it parsed) sets it here itself; what is left unset is read from the fields every
/// layout shares (exception, termination, Application Specific Information) by `FactReading`.
public struct CrashFacts: Sendable, Hashable {
    /// Platform, architecture, Rosetta.
    public var platform = PlatformFacts()
    /// The Mach exception and signal, as numbers and names; nil when the report names none.
    public var exception: ExceptionFacts?
    /// Why the system ended the process (`Termination Reason:`, `.ips` `termination`).
    public var termination: TerminationFacts?
    /// An Objective-C or C++ exception nothing caught.
    public var uncaughtException: UncaughtExceptionFact?
    /// A failed assertion the report states in a line (C `assert`, a framework's assertion).
    public var assertion: AssertionFact?
    /// A Swift runtime check that stopped the process (`Fatal error:`, `Precondition failed:`),
    /// with its message and place as separate facts.
    public var swiftRuntimeError: SwiftRuntimeError?
    /// A crash reporter's own watchdog ended the process (KSCrash's deadlock monitor).
    public var reporterDeadlock: ReporterDeadlockFact?
    /// A compiler or another build tool that crashed itself (`swift frontend command failed due to
    /// signal`, LLVM's `Stack dump:`), read from a text's lines.
    public var toolchainCrash: ToolchainCrashFact?
    /// The system refused to start the program (`bad CPU type in executable`, `exec format
    /// error`), read from the stated messages.
    public var execRefusal: ExecRefusalFact?
    /// A crash reporter's own diagnosis from the frames (KSCrash's CrashDoctor), set by its reader.
    public var reporterDiagnosis: ReporterDiagnosisFact?
    /// What a crash reporter's event records beside Apple's fields (an error it keeps by name and
    /// value, a report of its own handler's crash, a freed exception), set by its reader.
    public var reporterRecord: ReporterRecordFact?
    /// The reporter's error as a statement (`ReportedError.statement`), then the first non-empty lines of Application Specific Information, trimmed and bounded
    /// (`FactReading.boundedLines`): what the report states in words, for quoting. A field of a
    /// hundred thousand lines costs no more than its first lines (issue 38).
    public var messageLines: [String] = []
    /// What Application Specific Information and the exception's message state besides the
    /// facts above (a selector, dlopen's and dyld's lines, libc++abi's bare `terminating`, a
    /// queue assertion, an off-main-thread complaint).
    public var statements = MessageStatements()
    /// A resource limit report's resource and whether the system ended the process for it.
    public var resource: ResourceFacts?
    /// The first line of `VM Region Info` as printed (`0x8 is not in any region.  Bytes before …`),
    /// read once (the text layout's line is looked for among all the report's lines).
    public var vmRegionLine: String?
    /// The region list's line for the faulting region (the one it marks `-->`), without the arrow.
    public var vmRegionArrow: String?
    /// Every message the report states in words, in the order a reader of the text meets them:
    /// what a reader set from its own input first, then the exception's reason, the Swift runtime
    /// error, Application Specific Information and the exception message (`FactReading`).
    /// Explain quotes the first one no rule knows (issue 48).
    public var statedMessages: [StatedMessage] = []
    /// A pasted text's lines that no reader read as anything (no frame, header or message
    /// shape): a framework's reason printed alone above the frames (`Modifications to the layout
    /// engine must not be performed from a background thread …`). No crash fact by themselves;
    /// explain looks for the messages its knowledge names in them when frames show a throw and
    /// nothing else states why. Bounded (`FactReading.unreadLineLimit`).
    public var unreadLines: [StatedMessage] = []
    /// The lines a pasted text shows a program printing just before the crash itself (the shell's
    /// `Abort trap: 6`, a backtracer's banner, the first frame), that no grammar reads (`Fatal:
    /// This application failed to start because no Qt platform plugin could be initialized.`):
    /// what the program said last, in reading order, at most three. No crash fact by themselves.
    public var lastOutput: [StatedMessage] = []
    /// The command typed at an interactive prompt just before the crash (R's `> library(dplyr)`,
    /// a shell's `$ ./tool`), when no printed line comes between: what ran last. Kept apart from
    /// `lastOutput`, whose lines the program printed.
    public var lastCommand: StatedMessage?
    /// The instruction a debugger showed the thread stopped at, mnemonic and operands as printed
    /// (LLDB's disassembly line `->  0x10090ad87 <+33>: shlxl  %esi, %eax, %ebx`): what an illegal
    /// instruction was, or a trap's `ud2`/`brk`. Set by the console and LLDB reader.
    public var stopInstruction: String?

    public init() {}

    /// The same facts without where they were quoted from: what two layouts of one crash must agree on.
    public var withoutQuotes: CrashFacts {
        var copy = self
        copy.uncaughtException?.quote = nil
        copy.assertion?.quote = nil
        copy.reporterDeadlock?.quotes = []
        // One reporter's guess, which the other layouts of the crash do not carry.
        copy.reporterDiagnosis = nil
        copy.reporterRecord = nil
        copy.messageLines = []
        copy.vmRegionLine = nil
        copy.vmRegionArrow = nil
        copy.statedMessages = []
        copy.statements = MessageStatements()
        copy.unreadLines = []
        copy.lastOutput = []
        copy.lastCommand = nil
        // Only a debugger's disassembly shows it.
        copy.stopInstruction = nil
        return copy
    }
}

extension CrashReport {
    /// Reads the facts the reader left unset from the report's fields (`FactReading`). Called
    /// once by `ReportReaders.read` and by the JSON dump's decoder; a reader that builds a report
    /// by hand calls it when done.
    package mutating func readFacts() {
        facts = FactReading(report: self).facts
    }
}
