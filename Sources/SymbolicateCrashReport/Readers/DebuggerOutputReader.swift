import Foundation
import SymbolicateCore

/// What developers paste most is not a report file but what Xcode showed when the app stopped:
/// the console (`*** Terminating app due to uncaught exception …` with its `*** First throw call
/// stack:`, libc++abi's `terminating due to uncaught exception of type …`, a Swift runtime error,
/// the editor's `Thread 1: signal SIGABRT` banner) and LLDB's stop and `bt` output, sometimes with
/// `image list`. Both layouts are read by one parser (`DebuggerOutputParser`), since a paste often
/// holds both; the two readers differ in what they detect.
///
/// Detection reads every line once with prefix tests and fixed-string searches (no regular
/// expressions), and gives way to Apple's report layouts: a document with a report's own
/// structure (`Incident Identifier:`, `Exception Type:`, `Binary Images:`, `Last Exception
/// Backtrace:`, …) is a crash report quoting a console message, not console output.
package enum LLDBReportReader: ReportReader {
    package static func detect(_ document: TextDocument) -> Void? {
        document.readings.debuggerOutputShape { DebuggerOutputShape.of(document) } == .lldb ? () : nil
    }

    package static func read(_ document: TextDocument, evidence: Void, path: String) throws(CrashReportError) -> [CrashReport] {
        [try DebuggerOutputParser(document: document, path: path).parse().refusingDiagnosticsOnly().withDetectedKind()]
    }
}

/// Xcode's (or a device's) console output around a crash; see `LLDBReportReader`.
package enum XcodeConsoleReportReader: ReportReader {
    package static func detect(_ document: TextDocument) -> Void? {
        document.readings.debuggerOutputShape { DebuggerOutputShape.of(document) } == .console ? () : nil
    }

    package static func read(_ document: TextDocument, evidence: Void, path: String) throws(CrashReportError) -> [CrashReport] {
        [try DebuggerOutputParser(document: document, path: path).parse().refusingDiagnosticsOnly().withDetectedKind()]
    }
}

extension CrashReport {
    /// Console text whose only message is a diagnostic the process kept running after (a
    /// Thread Performance Checker warning, a simulated crash's backtrace) states no crash: refused,
    /// as a text with no crash fact is, naming the diagnostic.
    func refusingDiagnosticsOnly() throws(CrashReportError) -> CrashReport {
        let messages = facts.statedMessages
        let survivedX = messages.contains { $0.family == .libraryMisuse } ? survivedXErrors : []
        func survived(_ message: StatedMessage) -> Bool {
            message.family == .diagnostic || message.line.map { survivedX.contains($0) } == true
        }
        guard let diagnostic = messages.first(where: survived), messages.allSatisfy(survived),
            exception?.type == nil, exception?.signal == nil, exception?.uncaught == nil, exception?.runtimeError == nil,
            // Frames pasted without a title are the diagnostic's own backtrace, not a crashed thread.
            pastedThread != nil || !threads.contains(where: \.crashed)
        else { return self }
        throw CrashReportError(
            kind: .notACrashReport, path: path, line: diagnostic.line,
            message: "not a crash: the text states only a failure the process keeps running after: "
                + String(diagnostic.quote.prefix(120)))
    }
}

extension CrashReport {
    /// The lines of Xlib's `X Error of failed request:` that the program went on after: Xlib's
    /// default handler exits at the first error it prints, so a text with more than one, or with a
    /// line saying it is `continuing` after one (Steam's `xerror_handler: X failed, continuing`),
    /// shows a handler of the program's own that survived them.
    var survivedXErrors: Set<Int> {
        guard case .text(let document) = source else { return [] }
        let errors = document.lines.indices.filter { document.lines[$0].text.containsBytes(CrashMessageGrammar.xlibFailedRequest) }
        guard let first = errors.first else { return [] }
        let goesOn =
            errors.count >= 2
            || document.lines[(first + 1)...].prefix(12).contains { $0.text.byteRange(of: "continuing", ignoringASCIICase: true) != nil }
        return goesOn ? Set(errors.map { $0 + 1 }) : []
    }
}

extension CrashReport {
    /// LLDB's words when an expression it ran in the stopped process faulted (`error: Execution
    /// was interrupted, reason: EXC_BAD_ACCESS (code=1, address=0x10).`) and it unwound the
    /// expression (`The process has been returned to the state before expression evaluation.`):
    /// the debugger's expression stopped, not the app. Refused when those are the text's only
    /// stops. When LLDB leaves the process where it stopped (`… left at the point where it was
    /// interrupted`, as a playground's run does), the fault is the program's and is read.
    func refusingUnwoundExpressions(_ document: TextDocument) throws(CrashReportError) -> CrashReport {
        func isInterruption(_ message: StatedMessage) -> Bool {
            guard let line = message.line, line >= 1, line <= document.lines.count else { return false }
            return document.lines[line - 1].text.containsBytes("xecution was interrupted, reason: ")
        }
        let messages = facts.statedMessages
        guard let first = messages.first(where: isInterruption),
            messages.allSatisfy({ $0.family == .diagnostic || isInterruption($0) }),
            !threads.contains(where: { $0.crashed && !$0.frames.isEmpty }),
            document.lines.contains(where: { $0.text.containsBytes("returned to the state before expression evaluation") }),
            !document.lines.contains(where: { $0.text.containsBytes("left at the point where it was interrupted") })
        else { return self }
        throw CrashReportError(
            kind: .notACrashReport, path: path, line: first.line,
            message: "not a crash: the text states only a failure the process keeps running after: "
                + String(document.lines[(first.line ?? 1) - 1].text.trimmedBlanks.prefix(120))
                + " (the debugger's expression faulted and was rolled back)")
    }
}

/// Which of the two layouts a document is, decided in one pass over its lines.
enum DebuggerOutputShape: Equatable {
    case lldb
    case console

    /// Lines that only Apple's report layouts have: such a document goes to their readers.
    private static let reportMarkers = [
        "Incident Identifier:", "Exception Type:", "Binary Images:", "Crashed Thread:", "Triggered by Thread:",
        "Last Exception Backtrace:", "*** Program crashed: ", "💣 Program crashed: ", "Report Version:", "Exception Codes:",
    ]

    /// `[…] words`: the first `]` is followed by a blank and text that does not go on with a
    /// JSON array (`,`, `]`, `}`, `:`).
    static func isTagBeforeWords(_ start: Substring) -> Bool {
        guard let close = start.prefix(81).firstIndex(of: "]") else { return false }
        var rest = start[start.index(after: close)...]
        // A shell's job marker after the job's number (`[1]+  Segmentation fault: 11  ./a.out`).
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        // Tags one after another, or a logger's category right after the tag (Unreal Engine's
        // `[2023.05.23-09.09.10:171][  0]LogWindows: …`): no JSON array goes on so.
        if rest.first == "[" || rest.first?.isLetter == true { return true }
        guard rest.first == " " || rest.first == "\t" else { return false }
        guard let next = rest.first(where: { $0 != " " && $0 != "\t" }) else { return false }
        return !",]}:".contains(next)
    }

    /// A frame behind the line's log prefixes, as the parser reads it (Valgrind's `==5748==    at
    /// 0x406B549: send (send.c:35)`).
    private static func strippedFrame(_ trimmed: String, position: Int, document: TextDocument) -> Bool {
        let stripped = String(document.readings.strip(trimmed))
        guard !stripped.isEmpty, stripped != trimmed else { return false }
        // Apple's columns too (a runtime that logs each frame of its native stack, Mono's
        // `… App[356:19718] critical: \t3   libsystem_c.dylib   0x… abort + 140`).
        return document.readings.frame(stripped, reportLine: position + 1) != nil
            || TextReportParser.parseFrame(stripped, reportLine: position + 1) != nil
    }

    static func of(_ document: TextDocument) -> DebuggerOutputShape? {
        guard let first = document.firstContentLine else { return nil }
        let start = document.lines[first].text.drop(while: \.isWhitespace)
        // JSON layouts have their own readers (an `image list` line also starts with `[`).
        // A `[` opens JSON only before a value (`[{`, `["`, `[1`, `[]`); `[tag] …` is a log line.
        // A tag closed and followed by words (`[        ] Runner…`, `[1]  8392 illegal hardware
        // instruction`) is a log line too, whatever it holds.
        let opensJSONArray =
            start.hasBytePrefix("[")
            && (start.dropFirst().drop(while: \.isWhitespace).first.map { "{[\"]-0123456789tfn".contains($0) } ?? true)
            && !Self.isTagBeforeWords(start)
        if start.hasBytePrefix("{") || (opensJSONArray && ImageListLine.parse(String(start)) == nil) { return nil }
        // A line of Apple's report layouts anywhere makes it theirs: looked for first, as it costs
        // little and a report's other lines would each be read by every grammar below.
        for line in document.lines {
            let trimmed = line.text.drop { $0 == " " || $0 == "\t" }
            if reportMarkers.contains(where: { trimmed.hasBytePrefix($0) }) { return nil }
            // A cut Apple report still has its thread headers (`Thread 0 Crashed:`, `Thread 3:`).
            if trimmed.hasBytePrefix("Thread "), case .backtrace? = TextReportParser.threadHeader(String(trimmed)) { return nil }
        }
        var lldb = false
        var console = false
        var pastedFrames = 0
        for (position, line) in document.lines.enumerated() {
            let trimmed = line.text.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty { continue }
            if !lldb, LLDBLine.isThreadOrFrame(trimmed) { lldb = true }
            // LLDB's disassembly of the function a thread stopped in.
            if !lldb, trimmed.hasSuffix(":"), PastedFrameGrammar.disassemblyStop(document.lines, at: position) != nil { lldb = true }
            if !console, ConsoleLine.isCrashMessage(line.text) { console = true }
            // Python's traceback heading: an exception on its way up, however few frames follow.
            if !console, trimmed == PythonTraceback.heading { console = true }
            if !console, !lldb {
                let trimmedLine = String(trimmed)
                if let reason = ThreadAnnotation.reason(trimmedLine) {
                    if !ThreadAnnotation.isDebuggerStop(reason) { console = true }
                } else if document.readings.match(line.text) != nil {
                    console = true
                } else if let trailing = ThreadAnnotation.trailing(trimmedLine), !ThreadAnnotation.isDebuggerStop(trailing.reason) {
                    console = true
                } else if pastedFrames < 2,
                    document.readings.frame(trimmedLine, reportLine: position + 1) != nil
                        || PastedFrameGrammar.cellFrame(document.lines, at: position) != nil
                        || strippedFrame(trimmedLine, position: position, document: document)
                {
                    pastedFrames += 1
                }
            }
        }
        // Frames in a syntax no report layout has (`File "X.swift", line 3, in f`, `#3 0x… in f`,
        // a crash service's frames without addresses) are a crash's backtrace even without a message.
        return lldb ? .lldb : console || pastedFrames >= 2 ? .console : nil
    }
}

