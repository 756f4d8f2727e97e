import Foundation
import SymbolicateCore
import SymbolicateThrowSites

/// The shapes of crash text that is not a report file — console output, app logs, shells, crash
/// services' pages — as data: the prefixes loggers put before a line (`LogPrefix`), the messages
/// runtimes and libraries print when they stop a process (`CrashMessageGrammar`), Xcode's
/// annotation of the stopped thread (`ThreadAnnotation`) and the frame lines people paste
/// (`PastedFrameGrammar`). The console reader (`DebuggerOutputParser`) reads every line through
/// them; `FactReading` reads Application Specific Information through the message grammar, so a
/// message means the same wherever it stands.
///
/// Every matcher is a forward scan over short literals and character classes (no backtracking
/// pattern), so a line costs time linear in its length for each shape.
enum LogPrefix {
    /// One prefix shape: where the text after it starts (blanks after it skipped), or nil.
    typealias Shape = @Sendable (Substring) -> Substring.Index?

    /// The shapes, tried at the start of a line, again and again while one matches (a syslog
    /// line carries a date, a host, a process tag and a level, one after another).
    static let shapes: [Shape] = [
        composeService, isoTimestamp, slashedTimestamp, launchdJob, syslogTimestamp, timeOfDay, logcatThreadtime, logcatStudioProcess,
        logcatBrief,
        logcatColumns,
        glogHeader, sourcePlaceTag, processIDFence, processTag,
        bracketed,
        angleLevel, levelWord,
        shellName, quoteMarker, listMarker, openingQuote, emphasizedLabel, emphasis, symbolRun, frameworkLevel, labelledIntro, trackerKey,
        exceptionLeadIn,
        // Last: `isStreamLabelOnly` asks whether the shapes before it explain a label.
        streamLabel,
    ]

    /// A sentence that leads to an exception's name (`Application threw exception NSGenericException: …`,
    /// `the app crashed with an uncaught exception NSRangeException, reason: …`): the words up to
    /// the name, when the word before it is `exception` and the name is one (an identifier that
    /// starts with a capital and ends in `Exception`).
    static let exceptionLeadIn: Shape = { text in
        guard let found = text.prefix(160).byteRange(of: "exception ", ignoringASCIICase: true) else { return nil }
        let name = text[found.upperBound...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        guard name.count > 9, name.hasSuffix("Exception"), name.first?.isUppercase == true else { return nil }
        return found.upperBound
    }

    /// Docker Compose's column for the service that printed the line (`neo-scan                | `,
    /// `web-1  | `, `api_1  | `): the service's name, blanks to align the bar, the bar.
    static let composeService: Shape = { text in
        let name = text.utf8.prefix {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E
        }
        guard !name.isEmpty, name.count <= 64 else { return nil }
        let after = text.utf8[name.endIndex...]
        let blanks = after.prefix { $0 == 0x20 }
        guard !blanks.isEmpty, after[blanks.endIndex...].first == UInt8(ascii: "|") else { return nil }
        let bar = after.index(after: blanks.endIndex)
        guard bar == text.utf8.endIndex || text.utf8[bar] == 0x20 else { return nil }
        return bar
    }

    /// The process id between doubled marks that the sanitizers and Valgrind put before each line
    /// of their reports (`==82062==`, Valgrind's `--82062--` and `**82062**`).
    static let processIDFence: Shape = { text in
        let bytes = text.utf8
        guard let mark = bytes.first, mark == UInt8(ascii: "=") || mark == UInt8(ascii: "-") || mark == UInt8(ascii: "*"),
            bytes.dropFirst().first == mark
        else { return nil }
        let digits = bytes.dropFirst(2).prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard !digits.isEmpty, digits.count <= 8 else { return nil }
        let after = bytes.dropFirst(2 + digits.count)
        guard after.first == mark, after.dropFirst().first == mark else { return nil }
        return after.dropFirst(2).startIndex
    }

    /// `IOS-2829: ` (an issue tracker's key, as a crash service files its issues): capitals and
    /// digits, a dash, the number, a colon.
    static let trackerKey: Shape = { text in
        var scan = PrefixScan(text)
        guard scan.letters(2...12), scan.literal("-"), scan.digits(1...8), scan.literal(":") else { return nil }
        guard text[text.startIndex..<scan.position].allSatisfy({ !$0.isLetter || $0.isUppercase }) else { return nil }
        return scan.position
    }

    /// The line and each shorter form of it, one prefix less each time (at most `limit`): a
    /// message is looked for in each, so a prefix that also looks like a message's start
    /// (`[X y:]: unrecognized selector…`) is tried as is first.
    static func stages(of line: String, limit: Int = 8) -> [Substring] {
        var current = Substring(line.trimmedBlanks)
        var stages = [current]
        while stages.count <= limit, !current.isEmpty {
            guard let next = shapes.lazy.compactMap({ $0(current) }).first, next > current.startIndex else { break }
            current = current[next...].drop { $0 == " " || $0 == "\t" }
            stages.append(current)
        }
        return stages
    }

    /// The line without any prefix.
    static func strip(_ line: String) -> Substring { stages(of: line).last ?? Substring(line) }

    // MARK: - Shapes

    /// The Console's and US locales' dates: `11/14/11 9:17:47.396 AM`, `2016/07/27 17:39:40`: the
    /// date with slashes, then the clock, then its half of the day when it has one.
    static let slashedTimestamp: Shape = { text in
        var scan = PrefixScan(text)
        guard scan.digits(1...4), scan.literal("/"), scan.digits(1...2), scan.literal("/"), scan.digits(2...4), scan.blanks(), scan.clock()
        else { return nil }
        var half = scan
        if half.blanks(), half.literal("AM") || half.literal("PM") { scan = half }
        return scan.endOfWord()
    }

    /// The system log's sender before macOS 10.12, a launchd job and its label:
    /// `[0x0-0x49049].org.sparkleshare.sparkleshare: `, `[0x0-0x1d01d].com.apple.Safari[123]: `.
    static let launchdJob: Shape = { text in
        guard text.hasBytePrefix("[0x") else { return nil }
        var scan = PrefixScan(text)
        guard let close = scan.upTo(UInt8(ascii: "]"), within: 40) else { return nil }
        let rest = text[text.index(after: close)...]
        guard let colon = rest.prefix(160).byteRange(of: ": "), !rest[..<colon.lowerBound].contains(" ") else { return nil }
        return colon.upperBound
    }

    /// `2024-05-01 10:00:00.123456+0900`, `2024-05-01T10:00:00Z`, `2015-10-14 16:16:51.510`.
    static let isoTimestamp: Shape = { text in
        var scan = PrefixScan(text)
        guard scan.digits(4...4), scan.literal("-"), scan.digits(2...2), scan.literal("-"), scan.digits(2...2) else { return nil }
        guard scan.oneOf(" T") != nil, scan.clock() else { return nil }
        scan.zone()
        return scan.endOfWord()
    }

    /// glog's and Abseil's header (`W1004 17:24:30.598220 1878994944 tflite_calculator.cc:539] `),
    /// TensorFlow's after its timestamp (`: F tensorflow/core/platform/cpu_feature_guard.cc:37] `).
    static let glogHeader: Shape = { text in GlogLine.header(text)?.end }

    /// A logger's source place closed by a bracket, with no level or time before it (Android ART's
    /// `java_vm_ext.cc:577] `, `runtime.cc:655] ` after logcat's tag; Chromium's and glog's kin).
    static let sourcePlaceTag: Shape = { text in
        guard let close = text.prefix(80).byteRange(of: "] ") else { return nil }
        let place = text[..<close.lowerBound]
        guard let colon = place.lastIndex(of: ":"), !place.containsBytes(" ") else { return nil }
        let digits = place[place.index(after: colon)...]
        guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            PastedFrameGrammar.isSourceFile(String(place[..<colon]))
        else { return nil }
        return close.upperBound
    }

    /// `Aug 15 06:13:40 host` (syslog): month, day, time, then the host name.
    static let syslogTimestamp: Shape = { text in
        var scan = PrefixScan(text)
        guard scan.letters(3...3), scan.blanks(), scan.digits(1...2), scan.blanks(), scan.clock() else { return nil }
        guard let end = scan.endOfWord() else { return nil }
        var host = PrefixScan(text[end...])
        host.blanks()
        // The host name, when a process tag follows it.
        let afterHost = host.word()
        let process = text[afterHost...].drop { $0 == " " }
        if let tag = processTag(process) { return tag }
        // A process whose name has blanks in it (an app's display name, `dont link(Mono)[2718]
        // <Notice>:`): up to the first `[pid]` on the line, when no colon comes before it.
        if let open = process.prefix(80).firstIndex(of: "["), open > process.startIndex,
            !process[..<open].containsBytes(":"), !process[..<open].containsBytes("]"),
            let close = process[open...].firstIndex(of: "]")
        {
            let pid = process[process.index(after: open)..<close]
            let after = process[process.index(after: close)...]
            if !pid.isEmpty, pid.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ":") }),
                after.isEmpty || after.first == " " || after.first == ":"
            {
                return after.first == ":" ? after.index(after: after.startIndex) : after.startIndex
            }
        }
        return end
    }

    /// `10:00:00.123`, `[10:00:00]` is `bracketed`.
    static let timeOfDay: Shape = { text in
        var scan = PrefixScan(text)
        guard scan.clock(), scan.position != text.startIndex else { return nil }
        scan.zone()
        // The Arduino IDE's serial monitor puts an arrow after its time (`00:00:26.481 -> `).
        var arrow = scan
        if arrow.blanks(), arrow.literal("->"), arrow.blanks() { return arrow.position }
        return scan.endOfWord()
    }

    /// Android's `logcat -v threadtime`: `05-01 10:00:00.123  1234  5678 F libc    : `.
    static let logcatThreadtime: Shape = { text in
        var scan = PrefixScan(text)
        guard scan.digits(2...2), scan.literal("-"), scan.digits(2...2), scan.blanks(), scan.clock() else { return nil }
        let afterTime = scan.position
        guard scan.blanks(), scan.digits(1...7), scan.blanks(), scan.digits(1...7), scan.blanks(), scan.oneOf("VDIWEFA") != nil,
            scan.blanks(), let colon = scan.upTo(UInt8(ascii: ":"), within: 64)
        else { return afterTime }
        return text.index(after: colon)
    }

    /// Android Studio's Logcat window after its time: the process and thread ids and the package
    /// (`1450-1492/? `, `16599-16599/com.example.app `).
    static let logcatStudioProcess: Shape = { text in
        var scan = PrefixScan(text)
        guard scan.digits(1...7), scan.literal("-"), scan.digits(1...7), scan.literal("/") else { return nil }
        let package = scan.position
        let end = scan.word()
        guard end > package, scan.blanks() else { return nil }
        return scan.position
    }

    /// Android Studio's Logcat window since 2022 (after its time): the process and thread ids,
    /// the tag, the package, then the level alone as a column, two blanks after it
    /// (`16599-16599 AndroidRuntime  com.example.app  E  FATAL EXCEPTION: main`); its compact
    /// view keeps the tag and the level (`AndroidRuntime  D  Shutting down VM`), and a line
    /// that goes on the entry above keeps only the level (`E  Process: com.example.app, PID: 1`).
    static let logcatColumns: Shape = { text in
        var scan = PrefixScan(text)
        var ids = scan
        if ids.digits(1...7), ids.literal("-"), ids.digits(1...7), ids.blanks() { scan = ids }
        // At most the tag and the package before the level.
        for _ in 0...2 {
            var level = scan
            if level.oneOf("VDIWEFA") != nil {
                let after = level.position
                // (Not HotSpot's frame kind before its library, `V  [libjvm.dylib+0x2ea2b7]  f`.)
                if level.blanks(), text.utf8.distance(from: after, to: level.position) >= 2, !level.atEnd,
                    !text[level.position...].hasBytePrefix("[")
                {
                    return level.position
                }
            }
            let start = scan.position
            let end = scan.word()
            guard end > start, text.utf8.distance(from: start, to: end) <= 100, scan.blanks() else { return nil }
        }
        return nil
    }

    /// Android's `logcat -v brief`: `E/flutter (12345): `, `F/libc    ( 1234): `.
    static let logcatBrief: Shape = { text in
        var scan = PrefixScan(text)
        guard scan.oneOf("VDIWEFA") != nil, scan.literal("/") else { return nil }
        // Android Studio's Logcat window drops the process id: `E/ActivityManager: `.
        var tag = scan
        if let colon = tag.upTo(UInt8(ascii: ":"), within: 64), !text[scan.position..<colon].isEmpty,
            !text[scan.position..<colon].contains(where: { $0 == " " || $0 == "(" }), text[text.index(after: colon)...].first == " "
        {
            return text.index(after: colon)
        }
        guard let close = scan.upTo(UInt8(ascii: ")"), within: 64) else { return nil }
        var after = PrefixScan(text[text.index(after: close)...])
        guard after.literal(":") else { return nil }
        return after.position
    }

    /// `MyApp[1234:56789]`, `ReportCrash[6470]`, `qucsator(16385,0x7fffa694b3c0)`, with an
    /// optional `:` after it: the process and thread a console line came from.
    static let processTag: Shape = { text in
        var scan = PrefixScan(text)
        let nameEnd = scan.word()
        guard nameEnd > text.startIndex else { return nil }
        let word = text[..<nameEnd]
        var inner: Substring
        if word.hasSuffix("]"), let open = word.lastIndex(of: "[") {
            inner = word[word.index(after: open)..<word.index(before: word.endIndex)]
            guard open > word.startIndex, !inner.isEmpty, inner.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ":") }) else { return nil }
        } else if word.hasSuffix(")"), let open = word.lastIndex(of: "(") {
            inner = word[word.index(after: open)..<word.index(before: word.endIndex)]
            let parts = inner.split(separator: ",")
            guard open > word.startIndex, parts.count == 2, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), parts[1].hasBytePrefix("0x")
            else { return nil }
        } else if word.hasSuffix("]:") || word.hasSuffix("):") {
            return processTag(word.dropLast()).map { _ in nameEnd }
        } else {
            return spacedProcessTag(text)
        }
        return nameEnd
    }

    /// A process tag whose name has blanks, as macOS's system log prints an app's
    /// (`Hello IT[5970]: `, `Google Chrome Helper[812:9150]: `): up to four words that start with
    /// a letter, then the process id in brackets and a colon.
    static func spacedProcessTag(_ text: Substring) -> Substring.Index? {
        // (The bracket is looked for by byte first: most lines have none near their start.)
        guard let bracket = text.utf8.prefix(320).firstIndex(of: UInt8(ascii: "[")), bracket > text.startIndex else { return nil }
        let head = text.prefix(80)
        guard let open = head.firstIndex(of: "["), open > head.startIndex else { return nil }
        let name = head[..<open]
        let words = name.split(separator: " ", omittingEmptySubsequences: false)
        guard (2...4).contains(words.count), words.allSatisfy({ $0.first?.isLetter == true && !$0.contains(":") }) else { return nil }
        guard let close = head[open...].firstIndex(of: "]") else { return nil }
        let inner = head[head.index(after: open)..<close]
        guard !inner.isEmpty, inner.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ":") }) else { return nil }
        let after = head.index(after: close)
        guard after < head.endIndex, head[after] == ":" else { return nil }
        return head.index(after: after)
    }

    /// Where a runtime's process tag (`objc[71133]:`, `dyld[512]:`, `MyApp[1234:5678]:`) begins
    /// inside a line, after a blank, at most three: a line another process's output interrupted.
    static func interleavedStarts(in line: String) -> [String.Index] {
        var starts: [String.Index] = []
        var search = line.startIndex
        while starts.count < 3, let open = line[search...].firstIndex(of: "[") {
            search = line.index(after: open)
            // The tag's name: the word before `[`, after a blank that is not the line's start.
            var start = open
            while start > line.startIndex {
                let before = line[line.index(before: start)]
                guard before.isASCII, before.isLetter || before.isNumber || "_.-+".contains(before) else { break }
                start = line.index(before: start)
            }
            guard start > line.startIndex, start < open, line[line.index(before: start)] == " " else { continue }
            let rest = line[start...]
            // A runtime's tag, `name[pid]:` (a word with a number in brackets in a sentence is none).
            guard processTag(rest) != nil, let close = rest.firstIndex(of: "]"), rest[close...].dropFirst().first == ":" else { continue }
            starts.append(start)
        }
        return starts
    }

    /// `[tag]`, `[2024-05-01 10:00:00]`, `[ERROR]`: a bracketed word or phrase (no `]` inside,
    /// at most 80 characters), with an optional `:` after it.
    static let bracketed: Shape = { text in
        guard text.hasBytePrefix("[") else { return nil }
        var scan = PrefixScan(text)
        guard let close = scan.upTo(UInt8(ascii: "]"), within: 80) else { return nil }
        let rest = text[text.index(after: close)...]
        // Tags one after another (`[iina][e] …`): each is a prefix.
        if rest.hasBytePrefix("[") { return rest.startIndex }
        // A number or a time right before a logger's category, with no blank between (Unreal
        // Engine's `[2023.05.23-09.09.10:171][  0]LogWindows: Error: …`, the frame counter last).
        let inside = text[text.index(after: text.startIndex)..<close]
        if !inside.isEmpty, inside.allSatisfy({ ($0.isASCII && $0.isNumber) || " .:-".contains($0) }), rest.first?.isLetter == true {
            return rest.startIndex
        }
        var after = PrefixScan(rest)
        after.literal(":")
        guard after.atEnd || after.blanks() else { return nil }
        // `[ERROR] :  message` (Titanium's logger): the tag's colon a blank after it.
        var spaced = after
        if spaced.literal(":"), spaced.atEnd || spaced.blanks() { return spaced.position }
        return after.position
    }

    /// `<Error>:`, `<Notice>`: syslog's level.
    static let angleLevel: Shape = { text in
        guard text.hasBytePrefix("<") else { return nil }
        var scan = PrefixScan(text)
        scan.literal("<")
        guard scan.letters(3...12), scan.literal(">") else { return nil }
        scan.literal(":")
        return scan.position
    }

    /// `ERROR:`, `E |`, `Error:`: a log level word and its separator. `Fatal` is never one
    /// (`Fatal error:` is the Swift runtime's message).
    static let levelWord: Shape = { text in
        let words = [
            "FATAL", "ERROR", "Error", "ERR", "WARNING", "Warning", "WARN", "INFO", "Info", "DEBUG", "Debug", "TRACE", "CRITICAL",
            "VERBOSE", "NOTICE", "DEFAULT", "FAULT",
        ]
        // Every level word starts with a capital: other lines are left at once.
        guard let first = text.utf8.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { return nil }
        for word in words where text.hasBytePrefix(word) {
            var scan = PrefixScan(text[text.index(text.startIndex, offsetBy: word.count)...])
            if scan.literal(":") || scan.literal(" |") || scan.literal("|") { return scan.position }
            // React Native's console (LogBox, Metro) sets the level off by two blanks: ` ERROR  Invariant
            // Violation: …`, ` WARN  …`.
            if scan.literal("  ") {
                _ = scan.blanks()
                return scan.position
            }
        }
        return nil
    }

    /// A framework's own log tag and level (`CoreData: error: `, `CoreData: warning: `, `UIKit:
    /// fault: `): one capitalised word naming the framework, then a log level.
    static let frameworkLevel: Shape = { text in
        var scan = PrefixScan(text)
        let end = scan.word()
        let word = text[..<end]
        guard word.count > 2, word.hasSuffix(":"), word.first?.isUppercase == true,
            word.dropLast().allSatisfy({ $0.isASCII && $0.isLetter })
        else { return nil }
        let rest = text[end...].drop { $0 == " " }
        for level in ["error: ", "warning: ", "fault: ", "annotation: ", "debug: ", "info: "] where rest.hasBytePrefix(level) {
            return rest.index(rest.startIndex, offsetBy: level.count)
        }
        // Unreal Engine's `LogWindows: Error: `, `LogOutputDevice: Warning: `, `LogInit: Display: `:
        // its verbosity names, capitalised.
        for level in ["Error: ", "Warning: ", "Fatal: ", "Display: ", "Log: ", "Verbose: "] where rest.hasBytePrefix(level) {
            return rest.index(rest.startIndex, offsetBy: level.count)
        }
        return nil
    }

    /// `zsh: `, `bash: `, `sh: `, `fish: `: the shell that reports how its child ended.
    static let shellName: Shape = { text in
        guard let first = text.utf8.first, "zbsfk".utf8.contains(first) else { return nil }
        for shell in ["zsh: ", "bash: ", "sh: ", "fish: ", "ksh: "] where text.hasBytePrefix(shell) {
            return text.index(text.startIndex, offsetBy: shell.count)
        }
        return nil
    }

    /// A numbered list's `5) ` (a bug report's steps and findings, one per item).
    static let listMarker: Shape = { text in
        var scan = PrefixScan(text)
        guard scan.digits(1...3), scan.literal(")"), scan.blanks() else { return nil }
        return scan.position
    }

    /// Markdown's `> `, a table's `| `, and the `#` HotSpot puts before each line of its fatal-error
    /// banner (`#  SIGSEGV (0xb) at pc=0x…`), as a shell comment does: a `#` and blanks before words
    /// (not gdb's `#3 0x…` frame number, which has no blank after the mark).
    static let quoteMarker: Shape = { text in
        if text.hasBytePrefix("> ") || text.hasBytePrefix("| ") { return text.index(text.startIndex, offsetBy: 2) }
        guard text.hasBytePrefix("# ") else { return nil }
        let words = text.dropFirst().drop { $0 == " " || $0 == "\t" }
        guard let first = words.first, !first.isNumber, first != "#" else { return nil }
        return words.startIndex
    }

    /// A line quoted whole (`"Swift/Array.swift:418: Fatal error: Index out of range"`, a JSON
    /// string, a Markdown backquote): the opening quote; `CrashMessageGrammar.match` drops the
    /// closing one.
    static let openingQuote: Shape = { text in
        guard let first = text.first, first == "\"" || first == "'" || first == "`" || first == "“",
            text.count > 2, let next = text.dropFirst().first, next != " ", next != first
        else { return nil }
        return text.index(after: text.startIndex)
    }

    /// The quote that closes a line `openingQuote` opened.
    static func closingQuote(of line: Substring) -> Character? {
        switch line.first {
        case "\"": "\""
        case "'": "'"
        case "`": "`"
        case "“": "”"
        default: nil
        }
    }

    /// Markdown emphasis around a line (`**Fatal Exception: X**`): the opening marks.
    /// A label a poster set in Markdown emphasis before the crash's words (`**Error:** EXC_BAD_ACCESS`,
    /// `**Reason**: …`, `_Exception:_ …`): one to three words of letters, the first capitalised.
    static let emphasizedLabel: Shape = { text in
        guard let first = text.utf8.first, first == UInt8(ascii: "*") || first == UInt8(ascii: "_") else { return nil }
        for mark in ["**", "__", "*", "_"] where text.hasBytePrefix(mark) {
            let rest = text.dropFirst(mark.count)
            guard let close = rest.prefix(48).range(of: mark), close.lowerBound > rest.startIndex else { continue }
            var label = rest[..<close.lowerBound]
            var after = rest[close.upperBound...]
            if label.hasSuffix(":") {
                label = label.dropLast()
            } else if after.hasBytePrefix(":") {
                after = after.dropFirst()
            } else {
                continue
            }
            let words = label.split(separator: " ")
            guard (1...3).contains(words.count), words.allSatisfy({ $0.allSatisfy(\.isLetter) }), words[0].first?.isUppercase == true,
                after.first == " " || after.first == "\t"
            else { continue }
            return after.startIndex
        }
        return nil
    }

    static let emphasis: Shape = { text in
        guard text.hasBytePrefix("**"), !text.hasBytePrefix("***"), text.hasSuffix("**") else { return nil }
        return text.index(text.startIndex, offsetBy: 2)
    }

    /// Emoji and symbols app loggers put first (`🔴`, `⚠️`, `❌`, `⚡`, `💥`), followed by a blank.
    static let symbolRun: Shape = { text in
        var index = text.startIndex
        while index < text.endIndex, let scalar = text[index].unicodeScalars.first, !scalar.isASCII,
            scalar.properties.isEmoji || scalar.properties.generalCategory == .otherSymbol
                || scalar.properties.generalCategory == .mathSymbol
        {
            index = text.index(after: index)
        }
        guard index > text.startIndex, index < text.endIndex, text[index] == " " else { return nil }
        return index
    }

    /// One lowercase word and a colon that a harness or logger puts before what it relays
    /// (`stdout: `, `stderr: `, `flutter: `, `runner: `): tried last, after every known shape, and
    /// only ever a prefix to look behind, since each stage is still read as is first (`malloc: *** …`
    /// and `dyld: …` are messages at the stage that still has them). A capitalised word and colon
    /// is a report's field (`Process: `, `Reason: `), whose value is no message of its own.
    static let streamLabel: Shape = { text in
        let bytes = text.utf8
        guard let first = bytes.first, first >= 0x61, first <= 0x7A else { return nil }
        var index = bytes.startIndex
        var count = 0
        while index < bytes.endIndex, count <= 24 {
            let byte = bytes[index]
            let isWord =
                (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte >= 0x30 && byte <= 0x39 || byte == 0x5F || byte == 0x2D
                || byte == 0x2E
            guard isWord else { break }
            index = bytes.index(after: index)
            count += 1
        }
        guard count <= 24, index < bytes.endIndex, bytes[index] == 0x3A else { return nil }
        let after = bytes.index(after: index)
        guard after < bytes.endIndex, bytes[after] == 0x20 || bytes[after] == 0x09 else { return nil }
        return after
    }

    /// Whether only `streamLabel` reads a prefix off `text`.
    static func isStreamLabelOnly(_ text: Substring) -> Bool {
        streamLabel(text) != nil && !shapes.dropLast().contains { $0(text) != nil }
    }

    /// Words that only introduce what follows: Xcode's `Message from debugger: `, its error
    /// sheet's `Failure Reason: `, dyld's `Dyld Message: `.
    /// The first `": "` of `text` within its first 153 bytes: a label's end is looked for there
    /// only, so a long line without one costs no more than a short one.
    static func labelColon(_ text: Substring) -> Range<Substring.Index>? {
        let bytes = text.utf8
        var index = bytes.startIndex
        var offset = 0
        while index != bytes.endIndex, offset <= 152 {
            let next = bytes.index(after: index)
            if bytes[index] == UInt8(ascii: ":"), next != bytes.endIndex, bytes[next] == UInt8(ascii: " ") {
                return index..<bytes.index(after: next)
            }
            index = next
            offset += 1
        }
        return nil
    }

    static let labelledIntro: Shape = { text in
        for label in ["Message from debugger: ", "Failure Reason: ", "Dyld Message: ", "Dyld Error Message: "]
        where text.hasBytePrefix(label) {
            return text.index(text.startIndex, offsetBy: label.count)
        }
        // A crash service's or a poster's label for the crash's own words (`Exception Class: `,
        // `Crash Reason: `, `Error Message: `): two or three capitalised words, one of them naming
        // the crash; and a place's `Line 117: `.
        // (`": "` within the first 40 characters.)
        if let colon = labelColon(text), text[..<colon.lowerBound].count <= 38 {
            let words = text[..<colon.lowerBound].split(separator: " ")
            let crashWords: Set<Substring> = ["Exception", "Reason", "Error", "Crash", "Message", "Signal", "Cause", "Diagnosis"]
            // Apple's report fields (`Exception Type:`, `Termination Reason:`) are read as fields.
            // One word alone (`Reason:`) is a line of a message continued (dyld's `Reason: image not found`).
            // Or a crash word first and lowercase words after it (`Error in terminal: `, `Crash on launch: `).
            let capitalised = words.allSatisfy({ $0.first?.isUppercase == true }) && words.contains(where: crashWords.contains)
            let led = words.first.map(crashWords.contains) == true && words.dropFirst().allSatisfy({ $0.first?.isLowercase == true })
            if (2...3).contains(words.count), words.allSatisfy({ $0.allSatisfy(\.isLetter) }), capitalised || led,
                TextReportParser.fieldNames[text[..<colon.lowerBound].lowercased()] == nil
            {
                return colon.upperBound
            }
            if words.count == 2, words[0] == "Line", words[1].allSatisfy(\.isNumber) { return colon.upperBound }
        }
        // A label in a language written with full-width punctuation (`崩溃信息：`, `错误：`):
        // a few characters without blanks, then the full-width colon.
        if text.utf8.prefix(96).contains(0xEF), let colon = text.prefix(24).firstIndex(of: "："), colon > text.startIndex,
            !text[..<colon].contains(where: { $0 == " " || $0 == "\t" })
        {
            return text.index(after: colon)
        }
        return nil
    }
}

/// A cursor over the start of a line for the prefix shapes.
struct PrefixScan {
    let text: Substring
    private(set) var position: Substring.Index
    /// The scan reads bytes: every shape's marks are ASCII, and stepping by Character (a grapheme
    /// break each) was most of the prefix shapes' cost on every line of every text.
    private let bytes: Substring.UTF8View

    init(_ text: Substring) {
        self.text = text
        bytes = text.utf8
        position = text.startIndex
    }

    var atEnd: Bool { position == text.endIndex }

    @discardableResult
    mutating func literal(_ literal: String) -> Bool {
        guard text[position...].hasBytePrefix(literal) else { return false }
        position = bytes.index(position, offsetBy: literal.utf8.count)
        return true
    }

    mutating func digits(_ count: ClosedRange<Int>) -> Bool { run(count) { $0 >= 0x30 && $0 <= 0x39 } }
    mutating func letters(_ count: ClosedRange<Int>) -> Bool { run(count) { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A } }

    private mutating func run(_ count: ClosedRange<Int>, _ predicate: (UInt8) -> Bool) -> Bool {
        var index = position
        var n = 0
        while index < bytes.endIndex, n < count.upperBound, predicate(bytes[index]) {
            index = bytes.index(after: index)
            n += 1
        }
        guard count.contains(n) else { return false }
        // A longer run than allowed is another shape.
        if index < bytes.endIndex, predicate(bytes[index]) { return false }
        position = index
        return true
    }

    /// One or more blanks.
    @discardableResult
    mutating func blanks() -> Bool {
        let start = position
        while position < bytes.endIndex, bytes[position] == 0x20 || bytes[position] == 0x09 { position = bytes.index(after: position) }
        return position > start
    }

    /// The next byte when it is one of `characters` (ASCII), the cursor after it.
    mutating func oneOf(_ characters: StaticString) -> UInt8? {
        guard position < bytes.endIndex else { return nil }
        let byte = bytes[position]
        guard characters.withUTF8Buffer({ $0.contains(byte) }) else { return nil }
        position = bytes.index(after: position)
        return byte
    }

    /// `H:MM`, `HH:MM:SS`, `HH:MM:SS.ffffff` (`,` as the fraction's separator too).
    mutating func clock() -> Bool {
        guard digits(1...2), literal(":"), digits(2...2) else { return false }
        if literal(":") {
            guard digits(2...2) else { return false }
            if oneOf(".,") != nil { guard digits(1...9) else { return false } }
        }
        return true
    }

    /// `Z`, `+0900`, `-07:00`, ` +0000` after a time; nothing when absent.
    mutating func zone() {
        let start = position
        if literal("Z") { return }
        guard oneOf("+-") != nil else { return }
        if digits(4...4) { return }
        guard digits(2...2) else {
            position = start
            return
        }
        if literal(":"), !digits(2...2) { position = start }
    }

    /// The end of the current word when the word ends here (a blank, `]`, `:` or the end).
    func endOfWord() -> Substring.Index? {
        guard position < bytes.endIndex else { return position }
        let byte = bytes[position]
        guard byte == 0x20 || byte == 0x09 || byte == 0x5D || byte == 0x3A || byte == 0x7C else { return nil }
        return byte == 0x3A || byte == 0x7C ? bytes.index(after: position) : position
    }

    /// The end of the run of non-blank characters from here.
    mutating func word() -> Substring.Index {
        while position < bytes.endIndex, bytes[position] != 0x20 && bytes[position] != 0x09 { position = bytes.index(after: position) }
        return position
    }

    /// Where `character` (ASCII) next occurs within `limit` characters, leaving the cursor after
    /// it. Characters are counted as scalars (a UTF-8 lead byte each).
    mutating func upTo(_ character: UInt8, within limit: Int) -> Substring.Index? {
        var index = position
        var n = 0
        while index < bytes.endIndex, n <= limit {
            let byte = bytes[index]
            if byte == character {
                position = bytes.index(after: index)
                return index
            }
            if byte & 0xC0 != 0x80 { n += 1 }
            index = bytes.index(after: index)
        }
        return nil
    }
}

// MARK: - Messages

/// The messages that say a process is being stopped, by who prints them. Each shape is an
/// anchor in the message's own grammar (where the runtime's or library's format string starts or
/// what it always contains), never one report's wording.
enum CrashMessageGrammar {
    struct Shape: Sendable {
        enum Anchor: Sendable {
            /// The message starts with this (after the log prefixes).
            case starts(String)
            /// The message contains this.
            case contains(String)
            /// A parser of the message's own layout.
            case parser(@Sendable (Substring) -> Bool)
        }
        var family: StatedMessage.Family
        var anchor: Anchor
        /// Literals one of which a parser's message always holds: a line with none of them is not
        /// parsed (the parsers run on every form of every line).
        var needs: [String] = []

        init(family: StatedMessage.Family, anchor: Anchor, needs: [String] = []) {
            self.family = family
            self.anchor = anchor
            self.needs = needs
        }
    }

    /// Whether shape `index` matches `text`. `present`: which of `anchorIndex`'s literals the whole
    /// line holds (a `contains` anchor the line lacks is not searched for in each of its forms).
    /// The literals' ids are looked up once (`shapeLiteralIDs`), not hashed per line.
    static func shape(_ index: Int, matches text: Substring, present: [Bool]) -> Bool {
        let ids = shapeLiteralIDs[index]
        if !ids.needs.isEmpty, !ids.needs.contains(where: { present[$0] }) { return false }
        return switch shapes[index].anchor {
        case .starts(let literal): present[ids.anchor] && text.hasBytePrefix(literal)
        case .contains(let literal): present[ids.anchor] && MessageScan.occurs(literal, in: String(text))
        case .parser(let parse): parse(text)
        }
    }

    /// The literals a line must hold for each shape to match (its anchor's, else what its parser
    /// needs), found in one pass over a line (`NeedleIndex`): a line with none of them is no
    /// message, and its log prefixes are never read.
    static let anchorLiterals: [String] = shapes.flatMap { shape -> [String] in
        switch shape.anchor {
        case .starts(let literal), .contains(let literal): [literal] + shape.needs
        case .parser: shape.needs
        }
    }

