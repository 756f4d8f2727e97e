import Foundation
import SymbolicateCore

/// Crash services' issue text as developers paste it, best effort:
///
/// - Firebase Crashlytics (and Fabric before it): an optional `# Key: value` header, `Fatal
///   Exception: NSInvalidArgumentException` with its reason and the exception's frames, threads
///   titled by their queue (`Crashed: com.apple.main-thread`, `#0. Crashed: …`, `com.apple.main-thread`)
///   with an `EXC_BAD_ACCESS KERN_INVALID_ADDRESS 0x0000000000000010` line under the crashed one,
///   frames `0  CoreFoundation  0x1a2b3c __exceptionPreprocess + 164 (File.swift:42)` or
///   `0  CoreFoundation  0xa248 (Missing UUID 1b67e644593a3401b48d084b8d879212)`.
/// - Sentry's stack trace text: `EXC_BAD_ACCESS: <value>` then unnumbered frames
///   `  libobjc.A   0x187152bbc  getMethodNoSuper_nolock` (an `In App` mark is dropped).
///   Sentry's Apple-layout "raw" text is an Apple report and read as one.
/// - HockeyApp's issue summaries (`### Version: 1.5 (830) | com.example.app ###`, `### Reason ###`).
///
/// Facts go into the model's fields (exception, crashed thread and queue, bundle, version), the
/// exception's frames into the Last Exception Backtrace. A frame is placed in its image only when
/// the text gives the image's UUID (Crashlytics' `Missing UUID`): Crashlytics prints the offset into
/// the image, so such frames are symbolicated like any report's. Other frames are kept as printed,
/// and a warning says so.
package enum CrashServiceReportReader: ReportReader {
    package enum Layout: Sendable, Equatable {
        case crashlytics, sentry, hockeyApp
        /// Crashlytics' issue written into a tracker (its GitHub and Jira integrations): the
        /// image on a line, `#### in FUNCTION` under it, then counts (`* Number of crashes: 1`).
        case crashlyticsIssue
    }

    package static func detect(_ document: TextDocument) -> Layout? {
        var crashlytics = false
        var crashedTitle = false
        var frames = 0
        var hockeyVersion = false
        var hockeyReason = false
        var sentryHead: (type: String, value: String)?
        var exceptionLines = 0
        var sawContent = false
        var previousContent: String?
        var crashedIn = false
        for line in document.lines {
            let text = line.text
            if AppleReportLine.starts(text) { return nil }
            let trimmed = text.trimmedBlanks
            guard !trimmed.isEmpty else { continue }
            if !sawContent {
                sawContent = true
                sentryHead = CrashServiceLine.sentryHeadline(trimmed)
            }
            if trimmed.hasBytePrefix("Fatal Exception: ") || trimmed.hasBytePrefix("Non-fatal Exception: ") {
                // Android's (`java.lang.NullPointerException`, `kotlin.…`) are not Apple crashes.
                if !CrashServiceLine.isJVMException(trimmed) { crashlytics = true }
            } else if trimmed.hasBytePrefix("# Crashlytics") {
                crashlytics = true
            } else if CrashServiceLine.threadTitle(trimmed)?.crashed == true {
                crashedTitle = true
            } else if CrashServiceLine.crashedIn(trimmed, under: previousContent) != nil {
                crashedIn = true
            } else if let title = CrashServiceLine.markdownHeading(trimmed), CrashServiceLine.versionHeading(title) != nil {
                hockeyVersion = true
            } else if let title = CrashServiceLine.markdownHeading(trimmed), title.hasBytePrefix("Reason") {
                hockeyReason = true
            } else if CrashServiceLine.frame(text, reportLine: 0) != nil {
                frames += 1
            } else if CrashServiceLine.exceptionLine(trimmed) != nil {
                exceptionLines += 1
            }
            previousContent = trimmed
        }
        if hockeyVersion && hockeyReason { return .hockeyApp }
        if crashedIn, !crashlytics, frames == 0 { return .crashlyticsIssue }
        // A crashed thread's title with its frames or its exception line: read, partial when
        // one is missing.
        if crashlytics || (crashedTitle && frames + exceptionLines > 0) { return .crashlytics }
        // Sentry's type and value: with frames, or alone when the type is a Mach exception or a
        // signal (a generic `…Error: …` line alone could be any log's).
        if let head = sentryHead, frames > 0 || head.type.hasBytePrefix("EXC_") || head.type.hasBytePrefix("SIG") { return .sentry }
        return nil
    }

    package static func read(_ document: TextDocument, evidence: Layout, path: String) throws(CrashReportError) -> [CrashReport] {
        var reader = CrashServiceParser(document: document, path: path)
        switch evidence {
        case .hockeyApp: return [reader.readHockeyApp()]
        case .crashlyticsIssue: return [reader.readCrashlyticsIssue()]
        case .crashlytics, .sentry: return [reader.readStacks(layout: evidence)]
        }
    }
}

