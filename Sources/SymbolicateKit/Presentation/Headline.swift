import Foundation
import SymbolicateCrashReport

/// The one-paragraph answer on top of the output: what crashed, where, and why —
/// "Crashed: Thread 0 (main) in Fuga.init(json:) at Fuga.swift:355 — EXC_BREAKPOINT (SIGTRAP)".
public struct Headline: Sendable, Equatable, Codable {
    /// Printed thread number of the crashed thread.
    public var thread: Int?
    /// `main`, the thread name, or its dispatch queue.
    public var threadLabel: String?
    /// First app frame of the crashed thread (innermost inline level after symbolication).
    public var function: String?
    /// `File.swift:355` (basename, as Apple prints it).
    public var location: String?
    /// The app image holding that frame.
    public var image: String?
    /// `EXC_BREAKPOINT (SIGTRAP)`, plus the termination reason when it says more.
    public var exception: String?
    /// A trap message the compiler put in the inline chain (`Swift runtime failure: …`).
    public var reason: String?

    public init(report: CrashReport) {
        exception = Self.exceptionText(report)
        guard let crashed = report.crashedThread else { return }
        thread = crashed.index
        threadLabel = Self.label(crashed)
        let frames = crashed.frames
        let appFrame = frames.first { report.image(for: $0)?.isAppOwned == true } ?? frames.first
        guard let frame = appFrame else { return }
        image = frame.imageName ?? report.image(for: frame)?.name
        if let levels = frame.symbolication, let innermost = levels.first {
            // Compiler-generated levels (`Swift runtime failure: …` traps) name the reason,
            // not the place: report the first level with a real source line, and keep the
            // trap message as the reason.
            let placed = levels.first { level in
                guard let file = level.file, let line = level.line else { return false }
                return line > 0 && !file.hasSuffix("<compiler-generated>")
            }
            let level = placed ?? innermost
            function = level.function
            if let file = level.file, let line = level.line, line > 0 { location = "\(basename(file)):\(line)" }
            if innermost.function.hasPrefix("Swift runtime failure:") { reason = innermost.function }
        } else if !frame.isUnsymbolicated {
            // Already symbolicated input: the frame may open a printed inline chain (same
            // address, `[inlined]`); pick its first level with a real source line, as above.
            let start = frames.firstIndex(of: frame) ?? 0
            var chain = [frames[start]]
            var next = start
            while frames[next].isInlined, next + 1 < frames.count, frames[next + 1].address == frame.address {
                next += 1
                chain.append(frames[next])
            }
            let placed = chain.first { level in
                guard let file = level.sourceFile, let line = level.sourceLine else { return false }
                return line > 0 && !file.hasSuffix("<compiler-generated>")
            } ?? frame
            function = placed.symbol
            if let file = placed.sourceFile, let line = placed.sourceLine, line > 0 { location = "\(basename(file)):\(line)" }
            if let first = frame.symbol, first.hasPrefix("Swift runtime failure:"), placed != frame { reason = first }
        }
    }

    /// The sentence. Missing parts are left out rather than guessed.
    public var text: String {
        var s = "Crashed:"
        if let thread {
            s += " Thread \(thread)"
            if let threadLabel { s += " (\(threadLabel))" }
        } else {
            s += " no crashed thread named in the report"
        }
        if let function {
            s += " in \(function)"
            if let location { s += " at \(location)" }
            if let image, location == nil { s += " (\(image))" }
            if let reason { s += " (\(reason))" }
        } else if let image {
            s += " in \(image) (not symbolicated)"
        }
        if let exception { s += " — \(exception)" }
        return s
    }

    static func label(_ thread: CrashReport.Thread) -> String? {
        if thread.queue == "com.apple.main-thread" { return "main" }
        if let name = thread.name, !name.isEmpty { return name }
        if let queue = thread.queue, !queue.isEmpty { return queue }
        return thread.index == 0 ? "main" : nil
    }

    static func exceptionText(_ report: CrashReport) -> String? {
        var parts: [String] = []
        if let exception = report.exception, let type = exception.type {
            var s = type
            if let signal = exception.signal, !type.contains(signal) { s += " (\(signal))" }
            parts.append(s)
        }
        if let termination = report.termination, let namespace = termination.namespace, namespace != "SIGNAL" {
            parts.append([namespace, termination.code.map(hexCode)].compactMap { $0 }.joined(separator: " "))
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}

func basename(_ path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
}

/// Termination codes are known by their hex spelling (`0x8badf00d`), but iOS 15+ text reports
/// print them in decimal (`FRONTBOARD 2343432205`): show hex whatever the report used.
func hexCode(_ code: String) -> String {
    let trimmed = code.trimmingCharacters(in: .whitespaces)
    if trimmed.lowercased().hasPrefix("0x") { return trimmed.lowercased() }
    guard let value = UInt64(trimmed) else { return trimmed }
    return "0x" + String(value, radix: 16)
}