// MARK: - Single lines

/// Console lines that say the process is stopping, each read by a fixed-string scan.
enum ConsoleLine {
    /// Without the `*** ` the console puts before it: pasted into Markdown, `***` becomes `**\*`
    /// or disappears.
    /// libobjc's `Terminating app due to uncaught exception 'X', reason: '…'` and the other
    /// openings handlers print before the same name and reason (`Trapped uncaught exception 'X'`).
    static let objcOpening = "uncaught exception '"
    /// AppKit's words before the reason of an exception its run loop caught.
    static let appKitUncaught = "An uncaught exception was raised"
    static let firstThrow = "First throw call stack:"

    /// Whether the line is one of the crash messages the console reader knows.
    static func isCrashMessage(_ text: String) -> Bool {
        if text.containsBytes("uncaught exception '") || text.containsBytes("First throw call stack:") {
            return true
        }
        if cxxException(text) != nil || swiftRuntimeError(text) != nil { return true }
        if let banner = xcodeBanner(text), !banner.isEmpty {
            return StopReason(banner).isCrash
        }
        return false
    }

    /// `*** Terminating app due to uncaught exception 'NAME', reason: 'REASON'` (the reason runs
    /// to the last quote of the line; `complete` is false when the line has none after it, a
    /// reason continued on the next lines).
    static func objcException(_ text: String) -> (name: String, reason: String, complete: Bool)? {
        // Foundation's `range(of:)` goes through NSString on Linux: a byte search first.
        guard text.containsBytes("uncaught exception '"), let opening = text.range(of: objcOpening) else {
            return exceptionFragment(text)
        }
        let afterName = text[opening.upperBound...]
        guard let close = afterName.byteRange(of: "', reason: '") else {
            // `… uncaught exception 'NAME'` without a reason, or with the reason on the next line.
            guard let quote = afterName.firstIndex(of: "'") else { return nil }
            let after = afterName[afterName.index(after: quote)...].trimmedBlanks
            return (String(afterName[..<quote]), "", after != ", reason:")
        }
        let name = String(afterName[..<close.lowerBound])
        let reasonText = afterName[close.upperBound...]
        if let last = closingQuote(of: reasonText) {
            return (name, String(reasonText[..<last]), true)
        }
        return (name, String(reasonText), false)
    }

    /// The quote that closes a reason on its line: the line's last quote, when at most a few
    /// words follow it (`'…' userInfo: (null)`, a logger's suffix). A last quote with a sentence
    /// after it is one inside the reason (`… a relationship 'song' between objects in different
    /// contexts (source = <…> ; data: {`, an object's description continued on the next lines).
    static func closingQuote(of reasonText: Substring) -> Substring.Index? {
        guard let last = reasonText.lastIndex(of: "'") else { return nil }
        let after = reasonText[reasonText.index(after: last)...]
        guard after.utf8.count > 24, after.first == " ", after.split(separator: " ").count > 3 else { return last }
        return nil
    }

    /// The same name and reason without the words before them, as a logger or a poster cut the
    /// line: `'NSInternalInconsistencyException', reason: 'Call must be made on main thread'`. The
    /// name is one token (`NSRangeException`, `RLMException`, `com.example.error`), quoted, and
    /// opens the line or follows a blank, `(` or `:`.
    static func exceptionFragment(_ text: String) -> (name: String, reason: String, complete: Bool)? {
        guard text.containsBytes("', reason: '"), let close = text.byteRange(of: "', reason: '") else { return nil }
        let head = text[..<close.lowerBound]
        guard let open = head.lastIndex(of: "'") else { return nil }
        let name = head[head.index(after: open)...]
        guard (1...120).contains(name.utf8.count), name.first?.isLetter == true,
            name.allSatisfy({ $0.isLetter || $0.isNumber || "_.:-$".contains($0) })
        else { return nil }
        if open > text.startIndex, !" \t(:[".contains(text[text.index(before: open)]) { return nil }
        let reasonText = text[close.upperBound...]
        if let last = closingQuote(of: reasonText) {
            return (String(name), String(reasonText[..<last]), true)
        }
        return (String(name), String(reasonText), false)
    }

    /// The reason part of libobjc's line alone, as a poster cut it: `reason: '…'` opening the line,
    /// the reason quoted to the line's last quote (`"` too). Nil without words inside.
    static func bareReason(_ text: String) -> String? {
        guard text.hasBytePrefix("reason: "), let quote = text.dropFirst(8).first, quote == "'" || quote == "\"" else { return nil }
        let body = text.dropFirst(9)
        let reason = body.lastIndex(of: quote).map { body[..<$0] } ?? body
        guard reason.contains(where: \.isLetter), reason.contains(" ") else { return nil }
        return String(reason)
    }

    /// libstdc++'s `terminate called after throwing an instance of 'std::runtime_error'`: the type.
    static func libstdcxxThrown(_ text: Substring) -> String? {
        guard let marker = text.byteRange(of: "terminate called after throwing an instance of '") else { return nil }
        let rest = text[marker.upperBound...]
        guard let close = rest.firstIndex(of: "'") else { return nil }
        let type = rest[..<close]
        return type.isEmpty || type.contains(" ") ? nil : String(type)
    }

    /// libc++abi's last words: `libc++abi: terminating due to uncaught exception of type
    /// std::runtime_error: boom` (older: `libc++abi.dylib: terminating with uncaught exception of
    /// type NSException`). The type runs to the first `: `; the rest is `what()`.
    static func cxxException(_ text: String) -> (type: String, what: String?)? {
        guard text.containsBytes("uncaught exception of type ") else { return nil }
        let marker =
            text.byteRange(of: "terminating due to uncaught exception of type ")
            ?? text.byteRange(of: "terminating with uncaught exception of type ")
        guard let marker else { return nil }
        let rest = text[marker.upperBound...]
        let typeEnd = rest.byteRange(of: ": ")
        let type = String(rest[..<(typeEnd?.lowerBound ?? rest.endIndex)]).trimmedBlanks
        guard !type.isEmpty else { return nil }
        let what = typeEnd.map { String(rest[$0.upperBound...]).trimmedBlanks }
        return (type, what)
    }

    /// The text opens a backquote it does not close (`` failed assertion `Draw Errors Validation ``):
    /// an odd number of them, the last after a blank. LLDB's `Image\`symbol` is no quote.
    static func opensBackquote(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count(where: { $0 == UInt8(ascii: "`") }) % 2 == 1, let last = bytes.lastIndex(of: UInt8(ascii: "`")) else {
            return false
        }
        // GNU's quoting, a backquote closed by an apostrophe (Mono's ``condition `x' not met``):
        // a closed quote.
        // (An apostrophe inside a word, `doesn't`, closes nothing.)
        let closes = bytes.indices.dropFirst(last + 1).contains { index in
            bytes[index] == UInt8(ascii: "'") && (index + 1 == bytes.count || [0x20, 0x2C, 0x2E, 0x3A, 0x29].contains(bytes[index + 1]))
        }
        if closes { return false }
        return last == 0 || bytes[last - 1] == UInt8(ascii: " ")
    }

    /// libc++abi's `abort_message` line other than an uncaught exception's: `libc++abi: X`
    /// (`libc++abi.dylib: X` before macOS 10.15 and iOS 13). libc++abi prints nothing else, and
    /// aborts after it, so the line is a stop whatever the message (`terminate_handler
    /// unexpectedly threw an exception`, `Pure virtual function called!`, `terminating`).
    static func cxxRuntimeAbort(_ text: Substring) -> Substring? {
        for prefix in ["libc++abi: ", "libc++abi.dylib: "] where text.hasBytePrefix(prefix) {
            let message = text.dropFirst(prefix.count).trimmedBlanks
            return message.isEmpty || cxxException(String(text)) != nil ? nil : Substring(message)
        }
        return nil
    }

    /// The C++ runtimes' fatal lines with no `libc++abi: ` prefix: libc++abi's `Pure virtual
    /// function called!` and `Deleted virtual function called!`, libstdc++'s `pure virtual method
    /// called` and `terminate called …` (after throwing an instance of, without an active
    /// exception, recursively).
    static func isUnprefixedCxxRuntimeAbort(_ text: Substring) -> Bool {
        guard text.utf8.count <= 4_096 else { return false }
        let lower = text.trimmedBlanks.lowercased()
        if lower.hasPrefix("terminate called ") { return true }
        return ["pure virtual method called", "pure virtual function called", "deleted virtual function called"].contains {
            lower.hasPrefix($0)
        }
    }

    /// The kinds' words, searched as bytes before Foundation's `range(of:)`, which goes through
    /// NSString on Linux.
    private static let runtimeErrorKinds: [StaticString] = ["Fatal error", "fatal error", "Precondition failed", "Assertion failed"]

    /// A Swift runtime error, in each layout the runtime has printed it:
    /// `Fatal error: MESSAGE: file MyApp/X.swift, line 42` (Swift 5.0–5.3),
    /// `MyApp/X.swift:42: Fatal error: MESSAGE` (5.4+), `fatal error: MESSAGE` (Swift 2–4), and
    /// Xcode's editor banner `Thread 1: Fatal error: MESSAGE`. A C `assert()` message
    /// (`Assertion failed: (x), function f, file f.c, line 3.`) is not one.
    static func isCompilerFatalError(_ text: String) -> Bool {
        guard let found = text.byteRange(of: "fatal error: ") else { return false }
        let message = text[found.upperBound...].trimmedBlanks
        if message.hasSuffix("file not found") || message.hasSuffix(": No such file or directory")
            || message.hasBytePrefix("too many errors")
            || message.hasBytePrefix("could not build module") || (message.hasBytePrefix("module '") && message.hasSuffix("' not found"))
        {
            return true
        }
        // `path/File.c:10:9: fatal error: …`: a source place with its column is a compiler's.
        let place = text[..<found.lowerBound].trimmedBlanks
        guard place.hasSuffix(":") else { return false }
        let parts = place.dropLast().split(separator: ":", omittingEmptySubsequences: false)
        return parts.count >= 3 && parts.suffix(2).allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
            && !parts[parts.count - 3].hasSuffix(".swift")
    }

