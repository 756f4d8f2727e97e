import Foundation

/// A crash message the text states in words, as the runtime, a library or a tool printed it, with
/// the line that states it. Every layout fills these the same way: the tolerant reader from the
/// console lines it finds (`CrashTextGrammar`), `FactReading` from the uncaught exception's
/// reason, the Swift runtime error, Application Specific Information and the exception's message
/// for the other layouts. Explain quotes them as the stated cause when no rule knows the message,
/// so it never says less than the text (issue 48).
public struct StatedMessage: Sendable, Hashable {
    /// Who printed it, decided by the message's grammar (never by its wording beyond that).
    public enum Family: String, Sendable, Hashable, CaseIterable {
        /// The Swift runtime or standard library: `Fatal error:`, `Precondition failed:`, Swift's
        /// `Assertion failed:`, exclusivity (`Simultaneous accesses to 0x…`), concurrency checks
        /// (`Incorrect actor executor assumption`, `SWIFT TASK CONTINUATION MISUSE:`), unowned
        /// references, failed casts, the bare messages of its checks (`Index out of range`).
        case swiftRuntime
        /// An uncaught Objective-C exception: libobjc's `*** Terminating app due to uncaught
        /// exception 'Name', reason: '…'`, or a crash service's `NameException: reason` line.
        case objcException
        /// libc++abi's `terminating due to uncaught exception of type T: what`.
        case cxxException
        /// libc++abi's other last words before it aborts (its `abort_message`, the only text it
        /// prints): `terminating`, `terminate_handler unexpectedly threw an exception`, `Pure virtual
        /// function called!`, `__cxa_guard_acquire detected recursive initialization`, …
        case cxxRuntime
        /// An uncaught exception of a managed runtime embedded in the app, which stops the process:
        /// .NET/Mono (`Unhandled managed exception: … (System.NullReferenceException)`,
        /// `System.NullReferenceException: …`), Kotlin/Native (`Uncaught Kotlin exception: …`).
        case managedException
        /// A failed assertion: C `assert()`, Foundation's `*** Assertion failure in -[X y]`, a
        /// framework debug layer's `failed assertion` (Metal API Validation).
        case assertion
        /// The Main Thread Checker: `Main Thread Checker: UI API called on a background thread: …`.
        case threadChecker
        /// A system library refusing its caller: `BUG IN CLIENT OF LIBDISPATCH: …`.
        case libraryMisuse
        /// The malloc debugging layer: `malloc: *** error for object 0x…: pointer being freed was not allocated`.
        case malloc
        /// dyld: `Library not loaded: @rpath/X.framework/X`, `Symbol not found: _x`.
        case dyld
        /// TCC's `This app has crashed because it attempted to access privacy-sensitive data without a usage description`.
        case privacy
        /// A resource limit: `EXC_RESOURCE RESOURCE_TYPE_MEMORY …`, `Terminated due to memory issue`, jetsam.
        case resource
        /// A Mach exception as a debugger or service prints it: `EXC_BAD_ACCESS (code=1, address=0x0)`.
        case machException
        /// A signal, as a debugger, a shell or a service says it: `signal SIGABRT`, `Abort trap: 6`,
        /// `Segmentation fault: 11`, `zsh: killed`, `exit code 137 (interrupted by signal 9: SIGKILL)`.
        case signal
        /// A diagnostic printed with a backtrace while the process keeps running, not a crash:
        /// the Thread Performance Checker (`Thread Performance Checker: Thread running at
        /// QOS_CLASS_USER_INTERACTIVE waiting on a lower QoS thread …`), a library's simulated
        /// crash (Network's `__nwlog_err_simulate_crash`, `…, dumping backtrace:`). A text that
        /// states nothing else is refused as no crash.
        case diagnostic
        /// A tool's words that the process it ran ended abnormally, without saying how: XCTest's
        /// `Restarting after unexpected exit, crash, or test timeout in T`, xcodebuild's `Early
        /// unexpected exit, operation never finished bootstrapping`, `Test crashed with signal …`.
        case processExit
        /// The system refused to start a program, in the words of what started it (`zsh: bad CPU
        /// type in executable: ./tool`, `exec /app: exec format error`): `ExecRefusalFact`.
        case execRefused
        /// Xcode's annotation of the stopped thread holding a reason of its own
        /// (`Thread 4: Illegal attempt to establish a relationship …`): the text of a message no
        /// grammar above names.
        case annotation
    }