    /// Per shape, the ids of the literals one of which it needs.
    static let requiredIDs: [[Int]] = shapes.map { shape in
        let literals: [String] =
            switch shape.anchor {
            case .starts(let literal), .contains(let literal): [literal]
            case .parser: shape.needs
            }
        return literals.compactMap { anchorIDs[$0] }
    }
    static let anchorIDs: [String: Int] = Dictionary(anchorLiterals.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    static let anchorIndex = NeedleIndex(anchorLiterals)

    /// Per shape, its anchor literal's id (0 for a parser) and its needs' ids.
    static let shapeLiteralIDs: [(anchor: Int, needs: [Int])] = shapes.map { shape in
        let anchor: Int =
            switch shape.anchor {
            case .starts(let literal), .contains(let literal): anchorIDs[literal] ?? 0
            case .parser: 0
            }
        return (anchor, shape.needs.compactMap { anchorIDs[$0] })
    }

    /// Per literal id, the shapes that require it (`requiredIDs` inverted), and the shapes that
    /// require none: a line's candidates from the few literals it holds.
    static let shapesRequiring: [[Int]] = {
        var shapes = [[Int]](repeating: [], count: anchorLiterals.count)
        for (index, ids) in requiredIDs.enumerated() { for id in Set(ids) { shapes[id].append(index) } }
        return shapes
    }()
    static let shapesRequiringNothing: [Int] = requiredIDs.indices.filter { requiredIDs[$0].isEmpty }

    /// The shapes, most specific first. Sources: the Swift runtime's `swift::fatalError` and the
    /// standard library's `_assertionFailure` / `_preconditionFailure` format strings (Errors.cpp,
    /// Exclusivity.cpp, Casting.cpp, HeapObject.cpp, Concurrency's Actor.cpp and
    /// CheckedContinuation.swift, AssertCommon.swift), libobjc's and libc++abi's terminate
    /// handlers, libmalloc's and dyld's diagnostics, Foundation's `NSAssertionHandler`, the Metal
    /// and Main Thread Checker debug layers, TCC.
    static let shapes: [Shape] =
        [
            // Lines that report a failure the process went on after, whatever they quote: an
            // exception the code caught and logged, `dlopen`'s error string returned to its caller,
            // a sanitizer's warning (`NonFatalReport`). Before every other shape, so the message
            // they quote is not taken for a crash of its own.
            Shape(family: .diagnostic, anchor: .parser(NonFatalReport.isReport), needs: NonFatalReport.literals),
            // Go's runtime `throw` (below with the other runtimes' last words).
            Shape(family: .managedException, anchor: .parser(isGoRuntimeThrow), needs: ["fatal error: "]),
            // OCaml's (before Swift's `Fatal error:`, whose words it shares).
            Shape(family: .managedException, anchor: .parser(OCamlUncaught.isUncaught), needs: [OCamlUncaught.opening]),
            // The Swift runtime and standard library.
            Shape(
                family: .swiftRuntime, anchor: .parser { ConsoleLine.swiftRuntimeError(String($0)) != nil },
                needs: ["Fatal error", "fatal error", "Precondition failed", "Assertion failed"]),
            Shape(family: .swiftRuntime, anchor: .starts("Simultaneous accesses to 0x")),
            Shape(family: .swiftRuntime, anchor: .starts("Fatal access conflict detected")),
            // The concurrency runtime's own checks, `error: <part>: detected …` (`error: task-local:
            // detected illegal task-local value binding at X.swift:6.`, `error: TaskGroup: detected
            // pending task count overflow`), before it aborts.
            Shape(family: .swiftRuntime, anchor: .parser(isConcurrencyRuntimeCheck), needs: [": detected "]),
            // `CheckedContinuation` stops the process when resumed twice; a leaked one is only logged.
            Shape(
                family: .swiftRuntime,
                anchor: .parser { $0.containsBytes("SWIFT TASK CONTINUATION MISUSE:") && $0.containsBytes(" tried to resume ") },
                needs: ["SWIFT TASK CONTINUATION MISUSE:"]),
            Shape(family: .swiftRuntime, anchor: .contains("Incorrect actor executor assumption")),
            Shape(family: .swiftRuntime, anchor: .contains("an unowned reference but ")),
            Shape(family: .swiftRuntime, anchor: .starts("Could not cast value of type ")),
            Shape(family: .swiftRuntime, anchor: .starts("Unexpectedly found nil while ")),
            // The compiler's name for an inlined check's trap, wherever a text quotes it (a variables
            // view's `Exception = Swift runtime failure: …`, an issue's title, a crash service's frame).
            Shape(
                family: .swiftRuntime,
                anchor: .parser { text in
                    // A frame named so is the trap's frame, read with the frames.
                    text.containsBytes("Swift runtime failure: ") && PastedFrameGrammar.parse(String(text), reportLine: 0) == nil
                        && TextReportParser.parseFrame(String(text), reportLine: 0) == nil
                },
                needs: ["Swift runtime failure: "]),
            Shape(family: .swiftRuntime, anchor: .contains("'try!' expression unexpectedly raised an error")),
            // The concurrency runtime's task allocator, freeing out of order (a task's memory
            // released by another task or after an `async let` or a continuation misuse).
            Shape(family: .swiftRuntime, anchor: .contains("freed pointer was not the last allocation")),
            // The runtime's check at the end of a deinit that let `self` escape (HeapObject.cpp).
            Shape(family: .swiftRuntime, anchor: .contains("deallocated with non-zero retain count")),
            Shape(family: .swiftRuntime, anchor: .parser(isStandardLibraryCheck), needs: standardLibraryChecks),
            // Uncaught exceptions.
            Shape(family: .objcException, anchor: .contains(ConsoleLine.objcOpening)),
            Shape(family: .objcException, anchor: .starts("Uncaught exception: ")),
            // AppKit's handler for an exception the run loop caught (`-[NSApplication
            // reportException:]`): this line, then the reason on a line of its own, then the stack.
            Shape(family: .objcException, anchor: .starts(ConsoleLine.appKitUncaught)),
            // A bridge's report of an exception a native method raised while it called it (React
            // Native's `Exception 'REASON' was thrown while invoking show on target X with params (…)`).
            Shape(
                family: .objcException,
                anchor: .parser { $0.hasBytePrefix("Exception '") && $0.containsBytes("' was thrown while ") },
                needs: ["' was thrown while "]),
            // libobjc's name and reason with the words before them cut (`'NSGenericException', reason: '…'`).
            Shape(
                family: .objcException, anchor: .parser { ConsoleLine.exceptionFragment(String($0)) != nil }, needs: ["', reason: '"]),
            // The reason part of libobjc's line alone (`reason: 'Could not find a navigation controller for segue …'`).
            Shape(family: .objcException, anchor: .parser { ConsoleLine.bareReason(String($0)) != nil }, needs: ["reason: "]),
            // A reason Foundation formats with the selector before it (`_endUndoGroupRemovingIfEmpty::
            // NSUndoManager 0x… is in invalid state, …`): the selector's last colon, then `: `.
            Shape(family: .objcException, anchor: .parser(isSelectorReason), needs: [":: "]),
            // The line an app's uncaught-exception handler logs the exception with (`NSLog(@"CRASH: %@",
            // exception)`, the handler most projects copy), before its `Stack Trace:`.
            Shape(
                family: .objcException, anchor: .parser { $0.hasBytePrefix("CRASH: ") && $0.dropFirst(7).contains(where: \.isLetter) },
                needs: ["CRASH: "]),
            // A crash service's title; Android's (`java.lang.…`) names are not Objective-C exceptions.
            Shape(
                family: .objcException,
                anchor: .parser { $0.hasBytePrefix("Fatal Exception: ") && ExceptionNameLine.parse($0.dropFirst(17)) != nil },
                needs: ["Fatal Exception: "]),
            // Crashlytics' title of an Android crash (`Fatal Exception: java.lang.IllegalStateException`,
            // its message on the next line): the JVM's exception, a managed runtime's.
            Shape(
                family: .managedException,
                anchor: .parser { text in
                    guard text.hasBytePrefix("Fatal Exception: ") else { return false }
                    let name = text.dropFirst(17).prefix { !($0 == " " || $0 == ":") }
                    guard name.contains("."), let last = name.split(separator: ".").last, last.first?.isUppercase == true else {
                        return false
                    }
                    return last.hasSuffix("Exception") || last.hasSuffix("Error")
                }, needs: ["Fatal Exception: "]),
            Shape(family: .objcException, anchor: .contains(": unrecognized selector sent to ")),
            // A JVM exception's line with its package (`java.lang.OutOfMemoryError: Java heap space`,
            // `kotlin.UninitializedPropertyAccessException: lateinit property x has not been
            // initialized`), as Android's `AndroidRuntime` log (under its `FATAL EXCEPTION: main`) and a
            // JVM's console print it.
            Shape(family: .managedException, anchor: .parser(JVMExceptionLine.isException), needs: JVMExceptionLine.packages),
            // Elixir's exception as it prints it (`** (ArgumentError) argument error`, `** (Mix.Error)
            // Could not compile dependency`).
            Shape(family: .managedException, anchor: .parser(isElixirException), needs: ["** ("]),
            // libmalloc's own word for a damaged heap (`Heap corruption detected, free list is damaged at 0x…`).
            Shape(family: .malloc, anchor: .starts("Heap corruption detected")),
            // Key-value observing's default `observeValueForKeyPath:ofObject:change:context:`
            // raises when a change reaches an observer that does not handle it (`<X: 0x…>: An
            // -observeValueForKeyPath:ofObject:change:context: message was received but not
            // handled.`, then `Key path:`, `Observed object:`, `Change:`, `Context:` lines).
            Shape(family: .objcException, anchor: .contains(" message was received but not handled")),
            // NSZombie's line for a message to a freed object, a debug layer's stop (`*** -[X y]: message sent to
            // deallocated instance 0x…`), which stops the process.
            Shape(family: .assertion, anchor: .contains(": message sent to deallocated instance ")),
            // Core Data's report of an exception its fetched-results controller's delegate raised
            // (`Serious application error.  An exception was caught from the delegate of
            // NSFetchedResultsController during a call to -controllerDidChangeContent:.  REASON`).
            Shape(family: .objcException, anchor: .contains("An exception was caught from the delegate of NSFetchedResultsController")),
            // Foundation's and CoreFoundation's exception reasons printed alone (a crash service's
            // title, a console line): `*** -[__NSArrayM objectAtIndex:]: index 5 beyond bounds [0 .. 2]`,
            // `[__NSPlaceholderArray initWithObjects:count:]: attempt to insert nil object from
            // objects[0]`, `*** Collection <__NSArrayM: 0x…> was mutated while being enumerated.`,
            // `[<X 0x…> setValue:forUndefinedKey:]: this class is not key value coding-compliant…`.
            Shape(family: .objcException, anchor: .parser(isFoundationReason), needs: UncaughtExceptionFact.ReasonClass.words),
            // Any reason Foundation raises with its method first (`*** -[NSConcreteFileHandle
            // writeData:]: No space left on device`, `*** +[NSString stringWithUTF8String:]: NULL cString`):
            // the stars, the method and its colon are the format of an exception's reason.
            Shape(family: .objcException, anchor: .parser(isMethodReason), needs: ["* -[", "* +[", "] "]),
            // XCTest's report of an exception a test did not catch.
            Shape(family: .objcException, anchor: .parser { CaughtExceptionLine.parse($0) != nil }, needs: ["caught \""]),
            // A name in a managed runtime's style (`NullReferenceException: …`, Unity's and Mono's
            // lines) before Objective-C's, whose names open with a framework's capitals (`NS…`, `UI…`).
            Shape(
                family: .managedException,
                anchor: .parser { ExceptionNameLine.parse($0).map { ManagedExceptionLine.isManagedStyle($0.name) } == true },
                needs: ["Exception"]),
            Shape(family: .objcException, anchor: .parser { ExceptionNameLine.parse($0) != nil }, needs: ["Exception"]),
            // libc++abi's line for an Objective-C exception: its type is `NSException`.
            Shape(
                family: .objcException, anchor: .parser { ConsoleLine.cxxException(String($0))?.type == "NSException" },
                needs: ["uncaught exception of type "]),
            Shape(
                family: .cxxException, anchor: .parser { ConsoleLine.cxxException(String($0)) != nil },
                needs: ["uncaught exception of type "]),
            Shape(family: .cxxRuntime, anchor: .parser { ConsoleLine.cxxRuntimeAbort($0) != nil }, needs: ["libc++abi"]),
            // The C++ runtimes' last words with no `libc++abi: ` before them (libstdc++ prints
            // none; a logger may drop it): a call that reached a pure virtual or deleted virtual
            // function, libstdc++'s `terminate called after throwing an instance of 'X'` and
            // `terminate called without an active exception`.
            Shape(
                family: .cxxRuntime, anchor: .parser(ConsoleLine.isUnprefixedCxxRuntimeAbort),
                needs: ["ure virtual ", "eleted virtual ", "terminate called "]),
            Shape(family: .cxxException, anchor: .parser { CxxExceptionTitle.parse($0) != nil }, needs: ["::"]),
            // Managed runtimes in the app: Xamarin.iOS/.NET's and Kotlin/Native's uncaught-exception
            // lines, and a .NET exception's own `Namespace.TypeException: message` line.
            Shape(family: .managedException, anchor: .starts("Unhandled managed exception: ")),
            Shape(family: .managedException, anchor: .starts("Uncaught Kotlin exception: ")),
            // Kotlin/Native ends the process when an exception crosses into Objective-C or Swift
            // through a function without `@Throws`.
            Shape(family: .managedException, anchor: .contains("doesn't have or inherit @Throws annotation")),
            // A failed check of Chromium's and Flutter's engine logging (`[FATAL:flutter/shell/…(432)]
            // Check failed: …`), after its bracketed tag.
            Shape(family: .assertion, anchor: .starts("Check failed: ")),
            // Chromium's and Flutter's engine `LOG(FATAL)` (`[FATAL:flutter/…/FlutterEngine.mm(1234)] Could
            // not launch engine …`, `[12345:0101/000000.000000:FATAL:v8_initializer.cc(630)] Error loading …`):
            // the log ends the process after it.
            Shape(family: .assertion, anchor: .parser(isChromiumFatalLog), needs: ["FATAL:"]),
            Shape(family: .managedException, anchor: .starts("Unhandled exception. ")),
            Shape(
                family: .managedException,
                anchor: .parser { ManagedExceptionLine.parse($0) != nil || ManagedExceptionLine.jvmUncaught($0) != nil },
                needs: ["Exception", "Error"]),
            // React Native's banner for a JavaScript exception nothing caught, which `RCTFatal`
            // turns into the app's end in a release build.
            Shape(family: .managedException, anchor: .starts("Unhandled JS Exception: ")),
            // A JavaScript engine's error as its console prints it (Hermes, JavaScriptCore, V8):
            // one of ECMAScript's native error types or React's `Invariant Violation`, then the
            // message (`TypeError: undefined is not an object (evaluating 'a.b')`, `Invariant
            // Violation: TurboModuleRegistry.getEnforcing(...): 'X' could not be found`). An error
            // thrown where nothing catches it: a red box in a debug build, `RCTFatal` in a release one.
            Shape(family: .managedException, anchor: .parser(JavaScriptErrorLine.isError), needs: JavaScriptErrorLine.names),
            // Dart's `Unhandled Exception: X(…)` (Flutter's engine logs it with the Dart stack under
            // it, `[VERBOSE-2:ui_dart_state.cc(166)] Unhandled Exception: …`, `E/flutter`): the
            // exception the app's code let escape, as the developer reads it, whether the isolate
            // went on or not. (.NET's `Unhandled exception. ` is its own shape above.)
            // (Not Unreal Engine's `Unhandled Exception: EXCEPTION_ACCESS_VIOLATION reading address 0x…`,
            // a Windows exception code's name: a signal, read below.)
            Shape(
                family: .managedException,
                anchor: .parser { text in
                    guard let found = text.byteRange(of: "Unhandled Exception: ") else { return false }
                    let rest = text[found.upperBound...]
                    return !rest.hasBytePrefix("EXCEPTION_") && !rest.hasBytePrefix("STATUS_")
                }, needs: ["Unhandled Exception: "]),
            // Compiled languages' runtimes linked into the app stop it on a panic, printing one
            // line first: Rust's `thread 'main' panicked at 'msg', src/main.rs:2` (before 1.73;
            // `panicked at src/lib.rs:10:5:` since), Go's `panic: runtime error: index out of range`
            // (before its goroutines' stacks).
            // (Rust's is its runtime's check failing, as an assertion is: a framework's own
            // failed assertion stated beside it says more.)
            Shape(
                family: .assertion,
                anchor: .parser { RustPanicMessage.panickedMarker(in: $0) != nil }, needs: [" panicked at "]),
            Shape(family: .managedException, anchor: .starts("panic: ")),
            // Zig's panic handler names the thread first (`thread 3847457 panic: start index 2049 is
            // larger than end index 126`), before its stack trace.
            Shape(
                family: .managedException,
                anchor: .parser { text in
                    guard text.hasBytePrefix("thread ") else { return false }
                    let digits = text.dropFirst(7).prefix { $0.isASCII && $0.isNumber }
                    return !digits.isEmpty && text.dropFirst(7 + digits.count).hasBytePrefix(" panic: ")
                }, needs: [" panic: "]),
            // Rust's runtime aborting the process (`rtabort!`): `fatal runtime error: Rust cannot
            // catch foreign exceptions`, `… failed to initiate panic, error 5`, a thread-local
            // destructor that panicked.
            Shape(family: .assertion, anchor: .starts("fatal runtime error: ")),
            // V8's fatal banner (Node, a JavaScript engine in the app or its build): `FATAL ERROR:
            // Reached heap limit Allocation failed - JavaScript heap out of memory`.
            Shape(family: .managedException, anchor: .contains("FATAL ERROR: ")),
            // Other runtimes' last words before they stop the process (an interpreter or VM inside an
            // Apple process, a tool the app's build runs): Ruby's `rb_bug` (`file.rb:275: [BUG] Bus Error
            // at 0x…`), CPython's `Fatal Python error: …`, the JVM's `A fatal error has been detected by
            // the Java Runtime Environment`, Lua's panic, and Go's runtime `throw` (`fatal error:
            // concurrent map writes`, before the Swift runtime's shapes: Swift 2–4 printed `fatal
            // error: MESSAGE` too, never with these words).
            Shape(family: .assertion, anchor: .parser(isRubyBug), needs: ["[BUG] "]),
            // (faulthandler's `Fatal Python error: Segmentation fault` names the signal it caught: the signal shape reads it.)
            Shape(
                family: .assertion, anchor: .parser { $0.hasBytePrefix("Fatal Python error: ") && SignalLine.signal(in: $0) == nil },
                needs: ["Fatal Python error: "]),
            Shape(family: .assertion, anchor: .contains("A fatal error has been detected by the Java Runtime Environment")),
            Shape(family: .assertion, anchor: .contains("PANIC: unprotected error in call to Lua API")),
            // Crystal's fault handler: `Invalid memory access (signal 11) at address 0x0`, then its
            // `CallStack` frames.
            Shape(family: .signal, anchor: .starts("Invalid memory access (signal ")),
            // GHC's panic (the compiler, or its library inside a tool): `ghc: panic! (the
            // 'impossible' happened)`, its version and the reason on the indented lines under it.
            Shape(family: .assertion, anchor: .contains("panic! (the 'impossible' happened)")),
        ]
        // .NET's own exceptions' messages, printed without the type's name by a logger or a
        // crash service (the runtime's resource strings: NullReferenceException's,
        // IndexOutOfRangeException's, ArgumentOutOfRangeException's, InvalidCastException's,
        // InvalidOperationException's for a collection changed while enumerated or an empty sequence).
        + [
            "Object reference not set to an instance of an object", "Index was outside the bounds of the array",
            "Specified argument was out of the range of valid values", "Specified cast is not valid",
            "Collection was modified; enumeration operation may not execute", "Sequence contains no elements",
            "Sequence contains no matching element", "Arithmetic operation resulted in an overflow",
        ].map { Shape(family: .managedException, anchor: .contains($0)) }
        + [

            // Assertions and debug layers.
            Shape(family: .assertion, anchor: .parser { MessageScan(String($0)).isCAssertion() }, needs: ["Assertion failed: "]),
            // glibc's `assert` (`prog: file.c:12: main: Assertion `p != NULL' failed.`, `__assert_fail`'s
            // format) and the runtimes that print its form (Node's `CHECK`).
            Shape(family: .assertion, anchor: .parser(isGlibcAssertion), needs: ["Assertion `"]),
            // glibc's own checks since 2.37 (`__libc_assert_fail`): `Fatal glibc error: tpp.c:83
            // (__pthread_tpp_change_priority): assertion failed: new_prio == -1 || …`.
            Shape(family: .assertion, anchor: .parser(isGlibcInternalAssertion), needs: ["Fatal glibc error: "]),
            Shape(family: .assertion, anchor: .starts("*** Assertion failure in ")),
            // Any other runtime's or engine's own `Assertion failed: ` with what it checked
            // (Unreal's `Assertion failed: X [File:…/UnClass.cpp] [Line: 1241]`, a library's macro):
            // after the C, Swift and framework shapes, which read theirs more closely.
            Shape(
                family: .assertion,
                anchor: .parser { $0.hasBytePrefix("Assertion failed: ") && $0.dropFirst(18).contains { $0.isLetter || $0.isNumber } },
                needs: ["Assertion failed: "]),
            // The same line with its stars lost in a paste.
            Shape(
                family: .assertion, anchor: .parser { $0.hasBytePrefix("Assertion failure in ") && $0.containsBytes("[") },
                needs: ["Assertion failure in "]),
            // Assertion macros of other code bases inside Apple apps, each in its own format: Xcode's
            // DVTAssertions (`ASSERTION FAILURE in /…/DVTMachOUtilities.m:603`, then `Details:`), WebKit's
            // and JavaScriptCore's `ASSERTION FAILED: cond`, Qt's `ASSERT: "cond" in file f, line n` and
            // `ASSERT failure in where: "what", file f, line n`.
            Shape(family: .assertion, anchor: .starts("ASSERTION FAILURE in ")),
            Shape(family: .assertion, anchor: .starts("ASSERTION FAILED: ")),
            Shape(
                family: .assertion, anchor: .parser { $0.hasBytePrefix("ASSERT: \"") && $0.containsBytes("\" in file ") },
                needs: ["ASSERT: \""]),
            Shape(
                family: .assertion, anchor: .parser { $0.hasBytePrefix("ASSERT failure in ") && $0.containsBytes(", file ") },
                needs: ["ASSERT failure in "]),
            Shape(family: .assertion, anchor: .contains(" failed assertion ")),
            Shape(family: .assertion, anchor: .starts("failed assertion ")),
            Shape(family: .threadChecker, anchor: .starts("Main Thread Checker: ")),
            // SwiftUI's attribute graph stopping the process (`AttributeGraph precondition failure:
            // setting value during update`, `… accessing attribute in a different namespace`).
            Shape(family: .assertion, anchor: .contains("AttributeGraph precondition failure: ")),
            // AddressSanitizer's report, which ends the process (`==123==ERROR: AddressSanitizer:
            // heap-use-after-free on address 0x…`, its closing `SUMMARY: AddressSanitizer: …`).
            // And the other memory checkers that stop the process on what they find, in their words:
            // every sanitizer's `ERROR: HWAddressSanitizer: tag-mismatch …`, `ERROR: MemorySanitizer:
            // use-of-uninitialized-value`, Android's Scudo allocator (`Scudo ERROR: invalid chunk
            // state when deallocating address …`), GWP-ASan (`*** GWP-ASan detected a memory error
            // ***`), the kernel's KASAN and KFENCE (`BUG: KASAN: use-after-free in f+0x7bc/0xc50`).
            Shape(family: .malloc, anchor: .parser(MemoryCheckerReport.isReport), needs: MemoryCheckerReport.literals),
            // UIKit's and AppKit's Auto Layout engine changed off the main thread, as they logged it
            // before the exception that replaced the line (iOS 13, macOS 10.15).
            Shape(family: .threadChecker, anchor: .contains("modifying the autolayout engine from a background thread")),
            Shape(family: .libraryMisuse, anchor: .starts("BUG IN CLIENT OF ")),
            // VirtualBox stopping a virtual machine on an error of its own (`VCPU1: Guru Meditation -5394
            // (VERR_IEM_IPE_4)`, `!!  VCPU0: Guru Meditation 1155 (VINF_EM_TRIPLE_FAULT)`): the status
            // code and its name, the VM then in state `GURU_MEDITATION`.
            Shape(
                family: .assertion,
                anchor: .parser { text in
                    guard let found = text.byteRange(of: "Guru Meditation ") else { return false }
                    let rest = text[found.upperBound...]
                    let number = rest.drop { $0 == "-" }.prefix { $0.isASCII && $0.isNumber }
                    return !number.isEmpty && (rest.containsBytes("(VERR_") || rest.containsBytes("(VINF_"))
                }, needs: ["Guru Meditation "]),
            // Free Pascal's (and Turbo Pascal's) runtime error, its number and the address
            // (`Runtime error 216 at $000000000041AC13`, then the call stack's addresses).
            Shape(
                family: .managedException,
                anchor: .parser { text in
                    guard text.hasBytePrefix("Runtime error ") else { return false }
                    let rest = text.dropFirst(14)
                    let number = rest.prefix { $0.isASCII && $0.isNumber }
                    return !number.isEmpty && number.count <= 3
                        && (rest.dropFirst(number.count).hasBytePrefix(" at ") || rest.count == number.count)
                }, needs: ["Runtime error "]),
            // libSystem's word for a child process that crashed between `fork()` and `exec()`, where
            // only async-signal-safe calls are allowed (`crashed on child side of fork pre-exec`).
            Shape(family: .libraryMisuse, anchor: .starts("crashed on child side of fork pre-exec")),
            // Xlib's default handlers, which print the X server's refusal of a request (or the lost
            // connection) and exit the program (`X Error of failed request:  BadWindow (invalid
            // Window parameter)`, `XIO:  fatal IO error 11 (Resource temporarily unavailable) on X
            // server ":0"`), and GDK's, which aborts (`The program 'gedit' received an X Window
            // System error.`).
            Shape(family: .libraryMisuse, anchor: .starts(xlibFailedRequest)),
            Shape(
                family: .libraryMisuse, anchor: .parser { $0.hasBytePrefix("XIO:") && $0.containsBytes("fatal IO error") },
                needs: ["XIO:"]),
            Shape(family: .libraryMisuse, anchor: .contains("received an X Window System error")),
            // CoreFoundation's stop for a NULL handed to its retain and release functions (`*** CFRelease()
            // called with NULL ***`, `CFRetain()`, `CFMakeCollectable()`).
            Shape(family: .libraryMisuse, anchor: .contains("() called with NULL")),
            // libobjc's fatal errors (`_objc_fatal`), printed after its `objc[pid]: ` prefix before
            // it traps: a weak reference to an object being deallocated, a corrupt method cache or
            // autorelease pool, an unknown class; and its `HALTED`. (Its other lines, `Class X is
            // implemented in both …`, an object autoreleased with no pool, are warnings.)
            Shape(family: .libraryMisuse, anchor: .contains("annot form weak reference to instance")),
            Shape(family: .libraryMisuse, anchor: .contains("Method cache corrupted")),
            // libobjc's fatal error at load time for a `+load` in a Swift class's category or extension.
            Shape(family: .libraryMisuse, anchor: .contains("are not allowed to have +load methods")),
            // Qt's fatal error for a widget made before the application object.
            Shape(family: .libraryMisuse, anchor: .contains("Must construct a QApplication before a Q")),
            // libc++'s hardening and debug checks, through its verbose abort: `…/include/c++/v1/vector:1459:
            // assertion __n < size() failed: vector[] index out of bounds`.
            Shape(family: .assertion, anchor: .parser(isLibcxxAssertion), needs: [": assertion "]),
            // The message libobjc was sending when `objc_msgSend` faulted, as it records it for the
            // crash report (`objc_msgSend() selector name: isNSSet__`), quoted alone as a reason.
            Shape(family: .libraryMisuse, anchor: .starts("objc_msgSend() selector name: ")),
            // The same, as Apple's reports and crash services print it beside a fault in objc_msgSend.
            Shape(family: .libraryMisuse, anchor: .starts("Selector name found in current argument registers: ")),
            // libobjc's words when it stops a child process of `fork()` that touched a class whose
            // `+initialize` another thread was running (`… We cannot safely call it or ignore it in
            // the fork() child process. Crashing instead.`); the same words in any runtime's line.
            Shape(family: .libraryMisuse, anchor: .contains("Crashing instead")),
            Shape(family: .libraryMisuse, anchor: .starts("Attempt to use unknown class")),
            Shape(family: .libraryMisuse, anchor: .starts("Invalid or prematurely-freed autorelease pool")),
            Shape(
                family: .libraryMisuse, anchor: .parser { $0.hasBytePrefix("autorelease pool page ") && $0.containsBytes(" corrupted") },
                needs: ["autorelease pool page "]),
            Shape(
                family: .libraryMisuse, anchor: .parser { $0.hasBytePrefix("Weak reference ") && $0.containsBytes(" contains 0x") },
                needs: ["Weak reference "]),
            // CoreFoundation's forwarding giving up on an object that cannot even refuse a selector
            // (`*** NSForwarding: warning: object 0x… of class 'X' does not implement
            // doesNotRecognizeSelector: -- abort`); its `-- trouble ahead` line is a warning.
            Shape(
                family: .libraryMisuse, anchor: .parser { $0.containsBytes("NSForwarding: ") && $0.trimmedBlanks.hasSuffix("-- abort") },
                needs: ["NSForwarding: "]),
            // A runtime's own check at a source place (`…/ObjCExport.mm:332: runtime assert: …`,
            // Kotlin/Native's `RuntimeAssert`; `file.c:12: assertion failed: …`).
            Shape(family: .assertion, anchor: .parser(LocatedAssertion.isAssertion), needs: ["assert", "Assert"]),
            // A runtime's check that names its place after the words (Mono's `* Assertion at
            // …/mini-arm64.c:5439, condition `x' not met`, `* Assertion: should not be reached at f.c:12`).
            Shape(family: .assertion, anchor: .parser(LocatedAssertion.opensWithAssertion), needs: ["Assertion", "ASSERTION"]),
            // A compiler or another LLVM-based build tool that crashed itself, in the driver's or
            // LLVM's words (`swift frontend command failed due to signal`, `error: compile command
            // failed due to signal 6`, `PLEASE submit a bug report to … and include the crash
            // backtrace`, `Stack dump without symbol names`): `ToolchainCrashFact` reads the rest.
            Shape(family: .processExit, anchor: .contains("command failed due to signal")),
            Shape(
                family: .processExit,
                anchor: .parser {
                    ToolchainCrashFact.statesCrash(String($0)) != nil || $0.hasBytePrefix("Stack dump without symbol names")
                },
                needs: ["submit a bug report", "Stack dump without symbol names"]),
            // A program's own last words that it gives up (`Unable to load nib file: MainMenu,
            // exiting`, NSApplicationMain's; `…, aborting`): the reason, then the exit.
            Shape(family: .processExit, anchor: .parser(GivingUpLine.isGivingUp), needs: GivingUpLine.needs),
            // A glog or Abseil `FATAL` line (`F1004 17:24:35.053661 … gpu_buffer_multi_pool.cc:82] Check
            // failed: …`, TensorFlow's `F tensorflow/…/cpu_feature_guard.cc:37] …`): the logger aborts after it.
            Shape(family: .assertion, anchor: .parser { GlogLine.header($0)?.severity == "F" }, needs: ["] "]),
            // Their stack's heading says a `CHECK` failed even when the line before it was not copied.
            Shape(family: .assertion, anchor: .contains("*** Check failure stack trace: ***")),
            // The OpenMP runtime's fatal error (`OMP: Error #15: Initializing libomp.dylib, but found
            // libomp.dylib already initialized.`), after which it aborts.
            Shape(family: .assertion, anchor: .starts("OMP: Error #")),
            // Xlib's default handler for a lost X server connection, which exits the program
            // (`XIO:  fatal IO error 35 (Resource temporarily unavailable) on X server ":0"`).
            Shape(
                family: .processExit, anchor: .parser { $0.hasBytePrefix("XIO:") && $0.containsBytes("fatal IO error") }, needs: ["XIO:"]),
            // LLVM's `report_fatal_error`, after which the program exits or aborts (`LLVM ERROR: out of
            // memory`, `LLVM ERROR: Cannot select: …`).
            Shape(family: .processExit, anchor: .starts("LLVM ERROR: ")),
            // A Linux kernel's own crash (an oops, a panic), in its words: `Unable to handle kernel paging
            // request at virtual address 12005456`, `BUG: kernel NULL pointer dereference, address: …`,
            // `Internal error: Oops: 805 [#1] ARM`, `Kernel panic - not syncing: …`.
            Shape(
                family: .processExit,
                anchor: .parser { text in
                    // (Any case and without the colon: a panic typed from a photo of the screen.)
                    let opening = text.prefix(48).lowercased()
                    return opening.hasBytePrefix("unable to handle kernel ") || opening.hasBytePrefix("bug: unable to handle ")
                        || opening.hasBytePrefix("bug unable to handle ") || opening.hasBytePrefix("bug: kernel null pointer dereference")
                        || opening.hasBytePrefix("internal error: oops") || opening.hasBytePrefix("kernel panic - not syncing")
                        || opening.hasBytePrefix("kernel bug at ") || LinuxOops.isOopsHeading(text)
                },
                needs: [
                    "Unable to handle kernel ", "BUG: ", "BUG unable", "Internal error: Oops", "Kernel panic - not syncing",
                    "kernel panic - not syncing", "kernel BUG at ", "[#",
                ]),
            // Windows stopped (a bug check, a blue screen), as WinDbg's `!analyze -v` heads its analysis
            // and as the event log says after the restart (`The computer has rebooted from a bugcheck.`).
            Shape(
                family: .processExit,
                anchor: .parser { text in
                    text.containsBytes("has rebooted from a bugcheck")
                        || (text.containsBytes("Bugcheck Analysis")
                            && text.trimmingCharacters(in: CharacterSet(charactersIn: "* ")) == "Bugcheck Analysis")
                },
                needs: ["has rebooted from a bugcheck", "Bugcheck Analysis"]),
            // JavaScript's error nothing caught, as a browser's console and Node print it: `Uncaught
            // TypeError: Cannot read properties of undefined`, `Uncaught (in promise) RuntimeError:
            // unreachable` (a WebAssembly trap), Node's `[UnhandledPromiseRejection: This error originated …]`.
            Shape(
                family: .managedException, anchor: .parser(JavaScriptUncaught.isUncaught),
                needs: ["Uncaught ", "UnhandledPromiseRejection"]),
            // A GPU the process lost, in the graphics API's words (Vulkan's `VK_ERROR_DEVICE_LOST`,
            // Direct3D's `DXGI_ERROR_DEVICE_HUNG` and `DXGI_ERROR_DEVICE_REMOVED`), and CUDA's errors
            // (PyTorch's `RuntimeError: CUDA error: an illegal memory access was encountered`, the
            // driver API's `CUDA_ERROR_ILLEGAL_ADDRESS`); CUDA's allocator out of device memory is a
            // limit (`torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 55.57 GiB`).
            Shape(family: .resource, anchor: .parser(GPUFailure.isOutOfMemory), needs: GPUFailure.memoryLiterals),
            Shape(family: .processExit, anchor: .parser(GPUFailure.isDeviceFailure), needs: GPUFailure.literals),
            // Lua's runtime errors, which end a script and the game or tool that ran it (LÖVE's
            // `Error: main.lua:10: attempt to index local 'str' (a nil value)`, Factorio's mods):
            // an operation on a value of the wrong type, as Lua words it.
            Shape(family: .managedException, anchor: .parser(LuaError.isError), needs: ["attempt to "]),
            // Ruby's last words for an exception nothing rescued: `FILE:LINE:in `METHOD': MESSAGE
            // (CLASS)` (`…/conversions.rb:131:in `block (2 levels) in <class:Numeric>': stack level too
            // deep (SystemStackError)`).
            Shape(family: .managedException, anchor: .parser(RubyUncaught.isUncaught), needs: [":in `", ":in '", "Error)", "Exception)"]),
            // GHC's runtime for an exception nothing caught: the program's name, then the exception's
            // own text (`client: Prelude.head: empty list`, `app: Maybe.fromJust: Nothing`, `app:
            // src/Main.hs:(12,1)-(13,20): Non-exhaustive patterns in function f`, `app: <<loop>>`).
            Shape(family: .managedException, anchor: .parser(HaskellUncaught.isUncaught), needs: HaskellUncaught.needs),
            // The Erlang VM stopping because an application it must run ended (`Kernel pid terminated
            // (application_controller) ({application_start_failure,app,…})`, the boot script's `init
            // terminating in do_boot`, `Runtime terminating during boot`), before `Crash dump is being
            // written to: erl_crash.dump`.
            Shape(
                family: .processExit,
                anchor: .parser { text in
                    text.hasBytePrefix("Kernel pid terminated (") || text.hasBytePrefix("{\"Kernel pid terminated\"")
                        || text.hasBytePrefix("Runtime terminating during boot") || text.containsBytes("init terminating in do_boot")
                },
                needs: ["Kernel pid terminated", "Runtime terminating during boot", "init terminating in do_boot"]),
            // Lua's runtime errors, after the chunk's place (`lua: main.lua:66: attempt to index a nil value
            // (global 'x')`, `main.lua:66: attempt to index ? (a nil value)` quoted in a crash table,
            // Neovim's `E5108: Error executing lua …/init.lua:5: attempt to call field 'setup' (a nil value)`).
            Shape(family: .managedException, anchor: .parser(LuaError.isPlacedError), needs: [".lua:"]),
            // The Dart VM's (`Unhandled exception:` alone, the exception on the next line, then `#0      main
            // (file:///…/bin/app.dart:5:12)`) and Crystal's (`Unhandled exception: Index out of bounds
            // (IndexError)`) for an exception nothing caught.
            Shape(family: .managedException, anchor: .starts("Unhandled exception:")),
            // Julia's for an error that ended the script or the REPL's command (`ERROR: LoadError:
            // BoundsError: attempt to access …`, `ERROR: SystemError: opening file …`), over `Stacktrace:`.
            Shape(family: .managedException, anchor: .parser(JuliaError.isError), needs: ["ERROR: "]),
            // R's error that halted a script (`Error in if (cur > 0) { : the condition has length > 1`,
            // `Error in density.default(…) :` with the message on the next line), and its last line.
            Shape(family: .managedException, anchor: .parser(RError.isError), needs: ["Error in "]),
            Shape(family: .processExit, anchor: .parser { $0.trimmedBlanks == "Execution halted" }, needs: ["Execution halted"]),
            // Clojure's (1.10 on) for an error that ended the program, its message on the next line:
            // `Execution error (NullPointerException) at tech.jna.base/fn (base.clj:35).`, `Syntax error
            // (ClassNotFoundException) compiling at (driver/sqlite_test.clj:230:16).`, before `Full report at:`.
            Shape(family: .managedException, anchor: .parser(ClojureError.isError), needs: ["Execution error", "Syntax error"]),
            // Nim's for an exception nothing caught (`Error: unhandled exception: index 5 not in 0 .. 2 [IndexDefect]`).
            Shape(family: .managedException, anchor: .contains("Error: unhandled exception: ")),
            // Perl's fatal errors (perldiag's `(F)` class), which end the script: `Can't locate object
            // method "new" via package "Foo" at script.pl line 12.`, `Can't call method "x" on an undefined
            // value at …`, `Died at x.pl line 3.`
            Shape(family: .managedException, anchor: .parser(PerlDie.isFatal), needs: [" line "]),
            // libc's stack protector and fortify checks before they abort (glibc's `__fortify_fail`:
            // `*** stack smashing detected ***: terminated`, `*** buffer overflow detected ***: ./app
            // terminated`, `*** longjmp causes uninitialized stack frame ***`; bionic's `FORTIFY: memcpy:
            // prevented 8-byte write into 4-byte buffer`).
            Shape(
                family: .assertion,
                anchor: .parser { text in
                    // (Its own words wherever they stand: after `**\*` a Markdown paste escaped, cut before the
                    // stars, `*** … *** : <unknown> terminated` with a blank.)
                    text.hasBytePrefix("FORTIFY: ") || text.containsBytes("stack smashing detected")
                        || (text.containsBytes("***")
                            && ["buffer overflow detected **", "longjmp causes uninitialized stack frame **"].contains {
                                text.containsBytes($0)
                            })
                },
                needs: ["FORTIFY: ", "smashing detected", "overflow detected", "uninitialized stack frame"]),
            // Rust's allocation-failure handler before it aborts (`memory allocation of 23400000000 bytes
            // failed`), and PHP's allocator finding its heap damaged (`zend_mm_heap corrupted`).
            Shape(
                family: .resource,
                anchor: .parser { $0.containsBytes("memory allocation of ") && $0.containsBytes(" bytes failed") },
                needs: ["memory allocation of "]),
            Shape(family: .assertion, anchor: .contains("zend_mm_heap corrupted")),
            // CPython's dump of an exception it could not print (`sys.stderr` lost, as a windowed
            // app's is): `object repr     : RecursionError('maximum recursion depth exceeded …')`.
            Shape(
                family: .managedException,
                anchor: .parser { text in
                    text.hasBytePrefix("object repr") && (text.containsBytes("Error(") || text.containsBytes("Exception("))
                },
                needs: ["object repr"]),
            // The .NET runtime's last words for a stack overflow (`Stack overflow.`, then `Repeat 10960 times:`
            // and the repeated frames between dashed lines), before it ends the process.
            Shape(family: .resource, anchor: .parser { $0.trimmedBlanks == "Stack overflow." }, needs: ["Stack overflow."]),
            // AVFoundation's audio classes raise `com.apple.coreaudio.avfaudio` with the condition their
            // check found false (`required condition is false: IsFormatSampleRateAndChannelCountValid(format)`),
            // as the console, a crash service and an app's own report quote it.
            Shape(family: .assertion, anchor: .contains("required condition is false: ")),
            Shape(
                family: .managedException, anchor: .parser { CrashMessageGrammar.isGameMakerHeading(String($0.trimmedBlanks)) },
                needs: ["FATAL ERROR in", "ERROR in action number "]),
            // Rust's panic hooks for applications (color-eyre's, color-backtrace's): the heading, then the
            // message and the place on the lines under it.
            Shape(family: .assertion, anchor: .starts(CrashMessageGrammar.rustPanicHookHeading)),
            // The system refusing to start a program, in its starter's words (`zsh: bad CPU type in
            // executable: ./tool`, `exec /app: exec format error`, `[Errno 86] Bad CPU type …`).
            Shape(family: .execRefused, anchor: .parser { ExecRefusalFact.parse($0) != nil }, needs: ExecRefusalFact.needs),
            // Android's debuggerd quoting what the process passed to abort (`Abort message:
            // 'java_vm_ext.cc:542] JNI DETECTED ERROR IN APPLICATION: obj == null'`), and ART's CheckJNI
            // stopping the app for a JNI call that broke its rules.
            Shape(family: .libraryMisuse, anchor: .contains("JNI DETECTED ERROR IN APPLICATION")),
            Shape(family: .assertion, anchor: .starts("Abort message: ")),
            // InnoDB's (MySQL's, MariaDB's) assertion before it crashes mysqld on purpose (`InnoDB:
            // Assertion failure in file …/btr0pcur.cc line 521`, `InnoDB: Failing assertion: …`).
            Shape(family: .assertion, anchor: .contains("Assertion failure in file ")),
            Shape(family: .assertion, anchor: .contains("Failing assertion: ")),
            // systemd-coredump's line for a process that dumped core (`Process 797 (swww) of user 1000
            // dumped core.`), before the stack it took.
            Shape(
                family: .processExit,
                anchor: .parser { $0.containsBytes(" dumped core") && $0.containsBytes("Process ") && $0.containsBytes(" of user ") },
                needs: [" dumped core"]),
            // Node's `throw er; // Unhandled 'error' event`: an EventEmitter's error nothing listened for.
            Shape(family: .managedException, anchor: .contains("Unhandled 'error' event")),
            // Emscripten's runtime stopping a WebAssembly module (`RuntimeError: abort(OOM). Build with
            // -s ASSERTIONS=1 for more info.`, newer `Aborted(OOM)`): out of its memory, or another abort.
            Shape(
                family: .resource, anchor: .parser { $0.containsBytes("abort(OOM)") || $0.containsBytes("Aborted(OOM)") }, needs: ["(OOM)"]),
            // A game engine's or a visual novel engine's words that the game stopped on an error
            // (Minecraft's `The game crashed whilst ticking entity`, Ren'Py's `I'm sorry, but an
            // uncaught exception occurred.`).
            Shape(family: .processExit, anchor: .contains("The game crashed whilst ")),
            Shape(family: .managedException, anchor: .contains("an uncaught exception occurred")),
            // The .NET runtime's last words, as the event log's `.NET Runtime` entry and the console
            // print them (`The process was terminated due to an internal error in the .NET Runtime at
            // IP … with exit code 80131506.`, `… due to an unhandled exception.`, `… due to a stack overflow.`).
            Shape(family: .processExit, anchor: .contains("The process was terminated due to ")),
            // Android's WebView ending the app whose renderer died (`Render process's crash wasn't
            // handled by all associated webviews, triggering application crash.`).
            Shape(family: .processExit, anchor: .contains("crash wasn't handled by all associated webviews")),
            // A test tool's words that the process under test died (XCTest, xcodebuild).
            Shape(family: .processExit, anchor: .contains("Restarting after unexpected exit, crash, or test timeout")),
            Shape(family: .processExit, anchor: .contains("Early unexpected exit, operation never finished bootstrapping")),
            Shape(family: .processExit, anchor: .contains("Test crashed with signal ")),
            Shape(family: .processExit, anchor: .contains("test runner exited with code ")),
            // A tool's helper process that died under it, in the tool's words: Interface Builder's
            // `The agent crashed`, Xcode's `The LLDB RPC server has crashed`, `SourceKit Service
            // Terminated`, a daemon's or an extension's `… has quit unexpectedly`.
            Shape(family: .processExit, anchor: .parser(HelperExit.isHelperExit), needs: HelperExit.needs),
            // MPICH's launcher (Hydra) for a rank that died, in its banner (`=   BAD TERMINATION OF
            // ONE OF YOUR APPLICATION PROCESSES`, the exit code and signal on the lines after).
            Shape(family: .processExit, anchor: .contains("BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES")),
            // SpringBoard's words when it ends an app whose background task outlived its time (the
            // termination description of iOS's older reports).
            Shape(family: .resource, anchor: .contains("has active assertions beyond permitted time")),
            // Metal's log of a command buffer the GPU gave up on (`Execution of the command buffer
            // was aborted due to an error during execution. Caused GPU Hang Error (IOAF code 3)`,
            // `… Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)`): the
            // GPU's watchdog or its memory, a limit the app's GPU work ran into
            // (MTLCommandBufferError); the frames drawn after it are often empty or the process ends.
            Shape(family: .resource, anchor: .contains("Execution of the command buffer was aborted due to an error during execution")),
            // The system's own words about the process.
            Shape(
                family: .malloc, anchor: .parser(isMallocError),
                needs: ["malloc: ", "*** error for object ", "can't allocate region", "mach_vm_map("]),
            // glibc's allocator stopping the process for a corrupted heap (`free(): invalid pointer`,
            // `double free or corruption (out)`, older glibc's `*** glibc detected *** prog: free():
            // invalid next size (fast): 0x… ***` and `*** Error in `prog': …`).
            Shape(family: .malloc, anchor: .parser(GlibcMallocError.isError), needs: GlibcMallocError.needs),
            // Chromium's malloc error hook (nw.js, Electron, CEF helpers) ends the process after
            // libmalloc's report: `Terminating process due to a potential for future heap corruption`.
            Shape(family: .malloc, anchor: .contains("due to a potential for future heap corruption")),
            Shape(family: .dyld, anchor: .contains("Library not loaded: ")),
            Shape(family: .dyld, anchor: .contains("Symbol not found: ")),
            // dyld's line, not the configuration it prints (`dyld: dyld4 config: DYLD_ROOT_PATH=…`, a
            // simulator report's Application Specific Information), which states no failure.
            Shape(
                family: .dyld,
                anchor: .parser { text in
                    guard text.hasBytePrefix("dyld: ") else { return false }
                    let rest = text.dropFirst(6).drop { $0 == " " }
                    let word = rest.prefix { $0 != " " }
                    return !(word.hasBytePrefix("dyld") && rest.dropFirst(word.count).hasBytePrefix(" config:"))
                }, needs: ["dyld: "]),
            // dyld's stop when code calls a weakly linked symbol the OS does not have (the stub it
            // binds such a symbol to, `__dyld_missing_symbol_abort`), as crash services title it.
            Shape(family: .dyld, anchor: .contains("missing symbol called")),
            // TCC's sentence opens this way; consoles wrap the rest over the next lines.
            Shape(family: .privacy, anchor: .contains("This app has crashed because it attempted to access")),
            Shape(family: .resource, anchor: .starts("EXC_RESOURCE")),
            // The memory limit as the system names it wherever a line quotes it (`RESOURCE_TYPE_MEMORY`,
            // jetsam's `per-process-limit` reason).
            Shape(family: .resource, anchor: .contains("RESOURCE_TYPE_MEMORY")),
            Shape(family: .resource, anchor: .contains("per-process-limit")),
            Shape(family: .resource, anchor: .contains("due to memory issue")),
            Shape(family: .resource, anchor: .contains("exceeding jetsam memory limit")),
            // A runtime's memory limit or an allocation that failed, in its words: PHP's `Allowed memory
            // size of 134217728 bytes exhausted (tried to allocate 40000 bytes)`, the Erlang VM's crash
            // dump slogan `eheap_alloc: Cannot allocate 8162366936 bytes of memory (of type "heap").`.
            Shape(
                family: .resource,
                anchor: .parser { text in
                    if let size = text.byteRange(of: "Allowed memory size of ") {
                        return text[size.upperBound...].containsBytes(" exhausted")
                    }
                    guard let cannot = text.byteRange(of: "Cannot allocate ") else { return false }
                    return text[cannot.upperBound...].containsBytes(" bytes of memory")
                },
                needs: ["Allowed memory size of ", "Cannot allocate "]),
            // systemd's watchdog ending a service that stopped answering (`Active: failed (Result:
            // watchdog)`, `Watchdog timeout (limit 10s)!`).
            Shape(
                family: .resource,
                anchor: .parser { $0.containsBytes("(Result: watchdog)") || $0.containsBytes("Watchdog timeout (limit ") },
                needs: ["(Result: watchdog)", "Watchdog timeout (limit "]),
            // Android's ActivityManager when an app stopped answering (`ANR in com.example.app
            // (com.example.app/.MainActivity)`), after which the system offers to close it.
            Shape(
                family: .resource, anchor: .parser { $0.hasBytePrefix("ANR in ") && $0.dropFirst(7).first?.isLetter == true },
                needs: ["ANR in "]),
            // Linux's OOM killer (`Out of memory: Killed process 1440763 (perl) total-vm:…`, a memory
            // cgroup's `Memory cgroup out of memory: Killed process …`, older kernels' `Kill process`;
            // not its `invoked oom-killer` line, which names the process that asked), and a container it killed as Kubernetes and
            // Docker report it (`OOMKilled`; not Docker's `"OOMKilled": false`).
            Shape(
                family: .resource,
                anchor: .parser { text in
                    if let found = text.byteRange(of: "out of memory: Kill", ignoringASCIICase: true) {
                        return text[found.upperBound...].hasBytePrefix("ed process ")
                            || text[found.upperBound...].hasBytePrefix(" process ")
                    }
                    guard let killed = text.byteRange(of: "OOMKilled") else { return false }
                    let after = text[killed.upperBound...].drop { $0 == "\"" || $0 == ":" || $0 == " " }
                    return !after.hasBytePrefix("false")
                },
                needs: ["ut of memory: Kill", "OOMKilled"]),
            // The system's sentence when it ends an app for its memory (iOS's alert and Xcode's
            // console: `The app “X” has been killed by the operating system because it is using too
            // much memory.`, `… was terminated due to memory pressure`).
            Shape(
                family: .resource,
                anchor: .parser { text in
                    let lower = text.lowercased()
                    return (lower.containsBytes("too much memory") || lower.containsBytes("memory pressure"))
                        && (lower.containsBytes("killed") || lower.containsBytes("terminated"))
                },
                needs: ["too much memory", "memory pressure"]),
            // Diagnostics the process keeps running after, each printing a backtrace.
            Shape(family: .diagnostic, anchor: .starts("Thread Performance Checker: ")),
            Shape(family: .diagnostic, anchor: .contains("_simulate_crash")),
            Shape(family: .diagnostic, anchor: .contains(", dumping backtrace:")),
            // A framework's warning that introduces the backtrace of where the misuse began (Core
            // Animation's `CoreAnimation: warning, deleted thread with uncommitted CATransaction;
            // created by:`): the frames are the warning's, not a crash's.
            Shape(family: .diagnostic, anchor: .parser(isWarningWithBacktrace), needs: ["warning", "Warning", "WARNING"]),
            // The Linux kernel's `WARN()` (`WARNING: CPU: 0 PID: 424 at arch/x86/mm/extable.c:126
            // ex_handler_uaccess+0x4d/0x60`), under `------------[ cut here ]------------`, with the
            // registers and the call trace: the kernel goes on after it.
            Shape(
                family: .diagnostic,
                anchor: .parser { $0.hasBytePrefix("WARNING: CPU: ") && $0.containsBytes(" PID: ") && $0.containsBytes(" at ") },
                needs: ["WARNING: CPU: "]),
            // Its watchdogs' reports of a task or a CPU that made no progress (`INFO: task kworker:64
            // blocked for more than 120 seconds.`, `watchdog: BUG: soft lockup - CPU#0 stuck for 22s!`,
            // `rcu: INFO: rcu_sched self-detected stall on CPU`), each with a call trace: the kernel
            // goes on (unless a panic line says it did not).
            Shape(
                family: .diagnostic,
                anchor: .parser { text in
                    (text.hasBytePrefix("INFO: task ") && text.containsBytes(" blocked for more than "))
                        || text.containsBytes("BUG: soft lockup - CPU#") || text.containsBytes(" self-detected stall on CPU")
                        || text.containsBytes(" detected stalls on CPUs")
                },
                needs: ["INFO: task ", "BUG: soft lockup", "stall on CPU", "stalls on CPUs"]),
            Shape(family: .machException, anchor: .parser { MachExceptionLine.parse($0) != nil }, needs: ["EXC_", "exc_"]),
            // Named inside a sentence (`crash inside X with \`EXC_BAD_ACCESS (SIGBUS)\``, `thread 1:
            // EXC_breakpoint code=1`): a Mach exception type is a crash fact wherever it stands.
            Shape(
                family: .machException, anchor: .parser { $0.utf8.count <= 4_096 && MachExceptionLine.namedInSentence($0) },
                needs: ["EXC_", "exc_"]),
            Shape(family: .signal, anchor: .parser { SignalLine.signal(in: $0) != nil }, needs: SignalLine.words),
            // A framework's exception reason printed alone, in the words the throw-site catalogue
            // has for it (`Application tried to present modally a view controller … that is already
            // being presented by …`, `failed to obtain a cell from its dataSource`).
            Shape(
                family: .objcException, anchor: .parser { stage in ThrowSiteCatalog.statedReasons.contains { stage.containsBytes($0) } },
                needs: ThrowSiteCatalog.statedReasons),
            // Any other framework's words that a main-thread-only call came from another thread (`NSWindow
            // drag regions should only be invalidated on the Main Thread!`, `Call must be made on main thread`).
            Shape(family: .threadChecker, anchor: .parser(MainThreadRequirement.isStatement), needs: MainThreadRequirement.literals),
            // Functions that exist to be the frame a stop is seen in, named anywhere in a text
            // (`+[NSManagedObjectContext __Multithreading_Violation_AllThatIsLeftToUsIsHonor__]`,
            // TCC's `__TCC_CRASHING_DUE_TO_PRIVACY_VIOLATION__`, before iOS 13 `__CRASHING_DUE_TO_PRIVACY_VIOLATION__`).
            Shape(family: .assertion, anchor: .contains("__Multithreading_Violation_AllThatIsLeftToUsIsHonor__")),
            Shape(family: .privacy, anchor: .contains("CRASHING_DUE_TO_PRIVACY_VIOLATION__")),
        ]

    /// The message a line states: its family and the line's form it was found in (log prefixes
    /// removed one at a time until a shape matches).
    static func match(_ line: String) -> (family: StatedMessage.Family, text: Substring)? {
        guard line.utf8.count <= FactReading.messageLineLength else { return nil }
        // Every form of the line is the line's text or a part of it (emphasis marks aside, which
        // no anchor holds): a literal the line lacks is in none of them, and a line with none of
        // the literals any shape needs is no message.
        let present = anchorIndex.found(in: line)
        guard present.contains(true) else { return nil }
        // The shapes one of whose literals the line holds, in order, decided once for every form
        // of the line (most lines leave a handful of the hundreds).
        // (A shape that names no literal is tried whenever another's is there.)
        var held = Set<Int>()
        for (id, isPresent) in present.enumerated() where isPresent { held.formUnion(shapesRequiring[id]) }
        guard !held.isEmpty else { return nil }
        let candidates = (held.union(shapesRequiringNothing)).sorted()
        if let found = match(line, present: present, candidates: candidates) { return found }
        // A runtime's line written while another program's line was unfinished (a test runner's
        // `testX (Suite) ... ` before its verdict, a progress line): the message starts at a
        // process tag inside the line (`… objc[71133]: Attempt to use unknown class 0x….`). The
        // whole line's literals stand for the part's: each shape still checks its own text.
        for start in LogPrefix.interleavedStarts(in: line) {
            if let found = match(String(line[start...]), present: present, candidates: candidates) { return found }
        }
        // The program's own output left without its line break, then a runtime's last words
        // (`Reading in tax DB...terminate called after throwing an instance of 'std::bad_alloc'`,
        // `Applying standard filter. terminate called …`): a literal some shape needs, where a
        // sentence of the program's ended just before it.
        for start in unfinishedOutputStarts(in: line, present: present) {
            if let found = match(String(line[start...]), present: present, candidates: candidates) { return found }
        }
        return nil
    }

    /// Where a message may start inside `line` after output the program did not end with a line
    /// break: the first occurrence of each literal the line holds that begins with a letter, past
    /// the line's start, right after the end of a sentence (`.`, `…`, `!`, `?`, `)`, `]`, then blanks
    /// or not). At most three, in the line's order.
    static func unfinishedOutputStarts(in line: String, present: [Bool]) -> [String.Index] {
        var starts: Set<String.Index> = []
        for (id, literal) in anchorLiterals.enumerated() where present[id] && literal.first?.isLetter == true {
            guard let range = line.byteRange(of: literal), range.lowerBound > line.startIndex else { continue }
            let before = line[..<range.lowerBound].reversed().drop { $0 == " " || $0 == "\t" }
            guard let last = before.first, ".…!?)]".contains(last) else { continue }
            starts.insert(range.lowerBound)
        }
        return Array(starts.sorted().prefix(3))
    }

    private static func match(_ line: String, present: [Bool], candidates: [Int]) -> (family: StatedMessage.Family, text: Substring)? {
        let all = LogPrefix.stages(of: line)
        let closingQuote = all.first.flatMap { LogPrefix.closingQuote(of: $0) }
        let stages = all.enumerated().filter { !$0.element.isEmpty }.map { position, found in
            // The closing marks of Markdown emphasis (`**Fatal Exception: X**`), and the quote
            // that closes a line quoted whole.
            var stage = found
            if let closingQuote, position > 0, stage.hasSuffix(String(closingQuote)), stage.count > 1 {
                stage = stage.dropLast()
            }
            // (A banner's closing stars, `*** caught segfault ***`, stay.)
            while stage.hasSuffix("**"), !stage.hasSuffix(" ***"), stage.count > 2 { stage = stage.dropLast(2) }
            if stage.hasBytePrefix("**"), let next = stage.dropFirst(2).first, next != "*", next != " " {
                // Emphasis inside too (`**EXC_BAD_INSTRUCTION** in **main**`): the words without it.
                stage = Substring(stage.replacingOccurrences(of: "**", with: ""))
            }
            return stage
        }
        for (position, stage) in stages.enumerated() {
            guard let shape = candidates.first(where: { Self.shape($0, matches: stage, present: present) }) else { continue }
            // The message without the log prefixes a shape read through (`18:38:17.092 [app][e]
            // X.swift:49: Precondition failed: …`): the shortest form the same shape still reads.
            // Not past a lowercase label no other prefix shape explains (`malloc: `, `dyld: `): it
            // may be the message's own first word.
            var shortest = stage
            var previous = stage
            for candidate in stages[(position + 1)...] {
                if LogPrefix.isStreamLabelOnly(previous) { break }
                if stage.hasSuffix(candidate), Self.shape(shape, matches: candidate, present: present) { shortest = candidate }
                previous = candidate
            }
            return (shapes[shape].family, withoutFrameOffset(shortest))
        }
        return nil
    }

    /// The compiler's trap name printed as a frame without its address (`Swift runtime failure:
    /// Index out of range + 0`): the words without the frame's offset.
    static func withoutFrameOffset(_ text: Substring) -> Substring {
        guard text.hasBytePrefix(AppLine.runtimeFailurePrefix), let plus = text.range(of: " + ", options: .backwards),
            !text[plus.upperBound...].isEmpty, text[plus.upperBound...].allSatisfy({ $0.isASCII && $0.isNumber })
        else { return text }
        return text[..<plus.lowerBound]
    }

    /// The standard library's precondition messages that name their check, printed alone by
    /// crash services and by the 5.0–5.3 runtime's `MESSAGE: file F, line N` form: the messages
    /// of `Array`'s, `Range`'s and `Dictionary`'s checks (`Index out of range`, `Can't form
    /// Range with upperBound < lowerBound`, `Range requires lowerBound <= upperBound`,
    /// `Duplicate keys of type 'K' were found in a Dictionary`).
    static let standardLibraryChecks = [
        "Index out of range", "Array index is out of range", "Can't form Range with upperBound < lowerBound",
        "Range requires lowerBound <= upperBound", "Duplicate keys of type ", "Negative count not allowed",
        "Not enough bits to represent the passed value", "Division by zero", "Double value cannot be converted to Int",
        "Float value cannot be converted to Int",
        // More of the standard library's checks (stdlib/public/core: Collection.swift,
        // RangeReplaceableCollection.swift, ArrayShared.swift, Integers.swift, StringIndex…,
        // NativeDictionary.swift), as crash services title them.
        "Range out of bounds", "Index out of bounds", "String index is out of bounds", "Invalid slice",
        "Can't remove last element from an empty collection", "Can't remove first element from an empty collection",
        "Can't remove more items from a collection than it has", "Can't remove more items from a collection than it contains",
        "Can't construct Array with count < 0", "Can't drop a negative number of elements", "Can't take a prefix of negative length",
        "Can't take a suffix of negative length", "Division results in an overflow", "Negative value is not representable",
        "Dictionary literal contains duplicate keys", "unexpected enum case",
    ]

    /// Lines that continue the message above them whatever its family: the Swift runtime's
    /// exclusivity report is three lines (`Simultaneous accesses to 0x…`, then `Previous access
    /// (a modification) started at <frame> (0x…).` and `Current access (a read) started at:`,
    /// stdlib/public/runtime/Exclusivity.cpp), and the first access's frame is in the second.
    /// Key-value observing's reason for a change nobody handled goes on with the change's
    /// details, one per line (`Key path: isOffline`, `Observed object: <AppDelegate: 0x…>`).
    /// How Xlib's default error handler opens its report before it exits the program.
    static let xlibFailedRequest = "X Error of failed request:"

    /// Xlib's report of a failed request goes on with the request, one field a line (`Major opcode
    /// of failed request:  12 (X_ConfigureWindow)`), GTK's with the error it names.
    static let continuationOpenings = [
        "Previous access (a ", "Current access (a ", "Key path: ", "Observed object: ", "Change: ", "Context: ",
        "Major opcode of failed request:", "Minor opcode of failed request:", "Resource id in failed request:",
        "Value in failed request:", "The error was '",
    ]

    /// Rust's panic line since 1.73 ends at its place (`thread 'main' panicked at src/lib.rs:10:5:`);
    /// the message is the next line. A panic hook's heading (`rustPanicHookHeading`) has the message
    /// and the place under it.
    static func panicAwaitsMessage(_ text: String) -> Bool {
        if text.containsBytes("\n") { return false }
        // The Dart VM's heading, and R's error whose message went to the next line (`Error in f(x) :`).
        if text == "Unhandled exception:" || (text.hasBytePrefix("Error in ") && text.hasSuffix(":")) { return true }
        if ClojureError.isError(Substring(text)) { return true }
        return (RustPanicMessage.panickedMarker(in: Substring(text)) != nil && text.hasSuffix(":")) || text == rustPanicHookHeading
    }

    /// color-eyre's and color-backtrace's heading for a panic, over `Message:  …` and `Location: …`
    /// (or the message, then `in src/app.rs:774`).
    static let rustPanicHookHeading = "The application panicked (crashed)."

    /// Whether a line under a heading that prints its message below goes on with it: a panic hook's
    /// message and place, GameMaker's event and object, then its message (`continuesGameMakerHeading`).
    static func continuesHeading(_ text: String, line: Substring, lines: Int) -> Bool {
        if isGameMakerHeading(text) { return continuesGameMakerHeading(text, line: line, lines: lines) }
        guard text.hasBytePrefix(rustPanicHookHeading), lines < 2, !line.trimmedBlanks.isEmpty else { return false }
        return lines == 0 || line.hasBytePrefix("in ") || line.hasBytePrefix("Location:") || line.hasBytePrefix("at ")
    }

    /// GameMaker's runner for an error in a game's code: `FATAL ERROR in` (or `ERROR in action number
    /// 1`), the action, the event and the object on the lines under it, then after a blank line the
    /// error itself (`Variable obj_player.xx(100007, -2147483648) not set before reading it.`,
    /// `Unable to find any instance for object index '308' name 'objTitlecard'`).
    static func isGameMakerHeading(_ text: String) -> Bool {
        text == "FATAL ERROR in" || text.hasBytePrefix("FATAL ERROR in ") || text.hasBytePrefix("ERROR in action number ")
    }

    static func continuesGameMakerHeading(_ text: String, line: Substring, lines: Int) -> Bool {
        guard lines < 6, !line.trimmedBlanks.isEmpty else { return false }
        // The heading's own lines, then the one line of the error after `for object X:`.
        return line.hasBytePrefix("action number ") || line.hasBytePrefix("of ") || line.hasBytePrefix("for object ") || text.hasSuffix(":")
    }

    /// A message still waiting for its words past a blank line (GameMaker's, after `for object X:`).
    static func awaitsMessageAcrossBlank(_ text: String) -> Bool { isGameMakerHeading(text) && text.hasSuffix(":") }

    static func continues(_ line: Substring) -> Bool {
        continuationOpenings.contains { line.hasBytePrefix($0) }
    }

    /// `FILE:LINE: assertion EXPR failed: MESSAGE`, libc++'s `_LIBCPP_ASSERT` as its verbose abort prints it.
    static let isLibcxxAssertion: @Sendable (Substring) -> Bool = { text in
        guard let marker = text.byteRange(of: ": assertion "), text[marker.upperBound...].containsBytes(" failed") else { return false }
        let place = text[..<marker.lowerBound]
        let digits = place.reversed().prefix { $0.isASCII && $0.isNumber }
        return !digits.isEmpty && place.dropLast(digits.count).hasSuffix(":") && place.dropLast(digits.count + 1).containsBytes("/")
    }

    static let isStandardLibraryCheck: @Sendable (Substring) -> Bool = { text in
        standardLibraryChecks.contains { text.hasBytePrefix($0) }
    }

    /// A reason Foundation's collections and key-value coding raise with: it opens as they do
    /// (the method, `*** `, the collection) and says what its reason class says
    /// (`UncaughtExceptionFact.ReasonClass`: nil inserted, index beyond bounds, mutated while
    /// enumerated, not key value coding-compliant).
    static let isFoundationReason: @Sendable (Substring) -> Bool = { text in
        var body = text
        if body.hasBytePrefix("'") { body = body.dropFirst() }
        if body.hasBytePrefix("*** ") { body = body.dropFirst(4) } else if body.hasBytePrefix("**\\* ") { body = body.dropFirst(5) }
        let opens = body.hasBytePrefix("-[") || body.hasBytePrefix("+[") || body.hasBytePrefix("[") || body.hasBytePrefix("Collection <")
        guard opens, body.count <= 1_000 else { return false }
        return UncaughtExceptionFact.ReasonClass(reason: String(body)) != nil
    }

    /// Foundation's own format for the reasons it raises with: `*** -[Class selector]: what`, the
    /// method's closing `]: ` and words after it, wherever the line quotes it; or the method then a
    /// blank and a refusal (`*** -[AVAssetWriterInput appendSampleBuffer:] Cannot append …`).
    static let isMethodReason: @Sendable (Substring) -> Bool = { text in
        guard text.utf8.count <= 2_000 else { return false }
        // After Foundation's stars anywhere, or opening the line (`[AVAssetWriterInput
        // appendSampleBuffer:] Cannot append …`, the stars and the sign lost in a paste).
        let leading = ["-[", "+[", "["].first { text.hasBytePrefix($0) }
        for opening in ["* -[", "* +["] + (leading.map { [$0] } ?? []) {
            guard let start = text.byteRange(of: opening) else { continue }
            let method = text[start.upperBound...]
            // `]: ` closes the method in Foundation's format; some frameworks put only a blank there
            // (`*** -[AVAssetWriterInput appendSampleBuffer:] Cannot append sample buffer: …`).
            guard let close = method.firstIndex(of: "]") else { continue }
            let name = method[..<close]
            guard name.contains(" "), !name.contains("["), name.first.map({ $0.isLetter || $0 == "_" }) == true else { continue }
            var rest = method[method.index(after: close)...]
            if rest.hasBytePrefix(": ") { return rest.contains { $0.isLetter } }
            // Without the colon, only a refusal: Foundation logs warnings in the same format
            // (`*** -[NSKeyedUnarchiver validateAllowedClass:forKey:] allowed unarchiving … This
            // will be disallowed in the future.`).
            guard rest.hasBytePrefix(" ") else { continue }
            rest = rest.dropFirst()
            return refusals.contains { rest.hasBytePrefix($0) }
        }
        return false
    }

    /// glibc's `assert` message, `[prog: ]file:line: [function: ]Assertion `expr' failed.`: the
    /// expression quoted between a backquote and a quote, a source place before it.
    static let isGlibcAssertion: @Sendable (Substring) -> Bool = { text in
        guard let marker = text.byteRange(of: "Assertion `") else { return false }
        let rest = text[marker.upperBound...].trimmedBlanks
        guard rest.hasSuffix("' failed.") || rest.hasSuffix("' failed") else { return false }
        // The place: `file:line:` before it (a digit run between colons).
        let before = text[..<marker.lowerBound]
        return before.split(separator: ":").contains { part in !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    /// glibc's `Fatal glibc error: FILE:LINE (FUNCTION): assertion failed: EXPRESSION`.
    static let isGlibcInternalAssertion: @Sendable (Substring) -> Bool = { text in
        guard text.hasBytePrefix("Fatal glibc error: "), let marker = text.byteRange(of: "): assertion failed: ") else { return false }
        return !text[marker.upperBound...].trimmedBlanks.isEmpty
    }

    /// A bracketed tag that names the `FATAL` level and a source place (`[…FATAL:file.cc(123)]`), then words.
    static let isChromiumFatalLog: @Sendable (Substring) -> Bool = { text in
        guard text.hasBytePrefix("["), let close = text.prefix(300).firstIndex(of: "]") else { return false }
        let tag = text[..<close]
        guard let level = tag.byteRange(of: "FATAL:"), tag.hasSuffix(")"), tag[level.upperBound...].contains("(") else { return false }
        return text[text.index(after: close)...].contains(where: \.isLetter)
    }

    /// `error: <part>: detected …`: the part one word (`task-local`, `TaskGroup`, `withTaskGroup`).
    static let isConcurrencyRuntimeCheck: @Sendable (Substring) -> Bool = { text in
        guard text.hasBytePrefix("error: "), let marker = text.byteRange(of: ": detected ") else { return false }
        let part = text[text.index(text.startIndex, offsetBy: 7)..<marker.lowerBound]
        return !part.isEmpty && part.count <= 40 && !part.contains(" ") && part.first?.isLetter == true
    }

    /// A warning line that ends by introducing a backtrace (`…; created by:`, `… backtrace:`,
    /// `… stack:`), with no word of a crash in it.
    static let isWarningWithBacktrace: @Sendable (Substring) -> Bool = { text in
        guard text.utf8.count <= 1_000 else { return false }
        let lower = text.trimmedBlanks.lowercased()
        guard lower.containsBytes("warning"), lower.hasSuffix(":") else { return false }
        guard ["created by:", "backtrace:", "stack:", "stack trace:", "call stack:", "callstack:"].contains(where: { lower.hasSuffix($0) })
        else { return false }
        return !["crash", "fatal", "uncaught", "terminating", "abort"].contains { lower.containsBytes($0) }
    }

    /// `selector:: reason`: an Objective-C selector (letters, digits, `_` and colons, its last colon
    /// its own) opening the line, then `: ` and words.
    static let isSelectorReason: @Sendable (Substring) -> Bool = { text in
        guard let marker = text.byteRange(of: ":: ") else { return false }
        let selector = text[..<marker.lowerBound]
        guard selector.first.map({ $0.isLetter || $0 == "_" }) == true, selector.count <= 200,
            selector.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") }), !selector.containsBytes("::")
        else { return false }
        return text[marker.upperBound...].contains(where: \.isLetter)
    }

    /// Ruby's `rb_bug` line: `[BUG] ` opening the line or after the Ruby file's place (`…/library.rb:275: [BUG] …`).
    static let isRubyBug: @Sendable (Substring) -> Bool = { text in
        guard let marker = text.byteRange(of: "[BUG] ") else { return false }
        guard text[marker.upperBound...].first?.isLetter == true else { return false }
        return marker.lowerBound == text.startIndex || text[..<marker.lowerBound].hasSuffix(": ")
    }

    /// Go's runtime stops the process with `fatal error: ` and one of its own throws.
    static let isGoRuntimeThrow: @Sendable (Substring) -> Bool = { text in
        guard text.hasBytePrefix("fatal error: ") else { return false }
        let what = text.dropFirst(13)
        return goRuntimeThrows.contains { what.hasBytePrefix($0) }
    }

    /// The Go runtime's `throw` and `fatal` messages (runtime/map.go, proc.go, signal_unix.go, stack.go, malloc.go).
    static let goRuntimeThrows = [
        "concurrent map ", "all goroutines are asleep", "unexpected signal during runtime execution", "runtime: out of memory",
        "out of memory", "stack overflow", "morestack on g0", "fault", "sync: ", "runtime: ", "found bad pointer in Go heap",
        "unlock of unlocked lock", "non-Go code ",
    ]

    /// The words a reason that refuses its caller opens with.
    static let refusals = [
        "Cannot ", "Can't ", "Can not ", "Could not ", "Invalid ", "Unable ", "Must ", "Attempt", "Illegal ", "Not ", "No ",
        "Unsupported ", "Unknown ", "Unrecognized ", "Only ",
    ]

    /// libmalloc's errors (`malloc: *** error for object 0x…: pointer being freed was not
    /// allocated`, `malloc: Heap corruption detected`, `Incorrect checksum for freed object`), and
    /// its refusals of an allocation the system would not map (`malloc: can't allocate region`,
    /// `*** mach_vm_map(size=…) failed (error code=3)`, `*** error: can't allocate region`);
    /// its `set a breakpoint in malloc_error_break` hint is not one.
    static let isMallocError: @Sendable (Substring) -> Bool = { text in
        if text.containsBytes("can't allocate region") { return true }
        if text.containsBytes("mach_vm_map(size="), text.containsBytes(") failed") { return true }
        var body = text
        if body.hasBytePrefix("malloc: ") { body = body.dropFirst(8) } else if !body.hasBytePrefix("*** error for object ") { return false }
        if body.hasBytePrefix("*** set a breakpoint") { return false }
        return body.hasBytePrefix("*** ") || body.hasBytePrefix("Heap corruption") || body.hasBytePrefix("Incorrect checksum")
    }
}

/// A line reporting a failure that did not end the process, in the words of whoever survived it:
/// - a caught exception a library or the app logged (`Exception caught during invocation of reply
///   block …`, `Ignored Exception: …`, `Caught exception: …`, `exception ignored`);
/// - `dlopen`'s error string, which `dlopen` returns to its caller instead of stopping
///   (`dlopen(/path/x.dylib, 2): Symbol not found: _y`), as a plugin loader or a hot-reload tool logs it;
/// - a sanitizer's warning: ThreadSanitizer, UndefinedBehaviorSanitizer and the others print
///   `WARNING: ThreadSanitizer: data race` and go on (unlike AddressSanitizer's `ERROR:`, which
///   ends the process), UBSan's checks print `file:line:col: runtime error: …`.
/// A line that also says the exception was not caught (`uncaught`, `unhandled`, `Terminating app`)
/// is not one.
enum NonFatalReport {
    static let literals = [
        "xception", "dlopen(", "Sanitizer:", ": runtime error: ", "dyld", "Break ", " suppressed", " ignored",
        "BUG IN CLIENT OF libsqlite3", " thread aborted: ",
    ]

    /// A logged error's hint of where to break to debug it, on its line or the next.
    static func isBreakHint(_ text: Substring) -> Bool {
        (text.containsBytes("Break in ") || text.containsBytes("Break on "))
            && (text.containsBytes(" to debug") || text.containsBytes("to catch this in the debugger"))
            && !text.lowercased().containsBytes("crash")
    }

    static let isReport: @Sendable (Substring) -> Bool = { text in
        guard text.utf8.count <= 2_000 else { return false }
        // SQLite's log of a misuse it survives (`BUG IN CLIENT OF libsqlite3.dylib: database
        // integrity compromised by API violation: vnode unlinked while in use: …`): a fault the
        // library logs through os_log before it goes on, unlike libdispatch's, which traps.
        if text.containsBytes("BUG IN CLIENT OF libsqlite3") { return true }
        // OpenResty's error log when a request's Lua code raised (`*4 lua entry thread aborted:
        // runtime error: …/content.lua:130: attempt to index a nil value`, `lua user thread aborted:`):
        // the request's thread ended; nginx's worker answers it with an error and serves the next.
        if text.containsBytes("lua entry thread aborted: ") || text.containsBytes("lua user thread aborted: ") { return true }
        // dyld's warnings (`dyld: warning, LC_RPATH … being ignored in restricted program`,
        // `dyld[812]: warning: …`): the program goes on loading.
        if let dyld = text.byteRange(of: "dyld") {
            var rest = text[dyld.upperBound...]
            if rest.hasBytePrefix("[") { rest = rest.drop { $0 != "]" }.dropFirst() }
            if rest.hasBytePrefix(":"), rest.dropFirst().trimmedBlanks.lowercased().hasPrefix("warning") { return true }
        }
        // UIKit's logged errors name the function to break in (`… Break in
        // UIApplicationEndBackgroundTaskError() to debug.`, `Break on UIViewAlertForUnsatisfiableConstraints
        // to catch this in the debugger.`): it logs them and goes on.
        if isBreakHint(text) { return true }
        if text.containsBytes("Sanitizer: ") {
            return text.byteRange(of: "WARNING: ") != nil && !text.containsBytes("ERROR: ")
        }
        // A framework that refused a call and says it went on without it (AppKit's `… may not be
        // invoked inside of transaction begin/commit pair … The modal dialog has been suppressed to
        // avoid deadlock.`, `… will be ignored.`), often with the caller's backtrace after it.
        if ["has been suppressed", "was suppressed", "will be ignored", "is being ignored", "has been ignored", "was ignored"].contains(
            where: { text.containsBytes($0) })
        {
            let lower = text.lowercased()
            return !["crash", "fatal", "terminat", "abort", "uncaught"].contains { lower.containsBytes($0) }
        }
        if let marker = text.byteRange(of: ": runtime error: ") {
            // UBSan's `file.c:12:5: runtime error: …`, at a source place (Go's `panic: runtime
            // error: …` ends its process and is not one).
            let place = text[..<marker.lowerBound]
            let digits = place.reversed().prefix { $0.isASCII && $0.isNumber }
            return !digits.isEmpty && place.dropLast(digits.count).hasSuffix(":")
        }
        if let open = text.byteRange(of: "dlopen(") {
            // The error string's own layout: `dlopen(PATH, MODE): REASON`. Carried in a thrown
            // exception's message (.NET's `System.DllNotFoundException: Unable to load shared
            // library 'x' … dlopen(libx, 0x0001): tried: …`), it is that exception's, not a log.
            let head = text[..<open.lowerBound]
            if let named = head.byteRange(of: "Exception: "),
                !head[..<named.lowerBound].contains(where: { $0 == " " || $0 == "\t" }), head.first?.isLetter == true
            {
                return false
            }
            let rest = text[open.upperBound...]
            guard let close = rest.byteRange(of: "): ") else { return false }
            return rest[..<close.lowerBound].containsBytes(", ") && rest[close.upperBound...].contains { $0.isLetter }
        }
        let lower = text.lowercased()
        if lower.containsBytes("uncaught") || lower.containsBytes("unhandled") || lower.containsBytes("terminating app")
            || lower.containsBytes("fatal")
        {
            return false
        }
        return [
            "exception caught", "caught exception", "caught an exception", "exception was caught", "ignored exception",
            "ignoring exception", "exception ignored", "exception was ignored",
        ].contains { lower.containsBytes($0) } && !text.containsBytes("NSFetchedResultsController")
    }
}

/// A check's failure printed at its source place: `path/File.mm:332: runtime assert: message`,
/// `file.c:12: assertion failed: x`, `File.cpp:40:7: Assert failed`: a path with an extension and
/// a line (and maybe a column), then words that open with `assert`, `assertion` or `runtime assert`.
enum LocatedAssertion {
    /// `Assertion at PLACE…`, `Assertion: WORDS at PLACE`, `ASSERTION … PLACE`: a line that opens
    /// with the word (after a bullet or stars a logger puts before it) and names a source place
    /// (`file.ext:LINE`) in its first 400 characters.
    static let opensWithAssertion: @Sendable (Substring) -> Bool = { text in
        guard text.utf8.count <= 2_000 else { return false }
        var body = text.drop { $0 == "*" || $0 == " " || $0 == "!" || $0 == "-" }
        // The framework's name before it (JUCE's `JUCE Assertion failure in Plugin.h:83`).
        let owner = body.prefix { $0.isASCII && ($0.isLetter || $0.isNumber) }
        if owner.first?.isUppercase == true, owner.count <= 20, body.dropFirst(owner.count).first == " ",
            !owner.hasBytePrefix("Assertion"), !owner.hasBytePrefix("ASSERTION")
        {
            body = body.dropFirst(owner.count + 1)
        }
        guard body.hasBytePrefix("Assertion") || body.hasBytePrefix("ASSERTION") else { return false }
        let after = body.dropFirst(9)
        guard let next = after.first, next == " " || next == ":" else { return false }
        return hasSourcePlace(after.prefix(400))
    }

    /// A word `name.ext:LINE` (a short alphanumeric extension, digits after the colon).
    static func hasSourcePlace(_ text: Substring) -> Bool {
        var searched = text
        while let colon = searched.firstIndex(of: ":") {
            let digits = text[text.index(after: colon)...].prefix { $0.isASCII && $0.isNumber }
            let word = text[..<colon].reversed().prefix { $0 != " " && $0 != "(" && $0 != "'" && $0 != "`" && $0 != "\"" }
            let file = String(word.reversed()).split(separator: "/").last ?? ""
            if !digits.isEmpty, let dot = file.lastIndex(of: "."), file.distance(from: dot, to: file.endIndex) >= 2,
                file.distance(from: dot, to: file.endIndex) <= 6,
                file[file.index(after: dot)...].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
                dot > file.startIndex
            {
                return true
            }
            searched = text[text.index(after: colon)...]
        }
        return false
    }

    static let isAssertion: @Sendable (Substring) -> Bool = { text in
        guard text.utf8.count <= 2_000 else { return false }
        var searched = text[...]
        while let colon = searched.byteRange(of: ": ") {
            let before = text[..<colon.lowerBound]
            let after = text[colon.upperBound...].lowercased()
            if after.hasPrefix("runtime assert") || after.hasPrefix("assertion") || after.hasPrefix("assert") {
                // wxWidgets' and MSVC's `….ext(LINE)` just before (`src/osx/menuitem_osx.cpp(39): assert
                // "id != 0" failed in wxMenuItem(): …`).
                if before.hasSuffix(")"), let open = before.lastIndex(of: "("),
                    case let digits = before[before.index(after: open)..<before.index(before: before.endIndex)],
                    !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                    PastedFrameGrammar.isSourceFile(String(before[..<open].split(separator: "/").last ?? ""))
                {
                    return true
                }
                // `….ext:LINE` or `….ext:LINE:COL` just before.
                var place = before
                for _ in 0..<2 {
                    let digits = place.reversed().prefix { $0.isASCII && $0.isNumber }
                    guard !digits.isEmpty, place.dropLast(digits.count).hasSuffix(":") else { break }
                    place = place.dropLast(digits.count + 1)
                    let file = place.split(separator: "/").last ?? place
                    if let dot = file.lastIndex(of: "."), file.distance(from: dot, to: file.endIndex) <= 6,
                        file[file.index(after: dot)...].allSatisfy({ $0.isLetter || $0.isNumber }), !file.contains(" ")
                    {
                        return true
                    }
                }
            }
            searched = text[colon.upperBound...]
        }
        return false
    }
}

/// XCTest's line for an exception a test raised and nothing caught: `… : failed: caught
/// "NSInvalidArgumentException", "-[NSNull length]: unrecognized selector sent to instance 0x…"`.
enum CaughtExceptionLine {
    static func parse(_ text: Substring) -> (name: String, reason: String?)? {
        guard let marker = text.byteRange(of: "caught \"") else { return nil }
        let after = text[marker.upperBound...]
        guard let close = after.firstIndex(of: "\"") else { return nil }
        let name = after[..<close]
        guard name.count > 9, name.hasSuffix("Exception"), name.first?.isUppercase == true,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else { return nil }
        var rest = after[after.index(after: close)...]
        guard rest.hasBytePrefix(", \"") else { return (String(name), nil) }
        rest = rest.dropFirst(3)
        if rest.hasSuffix("\"") { rest = rest.dropLast() }
        return (String(name), rest.isEmpty ? nil : String(rest))
    }
}

/// A crash service's or a console's line naming an Objective-C exception first:
/// `NSInvalidArgumentException: reason`, `NSRangeException Cannot remove an observer …`,
/// `NSInternalInconsistencyException, reason: …`, or
/// the name alone with the reason on the next line. The name is an identifier ending in
/// `Exception` that starts with a capital (JVM names are dotted and are not Apple crashes).
enum ExceptionNameLine {
    static func parse(_ whole: Substring) -> (name: String, reason: String?)? {
        let text = withoutIssueNumber(whole)
        let name = text.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        guard name.count > 9, name.hasSuffix("Exception"), name.first?.isUppercase == true else { return nil }
        var rest = text.dropFirst(name.count)
        if rest.isEmpty { return (String(name), nil) }
        // HockeyApp's and some loggers' `NAME, reason: …`.
        if rest.hasBytePrefix(", reason:") {
            rest = rest.dropFirst(9)
        } else if rest.hasBytePrefix(":") {
            rest = rest.dropFirst()
        } else if !rest.hasBytePrefix(" ") {
            return nil
        }
        var reason = rest.trimmedBlanks
        // A dash between the name and the reason (`NAME - reason`, `NAME — reason`).
        for dash in ["- ", "— ", "– "] where reason.hasBytePrefix(dash) { reason = reason.dropFirst(dash.count).trimmedBlanks }
        // Bugsnag's title, `NAME in FUNCTION` (the function where it was raised; its reason is on
        // the next line): no reason on this one.
        if context(of: text) != nil { return (String(name), nil) }
        return (String(name), reason.isEmpty ? nil : reason)
    }

    /// A crash service's issue number before its title (`#26389201 NSInvalidArgumentException`)
    /// is not part of the name.
    static func withoutIssueNumber(_ text: Substring) -> Substring {
        guard text.first == "#" else { return text }
        let digits = text.dropFirst().prefix { $0.isASCII && $0.isNumber }
        guard digits.count >= 3, text.dropFirst(1 + digits.count).first == " " else { return text }
        return text.dropFirst(1 + digits.count).drop { $0 == " " }
    }

    /// Bugsnag's `NAME in FUNCTION`: the function or class it names as the error's context.
    static func context(of whole: Substring) -> String? {
        let text = withoutIssueNumber(whole)
        let name = text.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        let rest = text.dropFirst(name.count)
        guard name.hasSuffix("Exception"), rest.hasBytePrefix(" in ") else { return nil }
        let context = rest.dropFirst(4).trimmedBlanks
        return context.isEmpty || context.contains(" ") ? nil : String(context)
    }
}

/// Foundation's and the frameworks' exception reasons open with the method that raised them
/// (`-[NSURL initFileURLWithPath:]: nil string parameter`, `*** -[AVPlayerItem
/// _seekToTime:…] Seeking is not possible to time {INVALID}`, `+[NSString
/// stringWithUTF8String:]: NULL cString`).
enum MethodReasonLine {
    /// The method name and what follows it, when the line opens with `[-+][Class selector]` (the
    /// stars Foundation puts before some reasons allowed) and words follow, not a frame's offset
    /// or source place.
    static func reason(_ text: Substring) -> Substring? {
        var body = Substring(text.trimmedBlanks)
        if body.hasBytePrefix("*** ") { body = body.dropFirst(4) }
        guard let method = method(at: body) else { return nil }
        var rest = body[method.endIndex...]
        if rest.first == ":" { rest = rest.dropFirst() }
        guard rest.first == " " else { return nil }
        let words = rest.trimmedBlanks
        guard let first = words.first, first.isLetter || first == "*" || first == "'" || first == "\"",
            words.contains(where: { $0 == " " }), !words.hasBytePrefix("in ")
        else { return nil }
        return body
    }

    /// An Objective-C method's name alone on its line (a crash service's title, a paste's only
    /// frame).
    static func bareMethod(_ text: Substring) -> Substring? {
        let body = Substring(text.trimmedBlanks)
        guard let method = method(at: body), method.endIndex == body.endIndex else { return nil }
        return method
    }

    /// `-[Class selector]`, `+[Class(Category) selector:with:]` at the start of `text`.
    static func method(at text: Substring) -> Substring? {
        guard text.utf8.count <= 600, text.hasBytePrefix("-[") || text.hasBytePrefix("+["), let close = text.firstIndex(of: "]") else {
            return nil
        }
        let inner = text[text.index(text.startIndex, offsetBy: 2)..<close]
        let parts = inner.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, let head = parts[0].first, head.isLetter || head == "_",
            parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_()+".contains($0)) }), let selector = parts[1].first,
            selector.isLetter || selector == "_",
            parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") })
        else { return nil }
        return text[...close]
    }
}

/// A C++ exception's type as `std::type_info::name()` spells it, the Itanium ABI's mangled form,
/// which crash reporters record from `__cxa_current_exception_type()` (`N8facebook3jsi7JSErrorE`,
/// `St9bad_alloc`, `NSt3__112system_errorE`): the qualified name, or nil for anything else.
enum MangledCxxTypeName {
    static func demangle(_ text: Substring) -> String? {
        guard text.utf8.count <= 300 else { return nil }
        var rest = text
        let nested = rest.hasBytePrefix("N")
        if nested {
            guard rest.hasSuffix("E") else { return nil }
            rest = rest.dropFirst().dropLast()
        }
        var parts: [String] = []
        if rest.hasBytePrefix("St") {
            parts.append("std")
            rest = rest.dropFirst(2)
        } else if !nested {
            return nil
        }
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 3, let length = Int(digits), length > 0 else { return nil }
            rest = rest.dropFirst(digits.count)
            guard rest.count >= length else { return nil }
            let identifier = rest.prefix(length)
            guard identifier.first.map({ $0.isLetter || $0 == "_" }) == true,
                identifier.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            else { return nil }
            parts.append(String(identifier))
            rest = rest.dropFirst(length)
        }
        return parts.count >= 2 ? parts.joined(separator: "::") : nil
    }
}

/// A C++ exception named first on a line, as crash services title it (`std::bad_alloc:
/// std::bad_alloc`, `std::__1::system_error: mutex lock failed: Invalid argument`,
/// `nlohmann::detail::type_error: [json.exception.type_error.302] …`): a qualified type name of
/// the standard library (any of its exceptions), or of another namespace when its last part
/// names an exception (`…error`, `…exception`, `…failure`, `bad_…`).
enum CxxExceptionTitle {
    static func parse(_ text: Substring) -> (type: String, what: String?)? {
        var type = text.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") }
        // The colon after the name (`std::bad_alloc: …`) is not part of it.
        if type.hasSuffix(":"), !type.hasSuffix("::") { type = type.dropLast() }
        let parts = type.components(separatedBy: "::")
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty && !$0.containsBytes(":") && $0.first?.isNumber == false }) else {
            return nil
        }
        let last = parts[parts.count - 1].lowercased()
        guard
            parts[0] == "std" || last.hasSuffix("error") || last.hasSuffix("exception") || last.hasSuffix("failure")
                || last.hasBytePrefix("bad_")
        else { return nil }
        let rest = text.dropFirst(type.count)
        if rest.isEmpty { return (String(type), nil) }
        guard rest.hasBytePrefix(": ") else { return nil }
        let what = rest.dropFirst(2).trimmedBlanks
        return (String(type), what.isEmpty ? nil : what)
    }
}