/// Single lines of crash services' text.
package enum CrashServiceLine {
    /// `#### in _os_object_release` under `libdispatch.dylib`: the function a tracker issue
    /// names (any heading level), with the image the line above names when it is one word.
    static func crashedIn(_ trimmed: String, under previous: String?) -> (image: String?, function: String)? {
        guard let title = markdownHeading(trimmed), title.hasBytePrefix("in ") else { return nil }
        let function = title.dropFirst(3).trimmedBlanks
        guard !function.isEmpty, PastedFrameGrammar.looksLikeSymbol(function) || !function.containsBytes(" ") else { return nil }
        let image = previous.flatMap { $0.containsBytes(" ") || $0.hasBytePrefix("#") ? nil : $0 }
        return (image, function)
    }

    /// The version a HockeyApp or App Center issue's heading names: `Version: 1.5 (830) |
    /// com.example.app` (HockeyApp), `Version 3.3.4` (App Center, no colon, a number after it).
    static func versionHeading(_ title: Substring) -> Substring? {
        if title.hasBytePrefix("Version: ") { return title.dropFirst(9) }
        guard title.hasBytePrefix("Version "), title.dropFirst(8).first?.isNumber == true else { return nil }
        return title.dropFirst(8)
    }

    /// A Markdown heading's title at any level, closing marks dropped (`### Reason ###`,
    /// `## Version: 2.0.0 (200) | com.example.app`): issue bodies a service writes into a tracker.
    static func markdownHeading(_ trimmed: String) -> Substring? {
        guard trimmed.hasBytePrefix("#") else { return nil }
        let marks = trimmed.prefix { $0 == "#" }
        guard marks.count <= 6, trimmed.dropFirst(marks.count).first == " " else { return nil }
        var title = Substring(trimmed).dropFirst(marks.count).drop { $0 == " " }
        while title.hasSuffix("#") || title.hasSuffix(" ") { title = title.dropLast() }
        return title
    }

    /// A frame line: `0  CoreFoundation  0x1a2b3c __exceptionPreprocess + 164 (File.swift:42)` (Crashlytics)
    /// or `  libobjc.A  0x187152bbc  getMethodNoSuper_nolock` (Sentry, unnumbered); nil otherwise. The
    /// image's UUID, when the line gives one (`(Missing UUID …)`), is the second value.
    package static func frame(_ text: String, reportLine: Int) -> (frame: Frame, uuid: String?, numbered: Bool)? {
        // Sentry's issue text for frames with a source place or none (`  File "X.c", line 395, in f`,
        // `  ?, in f`), indented as its other frames are.
        if text.first == " " || text.first == "\t", let frame = PastedFrameGrammar.pythonStyle(text.trimmedBlanks, reportLine) {
            return (frame, nil, false)
        }
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
        guard words.count >= 2 else { return nil }
        var index: Int?
        if let first = words.first, first.allSatisfy(\.isNumber), first.count <= 6 {
            index = Int(first)
            words = words.dropFirst()
        } else if !(text.first == " " || text.first == "\t") {
            // Unnumbered frames are indented (Sentry); an unindented line is not one.
            return nil
        }
        guard words.count >= 2, let image = words.first, !image.hasBytePrefix("0x"),
            let addressWord = words.dropFirst().first, addressWord.hasBytePrefix("0x"), addressWord.count > 2,
            let address = UInt64(addressWord.dropFirst(2), radix: 16)
        else { return nil }
        var rest = words.dropFirst(2).joined(separator: " ")
        for mark in [" In App", "(In App)", "In App"] where rest.hasSuffix(mark) {
            rest = String(rest.dropLast(mark.count)).trimmingCharacters(in: .whitespaces)
            break
        }
        var frame = Frame(index: index ?? 0, imageName: String(image), address: address, reportLine: reportLine)
        var uuid: String?
        if rest.hasBytePrefix("("), rest.hasSuffix(")") {
            // `(Missing UUID 1b67…)`, `(Missing)`, localised `(Manquant)`: no name.
            let inner = rest.dropFirst().dropLast()
            if let last = inner.split(separator: " ").last, last.count == 32, last.allSatisfy(\.isHexDigit) { uuid = String(last) }
            return (frame, uuid, index != nil)
        }
        if rest.hasSuffix(")"), let open = rest.lastIndex(of: "(") {
            let location = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]
            if let colon = location.lastIndex(of: ":"), let line = Int(location[location.index(after: colon)...]) {
                frame.sourceFile = String(location[..<colon])
                frame.sourceLine = line
                rest = String(rest[..<open]).trimmingCharacters(in: .whitespaces)
            }
        }
        if let plus = rest.range(of: " + ", options: .backwards), let offset = UInt64(rest[plus.upperBound...]) {
            frame.symbolOffset = offset
            rest = String(rest[..<plus.lowerBound])
        }
        frame.symbol = rest.isEmpty ? nil : rest
        return (frame, uuid, index != nil)
    }

    /// A thread's title: `Crashed: com.apple.main-thread`, `#0. Crashed: com.twitter.crashlytics.ios.exception`,
    /// `#1. com.apple.main-thread`. Bare titles (`com.apple.main-thread`) are only known by the
    /// frames after them, so this reads the marked ones.
    package static func threadTitle(_ trimmed: String) -> (name: String, crashed: Bool)? {
        var rest = Substring(trimmed)
        if rest.hasBytePrefix("#"), let dot = rest.firstIndex(of: "."),
            rest[rest.index(after: rest.startIndex)..<dot].allSatisfy(\.isNumber)
        {
            rest = rest[rest.index(after: dot)...].drop { $0 == " " }
        }
        if rest.hasBytePrefix("Crashed: ") {
            return (rest.dropFirst(9).trimmingCharacters(in: .whitespaces), true)
        }
        return nil
    }

    /// `Fatal Exception: java.lang.NullPointerException`: a JVM exception (Android's Crashlytics).
    package static func isJVMException(_ trimmed: String) -> Bool {
        guard let colon = trimmed.byteRange(of: ": ") else { return false }
        let name = trimmed[colon.upperBound...].prefix { !$0.isWhitespace && $0 != ":" }
        return ["java.", "javax.", "kotlin.", "kotlinx.", "android.", "androidx.", "dalvik."].contains { name.hasBytePrefix($0) }
    }

    /// Sentry's first line: `EXC_BAD_ACCESS: <value>`, `SIGABRT: <value>`, `NSInvalidArgumentException: <reason>`.
    package static func sentryHeadline(_ trimmed: String) -> (type: String, value: String)? {
        guard let colon = trimmed.byteRange(of: ": ") else { return nil }
        let type = trimmed[..<colon.lowerBound]
        guard !type.isEmpty, type.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }),
            type.hasBytePrefix("EXC_") || type.hasBytePrefix("SIG") || type.hasSuffix("Exception") || type.hasSuffix("Error")
        else { return nil }
        return (String(type), String(trimmed[colon.upperBound...]).trimmingCharacters(in: .whitespaces))
    }

    /// Crashlytics' exception line under the crashed thread: `EXC_BAD_ACCESS KERN_INVALID_ADDRESS 0x10`,
    /// `EXC_BREAKPOINT 0x000000018341…`, `SIGABRT ABORT 0x…`, read as Apple's fields spell them.
    package static func exceptionLine(_ trimmed: String) -> ExceptionInfo? {
        let words = trimmed.split(separator: " ")
        guard let first = words.first, first.hasBytePrefix("EXC_") || first.hasBytePrefix("SIG"), words.count <= 4,
            first.allSatisfy({ $0.isUppercase || $0 == "_" })
        else { return nil }
        var info = first.hasBytePrefix("EXC_") ? ExceptionInfo(type: String(first)) : ExceptionInfo(signal: String(first))
        let address = words.dropFirst().last { $0.hasBytePrefix("0x") }
        let name = words.dropFirst().first { !$0.hasBytePrefix("0x") }
        if let name, let address {
            info.subtype = "\(name) at \(address)"
        } else if let name {
            info.subtype = String(name)
        } else if let address {
            info.codes = String(address)
        }
        return info
    }
}

