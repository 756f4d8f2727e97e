import Foundation
import SymbolicateCrashReport

/// Messages the report carries (ASI lines, exception reasons) — §6, §7.
extension Diagnostician {
    func classifyByMessages() -> Verdict? {
        let lines = facts.asiLines + [facts.message].compactMap { $0 }
        // Uncaught Objective-C exception with name and reason.
        for line in lines {
            guard let match = firstMatch(#"uncaught exception '([^']+)', reason: '(.*)'"#, in: line),
                let name = match[0]
            else { continue }
            found.quote("Application Specific Information", line)
            return objcException(name: name, reason: match[1])
        }
        // C assert(): "Assertion failed: (cond), function f, file F, line N."
        for line in lines where firstMatch(#"Assertion failed: .*, function .*, file .*, line [0-9]+"#, in: line) != nil {
            found.quote("Application Specific Information", line)
            quoteFrames(matching: ["__assert_rtn"], limit: 1)
            quoteFirstAppFrame()
            found.cause(.likely, "An assert() condition in C, C++ or Objective-C code was false at runtime")
            found.step("Read the condition, function, file and line in the message and find why it did not hold")
            return Verdict(.assertionFailure, .stated, "An assertion failed: \(line)")
        }
        // Swift runtime and concurrency messages.
        for line in lines {
            let entries = base.entries(matchingText: line, kinds: [.swiftRuntimeMessage, .concurrencyMessage])
            guard let entry = entries.first else { continue }
            found.quote("Application Specific Information", line)
            found.use(entry, causes: 0)
            found.cause(.likely, "\(entry.title) — the report's own message says so")
            if entry.kind == .concurrencyMessage {
                quoteTopFrames(count: 3)
                return Verdict(.dispatchMisuse, .stated, "\(entry.title): \(line)")
            }
            quoteSwiftFrames()
            found.use(facts.exceptionType.flatMap { base.entries(named: $0).first } ?? base.entry(.breakpoint))
            return Verdict(.swiftRuntimeError, .stated, "Swift runtime error — \(entry.title.lowercased()): \(line)")
        }
        // Uncaught C++ exception (NSException escaping through libc++abi is handled above or below).
        for line in lines {
            guard let match = firstMatch(#"terminat\w+ (?:due to|with) uncaught exception of type (.+?)(?:: (.*))?$"#, in: line),
                let type = match[0]?.trimmingCharacters(in: .whitespaces)
            else { continue }
            found.quote("Application Specific Information", line)
            if type == "NSException" { return objcException(name: nil, reason: nil) }
            found.use(base.entry(.uncaughtCppException), causes: 1)
            quoteTopFrames(count: 6)
            return Verdict(
                .uncaughtCppException, .stated,
                "Uncaught C++ exception of type \(type)" + (match[1].flatMap { $0.isEmpty ? nil : ": \($0)" } ?? "") + ".")
        }
        // assert() / stack canary / malloc.
        for line in lines {
            if line.hasPrefix("Assertion failed:") || line.contains("assertion failure") {
                found.quote("Application Specific Information", line)
                quoteFrames(matching: ["__assert_rtn", "assert"], limit: 1)
                quoteFirstAppFrame()
                found.cause(.likely, "An assert() condition in the code was false at runtime")
                found.step("Read the condition and the file/line in the message; find why it did not hold")
                return Verdict(.assertionFailure, .stated, "An assertion failed: \(line)")
            }
            if let entry = base.entries(matchingText: line, kinds: [.applicationSpecificMessage]).first,
                entry.is(.stackCheckFail) || entry.is(.freedNotAllocated)
            {
                found.quote("Application Specific Information", line)
                found.use(entry)
                return Verdict(.memoryCorruption, .stated, "\(entry.title): \(line)")
            }
        }
        if let lastException = report.lastExceptionBacktrace, !lastException.frames.isEmpty {
            return objcException(name: nil, reason: nil)
        }
        return nil
    }

    func objcException(name: String?, reason: String?) -> Verdict {
        found.use(base.entry(.uncaughtObjCException))
        if let name { found.use(base.entry(name, kind: .objcException), causes: 0) }
        if let reason {
            if reason.contains("unrecognized selector sent to") {
                found.use(base.entry(.unrecognizedSelector))
                found.cause(.likely, "A message was sent to an object of the wrong class (the reason names the class and selector)")
                found.cause(.possible, "The receiver was deallocated and its memory reused by another object (a zombie)")
            } else if reason.contains("cannot be nil") || reason.contains("nil value") || reason.contains("attempt to insert nil") {
                found.cause(.likely, "nil was passed where an object is required (e.g. inserted into an NSArray/NSDictionary)")
            } else if reason.contains("beyond bounds") || reason.contains("out of bounds") {
                found.cause(.likely, "An index or range past the end of a collection")
            } else if reason.contains("was mutated while being enumerated") {
                found.cause(.likely, "A collection was modified while it was being enumerated")
            } else if reason.contains("not key value coding-compliant") {
                found.cause(.likely, "A stale outlet or key-value binding to a key the class does not have")
            }
        }
        quoteLastExceptionBacktrace()
        quoteThrowSite()
        if name == nil, report.lastExceptionBacktrace == nil {
            quoteTopFrames(count: 8)
        }
        let describedName = name.map { " \($0)" } ?? ""
        let describedReason = reason.map { ": \($0)" } ?? ""
        if name == nil {
            found.notes.append(
                "The exception name and reason are not in this report (Application Specific Information is missing or elided).")
        }
        return Verdict(
            .uncaughtObjCException, name == nil ? .likely : .stated,
            "Uncaught Objective-C exception\(describedName)\(describedReason)"
                + (name == nil ? " (likely: the report has an exception backtrace but no message)." : ""))
    }
}