/// A managed runtime's exception named first on a line, as .NET and Kotlin print them:
/// `System.NullReferenceException: Object reference not set…`, `kotlin.IllegalStateException: …`,
/// `Foundation.MonoTouchException: Objective-C exception thrown.`: a dotted type name whose last
/// part ends in `Exception` or `Error`, under a namespace .NET, Mono or Kotlin ship (the JVM's
/// `java.` names are Android's, not an Apple crash).
/// A JavaScript engine's error line: a native error type of ECMAScript (§20.5.5, plus
/// `AggregateError` and SpiderMonkey's `InternalError`) or React's `Invariant Violation`, a
/// colon, and the message. A warning that quotes one (`Warning: TypeError: …`) is not one.
enum JavaScriptErrorLine {
    static let names = [
        "TypeError: ", "ReferenceError: ", "RangeError: ", "SyntaxError: ", "EvalError: ", "URIError: ", "AggregateError: ",
        "InternalError: ", "Invariant Violation: ",
    ]

    static let isError: @Sendable (Substring) -> Bool = { text in
        guard let name = names.first(where: { text.hasBytePrefix($0) }) else { return false }
        return text.dropFirst(name.utf8.count).contains { $0.isLetter }
    }
}

enum ManagedExceptionLine {
    /// (Not the JVM's `java.`: an Android app's exception is no Apple crash, CrashFamiliesTests.)
    static let namespaces = ["System.", "Microsoft.", "Mono.", "Xamarin.", "Foundation.", "ObjCRuntime.", "UIKit.", "kotlin."]

