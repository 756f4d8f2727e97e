import Foundation
import SymbolicateCore

/// Reads the facts a reader left unset from the fields every layout fills: the exception and
/// termination fields, Application Specific Information, the VM region line, the OS and hardware.
/// The one place a report's printed English (libobjc's and libc++abi's last words, `assert`'s
/// message, a watchdog's figures, a fault description) is taken apart; it runs once per report.
package struct FactReading {
    package private(set) var facts: CrashFacts

    package init(report: CrashReport) {
        facts = report.facts
        // A reporter's error is stated first, as the Apple-format writers print it first.
        let recorded = [facts.reporterRecord?.error?.statement].compactMap { $0 }
        let lines = recorded + Self.boundedLines(of: report.applicationSpecificInformation ?? "")
        facts.messageLines = lines
        facts.vmRegionLine = report.vmRegionInfo
        facts.vmRegionArrow = report.vmRegionArrow
        let message = report.exception?.message?.trimmingCharacters(in: .whitespaces)
        // The lines a crash's own words may be in: Application Specific Information, then the exception's message.
        let stated = lines + [message].compactMap { $0 }
        if facts.platform == PlatformFacts() { facts.platform = Self.platform(of: report) }
        if facts.exception == nil, let exception = report.exception {
            facts.exception = Self.exception(
                exception, regionLine: facts.vmRegionLine, arrow: facts.vmRegionArrow, platform: facts.platform.platform)
        }
        let terminationText =
            ([report.termination?.text ?? ""] + (report.termination?.details ?? []) + lines).joined(separator: "\n")
        if facts.termination == nil {
            facts.termination = Self.termination(
                report.termination, text: terminationText, lines: (report.termination?.details ?? []) + lines)
        }
        if facts.uncaughtException == nil {
            facts.uncaughtException = Self.uncaught(report, stated: stated)
        }
        if facts.assertion == nil {
            facts.assertion = Self.assertion(in: stated)
        }
        if facts.swiftRuntimeError == nil { facts.swiftRuntimeError = report.exception?.runtimeError }
        facts.statements = Self.statements(lines: lines, stated: stated, details: report.termination?.details ?? [])
        // A reporter's diagnosis shown in Application Specific Information is its guess from the
        // frames, not a message the crash states: typed as such when a text shows it (KSCrash's
        // and Sentry's Apple-format texts print CrashDoctor's sentence there).
        if facts.reporterDiagnosis == nil { facts.reporterDiagnosis = ReporterDiagnosisFact.crashDoctor(in: lines) }
        if facts.reporterDiagnosis == nil, case .text(let document) = report.source {
            facts.reporterDiagnosis = ReporterDiagnosisFact.debuggerdCause(in: document)
        }
        let statingLines = facts.reporterDiagnosis.map { diagnosis in lines.filter { !diagnosis.states($0) } } ?? lines
        let readings: LineReadings? = if case .text(let document) = report.source { document.readings } else { nil }
        facts.statedMessages = Self.statedMessages(facts, lines: statingLines, message: message, readings: readings)
        if facts.resource == nil { facts.resource = Self.resource(report) }
        if facts.statedMessages.isEmpty { facts.statedMessages = Self.statedMessages(lines: statingLines, message: message) }
        // Messages on the lines no field holds: none in a JSON or binary layout (every part of it
        // is a field), and above its header only in a whole text report (its own lines are its fields).
        // Where a pasted report's header begins and which lines a reader read, asked once; the
        // messages above that header, once read, serve the last output below too.
        let text = Self.textLayout(of: report)
        var aboveHeader: [StatedMessage]?
        if facts.statedMessages.isEmpty, let text, !report.format.isStructured {
            let before = report.completeness.isComplete ? text.reportStart : nil
            facts.statedMessages = Self.statedMessages(outsideFieldsOf: text.document, before: before, skipping: text.readLines)
            if before != nil { aboveHeader = facts.statedMessages }
        }
        if facts.statedMessages.isEmpty, let text { facts.statedMessages = Self.libcMessageArguments(of: report, in: text.document) }
        if facts.statedMessages.isEmpty, let text { facts.statedMessages = Self.oomKillerInvocation(in: text.document) }
        // The selector libobjc was sending, stated in a pasted line rather than the report's field.
        if facts.statements.selectorLine == nil,
            let line = facts.statedMessages.first(where: { Self.isSelectorLine($0.text) })
        {
            facts.statements.selectorLine = line.text
        }
        // dyld's message in a line of its own grammar when no `Library not loaded:` or `Symbol not
        // found:` states it (`dyld: cannot load 'deno' (load command 0x80000034 is unknown)`).
        if facts.statements.dyldMessage == nil, let dyld = facts.statedMessages.first(where: { $0.family == .dyld }) {
            facts.statements.dyldMessage = dyld.text
        }
        // A layout whose fields name no exception or signal, with a line that does (`# Cause:
        // Crash due to signal: SIGTRAP(TRAP_BRKPT)` above a crash service's frames): that line's.
        if facts.exception == nil {
            var stated = ExceptionInfo()
            for message in facts.statedMessages where [.machException, .signal].contains(message.family) {
                stated.take(statedCrash: message)
            }
            if stated.type != nil || stated.signal != nil {
                facts.exception = Self.exception(
                    stated, regionLine: facts.vmRegionLine, arrow: facts.vmRegionArrow, platform: facts.platform.platform)
            } else if let syndrome = report.exceptionFromSyndrome {
                // Only the crashed thread's registers: its `esr` says which exception the CPU took.
                facts.exception = Self.exception(
                    syndrome, regionLine: facts.vmRegionLine, arrow: facts.vmRegionArrow, platform: facts.platform.platform)
                facts.exception?.isFromRegisters = true
            }
        }
        if case .text(let document) = report.source, !report.completeness.isComplete {
            facts.unreadLines = Self.unreadLines(of: document, stated: facts.statedMessages, skipping: text?.readLines ?? [])
        }
        facts.execRefusal = ExecRefusalFact.read(from: facts.statedMessages)
        if case .text(let document) = report.source {
            facts.toolchainCrash = ToolchainCrashFact.read(document, limit: Self.messageScanLineLimit)
        }
        // What the program printed last: in a pasted text, or a tool's own crash text with no
        // report header (Swift's backtracer after the program's output), the lines above the
        // crash; with a report's header pasted below a terminal's output (`macOS 11 or later
        // required !`, zsh's `[1]  55200 abort  python`, then the report, whole or cut), the lines
        // above the stop the shell saw: the report's own fields are no output.
        if let text {
            if !report.headerFields.isEmpty, let start = text.reportStart {
                let above =
                    aboveHeader
                    ?? (start > 2 ? Self.statedMessages(outsideFieldsOf: text.document, before: start, skipping: text.readLines) : [])
                if above.contains(where: { [.signal, .processExit].contains($0.family) }) {
                    facts.lastOutput = Self.lastOutput(of: text.document, report: report, stated: above).output
                }
            } else if !report.completeness.isComplete || report.headerFields.isEmpty {
                (facts.lastOutput, facts.lastCommand) = Self.lastOutput(of: text.document, report: report, stated: facts.statedMessages)
            }
        }
        // The program's output its crash line continues (`Reading in tax DB...terminate called after
        // throwing …`): what it printed last, when no line above says.
        if facts.lastOutput.isEmpty, let (message, output) = Self.unfinishedOutput(facts.statedMessages) {
            facts.lastOutput = [
                StatedMessage(family: .annotation, text: output, quote: message.quote, line: message.line, source: .console)
            ]
        }
        // A crash service's title naming a C++ exception (`std::bad_alloc: std::bad_alloc`).
        if facts.uncaughtException == nil,
            let (message, title) = facts.statedMessages.lazy.compactMap({ message in
                message.family == .cxxException ? CxxExceptionTitle.parse(Substring(message.text)).map { (message, $0) } : nil
            }).first
        {
            facts.uncaughtException = UncaughtExceptionFact(
                UncaughtException(language: .cxx, name: title.type, reason: title.what),
                hasBacktrace: !(report.lastExceptionBacktrace?.frames.isEmpty ?? true), quote: message.quote)
        }
        // A reporter's deadlock: as the reader set it, or as a line says it; quoted by the lines saying it
        // (KSCrash's CrashDoctor names the function the main thread was stuck in).
        let deadlock = Array(lines.filter { $0.lowercased().containsBytes("main thread deadlock") }.prefix(2))
        if facts.reporterDeadlock == nil, !deadlock.isEmpty {
            facts.reporterDeadlock = ReporterDeadlockFact(quotes: deadlock)
        } else if facts.reporterDeadlock?.quotes.isEmpty == true {
            facts.reporterDeadlock?.quotes = deadlock
        }
    }

    // MARK: - Stated messages

    /// The first console message whose line starts with the program's own words, left without a
    /// line break before it, and those words (the line without its log prefixes, up to the message).
    static func unfinishedOutput(_ stated: [StatedMessage]) -> (StatedMessage, String)? {
        for message in stated where message.source == .console && message.line != nil {
            let words = LogPrefix.strip(message.quote)
            guard words.hasSuffix(message.text), words.utf8.count > message.text.utf8.count else { continue }
            let output = words.dropLast(message.text.count).trimmedBlanks
            guard output.utf8.count >= 3, output.contains(where: \.isLetter) else { continue }
            return (message, output)
        }
        return nil
    }

    /// The messages a reader set, then the ones the shared fields state, each text once.
    static func statedMessages(_ facts: CrashFacts, lines: [String], message: String?, readings: LineReadings? = nil) -> [StatedMessage] {
        var messages = facts.statedMessages
        if let uncaught = facts.uncaughtException?.exception, let reason = uncaught.reason, !reason.isEmpty {
            messages.append(StatedMessage(reason, source: .exceptionReason, readings: readings))
        }
        if let error = facts.swiftRuntimeError {
            let text = error.message.isEmpty ? error.kind : "\(error.kind): \(error.message)"
            messages.append(
                StatedMessage(text, source: .runtimeError, place: error.file.map { file in error.line.map { "\(file):\($0)" } ?? file }))
        }
        messages += lines.map { StatedMessage($0, source: .appSpecificInformation, readings: readings) }
        if let message, !message.isEmpty { messages.append(StatedMessage(message, source: .exceptionMessage, readings: readings)) }
        var seen: Set<String> = []
        return messages.filter { seen.insert($0.text).inserted }
    }

    // MARK: - Application Specific Information

    /// Most Application Specific Information lines read.
    package static let messageLineLimit = 128
    /// Most characters of one such line read (an Objective-C exception's reason, an assertion
    /// with its file and function fit).
    package static let messageLineLength = 4_096

    /// The first `messageLineLimit` non-empty lines of `text`, trimmed, each cut to
    /// `messageLineLength` characters. Reads the text only as far as those lines reach, so a
    /// field of a hundred thousand short lines (issue 38) costs no more than its first lines.
    package static func boundedLines(of text: String) -> [String] {
        var lines: [String] = []
        var rest = Substring(text)
        while lines.count < messageLineLimit, !rest.isEmpty {
            let end = rest.firstIndex(where: \.isNewline) ?? rest.endIndex
            let line = rest[..<end].prefix(messageLineLength).trimmingCharacters(in: .whitespaces)
            if !line.isEmpty { lines.append(line) }
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
        }
        return lines
    }

    // MARK: - Platform

    static func platform(of report: CrashReport) -> PlatformFacts {
        var facts = PlatformFacts(architecture: report.architecture, isTranslated: report.isTranslated)
        facts.platform = operatingSystem(of: report)
        let arch = (report.architecture?.name ?? "").lowercased()
        if arch.hasBytePrefix("x86") || arch == "i386" || (report.codeType ?? "").uppercased().containsBytes("X86") {
            facts.instructionSet = .intel
        } else if (report.architecture?.name ?? report.codeType ?? "").lowercased().containsBytes("arm") {
            facts.instructionSet = .arm
        }
        return facts
    }

    private static func operatingSystem(of report: CrashReport) -> OperatingSystem.Platform? {
        if report.kind == .linuxBacktrace { return .linux }
        if let platform = report.operatingSystem?.platform { return platform }
        // No OS line (MetricKit, crash reporters): the hardware model says which family.
        let model = (report.hardwareModel ?? "").lowercased()
        if model.hasBytePrefix("watch") { return .watchOS }
        if model.hasBytePrefix("appletv") { return .tvOS }
        if model.hasBytePrefix("realitydevice") { return .visionOS }
        if model.hasBytePrefix("iphone") || model.hasBytePrefix("ipad") || model.hasBytePrefix("ipod") { return .iOS }
        if model.hasBytePrefix("mac") || model.hasBytePrefix("imac") { return .macOS }
        // A panic file without an OS line (the text form prints `Mac OS version:` in its own section).
        if report.kind == .kernelPanic { return .macOS }
        return nil
    }

    // MARK: - Exception

    static func exception(
        _ exception: ExceptionInfo, regionLine: String?, arrow: String? = nil, platform: OperatingSystem.Platform?
    ) -> ExceptionFacts {
        var facts = ExceptionFacts(machType: exception.machExceptionType, signal: exception.signalName)
        facts.codes = exception.codeValues
        facts.isNonFatal = exception.isNonFatal
        facts.vmRegion = regionLine.flatMap(VMRegionFact.init(line:))
        facts.isStackGuard = [regionLine, arrow].contains { $0?.uppercased().containsBytes("STACK GUARD") ?? false }
        facts.fault = fault(exception, machType: facts.machType, signal: facts.signal, region: facts.vmRegion)
        // The signal field as read, or as printed (`SIGKILL (Code Signature Invalid)` in an `.ips`).
        facts.isCodeSignatureInvalid = [exception.signalName, exception.signal].contains {
            $0.map { $0.containsBytes("Code Signature") || $0.containsBytes("CODESIGNING") } ?? false
        }
        facts.isPointerAuthenticationFailure = exception.subtype?.containsBytes("pointer authentication") ?? false
        facts.isGeneralProtectionFault = exception.codes?.containsBytes("EXC_I386_GPFLT") ?? false
        facts.namesIntelException = [exception.codes, exception.subtype].contains { $0?.containsBytes("EXC_I386") == true }
        facts.isInStackRegion = [regionLine, arrow].contains { $0?.lowercased().containsBytes("stack") ?? false }
        return facts
    }

    /// `KERN_INVALID_ADDRESS at 0x… [-> 0x…]` from the subtype, or from the codes when the
    /// subtype lacks it (older macOS prints it in `Exception Codes`); else the numbers.
    private static func fault(
        _ exception: ExceptionInfo, machType: String?, signal: String?, region: VMRegionFact?
    ) -> FaultAddress? {
        for (source, text) in [(FaultAddress.Source.subtype, exception.subtype), (.codes, exception.codes)] {
            guard let text, let match = MessageScan(text).faultAddress(), let address = ReportNumber.parse(match.address) else { continue }
            return FaultAddress(
                address: address, strippedAddress: match.stripped.flatMap(ReportNumber.parse), name: match.name, source: source)
        }
        let codes = exception.codes
        // The Swift runtime's backtrace ("Bad pointer dereference at 0x20", Linux or macOS)
        // carries the address alone: one number where the codes go.
        if machType == nil, let signal, ["SIGSEGV", "SIGBUS"].contains(signal), let codes,
            let address = ReportNumber.parse(codes)
        {
            return FaultAddress(address: address, name: signal, source: .codes)
        }
        // Numeric codes: code[0] = kern_return_t, code[1] = address.
        if machType == "EXC_BAD_ACCESS", let codes {
            let numbers = codes.split(separator: ",").compactMap { ReportNumber.parse($0) }
            if numbers.count == 2 { return FaultAddress(address: numbers[1], name: nil, kernelCode: numbers[0], source: .codes) }
        }
        // A MetricKit crash diagnostic gives the address only in `virtualMemoryRegionInfo`
        // (`0x8 is not in any region`): the same fault as the `.crash` form's subtype.
        let isMemoryFault = machType == "EXC_BAD_ACCESS" || (machType == nil && ["SIGSEGV", "SIGBUS"].contains(signal ?? ""))
        if isMemoryFault, let region, !region.isInRegion {
            let code = codes.flatMap { text in text.split(separator: ",").first.flatMap { ReportNumber.parse($0) } }
            return FaultAddress(address: region.address, name: nil, kernelCode: code, source: .vmRegion)
        }
        return nil
    }

    // MARK: - Termination

    static func termination(_ termination: TerminationInfo?, text: String, lines: [String]) -> TerminationFacts? {
        var facts = TerminationFacts(namespace: termination?.namespaceName, code: termination?.codeValue)
        let scan = MessageScan(text)
        let watchdog = WatchdogFigures(
            event: scan.watchdogEvent(), allowanceSeconds: scan.allowanceSeconds(), cpuSeconds: scan.elapsedCPUSeconds())
        if watchdog != WatchdogFigures() { facts.watchdog = watchdog }
        facts.usageKey = scan.usageDescriptionKey()
        facts.explanation = scan.terminateExplanation()
        facts.missingLibrary = lines.lazy.compactMap(Self.missingLibrary).first
        let counted = "Elapsed application CPU time"
        facts.countsCPUTime =
            termination?.details?.contains { $0.contains(counted) } == true || termination?.text?.contains(counted) == true
        facts.isInsecureDrawing = MessageScan.occurs("insecure drawing", in: text)
        facts.isMissingSymbolCalled = MessageScan.occurs("missing symbol called", in: text)
        guard termination != nil || facts != TerminationFacts() else { return nil }
        return facts
    }

    /// `Library not loaded: @rpath/X.framework/X` → the path.
    private static func missingLibrary(_ line: String) -> String? {
        guard let range = line.byteRange(of: "Library not loaded:") else { return nil }
        let path = line[range.upperBound...].trimmingCharacters(in: .whitespaces)
        return path.isEmpty ? nil : path
    }

    /// dyld prints one message over several lines (`dyld: Library not loaded: …`, `Referenced
    /// from: …`, `Reason: image not found`; `dyld[123]: Symbol not found: …`, `Expected in: …`):
    /// the lead line from its words on, with the line saying why.
    static func dyldMessage(in lines: [String]) -> String? {
        // (dyld's `lazy symbol binding failed: Symbol not found: …`: the failed binding, from its words.)
        let leads = ["lazy symbol binding failed:", "Library not loaded:", "Symbol not found:"]
        for (index, line) in lines.enumerated() {
            guard let start = leads.lazy.compactMap({ line.range(of: $0) }).first else { continue }
            var message = line[start.lowerBound...].trimmingCharacters(in: .whitespaces)
            let following = lines[(index + 1)...].prefix(4).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let whyIndex = following.firstIndex(where: { $0.hasBytePrefix("Reason:") || $0.hasBytePrefix("Expected in:") }) else {
                return message
            }
            var why = following[whyIndex]
            // `Reason: no suitable image found.  Did find:` lists each file it tried, with why it
            // was refused (`/…/MoPub: mremap_encrypted() => -1, errno=12 for /…/MoPub`): the first.
            if why.hasSuffix("Did find:"), let candidate = lines.dropFirst(index + 2 + whyIndex).first.map({ $0.trimmedBlanks }),
                let refusal = didFindRefusal(candidate)
            {
                why += " " + refusal
            }
            message += " (\(why))"
            return message
        }
        return nil
    }

    /// One of dyld's `Did find:` lines (`/path/to/MoPub: mremap_encrypted() => -1, errno=12 for
    /// /path/to/MoPub`, `/path/X: mach-o, but wrong architecture`): the file's name and why dyld
    /// refused it, without the path it repeats.
    static func didFindRefusal(_ line: String) -> String? {
        guard line.hasBytePrefix("/") || line.hasBytePrefix("@"), let colon = line.byteRange(of: ": ") else { return nil }
        let file = line[..<colon.lowerBound].split(separator: "/").last.map(String.init) ?? ""
        var reason = line[colon.upperBound...]
        if let repeated = reason.byteRange(of: " for /") { reason = reason[..<repeated.lowerBound] }
        let text = reason.trimmedBlanks
        guard !file.isEmpty, !text.isEmpty else { return nil }
        return "\(file): \(text.prefix(200))"
    }

    // MARK: - Messages

    /// libobjc's `objc_msgSend() selector name: X`, a crash service's `Selector name found in
    /// current argument registers: X`: the selector objc_msgSend was sending.
    static func isSelectorLine(_ line: String) -> Bool { line.containsBytes("elector name") && line.containsBytes(": ") }

    /// What the messages state besides the main facts, each with its lines.
    static func statements(lines: [String], stated: [String], details: [String]) -> MessageStatements {
        var statements = MessageStatements()
        statements.selectorLine = lines.first(where: isSelectorLine)
        if let dlopen = lines.firstIndex(where: { $0.containsBytes("dlopen") }) {
            statements.dlopenLines = Array(lines[dlopen...].prefix(2))
        }
        statements.dyldLines = (details + lines).filter {
            $0.containsBytes("Library not loaded") || $0.containsBytes("Symbol not found") || $0.containsBytes("Referenced from")
        }
        statements.dyldMessage = dyldMessage(in: details + lines)
        statements.terminatesWithoutException = lines.contains("terminating")
        statements.offMainThreadLine = stated.first(where: saysOffMain)
        // Searched in linear time: the lines are bounded, but many and long (issue 38).
        let message = Array(stated.joined(separator: "\n").utf8)
        func says(_ words: String) -> Bool { MessageScan.occurs(Array(words.utf8), in: message) }
        let namesMain = says("com.apple.main-thread")
        statements.expectsOtherQueue = says("Block was expected to execute on queue") && !namesMain
        statements.namesMainThread = namesMain || says("MainActor")
        return statements
    }

    /// UIKit's, AppKit's and Auto Layout's words for a main-thread-only API used elsewhere.
    static func saysOffMain(_ line: String) -> Bool {
        [
            "from a background thread", "main thread only", "only be instantiated on the main thread",
            "must be used from main thread", "UI API called on a background thread", "on the main thread only",
        ].contains { line.containsBytesIgnoringASCIICase($0) } || MainThreadRequirement.isStatement(Substring(line))
    }

    /// The resource a resource report counts (its `Event:` header, else the exception subtype) and
    /// whether the process was ended for it.
    static func resource(_ report: CrashReport) -> ResourceFacts? {
        func header(_ key: String) -> String? { report.headerFields.first { $0.key == key }?.value }
        let event = header("Event")?.lowercased()
        let subtype = report.exception?.subtype
        var resource: ReportKind.ResourceType?
        if let event {
            resource =
                event.containsBytes("cpu")
                ? .cpu
                : event.containsBytes("disk") || event.containsBytes("write") ? .diskWrites : event.containsBytes("wakeup") ? .wakeups : nil
        } else if report.kind == .resource(.memory) || subtype?.uppercased().containsBytes("MEMORY") == true {
            resource = .memory
        }
        // A memory limit ends the process (jetsam) unless the report says it went on; CPU, wakeups
        // and disk writes are warnings unless `…_FATAL` or `Process killed` says otherwise.
        let isFatal =
            subtype?.containsBytes("FATAL") == true || header("Action taken")?.lowercased().containsBytes("killed") == true
            || (resource == .memory && !(report.exception?.isNonFatal ?? false) && header("Action taken") == nil)
        guard event != nil || resource != nil || isFatal else { return nil }
        return ResourceFacts(resource: resource, isFatal: isFatal)
    }

    /// Xcode's (DVTFoundation's) line for an exception its own code let escape, in its crash
    /// reports' Application Specific Information: `UNCAUGHT EXCEPTION (NSImageCacheException):
    /// REASON`, the reason going on until the `UserInfo:` or `Hints:` field under it.
    static func ideUncaught(_ stated: [String], at position: Int) -> (name: String, reason: String)? {
        let first = stated[position]
        let opening = "UNCAUGHT EXCEPTION ("
        guard first.hasBytePrefix(opening), let close = first.byteRange(of: "): ") else { return nil }
        let name = first[first.index(first.startIndex, offsetBy: opening.count)..<close.lowerBound]
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        var reason = [String(first[close.upperBound...])]
        for next in stated[(position + 1)...].prefix(10) {
            let field = next.prefix { $0.isLetter }
            if !field.isEmpty, next.dropFirst(field.count).hasBytePrefix(":"), field.first?.isUppercase == true { break }
            reason.append(next)
        }
        return (String(name), reason.joined(separator: "\n"))
    }

    /// The uncaught exception: as the reader read it, else libobjc's line, else MetricKit's typed
    /// keys, else libc++abi's line.
    static func uncaught(_ report: CrashReport, stated: [String]) -> UncaughtExceptionFact? {
        let hasBacktrace = !(report.lastExceptionBacktrace?.frames.isEmpty ?? true)
        if let typed = report.exception?.uncaught, typed.language == .objectiveC || typed.name != nil {
            return UncaughtExceptionFact(typed, hasBacktrace: hasBacktrace)
        }
        for (position, first) in stated.enumerated() {
            // A reason that holds line breaks (an object's description, `<NSImage … Reps=(` then `)>,
            // because it is size zero.'`): its lines up to the closing quote, at most twenty.
            var line = first
            if first.containsBytes("reason: '"), !first.trimmingCharacters(in: .whitespaces).hasSuffix("'"),
                let end = stated[(position + 1)...].prefix(20).firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasSuffix("'") })
            {
                line = stated[position...end].joined(separator: "\n")
            }
            if let ide = ideUncaught(stated, at: position) {
                return UncaughtExceptionFact(
                    UncaughtException(language: .objectiveC, name: ide.name, reason: ide.reason), hasBacktrace: hasBacktrace, quote: first)
            }
            guard let match = MessageScan(line).uncaughtObjCException() ?? ConsoleLine.exceptionFragment(line).map({ ($0.name, $0.reason) })
            else { continue }
            return UncaughtExceptionFact(
                UncaughtException(language: .objectiveC, name: match.name, reason: match.reason), hasBacktrace: hasBacktrace,
                quote: line)
        }
        // The reason alone (`reason: '…'`), its name cut off with the words before it.
        if let (line, reason) = stated.lazy.compactMap({ line in ConsoleLine.bareReason(line).map { (line, $0) } }).first {
            return UncaughtExceptionFact(UncaughtException(language: .objectiveC, reason: reason), hasBacktrace: hasBacktrace, quote: line)
        }
        if let (reason, line) = reasonBesideThrow(report, stated: stated) {
            return UncaughtExceptionFact(
                UncaughtException(language: .objectiveC, reason: reason), hasBacktrace: hasBacktrace, quote: line)
        }
        if let reason = report.metricKit?.exceptionReason, let name = reason.exceptionName, !name.isEmpty {
            return UncaughtExceptionFact(
                UncaughtException(language: .objectiveC, name: name, reason: reason.composedMessage), hasBacktrace: hasBacktrace)
        }
        for line in stated {
            guard let match = MessageScan(line).uncaughtCppException() else { continue }
            let type = match.type.trimmingCharacters(in: .whitespaces)
            return UncaughtExceptionFact(
                UncaughtException(language: .cxx, name: type, reason: match.what), hasBacktrace: hasBacktrace, quote: line)
        }
        // The type alone, as a reporter records it (`N8facebook3jsi7JSErrorE`): what was thrown.
        for line in stated {
            guard let type = MangledCxxTypeName.demangle(Substring(line.trimmedBlanks)) else { continue }
            return UncaughtExceptionFact(UncaughtException(language: .cxx, name: type), hasBacktrace: hasBacktrace, quote: line)
        }
        return nil
    }

    /// A reason in Application Specific Information or the exception's message, as written, where
    /// the crashed thread (or the exception's backtrace) passes through `objc_exception_throw`:
    /// crash services and older reports put what was raised there without libobjc's line (`Cannot
    /// finish a purchasing transaction` above `-[SKPaymentQueue finishTransaction:]`). Only lines
    /// no shape reads (those are facts of their own) or that read as a reason printed alone, and
    /// that are words, not the system's notes (`abort() called`, a simulator's device line, dyld's
    /// configuration).
    static func reasonBesideThrow(_ report: CrashReport, stated: [String]) -> (reason: String, line: String)? {
        let frames = (report.lastExceptionBacktrace?.frames ?? []) + (report.crashedThread?.frames.prefix(12) ?? [])
        let passesThroughThrow = frames.contains { frame in
            (frame.symbolication?.map(\.function) ?? [frame.symbol].compactMap { $0 }).contains { $0.hasPrefix("objc_exception_throw") }
        }
        guard passesThroughThrow, !stated.isEmpty else { return nil }
        let families = stated.map { CrashMessageGrammar.match($0)?.family }
        // A line another shape reads is a fact of its own, unless it is an exception's reason printed
        // alone (`*** -[AVAssetWriterInput appendSampleBuffer:] Cannot append sample buffer: …`).
        guard !families.contains(where: { $0 != nil && $0 != .objcException }) else { return nil }
        let reasons = zip(stated, families).compactMap { line, family -> String? in
            guard family == .objcException else { return line }
            let isTitle = ConsoleLine.cxxException(line) != nil || ExceptionNameLine.parse(Substring(line)) != nil
            return isTitle || line.containsBytes(ConsoleLine.objcOpening) ? nil : line
        }.filter { line in
            let lower = line.lowercased()
            // `.ips` reports put the image before the line (`libsystem_c.dylib: abort() called`).
            let systemNote =
                ["coresimulator ", "dyld", "crashed thread", "exception type", "termination"].contains { lower.hasPrefix($0) }
                || lower.containsBytes("abort() called")
            return !systemNote && line.contains(" ") && line.contains(where: \.isLetter) && line.utf8.count <= 1_000
        }
        guard let first = reasons.first else { return nil }
        return (reasons.prefix(3).joined(separator: " "), first)
    }

    /// The crash messages Application Specific Information and the exception's message state,
    /// read with the grammar the console reader uses (`CrashMessageGrammar`), so a framework's
    /// message means the same in a report's field as on a console line.
    static func statedMessages(lines: [String], message: String?) -> [StatedMessage] {
        var stated: [StatedMessage] = []
        for line in lines {
            guard let match = CrashMessageGrammar.match(line) else { continue }
            stated.append(
                StatedMessage(family: match.family, text: match.text.trimmedBlanks, quote: line, source: .appSpecificInformation))
        }
        if let message, !message.isEmpty, !lines.contains(message), let match = CrashMessageGrammar.match(message) {
            stated.append(StatedMessage(family: match.family, text: match.text.trimmedBlanks, quote: message, source: .exceptionMessage))
        }
        return stated
    }

    /// Most lines of a text report read for messages outside its fields.
    package static let messageScanLineLimit = 400

    /// A text report's free lines that state a crash message outside any field (a console line
    /// pasted above a report's frames, a crash service's title): the first `messageScanLineLimit`
    /// lines that are no frame.
    /// The 1-based line where a pasted report's header begins (its first `Incident Identifier:`,
    /// `Process:` or like field), or nil.
    static func reportStart(in document: TextDocument) -> Int? {
        let openings = ["Incident Identifier:", "Process:", "CrashReporter Key:", "Hardware Model:", "Date/Time:", "Exception Type:"]
        for (offset, line) in document.lines.prefix(messageScanLineLimit).enumerated() {
            let trimmed = line.text.trimmedBlanks
            if openings.contains(where: { trimmed.hasBytePrefix($0) }) { return offset + 1 }
        }
        return nil
    }

    /// A text report's document, where its header begins and the lines its reader read; nil for
    /// a report not read from text.
    static func textLayout(of report: CrashReport) -> (document: TextDocument, reportStart: Int?, readLines: Set<Int>)? {
        guard case .text(let document) = report.source else { return nil }
        return (document, reportStart(in: document), readLines(of: report))
    }

    /// The lines a reader already read as a frame, a binary image or the report's structure: they
    /// state no message, and a whole report is mostly such lines.
    static func readLines(of report: CrashReport) -> Set<Int> {
        var lines = report.structureLines.union(report.binaryImages.lazy.compactMap(\.reportLine))
        for backtrace in report.allBacktraces { lines.formUnion(backtrace.frames.lazy.compactMap(\.reportLine)) }
        return lines
    }

    /// The messages of a text's lines that no field holds (nor a frame or an image, `skipping`),
    /// the first `before - 1` lines only when given.
    static func statedMessages(outsideFieldsOf document: TextDocument, before: Int? = nil, skipping: Set<Int> = []) -> [StatedMessage] {
        var stated: [StatedMessage] = []
        let limit = min(messageScanLineLimit, before.map { $0 - 1 } ?? messageScanLineLimit)
        for (offset, line) in document.lines.prefix(limit).enumerated() where !skipping.contains(offset + 1) {
            let trimmed = line.text.trimmedBlanks
            // The grammar first: its literals rule out most lines at once; the frame syntaxes are many.
            guard !trimmed.isEmpty else { continue }
            if document.readings.match(trimmed) == nil, Self.isJavaScriptErrorOverFrames(trimmed, at: offset, in: document) {
                stated.append(StatedMessage(family: .managedException, text: trimmed, quote: trimmed, line: offset + 1, source: .console))
                continue
            }
            guard let match = document.readings.match(trimmed),
                !Self.isFrameLine(trimmed, number: offset + 1, in: document), !Self.isSourceExcerpt(at: offset, in: document)
            else { continue }
            stated.append(
                StatedMessage(family: match.family, text: match.text.trimmedBlanks, quote: trimmed, line: offset + 1, source: .console))
        }
        return stated
    }

    /// The C library's functions that print the message they are given and abort, and the
    /// parameter that holds it (glibc's malloc.c, assert.c, fortify_fail.c; musl's and bionic's
    /// names alike).
    static let libcMessageFunctions: [String: String] = [
        "malloc_printerr": "str", "__malloc_assert": "assertion", "__libc_fatal": "message", "__fortify_fail": "msg",
        "__fortify_fail_abort": "msg", "__assert_fail": "assertion", "__assert_fail_base": "assertion", "__assert_perror_fail": "file",
        "__assert2": "failedexpr", "__assert": "failedexpr", "async_safe_fatal_no_abort": "fmt",
    ]

    /// When the only trace of the message is a debugger's frame of one of those functions with its
    /// arguments (gdb's `#8 malloc_printerr (str=str@entry=0x7f… "malloc(): corrupted top size") at
    /// malloc.c:5671`): the string it was given, stated by that line. An assertion's with its
    /// file and line, as glibc prints it.
    static func libcMessageArguments(of report: CrashReport, in document: TextDocument) -> [StatedMessage] {
        for backtrace in report.allBacktraces {
            for frame in backtrace.frames.prefix(24) {
                guard let symbol = frame.symbol, let parameter = libcMessageFunctions[symbol], let number = frame.reportLine,
                    document.lines.indices.contains(number - 1)
                else { continue }
                let line = document.lines[number - 1].text
                guard let message = quotedArgument(parameter, in: line), !message.isEmpty, !message.containsBytes("%") else { continue }
                var text = message
                if symbol.hasBytePrefix("__assert"), let file = quotedArgument("file", in: line),
                    let lineArgument = line.byteRange(of: "line=")
                {
                    let digits = line[lineArgument.upperBound...].prefix { $0.isASCII && $0.isNumber }
                    text = "\(file):\(digits): Assertion `\(message)' failed."
                }
                let family = CrashMessageGrammar.match(text)?.family ?? .assertion
                return [StatedMessage(family: family, text: text, quote: line.trimmedBlanks, line: number, source: .console)]
            }
        }
        return []
    }

    /// The kernel's `X invoked oom-killer: gfp_mask=…` line, when the text holds no other message
    /// (the `Killed process` line that names the victim, said first when present, was cut): the
    /// kernel ran out of memory for a request of X's and began to kill.
    static func oomKillerInvocation(in document: TextDocument) -> [StatedMessage] {
        for (offset, line) in document.lines.prefix(messageScanLineLimit).enumerated() {
            guard line.text.containsBytes(" invoked oom-killer: ") else { continue }
            let text = document.readings.strip(line.text).trimmedBlanks
            guard let marker = text.byteRange(of: " invoked oom-killer: "), !text[..<marker.lowerBound].containsBytes(" ") else { continue }
            return [StatedMessage(family: .resource, text: text, quote: line.text.trimmedBlanks, line: offset + 1, source: .console)]
        }
        return []
    }

    /// The C string gdb printed for `parameter=` in a frame's arguments (`str=str@entry=0x7f… "…"`,
    /// `msg=0x55… "buffer overflow detected"`), its escapes as written.
    static func quotedArgument(_ parameter: String, in line: String) -> String? {
        var rest = Substring(line)
        while let found = rest.byteRange(of: parameter + "=") {
            let before = rest[..<found.lowerBound].last
            rest = rest[found.upperBound...]
            guard before == "(" || before == " " || before == "," else { continue }
            guard let open = rest.prefix(80).firstIndex(of: "\"") else { return nil }
            let value = rest[rest.index(after: open)...]
            var end = value.startIndex
            var escaped = false
            while end < value.endIndex {
                let character = value[end]
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { break }
                end = value.index(after: end)
            }
            guard end < value.endIndex else { return nil }
            return String(value[..<end])
        }
        return nil
    }

    /// A JavaScript error that no rule names by its type (`Error: listen EADDRINUSE :::8081`, a
    /// class of the program's own, `ValidationError: …`) printed as Node prints an error nothing
    /// caught: the name and message, then the stack's `at f (file.js:L:C)` lines under it.
    static func isJavaScriptErrorOverFrames(_ trimmed: String, at index: Int, in document: TextDocument) -> Bool {
        guard trimmed.utf8.count <= 2_000, let colon = trimmed.byteRange(of: ": ") else { return false }
        let name = trimmed[..<colon.lowerBound]
        guard name.hasSuffix("Error"), name.first?.isUppercase == true, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
            trimmed[colon.upperBound...].contains(where: \.isLetter), document.lines.indices.contains(index + 1)
        else { return false }
        let next = document.lines[index + 1].text.trimmedBlanks
        guard next.hasBytePrefix("at ") else { return false }
        // The place a V8 frame ends with: `(file.js:1286:14)`, `file.js:31:8`, `(node:internal/…:12:3)`.
        var place = Substring(next)
        if place.hasSuffix(")") { place = place.dropLast() }
        let parts = place.split(separator: ":")
        return parts.count >= 3 && parts.suffix(2).allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    /// Whether line `index` (0-based) is a line of source code a runtime quoted to point at, the
    /// line under it only carets and tildes (Node's `throw er; // Unhandled 'error' event` over
    /// `^`, Python's code line over `~~~^^^`): the code that raised, not its message, which the
    /// runtime prints after it.
    static func isSourceExcerpt(at index: Int, in document: TextDocument) -> Bool {
        guard document.lines.indices.contains(index + 1) else { return false }
        let marks = document.lines[index + 1].text.trimmedBlanks
        return marks.contains("^") && marks.utf8.count <= 400 && marks.allSatisfy { $0 == "^" || $0 == "~" || $0 == " " }
    }

    /// A frame line states nothing: Apple's numbered frame (`0   libswiftCore.dylib   0x… f + 4`,
    /// a number then a blank; a timestamp's `18:38:17.092` is no frame number), or any syntax
    /// the pasted-frame readers read.
    /// (`document`'s readings keep what the readers already asked of the line.)
    static func isFrameLine(_ trimmed: String, number: Int, in document: TextDocument? = nil) -> Bool {
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty { return trimmed.dropFirst(digits.count).first.map { $0 == " " || $0 == "\t" } == true }
        let pasted =
            document.map { $0.readings.frame(trimmed, reportLine: number) != nil }
            ?? (PastedFrameGrammar.parse(trimmed, reportLine: number) != nil)
        return pasted
            || TextReportParser.parseFrame(trimmed, reportLine: number) != nil || PastedFrameGrammar.rustPlace(Substring(trimmed)) != nil
    }

    /// Most lines kept as unread, and the longest.
    package static let unreadLineLimit = 40
    static let unreadLineLength = 400

    /// The lines of words in a partial text that no shape reads (no frame, no stated message):
    /// the first `unreadLineLimit` among its first `messageScanLineLimit` lines. Lines a reader
    /// read as a frame or an image (`skipping`) are not parsed as frames again.
    static func unreadLines(of document: TextDocument, stated: [StatedMessage], skipping read: Set<Int> = []) -> [StatedMessage] {
        let statedLines = Set(stated.compactMap(\.line)).union(read)
        var unread: [StatedMessage] = []
        for (offset, line) in document.lines.prefix(messageScanLineLimit).enumerated() where unread.count < unreadLineLimit {
            let trimmed = line.text.trimmedBlanks
            guard trimmed.utf8.count >= 12, trimmed.utf8.count <= unreadLineLength, !statedLines.contains(offset + 1),
                trimmed.containsBytes(" ")
            else { continue }
            // A console line's words after its log prefix (`2019-01-10 14:56:47.825187+0800 App[11551:4381103] …`).
            var text = trimmed
            if trimmed.first?.isLetter != true, let words = LogPrefix.stages(of: trimmed).last.map(String.init), words != trimmed {
                text = words.trimmedBlanks
            }
            // The frame syntaxes last: they are many, and most lines fail the checks above.
            guard text.utf8.count >= 12, text.containsBytes(" "), text.first?.isLetter == true,
                !isFrameLine(trimmed, number: offset + 1, in: document)
            else { continue }
            unread.append(StatedMessage(family: .annotation, text: text, quote: trimmed, line: offset + 1, source: .console))
        }
        return unread
    }

    /// The lines just above where a pasted text's crash begins (its first line stating the stop,
    /// else its first frame), past blank lines and the crash's own headers: the run of lines a
    /// program printed last, up to a blank line, at most three (`lastOutput`); or the command typed
    /// at a prompt there, when nothing printed comes after it (`lastCommand`).
    static func lastOutput(of document: TextDocument, report: CrashReport, stated: [StatedMessage]) -> (
        output: [StatedMessage], command: StatedMessage?
    ) {
        let stops = stated.filter { [.signal, .processExit, .machException].contains($0.family) }.compactMap(\.line)
        let frames = report.allBacktraces.flatMap(\.frames).compactMap(\.reportLine).filter { $0 > 0 }
        // LLDB's first stop (`* thread #31, name = 'php-b', stop reason = signal SIGABRT`): a
        // `bt` typed after it lists the same thread again further down.
        let debuggerStop = (stops + frames).min().flatMap { bound in
            document.lines.prefix(min(bound, messageScanLineLimit)).firstIndex { line in
                line.text.containsBytes("stop reason = ") && LLDBLine.thread(line.text)?.stopReason != nil
            }.map { $0 + 1 }
        }
        guard let anchor = (stops + frames + [debuggerStop].compactMap { $0 }).min(), anchor > 1, anchor <= messageScanLineLimit else {
            return ([], nil)
        }
        let statedLines = Set(stated.compactMap(\.line))
        var found: [StatedMessage] = []
        var number = anchor - 1
        // The crash's own lines above its anchor: blank lines, its headers (`Thread 0 crashed:`,
        // `💣 Program crashed: Aborted at 0x…`), a line a grammar read.
        while number >= 1 {
            let trimmed = document.lines[number - 1].text.trimmedBlanks
            // A line that opens the frames (`Call stack: (`, `*** First throw call stack:`, `(`).
            let opensFrames = trimmed.hasSuffix(":") || trimmed.hasSuffix("(")
            guard
                // (Foundation's and libobjc's `*** Terminating app …`, `*** Assertion failure in …`.)
                trimmed.isEmpty || statedLines.contains(number) || trimmed.hasBytePrefix("*** ")
                    || trimmed.lowercased().containsBytes("crashed")
                    || TextReportParser.threadHeader(trimmed) != nil || opensFrames || isFieldLine(trimmed)
                    || LLDBLine.thread(trimmed) != nil || isDebuggerStatus(trimmed) || isRegisterDump(trimmed)
            else { break }
            number -= 1
        }
        while number >= 1, found.count < 3 {
            let trimmed = document.lines[number - 1].text.trimmedBlanks
            // A command typed at an interactive prompt (R's and a shell's `> `, Python's `>>> `,
            // `$ `, `% `, LLDB's `(lldb) `): what ran last.
            guard trimmed.utf8.count <= unreadLineLength, !statedLines.contains(number), !isFrameLine(trimmed, number: number, in: document)
            else {
                break
            }
            if promptCommand(trimmed) != nil {
                // The program's output starts below it: the command is what ran, not what it printed.
                guard found.isEmpty else { break }
                return ([], StatedMessage(family: .annotation, text: trimmed, quote: trimmed, line: number, source: .console))
            }
            // A sentence, or a logger's bracketed tags (`[FlutterCallKitPlugin][getProviderConfiguration]`).
            let tagged = trimmed.first == "[" && trimmed.contains("]") && trimmed.contains(where: \.isLetter)
            guard trimmed.utf8.count >= 12, tagged || (trimmed.containsBytes(" ") && trimmed.first?.isLetter == true) else { break }
            found.append(StatedMessage(family: .annotation, text: trimmed, quote: trimmed, line: number, source: .console))
            number -= 1
        }
        return (found.reversed(), nil)
    }

    /// A line of registers and their values, a crash's own state (an ARM kernel's `r4:85c53340`,
    /// `r10:b774ef05 r9:00000000`, x86's `RAX: 000000000000000c RBX: 0000000000000000`), after
    /// the kernel log's `[  819.332721]` time (or `dmesg -T`'s `[Wed Dec  6 23:54:11 2017]`) when it
    /// has one; or the kernel's dump of stack words (`ffff8806db522280 00000000cdb595c3 …`): no
    /// program's words.
    static func isRegisterDump(_ trimmed: String) -> Bool {
        var rest = Substring(trimmed)
        if rest.first == "[", let close = rest.prefix(40).firstIndex(of: "]") {
            rest = rest[rest.index(after: close)...]
        }
        let words = rest.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard !words.isEmpty, words.count <= 24 else { return false }
        if words.count >= 2, words.allSatisfy({ ($0.utf8.count == 8 || $0.utf8.count == 16) && $0.allSatisfy(\.isHexDigit) }) {
            return true
        }
        var pairs = 0
        var name: Substring?
        for word in words {
            if let pending = name {
                guard word.utf8.count >= 4, word.utf8.count <= 16, word.allSatisfy(\.isHexDigit), !pending.isEmpty else { return false }
                pairs += 1
                name = nil
            } else if let colon = word.firstIndex(of: ":") {
                let label = word[..<colon]
                guard !label.isEmpty, label.utf8.count <= 5, label.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                    return false
                }
                let value = word[word.index(after: colon)...]
                if value.isEmpty {
                    name = label
                } else {
                    guard value.utf8.count >= 4, value.utf8.count <= 16, value.allSatisfy(\.isHexDigit) else { return false }
                    pairs += 1
                }
            } else {
                return false
            }
        }
        return name == nil && pairs >= 1
    }

    /// LLDB's word on the process it runs (`Process 76939 stopped`, `Process 5 resuming`,
    /// `Target 0: (App) stopped.`): the debugger's line, not the program's output.
    static func isDebuggerStatus(_ trimmed: String) -> Bool {
        let words = trimmed.split(separator: " ")
        guard words.count >= 3, words[0] == "Process" || words[0] == "Target" else { return false }
        let number = words[1].hasSuffix(":") ? words[1].dropLast() : words[1]
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        let last = words.last.map(String.init) ?? ""
        return ["stopped", "stopped.", "resuming", "launched:", "exited", "attached", "detached"].contains(last)
            || trimmed.containsBytes(" stopped") || trimmed.containsBytes(" exited with status")
    }

    /// A line of a record's fields, the crash's own lines rather than the program's output: a
    /// runtime's crash block prints its facts as `name=value` (the Dart VM's `version=…`,
    /// `pid=57064, thread=20999, …` under `===== CRASH =====`); Windows' event prints labelled columns.
    static func isFieldLine(_ trimmed: String) -> Bool {
        let name = trimmed.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        if !name.isEmpty, name.first?.isLetter == true, trimmed.dropFirst(name.count).first == "=" { return true }
        // Windows Error Reporting's event is fields too (`Faulting application name: X, version: …`,
        // `Faulting module path: …`, `Fault offset: 0x…`), not what the program printed.
        if trimmed.hasBytePrefix("Faulting ") || trimmed.hasBytePrefix("Fault offset: ") || trimmed.hasBytePrefix("Exception code: ") {
            return true
        }
        // A record's fields in aligned columns, as Event Viewer copies them (`Log Name:      Application`,
        // `Level:         Error`, `Task Category: Application Crashing Events`, `Description:`): a label
        // of capitalised words, its colon, then nothing or a run of blanks (one blank after a label of
        // two words or more, which fills the column; `Error: …` alone is a program's words).
        guard let colon = trimmed.firstIndex(of: ":"), trimmed.first?.isUppercase == true else { return false }
        let label = trimmed[..<colon]
        let words = label.split(separator: " ")
        let after = trimmed[trimmed.index(after: colon)...]
        guard label.count <= 30, !words.isEmpty, words.allSatisfy({ $0.first?.isUppercase == true && $0.allSatisfy(\.isLetter) })
        else { return false }
        return after.isEmpty || after.hasBytePrefix("  ") || (words.count >= 2 && after.hasBytePrefix(" "))
    }

    /// The command of a line typed at an interactive prompt, or nil.
    static func promptCommand(_ trimmed: String) -> Substring? {
        for prompt in [">>> ", "> ", "$ ", "% ", "(lldb) "] where trimmed.hasBytePrefix(prompt) {
            let command = Substring(trimmed).dropFirst(prompt.utf8.count).trimmedBlanks
            guard let first = command.first, first.isLetter, command.utf8.count >= 3 else { return nil }
            return Substring(command)
        }
        return ShellPrompt.command(in: Substring(trimmed))
    }

    /// C `assert()`'s whole message on a line, else a line that says an assertion failed.
    static func assertion(in stated: [String]) -> AssertionFact? {
        if let line = stated.first(where: { MessageScan($0).isCAssertion() }) { return AssertionFact(.cAssert, quote: line) }
        if let line = stated.first(where: { $0.hasBytePrefix("Assertion failed:") || $0.containsBytes("assertion failure") }) {
            return AssertionFact(.assertionMessage, quote: line)
        }
        return nil
    }
}