    static func swiftRuntimeError(_ text: String) -> SwiftRuntimeError? {
        // PHP's fatal errors share the words (`PHP Fatal error:  Allowed memory size of … exhausted …
        // in /x.php on line 5`): a PHP file or PHP's memory limit is none of Swift's.
        if text.containsBytes(".php") || text.containsBytes("Allowed memory size of") { return nil }
        // OCaml's runtime for an exception nothing caught says `Fatal error: exception Not_found`,
        // `Fatal error: exception Failure("int_of_string")`: an OCaml constructor, none of Swift's.
        if OCamlUncaught.isUncaught(Substring(text)) { return nil }
        // A C compiler's fatal diagnostic (clang's and gcc's `fatal error: 'React/RCTBridgeModule.h'
        // file not found`, `fatal error: foo.h: No such file or directory`, `too many errors emitted`,
        // after the source place `File.m:10:9: `): a build that failed, no program that crashed.
        if isCompilerFatalError(text) { return nil }
        for spelled in runtimeErrorKinds {
            let kind = spelled.description
            guard text.containsBytes(spelled), let found = text.byteRange(of: kind) else { continue }
            var before = String(text[..<found.lowerBound]).trimmedBlanks
            var after = text[found.upperBound...]
            // A line quoted whole (a JSON string, a quote in prose): the quotes are not the message's.
            if let quote = LogPrefix.closingQuote(of: Substring(before)) {
                before.removeFirst()
                if after.hasSuffix(String(quote)) { after = after.dropLast() }
            }
            if after.hasBytePrefix(": ") {
                after = after.dropFirst(2)
            } else if after.hasBytePrefix(":") || after.isEmpty {
                after = after.dropFirst(after.isEmpty ? 0 : 1)
            } else {
                continue
            }
            var error = SwiftRuntimeError(kind: kind, message: String(after).trimmedBlanks)
            if before.isEmpty {
                // `MESSAGE: file FILE, line N`, or `file FILE, line N` when there is no message.
                if let located = trailingFileAndLine(error.message) {
                    error.message = located.message
                    error.file = located.file
                    error.line = located.line
                }
            } else if before.hasSuffix(":"), let place = swiftFileAndLine(before.dropLast()) {
                error.file = place.file
                error.line = place.line
            } else if before.hasSuffix(":"), let banner = xcodeBanner(before + " "), banner.isEmpty {
                // `Thread 1: Fatal error: …`
            } else if before.hasBytePrefix("Line "), before.hasSuffix(":"), let number = Int(before.dropFirst(5).dropLast()) {
                // Xcode's issue navigator: `Line 117: Fatal error: …`, its file on the line above.
                error.line = number
            } else if let located = trailingFileAndLine(error.message), located.file.hasSuffix(".swift") {
                // Quoted inside a sentence (`… when I launch -> Fatal error: init(coder:) has not been
                // implemented: file X.swift, line 62`): the runtime's own place format says whose line it is.
                error.message = located.message
                error.file = located.file
                error.line = located.line
            } else {
                continue
            }
            // A C assert's message carries its place with `, file `; Swift's do not.
            if kind == "Assertion failed", error.file.map({ !$0.hasSuffix(".swift") }) ?? true { continue }
            return error
        }
        return nil
    }

    /// `…: file MyApp/X.swift, line 42` at the end of a message.
    private static func trailingFileAndLine(_ text: String) -> (message: String, file: String, line: Int)? {
        guard let lineMarker = text.range(of: ", line ", options: .backwards),
            let line = Int(text[lineMarker.upperBound...]),
            let fileMarker = text.range(of: "file ", options: .backwards, range: text.startIndex..<lineMarker.lowerBound)
        else { return nil }
        let file = String(text[fileMarker.upperBound..<lineMarker.lowerBound])
        let head = text[..<fileMarker.lowerBound]
        if head.isEmpty { return ("", file, line) }
        guard head.hasSuffix(": ") else { return nil }
        return (String(head.dropLast(2)), file, line)
    }

    /// `MyApp/X.swift:42`, `X.swift:42:7`, the Swift 2–4 runtime's `X.swift: 42: 7`, the standard
    /// library's interface (`Swift/arm64e-apple-macos.swiftinterface:14500`), a module's name
    /// alone (`SwiftUI:0`).
    private static func swiftFileAndLine(_ text: Substring) -> (file: String, line: Int)? {
        // One or two numbers after the path, each after a colon and maybe a blank.
        var rest = text
        var numbers: [Int] = []
        while numbers.count < 2, let colon = rest.lastIndex(of: ":"), let number = Int(rest[rest.index(after: colon)...].trimmedBlanks) {
            numbers.insert(number, at: 0)
            rest = rest[..<colon]
        }
        guard let line = numbers.first else { return nil }
        // The path is the last word: what the console put before it (a timestamp, `MyApp[12:34] `),
        // a sentence's words or an opening quote are not part of it.
        var file = rest
        if let start = file.lastIndex(where: { " \t\"'`(".contains($0) }) { file = file[file.index(after: start)...] }
        // A module's name alone where the binary kept no file names (`SwiftUI:0: Fatal error: …`).
        let isModuleName =
            file.first.map { $0.isLetter || $0 == "_" } == true
            && file.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        guard file.hasSuffix(".swift") || file.hasSuffix(".swiftinterface") || isModuleName else { return nil }
        return (String(file), line)
    }

    /// The text after Xcode's `Thread 1: ` banner prefix, or nil when the line is not one.
    static func xcodeBanner(_ text: String) -> String? {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasBytePrefix("Thread ") else { return nil }
        let digits = trimmed.dropFirst(7).prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count < 6 else { return nil }
        let rest = trimmed.dropFirst(7 + digits.count)
        guard rest.hasBytePrefix(": ") else { return nil }
        return String(rest.dropFirst(2)).trimmedBlanks
    }

    /// `2024-05-01 10:00:00.123456+0900 MyApp[1234:56789] …`: the process name and ID the
    /// console's own prefix gives.
    static func processPrefix(_ text: String) -> (name: String, pid: Int)? {
        guard let open = text.firstIndex(of: "["), let close = text[open...].firstIndex(of: "]"),
            text[close...].hasBytePrefix("] ")
        else { return nil }
        let inside = text[text.index(after: open)..<close]
        guard let colon = inside.firstIndex(of: ":"), let pid = Int(inside[..<colon]) else { return nil }
        let name = text[..<open].split(separator: " ").last.map(String.init) ?? ""
        return name.isEmpty ? nil : (name, pid)
    }
}

/// What LLDB or Xcode says stopped the thread: `EXC_BAD_ACCESS (code=1, address=0x0)`,
/// `signal SIGABRT`, `Fatal error: …`, `breakpoint 1.1`, or Xcode's quoted exception reason.
struct StopReason {
    var exceptionType: String?
    var codes: String?
    var signal: String?
    var runtimeError: SwiftRuntimeError?
    /// Xcode's banner quotes an uncaught exception's reason: `Thread 1: "-[X y]: unrecognized selector …"`.
    var quotedReason: String?

    init(_ text: String) {
        let text = text.trimmedBlanks
        if text.hasBytePrefix("signal ") {
            let name = text.dropFirst(7).prefix { !$0.isWhitespace }
            if !name.isEmpty { signal = String(name) }
        } else if text.hasBytePrefix("EXC_") {
            let type = text.prefix { !$0.isWhitespace && $0 != "(" }
            exceptionType = String(type)
            codes = Self.codes(text.dropFirst(type.count))
        } else if let error = ConsoleLine.swiftRuntimeError(text) {
            runtimeError = error
        } else if text.count >= 2, text.hasBytePrefix("\""), text.hasSuffix("\"") {
            quotedReason = String(text.dropFirst().dropLast())
        }
    }

    var isCrash: Bool { exceptionType != nil || signal != nil || runtimeError != nil || quotedReason != nil }

    /// `(code=1, address=0x0)` → `0x0000000000000001, 0x0000000000000000`, as Apple prints the
    /// codes (the Mach exception's code and subcode); a named code (`code=EXC_I386_GPFLT`) as is.
    private static func codes(_ rest: Substring) -> String? {
        let inside = rest.drop { $0 == " " }
        guard inside.hasBytePrefix("("), inside.hasSuffix(")") else { return nil }
        var code: String?
        var subcode: String?
        for part in inside.dropFirst().dropLast().split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmedBlanks }
            guard pair.count == 2 else { continue }
            if pair[0] == "code" { code = pair[1] } else if pair[0] == "address" || pair[0] == "subcode" { subcode = pair[1] }
        }
        guard let code else { return nil }
        guard let number = ReportNumber.parse(code) else { return subcode.map { "\(code), \($0)" } ?? code }
        let second = subcode.flatMap { ReportNumber.parse($0) } ?? 0
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return "0x" + String(repeating: "0", count: max(0, 16 - digits.count)) + digits
        }
        return "\(hex(number)), \(hex(second))"
    }
}

/// LLDB's thread and frame lines.
enum LLDBLine {
    struct ThreadLine {
        var number: Int
        var selected: Bool
        var name: String?
        var queue: String?
        var stopReason: String?
    }

    /// `#1`, or `#\u{200B}1` as GitHub's rendering of a pasted `#1` reads.
    private static func number(after text: Substring) -> (Int, Substring)? {
        var rest = text
        if rest.hasBytePrefix("\u{200B}") { rest = rest.dropFirst() }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count < 7, let value = Int(digits) else { return nil }
        return (value, rest.dropFirst(digits.count))
    }

    static func isThreadOrFrame(_ trimmed: Substring) -> Bool {
        var text = trimmed
        if text.hasBytePrefix("* ") || text.hasBytePrefix("- ") || text.hasBytePrefix("+ ") { text = text.dropFirst(2).drop { $0 == " " } }
        if text.hasBytePrefix("frame #"), let (_, rest) = number(after: text.dropFirst(7)) { return rest.hasBytePrefix(": 0x") }
        if text.hasBytePrefix("thread #"), let (_, rest) = number(after: text.dropFirst(8)) {
            return rest.hasBytePrefix(": tid = ") || (rest.hasBytePrefix(",") && rest.containsBytes("stop reason = "))
        }
        return false
    }