    /// An undotted exception name in a managed runtime's style: a capital, then a lowercase
    /// letter (`NullReferenceException`, `ArgumentOutOfRangeException`). Apple's exception names
    /// open with their framework's prefix in capitals (`NSRangeException`, `CALayerInvalidGeometry`,
    /// `RCTFatalException`), and so do the exceptions Objective-C libraries define.
    static func isManagedStyle(_ name: String) -> Bool {
        let letters = Array(name.utf8.prefix(2))
        guard letters.count == 2, name.hasSuffix("Exception") else { return false }
        return letters[0] >= 0x41 && letters[0] <= 0x5A && letters[1] >= 0x61 && letters[1] <= 0x7A
    }

    /// The JVM's word on an exception nothing caught, which ends the thread (and the program when
    /// it is `main`): `Exception in thread "main" java.lang.UnsatisfiedLinkError: no foo in
    /// java.library.path`. A desktop Java or Kotlin program on macOS prints it; Android's runtime
    /// prints `FATAL EXCEPTION:` instead, which stays unread.
    static func jvmUncaught(_ text: Substring) -> (name: String, message: String?)? {
        guard text.hasBytePrefix("Exception in thread \""), let close = text.dropFirst(21).byteRange(of: "\" ") else { return nil }
        return namedThrowable(text[close.upperBound...], minimumParts: 2)
    }

    /// A class name that ends in `Exception` or `Error` (dotted, `$` for a nested class) at the
    /// start of `text`, then its `: message` if any.
    static func namedThrowable(_ text: Substring, minimumParts: Int = 1) -> (name: String, message: String?)? {
        let name = text.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "$") }
        let parts = name.split(separator: ".")
        guard parts.count >= minimumParts, let last = parts.last, last.hasSuffix("Exception") || last.hasSuffix("Error"),
            last.first?.isUppercase == true
        else { return nil }
        let rest = text.dropFirst(name.count)
        if rest.isEmpty { return (String(name), nil) }
        guard rest.hasBytePrefix(":") else { return nil }
        let message = rest.dropFirst().trimmedBlanks
        return (String(name), message.isEmpty ? nil : message)
    }

    static func parse(_ text: Substring) -> (name: String, message: String?)? {
        // Mono's and Xamarin's `MESSAGE (System.ArgumentException)`: the type last, in parentheses.
        if text.hasSuffix(")"), let open = text.lastIndex(of: "("), open > text.startIndex,
            let named = parse(text[text.index(after: open)..<text.index(before: text.endIndex)]), named.message == nil
        {
            let message = text[..<open].trimmedBlanks
            return (named.name, message.isEmpty ? nil : message)
        }
        var text = text
        if !namespaces.contains(where: { text.hasBytePrefix($0) }) {
            // After a logger's own words (`Mon, 19 Apr 2021 08:25:38 UTC ❌ APP: kotlin.native.…Exception: …`):
            // a namespaced name after a blank, the rest of the line its message.
            guard let start = namespaces.lazy.compactMap({ text.byteRange(of: " " + $0)?.lowerBound }).min() else { return nil }
            text = text[text.index(after: start)...]
        }
        return namedThrowable(text)
    }
}

/// A Mach exception first on a line: `EXC_BAD_ACCESS (code=1, address=0x0)`,
/// `EXC_BAD_ACCESS KERN_INVALID_ADDRESS 0x10`, `EXC_BREAKPOINT (SIGTRAP)`.
enum MachExceptionLine {
    /// The Mach exception types (`<mach/exception_types.h>`), as a name typed in another case
    /// (`EXC_breakpoint`) is read only when it is one of them.
    static let types: Set<String> = [
        "EXC_BAD_ACCESS", "EXC_BAD_INSTRUCTION", "EXC_ARITHMETIC", "EXC_EMULATION", "EXC_SOFTWARE", "EXC_BREAKPOINT",
        "EXC_SYSCALL", "EXC_MACH_SYSCALL", "EXC_RPC_ALERT", "EXC_CRASH", "EXC_RESOURCE", "EXC_GUARD", "EXC_CORPSE_NOTIFY",
    ]

    static func parse(_ text: Substring) -> String? {
        guard text.hasBytePrefix("EXC_") || text.hasBytePrefix("exc_") else { return nil }
        let word = text.prefix { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "_" }
        let type = word.allSatisfy { !$0.isLowercase } ? String(word) : word.uppercased()
        guard type.count > 5, word.allSatisfy({ !$0.isLowercase }) || types.contains(type) else { return nil }
        let next = text.dropFirst(word.count).first
        // `**EXC_BAD_INSTRUCTION** in **…**`: Markdown emphasis around the name; a quote or a
        // backquote around it in prose.
        guard next == nil || next.map({ " (:*`'\",;/".contains($0) }) == true else { return nil }
        return type
    }
}

extension MachExceptionLine {
    /// A Mach exception named after words that are no label a report reader reads as its field
    /// (`Exception Type:`, `Exception Subtype:`, `Crash reason:`, `Crashed:`; `TextReportParser.fieldNames`):
    /// prose, a quote, a log line, or another
    /// tool's or person's label (`Exception: EXC_BREAKPOINT (SIGTRAP)`, `Crash: EXC_BAD_ACCESS`).
    static func namedInSentence(_ text: Substring) -> Bool {
        guard let named = named(in: text) else { return false }
        let before = text[..<named.startIndex].trimmedBlanks
        guard before.hasSuffix(":"), before.first?.isUppercase == true else { return true }
        let label = before.dropLast().trimmedBlanks
        guard label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == " " || $0 == "(" || $0 == ")" || $0 == "-" }) else { return true }
        return TextReportParser.fieldNames[label.lowercased()] == nil && label.lowercased() != "crashed"
    }

    /// Where a Mach exception is named inside a line (`program received signal: EXC_BAD_ACCESS`):
    /// the start of the first `EXC_…` word, or nil.
    static func named(in text: Substring) -> Substring? {
        var rest = text
        while let range = rest.byteRange(of: "EXC_", ignoringASCIICase: true) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            // Or glued to a lowercase word before it, as a web page's copy joins its cells
            // (Crashlytics' `com.apple.main-threadEXC_BAD_INSTRUCTION`): the capitals only.
            let glued = before.map { $0.isLowercase && $0.isASCII } == true && text[range].hasBytePrefix("EXC_")
            if before.map({ " :(`'\"*[=".contains($0) }) ?? true || glued, let _ = parse(text[range.lowerBound...]) {
                return text[range.lowerBound...]
            }
            rest = text[range.upperBound...]
        }
        return nil
    }
}

/// How a debugger, a shell, an IDE or a service says a signal ended a process.
enum SignalLine {
    /// Literals one of which a line stating a signal holds (`signal(in:)`): `SIG`, `signal`, an
    /// arrival word (as a sentence starts it or inside one), a shell's description.
    static let words: [String] =
        ["SIG", "ignal ", "SEGV", "BUS", "ILL", "FPE", "TRAP", "si_signo="] + statusWords
        + statusWords.map { $0.prefix(1).uppercased() + $0.dropFirst() } + arrivalWords
        + arrivalWords.map { $0.prefix(1).uppercased() + $0.dropFirst() } + descriptions.map(\.words) + ["Unhandled ", "caught "]
        + kernelFaults.map(\.words) + ["status=", "signal=", "xception code", "xceptionCode: ", "Unhandled exception at 0x"]
        + [
            "with code ", "xit_code", "xitCode", "xitcode", "STATUS_", "EXCEPTION_", "overrun of a stack-based buffer",
            "referenced memory at 0x", "Fatal trap ", "].Value=",
        ] + FirmwareFault.literals

    /// The POSIX signal codes (`si_code`) Apple's reports and crash services print, with their signal.
    static let codeNames: [String: String] = {
        var names: [String: String] = [:]
        for (signal, prefix, codes) in [
            ("SIGSEGV", "SEGV_", ["MAPERR", "ACCERR"]), ("SIGBUS", "BUS_", ["ADRALN", "ADRERR", "OBJERR"]),
            ("SIGILL", "ILL_", ["ILLOPC", "ILLOPN", "ILLADR", "ILLTRP", "PRVOPC", "PRVREG", "COPROC", "BADSTK"]),
            ("SIGFPE", "FPE_", ["INTDIV", "INTOVF", "FLTDIV", "FLTOVF", "FLTUND", "FLTRES", "FLTINV", "FLTSUB"]),
            ("SIGTRAP", "TRAP_", ["BRKPT", "TRACE"]),
        ] {
            for code in codes { names[prefix + code] = signal }
        }
        return names
    }()

    /// The code name a line states beside or under its signal (`SIGBUS BUS_ADRALN`, `BUS\_ADRALN`).
    static func code(in text: Substring) -> String? {
        let words = text.replacingOccurrences(of: "\\", with: "").split { !($0.isASCII && ($0.isUppercase || $0 == "_")) }
        return words.lazy.map(String.init).first { codeNames[$0] != nil }
    }

    /// The Linux kernel's line for a process it sent a fault signal (`dmesg`, the system log):
    /// `NAME[PID]: segfault at 0 ip 0000000000402669 sp 00007ffe… error 4 in NAME[400000+5000]`,
    /// `traps: NAME[PID] general protection fault ip:… sp:… error:0 in libX.so[…]`, `trap invalid
    /// opcode ip:…`, `trap divide error ip:…`: the words, with the signal each sends.
    static let kernelFaults: [(words: String, signal: String)] = [
        ("segfault at ", "SIGSEGV"), ("general protection fault ip:", "SIGSEGV"), ("general protection ip:", "SIGSEGV"),
        ("trap invalid opcode ip:", "SIGILL"), ("trap divide error ip:", "SIGFPE"), ("trap int3 ip:", "SIGTRAP"),
        ("trap stack segment ip:", "SIGBUS"),
    ]

    /// The signal of a kernel fault line (`kernelFaults`): the words, then the kernel's own
    /// fields (`ip`, `sp`), so a sentence that merely says "segfault at startup" is not one.
    static func kernelFault(in text: Substring) -> String? {
        guard text.utf8.count <= 600 else { return nil }
        for (words, signal) in kernelFaults where text.hasBytePrefix(words) {
            let rest = text.dropFirst(words.utf8.count)
            if words.hasSuffix("ip:") ? rest.containsBytes(" sp:") : (rest.containsBytes(" ip ") && rest.containsBytes(" sp ")) {
                return signal
            }
        }
        return nil
    }

    /// A service manager's word for a main process a signal ended (systemd's `iot.service: Main
    /// process exited, code=dumped, status=11/SEGV`, `code=killed, status=9/KILL`): the signal
    /// named after the status number. (`code=exited, status=1/FAILURE` is an exit, no signal.)
    static func supervisorStatus(in text: Substring) -> String? {
        guard text.utf8.count <= 600, text.containsBytes("code=killed") || text.containsBytes("code=dumped") else { return nil }
        // `systemctl status`'s `Main PID: 6221 (code=killed, signal=ABRT)`.
        if let named = text.byteRange(of: "signal=") {
            let name = "SIG" + text[named.upperBound...].prefix { $0.isASCII && $0.isUppercase }
            if fatalSignals.contains(name) { return name }
        }
        guard let status = text.byteRange(of: "status=") else { return nil }
        let rest = text[status.upperBound...]
        let number = rest.prefix { $0.isASCII && $0.isNumber }
        guard !number.isEmpty, rest.dropFirst(number.count).hasBytePrefix("/") else { return nil }
        let name = "SIG" + rest.dropFirst(number.count + 1).prefix { $0.isASCII && $0.isUppercase }
        return fatalSignals.contains(name) ? name : nil
    }

    /// Windows' exception codes (NTSTATUS) for the faults it ends a process for, with the signal
    /// each is on macOS: what Windows Error Reporting's event (`Exception code: 0xc0000005`), a
    /// debugger (`0xC0000005: Access violation reading location 0x…`) and crash dialogs print.
    static let windowsExceptionCodes: [String: String] = [
        "c0000005": "SIGSEGV", "c00000fd": "SIGSEGV", "c0000006": "SIGBUS", "c000001d": "SIGILL", "c0000096": "SIGILL",
        "c0000094": "SIGFPE", "c0000095": "SIGFPE", "c000008e": "SIGFPE", "80000003": "SIGTRAP", "c0000409": "SIGABRT",
        "c0000374": "SIGABRT", "c000027b": "SIGABRT", "c0000602": "SIGABRT", "40000015": "SIGABRT", "c0000420": "SIGABRT",
        // The exceptions of runtimes on top: a .NET exception no handler took (`e0434352`), the CLR's
        // own fatal error (`80131506`, `ExecutionEngineException`), a C++ `throw` nothing caught
        // (`e06d7363`): each ends the process as an abort does.
        "e0434352": "SIGABRT", "80131506": "SIGABRT", "e06d7363": "SIGABRT",
    ]