    /// Where in the input the message stood: explain names it next to the quote.
    public enum Source: String, Sendable, Hashable, CaseIterable {
        /// A line of console, log or pasted text.
        case console
        /// Xcode's annotation of the stopped thread (`Thread 1: …`, `Worker (11): …`), or
        /// LLDB's stop reason.
        case annotation
        /// A report's Application Specific Information (or a reporter's crash-info message).
        case appSpecificInformation
        /// A report's exception message field.
        case exceptionMessage
        /// An uncaught exception's reason, or a C++ exception's `what()`.
        case exceptionReason
        /// A Swift runtime check's line (`Fatal error:`, `Precondition failed:`).
        case runtimeError
    }

    public var family: Family
    /// The message itself: without the log prefix (timestamp, `[tag]`, `App[pid:tid]`) or the
    /// annotation's `Thread 1: `, trimmed; a message continued over lines is joined with `\n`.
    public var text: String
    /// The input's line that states it, trimmed, as printed (quoted as evidence).
    public var quote: String
    /// 1-based line of the input, when the message was read from a text line.
    public var line: Int?
    public var source: Source
    /// The source file and line the message names (`RealmSwift/Util.swift:169`), when it names one.
    public var place: String?

    public init(family: Family, text: String, quote: String, line: Int? = nil, source: Source, place: String? = nil) {
        self.family = family
        self.text = text
        self.quote = quote
        self.line = line
        self.source = source
        self.place = place
    }

    /// A message read from a report's own field (`FactReading`): its family read from its words
    /// by the console reader's grammar, else from the field it stood in.
    public init(_ text: String, source: Source, place: String? = nil) {
        self.init(text, source: source, place: place, readings: nil)
    }

    /// With the readings of the text the message was read from, which may know the line already.
    init(_ text: String, source: Source, place: String? = nil, readings: LineReadings?) {
        let family: Family
        if let match = readings.map({ $0.match(text) }) ?? CrashMessageGrammar.match(text) {
            family = match.family
        } else {
            switch source {
            case .exceptionReason: family = .objcException
            case .runtimeError: family = .swiftRuntime
            case .console, .annotation, .appSpecificInformation, .exceptionMessage: family = .annotation
            }
        }
        self.init(family: family, text: text, quote: text, source: source, place: place)
    }

    /// Foundation's `*** Assertion failure in -[X y], file:line` (its stars lost in a paste too):
    /// the method that asserted, with what follows it on its line; nil for any other message.
    public var assertedMethod: String? {
        guard family == .assertion else { return nil }
        var rest = Substring(text)
        if rest.hasBytePrefix("*** ") { rest = rest.dropFirst(4) }
        let opening = "Assertion failure in "
        guard rest.hasBytePrefix(opening) else { return nil }
        let method = rest.dropFirst(opening.utf8.count).prefix { $0 != "\n" }
        return method.isEmpty ? nil : String(method)
    }

    /// The signal a `.signal` message names (`Abort trap: 6` → SIGABRT), read by the one grammar.
    public var namedSignal: String? {
        family == .signal ? SignalLine.signal(in: Substring(text.split(separator: "\n", maxSplits: 1).first ?? "")) : nil
    }