    /// `* thread #1, queue = 'com.apple.main-thread', stop reason = EXC_BAD_ACCESS (code=1, address=0x0)`,
    /// `  thread #2, name = 'worker'`, or the older `* thread #1: tid = 0x1a2b, 0x… MyApp\`f + 4, queue = '…', stop reason = …`.
    static func thread(_ text: String) -> ThreadLine? {
        var rest = Substring(text).drop { $0 == " " || $0 == "\t" }
        var selected = false
        // `*` marks the selected thread (`-` or `+` once Markdown made the paste a list).
        if rest.hasBytePrefix("* ") || rest.hasBytePrefix("- ") || rest.hasBytePrefix("+ ") {
            selected = true
            rest = rest.dropFirst(2).drop { $0 == " " }
        }
        guard rest.hasBytePrefix("thread #"), let (number, tail) = number(after: rest.dropFirst(8)),
            tail.isEmpty || tail.hasBytePrefix(",") || tail.hasBytePrefix(":")
        else { return nil }
        var line = ThreadLine(number: number, selected: selected)
        var fields = tail
        if let stop = tail.byteRange(of: "stop reason = ") {
            line.stopReason = String(tail[stop.upperBound...]).trimmedBlanks
            fields = tail[..<stop.lowerBound]
        }
        line.name = quoted("name = '", in: fields)
        line.queue = quoted("queue = '", in: fields)
        return line
    }

    /// The value of `key '…'`, up to the last quote before the next field (names can hold quotes).
    private static func quoted(_ key: String, in fields: Substring) -> String? {
        guard let start = fields.range(of: key) else { return nil }
        let value = fields[start.upperBound...]
        let end = value.byteRange(of: "', ")?.lowerBound ?? value.lastIndex(of: "'")
        guard let end else { return nil }
        return String(value[..<end])
    }

    /// `  * frame #0: 0x0000000100f2c8e4 MyApp\`ViewController.viewDidLoad() + 224 at ViewController.swift:20:9 [opt]`.
    /// The name LLDB made up for a function without one (`___lldb_unnamed_symbol123`) is no name.
    static func frame(_ text: String, reportLine: Int) -> Frame? {
        var rest = Substring(text).drop { $0 == " " || $0 == "\t" }
        if rest.hasBytePrefix("* ") || rest.hasBytePrefix("+ ") { rest = rest.dropFirst(2).drop { $0 == " " } }
        guard rest.hasBytePrefix("frame #"), let (index, tail) = number(after: rest.dropFirst(7)), tail.hasBytePrefix(": 0x") else {
            return nil
        }
        let addressText = tail.dropFirst(4).prefix { $0.isHexDigit }
        guard !addressText.isEmpty, addressText.count <= 16, let address = UInt64(addressText, radix: 16) else { return nil }
        var body = tail.dropFirst(4 + addressText.count)
        guard body.isEmpty || body.first == " " else { return nil }
        body = body.drop { $0 == " " }
        var frame = Frame(index: index, address: address, reportLine: reportLine)
        // LLDB's markers at the end of the line.
        var trimmedEnd = true
        while trimmedEnd {
            trimmedEnd = false
            for marker in [" [opt]", " [artificial]", "[opt]", "[artificial]"] where body.hasSuffix(marker) {
                body = body.dropLast(marker.count)
                trimmedEnd = true
            }
            while body.last == " " { body = body.dropLast() }
        }
        guard !body.isEmpty else { return frame }
        guard let tick = body.firstIndex(of: "`") else {
            // A module without a function (`frame #4: 0x… MyApp`).
            if !body.containsBytes(" ") { frame.imageName = String(body) }
            return frame
        }
        frame.imageName = String(body[..<tick])
        var function = body[body.index(after: tick)...]
        if let at = function.range(of: " at ", options: .backwards), let place = sourcePlace(function[at.upperBound...]) {
            frame.sourceFile = place.file
            frame.sourceLine = place.line
            function = function[..<at.lowerBound]
        }
        // Inlined frames: `outer [inlined] inner` (the frame is `inner`, inlined into `outer`).
        if let inlined = function.byteRange(of: " [inlined] ") {
            frame.isInlined = true
            function = function[inlined.upperBound...]
        } else if function.hasSuffix(" [inlined]") {
            frame.isInlined = true
            function = function.dropLast(10)
        }
        if let plus = function.range(of: " + ", options: .backwards), let offset = UInt64(function[plus.upperBound...]) {
            frame.symbolOffset = offset
            function = function[..<plus.lowerBound]
        }
        let name = withoutArguments(function)
        if !name.isEmpty, !name.drop(while: { $0 == "_" }).hasBytePrefix("lldb_unnamed_symbol") {
            frame.symbol = String(name)
        }
        return frame
    }

    /// `File.swift:20:9` or `main.c:5`.
    private static func sourcePlace(_ text: Substring) -> (file: String, line: Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        if parts.count >= 3, let line = Int(parts[parts.count - 2]), Int(parts[parts.count - 1]) != nil {
            return (parts.dropLast(2).joined(separator: ":"), line)
        }
        guard let line = Int(parts[parts.count - 1]) else { return nil }
        return (parts.dropLast().joined(separator: ":"), line)
    }

    /// LLDB prints a function with its arguments' values when it has debug information
    /// (`main(argc=1, argv=0x…)`, `-[ViewController viewDidLoad](self=0x…, _cmd="viewDidLoad")`):
    /// the values are not part of the name.
    private static func withoutArguments(_ function: Substring) -> Substring {
        guard let index = function.openingParenOfLastGroup(), index > function.startIndex else { return function }
        let arguments = function[index...]
        guard arguments.containsBytes("=") else { return function }
        return function[..<index]
    }
}

/// `[  0] 5F2A1B3C-1234-5678-9ABC-DEF012345678 0x0000000100f24000 /path/MyApp.app/MyApp` (`image list`),
/// also without the UUID (`image list -o -f`).
enum ImageListLine {
    static func parse(_ text: String) -> (debugID: DebugID?, loadAddress: UInt64, path: String)? {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasBytePrefix("["), let close = trimmed.firstIndex(of: "]") else { return nil }
        let number = trimmed[trimmed.index(after: trimmed.startIndex)..<close].trimmedBlanks
        guard !number.isEmpty, number.count < 7, number.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var rest = trimmed[trimmed.index(after: close)...].drop { $0 == " " }
        var debugID: DebugID?
        if !rest.hasBytePrefix("0x") {
            let word = rest.prefix { $0 != " " }
            guard let id = DebugID(parsing: String(word)) else { return nil }
            debugID = id
            rest = rest.dropFirst(word.count).drop { $0 == " " }
        }
        let addressWord = rest.prefix { $0 != " " }
        guard addressWord.hasBytePrefix("0x"), addressWord.count <= 18, let address = UInt64(addressWord.dropFirst(2), radix: 16)
        else { return nil }
        let path = String(rest.dropFirst(addressWord.count)).trimmedBlanks
        guard !path.isEmpty else { return nil }
        return (debugID, address, path)
    }
}

// MARK: - The parser

/// Reads console and LLDB output into the report model. Every line the parser does not know is
/// kept as text; frames keep their original lines (the writer rewrites those it symbolicates).
struct DebuggerOutputParser {
    let document: TextDocument
    let path: String

    private enum Section {
        case none
        /// Inside `*** First throw call stack:`; `list` once a `(0x… 0x…)` list has begun.
        case firstThrow(list: Bool)
        /// After an LLDB thread line: its position in `report.threads`.
        case thread(Int)
    }