    /// The signal of a Windows exception code stated as the crash's (`Exception code: 0xc0000005`,
    /// `ExceptionCode: c0000005 (Access violation)`, `Unhandled exception at 0x… in app.exe:
    /// 0xC0000005: Access violation …`).
    static func windowsException(in text: Substring) -> String? {
        guard text.utf8.count <= 600 else { return nil }
        var digits: Substring?
        for label in ["Exception code: ", "Exception Code: ", "ExceptionCode: ", "exception code "] {
            guard let found = text.byteRange(of: label) else { continue }
            var rest = text[found.upperBound...]
            if rest.hasBytePrefix("0x") || rest.hasBytePrefix("0X") { rest = rest.dropFirst(2) }
            digits = rest.prefix { $0.isHexDigit }
            break
        }
        if digits == nil, text.hasBytePrefix("Unhandled exception at 0x"), let marker = text.byteRange(of: ": 0x", ignoringASCIICase: true)
        {
            digits = text[marker.upperBound...].prefix { $0.isHexDigit }
        }
        // `The exception unknown software exception (0xc0000409) occurred in the application at
        // location 0x…` (Windows' dialog for an exception no handler took).
        if digits == nil, let marker = text.byteRange(of: "exception (0x", ignoringASCIICase: true) {
            digits = text[marker.upperBound...].prefix { $0.isHexDigit }
        }
        // Windows Error Reporting's `Report.wer` file names its fields in the system's language
        // (`Sig[6].Name=Ausnahmecode`, then `Sig[6].Value=c0000005`): a value that is one of the codes.
        if digits == nil, text.hasBytePrefix("Sig["), let value = text.byteRange(of: "].Value=") {
            digits = text[value.upperBound...]
        }
        if let digits, digits.count == 8, let signal = windowsExceptionCodes[digits.lowercased()] { return signal }
        if text.containsBytes("STATUS_") || text.containsBytes("EXCEPTION_") {
            let words = text.split { !($0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_")) }
            if let named = words.lazy.compactMap({ windowsExceptionNames[String($0)] }).first { return named }
        }
        for (words, signal) in windowsExceptionTexts where text.containsBytes(words) { return signal }
        return nil
    }

    /// The names Windows' headers give those codes (`STATUS_ACCESS_VIOLATION`, cargo's `exit code:
    /// 0xc0000005, STATUS_ACCESS_VIOLATION`) and the `EXCEPTION_` names of the same codes (Unreal's
    /// `Unhandled Exception: EXCEPTION_ACCESS_VIOLATION reading address 0x…`), with their signal.
    static let windowsExceptionNames: [String: String] = [
        "STATUS_ACCESS_VIOLATION": "SIGSEGV", "EXCEPTION_ACCESS_VIOLATION": "SIGSEGV", "STATUS_STACK_OVERFLOW": "SIGSEGV",
        "EXCEPTION_STACK_OVERFLOW": "SIGSEGV", "STATUS_IN_PAGE_ERROR": "SIGBUS", "EXCEPTION_IN_PAGE_ERROR": "SIGBUS",
        "STATUS_DATATYPE_MISALIGNMENT": "SIGBUS", "EXCEPTION_DATATYPE_MISALIGNMENT": "SIGBUS",
        "STATUS_ILLEGAL_INSTRUCTION": "SIGILL", "EXCEPTION_ILLEGAL_INSTRUCTION": "SIGILL", "STATUS_PRIVILEGED_INSTRUCTION": "SIGILL",
        "EXCEPTION_PRIV_INSTRUCTION": "SIGILL", "STATUS_INTEGER_DIVIDE_BY_ZERO": "SIGFPE", "EXCEPTION_INT_DIVIDE_BY_ZERO": "SIGFPE",
        "STATUS_FLOAT_DIVIDE_BY_ZERO": "SIGFPE", "EXCEPTION_FLT_DIVIDE_BY_ZERO": "SIGFPE", "STATUS_INTEGER_OVERFLOW": "SIGFPE",
        "EXCEPTION_INT_OVERFLOW": "SIGFPE", "STATUS_BREAKPOINT": "SIGTRAP", "EXCEPTION_BREAKPOINT": "SIGTRAP",
        "STATUS_STACK_BUFFER_OVERRUN": "SIGABRT", "STATUS_HEAP_CORRUPTION": "SIGABRT", "STATUS_FATAL_APP_EXIT": "SIGABRT",
        "STATUS_ASSERTION_FAILURE": "SIGABRT", "STATUS_FAIL_FAST_EXCEPTION": "SIGABRT",
    ]

    /// The texts Windows shows for some of those codes in its error dialogs (`The system detected an
    /// overrun of a stack-based buffer in this application.`, `The instruction at 0x… referenced
    /// memory at 0x…. The memory could not be read.`).
    static let windowsExceptionTexts: [(words: String, signal: String)] = [
        ("detected an overrun of a stack-based buffer", "SIGABRT"), ("referenced memory at 0x", "SIGSEGV"),
    ]

    /// Labels a process's exit status follows, in the words of shells, build tools, container
    /// runtimes and IDEs (`exited with code 139`, `exit code: 0xc0000005`, `Exit Code: 137`,
    /// `Process finished with exit code -1073741819`), compared in lower case.
    static let exitStatusLabels = [
        "exited with code ", "exited with exit code ", "exit code: ", "exit code ", "exit code=", "exitcode: ", "exitcode=",
        "exit_code=", "exit_code: ", "exit status: ", "exit status ", "exit status=", "exited with status ", "with code ",
    ]

    /// The status after one of `exitStatusLabels`, as printed (`139`, `-1073741819`, `0xc0000005`).
    static func exitStatus(in text: Substring) -> Substring? {
        guard text.utf8.count <= 600 else { return nil }
        let lower = Substring(text.lowercased())
        for label in exitStatusLabels {
            guard let found = lower.byteRange(of: label) else { continue }
            let rest = lower[found.upperBound...].drop { $0 == "'" || $0 == "\"" || $0 == "`" }
            let value =
                rest.hasBytePrefix("0x")
                ? rest.prefix(2 + rest.dropFirst(2).prefix { $0.isHexDigit }.count)
                : rest.prefix(
                    rest.hasBytePrefix("-")
                        ? 1 + rest.dropFirst().prefix { $0.isASCII && $0.isNumber }.count : rest.prefix { $0.isASCII && $0.isNumber }.count)
            let after = rest.dropFirst(value.count).first
            guard !value.isEmpty, value != "-", value != "0x", after.map({ !($0.isLetter || $0.isNumber) }) ?? true else { continue }
            return value
        }
        return nil
    }

    /// The signal an exit status stands for: a shell's and a container runtime's 128 + N for a
    /// process signal N ended (`exited with code 139`: SIGSEGV; `Exit Code: 137`: SIGKILL, Linux's
    /// numbers), or a Windows exception code as the process's status, in hex or in decimal, signed
    /// or not (`-1073741819` and `3221225477` are 0xC0000005).
    static func exitStatusSignal(in text: Substring) -> String? {
        guard let value = exitStatus(in: text) else { return nil }
        if value.hasBytePrefix("0x") {
            let digits = value.dropFirst(2)
            return digits.count == 8 ? windowsExceptionCodes[String(digits)] : nil
        }
        guard let number = Int64(value) else { return nil }
        if number >= 129, number <= 159, let name = SignalNames.linuxName(Int(number - 128)), fatalSignals.contains(name) { return name }
        let status = number < 0 ? UInt32(truncatingIfNeeded: number) : number <= Int64(UInt32.max) ? UInt32(number) : 0
        guard status >= 0x4000_0000 else { return nil }
        let hex = String(status, radix: 16)
        return windowsExceptionCodes[String(repeating: "0", count: max(0, 8 - hex.count)) + hex]
    }

    /// Whether `number` is the signal's number on Linux or on Apple's systems.
    static func isNumber(_ number: Int, of name: String) -> Bool {
        SignalNames.linuxName(number) == name || SignalNames.name(number) == name || (name == "SIGIOT" && number == 6)
    }

    /// A signal stated with its number and its name or description together, which agree
    /// (Valgrind's `Process terminating with default action of signal 11 (SIGSEGV)`, billiard's
    /// `exited with 'signal 9 (SIGKILL)'`, `signal SIGSEGV (11)`, Apache's `exit signal Segmentation
    /// fault (11)`), or as a field beside a death (varnish's `Child (16735) died signal=6`): a
    /// pairing nothing but a signal report prints, so no arrival word is needed.
    static func pairedSignal(in text: Substring) -> String? {
        guard text.utf8.count <= 4_096, text.containsBytes("ignal") else { return nil }
        var rest = text
        while let found = rest.byteRange(of: "ignal") {
            defer { rest = rest[found.upperBound...] }
            var after = rest[found.upperBound...]
            if after.hasBytePrefix("=") {
                // `signal=6`, `signal=SEGV`: only beside words saying the process died.
                let lower = text.lowercased()
                guard ["died", "exited", "killed", "terminated", "crashed", "dumped"].contains(where: { lower.contains($0) }) else {
                    continue
                }
                after = after.dropFirst()
                let digits = after.prefix { $0.isASCII && $0.isNumber }
                if !digits.isEmpty, digits.count <= 2, let number = Int(digits),
                    let name = SignalNames.linuxName(number) ?? SignalNames.name(number),
                    fatalSignals.contains(name)
                {
                    return name
                }
                let word = after.prefix { $0.isASCII && $0.isUppercase }
                let name = word.hasBytePrefix("SIG") ? String(word) : "SIG" + word
                if word.count >= 3, fatalSignals.contains(name) { return name }
                continue
            }
            guard after.hasBytePrefix(" ") else { continue }
            after = after.dropFirst()
            let digits = after.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, digits.count <= 2, let number = Int(digits) {
                // `signal 11 (SIGSEGV)`, `signal 11: SIGSEGV`, `signal 11 (Segmentation fault)`.
                var tail = after.dropFirst(digits.count)
                guard tail.hasBytePrefix(" (") || tail.hasBytePrefix(": ") else { continue }
                tail = tail.dropFirst(2)
                let word = tail.prefix { $0.isASCII && $0.isUppercase }
                if word.hasBytePrefix("SIG"), fatalSignals.contains(String(word)) || word == "SIGIOT", isNumber(number, of: String(word)) {
                    return word == "SIGIOT" ? "SIGABRT" : String(word)
                }
                if let described = descriptions.first(where: { tail.hasBytePrefix($0.words) }), isNumber(number, of: described.signal) {
                    return described.signal
                }
                continue
            }
            // `signal SIGSEGV (11)`, `signal Segmentation fault (11)`.
            let word = after.prefix { $0.isASCII && $0.isUppercase }
            var name = word.hasBytePrefix("SIG") ? String(word) : nil
            var tail = after.dropFirst(word.count)
            if name == nil, let described = descriptions.first(where: { after.hasBytePrefix($0.words) }) {
                name = described.signal
                tail = after.dropFirst(described.words.count)
            }
            guard let name, fatalSignals.contains(name), tail.hasBytePrefix(" (") else { continue }
            let number = tail.dropFirst(2).prefix { $0.isASCII && $0.isNumber }
            if let value = Int(number), tail.dropFirst(2 + number.count).hasBytePrefix(")"), isNumber(value, of: name) { return name }
        }
        return nil
    }

    /// Wine's words for the Windows exceptions it reports unhandled, with the signal each is on macOS.
    static let unhandledFaults: [(words: String, signal: String)] = [
        ("Unhandled page fault on ", "SIGSEGV"), ("Unhandled stack overflow at address ", "SIGSEGV"),
        ("Unhandled illegal instruction at address ", "SIGILL"), ("Unhandled privileged instruction at address ", "SIGILL"),
    ]

    /// A BSD kernel's trap report (`Fatal trap 12: page fault while in kernel mode`, `Fatal trap 9:
    /// general protection fault while in kernel mode`, `Fatal trap 18: integer divide fault`): the
    /// signal a process gets for the same fault, read from the trap's description (amd64's and
    /// i386's `trap_msg` table), not from its number.
    static func cpuTrap(in text: Substring) -> String? {
        guard text.hasBytePrefix("Fatal trap "), let colon = text.byteRange(of: ": ") else { return nil }
        let number = text[text.index(text.startIndex, offsetBy: 11)..<colon.lowerBound]
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let description = text[colon.upperBound...].lowercased()
        for (words, signal) in trapDescriptions where description.contains(words) { return signal }
        return nil
    }

    static let trapDescriptions: [(words: String, signal: String)] = [
        ("page fault", "SIGSEGV"), ("protection fault", "SIGSEGV"), ("segment not present", "SIGSEGV"), ("stack fault", "SIGSEGV"),
        ("double fault", "SIGSEGV"), ("privileged instruction", "SIGILL"), ("invalid opcode", "SIGILL"),
        ("illegal instruction", "SIGILL"), ("divide", "SIGFPE"), ("floating point", "SIGFPE"), ("arithmetic", "SIGFPE"),
        ("alignment", "SIGBUS"), ("breakpoint", "SIGTRAP"), ("trace trap", "SIGTRAP"), ("machine check", "SIGBUS"),
    ]

    /// The shells' and `strsignal`'s descriptions (`Abort trap: 6`, `Segmentation fault: 11`,
    /// `zsh: killed`, `Killed: 9`), with the signal each stands for.
    static let descriptions: [(words: String, signal: String)] = [
        ("Abort trap", "SIGABRT"), ("abort", "SIGABRT"), ("Aborted", "SIGABRT"), ("Segmentation fault", "SIGSEGV"),
        ("segmentation fault", "SIGSEGV"), ("Bus error", "SIGBUS"), ("bus error", "SIGBUS"),
        ("Illegal instruction", "SIGILL"), ("illegal hardware instruction", "SIGILL"), ("Trace/BPT trap", "SIGTRAP"),
        ("trace trap", "SIGTRAP"), ("Killed", "SIGKILL"), ("killed", "SIGKILL"), ("Floating point exception", "SIGFPE"),
        // ksh's and some runtimes' words for SIGSEGV (`Memory fault(coredump)`, SBCL's `Memory fault at 0x… (pc=0x…)`).
        ("Memory fault", "SIGSEGV"),
        // MATLAB's crash file (`Segmentation violation detected at Thu Feb 23 19:55:08 2017`).
        ("Segmentation violation", "SIGSEGV"),
        // glibc's `strsignal` for the others, as shells and programs print them beside the number
        // (Apache's `exit signal Segmentation fault (11)`, `Bad system call (core dumped)`).
        ("Trace/breakpoint trap", "SIGTRAP"), ("Floating-point exception", "SIGFPE"), ("Bad system call", "SIGSYS"),
        // csh's and tcsh's words for a job a signal ended (`Abort(coredump)`, `Floating exception (core dumped)`);
        // after the longer words above that start the same.
        ("Abort", "SIGABRT"), ("Floating exception", "SIGFPE"),
    ]

    /// R's handler's banner for the signal it caught before it ends the process (`*** caught
    /// segfault ***`, `*** caught bus error ***`, `*** caught illegal operation ***`), and any
    /// other `*** caught DESCRIPTION ***` whose description names a signal.
    static func caughtBanner(_ text: Substring) -> String? {
        // The stars on either side, or the words alone (a log prefix's reader takes the stars).
        let trimmed = text.trimmedBlanks
        guard trimmed.utf8.count <= 60 else { return nil }
        var inner = trimmed.drop { $0 == "*" || $0 == " " }
        while inner.last == "*" || inner.last == " " { inner = inner.dropLast() }
        guard inner.hasBytePrefix("caught ") else { return nil }
        let what = inner.dropFirst(7).trimmedBlanks.lowercased()
        if let signal = caughtNames[what] { return signal }
        return descriptions.first { $0.words.lowercased() == what }?.signal
    }

    static let caughtNames = ["segfault": "SIGSEGV", "bus error": "SIGBUS", "illegal operation": "SIGILL", "abort": "SIGABRT"]

    /// `si_signo=N` or `si_signo=DESCRIPTION[: N](N)` in a dump of `siginfo_t` fields (`si_code=`,
    /// `si_addr=` beside it): the signal, when it is one that ends a process.
    static func siginfoSignal(in text: Substring) -> String? {
        guard let field = text.byteRange(of: "si_signo=") else { return nil }
        let value = text[field.upperBound...].prefix { $0 != "," }.trimmedBlanks
        let digits = value.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, let number = Int(digits) { return SignalNames.name(number).flatMap { fatalSignals.contains($0) ? $0 : nil } }
        if value.hasBytePrefix("SIG") {
            let name = String(value.prefix { $0.isASCII && $0.isUppercase })
            return fatalSignals.contains(name) ? name : nil
        }
        return descriptions.first { value.hasBytePrefix($0.words) }?.signal
    }

    /// `si_addr=0x…` beside `si_signo=`: the fault address as printed.
    static func siginfoAddress(in text: Substring) -> String? {
        // (A fault handler's own sentence says the same: Crystal's `Invalid memory access (signal 11)
        // at address 0x0`.)
        // A description with the address after it (Zig's `Segmentation fault at address 0x158`,
        // SBCL's `Memory fault at 0x139a30090 (pc=0x…)`).
        let described = descriptions.lazy.compactMap { description -> Range<Substring.Index>? in
            guard text.hasBytePrefix(description.words) else { return nil }
            let rest = text.dropFirst(description.words.count)
            let marker = rest.hasBytePrefix(" at address 0x") ? " at address 0x" : rest.hasBytePrefix(" at 0x") ? " at 0x" : nil
            return marker.flatMap { rest.byteRange(of: $0) }
        }.first
        // The kernel's fault line gives the address in hex without `0x` (`segfault at 7f3a… ip …`).
        if text.hasBytePrefix("segfault at "), kernelFault(in: text) != nil {
            let digits = text.dropFirst(12).prefix { $0.isHexDigit }
            return digits.isEmpty || digits.count > 16 ? nil : "0x" + digits
        }
        // Windows' words for an access violation's address (Unreal's `EXCEPTION_ACCESS_VIOLATION
        // reading address 0x…`, a debugger's `Access violation reading location 0x…`).
        for marker in ["reading address 0x", "writing address 0x", "executing address 0x", "reading location 0x", "writing location 0x"]
        where text.containsBytes(marker) && (text.containsBytes("ACCESS_VIOLATION") || text.containsBytes("ccess violation")) {
            guard let found = text.byteRange(of: marker) else { continue }
            let digits = text[found.upperBound...].prefix { $0.isHexDigit }
            return digits.isEmpty || digits.count > 16 ? nil : "0x" + digits
        }
        // Android's libc and debuggerd (`Fatal signal 11 (SIGSEGV), code 1, fault addr 0x0 in tid …`,
        // `signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0`).
        if text.containsBytes("(SIG"), let found = text.byteRange(of: "fault addr 0x") {
            let digits = text[found.upperBound...].prefix { $0.isHexDigit }
            return digits.isEmpty || digits.count > 16 ? nil : "0x" + digits
        }
        let field =
            text.containsBytes("si_signo=")
            ? text.byteRange(of: "si_addr=0x")
            : text.containsBytes("(signal ") ? text.byteRange(of: ") at address 0x") : described
        guard let field else { return nil }
        let digits = text[field.upperBound...].prefix { $0.isHexDigit }
        return digits.isEmpty || digits.count > 16 ? nil : "0x" + digits
    }

    /// The part of a shell's report of a job a signal ended that starts at the job's process id
    /// or at the description, past what the shell puts before it: bash names the script and its
    /// line (`./run.sh: line 11: 57064 Abort trap: 6   cmd`), and an interactive shell the job
    /// (`[1]+  Segmentation fault: 11  ./a.out`, zsh's `[1]    8392 illegal hardware instruction`).
    static func shellJobStatus(_ text: Substring) -> Substring {
        var rest = text
        if let line = rest.prefix(400).byteRange(of: ": line ") {
            let after = rest[line.upperBound...]
            let number = after.prefix { $0.isASCII && $0.isNumber }
            if !number.isEmpty, after.dropFirst(number.count).hasBytePrefix(": ") {
                rest = after.dropFirst(number.count + 2).drop { $0 == " " }
            }
        }
        if rest.hasBytePrefix("[") {
            let job = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            var after = rest.dropFirst(1 + job.count)
            if !job.isEmpty, after.hasBytePrefix("]") {
                after = after.dropFirst()
                if after.first == "+" || after.first == "-" { after = after.dropFirst() }
                if after.first == " " || after.first == "\t" { rest = after.drop { $0 == " " || $0 == "\t" } }
            }
        }
        return rest
    }

    /// The signal the line says ended the process, or nil.
    static func signal(in text: Substring) -> String? {
        // `signal SIGABRT` (LLDB, Xcode), `SIGABRT`, `SIGABRT: abort` (Go), `SIGSEGV (0xb)`.
        var body = text
        if body.hasBytePrefix("signal ") || body.hasBytePrefix("Signal ") {
            body = body.dropFirst(7)
            // `Signal 11 was raised` (a reporter's handler), `signal 6 (SIGABRT)`: the number.
            let digits = body.prefix { $0.isASCII && $0.isNumber }
            let rest = body.dropFirst(digits.count)
            if !digits.isEmpty, digits.count <= 2, let number = Int(digits), let name = SignalNames.name(number),
                fatalSignals.contains(name),
                rest.isEmpty || [" was ", " (", ":", " received", " caught", " raised"].contains(where: { rest.hasBytePrefix($0) })
            {
                return name
            }
        }
        if body.hasBytePrefix("SIG") {
            let name = body.prefix { $0.isASCII && $0.isUppercase }
            let next = body.dropFirst(name.count).first
            // `SIGTRAP(TRAP_BRKPT)`: the signal's code name right after it (Android's and
            // Instabug's form).
            if name.count >= 5, next == nil || next == ":" || next == " " || next == "(" { return String(name) }
        }
        // `… (interrupted by signal 9: SIGKILL)`, `Terminated due to signal 9`.
        // `error: compile command failed due to signal 11`, `exited with signal 6`.
        for marker in ["due to signal ", "by signal ", "with signal ", "(signal "] where text.containsBytes("signal ") {
            guard let range = text.range(of: marker) else { continue }
            let rest = text[range.upperBound...]
            if let colon = rest.byteRange(of: ": SIG") {
                return "SIG" + rest[colon.upperBound...].prefix { $0.isASCII && $0.isUppercase }
            }
            if let number = Int(rest.prefix { $0.isASCII && $0.isNumber }) { return SignalNames.name(number) }
        }
        // Rust's `ExitStatus` and cargo after it: `(signal: 11, SIGSEGV: invalid memory reference)`,
        // `signal: 6 (SIGABRT) (core dumped)`.
        if let found = text.byteRange(of: "signal: ") {
            let rest = text[found.upperBound...]
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            let after = rest.dropFirst(digits.count)
            if !digits.isEmpty, digits.count <= 2, let number = Int(digits), after.hasBytePrefix(", SIG") || after.hasBytePrefix(" (SIG"),
                let name = SignalNames.linuxName(number) ?? SignalNames.name(number), fatalSignals.contains(name),
                after.dropFirst(2).hasBytePrefix(name)
            {
                return name
            }
        }
        // Julia's signal handler (`signal (11): Segmentation fault`, `signal (6): Aborted`).
        if text.hasBytePrefix("signal (") {
            let digits = text.dropFirst(8).prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, digits.count <= 2, text.dropFirst(8 + digits.count).hasBytePrefix("): "), let number = Int(digits),
                let name = SignalNames.linuxName(number) ?? SignalNames.name(number), fatalSignals.contains(name)
            {
                return name
            }
        }
        // A runtime's dump of the `siginfo_t` it was handed (the Dart VM's `===== CRASH =====`
        // block: `si_signo=Segmentation fault: 11(11), si_code=2, si_addr=0x0`): the number, or
        // its description with the number after it.
        if let field = siginfoSignal(in: text) { return field }
        if let kernel = kernelFault(in: text) { return kernel }
        if let trap = cpuTrap(in: text) { return trap }
        if let status = supervisorStatus(in: text) { return status }
        if let windows = windowsException(in: text) { return windows }
        // A microcontroller's fault handler (the processor's exception, the firmware halted or
        // reset): ESP-IDF's `Guru Meditation Error: Core  0 panic'ed (LoadProhibited)`, the ESP8266
        // core's `Exception (28):`, Zephyr's `>>> ZEPHYR FATAL ERROR 0: CPU exception on CPU 0`.
        if let firmware = FirmwareFault.signal(in: text) { return firmware }
        if let paired = pairedSignal(in: text) { return paired }
        if let status = exitStatusSignal(in: text) { return status }
        // Wine's last words for a Windows exception no debugger took (`wine: Unhandled page fault on
        // read access to 0x… at address 0x…`, `Unhandled illegal instruction at address 0x…`).
        for (words, signal) in unhandledFaults where text.containsBytes(words) { return signal }
        if let caught = caughtBanner(text) { return caught }
        if let stated = statedArrival(in: text) { return stated }
        if let status = negativeStatus(in: text) { return status }
        // A signal's code alone on its line (`BUS_ADRALN`, `SEGV_MAPERR`; Markdown's `BUS\_ADRALN`):
        // it names its signal.
        let bare = text.trimmedBlanks.replacingOccurrences(of: "\\", with: "").trimmingCharacters(in: CharacterSet(charactersIn: "`*"))
        if let code = codeNames[bare] { return code }
        // LLDB's stop reason inside its sentence for an expression's or a playground's run (`error:
        // Execution was interrupted, reason: signal SIGABRT.`); a stop line is the debugger reader's.
        for marker in ["reason: signal SIG"] {
            guard let range = text.byteRange(of: marker) else { continue }
            let name = "SIG" + text[range.upperBound...].prefix { $0.isASCII && $0.isUppercase }
            if name.count >= 5 { return name }
        }
        // Xcode's annotation quoted inside a sentence (`app crashed with "Thread 1: signal SIGTERM"`).
        if let marker = text.byteRange(of: ": signal SIG") {
            let before = text[..<marker.lowerBound]
            let number = before.reversed().prefix { $0.isASCII && $0.isNumber }
            let name = "SIG" + text[marker.upperBound...].prefix { $0.isASCII && $0.isUppercase }
            if !number.isEmpty, name.count >= 5, before.dropLast(number.count).lowercased().hasSuffix("thread ") { return name }
        }
        // A shell's description: the whole line, or followed by `: N` or the command; zsh puts
        // the job's process id before it (`[1]    8392 illegal hardware instruction  cmd`).
        var described = shellJobStatus(text)
        let pid = described.prefix { $0.isASCII && $0.isNumber }
        if !pid.isEmpty, pid.count <= 7, described.dropFirst(pid.count).first == " " {
            described = described.dropFirst(pid.count).drop { $0 == " " || $0 == "\t" }
        }
        // After a label that says what died (`error: unable to execute command: Segmentation
        // fault: 11`, the Swift driver's).
        // (Not a report's own field, `Termination Signal: Trace/BPT trap: 5`, which its reader reads.)
        if !descriptions.contains(where: { described.hasBytePrefix($0.words) }),
            let firstColon = described.byteRange(of: ": "),
            TextReportParser.fieldNames[described[..<firstColon.lowerBound].lowercased()] == nil,
            let labelled = descriptions.lazy.filter({ $0.words.first?.isUppercase == true }).compactMap({
                described.byteRange(of: ": " + $0.words)
            })
            .first
        {
            described = described[described.index(labelled.lowerBound, offsetBy: 2)...]
        }
        for (words, signal) in descriptions where described.hasBytePrefix(words) {
            let rest = described.dropFirst(words.count)
            // Zig's fault handler (and Bun's panic, built on it) states the address after the
            // description: `Segmentation fault at address 0x158`, `Illegal instruction at address 0x…`.
            if rest.isEmpty || rest.hasBytePrefix(": ") || rest.hasBytePrefix(" (core dumped)") || rest.hasBytePrefix("  ")
                || rest.hasBytePrefix("\t") || rest.hasBytePrefix(" at address 0x") || rest.hasBytePrefix(" at 0x")
                || rest.hasBytePrefix("(coredump)") || rest.hasBytePrefix(" (coredump)") || rest.hasBytePrefix(" detected at ")
            {
                return signal
            }
            // zsh's lowercase words before the command's path, their column's blanks collapsed to
            // one by a page that showed them (`zsh: trace trap /Applications/X.app/Contents/MacOS/X`).
            if words.first?.isLowercase == true, rest.hasBytePrefix(" /") || rest.hasBytePrefix(" ./") || rest.hasBytePrefix(" ~/") {
                return signal
            }
        }
        return nil
    }
}

/// A line typed at a shell's decorated prompt, as a terminal copy shows it: bash's
/// `user@host:~/dir (branch)$ cmd` and `root@host:/dir# cmd`, macOS bash's `Mac-Pro:~ user$ cmd`,
/// zsh's `user@host dir % cmd`, Fedora's `[user@host dir]$ cmd`, fish's `user@host ~/dir> cmd`,
/// PowerShell's `PS C:\dir> cmd`. The prompt names a user, a host or a directory; prose with a
/// dollar or a percent sign in it does not.
enum ShellPrompt {
    static let terminators = ["$ ", "# ", "% ", "> "]

    /// The command after the prompt, or nil when the line does not open with one.
    static func command(in line: Substring) -> Substring? {
        guard line.utf8.count <= 2_000, let first = line.first, first != " ", first != "\t" else { return nil }
        let head = line.prefix(120)
        guard
            let end = terminators.compactMap({ head.byteRange(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound })
        else { return nil }
        let prompt = line[..<end.lowerBound].trimmedBlanks
        // Not a label, a URL or a C++ name (`std::map<int, int> >::~map()` has `> ` and `:~`).
        guard !prompt.isEmpty, !prompt.containsBytes(": "), !prompt.containsBytes("://"), !prompt.containsBytes("::"),
            !prompt.containsBytes("<")
        else { return nil }
        let namesAPlace =
            prompt.containsBytes("@") || prompt.containsBytes(":~") || prompt.containsBytes(":/")
            || (prompt.hasBytePrefix("[") && prompt.hasSuffix("]") && isBracketedPlace(prompt.dropFirst().dropLast()))
            || prompt.hasSuffix("~") || prompt.hasBytePrefix("PS ")
            || isMacBashPrompt(prompt)
        guard namesAPlace else { return nil }
        let command = line[end.upperBound...].trimmedBlanks
        guard let start = command.first, start.isLetter || start == "." || start == "/" || start == "~", command.utf8.count >= 2 else {
            return nil
        }
        return Substring(command)
    }

    /// What Fedora's prompt holds in its brackets (`user@host dir`, `~/src`): a user, a host or a
    /// directory, never one word alone (a log's `[INFO] # …` before HotSpot's banner is no prompt).
    static func isBracketedPlace(_ inside: Substring) -> Bool {
        inside.containsBytes("@") || inside.containsBytes(" ") || inside.containsBytes("/") || inside.containsBytes("~")
    }
}

/// glog's and Abseil's log line header, and TensorFlow's: the severity letter (`I`, `W`, `E`,
/// `F`) and where the message starts.
enum GlogLine {
    static func header(_ text: Substring) -> (severity: Character, end: Substring.Index)? {
        var body = text
        if body.hasBytePrefix(": ") { body = body.dropFirst(2) }
        guard let severity = body.first, "IWEF".contains(severity) else { return nil }
        var rest = body.dropFirst()
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        if digits.count == 4 {
            // glog: `MMDD hh:mm:ss.uuuuuu thread file:line]`.
            rest = rest.dropFirst(4)
            guard rest.first == " " else { return nil }
            rest = rest.drop { $0 == " " }
            let clock = rest.prefix { ($0.isASCII && $0.isNumber) || $0 == ":" || $0 == "." }
            guard clock.count >= 8, clock.contains(":") else { return nil }
            rest = rest.dropFirst(clock.count).drop { $0 == " " }
            let thread = rest.prefix { $0.isASCII && $0.isNumber }
            guard !thread.isEmpty else { return nil }
            rest = rest.dropFirst(thread.count)
        } else if !digits.isEmpty {
            return nil
        }
        guard rest.first == " " else { return nil }
        rest = rest.drop { $0 == " " }
        guard let close = rest.prefix(300).firstIndex(of: "]") else { return nil }
        let place = rest[..<close]
        guard let colon = place.lastIndex(of: ":"), !place[..<colon].isEmpty, !place[..<colon].contains(" ") else { return nil }
        let line = place[place.index(after: colon)...]
        guard !line.isEmpty, line.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var end = rest.index(after: close)
        while end < rest.endIndex, rest[end] == " " { end = rest.index(after: end) }
        return (severity, end)
    }
}

/// A line whose program says it gives up after saying why: `REASON, exiting` (AppKit's
/// `Unable to load nib file: MainMenu, exiting`), `REASON, aborting`, `REASON; terminating`.
enum GivingUpLine {
    static let endings = [", exiting", "; exiting", ", aborting", "; aborting", ", terminating", "; terminating"]
    static let needs = [", exiting", "; exiting", ", aborting", "; aborting", ", terminating", "; terminating"]

    static func isGivingUp(_ text: Substring) -> Bool {
        var body = text.trimmedBlanks
        guard body.utf8.count <= 400 else { return false }
        while body.last == "." || body.last == "!" { body.removeLast() }
        guard let ending = endings.first(where: { body.hasSuffix($0) }) else { return false }
        // The reason before it: words, at least three, and not a request to stop (`Received SIGTERM,
        // exiting`, `Interrupted by the user, exiting` is a normal end).
        let reason = body.dropLast(ending.count)
        let lowered = reason.lowercased()
        guard
            !["sigterm", "sigint", "sighup", "signal 15", "signal 2,", "interrupt", "requested", "shutdown", "shutting down"].contains(
                where: {
                    lowered.containsBytes($0)
                })
        else { return false }
        return reason.split(separator: " ").filter { $0.contains(where: \.isLetter) }.count >= 3
    }
}

extension ShellPrompt {
    /// bash's prompt as macOS sets it (`\h:\W \u\$`): `host:folder user` before the `$`
    /// (`ericd-2:MacOS eric$ ./run.sh`).
    static func isMacBashPrompt(_ prompt: String) -> Bool {
        let words = prompt.split(separator: " ")
        guard words.count == 2, let colon = words[0].firstIndex(of: ":"), colon > words[0].startIndex,
            words[0].index(after: colon) < words[0].endIndex
        else { return false }
        return words.allSatisfy { word in word.allSatisfy { $0.isLetter || $0.isNumber || "-_.:".contains($0) } }
    }
}

/// A tool's words that one of its helper processes died: the helper named by what it is (an
/// agent, a server, a service, a daemon, a helper, a plugin, an extension), then that it crashed,
/// terminated or quit. An app or a program that "crashed" in a person's sentence is not one: the
/// word before the verb must name a helper.
enum HelperExit {
    /// (A browser's or an editor's window and renderer are helper processes too: Electron's `The
    /// window terminated unexpectedly (reason: 'crashed', code: '10')`; a process pool's worker,
    /// Python's `A process in the process pool was terminated abruptly`.)
    static let helpers = [
        "agent", "server", "service", "daemon", "helper", "plugin", "plug-in", "extension", "worker", "host", "window", "renderer",
        "pool",
    ]
    static let verbs = [
        "crashed", "has crashed", "has terminated", "terminated", "quit unexpectedly", "has quit unexpectedly", "exited unexpectedly",
        "terminated unexpectedly", "died unexpectedly", "stopped unexpectedly", "disappeared unexpectedly", "exited prematurely",
        "was terminated abruptly", "terminated abruptly", "exited abnormally",
    ]
    static let needs = ["rashed", "erminated", "nexpectedly", "rematurely", "bruptly", "bnormally"]

    static func isHelperExit(_ line: Substring) -> Bool {
        guard line.utf8.count <= 600 else { return false }
        let lower = line.lowercased()
        for verb in verbs {
            var from = lower.startIndex
            while let range = lower.range(of: " " + verb, range: from..<lower.endIndex) {
                from = range.upperBound
                // The verb ends its clause: the line's end or punctuation after it (`… has crashed.`,
                // `Terminated - Editor functionality …`), not `crashed when I tap`.
                let after = lower[range.upperBound...].drop { $0 == " " }
                // (`… was terminated abruptly while the future was running`: a program's words,
                // which a person's sentence does not use.)
                let programsWords = verb.hasSuffix("abruptly") || verb.hasSuffix("prematurely") || verb.hasSuffix("abnormally")
                guard programsWords || after.first.map({ [".", ",", "-", ":", ";", "!", "\"", "'", ")", "("].contains($0) }) ?? true
                else { continue }
                let words = lower[..<range.lowerBound].split { !($0.isLetter || $0 == "-") }
                let subject = words.last.map(String.init) ?? ""
                if helpers.contains(subject) { return true }
                // A helper's process by its kind (PostgreSQL's `another server process exited
                // abnormally`, `background worker process`, a parent's `child process`).
                if subject == "process", let kind = words.dropLast().last, helpers.contains(String(kind)) || kind == "child" {
                    return true
                }
            }
        }
        return false
    }
}

extension SignalLine {
    /// The signals that end a process on a fault or a deliberate stop (not the ones a service
    /// is asked to stop with: `Received SIGTERM, shutting down` is no crash).
    static let fatalSignals: Set<String> = ["SIGILL", "SIGTRAP", "SIGABRT", "SIGEMT", "SIGFPE", "SIGKILL", "SIGBUS", "SIGSEGV", "SIGSYS"]
    /// Words that say a signal arrived, before its name in the same sentence.
    static let arrivalWords = [
        "got ", "received ", "receiving ", "caught ", "catching ", "fatal ", "crashed with ", "killed by ", "raised ",
        // `Crash due to signal: SIGTRAP(TRAP_BRKPT)`, `exited with signal SIGSEGV`, `terminated with SIGABRT`.
        "due to signal", "with signal", "terminated with ", "exited with ", "crash signal",
        // fish's `Job 1, 'cmd' terminated by signal SIGABRT (Abort)`, QEMU's `uncaught target signal 6 (Aborted)`.
        "by signal", "target signal ",
        // git's and other parents' words for a helper that died (`error: index-pack died of signal 11`).
        "died of signal", "died with signal",
        // A server's master for a worker that died (nginx's `worker process 1710 exited on signal 11
        // (core dumped)`), and the kernel sending a fault signal (`do_page_fault(): sending SIGSEGV
        // to pthread for invalid read access from …`).
        "exited on signal", "sending ",
    ]

    /// Words a process's status is stated with, before which a negative number is the signal
    /// that ended it (Python's `subprocess` and the test runners built on it: `The asserted
    /// return code is [0], but got -6`, `returncode=-11`, `exit status -6`).
    static let statusWords = ["return code", "returncode", "exit code", "exit status"]

    /// The signal of a negative status a line states, or nil: `-N` after a status word, N a
    /// fatal signal's number (a status of -1 is an error, not a signal).
    static func negativeStatus(in text: Substring) -> String? {
        guard text.utf8.count <= 4_096, text.containsBytes("-") else { return nil }
        let lower = text.lowercased()
        guard let word = statusWords.compactMap({ lower.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) else {
            return nil
        }
        var rest = lower[word.upperBound...]
        while let minus = rest.firstIndex(of: "-") {
            let before = rest[..<minus].last
            let digits = rest[rest.index(after: minus)...].prefix { $0.isASCII && $0.isNumber }
            let after = rest[rest.index(after: minus)...].dropFirst(digits.count).first
            if before.map({ !($0.isLetter || $0.isNumber) }) ?? true, after.map({ !($0.isLetter || $0.isNumber) }) ?? true,
                let number = Int(digits), digits.count <= 2, let name = SignalNames.name(number), fatalSignals.contains(name)
            {
                return name
            }
            rest = rest[rest.index(after: minus)...]
        }
        return nil
    }

    /// A sentence saying a fatal signal arrived, whoever prints it: `Got a SIGABRT while
    /// executing native code` (Mono, .NET), `Fatal signal 11 (SIGSEGV), code 1` (Android),
    /// `Program received signal SIGSEGV, Segmentation fault.` (gdb), `Received signal SIGBUS`,
    /// `Caught signal SIGILL`: the signal's name, a whole word, with an arrival word at most a
    /// few words before it.
    static func statedArrival(in text: Substring) -> String? {
        guard text.containsBytes("SIG") else { return lowercaseArrival(in: text) }
        var rest = text
        while let range = rest.byteRange(of: "SIG") {
            let name = rest[range.lowerBound...].prefix { $0.isASCII && $0.isUppercase }
            let before = text[..<range.lowerBound]
            let boundary = before.last.map { !($0.isLetter || $0.isNumber || $0 == "_") } ?? true
            let after = rest[range.lowerBound...].dropFirst(name.count).first
            if boundary, fatalSignals.contains(String(name)), after.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true {
                let near = before.suffix(32).lowercased()
                if arrivalWords.contains(where: { near.contains($0) }) { return String(name) }
            }
            rest = rest[range.upperBound...]
        }
        return lowercaseArrival(in: text)
    }

    /// The same sentence with the signal in lower case, with or without `sig` (Mono's `Got a
    /// segv while executing native code`, `received sigbus`): the word right after the arrival
    /// word (and `a`/`an`).
    static func lowercaseArrival(in text: Substring) -> String? {
        guard text.utf8.count <= 4_096, mayStateArrival(text.utf8) else { return nil }
        let lower = text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        func isLetter(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
        for word in arrivalWords {
            let needle = Array(word.utf8)
            var at = 0
            while at + needle.count <= lower.count {
                defer { at += 1 }
                guard lower[at] == needle[0], lower[at..<at + needle.count].elementsEqual(needle) else { continue }
                if at > 0, isLetter(lower[at - 1]) { continue }
                var next = at + needle.count
                for article in [[0x61, 0x20], [0x61, 0x6E, 0x20]] as [[UInt8]]
                where lower.count >= next + article.count && lower[next..<next + article.count].elementsEqual(article) {
                    next += article.count
                    break
                }
                // Words between the arrival and the signal (Vim's `Caught deadly signal SEGV`,
                // `got fatal signal 11`, Redis's `crashed by signal: 11`).
                for filler in ["deadly ", "fatal ", "signal: ", "signal ", ": "] {
                    let bytes = Array(filler.utf8)
                    if lower.count >= next + bytes.count, lower[next..<next + bytes.count].elementsEqual(bytes) { next += bytes.count }
                }
                // A number for the signal (QEMU's `uncaught target signal 6 (Aborted)`, `with signal 11`).
                var digitsAt = next
                if digitsAt < lower.count, lower[digitsAt] == 0x20 { digitsAt += 1 }
                var digitsEnd = digitsAt
                while digitsEnd < lower.count, digitsEnd - digitsAt < 3, lower[digitsEnd] >= 0x30, lower[digitsEnd] <= 0x39 {
                    digitsEnd += 1
                }
                if digitsEnd > digitsAt, digitsEnd == lower.count || !(lower[digitsEnd] >= 0x30 && lower[digitsEnd] <= 0x39),
                    let number = Int(String(decoding: lower[digitsAt..<digitsEnd], as: UTF8.self)), let name = SignalNames.name(number),
                    fatalSignals.contains(name)
                {
                    return name
                }
                var end = next
                while end < lower.count, isLetter(lower[end]) { end += 1 }
                guard end > next, end - next <= 8 else { continue }
                var token = String(decoding: lower[next..<end], as: UTF8.self).uppercased()
                // A processor's trap by its number is no signal (FreeBSD's `Fatal trap 12: page fault
                // while in kernel mode`): `cpuTrap` reads its description.
                if token == "TRAP", end + 1 < lower.count, lower[end] == 0x20, lower[end + 1] >= 0x30, lower[end + 1] <= 0x39 { continue }
                if token.hasBytePrefix("SIG") { token.removeFirst(3) }
                if fatalSignals.contains("SIG" + token) { return "SIG" + token }
            }
        }
        return nil
    }
}

extension SignalLine {
    /// Whether an arrival word's first letters (`got`, `rec`, `cau`, `cat`, `fat`, `cra`, `kil`,
    /// `rai`, `due`, `wit`, `ter`, `exi`, `tar`, `by `, `die`) occur in any case: one pass over the bytes without a copy, before the line is
    /// lowercased and searched.
    static func mayStateArrival(_ bytes: Substring.UTF8View) -> Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in bytes {
            let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            switch (previous.0, previous.1, lower) {
            case (0x67, 0x6F, 0x74), (0x72, 0x65, 0x63), (0x63, 0x61, 0x75), (0x63, 0x61, 0x74), (0x66, 0x61, 0x74),
                (0x63, 0x72, 0x61), (0x6B, 0x69, 0x6C), (0x72, 0x61, 0x69), (0x64, 0x75, 0x65), (0x77, 0x69, 0x74),
                (0x74, 0x65, 0x72), (0x65, 0x78, 0x69), (0x74, 0x61, 0x72), (0x62, 0x79, 0x20), (0x64, 0x69, 0x65),
                (0x73, 0x65, 0x6E):
                return true
            default: previous = (previous.1, lower)
            }
        }
        return false
    }
}

/// glibc's allocator's last words (`malloc_printerr`) before it aborts the process.
enum GlibcMallocError {
    /// The allocator's functions that name themselves in its messages.
    static let functions = [
        "free(): ", "malloc(): ", "realloc(): ", "calloc(): ", "munmap_chunk(): ", "malloc_consolidate(): ", "_int_free(): ",
        "_int_malloc(): ", "_int_realloc(): ", "tcache_thread_shutdown(): ",
    ]
    /// Its messages that name no function.
    static let messages = ["double free or corruption", "corrupted size vs. prev_size", "corrupted double-linked list"]
    static let needs = functions + messages

    /// The message alone on its line, or after the older glibc's `*** glibc detected *** PROG: ` or
    /// `*** Error in `PROG': `.
    static let isError: @Sendable (Substring) -> Bool = { text in
        guard text.utf8.count <= 600 else { return false }
        var body = text
        if let marker = body.byteRange(of: "*** glibc detected *** ") {
            let rest = body[marker.upperBound...]
            guard let colon = rest.byteRange(of: ": ") else { return false }
            body = rest[colon.upperBound...]
        } else if body.hasBytePrefix("*** Error in `"), let close = body.byteRange(of: "': ") {
            body = body[close.upperBound...]
        }
        if let function = functions.first(where: { body.hasBytePrefix($0) }) {
            // The allocator's own words after the function (`invalid pointer`, `corrupted top size`,
            // `double free detected in tcache 2`, `unaligned tcache chunk detected`), not a log of code that calls it.
            let words = body.dropFirst(function.utf8.count)
            return [
                "invalid ", "double free", "corrupted ", "memory corruption", "unaligned ", "mismatching ", "unsorted ",
                "largebin ", "smallbin ", "chunk ", "too many chunks",
            ].contains { words.hasBytePrefix($0) }
        }
        return messages.contains { body.hasBytePrefix($0) }
    }
}

/// JavaScript's words for an error no handler caught (browsers' consoles, Node, WebAssembly traps).
enum JavaScriptUncaught {
    /// `Uncaught [(in promise) ]NAME: message`, NAME an error type (`TypeError`, `RuntimeError`,
    /// `DOMException`), anywhere on the line (after a source place, `wasm://…:34 Uncaught …`); or
    /// Node's `UnhandledPromiseRejection` error.
    static let isUncaught: @Sendable (Substring) -> Bool = { text in
        guard text.utf8.count <= 4_096 else { return false }
        if text.containsBytes("[UnhandledPromiseRejection: ") || text.containsBytes("ERR_UNHANDLED_REJECTION") { return true }
        guard let found = text.byteRange(of: "Uncaught ") else { return false }
        var rest = text[found.upperBound...]
        if rest.hasBytePrefix("(in promise) ") { rest = rest.dropFirst(13) }
        let name = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }
        guard name.first?.isUppercase == true, name.hasSuffix("Error") || name.hasSuffix("Exception") else { return false }
        return rest.dropFirst(name.count).hasBytePrefix(":") || rest.count == name.count
    }
}

/// x86 Linux's heading for an oops, the trap's name with the error code and the oops count
/// (`general protection fault: 0000 [#1] SMP`, `general protection fault, probably for
/// non-canonical address 0xdead000000000100: 0000 [#1] PREEMPT SMP NOPTI`, `invalid opcode: 0000
/// [#1] SMP` (a `BUG()`), `divide error: 0000 [#1] SMP`, `Oops: 0002 [#1] SMP`), as
/// arch/x86/kernel/dumpstack.c prints it.
enum LinuxOops {
    static func isOopsHeading(_ text: Substring) -> Bool {
        guard text.utf8.count <= 300, let count = text.byteRange(of: " [#") else { return false }
        let digits = text[count.upperBound...].prefix { $0.isASCII && $0.isNumber }
        let tail = text[count.upperBound...].dropFirst(digits.count)
        guard !digits.isEmpty, tail.first == "]", tail.dropFirst().first.map({ $0 == " " }) ?? true else { return false }
        let heading = text[..<count.lowerBound]
        // RISC-V's and others' `Oops [#1]`, with no error code.
        if heading == "Oops" { return true }
        // The error code in hex after the trap's name.
        guard let colon = heading.lastIndex(of: ":"), heading[heading.index(after: colon)...].trimmedBlanks.allSatisfy(\.isHexDigit)
        else { return false }
        let name = heading[..<colon]
        return [
            "general protection fault", "invalid opcode", "divide error", "Oops", "stack segment", "double fault", "int3",
            "alignment check", "machine check",
        ].contains { name.hasBytePrefix($0) }
    }
}

/// OCaml's runtime for an exception nothing caught (`Fatal error: exception Not_found`,
/// `Fatal error: exception Failure("int_of_big_int")`, `Fatal error: exception Stack_overflow`):
/// an exception constructor, capitalised, with its module path and arguments.
enum OCamlUncaught {
    static let opening = "Fatal error: exception "

    static let isUncaught: @Sendable (Substring) -> Bool = { text in
        guard let found = text.byteRange(of: opening), text.utf8.count <= 2_000 else { return false }
        let before = text[..<found.lowerBound]
        guard before.isEmpty || before.hasSuffix(" ") else { return false }
        let name = text[found.upperBound...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }
        guard name.first?.isUppercase == true, !text.containsBytes(".swift") else { return false }
        let after = text[found.upperBound...].dropFirst(name.count)
        return after.isEmpty || after.first == "(" || after.first == " "
    }
}

/// Clojure's error heading (clojure.main's `ex-str`): the phase, the exception's class in
/// parentheses or none, where it happened in parentheses, a period; the message is on the next line.
enum ClojureError {
    static let isError: @Sendable (Substring) -> Bool = { text in
        guard text.utf8.count <= 1_000, text.hasSuffix(")."),
            text.hasBytePrefix("Execution error ") || text.hasBytePrefix("Execution error at ") || text.hasBytePrefix("Syntax error ")
        else { return false }
        return text.containsBytes(" at (") || text.containsBytes(") at ") || text.containsBytes(".clj")
    }
}

/// Julia's error line: `ERROR: ` (and `LoadError: ` for an error in an included file), then the
/// error's type, capitalised and named an error or exception, then its message.
enum JuliaError {
    static let isError: @Sendable (Substring) -> Bool = { text in
        guard text.hasBytePrefix("ERROR: "), text.utf8.count <= 4_000 else { return false }
        var rest = text.dropFirst(7)
        if rest.hasBytePrefix("LoadError: ") { rest = rest.dropFirst(11) }
        let name = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }
        guard name.first?.isUppercase == true, name.hasSuffix("Error") || name.hasSuffix("Exception") else { return false }
        let after = rest.dropFirst(name.count)
        return after.hasBytePrefix(": ") || after.hasBytePrefix("(") || after.isEmpty
    }
}

/// R's error line, `Error in CALL : MESSAGE` (the message may go to the next line, after ` :`).
enum RError {
    static let isError: @Sendable (Substring) -> Bool = { text in
        guard text.hasBytePrefix("Error in "), text.utf8.count <= 2_000 else { return false }
        return text.containsBytes(" : ") || text.hasSuffix(" :")
    }
}

/// Perl's fatal errors as `die` prints them, `MESSAGE at FILE line N.` (with `, <FH> line M` after
/// a read): the message one of perldiag's fatal `(F)` class, the ones a script cannot go on after.
enum PerlDie {
    static let fatalOpenings = [
        "Can't locate ", "Can't call method ", "Can't use an undefined value", "Can't use string ", "Can't use ",
        "Undefined subroutine ", "Not a HASH reference", "Not an ARRAY reference", "Not a CODE reference", "Not a SCALAR reference",
        "Not a GLOB reference", "Illegal division by zero", "Illegal modulus zero", "Died", "Modification of a read-only value",
        "Modification of non-creatable", "Global symbol ", "BEGIN failed--compilation aborted", "Compilation failed in require",
        "Out of memory", "Can't coerce ", "Bizarre copy of ", "Attempt to bless into a reference",
    ]

    static let isFatal: @Sendable (Substring) -> Bool = { text in
        guard text.utf8.count <= 2_000, fatalOpenings.contains(where: { text.hasBytePrefix($0) }) else { return false }
        // ` at FILE line N.` (or `…, <STDIN> line 3.`) ends it.
        guard let at = text.range(of: " at ", options: .backwards), let line = text[at.upperBound...].byteRange(of: " line ") else {
            return false
        }
        let digits = text[line.upperBound...].prefix { $0.isASCII && $0.isNumber }
        let rest = text[line.upperBound...].dropFirst(digits.count)
        return !digits.isEmpty && (rest.hasBytePrefix(".") || rest.hasBytePrefix(","))
    }
}

/// GHC's top-level handler for an exception nothing caught: `PROGRAM: TEXT`, the text the
/// exception's `show` gives. Taken when the text is one the base library's partial functions and
/// the runtime print (GHC.List's `Prelude.head: empty list`, Data.Maybe's, Data.Map's, the
/// runtime's `<<loop>>` and overflows) or a pattern failure with its `.hs` place.
enum HaskellUncaught {
    static let openings = [
        "Prelude.", "Maybe.fromJust", "Map.!", "Data.Map.", "IntMap.!", "Data.IntMap.", "<<loop>>", "stack overflow", "heap overflow",
        "divide by zero", "arithmetic overflow", "arithmetic underflow", "Ix{", "Data.Array.", "GHC.List.", "Data.List.", "Data.Vector.",
        "Data.Text.", "Data.ByteString.",
    ]
    static let patternFailures = [
        "Non-exhaustive patterns in ", "Irrefutable pattern failed", "Missing field in record construction",
        "No instance nor default method", "No match in record selector", "Non-exhaustive guards in ",
    ]
    static let needs = openings + patternFailures

    static let isUncaught: @Sendable (Substring) -> Bool = { text in
        guard text.utf8.count <= 2_000, let colon = text.byteRange(of: ": ") else { return false }
        let program = text[..<colon.lowerBound]
        guard !program.isEmpty, program.utf8.count <= 80, !program.containsBytes(" "), program.first?.isLetter == true else { return false }
        let rest = text[colon.upperBound...]
        if openings.contains(where: { rest.hasBytePrefix($0) }) { return true }
        return rest.containsBytes(".hs:") && patternFailures.contains { rest.containsBytes($0) }
    }
}

/// Ruby's report of an exception nothing rescued, the line the interpreter prints as it exits.
/// A JVM exception's class, package first, at the start of a line: a managed runtime's exception.
enum JVMExceptionLine {
    static let packages = ["java.", "javax.", "kotlin.", "kotlinx.", "android.", "androidx.", "com.", "org.", "io.", "scala.", "dalvik."]

    static let isException: @Sendable (Substring) -> Bool = { text in
        guard packages.contains(where: { text.hasBytePrefix($0) }) else { return false }
        let name = text.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "$") }
        guard name.count < text.count ? text.dropFirst(name.count).hasBytePrefix(": ") : true else { return false }
        let parts = name.split(separator: ".")
        guard parts.count >= 3, let last = parts.last, last.first?.isUppercase == true else { return false }
        return last.hasSuffix("Exception") || last.hasSuffix("Error")
    }
}