/// Reads a crash service's text into the model (see `CrashServiceReportReader`).
struct CrashServiceParser {
    let document: TextDocument
    let path: String

    private enum Target {
        case thread(Int)
        case lastException
    }

    /// Crashlytics' and Sentry's stacks.
    mutating func readStacks(layout: CrashServiceReportReader.Layout) -> CrashReport {
        var report = CrashReport(path: path, format: .text, source: .text(document))
        var exception = ExceptionInfo()
        var target: Target?
        var awaitingReason = false
        var exceptionName: String?
        var reasonLines: [String] = []
        var uuids: [String: String] = [:]
        // Crashlytics' title above the thread (`HomeVC.swift line 302 HomeVC.check()`): the crash's
        // place, the crashed thread's top frame when the text gives no frames of its own.
        var titleFrame: Frame?
        // A reason printed above the exception's name (a crash service's issue title, `*** -[X y]:
        // …`, then `Fatal Exception: NSFileHandleOperationException`): its reason when none follows.
        var reasonAbove: String?
        let lines = document.lines.map(\.text)
        // Crashlytics' issue page copied two cells a frame (`File.m - Line 70` over its symbol, an
        // image over `(Missing)`), with blank lines between frames: one list, the crashed stack.
        var cellsUntil = 0
        var cellTarget: Target?
        for (offset, text) in lines.enumerated() {
            let number = offset + 1
            if number <= cellsUntil { continue }
            var trimmed = text.trimmedBlanks
            // A title in Markdown's bold, over one line or more (`**Fatal Exception: X` … `reason.**`).
            if trimmed.hasBytePrefix("**"), let next = trimmed.dropFirst(2).first, next != "*", next != " " {
                trimmed = String(trimmed.dropFirst(2))
            }
            if trimmed.hasSuffix("**"), !trimmed.hasSuffix("***"), trimmed.count > 2 { trimmed = String(trimmed.dropLast(2)) }
            if !trimmed.isEmpty, var frame = PastedFrameGrammar.placeOverSymbol(document.lines, at: offset) {
                awaitingReason = false
                frame.reportLine = number
                if let cells = cellTarget ?? target {
                    switch cells {
                    case .thread(let i):
                        frame.index = report.threads[i].frames.count
                        report.threads[i].frames.append(frame)
                    case .lastException:
                        frame.index = report.lastExceptionBacktrace?.frames.count ?? 0
                        report.lastExceptionBacktrace?.frames.append(frame)
                    }
                    cellTarget = cells
                } else {
                    var thread = CrashReport.Thread(index: report.threads.count, crashed: report.threads.isEmpty, frames: [frame])
                    thread.isNumberedByReader = true
                    report.threads.append(thread)
                    cellTarget = .thread(report.threads.count - 1)
                }
                cellsUntil = number + 1
                continue
            }
            if titleFrame == nil, report.threads.isEmpty, !trimmed.isEmpty {
                titleFrame = PastedFrameGrammar.fileLineTitle(String(LogPrefix.strip(trimmed)), number)
                if titleFrame != nil { continue }
            }
            if trimmed.isEmpty {
                // A thread's title (and its exception line) with a blank line before its frames:
                // the frames are still that thread's.
                if case .thread(let i)? = target, report.threads[i].frames.isEmpty { continue }
                target = nil
                awaitingReason = false
                continue
            }
            if offset == 0 || (report.threads.isEmpty && report.lastExceptionBacktrace == nil && exceptionName == nil),
                layout == .sentry, let head = CrashServiceLine.sentryHeadline(trimmed)
            {
                applySentryHeadline(head, to: &exception, name: &exceptionName, reason: &reasonLines)
                awaitingReason = true
                continue
            }
            if trimmed.hasBytePrefix("# "), let (key, value) = Self.headerField(trimmed) {
                report.headerFields.append(HeaderField(key: key, value: value))
                applyHeader(key: key, value: value, to: &report)
                continue
            }
            if exceptionName == nil, reasonAbove == nil, report.threads.isEmpty, !trimmed.hasBytePrefix("Fatal Exception: "),
                let stated = CrashMessageGrammar.match(String(trimmed)), stated.family == .objcException,
                ExceptionNameLine.parse(stated.text) == nil, !stated.text.containsBytes(ConsoleLine.objcOpening)
            {
                reasonAbove = stated.text.trimmedBlanks
            }
            for prefix in ["Fatal Exception: ", "Non-fatal Exception: "] where trimmed.hasBytePrefix(prefix) {
                exceptionName = String(trimmed.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
                if prefix.hasBytePrefix("Non") { exception.nonFatalNote = "Non-fatal Exception (this is NOT a crash)" }
                awaitingReason = true
                target = nil
            }
            if awaitingReason, trimmed.hasBytePrefix("Fatal Exception: ") || trimmed.hasBytePrefix("Non-fatal Exception: ") { continue }
            if let parsed = CrashServiceLine.frame(text, reportLine: number) {
                var frame = parsed.frame
                let uuid = parsed.uuid
                let numbered = parsed.numbered
                awaitingReason = false
                // Unnumbered frames (Sentry) are numbered by their place.
                if !numbered {
                    switch target {
                    case .thread(let i): frame.index = report.threads[i].frames.count
                    case .lastException: frame.index = report.lastExceptionBacktrace?.frames.count ?? 0
                    case nil: frame.index = 0
                    }
                }
                if let uuid, let image = frame.imageName { uuids[image] = uuid }
                switch target {
                case .thread(let i): report.threads[i].frames.append(frame)
                case .lastException: report.lastExceptionBacktrace?.frames.append(frame)
                case nil:
                    if exceptionName != nil, report.lastExceptionBacktrace == nil, layout == .crashlytics, report.threads.isEmpty {
                        report.lastExceptionBacktrace = Backtrace(title: "Last Exception Backtrace", frames: [frame])
                        target = .lastException
                    } else {
                        var thread = CrashReport.Thread(index: report.threads.count, crashed: report.threads.isEmpty, frames: [frame])
                        thread.isNumberedByReader = true
                        report.threads.append(thread)
                        target = .thread(report.threads.count - 1)
                    }
                }
                continue
            }
            if let title = CrashServiceLine.threadTitle(trimmed) {
                startThread(title.name, crashed: title.crashed, in: &report, target: &target)
                awaitingReason = false
                continue
            }
            if case .thread(let i)? = target, report.threads[i].frames.isEmpty, let info = CrashServiceLine.exceptionLine(trimmed) {
                exception.type = info.type ?? exception.type
                exception.signal = info.signal ?? exception.signal
                exception.subtype = info.subtype ?? exception.subtype
                exception.codes = info.codes ?? exception.codes
                continue
            }
            if awaitingReason {
                reasonLines.append(trimmed)
                continue
            }
            // A bare title: a line the next line's frame starts a thread under.
            if offset + 1 < lines.count,
                CrashServiceLine.frame(lines[offset + 1], reportLine: 0) != nil
                    || (offset + 2 < lines.count && CrashServiceLine.exceptionLine(lines[offset + 1].trimmedBlanks) != nil)
            {
                startThread(trimmed, crashed: false, in: &report, target: &target)
            }
        }
        if let titleFrame, let crashed = report.threads.firstIndex(where: \.crashed), report.threads[crashed].frames.isEmpty {
            report.threads[crashed].frames = [titleFrame]
        }
        if reasonLines.isEmpty, exceptionName != nil, let reasonAbove { reasonLines = [reasonAbove] }
        finishException(&report, exception: exception, name: exceptionName, reason: reasonLines)
        placeFrames(&report, uuids: uuids)
        markCompleteness(&report)
        return report.withDetectedKind()
    }

    /// HockeyApp's issue summary: version, bundle and reason; its stack is a list of
    /// `class;method;file;line` entries without addresses, kept as text.
    mutating func readHockeyApp() -> CrashReport {
        var report = CrashReport(path: path, format: .text, source: .text(document))
        var section = ""
        var reason: [String] = []
        for (offset, line) in document.lines.enumerated() {
            let trimmed = line.text.trimmedBlanks
            if let title = CrashServiceLine.markdownHeading(trimmed) {
                if let version = CrashServiceLine.versionHeading(title) {
                    let parts = version.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                    report.appVersion = parts.first
                    if parts.count > 1 { report.bundleIdentifier = parts[1] }
                    report.headerFields.append(HeaderField(key: "Version", value: String(version)))
                    section = ""
                } else {
                    section = String(title)
                }
                continue
            }
            if section == "Reason", !trimmed.isEmpty { reason.append(trimmed) }
            // The stack's `class;method;file;line` entries (App Center's `symbol (file:line);image`,
            // its .NET frames `Type.Method() in /path/File.cs:line 88;Assembly`, any other frame
            // syntax a service's SDK printed): the crashed thread's frames, without addresses.
            if section.hasBytePrefix("Stacktrace"),
                var frame = PastedFrameGrammar.hockeyAppColumns(trimmed, offset + 1) ?? PastedFrameGrammar.hockeyApp(trimmed, offset + 1)
                    ?? PastedFrameGrammar.parseNumbered(trimmed, reportLine: offset + 1)?.frame
            {
                if report.threads.isEmpty {
                    var thread = CrashReport.Thread(index: 0, crashed: true, frames: [])
                    thread.isNumberedByReader = true
                    report.threads.append(thread)
                }
                frame.index = report.threads[0].frames.count
                report.threads[0].frames.append(frame)
            }
        }
        let text = reason.joined(separator: " ")
        // HockeyApp writes "No reason found." when its grouping found no exception or signal.
        if !text.isEmpty, !text.hasBytePrefix("No reason found") {
            var exception = ExceptionInfo(message: text)
            let first = text.split(separator: " ").first.map(String.init) ?? ""
            if first.hasBytePrefix("EXC_") { exception.type = first }
            if first.hasBytePrefix("SIG") { exception.signal = first }
            // The reason's first line names an uncaught exception as libobjc prints it, or as
            // HockeyApp groups it (`NSInternalInconsistencyException, reason: …`); what follows
            // it is the exception's own trace (a JavaScript stack under React Native's).
            let head = reason[0]
            if let console = ConsoleLine.objcException(head) {
                exception.uncaught = UncaughtException(language: .objectiveC, name: console.name, reason: console.reason)
            } else if let named = ExceptionNameLine.parse(Substring(head)) {
                exception.uncaught = UncaughtException(language: .objectiveC, name: named.name, reason: named.reason)
            }
            report.exception = exception
        }
        report.completeness = .partial(report.threads.isEmpty ? [.noThreads, .noBinaryImages] : [.noBinaryImages])
        report.warnings.append(
            ParseWarning(
                path: path,
                message:
                    "read as a HockeyApp or App Center issue summary: it names the app and the reason but has no backtrace with addresses; the full report is on the service",
                kind: .partialReport))
        return report.withDetectedKind()
    }

    // MARK: - Pieces

    /// `# Application: com.example.app` → (`Application`, `com.example.app`).
    private static func headerField(_ trimmed: String) -> (String, String)? {
        let body = trimmed.dropFirst(2)
        guard let colon = body.byteRange(of: ": ") else { return nil }
        let key = body[..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
        let value = body[colon.upperBound...].trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty, key.count <= 40 else { return nil }
        return (key, value)
    }

    private func applyHeader(key: String, value: String, to report: inout CrashReport) {
        switch key {
        case "Application", "Bundle Identifier": if value.containsBytes(".") { report.bundleIdentifier = value }
        case "Version": report.appVersion = value
        case "OS Version": report.osVersion = value
        case "Device": report.hardwareModel = value
        case "Date": report.dateTime = value
        case "Platform": break
        default: break
        }
    }

    private func startThread(_ title: String, crashed: Bool, in report: inout CrashReport, target: inout Target?) {
        // Crashlytics repeats the crashed thread's title after its exception line: one thread.
        if let last = report.threads.indices.last, report.threads[last].frames.isEmpty,
            report.threads[last].queue == title || report.threads[last].name == title
        {
            target = .thread(last)
            return
        }
        let isQueue = title.containsBytes(".") && !title.containsBytes(" ")
        var thread = CrashReport.Thread(
            index: report.threads.count, name: isQueue ? nil : title, queue: isQueue ? title : nil, crashed: crashed)
        // The service lists the crashed thread first and numbers none: the process's own
        // numbers are unknown.
        thread.isNumberedByReader = true
        report.threads.append(thread)
        if crashed { report.crashedThreadIndex = thread.index }
        target = .thread(report.threads.count - 1)
    }

    private func applySentryHeadline(
        _ head: (type: String, value: String), to exception: inout ExceptionInfo, name: inout String?, reason: inout [String]
    ) {
        if head.type.hasBytePrefix("EXC_") {
            exception.type = head.type
        } else if head.type.hasBytePrefix("SIG") {
            exception.signal = head.type
        } else {
            name = head.type
        }
        if !head.value.isEmpty { reason.append(head.value) }
    }

    /// The exception as Apple's report would state it: an uncaught Objective-C exception is
    /// `EXC_CRASH (SIGABRT)`; its name and reason are the typed `ExceptionInfo.uncaught`.
    private func finishException(_ report: inout CrashReport, exception: ExceptionInfo, name: String?, reason: [String]) {
        var exception = exception
        let reasonText = reason.joined(separator: "\n")
        if let name {
            if exception.type == nil, exception.signal == nil, exception.nonFatalNote == nil {
                exception.type = "EXC_CRASH"
                exception.signal = "SIGABRT"
            }
            exception.uncaught = UncaughtException(language: .objectiveC, name: name, reason: reasonText.isEmpty ? nil : reasonText)
        } else if !reasonText.isEmpty {
            // Sentry's value after the type: `KERN_INVALID_ADDRESS at 0x8` is the subtype Apple prints.
            let value = reasonText.replacingOccurrences(of: "\n", with: " ")
            if exception.subtype == nil, let at = value.byteRange(of: "KERN_") ?? value.byteRange(of: "EXC_ARM_") {
                var subtype = String(value[at.lowerBound...])
                while subtype.hasSuffix(".") { subtype.removeLast() }
                exception.subtype = subtype
            }
            exception.message = value
        }
        if exception != ExceptionInfo() { report.exception = exception }
        if report.crashedThreadIndex == nil, let first = report.threads.first(where: \.crashed) { report.crashedThreadIndex = first.index }
    }

    /// Frames of images the text gives a UUID for are placed in them (Crashlytics prints the
    /// offset into the image); images are the app's unless Apple's by name.
    private func placeFrames(_ report: inout CrashReport, uuids: [String: String]) {
        var positions: [String: Int] = [:]
        for (name, uuid) in uuids.sorted(by: { $0.key < $1.key }) {
            guard let id = DebugID(uuid: uuid) else { continue }
            positions[name] = report.binaryImages.count
            report.binaryImages.append(
                BinaryImage(
                    loadAddress: 0, name: name, debugID: id,
                    isAppOwned: !AppOwnership.isSystemImage(named: name, loadAddress: 0)))
        }
        var unplaced = 0
        var unplacedImages: [String] = []
        report.updateFrames { (frame: inout Frame) in
            if let name = frame.imageName, let position = positions[name] {
                frame.imageIndex = position
                frame.imageOffset = frame.address
            } else {
                unplaced += 1
                if let name = frame.imageName, !unplacedImages.contains(name) { unplacedImages.append(name) }
            }
        }
        report.markAppCodeWithoutImage()
        guard unplaced > 0 else { return }
        let names = unplacedImages.prefix(4).joined(separator: ", ") + (unplacedImages.count > 4 ? ", …" : "")
        report.warnings.append(
            ParseWarning(
                path: path,
                message:
                    "\(unplaced) frame\(unplaced == 1 ? "" : "s") kept as printed (\(names)): the text gives no UUID or load address for their images, so they cannot be matched with debug files"
            ))
    }

    /// Crashlytics' tracker issue: the crashed function and its image as one frame of the
    /// crashed thread; the counts are the service's, not the crash's.
    mutating func readCrashlyticsIssue() -> CrashReport {
        var report = CrashReport(path: path, format: .text, source: .text(document))
        var previous: String?
        for (offset, line) in document.lines.enumerated() {
            let trimmed = line.text.trimmedBlanks
            guard !trimmed.isEmpty else { continue }
            if let found = CrashServiceLine.crashedIn(trimmed, under: previous), report.threads.isEmpty {
                var frame = Frame(index: 0, address: 0, reportLine: offset + 1)
                frame.hasAddress = false
                frame.imageName = found.image
                TextReportParser.parseFrameRest(found.function, into: &frame)
                var thread = CrashReport.Thread(index: 0, crashed: true, frames: [frame])
                thread.isNumberedByReader = true
                report.threads.append(thread)
                report.crashedThreadIndex = 0
            }
            previous = trimmed
        }
        markCompleteness(&report)
        return report.withDetectedKind()
    }

    private func markCompleteness(_ report: inout CrashReport) {
        var missing: [MissingPart] = []
        if report.exception == nil { missing.append(.noExceptionInformation) }
        if report.threads.isEmpty { missing.append(.noThreads) }
        if report.binaryImages.isEmpty { missing.append(.noBinaryImages) }
        guard !missing.isEmpty else { return }
        report.completeness = .partial(missing)
        report.warnings.append(
            ParseWarning(
                path: path,
                message: "read as a crash service's issue text; partial: " + missing.map(\.description).joined(separator: "; "),
                kind: .partialReport))
    }
}