    func parse() -> CrashReport {
        var report = CrashReport(path: path, format: .text, source: .text(document))
        var exception = ExceptionInfo()
        var section = Section.none
        var sawImageList = false
        var sawLLDB = false
        var sawConsole = false
        var pendingReason: (line: Int, text: String)?
        var imageKeys = Set<String>()
        // The tolerant part (`CrashTextGrammar`): messages found anywhere, pasted frames grouped into threads.
        var stated: [StatedMessage] = []
        var pendingName: (line: Int, name: String)?
        var pastedThread: Int?
        // A stack's heading (`Call Stack:`, `Traceback:`) was the last line read: a list of names
        // under it (`- String.index(after:)`, R's ` 1: initMethodDispatch(where)`) is its frames.
        var underStackHeading = false
        var continuation: (message: Int, lines: Int)?

        var cellsUntil = 0
        var disassemblyStop: Frame?
        // Threads whose frames the text lists oldest first (Python's `most recent call last`), and
        // whether the line that names a Python exception is still to come.
        var oldestFirst: Set<Int> = []
        var pythonException = false
        for (offset, line) in document.lines.enumerated() {
            let number = offset + 1
            if number <= cellsUntil { continue }
            let text = line.text
            let trimmed = text.trimmedBlanks
            // A frame copied one table cell per line: its three lines are one frame.
            if pendingReason == nil, let cell = PastedFrameGrammar.cellFrame(document.lines, at: offset) {
                var frame = cell.frame
                let thread = Self.pastedThread(&pastedThread, in: &report)
                if cell.lines == 3, frame.index == 0, !report.threads[thread].frames.isEmpty {
                    // A numbered list that starts again at 0 is another thread's.
                    pastedThread = nil
                    frame.reportLine = number
                    report.threads[Self.pastedThread(&pastedThread, in: &report)].frames.append(frame)
                } else {
                    // Unnumbered cells are numbered in their order.
                    if cell.lines == 2 { frame.index = report.threads[thread].frames.count }
                    frame.reportLine = number
                    report.threads[thread].frames.append(frame)
                }
                cellsUntil = number + cell.lines - 1
                continue
            }

            // The instruction LLDB shows the thread stopped at (its first `->` line).
            if report.facts.stopInstruction == nil, trimmed.hasBytePrefix("->"),
                let instruction = PastedFrameGrammar.stoppedInstruction(Substring(trimmed))
            {
                report.facts.stopInstruction = instruction
            }
            // LLDB's disassembly of the stopped function: the function is the thread's frame 0,
            // when the text has no frame lines of its own (LLDB prints it under `frame #0`).
            if disassemblyStop == nil, pendingReason == nil, trimmed.hasSuffix(":"),
                let frame = PastedFrameGrammar.disassemblyStop(document.lines, at: offset)
            {
                disassemblyStop = frame
            }

            // An Objective-C reason continued over several lines.
            if let pending = pendingReason {
                if trimmed.contains(ConsoleLine.firstThrow) || number - pending.line > 50 {
                    exception.uncaught?.reason = pending.text
                    pendingReason = nil
                } else if pending.text.isEmpty, trimmed.hasBytePrefix("'") || trimmed.hasBytePrefix("reason: '") {
                    // `reason:` ended the line above (or opens this one); the quoted reason is this
                    // line (and maybe more).
                    let body = trimmed.dropFirst(trimmed.hasBytePrefix("'") ? 1 : 9)
                    if let quote = body.lastIndex(of: "'") {
                        exception.uncaught?.reason = String(body[..<quote])
                        pendingReason = nil
                    } else {
                        pendingReason = (pending.line, String(body))
                    }
                    continue
                } else if let quote = text.lastIndex(of: "'") {
                    exception.uncaught?.reason = pending.text + "\n" + String(text[..<quote])
                    pendingReason = nil
                    continue
                } else {
                    pendingReason = (pending.line, pending.text + "\n" + text)
                    continue
                }
            }

            if trimmed.isEmpty {
                if let open = continuation, CrashMessageGrammar.awaitsMessageAcrossBlank(stated[open.message].text) { continue }
                continuation = nil
            } else if let uncaught = exception.uncaught, uncaught.reason?.isEmpty ?? true, let name = uncaught.name,
                document.readings.strip(trimmed).trimmedBlanks == "Reason:"
            {
                // `Reason:` on a line of its own, the reason under it (Titanium's `[ERROR] :  Reason:`).
                pendingName = (number, name)
                continue
            } else if let found = statedMessage(text, trimmed: trimmed, number: number) {
                stated.append(found)
                continuation = (stated.count - 1, 0)
                let body = Substring(found.text)
                // AppKit's `An uncaught exception was raised`: the reason is the next line that is
                // not the same words again (the system log repeats a line).
                if found.family == .objcException, body.hasBytePrefix(ConsoleLine.appKitUncaught) {
                    // The line says an exception was raised, which the uncaught exception says: no message of its own.
                    stated.removeLast()
                    continuation = nil
                    if exception.uncaught == nil {
                        exception.uncaught = UncaughtException(language: .objectiveC, name: "NSException", reason: "")
                        pendingName = (number, "NSException")
                    } else if let pending = pendingName {
                        pendingName = (number, pending.name)
                    }
                    continue
                }
                // The reason under AppKit's line, whatever its words (`NSWindow drag regions should
                // only be invalidated on the Main Thread!`): the caught exception's.
                if let pending = pendingName, pending.name == "NSException", number - pending.line <= 2,
                    exception.uncaught?.reason?.isEmpty ?? false, !body.hasBytePrefix(ConsoleLine.appKitUncaught)
                {
                    exception.uncaught?.reason = found.text
                    pendingName = nil
                }
                // A framework's reason under the name alone (`NSInternalInconsistencyException`,
                // then `Modifications to the layout engine must not be performed …`) is its reason.
                if let pending = pendingName, number - pending.line <= 2, found.family == .objcException,
                    ExceptionNameLine.parse(body) == nil
                {
                    exception.uncaught?.reason = found.text
                    pendingName = nil
                    continue
                }
                if found.family == .objcException, exception.uncaught == nil,
                    let named = ExceptionNameLine.parse(body.hasBytePrefix("Fatal Exception: ") ? body.dropFirst(17) : body)
                        ?? CaughtExceptionLine.parse(body)
                {
                    // Foundation's stars alone (`NSGenericException: ***`): the reason was wrapped onto the next line.
                    let reason = named.reason.flatMap { $0.allSatisfy { $0 == "*" || $0 == "\\" || $0 == " " } ? nil : $0 }
                    exception.uncaught = UncaughtException(language: .objectiveC, name: named.name, reason: reason ?? "")
                    if reason == nil { pendingName = (number, named.name) }
                    // Bugsnag's context (`NAME in UIPageViewController`): where, by its words.
                    if let context = ExceptionNameLine.context(of: body) { stated[stated.count - 1].place = context }
                }
                // The method it was raised in, alone on the line above (`-[CDVURLSchemeHandler
                // webView:stopURLSchemeTask:]` over `NSInternalInconsistencyException - …`), as
                // crash services title an issue.
                if found.family == .objcException, stated[stated.count - 1].place == nil, number >= 2,
                    let method = MethodReasonLine.bareMethod(Substring(document.lines[number - 2].text))
                {
                    stated[stated.count - 1].place = String(method)
                }
            } else if let pending = pendingName, number - pending.line <= 2, trimmed.hasBytePrefix("```") || trimmed.hasBytePrefix("~~~") {
                // The reason inside a Markdown code block under the name: the fence is no reason.
                pendingName = (number, pending.name)
                continue
            } else if let pending = pendingName, number - pending.line <= 2, PastedFrameGrammar.parse(trimmed, reportLine: number) == nil,
                TextReportParser.parseFrame(trimmed, reportLine: number) == nil
            {
                // `NSInternalInconsistencyException` on one line, its reason on the next.
                exception.uncaught?.reason = String(document.readings.strip(trimmed))
                pendingName = nil
                continue
            } else if let open = continuation, open.lines < 6,
                stated[open.message].family.continuesOverLines || CrashMessageGrammar.continues(document.readings.strip(trimmed))
                    || ConsoleLine.opensBackquote(stated[open.message].text)
                    || (open.lines == 0 && CrashMessageGrammar.panicAwaitsMessage(stated[open.message].text))
                    || CrashMessageGrammar.continuesHeading(
                        stated[open.message].text, line: document.readings.strip(trimmed), lines: open.lines)
                    || Self.sameRuntimeTag(stated[open.message], trimmed),
                PastedFrameGrammar.parse(trimmed, reportLine: number) == nil,
                TextReportParser.parseFrame(trimmed, reportLine: number) == nil
            {
                // dyld's `Referenced from:`/`Reason:`, TCC's sentence wrapped by the console, the
                // exclusivity report's accesses, a message whose backquote is still open (Metal's
                // ``failed assertion `Draw Errors Validation`` goes on to the line that closes it).
                // Rust's message under its panic line is the rest of one sentence.
                let separator =
                    (open.lines == 0 && CrashMessageGrammar.panicAwaitsMessage(stated[open.message].text))
                        || stated[open.message].text.hasBytePrefix(CrashMessageGrammar.rustPanicHookHeading)
                        || CrashMessageGrammar.isGameMakerHeading(stated[open.message].text) ? " " : "\n"
                stated[open.message].text += separator + String(document.readings.strip(trimmed))
                continuation = (open.message, open.lines + 1)
                continue
            }

            if let image = ImageListLine.parse(text) {
                sawImageList = true
                section = .none
                let key = "\(image.loadAddress) \(image.path)"
                guard imageKeys.insert(key).inserted else { continue }
                let name = image.path.split(separator: "/").last.map(String.init) ?? image.path
                report.binaryImages.append(
                    BinaryImage(loadAddress: image.loadAddress, name: name, debugID: image.debugID, path: image.path, reportLine: number))
                continue
            }
            if let thread = LLDBLine.thread(text) {
                sawLLDB = true
                if let existing = report.threads.firstIndex(where: { $0.index == thread.number }) {
                    // `thread backtrace all` after a stop line of the same thread: one thread.
                    report.threads[existing].frames.removeAll()
                    section = .thread(existing)
                } else {
                    report.threads.append(CrashReport.Thread(index: thread.number, name: thread.name, queue: thread.queue))
                    section = .thread(report.threads.count - 1)
                }
                if let stop = thread.stopReason {
                    let reason = StopReason(stop)
                    if reason.isCrash, report.crashedThreadIndex == nil {
                        report.crashedThreadIndex = thread.number
                        apply(reason, to: &exception)
                    }
                }
                if thread.selected, report.crashedThreadIndex == nil, thread.stopReason != nil {
                    report.crashedThreadIndex = thread.number
                }
                continue
            }
            if let frame = LLDBLine.frame(text, reportLine: number) {
                sawLLDB = true
                if case .thread(let position) = section {
                    // A stop shows frame #0 again under its thread line; `bt` lists it once more.
                    if let last = report.threads[position].frames.last, last.index >= frame.index {
                        report.threads[position].frames.removeAll()
                    }
                    report.threads[position].frames.append(frame)
                } else {
                    // `frame select`, `up`/`down`, `frame info`: the selected frame of the stopped
                    // thread, printed without its thread's line: a frame of a pasted thread.
                    report.threads[Self.pastedThread(&pastedThread, in: &report)].frames.append(frame)
                }
                continue
            }

            if case .firstThrow(let list) = section {
                if trimmed == "(" || trimmed.isEmpty { continue }
                if trimmed == ")" {
                    section = .none
                    continue
                }
                if let frame = TextReportParser.parseFrame(trimmed, reportLine: number) {
                    report.lastExceptionBacktrace?.frames.append(frame)
                    continue
                }
                if trimmed.hasBytePrefix("(0x") || trimmed.hasBytePrefix("( 0x") || (list && trimmed.hasBytePrefix("0x")) {
                    // `(0x18d418964 0x18a2f5814 …)`, possibly wrapped over several lines.
                    var index = report.lastExceptionBacktrace?.frames.count ?? 0
                    for token in trimmed.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == ")" || $0 == "\t" }) {
                        guard let address = TextReportParser.hex(token) else { continue }
                        report.lastExceptionBacktrace?.frames.append(Frame(index: index, address: address, reportLine: number))
                        index += 1
                    }
                    section = trimmed.hasSuffix(")") ? .none : .firstThrow(list: true)
                    continue
                }
                section = .none
            }