extension CrashMessageGrammar {
    /// Elixir's `** (Name) message`: the exception module in parentheses after two stars.
    static let isElixirException: @Sendable (Substring) -> Bool = { text in
        guard text.hasBytePrefix("** (") else { return false }
        let name = text.dropFirst(4).prefix { $0 != ")" }
        // (`** (EXIT) …` is a supervisor's reason, not an exception module: a module's name has
        // lower-case letters.)
        guard let first = name.first, first.isUppercase, name.contains(where: \.isLowercase), name.count < 80,
            text.dropFirst(4 + name.count).hasBytePrefix(") "),
            name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" })
        else { return false }
        return true
    }
}

/// The memory checkers that stop a process on the error they find (`CrashMessageGrammar`).
enum MemoryCheckerReport {
    static let literals = ["Sanitizer: ", "Scudo ERROR", "GWP-ASan", "BUG: KASAN: ", "BUG: KFENCE: "]

    static let isReport: @Sendable (Substring) -> Bool = { text in
        if text.containsBytes("Scudo ERROR: ") || text.containsBytes("GWP-ASan detected a memory error") { return true }
        if text.containsBytes("BUG: KASAN: ") || text.containsBytes("BUG: KFENCE: ") { return true }
        // `ERROR: <Name>Sanitizer: <kind>` (ASan, HWASan, MSan, UBSan's fatal errors), and the
        // summary line of the ones whose every error ends the process.
        if let found = text.byteRange(of: "ERROR: ") {
            let name = text[found.upperBound...].prefix { $0.isASCII && $0.isLetter }
            // (LeakSanitizer's report comes when the program has ended on its own: leaks, no crash.)
            if name.hasSuffix("Sanitizer"), name != "LeakSanitizer", text[found.upperBound...].dropFirst(name.count).hasBytePrefix(": ") {
                return true
            }
        }
        for name in ["AddressSanitizer", "HWAddressSanitizer", "MemorySanitizer"] where text.containsBytes("SUMMARY: \(name): ") {
            return !text.containsBytes(" leaked in ")
        }
        return false
    }
}

/// A GPU's failure the process does not survive, in the words of the API it used (`CrashMessageGrammar`).
enum GPUFailure {
    static let literals = ["VK_ERROR_DEVICE_LOST", "DXGI_ERROR_DEVICE_", "D3DERR_DEVICELOST", "CUDA error: ", "CUDA_ERROR_", "cudaError"]
    static let memoryLiterals = ["CUDA out of memory", "CUDA_ERROR_OUT_OF_MEMORY", "cudaErrorMemoryAllocation"]

    static let isDeviceFailure: @Sendable (Substring) -> Bool = { text in
        guard text.utf8.count <= 2_000 else { return false }
        if text.containsBytes("VK_ERROR_DEVICE_LOST") || text.containsBytes("D3DERR_DEVICELOST") { return true }
        for code in ["DXGI_ERROR_DEVICE_HUNG", "DXGI_ERROR_DEVICE_REMOVED", "DXGI_ERROR_DEVICE_RESET"] where text.containsBytes(code) {
            return true
        }
        // CUDA's runtime and driver errors, by name or as its `cudaGetErrorString` words after `CUDA error: `.
        if text.containsBytes("CUDA error: ") { return true }
        if text.containsBytes("CUDA_ERROR_"), !text.containsBytes("CUDA_ERROR_OUT_OF_MEMORY") { return true }
        if let found = text.byteRange(of: "cudaError") {
            let name = text[found.upperBound...].prefix { $0.isASCII && $0.isLetter }
            return !name.isEmpty && name != "MemoryAllocation" && name != "Success"
        }
        return false
    }

    static let isOutOfMemory: @Sendable (Substring) -> Bool = { text in
        text.utf8.count <= 2_000 && memoryLiterals.contains { text.containsBytes($0) }
    }
}

/// Microcontroller firmware's fault handlers, with the signal each fault is on a desktop system.
enum FirmwareFault {
    static let literals = ["Guru Meditation Error", "Exception (", "ZEPHYR FATAL ERROR", "***** "]

    /// Xtensa's exception causes (ESP32's `panic'ed (LoadProhibited)`, ESP8266's `Exception (28)`).
    static let xtensaCauses: [(number: Int, name: String, signal: String)] = [
        (0, "IllegalInstruction", "SIGILL"), (2, "InstructionFetchError", "SIGSEGV"), (3, "LoadStoreError", "SIGBUS"),
        (6, "IntegerDivideByZero", "SIGFPE"), (9, "LoadStoreAlignment", "SIGBUS"), (20, "InstFetchProhibited", "SIGSEGV"),
        (20, "InstrFetchProhibited", "SIGSEGV"),
        (28, "LoadProhibited", "SIGSEGV"), (29, "StoreProhibited", "SIGSEGV"),
    ]

    static func signal(in text: Substring) -> String? {
        guard text.utf8.count <= 400 else { return nil }
        if let found = text.byteRange(of: "Guru Meditation Error: ") {
            let rest = text[found.upperBound...]
            if let cause = xtensaCauses.first(where: { rest.containsBytes("(\($0.name))") }) { return cause.signal }
            if rest.containsBytes("Unhandled debug exception") || rest.containsBytes("Stack canary")
                || rest.containsBytes("Stack protection")
            {
                return "SIGSEGV"
            }
            return rest.containsBytes("panic'ed") ? "SIGABRT" : nil
        }
        // `Exception (28):` alone on its line, the ESP8266 core's heading over its registers.
        if text.hasBytePrefix("Exception ("), text.hasSuffix("):") {
            let digits = text.dropFirst(11).dropLast(2)
            if let number = Int(digits), let cause = xtensaCauses.first(where: { $0.number == number }) { return cause.signal }
            return nil
        }
        if text.containsBytes(">>> ZEPHYR FATAL ERROR ") {
            return text.containsBytes("Stack overflow") || text.containsBytes("CPU exception") ? "SIGSEGV" : "SIGABRT"
        }
        // Cortex-M's fault banners as Zephyr and other RTOSes print them.
        let banner = text.trimmingCharacters(in: CharacterSet(charactersIn: "* "))
        switch banner {
        case "MPU FAULT", "BUS FAULT", "HARD FAULT", "MEMORY MANAGEMENT FAULT": return banner == "BUS FAULT" ? "SIGBUS" : "SIGSEGV"
        case "USAGE FAULT": return "SIGILL"
        default: return nil
        }
    }
}

/// Lua's runtime error for an operation on a value of the wrong type (`attempt to index local 'x'
/// (a nil value)`, 5.3's `attempt to call a nil value (global 'f')`).
enum LuaError {
    static let operations = [
        "index", "call", "perform arithmetic on", "concatenate", "compare", "get length of", "perform bitwise operation on",
    ]

    static let isError: @Sendable (Substring) -> Bool = { text in
        guard text.utf8.count <= 2_000, let found = text.byteRange(of: "attempt to ") else { return false }
        let rest = text[found.upperBound...]
        guard operations.contains(where: { rest.hasBytePrefix($0 + " ") }) else { return false }
        return rest.containsBytes(" value")
            && (rest.containsBytes(" (a ") || rest.containsBytes(" a nil value") || rest.containsBytes(" two "))
    }

    /// Lua's other runtime errors (`luaG_runerror`, `luaL_argerror`), taken after the chunk's place
    /// (`main.lua:12: bad argument #1 to 'insert' (table expected, got nil)`, `x.lua:3: stack
    /// overflow`): anywhere in the line, so the interpreter's `lua: `, an editor's `E5108: Error
    /// executing lua` and a crash table's quotes around it are read alike.
    static let placedMessages = [
        "bad argument #", "stack overflow", "C stack overflow", "table index is nil", "table index is NaN", "attempt to yield ",
        "attempt to assign to const variable", "invalid key to 'next'", "number has no integer representation",
        "wrong number of arguments", "attempt to perform 'n//0'", "attempt to perform 'n%%0'",
    ]

    static let isPlacedError: @Sendable (Substring) -> Bool = { text in
        guard text.utf8.count <= 2_000 else { return false }
        var rest = text
        while let found = rest.byteRange(of: ".lua:") {
            let after = rest[found.upperBound...]
            let digits = after.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, after.dropFirst(digits.count).hasBytePrefix(": ") {
                let message = after.dropFirst(digits.count + 2)
                if placedMessages.contains(where: { message.hasBytePrefix($0) }) { return true }
            }
            rest = after
        }
        return false
    }
}

enum RubyUncaught {
    /// `FILE:LINE:in `METHOD': MESSAGE (CLASS)` (Ruby 3.4 quotes the method `'METHOD'`): a source
    /// place, the method, then the message with the exception's class in parentheses last.
    static let isUncaught: @Sendable (Substring) -> Bool = { text in
        guard text.utf8.count <= 4_096 else { return false }
        guard let marker = text.byteRange(of: ":in `") ?? text.byteRange(of: ":in '") else { return withoutMethod(text) }
        let place = text[..<marker.lowerBound]
        guard let colon = place.lastIndex(of: ":"), !place[place.index(after: colon)...].isEmpty,
            place[place.index(after: colon)...].allSatisfy({ $0.isASCII && $0.isNumber }), place[..<colon].hasSuffix(".rb")
        else { return false }
        guard let close = text[marker.upperBound...].byteRange(of: "': "), text.hasSuffix(")"), let open = text.lastIndex(of: "("),
            open > close.upperBound
        else { return false }
        let name = text[text.index(after: open)..<text.index(before: text.endIndex)]
        return isClassName(name)
    }

    static func isClassName(_ name: Substring) -> Bool {
        name.first?.isUppercase == true && name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ":") })
    }

    /// `FILE:LINE: MESSAGE (CLASS)` with no method, as Ruby prints an exception raised at a script's
    /// top level or whose backtrace it cut (`~/xiki/bin/xiki:2: stack level too deep
    /// (SystemStackError)`): taken when the class is named as an error or exception.
    static func withoutMethod(_ text: Substring) -> Bool {
        guard text.hasSuffix("Error)") || text.hasSuffix("Exception)"), let open = text.lastIndex(of: "("),
            isClassName(text[text.index(after: open)..<text.index(before: text.endIndex)])
        else { return false }
        // The place: a path without blanks, `:`, the line, `: `, at the start (past a prompt's `$ `).
        var line = text
        if line.hasBytePrefix("$ ") { line = line.dropFirst(2) }
        guard let separator = line.byteRange(of: ": "), separator.upperBound < open else { return false }
        let place = line[..<separator.lowerBound]
        guard let colon = place.lastIndex(of: ":"), !place[..<colon].isEmpty, !place[..<colon].containsBytes(" "),
            !place[place.index(after: colon)...].isEmpty, place[place.index(after: colon)...].allSatisfy({ $0.isASCII && $0.isNumber })
        else { return false }
        return place[..<colon].containsBytes("/") || place[..<colon].hasSuffix(".rb")
    }
}

/// POSIX signal numbers as Darwin numbers them (the common ones a shell reports).
enum SignalNames {
    /// Linux's numbers, which exit statuses above 128 and Linux programs' logs use (SIGBUS is 7
    /// there, 10 on Apple's systems; SIGSYS 31, 12).
    static func linuxName(_ number: Int) -> String? {
        switch number {
        case 7: "SIGBUS"
        case 31: "SIGSYS"
        case 10, 12: nil
        default: name(number)
        }
    }

    static func name(_ number: Int) -> String? {
        switch number {
        case 4: "SIGILL"
        case 5: "SIGTRAP"
        case 6: "SIGABRT"
        case 8: "SIGFPE"
        case 9: "SIGKILL"
        case 10: "SIGBUS"
        case 11: "SIGSEGV"
        case 15: "SIGTERM"
        default: nil
        }
    }
}

// MARK: - Xcode's annotation

/// Xcode's annotation of the stopped thread as people copy it: `Thread 1: signal SIGABRT`,
/// `Thread 1：EXC_BAD_ACCESS(…)` (a full-width colon from a localised system), or a named
/// thread `BackgroundWorker (11): EXC_BAD_ACCESS (…)`. The text after it is the reason.
enum ThreadAnnotation {
    /// The reason an annotation holds. A named thread's (`Name (N): …`) counts only when its
    /// reason is a crash message of its own: `Word (2): …` is common in other text.
    static func reason(_ line: String) -> String? {
        guard let found = annotation(line) else { return nil }
        if found.named, CrashMessageGrammar.match(found.reason) == nil { return nil }
        return found.reason
    }

    /// Xcode's annotation copied with the source line it stands beside (`self.label.text =
    /// item.name;  //Thread 1: EXC_BAD_ACCESS (code=1, …)`, `0x10c0bde3e <+10>: jae … ; <+20>
    /// //Thread 12: signal SIGABRT`): the annotation after a comment mark or a run of blanks, and
    /// the code before it, which is the line where the thread stopped. Only a reason that is a
    /// crash message of its own counts (`Thread 1:` inside other prose is not Xcode's).
    static func trailing(_ line: String) -> (reason: String, code: String)? {
        guard line.containsBytes("Thread "), let marker = line.byteRange(of: "Thread "), marker.lowerBound > line.startIndex else {
            return nil
        }
        let before = line[..<marker.lowerBound]
        var code = before.trimmedBlanks
        // `Thread` starts a word (after a blank, a comment mark, `(`, `:`); what stood before it
        // is the code, without the poster's words that point at the annotation.
        guard let last = before.last, !(last.isLetter || last.isNumber || last == "_") else { return nil }
        for mark in ["//", "/*", "<-", "←", "#", "--", "(", ":"] where code.hasSuffix(mark) {
            code = String(code.dropLast(mark.count)).trimmedBlanks
        }
        // `… (shows this error here :Thread 1: …)`: the parenthesis the poster opened.
        if let open = code.lastIndex(of: "("), !code[open...].contains(")") { code = String(code[..<open]).trimmedBlanks }
        var annotated = String(line[marker.lowerBound...])
        if annotated.hasSuffix(")"), annotated.filter({ $0 == ")" }).count > annotated.filter({ $0 == "(" }).count {
            annotated.removeLast()
        }
        guard !code.isEmpty, let found = annotation(annotated),
            CrashMessageGrammar.match(found.reason) != nil || MachExceptionLine.named(in: Substring(found.reason)) != nil
        else { return nil }
        return (found.reason, code)
    }

    private static func annotation(_ line: String) -> (reason: String, named: Bool)? {
        let text = Substring(line.trimmedBlanks)
        var rest: Substring
        var numberless = false
        if text.hasBytePrefix("Thread ") || text.hasBytePrefix("Thread:") {
            rest = text.dropFirst(6)
            var digits = rest.drop { $0 == " " }.prefix { $0.isASCII && $0.isNumber }
            // A poster's placeholder for the number (`Thread x: EXC_BREAKPOINT …`, `Thread N:`).
            let placeholder = rest.drop { $0 == " " }.prefix(2)
            if digits.isEmpty, placeholder.count == 2, let mark = placeholder.first, "xXnN#".contains(mark), placeholder.last == ":" {
                digits = placeholder.prefix(1)
            }
            guard digits.count < 6 else { return nil }
            // A crash service's title of the crashed thread, without its number (`Thread : Fatal
            // Exception: X`): read as a named thread's, only for a crash message of its own.
            numberless = digits.isEmpty
            rest = rest.drop { $0 == " " }.dropFirst(digits.count)
        } else if let open = text.byteRange(of: " ("), open.lowerBound > text.startIndex {
            // `Name (N): …`: a thread name without blanks, its number in parentheses.
            let name = text[..<open.lowerBound]
            guard !name.containsBytes(" "), name.count <= 64 else { return nil }
            rest = text[open.upperBound...]
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count < 6, rest.dropFirst(digits.count).hasBytePrefix(")") else { return nil }
            rest = rest.dropFirst(digits.count + 1)
        } else {
            return nil
        }
        // `Thread 1: …`, and as typed by hand, `Thread 1 : …`.
        rest = rest.drop { $0 == " " }
        guard rest.hasBytePrefix(":") || rest.hasBytePrefix("：") else { return nil }
        let reason = rest.dropFirst().trimmedBlanks
        return reason.isEmpty ? nil : (reason, numberless || !text.hasBytePrefix("Thread"))
    }

    /// What Xcode shows for a thread stopped by the debugger, not by a crash.
    static func isDebuggerStop(_ reason: String) -> Bool {
        ["breakpoint", "step ", "instruction step", "Queue :", "signal SIGSTOP", "signal SIGINT", "watchpoint"].contains {
            reason.hasBytePrefix($0)
        }
    }
}

// MARK: - Frames

