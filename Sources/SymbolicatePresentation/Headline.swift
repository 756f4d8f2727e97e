import Foundation
import SymbolicateCrashReport

/// The one-paragraph answer on top of the output: what crashed, where, and why —
/// "Crashed: Thread 0 (main) in Fuga.init(json:) at Fuga.swift:355 — EXC_BREAKPOINT (SIGTRAP)".
package struct Headline: Sendable, Equatable, Codable {
    /// Printed thread number of the crashed thread.
    package var thread: Int?
    /// `main`, the thread name, or its dispatch queue.
    package var threadLabel: String?
    /// The crashed thread's first app frame: the first level of its inline chain that has a
    /// real source line (compiler-generated trap levels name the reason, not the place).
    package var function: String?
    /// Full path and line of that level, as the debug info (or the report) gives them.
    package var sourceFile: String?
    package var sourceLine: Int?
    /// The app image holding that frame, and the frame's offset in it (stable across
    /// launches, so unsymbolicated crashes of one build can still be told apart).
    package var image: String?
    package var imageOffset: UInt64?
    /// `EXC_BREAKPOINT (SIGTRAP)`, plus the termination reason when it says more.
    package var exception: String?
    /// A trap message the compiler put in the inline chain (`Swift runtime failure: …`).
    package var reason: String?
    /// For reports that are not crashes, what they are, in words (`Killed by jetsam: …`,
    /// `Hang: blocked 2.10s — MyApp`); the frame then says where the time went.
    package var summary: String?
    /// What the report is; a MetricKit crash says so in its first word.
    package var kind: ReportKind = .crash
    /// What a cut report lacks (`report ends inside Thread 0; no Binary Images section`).
    package var missing: String?
    /// How the process ended, in the report's words, when the report records no thread at all
    /// (a crash reporter's memory termination): said instead of naming no thread.
    package var ending: String?
    /// Set when no thread is named as crashed and the frame comes from the exception's own
    /// backtrace (Xcode's console: `*** First throw call stack:`). Optional so JSON carries it only when set.
    package var fromExceptionBacktrace: Bool?
    /// Set when the frames were pasted without their thread's title line: which thread they
    /// are is unknown, so no number is named. Optional so JSON carries it only when set.
    package var pastedFrames: Bool?
    /// Set when the text holds no thread at all (a pasted `Fatal error:` line, a console's
    /// exception message): there is no thread to name, and the headline says none rather than
    /// "no crashed thread named". Optional so JSON carries it only when set.
    package var threadless: Bool?

    /// `File.swift:355` (basename, as Apple prints it).
    package var location: String? {
        guard let sourceFile, let sourceLine else { return nil }
        return "\(basename(sourceFile)):\(sourceLine)"
    }

    package init(report: CrashReport) {
        exception = Self.exceptionText(report)
        summary = report.kindSummary
        kind = report.kind
        missing = report.completeness.isComplete ? nil : report.completeness.summary
        if summary == nil, report.threads.isEmpty, let termination = report.termination,
            let text = (termination.text ?? report.reporterTerminationIndicator)?.trimmingCharacters(in: .whitespaces), !text.isEmpty
        {
            ending = [termination.namespace.map { "\($0):" }, text].compactMap { $0 }.joined(separator: " ")
            // The exception alone: the termination is said in full already.
            exception = Self.exceptionText(report, withTermination: false)
            return
        }
        defer { placeFromRuntimeError(report) }
        let crashed: CrashReport.Thread
        if let named = summary == nil ? report.crashedThread : report.focusThread {
            crashed = named
            if report.pastedThread == nil {
                thread = named.index
                threadLabel = Self.label(named)
            } else {
                pastedFrames = true
            }
        } else if summary == nil, let thrown = report.lastExceptionBacktrace?.frames, !thrown.isEmpty {
            // No thread is named (Xcode's console): the exception's own backtrace stands for it.
            fromExceptionBacktrace = true
            crashed = CrashReport.Thread(index: 0, frames: thrown)
        } else {
            if summary == nil, report.threads.isEmpty { threadless = true }
            return
        }
        let frames = crashed.frames
        // Call graphs: the heaviest path, searched from its callee end for an app frame.
        var order = summary == nil ? Array(frames.indices) : report.heaviestPath(of: crashed)
        if frames.first?.callGraph.map({ !($0.depth == 0 && $0.isLeaf) }) == true { order.reverse() }
        // The app's line: the same rule explain uses (`CrashReport.appLine`); the top of the
        // order when no frame is in the app's code.
        guard let (start, line) = report.namedFrame(in: crashed, order: order) else { return }
        let frame = frames[start]
        image = (frame.imageName ?? report.image(for: frame)?.name).map(Self.withoutMainMarker)
        imageOffset = frame.imageOffset ?? report.image(for: frame).map { frame.address &- $0.loadAddress }
        function = line.function
        if let file = line.file, let number = line.line {
            sourceFile = file
            sourceLine = number
        }
        reason = line.runtimeFailure
    }

    /// A Swift runtime error that says where it stopped (`file MyApp/X.swift, line 42`) places the
    /// headline when no frame does.
    private mutating func placeFromRuntimeError(_ report: CrashReport) {
        guard sourceFile == nil, let error = report.facts.swiftRuntimeError, let file = error.file, let line = error.line else { return }
        sourceFile = file
        sourceLine = line
    }

    /// `MobileSMS (*)`: old reports mark the main executable's frames with `(*)`.
    static func withoutMainMarker(_ image: String) -> String {
        image.hasSuffix(" (*)") ? String(image.dropLast(4)) : image
    }

    /// The sentence. Missing parts are left out rather than guessed.
    package var text: String {
        if let summary {
            var s = summary
            if let function {
                s += " — in \(function)"
                if let location { s += " at \(location)" }
                if let image, location == nil { s += " (\(image))" }
            } else if let image {
                s += " — in \(image) (not symbolicated)"
            }
            return s + partialNote
        }
        if let ending {
            var s = "Terminated: \(ending)"
            if let exception { s += " — \(exception)" }
            return s + "; the report records no threads" + partialNote
        }
        var s = kind == .metricKit(.crash) ? "Crashed (MetricKit):" : "Crashed:"
        // `Crashed at File.swift:12 — Fatal error: …`: nothing names a thread, so none is mentioned.
        // With nothing else to name either (a report cut before its threads), it says so.
        let namesNoThread = threadless == true && (function != nil || image != nil || location != nil || exception != nil)
        if namesNoThread { s.removeLast() }
        if let thread {
            s += " Thread \(thread)"
            if let threadLabel { s += " (\(threadLabel))" }
        } else if fromExceptionBacktrace == true {
            s += " exception thrown"
        } else if pastedFrames == true {
            s += " pasted frames"
        } else if !namesNoThread {
            s += " no crashed thread named in the report"
        }
        if let function {
            s += " in \(function)"
            if let location { s += " at \(location)" }
            if let image, location == nil { s += " (\(image))" }
            if let reason { s += " (\(reason))" }
        } else if let image {
            s += " in \(image) (not symbolicated)"
        } else if let location {
            s += " at \(location)"
        }
        if let exception { s += " — \(exception)" }
        return s + partialNote
    }

    private var partialNote: String {
        missing.map { " [partial report: \($0)]" } ?? ""
    }

    static func label(_ thread: CrashReport.Thread) -> String? {
        if thread.runsMainQueue { return "main" }
        if let name = thread.name, !name.isEmpty { return name }
        if let queue = thread.queue, !queue.isEmpty { return queue }
        // Thread 0 is the process's first thread, unless the reader numbered a pasted stack itself.
        return thread.index == 0 && !thread.isNumberedByReader ? "main" : nil
    }

    static func exceptionText(_ report: CrashReport, withTermination: Bool = true) -> String? {
        var parts: [String] = []
        if let exception = report.exception, let type = exception.type {
            var s = type
            // A signal's name is short: a longer "signal" is not searched for (both come from
            // the report, and searching one long text in another is quadratic).
            if let signal = exception.signal, signal.utf8.count > 64 || !type.contains(signal) { s += " (\(signal))" }
            parts.append(s)
        }
        if let uncaught = report.facts.uncaughtException?.exception {
            switch uncaught.language {
            case .objectiveC: parts.append("uncaught " + (uncaught.name ?? "Objective-C exception"))
            case .cxx: parts.append("uncaught C++ exception" + (uncaught.name.map { " " + $0 } ?? ""))
            }
        }
        if let error = report.facts.swiftRuntimeError {
            parts.append(error.message.isEmpty ? error.kind : "\(error.kind): \(error.message)")
        }
        if withTermination, let termination = report.termination, let namespace = termination.namespace, namespace != "SIGNAL" {
            // Codes are known by their hex spelling (`0x8badf00d`), but iOS 15+ text reports print them in
            // decimal (`FRONTBOARD 2343432205`): the reader's number, in hex, whatever the report used.
            let code = report.facts.termination?.code.map { "0x" + String($0, radix: 16) } ?? termination.code
            parts.append([namespace, code].compactMap { $0 }.joined(separator: " "))
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}

func basename(_ path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
}