            if let match = ConsoleLine.objcException(text) {
                sawConsole = true
                exception.uncaught = UncaughtException(
                    language: .objectiveC, name: match.name.isEmpty ? nil : match.name, reason: match.reason)
                if !match.complete { pendingReason = (number, match.reason) }
                // The line wrapped after the name (`… uncaught exception 'X',`), the reason's label
                // opening the next line (`    reason: 'UIGraphicsBeginImageContext() failed …`).
                if match.complete, match.reason.isEmpty, trimmed.hasSuffix("',"), offset + 1 < document.lines.count,
                    document.lines[offset + 1].text.trimmedBlanks.hasBytePrefix("reason: '")
                {
                    pendingReason = (number, "")
                }
                if report.processName == nil, let marker = text.byteRange(of: "Terminating app due to"),
                    let process = ConsoleLine.processPrefix(String(text[..<marker.lowerBound]) + " ")
                {
                    report.processName = process.name
                    report.processID = process.pid
                }
                continue
            }
            if trimmed.contains(ConsoleLine.firstThrow) {
                sawConsole = true
                report.lastExceptionBacktrace = Backtrace(title: "First throw call stack", frames: [])
                // The list may follow on the same line: `*** First throw call stack: (0x… 0x…)`.
                let after = trimmed[(trimmed.range(of: ConsoleLine.firstThrow)?.upperBound ?? trimmed.endIndex)...].trimmedBlanks
                section = .firstThrow(list: false)
                if after.hasBytePrefix("(0x") {
                    var index = 0
                    for token in after.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == ")" }) {
                        guard let address = TextReportParser.hex(token) else { continue }
                        report.lastExceptionBacktrace?.frames.append(Frame(index: index, address: address, reportLine: number))
                        index += 1
                    }
                    section = after.hasSuffix(")") ? .none : .firstThrow(list: true)
                }
                continue
            }
            if let cxx = ConsoleLine.cxxException(text) {
                sawConsole = true
                // `NSException` here is the Objective-C exception the console already named.
                if cxx.type == "NSException" {
                    if exception.uncaught == nil { exception.uncaught = UncaughtException(language: .objectiveC) }
                } else if exception.uncaught == nil {
                    exception.uncaught = UncaughtException(language: .cxx, name: cxx.type, reason: cxx.what)
                }
                continue
            }
            if let banner = ConsoleLine.xcodeBanner(text), !banner.isEmpty {
                let reason = StopReason(banner)
                if reason.isCrash {
                    sawConsole = true
                    apply(reason, to: &exception)
                    continue
                }
            }
            if var error = ConsoleLine.swiftRuntimeError(text) {
                sawConsole = true
                // Xcode's issue navigator copied: the file alone on a line, then `Line 117: Fatal error: …`.
                if error.file == nil, error.line != nil, let file = issueNavigatorFile(before: offset) { error.file = file }
                // A message over several lines (Swift 5.0-5.3 printed the place after its last
                // line: `Precondition failed: NSArray element failed to match …` then `Expected X
                // but found Y: file …/ArrayBuffer.swift, line 354`).
                if error.file == nil, error.line == nil, let rest = continuedRuntimeMessage(after: number) {
                    error.message += (error.message.isEmpty ? "" : " ") + rest.message
                    error.file = rest.file
                    error.line = rest.line
                }
                if error.file == nil, error.line == nil, let place = nearbyPlace(number) {
                    error.file = place.file
                    error.line = place.line
                }
                if exception.runtimeError == nil || exception.runtimeError?.file == nil { setRuntimeError(error, in: &exception) }
                continue
            }
            if underStackHeading, let symbol = PastedThreadTitle.listedName(trimmed) {
                var frame = Frame(index: 0, address: 0, symbol: symbol, reportLine: number)
                frame.hasAddress = false
                let position = Self.pastedThread(&pastedThread, in: &report)
                frame.index = report.threads[position].frames.count
                report.threads[position].frames.append(frame)
                continue
            }
            underStackHeading = false
            // Python's traceback: its frames oldest first, the exception's line after them at the
            // line's start (`KeyError: 'key'`, `ValueError: …`).
            if trimmed == PythonTraceback.heading {
                let index = (report.threads.map(\.index).max() ?? -1) + 1
                var thread = CrashReport.Thread(index: index, crashed: report.crashedThreadIndex == nil)
                thread.isNumberedByReader = true
                report.threads.append(thread)
                pastedThread = report.threads.count - 1
                if report.crashedThreadIndex == nil { report.crashedThreadIndex = index }
                oldestFirst.insert(report.threads.count - 1)
                pythonException = true
                continue
            }
            if pythonException, text.first != " ", text.first != "\t" {
                pythonException = false
                if let exception = PythonTraceback.exceptionLine(trimmed) {
                    stated.append(StatedMessage(family: .managedException, text: exception, quote: trimmed, line: number, source: .console))
                    continue
                }
            }
            if let title = PastedThreadTitle.parse(trimmed) {
                underStackHeading = title.name == nil && !title.crashed
                let index = (report.threads.map(\.index).max() ?? -1) + 1
                // Numbered here, in the order pasted: the process's own numbers are not known.
                var thread = CrashReport.Thread(index: index, name: title.name, crashed: title.crashed)
                thread.isNumberedByReader = true
                report.threads.append(thread)
                pastedThread = report.threads.count - 1
                if title.crashed, report.crashedThreadIndex == nil { report.crashedThreadIndex = index }
                continue
            }
            // The place under a Rust backtrace's frame (`at ./src/main.rs:4:5`) is that frame's.
            if let place = PastedFrameGrammar.rustPlace(Substring(trimmed)), let position = pastedThread,
                let last = report.threads[position].frames.indices.last, report.threads[position].frames[last].reportLine == number - 1
            {
                if report.threads[position].frames[last].sourceFile == nil {
                    report.threads[position].frames[last].sourceFile = place.file
                    report.threads[position].frames[last].sourceLine = place.line
                }
                continue
            }
            if stated.last?.line != number, let (found, numbered) = pastedFrame(trimmed, number: number) {
                var frame = found
                // A numbered list that starts again at 0 is the next thread's.
                if numbered, frame.index == 0, let position = pastedThread, !report.threads[position].frames.isEmpty {
                    // (gdb's line where the program stopped, `0x… in f ()`, is the frame its `bt`
                    // then prints first: the same thread, told twice.)
                    let previous = report.threads[position].frames
                    if previous.count == 1, previous[0].hasAddress, frame.hasAddress, previous[0].address == frame.address {
                        report.threads[position].frames.removeAll()
                    } else {
                        pastedThread = nil
                    }
                }
                let position = Self.pastedThread(&pastedThread, in: &report)
                if !numbered { frame.index = report.threads[position].frames.count }
                report.threads[position].frames.append(frame)
                continue
            }
            if text.hasBytePrefix("Process "), let launched = text.byteRange(of: " launched: '") {
                // `Process 1234 launched: '/path/MyApp.app/MyApp' (arm64)`
                let rest = text[launched.upperBound...]
                if let end = rest.range(of: "'", options: .backwards) {
                    report.processPath = String(rest[..<end.lowerBound])
                    let arch = rest[end.upperBound...].trimmedBlanks
                    if arch.hasBytePrefix("("), arch.hasSuffix(")") {
                        report.architecture = Architecture(String(arch.dropFirst().dropLast()))
                    }
                }
                report.processID = Int(text.dropFirst(8).prefix { $0.isNumber })
            }
        }
        if let pending = pendingReason { exception.uncaught?.reason = pending.text }
        if (exception.uncaught?.reason ?? "").isEmpty, let found = methodReason(report) {
            // Frames through the throw and, above them, the reason in the raising method's words.
            if exception.uncaught == nil { exception.uncaught = UncaughtException(language: .objectiveC) }
            exception.uncaught?.reason = found.reason
            stated.append(
                StatedMessage(family: .objcException, text: found.reason, quote: found.reason, line: found.line, source: .console))
        }
        if var frame = disassemblyStop, report.threads.allSatisfy({ $0.frames.isEmpty }) {
            frame.index = 0
            report.threads[Self.pastedThread(&pastedThread, in: &report)].frames.append(frame)
        }
        for position in oldestFirst where report.threads.indices.contains(position) {
            // Newest first, as every other layout lists a thread's frames.
            report.threads[position].frames.reverse()
            for index in report.threads[position].frames.indices { report.threads[position].frames[index].index = index }
        }
        Self.markLoggedBeforeBreakHint(&stated)
        apply(stated, to: &exception, report: &report)
        if report.crashedThreadIndex == nil, !stated.isEmpty || report.threads.count == 1,
            let first = report.threads.first(where: { !$0.frames.isEmpty })
        {
            // Frames pasted with the message that stopped the process are its thread's; one
            // backtrace pasted alone is the crashed thread's (the one people copy).
            report.crashedThreadIndex = first.index
        }
        report.facts.statedMessages = stated

        if exception != ExceptionInfo() { report.exception = exception }
        finishImages(&report)
        report.completeness = completeness(report, sawLLDB: sawLLDB, sawImageList: sawImageList, sawConsole: sawConsole)
        if !report.completeness.isComplete {
            report.warnings.append(partialWarning(report, sawLLDB: sawLLDB, sawImageList: sawImageList))
        }
        return report
    }

    /// Foundation's and UIKit's logged errors end with where to break to debug them (`*** -[NSLock
    /// unlock]: lock (<NSLock: 0x…>) unlocked when not locked`, then `*** Break on _NSLockError()
    /// to debug.`): they log and go on. The messages in the few lines above such a hint are its
    /// error's own words, a failure the process survived, not a crash's statement.
    static func markLoggedBeforeBreakHint(_ stated: inout [StatedMessage]) {
        let hints = stated.compactMap { message -> Int? in
            guard message.family == .diagnostic, let line = message.line, NonFatalReport.isBreakHint(Substring(message.text)) else {
                return nil
            }
            return line
        }
        guard !hints.isEmpty else { return }
        for index in stated.indices where stated[index].family != .diagnostic {
            guard let line = stated[index].line, hints.contains(where: { $0 > line && $0 - line <= 3 }) else { continue }
            stated[index].family = .diagnostic
        }
    }

    /// A runtime's fatal message that goes on over lines of its own process tag (libobjc's
    /// `objc[791]: Method cache corrupted. …`, then `objc[791]: selector 'pcscfPort'` and
    /// `objc[791]: isa 'NgnSipPreferences'`): the lines after it with the same tag are its details.
    static func sameRuntimeTag(_ message: StatedMessage, _ line: String) -> Bool {
        let quote = message.quote
        guard [.libraryMisuse, .assertion, .malloc].contains(message.family), let end = LogPrefix.processTag(Substring(quote)),
            end > quote.startIndex
        else { return false }
        let tag = quote[..<end].trimmedBlanks
        return tag.contains("[") && line.hasPrefix(tag + " ") && !LogPrefix.strip(line).isEmpty
    }

    /// The reason a framework's exception gives in its own words (`-[NSURL initFileURLWithPath:]:
    /// nil string parameter`), on a line before the frames, when the frames show the throw
    /// (`objc_exception_throw`, `__exceptionPreprocess`) and no line named the reason: alone, such
    /// a line may be a framework's log line, not a crash.
    private func methodReason(_ report: CrashReport) -> (reason: String, line: Int)? {
        let frames = report.threads.flatMap(\.frames)
        guard
            let throwLine = frames.first(where: { frame in
                frame.symbol.map { $0.hasPrefix("objc_exception_throw") || $0.contains("_exceptionPreprocess") } ?? false
            })?.reportLine
        else { return nil }
        let firstFrame = frames.compactMap(\.reportLine).min() ?? throwLine
        for (index, line) in document.lines.prefix(max(0, firstFrame - 1)).enumerated().prefix(2_000) {
            guard line.text.utf8.count <= FactReading.messageLineLength else { continue }
            let stripped = document.readings.strip(line.text.trimmedBlanks)
            if MethodReasonLine.reason(stripped) != nil { return (String(stripped.trimmedBlanks), index + 1) }
        }
        return nil
    }

    /// Xcode's annotation after a label or log prefix: only a line with `Thread` or a named
    /// thread's ` (` in it can hold one, so no other line is stripped for it.
    private func annotationAfterLabel(_ trimmed: String) -> String? {
        guard trimmed.containsBytes("Thread") || trimmed.containsBytes(" (") else { return nil }
        return ThreadAnnotation.reason(String(document.readings.strip(trimmed)))
    }

    /// The crash message a line states, as Xcode's annotation of the stopped thread or as a
    /// console line (`CrashMessageGrammar`).
    private func statedMessage(_ text: String, trimmed: String, number: Int) -> StatedMessage? {
        // The annotation may follow a label (`崩溃信息：Thread 2: EXC_RESOURCE …`).
        if let reason = ThreadAnnotation.reason(trimmed) ?? annotationAfterLabel(trimmed) {
            guard !ThreadAnnotation.isDebuggerStop(reason) else { return nil }
            // The source line Xcode marked, copied on the line above the banner.
            let place = codeAbove(number).map { annotatedPlace($0, number: number - 1) }
            return annotationMessage(reason, quote: trimmed, number: number, place: place)
        }
        // The annotation copied beside the source line it stood on: that line is its place.
        if let trailing = ThreadAnnotation.trailing(trimmed), !ThreadAnnotation.isDebuggerStop(trailing.reason) {
            // What stands before it may be a label the paste added (`Error = "Thread 1: …"`), with
            // the marked code on the line above.
            if !trailing.code.contains("("), let code = codeAbove(number) {
                return annotationMessage(trailing.reason, quote: trimmed, number: number, place: annotatedPlace(code, number: number - 1))
            }
            return annotationMessage(trailing.reason, quote: trimmed, number: number, place: annotatedPlace(trailing.code, number: number))
        }
        if document.readings.match(text) == nil, FactReading.isJavaScriptErrorOverFrames(trimmed, at: number - 1, in: document) {
            return StatedMessage(family: .managedException, text: trimmed, quote: trimmed, line: number, source: .console)
        }
        guard let match = document.readings.match(text), !FactReading.isSourceExcerpt(at: number - 1, in: document) else { return nil }
        // A Swift runtime message copied from Xcode with its place on a line of its own
        // (`Timetag.swift Line 35` above it, `SCLAlertView.swift` and `Line 712` below).
        let place = match.family == .swiftRuntime ? nearbyPlace(number).map { "\($0.file):\($0.line)" } : nil
        return StatedMessage(
            family: match.family, text: match.text.trimmedBlanks, quote: trimmed, line: number, source: .console, place: place)
    }

    /// A source place alone on a line near line `number` (two above, three below): `File.ext Line
    /// N`, `File.ext - Line N`, `File.ext:N`, or `File.ext` over `Line N`, as Xcode's editor and
    /// issue navigator are copied beside a message.
    /// The line after a runtime error's when it ends the message with its place (`…: file
    /// X.swift, line 12`) and states no error of its own.
    func continuedRuntimeMessage(after number: Int) -> (message: String, file: String, line: Int)? {
        guard number < document.lines.count else { return nil }
        let text = document.lines[number].text.trimmedBlanks
        guard text.utf8.count <= 2_000, let marker = text.range(of: ": file ", options: .backwards),
            ConsoleLine.swiftRuntimeError(text) == nil
        else { return nil }
        let place = text[marker.upperBound...]
        guard let comma = place.range(of: ", line ", options: .backwards), let line = Int(place[comma.upperBound...]) else { return nil }
        let file = String(place[..<comma.lowerBound])
        guard !file.isEmpty, PastedFrameGrammar.isSourceFile(String(file.split(separator: "/").last ?? "")) else { return nil }
        return (String(text[..<marker.lowerBound]), file, line)
    }

    func nearbyPlace(_ number: Int) -> (file: String, line: Int)? {
        let lines = document.lines
        let candidates = Array((max(1, number - 2)..<number).reversed()) + Array((number + 1)...(number + 3))
        for candidate in candidates where candidate <= lines.count {
            let text = lines[candidate - 1].text.trimmedBlanks
            guard !text.isEmpty, text.utf8.count <= 200 else { continue }
            for marker in [" - Line ", " Line ", " line ", ":"] {
                guard let range = text.byteRange(of: marker) else { continue }
                let file = text[..<range.lowerBound]
                let digits = text[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
                let rest = text[range.upperBound...].dropFirst(digits.count)
                guard !file.contains(" "), PastedFrameGrammar.isSourceFile(String(file)), let line = Int(digits),
                    rest.isEmpty || (marker == ":" && rest.hasBytePrefix(":") && rest.dropFirst().allSatisfy(\.isNumber))
                else { continue }
                return (String(file), line)
            }
            if !text.contains(" "), PastedFrameGrammar.isSourceFile(text), candidate < lines.count {
                let next = lines[candidate].text.trimmedBlanks
                if next.hasBytePrefix("Line "), let line = Int(next.dropFirst(5)) { return (text, line) }
            }
        }
        return nil
    }

    /// Xcode's annotation as a stated message: the family its reason's words name, else the Mach
    /// exception they name (`program received signal: EXC_BAD_ACCESS`), else a reason of its own.
    private func annotationMessage(_ reason: String, quote: String, number: Int, place: String? = nil) -> StatedMessage {
        if let family = document.readings.match(reason)?.family {
            return StatedMessage(family: family, text: reason, quote: quote, line: number, source: .annotation, place: place)
        }
        if let named = MachExceptionLine.named(in: Substring(reason)) {
            return StatedMessage(family: .machException, text: String(named), quote: quote, line: number, source: .annotation, place: place)
        }
        return StatedMessage(family: .annotation, text: reason, quote: quote, line: number, source: .annotation, place: place)
    }

    /// The statement on the line just above line `number` (blank lines skipped), when it reads as
    /// Swift or Objective-C code: an annotation copied under the line it marked.
    private func codeAbove(_ number: Int) -> String? {
        guard let line = document.lines.prefix(max(0, number - 1)).suffix(2).reversed().first(where: { !$0.text.trimmedBlanks.isEmpty })
        else { return nil }
        let code = line.text.trimmedBlanks
        guard code.utf8.count <= 300, code.contains("("), !code.hasSuffix(":"), !code.hasSuffix(".") else { return nil }
        let openings = ["let ", "var ", "guard ", "if ", "return ", "try ", "self.", "_ = ", "for ", "switch ", "while ", "["]
        return openings.contains(where: { code.hasBytePrefix($0) }) || code.hasSuffix(";") ? code : nil
    }

    /// The code an annotation stood beside, after the source file's name when the paste gives it
    /// on one of the lines above (`DAAppsViewCell.m`).
    private func annotatedPlace(_ code: String, number: Int) -> String {
        let above = document.lines.prefix(max(0, number - 1)).suffix(4).reversed()
        let file = above.lazy.map { $0.text.trimmedBlanks }.first { name in
            !name.containsBytes(" ") && PastedFrameGrammar.isSourceFile(name)
        }
        return file.map { "\($0): \(code)" } ?? code
    }

    /// A frame line in any pasted syntax: Apple's (`callStackSymbols` too), with or without a log
    /// prefix, then the syntaxes of `PastedFrameGrammar`.
    private func pastedFrame(_ trimmed: String, number: Int) -> (frame: Frame, numbered: Bool)? {
        // A command typed at a shell's prompt (`user@host:~/sdk (main)$ d-rts`) is no frame.
        if ShellPrompt.command(in: Substring(trimmed)) != nil { return nil }
        if var frame = TextReportParser.parseFrame(trimmed, reportLine: number) {
            // `1 CoreFoundation in 0x1855ec000`: a crash service's frame in an image it names with
            // the image's load address only; no symbol, and no address to look up.
            if let name = frame.imageName, name.hasSuffix(" in"), frame.symbol == nil || frame.isUnsymbolicated {
                frame.imageName = String(name.dropLast(3))
                frame.imageOffset = nil
                frame.address = 0
                frame.hasAddress = false
            }
            return (frame, true)
        }
        let stripped = String(document.readings.strip(trimmed))
        if stripped != trimmed, let frame = TextReportParser.parseFrame(stripped, reportLine: number) { return (frame, true) }
        if let frame = document.readings.frame(trimmed, reportLine: number) { return frame }
        // Any other syntax behind the console's prefix (a managed runtime's `at …` lines in the
        // system log, each after the date and the process).
        if stripped != trimmed, !stripped.isEmpty, let frame = document.readings.frame(stripped, reportLine: number) { return frame }
        // A component's label before each frame of a handler's stack (ClickHouse's `<Error>
        // BaseDaemon: 3. clickhouse-server(…) [0x…]`): one word and a colon, then a frame.
        if let colon = stripped.prefix(48).byteRange(of: ": ") {
            let label = stripped[..<colon.lowerBound]
            let rest = String(stripped[colon.upperBound...].trimmedBlanks)
            // (Only a numbered or addressed frame: a field's value, `Thread: com.apple.main-thread`,
            // would pass for a frame of a looser syntax.)
            if !label.isEmpty, label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-" }),
                rest.first.map({ $0.isNumber || $0 == "#" }) == true
            {
                return document.readings.frame(rest, reportLine: number)
            }
        }
        return nil
    }

    /// The facts the stated messages carry that the console's own lines did not already give:
    /// the exception's type or signal, dyld's and TCC's terminations, and the message itself.
    private func apply(_ stated: [StatedMessage], to exception: inout ExceptionInfo, report: inout CrashReport) {
        for message in stated {
            let text = Substring(message.text.split(separator: "\n", maxSplits: 1).first ?? "")
            switch message.family {
            case .machException, .signal:
                exception.take(statedCrash: message)
            case .resource:
                if text.hasBytePrefix("EXC_RESOURCE"), exception.type == nil || exception.type?.hasBytePrefix("SIG") == true {
                    exception.type = "EXC_RESOURCE"
                    let rest = text.dropFirst(12).trimmedBlanks
                    if !rest.isEmpty { exception.subtype = rest }
                }
            case .dyld:
                if report.termination == nil {
                    // dyld's exit reasons (`DYLD_EXIT_REASON_DYLIB_MISSING` 1, `…_SYMBOL_MISSING` 4), as
                    // a report's `Termination Reason: DYLD, [0x1] Library missing` numbers them.
                    let code =
                        message.text.containsBytes("Library not loaded") ? "1" : message.text.containsBytes("Symbol not found") ? "4" : nil
                    report.termination = TerminationInfo(namespace: "DYLD", code: code, details: message.text.components(separatedBy: "\n"))
                }
            case .privacy:
                if report.termination == nil {
                    report.termination = TerminationInfo(
                        namespace: "TCC", details: [message.text.replacingOccurrences(of: "\n", with: " ")])
                }
            case .objcException:
                if let uncaught = exception.uncaught, uncaught.reason?.isEmpty ?? true, !text.contains(ConsoleLine.objcOpening),
                    !text.containsBytes("uncaught exception of type "), !text.hasBytePrefix("Fatal Exception: "),
                    !text.hasBytePrefix(ConsoleLine.appKitUncaught),
                    ExceptionNameLine.parse(text) == nil, CaughtExceptionLine.parse(text) == nil
                {
                    // A reason printed above its name (a crash service's title line, then `Fatal
                    // Exception: NSFileHandleOperationException`): the named exception's reason.
                    exception.uncaught?.reason = String(text)
                } else if exception.uncaught == nil, !text.contains(ConsoleLine.objcOpening) {
                    var reason = String(text)
                    if reason.hasBytePrefix("Uncaught exception: ") { reason = String(reason.dropFirst(20)) }
                    // An uncaught-exception handler's `CRASH: …` line; the reason part of libobjc's line alone.
                    if reason.hasBytePrefix("CRASH: ") { reason = String(reason.dropFirst(7)) }
                    if let bare = ConsoleLine.bareReason(reason) { reason = bare }
                    if reason.hasBytePrefix("Fatal Exception: ") {
                        let name = ExceptionNameLine.parse(reason.dropFirst(17))
                        exception.uncaught = UncaughtException(language: .objectiveC, name: name?.name, reason: name?.reason ?? "")
                    } else {
                        exception.uncaught = UncaughtException(language: .objectiveC, reason: reason)
                    }
                }
            case .cxxRuntime:
                // libstdc++'s `terminate called after throwing an instance of 'T'`, its `what():` on a
                // line below: the uncaught C++ exception, as libc++abi's line names it.
                if exception.uncaught == nil, let type = ConsoleLine.libstdcxxThrown(text) {
                    let below = document.lines.dropFirst(message.line ?? 0).prefix(3).lazy.map { $0.text.trimmedBlanks }
                    let what = below.first { $0.hasBytePrefix("what():") }.map { String($0.dropFirst(7)).trimmedBlanks }
                    exception.uncaught = UncaughtException(language: .cxx, name: type, reason: what)
                }
            case .swiftRuntime, .cxxException, .managedException, .assertion, .threadChecker, .libraryMisuse, .malloc,
                .annotation, .diagnostic, .processExit, .execRefused:
                break
            }
        }
        // The message itself, for the rules that read the report's words: the most specific one
        // the console's own lines did not already type.
        let untyped = stated.filter { ![.objcException, .cxxException, .machException, .signal, .diagnostic].contains($0.family) }
        if exception.message == nil, exception.runtimeError == nil, let primary = StatedMessage.primary(of: untyped),
            primary.family.specificity <= StatedMessage.primary(of: stated)?.family.specificity ?? 0 || exception.uncaught == nil
        {
            exception.message = primary.text.components(separatedBy: "\n").first
        }
    }

    /// The position of the thread pasted frames go to: the current one, or a new thread the
    /// reader numbers itself after the others (the process's own number is not known).
    private static func pastedThread(_ current: inout Int?, in report: inout CrashReport) -> Int {
        if let current { return current }
        var thread = CrashReport.Thread(index: (report.threads.map(\.index).max() ?? -1) + 1)
        thread.isNumberedByReader = true
        report.threads.append(thread)
        current = report.threads.count - 1
        return report.threads.count - 1
    }

    /// The source file named alone on the line above a `Line 117: …` message (Xcode's issue navigator, copied).
    private func issueNavigatorFile(before offset: Int) -> String? {
        guard let previous = document.lines[..<offset].last(where: { !$0.text.trimmedBlanks.isEmpty })?.text.trimmedBlanks,
            !previous.contains(" "), PastedFrameGrammar.isSourceFile(previous)
        else { return nil }
        return previous
    }

    private func setRuntimeError(_ error: SwiftRuntimeError, in exception: inout ExceptionInfo) {
        exception.setRuntimeError(error)
    }

    private func apply(_ reason: StopReason, to exception: inout ExceptionInfo) {
        exception.take(reason)
    }

    /// Frames point at `image list` entries by module name (the image's file name), the one
    /// loaded below the address when several share it. Without a list, images are taken from
    /// console frames that say where their image was loaded (`MyApp + 17004`, `_mh_execute_header + 17004`):
    /// those have no UUID and are matched by name only.
    private func finishImages(_ report: inout CrashReport) {
        if let main = report.binaryImages.first, report.processPath == nil {
            // LLDB lists the executable first.
            report.processPath = main.path
        }
        if report.processName == nil, let processPath = report.processPath {
            report.processName = processPath.split(separator: "/").last.map(String.init)
        }
        for i in report.binaryImages.indices {
            let devicePath = Self.devicePath(report.binaryImages[i].path)
            report.binaryImages[i].isAppOwned = AppOwnership.isAppImage(path: devicePath, processPath: report.processPath)
        }
        if report.binaryImages.isEmpty {
            inferImages(&report)
        }
        let images = report.binaryImages
        var byName: [String: [Int]] = [:]
        for (position, image) in images.enumerated() { byName[image.name, default: []].append(position) }
        report.updateFrames { (frame: inout Frame) in
            guard let name = frame.imageName, let candidates = byName[name] else { return }
            let below = candidates.filter { images[$0].loadAddress <= frame.address }
            guard let position = below.max(by: { images[$0].loadAddress < images[$1].loadAddress }) else { return }
            frame.imageIndex = position
            frame.imageOffset = frame.address - images[position].loadAddress
        }
        report.markAppCodeWithoutImage()
    }

    /// Images known from console frames (`0x104f2c26c CrashApp + 17004`): the frame's address less
    /// its offset into the image. The executable's frames may name `_mh_execute_header` instead.
    private func inferImages(_ report: inout CrashReport) {
        var known = Set<String>()
        var inferred: [BinaryImage] = []
        var executable: String?
        report.updateFrames { (frame: inout Frame) in
            if frame.imageOffset == nil, frame.symbol == "_mh_execute_header" || frame.symbol == "__mh_execute_header",
                let offset = frame.symbolOffset
            {
                frame.imageOffset = offset
                frame.symbol = nil
                frame.symbolOffset = nil
                executable = executable ?? frame.imageName
            }
        }
        if report.processName == nil { report.processName = executable }
        for (_, frames) in report.allBacktraces {
            for frame in frames {
                guard let name = frame.imageName, let offset = frame.imageOffset, frame.address >= offset, known.insert(name).inserted
                else { continue }
                var image = BinaryImage(loadAddress: frame.address - offset, name: name)
                image.isInferredFromFrames = true
                image.isAppOwned =
                    name == report.processName || !AppOwnership.isSystemImage(named: name, loadAddress: image.loadAddress)
                inferred.append(image)
            }
        }
        report.binaryImages = inferred
    }

    /// Xcode keeps a device's system libraries under `…/iOS DeviceSupport/<version>/Symbols/`:
    /// the path on the device is what follows.
    static func devicePath(_ path: String?) -> String? {
        guard let path, path.containsBytes("DeviceSupport/"), let symbols = path.byteRange(of: "/Symbols/") else { return path }
        return String(path[path.index(before: symbols.upperBound)...])
    }

    private func completeness(_ report: CrashReport, sawLLDB: Bool, sawImageList: Bool, sawConsole: Bool) -> Completeness {
        var missing: [MissingPart] = []
        if report.exception == nil { missing.append(.noExceptionInformation) }
        if report.threads.allSatisfy({ $0.frames.isEmpty }) { missing.append(.noThreads) }
        if !sawImageList { missing.append(.noBinaryImages) }
        return missing.isEmpty ? .complete : .partial(missing)
    }

    private func partialWarning(_ report: CrashReport, sawLLDB: Bool, sawImageList: Bool) -> ParseWarning {
        var message = "partial report: " + report.completeness.summary
        let hasFrames = report.allBacktraces.contains { !$0.frames.isEmpty }
        if !sawImageList, hasFrames {
            if sawLLDB {
                message +=
                    ": without LLDB's `image list` the frames keep the names LLDB printed and are not symbolicated again (paste `image list` with the backtrace to match them to debug files by UUID)"
            } else if report.binaryImages.isEmpty {
                message += " (no frame prints its image's load address: frames cannot be matched to debug files)"
            } else {
                message += ": images are taken from the frames and matched by name, not UUID"
            }
        }
        return ParseWarning(path: path, line: document.lines.count, message: message, kind: .partialReport)
    }

    private func excerpt(_ s: String) -> String { s.count > 100 ? String(s.prefix(100)) + "…" : s }
}