/// Frame lines in the syntaxes people paste, besides Apple's and LLDB's (read by
/// `TextReportParser.parseFrame` and `LLDBLine.frame`). Frames without an address are kept with
/// their names (`Frame.hasAddress` false): explain reads them; nothing looks them up.
package enum PastedFrameGrammar {
    typealias Parser = @Sendable (String, Int) -> Frame?

    /// Tried in order on a trimmed line; `numbered` when the syntax prints the frame's number
    /// (a list that starts again at 0 is another thread's).
    static let parsers: [(parse: Parser, numbered: Bool)] = [
        // (`backtraceSymbols` first: its whole line is one object path and a bracketed address, which
        // looser syntaxes below would take with the path's parentheses in the name.)
        (backtraceSymbols, false), (kernelFrame, false), (windowsFaultingModule, false), (androidTombstone, true), (valgrindFrame, false),
        (gdbStyle, true),
        (rustStyle, true), (glogStackFrame, false),
        (bracketedAddress, false),
        (bareHexAddress, true), (boostStyle, true),
        (placeAddressIn, false),
        (luaTraceback, false), (ocamlBacktrace, false), (crystalFrame, false), (juliaNativeFrame, false), (dartVMFrame, false),
        (checkJNIFrom, false),
        (pythonStyle, false),
        (rubyStyle, false),
        (haskellCallStack, false), (hockeyApp, false),
        (hockeyAppColumns, false),
        (quotedFileLine, true),
        (numberedWithoutAddress, true), (jvmNativeFrame, false), (addressImageSymbol, false), (placeDashSymbol, false),
        (imageColonSymbol, false),
        (v8Frame, false), (managedFrame, false),
        (pathAndSymbol, false), (fileLineTitle, false),
        (symbolWithOffset, false), (addressSymbol, false),
    ]

    /// A frame's number at the start of `text` (at most five digits), the punctuation after it
    /// (Rust's `3:`, gdb's optional `#3.`), then blanks: the number and the rest.
    static func numberThenBlank(_ text: Substring, punctuation: Character, required: Bool) -> (index: Int, rest: Substring)? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 5, let index = Int(digits) else { return nil }
        var rest = text.dropFirst(digits.count)
        if rest.first == punctuation {
            rest = rest.dropFirst()
        } else if required {
            return nil
        }
        guard rest.first == " " || rest.first == "\t" else { return nil }
        return (index, rest.drop { $0 == " " || $0 == "\t" })
    }

    /// A kernel's own backtrace line, as Linux prints its oopses and panics and FreeBSD's DDB its
    /// traces: the function with its offset and length (`fzap_length+0x85/0xf0 [zfs]`), after the
    /// register that held it (`RIP: 0010:zap_leaf_lookup+0x4d/0x170 [zfs]`, arm64's `pc :`,
    /// older ARM's `PC is at`), after the address in `[<…>]` (kernels before 4.x and Android's),
    /// marked `?` when the unwinder only found it on the stack; ARM's `[<c0…>] (f+0x1c/0x30) from
    /// [<c0…>] (g+0x…)` (the frame's function is the first); syzkaller's and KASAN's with the
    /// source place after it (`dump_stack_lvl+0xe3/0x150 lib/dump_stack.c:106`); DDB's
    /// `trap_pfault() at trap_pfault+0x46/frame 0xfffffe…`. The image is the module in brackets,
    /// else `kernel` (the kernel's own image). The `/0x` length (or DDB's `/frame 0x`) is the mark
    /// no other frame syntax prints.
    static let kernelFrame: Parser = { line, reportLine in
        guard line.utf8.count <= 1_000, line.containsBytes("/0x") || line.containsBytes("/frame 0x") else { return nil }
        var rest = Substring(line).trimmedBlanks[...]
        // The register that held the address (`RIP: 0010:`, `RIP  `, `IP: `, `EIP: 0060:`, `pc : `,
        // `lr : `, `PC is at `, `LR is at `).
        for label in ["PC is at ", "LR is at ", "pc : ", "lr : ", "ip : "] where rest.hasBytePrefix(label) {
            rest = rest.dropFirst(label.count)
        }
        let label = rest.prefix { $0.isASCII && $0.isUppercase }
        if (2...3).contains(label.count), label.hasSuffix("IP") {
            var after = rest.dropFirst(label.count)
            if after.first == ":" { after = after.dropFirst() }
            after = after.drop { $0 == " " }
            // The code segment (`0010:`).
            let segment = after.prefix { $0.isHexDigit }
            if segment.count == 4, after.dropFirst(4).first == ":" { after = after.dropFirst(5) }
            rest = after
        }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        // `[<ffffffff810a1b2c>]`, once or twice, then `?` for a guess.
        while rest.hasBytePrefix("[<") {
            let hex = rest.dropFirst(2).prefix { $0.isHexDigit }
            guard !hex.isEmpty, hex.count <= 16, rest.dropFirst(2 + hex.count).hasBytePrefix(">]") else { return nil }
            if !frame.hasAddress, let address = UInt64(hex, radix: 16) {
                frame.address = address
                frame.hasAddress = true
            }
            rest = rest.dropFirst(4 + hex.count).drop { $0 == " " || $0 == "\t" }
        }
        if rest.hasBytePrefix("? ") { rest = rest.dropFirst(2) }
        // ARM's parenthesised function, with its offset or (on the `from` lines) without.
        if rest.first == "(", let close = rest.firstIndex(of: ")") {
            let inside = rest[rest.index(after: rest.startIndex)..<close]
            if !inside.containsBytes("+0x"), rest[close...].hasBytePrefix(") from [<"),
                let first = inside.first, first.isLetter || first == "_",
                inside.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") })
            {
                frame.symbol = String(inside)
                frame.imageName = KernelTrapPath.image
                return frame
            }
            rest = inside
        }
        // DDB: `name() at name+0x46/frame 0x…`.
        if let at = rest.byteRange(of: "() at "), rest.containsBytes("/frame 0x") {
            rest = rest[at.upperBound...]
        }
        let name = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "$") }
        guard let first = name.first, first.isLetter || first == "_" else { return nil }
        var after = rest.dropFirst(name.count)
        guard after.hasBytePrefix("+0x") else { return nil }
        let offset = after.dropFirst(3).prefix { $0.isHexDigit }
        after = after.dropFirst(3 + offset.count)
        if after.hasBytePrefix("/frame 0x") {
            after = after.dropFirst(9).drop { $0.isHexDigit }
        } else {
            guard after.hasBytePrefix("/0x") else { return nil }
            let length = after.dropFirst(3).prefix { $0.isHexDigit }
            guard !length.isEmpty else { return nil }
            after = after.dropFirst(3 + length.count)
        }
        guard !offset.isEmpty, after.isEmpty || after.first == " " || after.first == "\t" else { return nil }
        frame.symbol = String(name)
        frame.symbolOffset = UInt64(offset, radix: 16)
        frame.imageName = KernelTrapPath.image
        for word in after.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            if word.first == "[", word.count > 2, !word.hasBytePrefix("[inline") {
                // `[zfs]`, `[nvidia(POE)]`, `[zfs` before a build id.
                let module = word.dropFirst().prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
                if !module.isEmpty { frame.imageName = String(module) }
            } else if let colon = word.lastIndex(of: ":"), let number = Int(word[word.index(after: colon)...]),
                isSourceFile(String(word[..<colon].split(separator: "/").last ?? ""))
            {
                frame.sourceFile = String(word[..<colon])
                frame.sourceLine = number
            }
        }
        return frame
    }

    /// Android's CheckJNI names the Java method whose native code made the bad call, under its
    /// `JNI DETECTED ERROR IN APPLICATION:` line: `from java.lang.Object com.example.Handler.hook(long,
    /// java.lang.String)`, `from void com.example.Native.run()` (the return type, the method).
    static let checkJNIFrom: Parser = { line, reportLine in
        guard line.hasBytePrefix("from "), line.hasSuffix(")"), line.utf8.count <= 2_000 else { return nil }
        let rest = line.dropFirst(5)
        guard let blank = rest.firstIndex(of: " ") else { return nil }
        let type = rest[..<blank]
        let method = rest[rest.index(after: blank)...]
        guard !type.isEmpty,
            type.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "[" || $0 == "]" || $0 == "$" }),
            let open = method.firstIndex(of: "("), !method[..<open].containsBytes(" ")
        else { return nil }
        let name = method[..<open]
        guard name.containsBytes("."), name.first?.isLetter == true, !name.hasSuffix(".") else { return nil }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        frame.symbol = String(method)
        return frame
    }

    /// The Dart VM's native stack under its `===== CRASH =====` banner (`Profiler::DumpStackTrace`):
    /// `pc 0x01967460 fp 0x6e63e798 unw_get_proc_info`, `pc 0x… fp 0x… dart::Thread::Exit()+0x2c`,
    /// `pc 0x… fp 0x… /lib/arm-linux-gnueabihf/libgcc_s.so.1+0x19e40`, `… Unknown symbol`.
    static let dartVMFrame: Parser = { line, reportLine in
        guard line.hasBytePrefix("pc 0x"), line.utf8.count <= 1_000 else { return nil }
        let words = line.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: true)
        guard words.count == 5, words[2] == "fp", words[3].hasBytePrefix("0x"),
            let address = UInt64(words[1].dropFirst(2), radix: 16), UInt64(words[3].dropFirst(2), radix: 16) != nil
        else { return nil }
        var frame = Frame(index: 0, address: address, reportLine: reportLine)
        var what = words[4]
        guard what != "Unknown symbol" else { return frame }
        var offset: UInt64?
        if let plus = what.range(of: "+0x", options: .backwards), let value = UInt64(what[plus.upperBound...], radix: 16) {
            offset = value
            what = what[..<plus.lowerBound]
        }
        guard !what.isEmpty else { return nil }
        if what.hasBytePrefix("/") || what.hasSuffix(".so") || what.containsBytes(".so.") || what.hasSuffix(".dylib") {
            // An image and the offset in it, when the VM found no symbol.
            frame.imageName = what.split(separator: "/").last.map(String.init)
            frame.imageOffset = offset
        } else {
            frame.symbol = String(what)
            frame.symbolOffset = offset
        }
        return frame
    }

    /// Crystal's exception backtrace: `from /usr/share/crystal/src/array.cr:606:62 in '[]'`, `from
    /// src/app.cr:3:1 in '__crystal_main'` (the place, then the method in quotes).
    static let crystalFrame: Parser = { line, reportLine in
        guard line.hasBytePrefix("from "), line.hasSuffix("'"), line.utf8.count <= 1_000, let marker = line.byteRange(of: " in '") else {
            return nil
        }
        guard let (place, number) = fileLineColumn(line[line.index(line.startIndex, offsetBy: 5)..<marker.lowerBound]),
            place.hasSuffix(".cr"), !place.containsBytes(" ")
        else { return nil }
        let name = line[marker.upperBound..<line.index(before: line.endIndex)]
        guard !name.isEmpty else { return nil }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        frame.symbol = String(name)
        frame.sourceFile = String(place)
        frame.sourceLine = number
        // The standard library's sources, where the compiler is installed.
        if place.containsBytes("/share/crystal/src/") || place.hasBytePrefix("/usr/lib/crystal/") { frame.imageName = "crystal" }
        return frame
    }

    /// Julia's backtrace after its signal line (`jl_f_tuple at /…/src/builtins.c:568`, `julia_main at
    /// /home/p/2584.jl:112`, `jl_is_leaf_type_ at /…/julia.h:993 [inlined]`, `main at ./2584 (unknown
    /// line)`): the function, `at`, its place.
    static let juliaNativeFrame: Parser = { line, reportLine in
        guard line.utf8.count <= 1_000, let at = line.byteRange(of: " at ") else { return nil }
        let name = line[..<at.lowerBound]
        var place = line[at.upperBound...]
        guard !name.isEmpty, !name.containsBytes(" "), name.first.map({ $0.isLetter || $0 == "_" || $0 == "#" }) == true else {
            return nil
        }
        var number: Int?
        if place.hasSuffix(" (unknown line)") {
            place = place.dropLast(15)
        } else {
            if place.hasSuffix(" [inlined]") { place = place.dropLast(10) }
            guard let colon = place.lastIndex(of: ":"), let value = Int(place[place.index(after: colon)...]) else { return nil }
            number = value
            place = place[..<colon]
        }
        guard !place.isEmpty, !place.containsBytes(" "), place.containsBytes("/") || place.containsBytes(".") else { return nil }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        frame.symbol = String(name)
        if let number {
            frame.sourceFile = String(place)
            frame.sourceLine = number
        } else {
            frame.imageName = place.split(separator: "/").last.map(String.init)
        }
        return frame
    }

    /// OCaml's backtrace (`OCAMLRUNPARAM=b`): `Raised at Stdlib__Hashtbl.find in file "hashtbl.ml",
    /// line 546, characters 13-28`, `Called from Main in file "bin/main.ml" (inlined), line 3, …`,
    /// `Re-raised at …`, `Raised by primitive operation at …`; before 4.11 without the function
    /// (`Raised at file "map.ml", line 118, characters 16-25`).
    static let ocamlBacktrace: Parser = { line, reportLine in
        let openings = ["Raised at ", "Called from ", "Re-raised at ", "Raised by primitive operation at "]
        guard line.utf8.count <= 2_000, let opening = openings.first(where: { line.hasBytePrefix($0) }),
            let file = line.byteRange(of: "file \""), let close = line[file.upperBound...].firstIndex(of: "\""),
            let number = line[close...].byteRange(of: "line ")
        else { return nil }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        frame.sourceFile = String(line[file.upperBound..<close])
        frame.sourceLine = Int(line[number.upperBound...].prefix { $0.isASCII && $0.isNumber })
        let name = line[line.index(line.startIndex, offsetBy: opening.count)..<file.lowerBound]
        if name.hasSuffix(" in ") {
            frame.symbol = String(name.dropLast(4))
        } else {
            // (Before 4.11 the frame names only its file.)
            frame.symbol = (frame.sourceFile as NSString?)?.lastPathComponent
        }
        return frame
    }

    /// Lua's `stack traceback:` (`luaL_traceback`): `main.lua:5: in function 'foo'` (5.4: `in local
    /// 'foo'`, `in method 'bar'`, `in field 'baz'`, `in upvalue 'f'`, `in function <main.lua:3>`),
    /// `main.lua:10: in main chunk`, a C function's `[C]: in function 'error'` or `[C]: in ?`.
    static let luaTraceback: Parser = { line, reportLine in
        guard line.utf8.count <= 1_000, let marker = line.byteRange(of: ": in ") else { return nil }
        let place = line[..<marker.lowerBound]
        let what = line[marker.upperBound...].trimmedBlanks
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        if place == "[C]" {
            frame.imageName = "[C]"
        } else {
            guard let colon = place.lastIndex(of: ":"), let number = Int(place[place.index(after: colon)...]) else { return nil }
            let file = place[..<colon]
            guard file.hasSuffix(".lua") || file.hasBytePrefix("[string \""), !file.containsBytes(" ") || file.hasBytePrefix("[string")
            else { return nil }
            frame.sourceFile = String(file)
            frame.sourceLine = number
        }
        if what == "main chunk" || what == "?" {
            frame.symbol = what == "?" ? nil : "main chunk"
        } else {
            let kinds = ["function ", "local ", "method ", "field ", "upvalue ", "global ", "metamethod "]
            guard let kind = kinds.first(where: { what.hasBytePrefix($0) }) else { return nil }
            var name = what.dropFirst(kind.count)
            if (name.first == "'" && name.last == "'") || (name.first == "<" && name.last == ">"), name.count >= 2 {
                name = name.dropFirst().dropLast()
            }
            guard !name.isEmpty else { return nil }
            frame.symbol = String(name)
        }
        if frame.symbol == nil, frame.sourceFile == nil { frame.symbol = "?" }
        return frame
    }

    /// glog's and Abseil's stack under `*** Check failure stack trace: ***` (`@        0x15afded2c
    /// absl::log_internal::LogMessage::SendToLog()`): the address, then the symbol.
    static let glogStackFrame: Parser = { line, reportLine in
        guard line.hasBytePrefix("@") else { return nil }
        let rest = line.dropFirst().drop { $0 == " " || $0 == "\t" }
        guard rest.hasBytePrefix("0x") else { return nil }
        let hex = rest.dropFirst(2).prefix { $0.isHexDigit }
        guard !hex.isEmpty, hex.count <= 16, let address = UInt64(hex, radix: 16) else { return nil }
        var frame = Frame(index: 0, address: address, reportLine: reportLine)
        let symbol = rest.dropFirst(2 + hex.count).trimmedBlanks
        if !symbol.isEmpty, symbol != "(unknown)" { frame.symbol = String(symbol) }
        return frame
    }

    /// Rust's standard backtrace (`RUST_BACKTRACE=1`, a panic hook's `Backtrace`): the frame's
    /// number and a colon, then the symbol (`   3: myapp::parser::read_header`, `  10: <unknown>`),
    /// or the address and a dash before it as toolchains before 1.40 printed it (`   4:
    /// 0x10c9d7c4a - myapp::window::Window::new::h89c1bd0d`). Its place, on the `at path:line:col`
    /// line under it, is `rustPlace`.
    static let rustStyle: Parser = { line, reportLine in
        guard var (index, rest) = numberThenBlank(Substring(line), punctuation: ":", required: true) else { return nil }
        var frame = Frame(index: index, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        if rest.hasBytePrefix("0x") {
            let hex = rest.dropFirst(2).prefix { $0.isHexDigit }
            let after = rest.dropFirst(2 + hex.count)
            guard !hex.isEmpty, hex.count <= 16, after.hasBytePrefix(" - "), let address = UInt64(hex, radix: 16) else { return nil }
            frame.address = address
            frame.hasAddress = true
            rest = Substring(after.dropFirst(3).trimmedBlanks)
        }
        let symbol = rest.trimmedBlanks
        guard !symbol.isEmpty, symbol.utf8.count <= 2_000, isRustPath(Substring(symbol)) else { return nil }
        frame.symbol = String(symbol)
        return frame
    }

    /// A Rust (or C) function's path as its backtrace prints it: `::`-separated names with generic
    /// arguments and `{closure#0}` in brackets, blanks only inside brackets (`<A as B>::run`), or
    /// one C name (`rust_begin_unwind`, `__pthread_kill`), or `<unknown>`.
    static func isRustPath(_ symbol: Substring) -> Bool {
        if symbol == "<unknown>" { return true }
        var depth = 0
        for character in symbol {
            switch character {
            case "<", "{", "(", "[": depth += 1
            case ">", "}", ")", "]": depth -= 1
            case " ", "\t": if depth <= 0 { return false }
            default:
                if depth == 0, !(character.isLetter || character.isNumber || "_:$.#-".contains(character)) { return false }
            }
            if depth < 0 { return false }
        }
        guard depth == 0, let first = symbol.first, first.isLetter || first == "_" || first == "<" else { return false }
        return symbol.containsBytes("::") || symbol.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// The place under a Rust backtrace's frame: `at ./src/main.rs:4:5`, `at
    /// /rustc/…/library/core/src/panicking.rs:67:14` (the column optional).
    static func rustPlace(_ trimmed: Substring) -> (file: String, line: Int)? {
        guard trimmed.hasBytePrefix("at "), trimmed.utf8.count <= 2_000 else { return nil }
        let rest = Substring(trimmed.dropFirst(3).trimmedBlanks)
        guard !rest.isEmpty, !rest.containsBytes(" ("), !rest.hasSuffix(")"), let (file, line) = fileLineColumn(rest), file.hasSuffix(".rs")
        else { return nil }
        return (String(file), line)
    }

    /// `FILE:LINE:COLUMN` or `FILE:LINE` → the file and the line (Rust's and Crystal's places).
    static func fileLineColumn(_ place: Substring) -> (file: Substring, line: Int)? {
        var file = place
        var numbers: [Int] = []
        while numbers.count < 2, let colon = file.lastIndex(of: ":"), let value = Int(file[file.index(after: colon)...]) {
            numbers.insert(value, at: 0)
            file = file[..<colon]
        }
        return numbers.first.map { (file, $0) }
    }

    /// Go's goroutine frame: the function with its arguments (`main.main()`,
    /// `github.com/x/y.(*Loader).Load(0x0, 0xc000010230)`, `created by main.start in goroutine 1`)
    /// over its place, indented (`\t/Users/me/tool/main.go:17 +0x8c`).
    static func goFunctionOverPlace(_ lines: [TextDocument.Line], at position: Int) -> Frame? {
        guard position + 1 < lines.count else { return nil }
        let placeLine = lines[position + 1].text
        guard placeLine.first == "\t" || placeLine.hasBytePrefix("    ") else { return nil }
        var place = Substring(placeLine.trimmedBlanks)
        var offset: UInt64?
        if let plus = place.byteRange(of: " +0x") {
            offset = UInt64(place[plus.upperBound...].prefix { $0.isHexDigit }, radix: 16)
            place = place[..<plus.lowerBound]
        }
        guard let colon = place.lastIndex(of: ":"), place[..<colon].hasSuffix(".go"), let number = Int(place[place.index(after: colon)...])
        else { return nil }
        var function = Substring(lines[position].text.trimmedBlanks)
        if function.hasBytePrefix("created by ") {
            function = function.dropFirst(11)
            if let inWord = function.byteRange(of: " in goroutine ") { function = function[..<inWord.lowerBound] }
        } else {
            // The arguments: the last parenthesised list.
            guard function.hasSuffix(")"), let open = function.lastIndex(of: "("), open > function.startIndex else { return nil }
            function = function[..<open]
            if function.hasSuffix("...") { function = function.dropLast(3) }
        }
        guard !function.isEmpty, function.utf8.count <= 1_000, !function.containsBytes(" "), function.first?.isLetter == true else {
            return nil
        }
        var frame = Frame(index: 0, address: 0, reportLine: position + 1)
        frame.hasAddress = false
        frame.symbol = String(function)
        frame.symbolOffset = offset
        frame.sourceFile = String(place[..<colon])
        frame.sourceLine = number
        return frame
    }

    /// A runtime's own backtrace with the address in brackets, then the symbol and its offset
    /// (Crystal's `CallStack`: `[0x10cdf065a] *Crystal::Scheduler#reschedule:Nil +266`,
    /// `[0x7fff651c2f5a] _sigtramp +26`); on Linux the address in decimal (`[140254606926918] strlen
    /// +38`, `[94640283501998] ???`), a frame repeated with its count (`… +61 (2 times)`).
    static let bracketedAddress: Parser = { line, reportLine in
        guard line.hasBytePrefix("["), let close = line.prefix(24).firstIndex(of: "]") else { return nil }
        let decimal = !line.hasBytePrefix("[0x")
        let digits = line[line.index(line.startIndex, offsetBy: decimal ? 1 : 3)..<close]
        let parsed = decimal ? (digits.count >= 6 && digits.count <= 20 ? UInt64(digits) : nil) : UInt64(digits, radix: 16)
        guard !digits.isEmpty, digits.count <= 20, let address = parsed else { return nil }
        var symbol = line[line.index(after: close)...].trimmedBlanks
        if symbol.hasSuffix(" times)"), let open = symbol.range(of: " (", options: .backwards),
            symbol[open.upperBound...].dropLast(7).allSatisfy({ $0.isASCII && $0.isNumber })
        {
            symbol = String(symbol[..<open.lowerBound])
        }
        var offset: UInt64?
        if let plus = symbol.range(of: " +", options: .backwards), let value = UInt64(symbol[plus.upperBound...]) {
            offset = value
            symbol = symbol[..<plus.lowerBound].trimmedBlanks
        }
        // (A decimal number in brackets is a log's counter as often: only with an offset or `???`.)
        guard !decimal || offset != nil || symbol == "???" else { return nil }
        guard !symbol.isEmpty, !symbol.hasBytePrefix("0x"), !symbol.contains(" ") || looksLikeSymbol(String(symbol), alone: true) else {
            return nil
        }
        var frame = Frame(index: 0, address: address, reportLine: reportLine)
        frame.symbol = String(symbol)
        frame.symbolOffset = offset
        return frame
    }

    /// Windows Error Reporting's event names the module the fault was in (`Faulting module name:
    /// python312.dll, version: 3.12.2150.1013, time stamp: 0x65c2a47f`): the crashed frame's
    /// image, where the event gives no stack.
    static let windowsFaultingModule: Parser = { line, reportLine in
        // `Report.wer`'s fault module (`Sig[3].Value=ntdll.dll`, or `StackHash_8f57`, WER's name
        // for a module it could not tell), its label in the system's language on the line above.
        if line.hasBytePrefix("Sig[3].Value="), line.utf8.count <= 300 {
            let name = line.dropFirst(13).trimmedBlanks
            let lower = name.lowercased()
            guard !name.isEmpty, !name.containsBytes(" "),
                lower.hasSuffix(".dll") || lower.hasSuffix(".exe") || lower.hasSuffix(".sys") || name.hasBytePrefix("StackHash_")
            else { return nil }
            var frame = Frame(index: 0, address: 0, reportLine: reportLine)
            frame.hasAddress = false
            frame.imageName = name
            return frame
        }
        guard line.hasBytePrefix("Faulting module name: ") else { return nil }
        let name = line.dropFirst(22).prefix { $0 != "," }.trimmedBlanks
        guard !name.isEmpty, !name.containsBytes(" "), name.containsBytes(".") else { return nil }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        frame.imageName = name
        return frame
    }

    /// glibc's `backtrace_symbols` line, which Linux programs print from their fatal-signal
    /// handlers (mysqld, LLVM's stack dump, Node's native stack): `/usr/sbin/mysqld(handle_connection+0x17e)[0x55f48c7e8f5e]`,
    /// `/lib/x86_64-linux-gnu/libpthread.so.0(+0x110e0)[0x7fe1f80f50e0]`, `./a.out() [0x400aa2]`,
    /// `/lib/libc.so.6 [0x7f…]`: the object's path, the symbol and its offset or the offset in the
    /// object, then the address in brackets.
    static let backtraceSymbols: Parser = { line, reportLine in
        guard line.hasSuffix("]"), line.utf8.count <= 2_000, let open = line.byteRange(of: "[0x", ignoringASCIICase: false) else {
            return nil
        }
        // A handler's own numbering or address before each line (ClickHouse's `3. clickhouse-server(
        // DB::Block::bytes() const+0x27) [0x1142807]`, varnish's `0x7f6c…: libpthread.so.0(+0xf890)
        // [0x7f6c…]`): the frame after it.
        var numbered: Int?
        var text = Substring(line)
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, digits.count <= 4, text.dropFirst(digits.count).hasBytePrefix(". ") {
            numbered = Int(digits)
            text = text.dropFirst(digits.count + 2).drop { $0 == " " }
        } else if text.hasBytePrefix("0x"), let colon = text.prefix(20).byteRange(of: ": "),
            text[text.index(text.startIndex, offsetBy: 2)..<colon.lowerBound].allSatisfy(\.isHexDigit)
        {
            text = text[colon.upperBound...].drop { $0 == " " }
        }
        if text.startIndex != line.startIndex {
            guard var frame = backtraceSymbols(String(text), reportLine) else { return nil }
            if let numbered { frame.index = numbered }
            return frame
        }
        let hex = line[open.upperBound..<line.index(before: line.endIndex)]
        guard !hex.isEmpty, hex.count <= 16, hex.allSatisfy(\.isHexDigit), let address = UInt64(hex, radix: 16) else { return nil }
        var head = line[..<open.lowerBound]
        while head.last == " " { head = head.dropLast() }
        var symbol: Substring?
        var offset: UInt64?
        var inImage = false
        if head.hasSuffix(")"), let paren = head.firstIndex(of: "(") {
            let inner = head[head.index(after: paren)..<head.index(before: head.endIndex)]
            head = head[..<paren]
            if !inner.isEmpty {
                guard let plus = inner.range(of: "+0x", options: .backwards), let value = UInt64(inner[plus.upperBound...], radix: 16)
                else {
                    return nil
                }
                offset = value
                if plus.lowerBound == inner.startIndex {
                    inImage = true
                } else {
                    symbol = inner[..<plus.lowerBound]
                }
            }
        }
        // The object: a path or a file name, nothing else on the line (a bare program name, as
        // ClickHouse's handler prints its own, only with a symbol and offset in parentheses).
        guard !head.isEmpty, !head.containsBytes(" "),
            head.containsBytes("/") || head.containsBytes(".")
                || (offset != nil && head.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }),
            head.first.map({ $0 == "/" || $0 == "." || $0.isLetter }) == true
        else { return nil }
        var frame = Frame(index: 0, address: address, reportLine: reportLine)
        frame.imageName = String(head.split(separator: "/").last ?? head)
        if inImage { frame.imageOffset = offset }
        if let symbol, !symbol.isEmpty {
            guard looksLikeSymbol(String(symbol), alone: true) else { return nil }
            frame.symbol = String(symbol)
            frame.symbolOffset = offset
        }
        return frame
    }

    /// Android's debuggerd (a tombstone, logcat's `DEBUG` lines, the Play Console, Scudo's and
    /// GWP-ASan's reports): `#05 pc 0000000000017a8c  /data/app/…/lib/arm64/libmmkv.so
    /// (MMKV::load()+44) (BuildId: 9ad2…)`, the offset in the object after `pc`, with or without
    /// `0x`, the symbol and its offset in parentheses when known.
    static let androidTombstone: Parser = { line, reportLine in
        guard line.hasBytePrefix("#"), line.utf8.count <= 2_000,
            let (index, afterNumber) = numberThenBlank(Substring(line).dropFirst(), punctuation: ":", required: false),
            afterNumber.hasBytePrefix("pc ")
        else { return nil }
        var rest = afterNumber.dropFirst(3).drop { $0 == " " }
        if rest.hasBytePrefix("0x") { rest = rest.dropFirst(2) }
        // (The offset is into the object as Android loaded it, no address in any image list here:
        // the frame is read for its names, as a crash service's frame without an address is.)
        let hex = rest.prefix { $0.isHexDigit }
        guard !hex.isEmpty, hex.count <= 16 else { return nil }
        rest = rest.dropFirst(hex.count)
        guard rest.isEmpty || rest.first == " " else { return nil }
        rest = rest.drop { $0 == " " }
        if let buildID = rest.range(of: " (BuildId: ", options: .backwards) { rest = rest[..<buildID.lowerBound] }
        var frame = Frame(index: index, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        // The symbol in the last parentheses (it may hold its own: `scudo::die()+12`).
        if rest.hasSuffix(")"), let open = rest.range(of: " (") {
            let inner = rest[open.upperBound..<rest.index(before: rest.endIndex)]
            rest = rest[..<open.lowerBound]
            if !inner.hasBytePrefix("offset ") {
                if let plus = inner.lastIndex(of: "+"), let value = UInt64(inner[inner.index(after: plus)...]) {
                    frame.symbol = String(inner[..<plus])
                    frame.symbolOffset = value
                } else if !inner.isEmpty {
                    frame.symbol = String(inner)
                }
            }
        }
        let path = rest.trimmedBlanks
        guard !path.isEmpty, !path.containsBytes(" ") || path.hasBytePrefix("<") else { return nil }
        frame.imageName = path.split(separator: "/").last.map(String.init) ?? String(path)
        return frame
    }

    /// Valgrind's stack under its error (`==82062==    at 0x10A6C8: ejecutar_cliclos (main.c:24)`,
    /// `by 0x4E2F: main (in /usr/bin/app)`), its `==pid==` prefix already read: the address, the
    /// function, and its place or its object.
    static let valgrindFrame: Parser = { line, reportLine in
        guard line.hasBytePrefix("at 0x") || line.hasBytePrefix("by 0x"), line.utf8.count <= 2_000 else { return nil }
        let rest = Substring(line).dropFirst(5)
        let hex = rest.prefix { $0.isHexDigit }
        guard !hex.isEmpty, hex.count <= 16, let address = UInt64(hex, radix: 16), rest.dropFirst(hex.count).hasBytePrefix(": ") else {
            return nil
        }
        var body = rest.dropFirst(hex.count + 2).trimmedBlanks[...]
        var frame = Frame(index: 0, address: address, reportLine: reportLine)
        if body.hasSuffix(")"), let open = body.range(of: " (", options: .backwards) {
            let place = body[open.upperBound..<body.index(before: body.endIndex)]
            if place.hasBytePrefix("in ") {
                frame.imageName = place.dropFirst(3).split(separator: "/").last.map(String.init)
            } else if let colon = place.lastIndex(of: ":"), let number = Int(place[place.index(after: colon)...]) {
                frame.sourceFile = String(place[..<colon])
                frame.sourceLine = number
            }
            body = body[..<open.lowerBound]
        }
        guard !body.isEmpty, body != "???" || frame.imageName != nil else { return nil }
        if body != "???" { frame.symbol = String(body) }
        return frame
    }

    /// `HomeVC.swift line 302 specialized HomeVC.checkPassword(UIButton?) -> ()`: Crashlytics'
    /// issue title, the crash's source file and line then its function, as the console and
    /// issue trackers repeat it.
    static let fileLineTitle: Parser = { line, reportLine in
        guard line.containsBytes(" line "), let marker = line.byteRange(of: " line ") else { return nil }
        let file = line[..<marker.lowerBound]
        guard !file.containsBytes(" "), isSourceFile(String(file.split(separator: "/").last ?? file)) else { return nil }
        let rest = line[marker.upperBound...]
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard let number = Int(digits), rest.dropFirst(digits.count).first == " " else { return nil }
        let symbol = rest.dropFirst(digits.count).trimmedBlanks
        guard !symbol.isEmpty, looksLikeSymbol(symbol, alone: true) else { return nil }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        frame.sourceFile = String(file)
        frame.sourceLine = number
        frame.symbol = symbol
        return frame
    }

    static func parse(_ trimmed: String, reportLine: Int) -> Frame? { parseNumbered(trimmed, reportLine: reportLine)?.frame }

    /// LLDB's disassembly of the function a thread stopped in (what it prints at a stop, or
    /// `disassemble`): the heading `image`symbol:`, then the listing with the arrow `->  0x… <+80>:`
    /// at the stopped instruction. The function and image of the heading, at the arrow's address
    /// and offset, are the thread's frame 0; a listing without the arrow says nothing stopped there.
    /// The instruction on LLDB's `->` line of a disassembly (`->  0x10090ad87 <+33>: shlxl  %esi,
    /// %eax, %ebx`, `->  0x1a2b <+8>:  brk    #0x1`): mnemonic and operands, blanks collapsed.
    static func stoppedInstruction(_ line: Substring) -> String? {
        guard line.hasBytePrefix("->") else { return nil }
        var rest = line.dropFirst(2).drop { $0 == " " || $0 == "\t" }
        guard rest.hasBytePrefix("0x") else { return nil }
        rest = rest.drop { $0 != " " && $0 != "\t" && $0 != "<" && $0 != ":" }.drop { $0 == " " || $0 == "\t" }
        if rest.hasBytePrefix("<"), let close = rest.firstIndex(of: ">") { rest = rest[rest.index(after: close)...] }
        guard rest.hasBytePrefix(":") else { return nil }
        let words = rest.dropFirst().split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let mnemonic = words.first, mnemonic.first?.isLetter == true, mnemonic.count <= 16 else { return nil }
        return words.prefix(8).joined(separator: " ")
    }

    static func disassemblyStop(_ lines: [TextDocument.Line], at position: Int) -> Frame? {
        let heading = lines[position].text.trimmedBlanks
        guard heading.hasSuffix(":"), let tick = heading.firstIndex(of: "`"), tick > heading.startIndex else { return nil }
        let image = heading[..<tick]
        let symbol = heading[heading.index(after: tick)..<heading.index(before: heading.endIndex)]
        guard !image.contains(" "), image.count <= 128, !symbol.isEmpty, !symbol.hasPrefix(" ") else { return nil }
        for line in lines[(position + 1)...].prefix(4_096) {
            let text = line.text.trimmedBlanks
            guard text.hasBytePrefix("0x") || text.hasBytePrefix("->") else { return nil }
            guard text.hasBytePrefix("->") else { continue }
            let rest = text.dropFirst(2).drop { $0 == " " || $0 == "\t" }
            let word = rest.prefix { $0 != " " && $0 != "\t" && $0 != "<" }
            var frame = Frame(index: 0, imageName: String(image), address: 0, symbol: String(symbol), reportLine: position + 1)
            if word.hasBytePrefix("0x"), let address = UInt64(word.dropFirst(2), radix: 16) {
                frame.address = address
            } else {
                frame.hasAddress = false
            }
            if let open = rest.byteRange(of: "<+"), let close = rest[open.upperBound...].firstIndex(of: ">") {
                frame.symbolOffset = UInt64(rest[open.upperBound..<close])
            }
            return frame
        }
        return nil
    }

    /// A frame copied from a web page one cell per line, and how many lines it takes:
    /// - Crashlytics' console table: its number alone on a line, its image's name alone on the
    ///   next, its symbol and offset on the third;
    /// - Crashlytics' issue page without numbers: the frame's place (`CBPeripheral+Extensions.m -
    ///   Line 195`) over its symbol (`-[CBPeripheral(X) info:] + 195`), or a system image's name over
    ///   `(Missing)` (no symbol was found for it);
    /// - not a web page's, but two lines a frame all the same: Go's function over its place.
    static func cellFrame(_ lines: [TextDocument.Line], at position: Int) -> (frame: Frame, lines: Int)? {
        if let frame = placeOverSymbol(lines, at: position) ?? goFunctionOverPlace(lines, at: position) { return (frame, 2) }
        guard position + 2 < lines.count else { return nil }
        let number = lines[position].text.trimmedBlanks
        guard (1...4).contains(number.count), number.allSatisfy({ $0.isASCII && $0.isNumber }), let index = Int(number) else { return nil }
        let image = lines[position + 1].text.trimmedBlanks
        guard !image.isEmpty, image.count <= 64, !image.contains(" "), !image.contains("\t"), image.first?.isLetter == true,
            image.allSatisfy({ $0.isLetter || $0.isNumber || "._-+".contains($0) })
        else { return nil }
        let symbol = lines[position + 2].text.trimmedBlanks
        guard !symbol.isEmpty, symbol.containsBytes(" + "), looksLikeSymbol(symbol) || symbolWithOffset(symbol, 0) != nil else {
            return nil
        }
        var frame = Frame(index: index, imageName: image, address: 0, reportLine: position + 3)
        frame.hasAddress = false
        TextReportParser.parseFrameRest(symbol, into: &frame)
        return frame.symbol == nil ? nil : (frame, 3)
    }

    /// The two-line cells of `cellFrame`: `File.ext - Line N` over a symbol, or an image's name
    /// over `(Missing)`.
    static func placeOverSymbol(_ lines: [TextDocument.Line], at position: Int) -> Frame? {
        guard position + 1 < lines.count else { return nil }
        let first = lines[position].text.trimmedBlanks
        let second = lines[position + 1].text.trimmedBlanks
        guard !first.isEmpty, first.utf8.count <= 256, !second.isEmpty, second.utf8.count <= 1_024 else { return nil }
        if second == "(Missing)" {
            guard first.count <= 64, first.first?.isLetter == true, first.allSatisfy({ $0.isLetter || $0.isNumber || "._-+".contains($0) })
            else { return nil }
            var frame = Frame(index: 0, imageName: first, address: 0, reportLine: position + 2)
            frame.hasAddress = false
            return frame
        }
        guard let marker = first.byteRange(of: " - Line ") ?? first.byteRange(of: " line ") else { return nil }
        let file = first[..<marker.lowerBound]
        let digits = first[marker.upperBound...]
        guard !file.containsBytes(" "), isSourceFile(String(file)), let number = Int(digits), number >= 0 else { return nil }
        guard looksLikeSymbol(second) || symbolWithOffset(second, 0) != nil else { return nil }
        var frame = Frame(index: 0, address: 0, reportLine: position + 2)
        frame.hasAddress = false
        TextReportParser.parseFrameRest(second, into: &frame)
        guard frame.symbol != nil else { return nil }
        frame.sourceFile = String(file)
        frame.sourceLine = number
        return frame
    }

    static func parseNumbered(_ trimmed: String, reportLine: Int) -> (frame: Frame, numbered: Bool)? {
        for parser in parsers {
            if let frame = parser.parse(trimmed, reportLine) { return (frame, parser.numbered) }
        }
        if let inner = quotedFrameLine(trimmed) ?? tableRowFrameLine(trimmed) ?? pointedFrameLine(trimmed) {
            if let frame = TextReportParser.parseFrame(inner, reportLine: reportLine) { return (frame, true) }
            for parser in parsers {
                if let frame = parser.parse(inner, reportLine) { return (frame, parser.numbered) }
            }
        }
        return nil
    }

    /// A frame line a person pointed at with arrows (`==> 7 CHIP: -[BleConnection start] <==`,
    /// `--> …`, `… ←`): the line inside them. (Not LLDB's `->`, which marks an instruction in a
    /// disassembly.)
    static func pointedFrameLine(_ trimmed: String) -> String? {
        var text = Substring(trimmed)
        var changed = false
        for arrow in ["==>", "-->", "→"] where text.hasBytePrefix(arrow) {
            text = text.dropFirst(arrow.utf8.count).drop { $0 == " " || $0 == "\t" }
            changed = true
            break
        }
        for arrow in ["<==", "<--", "←"] where text.hasSuffix(arrow) {
            text = text.dropLast(arrow.count)
            while text.last == " " || text.last == "\t" { text = text.dropLast() }
            changed = true
            break
        }
        return changed && !text.isEmpty ? String(text) : nil
    }

    /// A frame as a row of a table (a crash service's page copied as Markdown or with its cells
    /// joined by bars): `0 libobjc.A.dylib | objc_retain + 16`, `3 | Library | X.m line 18-[X y]`,
    /// `| 2 | UIKitCore | -[UIView layoutSubviews] + 76 |`. The cells as Apple's columns, the
    /// `File line N` a service puts before the symbol as the symbol's place.
    static func tableRowFrameLine(_ line: String) -> String? {
        guard line.utf8.count <= 2_000, line.containsBytes("|") else { return nil }
        var cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmedBlanks }
        if cells.first?.isEmpty == true { cells.removeFirst() }
        if cells.last?.isEmpty == true { cells.removeLast() }
        guard (2...4).contains(cells.count), !cells.contains(where: \.isEmpty) else { return nil }
        // The number, alone in its cell or before the image (`0 libobjc.A.dylib`).
        var head = cells.removeFirst()
        if head.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard !cells.isEmpty else { return nil }
            head += " " + cells.removeFirst()
        }
        guard let first = head.first, first.isASCII, first.isNumber, !cells.isEmpty else { return nil }
        var symbol = cells.joined(separator: " ")
        if let marker = symbol.byteRange(of: " line ") {
            let file = symbol[..<marker.lowerBound]
            let digits = symbol[marker.upperBound...].prefix { $0.isASCII && $0.isNumber }
            let rest = symbol[marker.upperBound...].dropFirst(digits.count).trimmedBlanks
            if !file.containsBytes(" "), isSourceFile(String(file)), !digits.isEmpty, !rest.isEmpty {
                symbol = "\(rest) (\(file):\(digits))"
            }
        }
        return head + "  " + symbol
    }

    /// Apple's columns with the address in decimal (Crashlytics' text export of some years:
    /// `0  libobjc.A.dylib  6704609744 objc_msgSend + 16`): the address in hexadecimal.
    static func decimalAddressFrameLine(_ line: String) -> String? {
        let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
        guard parts.count == 4, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), parts[0].count <= 5,
            (6...20).contains(parts[2].count), parts[2].allSatisfy({ $0.isASCII && $0.isNumber }), let address = UInt64(parts[2]),
            parts[1].first?.isLetter == true
        else { return nil }
        return "\(parts[0])  \(parts[1])  0x\(String(address, radix: 16)) \(parts[3])"
    }

    /// A frame line quoted as a string of a JSON array a logger or a service printed
    /// (`"#3  WebCore   0X31A3B7DB <redacted>()",`): the line inside the quotes, with the `#`
    /// before its number and an uppercase `0X` read as Apple's columns.
    static func quotedFrameLine(_ line: String) -> String? {
        var body = Substring(line)
        if body.hasSuffix(",") { body = body.dropLast() }
        guard body.utf8.count > 2, body.hasBytePrefix("\""), body.hasSuffix("\"") else { return nil }
        var inner = body.dropFirst().dropLast().trimmedBlanks
        guard !inner.isEmpty, !inner.containsBytes("\"") || inner.containsBytes("\\\"") else { return nil }
        inner = inner.replacingOccurrences(of: "\\\"", with: "\"")
        if inner.hasBytePrefix("#"), inner.dropFirst().first?.isNumber == true { inner.removeFirst() }
        return inner.replacingOccurrences(of: " 0X", with: " 0x")
    }

    /// `#3 0x00000001045e8e6c in MyApp.ViewController.viewDidLoad() -> () at ViewController.swift:20`
    /// (gdb, Xcode's debug navigator copied), also without `in` or the address.
    /// `/src/link/MachO/dwarf.zig:227:54: 0x10c1c586f in readUleb128 (zig)`: the source place,
    /// the address, `in` the function and the module in parentheses, as Zig's stack traces print
    /// a frame (`???:?:?: 0x… in ??? (???)` when it has no debug information).
    static let placeAddressIn: Parser = { line, reportLine in
        guard let marker = line.byteRange(of: ": 0x") else { return nil }
        let place = line[..<marker.lowerBound]
        var rest = line[marker.upperBound...]
        let hex = rest.prefix { $0.isHexDigit }
        guard !hex.isEmpty, hex.count <= 16, let address = UInt64(hex, radix: 16) else { return nil }
        rest = rest.dropFirst(hex.count)
        guard rest.hasBytePrefix(" in "), rest.hasSuffix(")"), let open = rest.range(of: " (", options: .backwards) else { return nil }
        let symbol = rest[rest.index(rest.startIndex, offsetBy: 4)..<open.lowerBound]
        let module = rest[open.upperBound..<rest.index(before: rest.endIndex)]
        // The place: `file:line:column`, digits or `?` each.
        let parts = place.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, !symbol.isEmpty, !symbol.containsBytes(" in "), !module.isEmpty, !module.containsBytes(" "),
            parts.suffix(2).allSatisfy({ part in !part.isEmpty && (part.allSatisfy { $0.isASCII && $0.isNumber } || part == "?") })
        else { return nil }
        let file = parts.dropLast(2).joined(separator: ":")
        guard !file.isEmpty, !file.containsBytes(" ") || file.hasBytePrefix("/") else { return nil }
        var frame = Frame(index: 0, address: address, reportLine: reportLine)
        if file != "???", let number = Int(parts[parts.count - 2]) {
            frame.sourceFile = file
            frame.sourceLine = number
        }
        if symbol != "???" { frame.symbol = String(symbol) }
        if module != "???" { frame.imageName = String(module) }
        return frame
    }

    static let gdbStyle: Parser = { line, reportLine in
        // gdb's line where the program stopped (`0x0000000100052236 in density_lion_encode_continue ()`,
        // under `Program received signal SIGBUS`): the innermost frame, unnumbered.
        if line.hasBytePrefix("0x"), line.utf8.count <= 2_000 {
            let hex = line.dropFirst(2).prefix { $0.isHexDigit }
            guard !hex.isEmpty, hex.count <= 16, line.dropFirst(2 + hex.count).hasBytePrefix(" in ") else { return nil }
            return gdbStyle("#0  " + line, reportLine)
        }
        guard line.hasBytePrefix("#"), var (index, rest) = numberThenBlank(Substring(line).dropFirst(), punctuation: ".", required: false)
        else { return nil }
        var frame = Frame(index: index, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        if rest.hasBytePrefix("0x") {
            let hex = rest.dropFirst(2).prefix { $0.isHexDigit }
            guard !hex.isEmpty, hex.count <= 16, let address = UInt64(hex, radix: 16) else { return nil }
            frame.address = address
            frame.hasAddress = true
            rest = rest.dropFirst(2 + hex.count).drop { $0 == " " || $0 == "\t" }
        } else if rest.hasBytePrefix("(null)") {
            // `#0    (null) in Swift runtime failure: Index out of range ()`: a debugger that had no
            // address for an inlined level prints none.
            rest = rest.dropFirst(6).drop { $0 == " " || $0 == "\t" }
        } else if rest.hasBytePrefix("Crashed") {
            // `#0. Crashed: com.apple.main-thread`: a crash service's thread title.
            return nil
        }
        if rest.hasBytePrefix("in ") {
            rest = rest.dropFirst(3)
        } else if frame.hasAddress, rest.hasBytePrefix("at "), let plus = rest.byteRange(of: "+0x") {
            // FreeBSD's kernel (`#6 0xffffffff821683d4 at re_rxeof+0x344`): the function and its
            // offset after `at`, in the kernel's own image.
            let offset = rest[plus.upperBound...].prefix { $0.isHexDigit }
            let name = rest[rest.index(rest.startIndex, offsetBy: 3)..<plus.lowerBound]
            guard !name.isEmpty, !name.containsBytes(" "), !offset.isEmpty,
                rest[plus.upperBound...].dropFirst(offset.count).trimmedBlanks.isEmpty
            else { return nil }
            frame.symbol = String(name)
            frame.symbolOffset = UInt64(offset, radix: 16)
            frame.imageName = KernelTrapPath.image
            return frame
        }
        if let at = rest.range(of: " at ", options: .backwards) {
            let place = rest[at.upperBound...]
            if let colon = place.lastIndex(of: ":"), let number = Int(place[place.index(after: colon)...].prefix { $0.isNumber }) {
                frame.sourceFile = String(place[..<colon])
                frame.sourceLine = number
                rest = rest[..<at.lowerBound]
            }
        }
        if let from = rest.range(of: " from ", options: .backwards) {
            frame.imageName = String(rest[from.upperBound...]).split(separator: "/").last.map(String.init)
            rest = rest[..<from.lowerBound]
        }
        // The sanitizers' frames: `in f libxml/src/encoding.c:2480:26` (the place after a blank),
        // `in wrap_free+0x98 (/…/libclang_rt.asan_ios_dynamic.dylib:arm64e+0x53438)` (the image
        // and its offset in parentheses).
        if frame.sourceFile == nil, frame.imageName == nil {
            if rest.hasSuffix(")"), let open = rest.range(of: " (", options: .backwards), rest[open.upperBound...].containsBytes("+0x") {
                let inside = rest[open.upperBound..<rest.index(before: rest.endIndex)]
                let path = inside[..<(inside.lastIndex(of: ":") ?? inside.firstIndex(of: "+") ?? inside.endIndex)]
                if let name = path.split(separator: "/").last, !name.isEmpty { frame.imageName = String(name) }
                rest = rest[..<open.lowerBound]
            } else if let blank = rest.lastIndex(of: " ") {
                let place = rest[rest.index(after: blank)...].split(separator: ":", omittingEmptySubsequences: false)
                if place.count >= 2, isSourceFile(String(place[0].split(separator: "/").last ?? place[0])), let number = Int(place[1]) {
                    frame.sourceFile = String(place[0])
                    frame.sourceLine = number
                    rest = rest[..<blank]
                }
            }
            if let plus = rest.range(of: "+0x", options: .backwards), rest[plus.upperBound...].allSatisfy(\.isHexDigit),
                !rest[plus.upperBound...].isEmpty
            {
                rest = rest[..<plus.lowerBound]
            }
        }
        var symbol = rest.trimmedBlanks
        // gdb's argument list after the name: `__pthread_kill ()`, `std::terminate() ()`,
        // `main (argc=1, argv=0x7ffe…)`; a Swift type's `-> ()` is the name's own.
        // (A string argument may hold parentheses: `malloc_printerr (str=0x7f… "malloc(): corrupted top size")`.)
        if let (open, unquoted) = gdbArgumentList(symbol), symbol.index(before: open) > symbol.startIndex {
            let before = symbol[..<symbol.index(before: open)]
            if !before.hasSuffix("->"), unquoted.isEmpty || (unquoted.containsBytes("=") && !unquoted.containsBytes("(")) {
                symbol = String(before).trimmedBlanks
            }
        }
        // The compiler's name for an inlined check's trap (`Swift runtime failure: Index out of
        // range`) is a frame's name too, though it reads as words.
        guard !symbol.isEmpty,
            frame.hasAddress || looksLikeSymbol(symbol, alone: true) || symbol.hasBytePrefix(AppLine.runtimeFailurePrefix)
        else { return nil }
        TextReportParser.parseFrameRest(symbol, into: &frame)
        return frame.symbol == nil && !frame.hasAddress ? nil : frame
    }

    /// The parenthesis (after a blank) that opens the group closing at the end of `symbol`, matched
    /// outside double-quoted strings, and the group's inside with its strings left out; nil when
    /// `symbol` does not end with a group.
    static func gdbArgumentList(_ symbol: String) -> (open: String.Index, unquoted: String)? {
        guard symbol.hasSuffix(")"), symbol.utf8.count <= 4_000 else { return nil }
        var opens: [String.Index] = []
        var inQuote = false
        var escaped = false
        var index = symbol.startIndex
        while index < symbol.endIndex {
            let character = symbol[index]
            if inQuote {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inQuote = false }
            } else if character == "\"" {
                inQuote = true
            } else if character == "(" {
                opens.append(index)
            } else if character == ")" {
                guard let open = opens.popLast() else { return nil }
                if symbol.index(after: index) == symbol.endIndex {
                    guard open > symbol.startIndex, symbol[symbol.index(before: open)] == " " else { return nil }
                    var unquoted = ""
                    var quoted = false
                    var slash = false
                    for c in symbol[symbol.index(after: open)..<index] {
                        if quoted {
                            if slash { slash = false } else if c == "\\" { slash = true } else if c == "\"" { quoted = false }
                        } else if c == "\"" {
                            quoted = true
                        } else {
                            unquoted.append(c)
                        }
                    }
                    return (open, unquoted)
                }
            }
            index = symbol.index(after: index)
        }
        return nil
    }

    /// `File "ResultsController.swift", line 165, in ResultsController.fetchedObjects.getter`
    /// (Sentry's web text for a frame with a source place).
    /// Boost.Stacktrace's frames, as C++ programs print them from a terminate or signal handler
    /// (`0# nix::getWindowSize() in /nix/store/…/libnixutil.dylib`, `1# bar(int) at /src/file.cpp:70`,
    /// `2# 0x00007FF6A1B2 in ./app`, `3# _start`): the number with `#` after it, the function
    /// or address, then the module after ` in ` or the source place after ` at `.
    static let boostStyle: Parser = { line, reportLine in
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count < 6, let index = Int(digits) else { return nil }
        var rest = line.dropFirst(digits.count)
        guard rest.hasBytePrefix("# ") else { return nil }
        rest = Substring(rest.dropFirst(2).trimmedBlanks)
        guard !rest.isEmpty else { return nil }
        var frame = Frame(index: index, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        if let at = rest.range(of: " at ", options: .backwards), let place = fileAndLine(rest[at.upperBound...]) {
            frame.sourceFile = String(place.file)
            frame.sourceLine = place.line
            rest = rest[..<at.lowerBound]
        }
        if frame.sourceFile == nil, let module = rest.range(of: " in ", options: .backwards) {
            let path = rest[module.upperBound...]
            guard !path.isEmpty, !path.containsBytes(" ") || path.hasBytePrefix("/") else { return nil }
            frame.imageName = path.split(separator: "/").last.map(String.init)
            rest = rest[..<module.lowerBound]
        }
        let symbol = rest.trimmedBlanks
        if symbol.hasBytePrefix("0x"), let address = UInt64(symbol.dropFirst(2), radix: 16) {
            frame.address = address
            frame.hasAddress = true
            return frame
        }
        // A name with its module or place around it is a frame however plain (`main`, `_start`).
        let placed = frame.imageName != nil || frame.sourceFile != nil
        guard !symbol.isEmpty, looksLikeSymbol(symbol, alone: !placed) else { return nil }
        frame.symbol = symbol
        return frame
    }

    /// Ruby's backtrace: `/gems/cocoapods/local_pod.rb:318:in `license_text'`, `from x.rb:12:in
    /// `block in foo'`, Ruby 3.4's `x.rb:12:in 'Foo#bar'` (the first line goes on with the
    /// exception's message): the file and line, then the method in quotes.
    static let rubyStyle: Parser = { line, reportLine in
        var rest = Substring(line)
        if rest.hasBytePrefix("from ") { rest = rest.dropFirst(5).drop { $0 == " " || $0 == "\t" } }
        guard rest.containsBytes(":in"), let marker = rest.byteRange(of: ":in") else { return nil }
        let place = rest[..<marker.lowerBound]
        guard let colon = place.lastIndex(of: ":") else { return nil }
        let digits = place[place.index(after: colon)...]
        guard !digits.isEmpty, digits.count <= 7, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits) else {
            return nil
        }
        let file = place[..<colon]
        // (A Markdown paste loses the blank before the backtick: `/usr/bin/pod:23:in`load'`.)
        var after = rest[marker.upperBound...]
        if after.first == " " { after = after.dropFirst() }
        guard let open = after.first, open == "`" || open == "'", !file.isEmpty, !file.containsBytes(" ") else { return nil }
        // The backtick is Ruby's own (before 3.4), on any file (`/usr/local/bin/pod:23:in `<main>'`);
        // 3.4's plain quotes only on a Ruby source.
        guard open == "`" || file.hasSuffix(".rb") || file.hasBytePrefix("<internal:") else { return nil }
        after = after.dropFirst()
        guard let close = after.firstIndex(of: "'"), close > after.startIndex else { return nil }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        frame.symbol = String(after[..<close])
        frame.sourceFile = String(file)
        frame.sourceLine = number
        return frame
    }

    /// GHC's call stack (`CallStack (from HasCallStack):`, `HasCallStack backtrace:`): `head, called
    /// at Src/Autosubst/GenAutomation.hs:107:26 in as2-0.1.0.0-Ll96:Autosubst.GenAutomation`, the
    /// function called, where (file, line, column), and the package and module that called it.
    static let haskellCallStack: Parser = { line, reportLine in
        guard line.containsBytes(", called at "), let marker = line.byteRange(of: ", called at ") else { return nil }
        let function = line[..<marker.lowerBound]
        guard !function.isEmpty, !function.containsBytes(" "), function.utf8.count <= 200 else { return nil }
        let rest = line[marker.upperBound...]
        let inWord = rest.byteRange(of: " in ")
        let place = rest[..<(inWord?.lowerBound ?? rest.endIndex)]
        let parts = place.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let number = Int(parts[parts.count - 2]), Int(parts[parts.count - 1]) != nil,
            parts[0].hasSuffix(".hs") || parts[0].hasSuffix(".lhs")
        else { return nil }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        frame.symbol = String(function)
        frame.sourceFile = parts.dropLast(2).joined(separator: ":")
        frame.sourceLine = number
        if let inWord {
            let module = rest[inWord.upperBound...].trimmedBlanks
            if !module.isEmpty, !module.containsBytes(" ") { frame.imageName = module }
        }
        return frame
    }

    static let pythonStyle: Parser = { line, reportLine in
        // `?, in _platform_strlen`: the same layout for a frame Sentry has no file for.
        if line.hasBytePrefix("?, in ") {
            let symbol = line.dropFirst(6).trimmedBlanks
            guard !symbol.isEmpty, !symbol.contains(" ") || looksLikeSymbol(symbol) else { return nil }
            var frame = Frame(index: 0, address: 0, reportLine: reportLine)
            frame.hasAddress = false
            frame.symbol = symbol
            return frame
        }
        // The columns a service aligns (`File "sentry_sync.h",    line 735, in …`) are blanks.
        guard line.hasBytePrefix("File \""), let close = line.dropFirst(6).firstIndex(of: "\"") else { return nil }
        var between = line[line.index(after: close)...]
        guard between.hasBytePrefix(",") else { return nil }
        between = between.dropFirst().drop { $0 == " " || $0 == "\t" }
        guard between.hasBytePrefix("line ") else { return nil }
        let after = between.dropFirst(5)
        let digits = after.prefix { $0.isNumber }
        // faulthandler's dump (`File "main.py", line 12 in <module>`) puts no comma before `in`.
        guard let number = Int(digits), let inMarker = after.byteRange(of: ", in ") ?? after.byteRange(of: " in ") else { return nil }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        frame.sourceFile = String(line[line.index(line.startIndex, offsetBy: 6)..<close])
        frame.sourceLine = number
        let symbol = after[inMarker.upperBound...].trimmedBlanks
        guard !symbol.isEmpty else { return nil }
        frame.symbol = symbol
        return frame
    }

    /// HockeyApp's and App Center's stack lines: `0x1098a6000 + 3031729;Maipo` (load address,
    /// offset, image) and `-[X y];X.m;42` style `symbol;file;line`.
    static let hockeyApp: Parser = { line, reportLine in
        guard line.containsBytes(";") else { return nil }
        let parts = line.split(separator: ";", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        let head = parts[0].trimmedBlanks
        if head.hasBytePrefix("0x"), let plus = head.byteRange(of: " + ") {
            guard let load = UInt64(head.dropFirst(2)[..<plus.lowerBound], radix: 16),
                let offset = UInt64(head[plus.upperBound...].trimmedBlanks)
            else { return nil }
            let image = parts[1].trimmedBlanks
            guard !image.isEmpty, !image.containsBytes(" ") else { return nil }
            var frame = Frame(index: 0, imageName: image, address: load &+ offset, reportLine: reportLine)
            frame.imageOffset = offset
            return frame
        }
        // App Center's crash group as its issue-tracker integration files it: the symbol, its place,
        // then the image (`FlappyBird.GameViewController.buttonAction(sender:) -> ()
        // (GameViewController.swift:60);FlappyBird`), empty for managed code
        // (`com.example.MainActivity.sayHello (MainActivity.java:203);`).
        guard parts.count == 2, head.hasSuffix(")"), let open = head.lastIndex(of: "("), open > head.startIndex,
            head[head.index(before: open)] == " ",
            fileAndLine(head[head.index(after: open)..<head.index(before: head.endIndex)]) != nil
        else { return nil }
        let image = parts[1].trimmedBlanks
        // (A one-word symbol, `main (AppDelegate.swift:15);FlappyBird`, is one by its place and image.)
        let oneWord = !head[..<head.index(before: open)].trimmedBlanks.containsBytes(" ") && !image.isEmpty
        guard !image.containsBytes(" "), oneWord || looksLikeSymbol(String(head), alone: true) else { return nil }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        if !image.isEmpty { frame.imageName = image }
        TextReportParser.parseSymbolPart(String(head), into: &frame)
        return frame.symbol == nil ? nil : frame
    }

    /// HockeyApp's web text without addresses, `class;method;file;line` columns
    /// (`EventsController;tableView:didSelectRowAtIndexPath:;EventsController.m;152`) or `-` for
    /// the class of a function (`-;start;;`, `-;@objc App.View.f() -> ();View.swift;0`), possibly
    /// inside the `<pre>` the page wrapped the list in. An Objective-C method keeps its class:
    /// `[EventsController tableView:didSelectRowAtIndexPath:]` (the text does not say `-` or `+`).
    static let hockeyAppColumns: Parser = { line, reportLine in
        guard line.containsBytes(";") else { return nil }
        var body = Substring(line)
        for tag in ["<pre>", "<code>"] where body.hasBytePrefix(tag) { body = body.dropFirst(tag.count) }
        for tag in ["</pre>", "</code>"] where body.hasSuffix(tag) { body = body.dropLast(tag.count) }
        let parts = body.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmedBlanks }
        guard parts.count == 2 || parts.count == 4, !parts[1].isEmpty else { return nil }
        let owner = parts[0]
        // A class, or a class and its category (`NSArray(ObjectiveSugar)`).
        let isClass =
            !owner.isEmpty && owner.first?.isLetter == true
            && owner.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "(" || $0 == ")") }
        guard owner == "-" || (isClass && parts.count == 4) else { return nil }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        frame.symbol = owner == "-" ? parts[1] : "[\(owner) \(parts[1])]"
        if parts.count == 4 {
            if !parts[2].isEmpty { frame.sourceFile = parts[2] }
            guard parts[3].isEmpty || parts[3].allSatisfy(\.isNumber) else { return nil }
            // Line 0: the compiler's code for the file, no line of it.
            if let number = Int(parts[3]), number > 0, frame.sourceFile != nil { frame.sourceLine = number }
        }
        return frame
    }

    /// `9 OpenTreeMap "OTMAllInstancesTableViewController.m" line 34 in -[X viewDidAppear:]`: a
    /// crash service's frame with its image, quoted file, line and symbol (its frames in Apple's
    /// images print `1 CoreFoundation in 0x1855ec000` instead, and are no frame to read).
    static let quotedFileLine: Parser = { line, reportLine in
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 5, let index = Int(digits) else { return nil }
        let rest = Substring(line).dropFirst(digits.count).drop { $0 == " " || $0 == "\t" }
        let image = rest.prefix { $0 != " " && $0 != "\t" }
        let afterImage = rest.dropFirst(image.count).drop { $0 == " " || $0 == "\t" }
        guard !image.isEmpty, afterImage.hasBytePrefix("\""), let close = afterImage.dropFirst().firstIndex(of: "\"") else { return nil }
        let file = afterImage[afterImage.index(after: afterImage.startIndex)..<close]
        let tail = afterImage[afterImage.index(after: close)...]
        guard tail.hasBytePrefix(" line "), let inMarker = tail.byteRange(of: " in ") else { return nil }
        let number = tail.dropFirst(6)[..<inMarker.lowerBound].trimmedBlanks
        let symbol = tail[inMarker.upperBound...].trimmedBlanks
        guard !file.isEmpty, !symbol.isEmpty, looksLikeSymbol(symbol) else { return nil }
        var frame = Frame(index: index, imageName: String(image), address: 0, reportLine: reportLine)
        frame.hasAddress = false
        frame.sourceFile = String(file)
        frame.sourceLine = Int(number)
        frame.symbol = symbol
        return frame
    }

    /// A symbol alone with its offset, `specialized Foo.parse(_:) + 260` or
    /// `Foo.parse(_:) + 8 (Foo.swift:0)`: crash services' frame lists copied without their
    /// columns. The offset says it is a frame; the name must look like one (`looksLikeSymbol`).
    static let symbolWithOffset: Parser = { line, reportLine in
        var body = Substring(line)
        if body.hasSuffix(")"), let open = body.lastIndex(of: "("), open > body.startIndex, body[body.index(before: open)] == " ",
            body[open...].containsBytes(":")
        {
            body = body[..<body.index(before: open)]
        }
        guard body.containsBytes(" + "), let plus = body.range(of: " + ", options: .backwards), plus.lowerBound > body.startIndex,
            !body[plus.upperBound...].isEmpty, body[plus.upperBound...].allSatisfy(\.isNumber)
        else { return nil }
        guard !line.hasBytePrefix("0x"), line.first?.isNumber != true, looksLikeSymbol(line, alone: true) else { return nil }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        TextReportParser.parseSymbolPart(line, into: &frame)
        return frame.symbol == nil ? nil : frame
    }

    /// `0x00000001880ac55c objc_exception_throw + 56`, `0x0000000189671c08 <redacted> + 0` and
    /// `... 0x00092311 +[MGLayoutManager layoutBoxesIn:] (MGLayoutManager.m:106)`: an address then
    /// the symbol, without the image (an exception's `callStackSymbols` printed by a handler that
    /// drops the column, a list whose first columns the poster cut to `...`).
    static let addressSymbol: Parser = { line, reportLine in
        var body = Substring(line)
        for elision in ["...", "…"] where body.hasBytePrefix(elision) {
            body = body.dropFirst(elision.count).drop { $0 == " " || $0 == "\t" }
        }
        guard body.hasBytePrefix("0x") else { return nil }
        let hex = body.dropFirst(2).prefix { $0.isHexDigit }
        guard !hex.isEmpty, hex.count <= 16, let address = UInt64(hex, radix: 16) else { return nil }
        let rest = body.dropFirst(2 + hex.count)
        guard rest.first == " " || rest.first == "\t" else { return nil }
        let symbol = rest.trimmedBlanks
        guard symbol == "<redacted>" || symbol.hasBytePrefix("<redacted> + ") || looksLikeSymbol(symbol, alone: true) else { return nil }
        var frame = Frame(index: 0, address: address, reportLine: reportLine)
        TextReportParser.parseSymbolPart(symbol, into: &frame)
        return frame.symbol == nil ? nil : frame
    }

    /// `0  libdispatch.dylib   DISPATCH_WAIT_FOR_QUEUE + 484` and `6  closure #1 in f()`: crash
    /// services' web text, a number then the image and the symbol (columns two blanks or a tab
    /// apart) or the symbol alone.
    /// The image and the symbol one blank apart (`5 alphaVideoPlayTool -[SLMaskVideoPlayerLayer
    /// resum] + 116`, `22 MyApp main (main.m:18)`, a crash service's list copied without its
    /// columns): taken apart only when the symbol says it is one by its form (a method in
    /// brackets, an offset, a source place), so a numbered sentence stays prose.
    static func imageBlankSymbol(_ text: String) -> (image: String, symbol: String)? {
        guard let blank = text.firstIndex(of: " ") else { return nil }
        let image = text[..<blank]
        let symbol = text[text.index(after: blank)...].trimmedBlanks
        guard let first = image.first, first.isLetter || first == "_", image.utf8.count <= 100,
            image.allSatisfy({ $0.isLetter || $0.isNumber || "._-+".contains($0) }),
            !["at", "in", "from", "frame"].contains(image.lowercased()), !symbol.isEmpty
        else { return nil }
        let methodInBrackets = symbol.hasBytePrefix("-[") || symbol.hasBytePrefix("+[")
        let offset =
            symbol.range(of: " + ", options: .backwards).map { range in
                !symbol[range.upperBound...].isEmpty && symbol[range.upperBound...].allSatisfy { $0.isASCII && $0.isNumber }
            } ?? false
        let place =
            symbol.hasSuffix(")")
            && symbol.lastIndex(of: "(").map { open in
                fileAndLine(symbol[symbol.index(after: open)..<symbol.index(before: symbol.endIndex)]) != nil
            } == true
        guard methodInBrackets || offset || place, looksLikeSymbol(String(symbol), alone: false) else { return nil }
        return (String(image), String(symbol))
    }

    static let numberedWithoutAddress: Parser = { line, reportLine in
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 5, let index = Int(digits) else { return nil }
        var rest = Substring(line).dropFirst(digits.count)
        if rest.hasBytePrefix(".") { rest = rest.dropFirst() }
        guard rest.first == " " || rest.first == "\t" else { return nil }
        rest = rest.drop { $0 == " " || $0 == "\t" }
        guard !rest.isEmpty, !rest.hasBytePrefix("0x"), rest.first?.isLetter == true || "_-+[(<$".contains(rest.first ?? " ") else {
            return nil
        }
        var columns = columns(of: rest)
        // The image and its `+0x…` offset one blank apart (`Datadog +0x181cf4`): two columns.
        if let first = columns.first, let blank = first.byteRange(of: " +0x"), !first[..<blank.lowerBound].containsBytes(" ") {
            columns.replaceSubrange(
                0..<1, with: [String(first[..<blank.lowerBound]), String(first[first.index(after: blank.lowerBound)...])])
        }
        var frame = Frame(index: index, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        var symbolPart: String
        let alone: Bool
        if columns.count >= 2, !columns[0].containsBytes(" ") {
            frame.imageName = columns[0]
            var symbolColumns = columns.dropFirst()
            // `0  Datadog +0x181cf4  VitalInfoSampler.takeSample() (VitalInfoSampler.swift:86:41)`:
            // the offset in the image as a column of its own (Datadog's and mParticle's lists).
            if let offsetColumn = symbolColumns.first, offsetColumn.hasBytePrefix("+0x") {
                // The offset and the symbol may be one blank apart (`+0x9a898 Swift runtime failure: …`).
                let hex = offsetColumn.dropFirst(3).prefix { $0.isHexDigit }
                let after = offsetColumn.dropFirst(3 + hex.count)
                if !hex.isEmpty, hex.count <= 16, after.isEmpty || after.first == " ", let offset = UInt64(hex, radix: 16) {
                    frame.imageOffset = offset
                    symbolColumns = symbolColumns.dropFirst()
                    let symbol = after.trimmedBlanks
                    if !symbol.isEmpty { symbolColumns.insert(symbol, at: symbolColumns.startIndex) }
                }
            }
            symbolPart = symbolColumns.joined(separator: " ")
            alone = false
        } else if let (image, symbol) = imageBlankSymbol(rest.trimmedBlanks) {
            frame.imageName = image
            symbolPart = symbol
            alone = false
        } else {
            symbolPart = rest.trimmedBlanks
            alone = true
        }
        // A prose list (`1 Open the app`) is no frame: a frame's symbol has no sentence in it. The
        // compiler's name for a check's trap (`Swift runtime failure: arithmetic overflow`) is one.
        guard looksLikeSymbol(symbolPart, alone: alone) || (!alone && symbolPart.hasBytePrefix(AppLine.runtimeFailurePrefix)) else {
            return nil
        }
        TextReportParser.parseFrameRest(symbolPart, into: &frame)
        return frame.symbol == nil ? nil : frame
    }

    /// `0x101fa97e0 - /…/MetaApp.app/libmonosgen-2.0.dylib : mono_handle_native_crash`: the
    /// address, the image's path and the symbol (Mono's and .NET's `Native stacktrace:`).
    /// A native frame of the JVM's fatal error log (`hs_err`): its kind letter (`C` native, `V` the VM),
    /// the image and offset in brackets, the symbol and its offset (`C  [libobjc.A.dylib+0x14dd]
    /// objc_msgSend+0x1d`), with the log's `# ` before it under `Problematic frame:`.
    static let jvmNativeFrame: Parser = { line, reportLine in
        var rest = Substring(line)
        if rest.hasBytePrefix("#") { rest = rest.dropFirst().drop { $0 == " " } }
        guard let kind = rest.first, kind == "C" || kind == "V", rest.dropFirst().hasBytePrefix(" ") else { return nil }
        rest = rest.dropFirst().drop { $0 == " " }
        guard rest.hasBytePrefix("["), let close = rest.firstIndex(of: "]") else { return nil }
        let inside = rest[rest.index(after: rest.startIndex)..<close]
        guard let plus = inside.byteRange(of: "+0x") else { return nil }
        let image = inside[..<plus.lowerBound]
        let offsetHex = inside[plus.upperBound...]
        guard !image.isEmpty, !image.contains(" "), offsetHex.count <= 16, let offset = UInt64(offsetHex, radix: 16) else { return nil }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        frame.imageName = String(image)
        frame.imageOffset = offset
        var symbol = String(rest[rest.index(after: close)...]).trimmedBlanks
        if let at = symbol.range(of: "+0x", options: .backwards) { symbol = String(symbol[..<at.lowerBound]) }
        if !symbol.isEmpty {
            guard looksLikeSymbol(symbol, alone: false) else { return nil }
            frame.symbol = symbol
        }
        return frame
    }

    /// Apple's columns with the address printed as bare hex, without `0x` (a crash reporter's
    /// own list: `#6 iDiskk 00000000010038D634 -[DZNEmptyDataSetView setupConstraints]`): the
    /// number (its `#` optional), the image, 8 to 18 hex digits, the symbol when there is one.
    static let bareHexAddress: Parser = { line, reportLine in
        var rest = Substring(line)
        if rest.hasBytePrefix("#") { rest = rest.dropFirst() }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 5, let index = Int(digits) else { return nil }
        rest = rest.dropFirst(digits.count)
        guard rest.first == " " || rest.first == "\t" else { return nil }
        let columns = rest.split(maxSplits: 2, whereSeparator: { $0 == " " || $0 == "\t" })
        guard columns.count >= 2, columns[0].first.map({ $0.isLetter || $0 == "_" }) == true else { return nil }
        var hex = columns[1]
        // Leading zeros beyond 16 digits (`000000000182BC2DB0`) are still one 64-bit address.
        while hex.count > 16, hex.first == "0" { hex = hex.dropFirst() }
        // A column of decimal digits is a decimal address (a crash service's export), read by its
        // own syntax: hex here has a letter, or the zeros of a fixed width.
        let isHex = columns[1].contains { $0.isLetter } || (columns[1].count >= 16 && columns[1].first == "0")
        guard (8...18).contains(columns[1].count), columns[1].allSatisfy(\.isHexDigit), columns[1].contains(where: \.isNumber), isHex,
            let address = UInt64(hex, radix: 16)
        else { return nil }
        var frame = Frame(index: index, address: address, reportLine: reportLine)
        frame.imageName = String(columns[0])
        let symbol = columns.count > 2 ? String(String(columns[2]).trimmedBlanks) : ""
        // `()`: the reporter had no name for the frame.
        if !symbol.isEmpty, symbol != "()" {
            guard looksLikeSymbol(symbol, alone: false) else { return nil }
            TextReportParser.parseFrameRest(symbol, into: &frame)
        }
        return frame
    }

    static let addressImageSymbol: Parser = { line, reportLine in
        guard line.hasBytePrefix("0x"), let dash = line.byteRange(of: " - "), let colon = line.range(of: " : ", options: .backwards),
            dash.upperBound <= colon.lowerBound
        else { return nil }
        let hex = line[line.index(line.startIndex, offsetBy: 2)..<dash.lowerBound]
        guard !hex.isEmpty, hex.count <= 16, hex.allSatisfy(\.isHexDigit), let address = UInt64(hex, radix: 16) else { return nil }
        let path = line[dash.upperBound..<colon.lowerBound].trimmedBlanks
        let symbol = line[colon.upperBound...].trimmedBlanks
        guard !path.isEmpty, !symbol.isEmpty, looksLikeSymbol(symbol, alone: true) else { return nil }
        var frame = Frame(index: 0, address: address, reportLine: reportLine)
        frame.imageName = path.split(separator: "/").last.map(String.init)
        TextReportParser.parseFrameRest(symbol, into: &frame)
        return frame.symbol == nil ? nil : frame
    }

    /// V8's stack frame (Node, Chrome, Electron, Deno): `at Server.setupListenHandle [as _listen2]
    /// (net.js:1286:14)`, `at new Foo (/app/foo.js:3:9)`, `at async main (file:///app/m.mjs:4:3)`,
    /// `at /app/index.js:31:8` (no function): the place always with its line and column.
    static let v8Frame: Parser = { line, reportLine in
        guard line.hasBytePrefix("at "), line.utf8.count <= 2_000 else { return nil }
        var rest = line.dropFirst(3)
        if rest.hasBytePrefix("async ") { rest = rest.dropFirst(6) }
        var name: Substring?
        var place = rest
        if rest.hasSuffix(")"), let open = rest.range(of: " (", options: .backwards) {
            name = rest[..<open.lowerBound]
            place = rest[open.upperBound..<rest.index(before: rest.endIndex)]
        }
        // Line and column, both.
        let parts = place.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts.suffix(2).allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let (file, number) = fileLineColumn(place), !file.isEmpty
        else { return nil }
        if var function = name {
            if function.hasSuffix("]"), let alias = function.range(of: " [as ", options: .backwards) {
                function = function[..<alias.lowerBound]
            }
            if function.hasBytePrefix("new ") { function = function.dropFirst(4) }
            guard !function.isEmpty, !function.containsBytes("("), !function.containsBytes(" ") else { return nil }
            name = function
        } else {
            guard !place.containsBytes(" ") else { return nil }
        }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        frame.symbol = name.map(String.init)
        frame.sourceFile = String(file)
        frame.sourceLine = number
        return frame
    }

    /// A .NET/Mono stack line: `at Foo.Bar.Draw (CGRect rect) [0x00000] in /src/Bar.cs:17`,
    /// `at (wrapper managed-to-native) UIKit.UIApplication:UIApplicationMain (int,string[])`, and
    /// App Center's `Foo.Bar.Main (System.String[] args) <0x102105160 + 0x0000a> in <hash>:0`:
    /// the method with its parameters, then its IL offset or address, then its file and line when
    /// the build kept them (`<filename unknown>:0` when not).
    static let managedFrame: Parser = { line, reportLine in
        var rest = Substring(line)
        let saysAt = rest.hasBytePrefix("at ")
        if saysAt { rest = rest.dropFirst(3) }
        if rest.hasBytePrefix("(wrapper ") {
            guard let close = rest.firstIndex(of: ")") else { return nil }
            rest = rest[rest.index(after: close)...].drop { $0 == " " }
        }
        // A native frame in a JVM-style trace (Sentry's Java and React Native SDKs, `at
        // null.-[FBSSerialQueue assertOnQueue](null:null)`): no class and no file, the symbol between.
        if saysAt, rest.hasBytePrefix("null."), rest.hasSuffix("(null:null)") {
            let symbol = String(rest.dropFirst(5).dropLast(11)).trimmedBlanks
            guard !symbol.isEmpty, looksLikeSymbol(symbol, alone: true) else { return nil }
            var frame = Frame(index: 0, address: 0, reportLine: reportLine)
            frame.hasAddress = false
            TextReportParser.parseFrameRest(symbol, into: &frame)
            return frame.symbol == nil ? nil : frame
        }
        // The method: a dotted name, then its parameters in parentheses: Mono's `Type.Method (args)`
        // with a blank, .NET's `Type.Method(args)` without one.
        guard let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")") else { return nil }
        let spaced = open > rest.startIndex && rest[rest.index(before: open)] == " "
        let method = spaced ? rest[..<rest.index(before: open)] : rest[..<open]
        guard method.containsBytes("."), !method.containsBytes(" "), method.first.map({ $0.isLetter || $0 == "_" }) == true else {
            return nil
        }
        let after = rest[rest.index(after: close)...].trimmedBlanks
        // A place: `in /path/File.cs:line 88` (.NET), `in <filename unknown>:0` (Mono), a crash
        // service's `…:line 88;Assembly` with the assembly after it.
        let place = after.hasBytePrefix("in ") ? after.dropFirst(3) : nil
        let namesLine = place.map { $0.containsBytes(":line ") } ?? false
        // Without the blank, the line is .NET's only when it says `at` or names its source line
        // (a Swift symbol alone, `App.View.body()`, is read by the frame shapes for symbols).
        guard spaced || saysAt || namesLine else { return nil }
        guard after.isEmpty || after.hasBytePrefix("[0x") || after.hasBytePrefix("<0x") || place != nil else { return nil }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        frame.symbol = String(rest[..<rest.index(after: close)])
        var location = place.map { Substring($0) } ?? (after.byteRange(of: " in ").map { after[$0.upperBound...] })
        if let semicolon = location?.lastIndex(of: ";") { location = location?[..<semicolon] }
        if let location, !location.hasBytePrefix("<"), let colon = location.lastIndex(of: ":") {
            var number = location[location.index(after: colon)...]
            if number.hasBytePrefix("line ") { number = number.dropFirst(5) }
            if let line = Int(number), line > 0 {
                frame.sourceFile = String(location[..<colon])
                frame.sourceLine = line
            }
        }
        return frame
    }

    /// `UserNotifications: -[UNUserNotificationCenter initWithBundleProxy:] + 308`: a crash
    /// service's issue title as posters copy it, the image, a colon, the function and its offset.
    /// Only a method's or a qualified name (`-[X y]`, `X.y`, `ns::f`) with its offset: `Reason: x + 1`
    /// is prose.
    static let imageColonSymbol: Parser = { line, reportLine in
        guard line.containsBytes(": "), let colon = line.byteRange(of: ": ") else { return nil }
        let image = line[..<colon.lowerBound]
        guard !image.isEmpty, image.utf8.count <= 64, image.first?.isLetter == true,
            image.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
        else { return nil }
        let rest = line[colon.upperBound...].trimmedBlanks
        guard let plus = rest.range(of: " + ", options: .backwards), !rest[plus.upperBound...].isEmpty,
            rest[plus.upperBound...].allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        let symbol = rest[..<plus.lowerBound]
        guard
            symbol.hasBytePrefix("-[") || symbol.hasBytePrefix("+[") || symbol.containsBytes("::")
                || (symbol.containsBytes(".") && looksLikeSymbol(String(symbol), alone: true))
        else { return nil }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        frame.imageName = String(image)
        TextReportParser.parseFrameRest(rest, into: &frame)
        return frame.symbol == nil ? nil : frame
    }

    /// `bugsnag-example/ViewController.swift:27 - viewDidAppear` and
    /// `Frameworks/libswiftCore.dylib:0 - _fatalErrorMessage`: a source place or an image's path
    /// with a line, a dash, the symbol (crash services' issue texts).
    static let placeDashSymbol: Parser = { line, reportLine in
        guard line.containsBytes(" - "), let dash = line.byteRange(of: " - ") else { return nil }
        let head = line[..<dash.lowerBound]
        guard !head.containsBytes(" "), let colon = head.lastIndex(of: ":"),
            let number = Int(head[head.index(after: colon)...]), number >= 0
        else { return nil }
        let place = head[..<colon]
        // A path, a file, or an image's bare name with the `:0` a service prints for a binary
        // (`bugsnag-example:0 - …`).
        let bareImage =
            number == 0 && !place.isEmpty && place.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        guard place.containsBytes("/") || place.containsBytes(".") || bareImage, !place.containsBytes("://") else { return nil }
        let symbol = line[dash.upperBound...].trimmedBlanks
        let name = place.split(separator: "/").last.map(String.init) ?? String(place)
        // After a source place, one identifier is a function's name (`viewDidAppear`).
        let identifier = !symbol.isEmpty && symbol.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
        guard looksLikeSymbol(symbol, alone: true) || (identifier && isSourceFile(name)) else { return nil }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        if isSourceFile(name) {
            frame.sourceFile = String(place)
            if number > 0 { frame.sourceLine = number }
        } else {
            frame.imageName = name
        }
        TextReportParser.parseFrameRest(symbol, into: &frame)
        return frame.symbol == nil ? nil : frame
    }

    /// A source file's name by its extension (Swift, the C family, the languages that share an
    /// app with them), as opposed to an image's.
    /// `path/File.ext:LINE`: a source file's path (its name with a source extension) and a line
    /// number after its last colon, or nil.
    static func fileAndLine(_ place: Substring) -> (file: Substring, line: Int)? {
        guard let colon = place.lastIndex(of: ":") else { return nil }
        let digits = place[place.index(after: colon)...]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let line = Int(digits),
            isSourceFile(String(place[..<colon].split(separator: "/").last ?? ""))
        else { return nil }
        return (place[..<colon], line)
    }

    package static func isSourceFile(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return ["swift", "m", "mm", "c", "cc", "cpp", "cxx", "h", "hpp", "kt", "java", "js", "ts", "cs"].contains(
            name[name.index(after: dot)...].lowercased())
    }

    /// `Frameworks/CoreFoundation.framework/CoreFoundation ___exceptionPreprocess` and
    /// `Instabug/Logging/IBGDataStore.m:576:9 -[IBGDataStore userEventLogs]`: an image's path or a
    /// source place, then the symbol (crash services' exports).
    static let pathAndSymbol: Parser = { line, reportLine in
        guard let space = line.firstIndex(of: " ") else { return nil }
        let head = line[..<space]
        guard head.containsBytes("/"), !head.hasBytePrefix("http"), !head.containsBytes("://") else { return nil }
        // (Not logcat's level and tag padded to their column, `I/DEBUG   (  119): …`: a log prefix.)
        guard LogPrefix.logcatBrief(Substring(line)) == nil else { return nil }
        let symbol = line[space...].trimmedBlanks
        guard looksLikeSymbol(symbol) else { return nil }
        var frame = Frame(index: 0, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        let parts = head.split(separator: ":")
        if parts.count >= 2, let number = Int(parts[1]), parts[0].containsBytes(".") {
            frame.sourceFile = String(parts[0])
            frame.sourceLine = number
        } else {
            frame.imageName = head.split(separator: "/").last.map(String.init)
        }
        TextReportParser.parseFrameRest(symbol, into: &frame)
        return frame.symbol == nil ? nil : frame
    }

    /// The line's columns: runs separated by two or more blanks or a tab.
    static func columns(of text: Substring) -> [String] {
        var columns: [String] = []
        var current = ""
        var blanks = 0
        for character in text {
            if character == "\t" {
                blanks = 2
                continue
            }
            if character == " " {
                blanks += 1
                continue
            }
            if blanks >= 2, !current.isEmpty {
                columns.append(current)
                current = ""
            } else if blanks == 1 {
                current.append(" ")
            }
            blanks = 0
            current.append(character)
        }
        if !current.isEmpty { columns.append(current) }
        return columns
    }

    /// A function name as reports print it: an identifier, an Objective-C method, a Swift or C++
    /// signature, with an optional ` + 12` and `(File.swift:3)`; not prose. Blanks outside
    /// brackets are allowed only after Swift's qualifier words (`closure #1 in static X.f()`,
    /// `protocol witness for X.f() in conformance Y`). A name printed `alone` (no image column)
    /// must carry a character prose does not (`_ . : ( [ < $`).
    static func looksLikeSymbol(_ text: String, alone: Bool = false) -> Bool {
        var body = Substring(text)
        // A place after the name (`(X.swift:12)`, the compiler's `(<compiler-generated>)`) is no word of it.
        if body.hasSuffix(")"), let open = body.lastIndex(of: "("),
            body[open...].containsBytes(":") || body[open...] == "(<compiler-generated>)", open > body.startIndex,
            body[body.index(before: open)] == " "
        {
            body = body[..<open].dropLast()
        }
        if body.containsBytes(" + "), let plus = body.range(of: " + ", options: .backwards),
            body[plus.upperBound...].allSatisfy(\.isNumber),
            plus.upperBound < body.endIndex
        {
            body = body[..<plus.lowerBound]
        }
        guard let first = body.first, first.isLetter || "_-+[(<$@~".contains(first) else { return false }
        if alone, !body.contains(where: { "_.:([<$".contains($0) }) { return false }
        var words: [Substring] = []
        var depth = 0
        var start = body.startIndex
        var index = body.startIndex
        while index < body.endIndex {
            switch body[index] {
            case "(", "[", "<", "{": depth += 1
            case ")", "]", ">", "}": depth = max(0, depth - 1)
            case " " where depth == 0:
                words.append(body[start..<index])
                start = body.index(after: index)
            default: break
            }
            index = body.index(after: index)
        }
        words.append(body[start...])
        return words.dropLast().allSatisfy { word in
            swiftQualifiers.contains(String(word)) || (word.hasBytePrefix("#") && word.dropFirst().allSatisfy(\.isNumber))
                || word.containsBytes(".") || word.containsBytes("(")
        }
    }

    /// The words Swift's demangler puts before a function's name.
    static let swiftQualifiers: Set<String> = [
        "closure", "in", "specialized", "partial", "apply", "for", "thunk", "reabstraction", "merged", "static", "@objc",
        "implicit", "generic", "protocol", "witness", "of", "conformance", "initializer", "globalinit", "async", "function",
        "pointer", "dispatch_thunk", "await", "resume", "partial-apply", "outlined", "copy", "destroy", "retain", "release",
        "value", "key", "path", "getter", "setter", "lazy", "variable", "type", "metadata", "accessor", "@callee_guaranteed",
        "unsafeMutableAddressor", "default", "argument", "@nonobjc", "dynamic", "vtable", "descriptor", "with", "unmangled",
        "suffix", "storage", "@",
        // The signature's words the demangler prints after the name without `--simplified`
        // (`X.f() throws -> ()`).
        "->", "throws", "rethrows",
    ]
}

