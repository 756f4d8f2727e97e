import Foundation

/// A compiler or another LLVM-based build tool crashed itself while it built the code (clang,
/// swift-frontend, ld): the build's output says so in the toolchain's own words — the driver's
/// `swift frontend command failed due to signal`, `error: compile command failed due to signal 6`,
/// LLVM's `PLEASE submit a bug report … and include the crash backtrace`, its `Stack dump:` with
/// `Program arguments:` and the `N.\tWhile …` lines saying what it was doing. The crash is the
/// tool's, not the program's it was building; the place in the code it was at is where to look.
public struct ToolchainCrashFact: Sendable, Hashable {
    /// The tool, as the text names it (`swift-frontend`, `clang`); nil when it names none.
    public var tool: String?
    /// The line that says the tool crashed, as printed (trimmed).
    public var statement: String
    /// Its 1-based line.
    public var line: Int
    /// The signal the driver or the shell names (`SIGSEGV`), when one does.
    public var signal: String?
    /// What the tool was doing, from LLVM's pretty stack trace (`While type-checking declaration
    /// 0x12a8 (at /Users/me/App/Model.swift:12:8)`), outermost first, without their numbers.
    public var activities: [String]
    /// The source place the innermost activity names (`/Users/me/App/Model.swift:12:8`), else the
    /// file the activities name.
    public var place: String?

    public init(tool: String?, statement: String, line: Int, signal: String?, activities: [String], place: String?) {
        self.tool = tool
        self.statement = statement
        self.line = line
        self.signal = signal
        self.activities = activities
        self.place = place
    }
}

extension ToolchainCrashFact {
    /// The fact a text states, from its first `limit` lines; nil when no line says a tool crashed.
    static func read(_ document: TextDocument, limit: Int) -> ToolchainCrashFact? {
        // Every statement holds one of these (`statesCrash`, LLVM's `Stack dump:`): a text with
        // none is no toolchain's crash, decided by a byte search per line.
        guard
            document.lines.prefix(limit).contains(where: { line in
                line.text.containsBytes("Stack dump") || line.text.containsBytes("command failed due to signal")
                    || line.text.byteRange(of: "submit a bug report", ignoringASCIICase: true) != nil
            })
        else { return nil }
        let lines = document.lines.prefix(limit).map { $0.text.trimmedBlanks }
        var statement: (text: String, line: Int)?
        var tool: String?
        var signal: String?
        var activities: [String] = []
        for (offset, text) in lines.enumerated() {
            if statement == nil || statement?.text == Self.stackDump, let said = Self.statesCrash(text),
                !(statement != nil && text.hasBytePrefix("Stack dump without symbol names"))
            {
                statement = (text, offset + 1)
                tool = said.tool ?? tool
                signal = said.signal ?? signal
            }
            // LLVM's own dump, `Stack dump:` over `0.\tProgram arguments: …`, when no driver's line says more.
            if statement == nil, text == Self.stackDump,
                lines.dropFirst(offset + 1).prefix(3).contains(where: { Self.programArguments($0) != nil })
            {
                statement = (text, offset + 1)
            }
            if signal == nil, text.containsBytes("unable to execute command: ") {
                signal = SignalLine.descriptions.first { text.containsBytes($0.words) }?.signal
            }
            if let arguments = Self.programArguments(text) { tool = tool ?? arguments }
            if let activity = Self.activity(text) { activities.append(activity) }
        }
        guard let statement else { return nil }
        let place = activities.reversed().lazy.compactMap(Self.place(in:)).first
        return ToolchainCrashFact(
            tool: tool, statement: statement.text, line: statement.line, signal: signal, activities: Array(activities.prefix(16)),
            place: place)
    }

    /// The heading of LLVM's pretty stack trace.
    public static let stackDump = "Stack dump:"

    /// The statement is only LLVM's heading of its dump (`Stack dump:`, `Stack dump without symbol
    /// names …`): the activities say more.
    public var statesOnlyTheDump: Bool {
        statement == Self.stackDump || statement.hasBytePrefix("Stack dump without symbol names")
    }

    /// Whether a line says a tool crashed, with the tool and signal it names.
    static func statesCrash(_ text: String) -> (tool: String?, signal: String?)? {
        if let marker = text.byteRange(of: "command failed due to signal") {
            // `clang: error: clang frontend command …`, `<unknown>:0: error: swift frontend command …`.
            let before = text[..<marker.lowerBound]
            var tool: String?
            if let frontend = before.byteRange(of: " frontend ") {
                let name = before[..<frontend.lowerBound].split(separator: " ").last.map(String.init)
                tool = name.map { $0 == "swift" ? "swift-frontend" : $0 }
            }
            let digits = text[marker.upperBound...].drop { $0 == " " }.prefix { $0.isASCII && $0.isNumber }
            return (tool, Int(digits).flatMap(SignalNames.name))
        }
        if text.first == "P" || text.first == "p", let please = text.byteRange(of: "please submit a bug report", ignoringASCIICase: true),
            please.lowerBound == text.startIndex, text.byteRange(of: "crash backtrace", ignoringASCIICase: true) != nil
        {
            return (nil, nil)
        }
        if text.hasBytePrefix("Stack dump without symbol names") { return (nil, nil) }
        return nil
    }

    /// The tool of LLVM's `0.\tProgram arguments: /…/swift-frontend -frontend …` line.
    static func programArguments(_ text: String) -> String? {
        guard let marker = text.byteRange(of: "Program arguments: "),
            text[..<marker.lowerBound].allSatisfy({ $0.isNumber || $0 == "." || $0 == " " || $0 == "\t" })
        else { return nil }
        let program = text[marker.upperBound...].prefix { $0 != " " }
        let name = program.split(separator: "/").last.map(String.init)
        return name.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `3.\tWhile evaluating request TypeCheckSourceFileRequest(…)`: the activity, without its number.
    static func activity(_ text: String) -> String? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 3, text.dropFirst(digits.count).hasBytePrefix(".") else { return nil }
        let rest = text.dropFirst(digits.count + 1).drop { $0 == " " || $0 == "\t" }
        guard rest.hasBytePrefix("While ") || rest.hasBytePrefix("Running pass ") || rest.hasBytePrefix("Contents of ") else { return nil }
        return String(rest.prefix(400))
    }

    /// `(at /path/File.swift:12:8)` in an activity, else a quoted source file (`"/path/File.swift"`).
    static func place(in activity: String) -> String? {
        if let at = activity.byteRange(of: "(at "), let close = activity[at.upperBound...].firstIndex(of: ")") {
            let place = activity[at.upperBound..<close]
            if place.containsBytes("/") || place.containsBytes(".") { return String(place) }
        }
        let quoted = activity.split(separator: "\"", omittingEmptySubsequences: false)
        guard quoted.count >= 3 else { return nil }
        return quoted.dropFirst().first { part in
            guard let dot = part.lastIndex(of: ".") else { return false }
            return ["swift", "m", "mm", "c", "cc", "cpp", "h", "hpp"].contains(String(part[part.index(after: dot)...]))
        }.map(String.init)
    }
}