    /// A line of words, as a reason is: not a heading (`stack backtrace:`), and mostly words
    /// (three or more), not a version banner (`ruby 3.2.0 (2022-12-25 revision a528908271)
    /// [arm64-darwin22]`) or a list of values. Explain takes the line after an assertion as its
    /// reason only when it reads so.
    public var readsAsSentence: Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.hasSuffix(":") else { return false }
        let tokens = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
        let words = tokens.filter { token in
            let core = token.trimmingCharacters(in: CharacterSet(charactersIn: ".,;:!?\"'`()[]"))
            return core.count >= 2 && core.allSatisfy { $0.isLetter || $0 == "'" || $0 == "-" }
        }
        return words.count >= 3 && words.count * 2 >= tokens.count
    }

    /// A signal's line in a shell's or `strsignal`'s words (`zsh: illegal hardware instruction
    /// ./tool`, `Bus error: 10`): those words alone, without the job or the command around them.
    public var signalWords: String? {
        guard family == .signal else { return nil }
        return SignalLine.descriptions.filter { text.containsBytes($0.words) }.max { $0.words.utf8.count < $1.words.utf8.count }?.words
    }

    /// A signal's or an exception's line that says more than the signal: who or what died, or how
    /// (`clang: error: unable to execute command: Segmentation fault: 11`, `handle_crash: Program
    /// crashed with signal 11`, `zsh: trace trap  bun run index.mjs`), not only its name or the
    /// shell's description of it (`signal SIGABRT`, `Segmentation fault: 11`, `SIGSEGV (0xb)`).
    public var saysMoreThanItsSignal: Bool {
        guard [.signal, .machException, .processExit].contains(family) else { return false }
        // A runtime's dump of the `siginfo_t` its handler was given (`si_signo=Segmentation
        // fault: 11(11), si_code=2, si_addr=0x0`): its own report of the fault, with the address.
        if SignalLine.siginfoSignal(in: Substring(text)) != nil { return true }
        var rest = text
        // A debugger's stop line names the thread, its queue and the reason, not who died: only
        // the reason counts (`thread #1, queue = '…', stop reason = EXC_BAD_ACCESS (code=1, …)`,
        // Xcode's `Thread 1: EXC_BAD_ACCESS (…)`).
        if let reason = rest.byteRange(of: "stop reason = ") { rest = String(rest[reason.upperBound...]) }
        if rest.hasBytePrefix("Thread "), let colon = rest.firstIndex(of: ":"),
            rest[rest.index(rest.startIndex, offsetBy: 7)..<colon].allSatisfy({ $0.isASCII && $0.isNumber })
        {
            rest = String(rest[rest.index(after: colon)...])
        }
        for (words, _) in SignalLine.descriptions { rest = rest.replacingOccurrences(of: words, with: " ") }
        // Words, not identifiers: a field's name (`"exception_name": "EXC_CRASH"`) says nothing more.
        let words = rest.split { !($0.isLetter || $0 == "_") }.filter { word in
            !(word.contains("_") || word.hasBytePrefix("SIG") || ["signal", "Signal", "code", "address", "at", "x"].contains(String(word)))
        }
        return words.reduce(0) { $0 + $1.count } >= 3
    }

    /// libc++abi's line for an Objective-C exception (`terminating due to uncaught exception of
    /// type NSException`): it names the exception's type and nothing the exception said.
    public var namesOnlyAnObjectiveCExceptionType: Bool {
        guard family == .objcException, let line = ConsoleLine.cxxException(text) else { return false }
        return line.type == "NSException" && (line.what ?? "").isEmpty
    }

    /// The message that says most about the crash among `messages`: the first of the most
    /// specific family (a runtime's or library's own words before a signal a shell added).
    public static func primary(of messages: [StatedMessage]) -> StatedMessage? {
        messages.min { $0.family.specificity < $1.family.specificity }
    }
}

extension StatedMessage.Family {
    /// Lower is more specific: what the code that stopped said, then what the system said of the
    /// process, then what a shell or a debugger saw.
    package var specificity: Int {
        switch self {
        case .swiftRuntime, .objcException, .cxxException, .cxxRuntime, .managedException, .assertion, .threadChecker, .libraryMisuse,
            .malloc, .dyld, .privacy, .execRefused:
            0
        case .annotation, .processExit: 1
        case .resource, .machException: 2
        case .signal: 3
        case .diagnostic: 4
        }
    }
}