/// Both readers asked directly, whichever reader of the registry would win (the fuzz target's
/// way in): the document's lines and what each reader that detects the text reads from it.
package enum DebuggerOutputReaders {
    package static func readEither(text: String, path: String) -> (lines: [String], reports: [CrashReport]) {
        let document = TextDocument(text: text, hasBOM: false)
        var reports: [CrashReport] = []
        if LLDBReportReader.detect(document) != nil, let read = try? LLDBReportReader.read(document, evidence: (), path: path) {
            reports += read
        }
        if XcodeConsoleReportReader.detect(document) != nil,
            let read = try? XcodeConsoleReportReader.read(document, evidence: (), path: path)
        {
            reports += read
        }
        return (document.lines.map(\.text), reports)
    }
}

/// Python's traceback: `Traceback (most recent call last):`, its `File "…", line N, in f` frames
/// oldest first, then the exception's own line.
enum PythonTraceback {
    static let heading = "Traceback (most recent call last):"

    /// `KeyError: 'key'`, `json.decoder.JSONDecodeError: Expecting value: …`, `KeyboardInterrupt`:
    /// a class name (dotted, ending in Error, Exception, Exit or Interrupt) and its message.
    static func exceptionLine(_ trimmed: String) -> String? {
        let name = trimmed.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }
        guard let last = name.split(separator: ".").last, last.first?.isUppercase == true,
            ["Error", "Exception", "Exit", "Interrupt"].contains(where: { last.hasSuffix($0) })
        else { return nil }
        let rest = trimmed.dropFirst(name.count)
        guard rest.isEmpty || rest.hasBytePrefix(": ") || rest == ":" else { return nil }
        return trimmed
    }
}