/// A title that opens a pasted thread's frames: a crash service's `Crashed: com.apple.main-thread`
/// (`#0. Crashed: …`), the Swift backtracer's `Thread 0 crashed:`, the Main Thread Checker's
/// `Backtrace:`, a log's `Stack trace:`.
enum PastedThreadTitle {
    static func parse(_ trimmed: String) -> (name: String?, crashed: Bool)? {
        var text = Substring(trimmed)
        if text.hasBytePrefix("#") {
            let digits = text.dropFirst().prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, text.dropFirst(1 + digits.count).hasBytePrefix(". ") else { return nil }
            text = text.dropFirst(3 + digits.count)
        }
        if text.hasBytePrefix("Crashed: ") {
            let name = text.dropFirst(9).trimmedBlanks
            return (name.isEmpty ? nil : name, true)
        }
        if text.hasBytePrefix("Thread "), text.hasSuffix(" crashed:") { return (String(text.dropLast(1)), true) }
        // Python's faulthandler: `Current thread 0x… (most recent call first):` got the signal,
        // `Thread 0x… (most recent call first):` is another.
        if text.hasSuffix(" (most recent call first):") {
            let name = text.dropLast(26)
            if name.hasBytePrefix("Current thread 0x") { return ("Thread" + name.dropFirst(14), true) }
            if name.hasBytePrefix("Thread 0x") { return (String(name), false) }
        }
        if headings.contains(text.lowercased()) { return (nil, false) }
        return nil
    }

    /// Headings a stack's frames are pasted under, in any case (`Call Stack:`, R's `Traceback:`).
    static let headings: Set<String> = [
        "backtrace:", "stack trace:", "stacktrace:", "call stack:", "callstack:", "stack:", "traceback:",
        // glog's and Abseil's, after a failed `CHECK`.
        "*** check failure stack trace: ***",
    ]

    /// A name listed under a heading without an address: a Markdown bullet (`- _StringGuts.validateCharacterIndex(_:)`,
    /// `* …`, `• …`) whose text reads as a symbol, or a numbered call (R's ` 1: initMethodDispatch(where)`,
    /// `2. f(x)`): a function name and its parenthesis.
    static func listedName(_ trimmed: String) -> String? {
        var text = Substring(trimmed)
        for bullet in ["- ", "* ", "• "] where text.hasBytePrefix(bullet) {
            let name = text.dropFirst(bullet.utf8.count).trimmedBlanks
            // A bracketed note in the list (`- [Quotio app code]`) is no frame; `-[X y]` is.
            guard !name.hasBytePrefix("[") else { return nil }
            return PastedFrameGrammar.looksLikeSymbol(name, alone: true) && name.utf8.count <= 500 ? name : nil
        }
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 4 else { return nil }
        text = text.dropFirst(digits.count)
        guard text.hasBytePrefix(": ") || text.hasBytePrefix(". ") else { return nil }
        let call = text.dropFirst(2).trimmedBlanks
        let name = call.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == ":" }
        guard let first = name.first, first.isLetter || first == "_" || first == ".", call.dropFirst(name.count).hasBytePrefix("("),
            call.hasSuffix(")"), call.utf8.count <= 500
        else { return nil }
        return call
    }
}

extension StatedMessage.Family {
    /// Families whose message goes on over the following lines (dyld's `Referenced from:` and
    /// `Reason:`, TCC's sentence wrapped by the console).
    var continuesOverLines: Bool { self == .dyld || self == .privacy }
}
