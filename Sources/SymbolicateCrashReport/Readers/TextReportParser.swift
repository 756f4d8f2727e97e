import Foundation
import SymbolicateCore

/// Reads a text crash report (Apple's legacy/translated layouts and the third-party
/// reporters that imitate them). It only *reads*: the writer reproduces lines from the
/// original document, so anything not understood here still reaches the output unchanged.
struct TextReportParser {
    let document: TextDocument
    let path: String
    /// 0-based index of the first body line (after an `.ips` header line, if any).
    let bodyStart: Int
    let format: ReportFormat

    private enum Section {
        case header
        case frames(Target)
        case registers(threadPosition: Int)
        case binaryImages
        case applicationSpecific
        case other
    }

    private enum Target {
        case thread(Int)  // position in report.threads
        case lastException
        case asi(Int)  // position in report.asiBacktraces
    }

    /// `bug_type` of a legacy `.ips` header line, for messages.
    let bugType: String?

    init(document: TextDocument, path: String, bodyStart: Int, format: ReportFormat, bugType: String? = nil) {
        self.document = document
        self.path = path
        self.bodyStart = bodyStart
        self.format = format
        self.bugType = bugType
    }

    /// What the reading of one report keeps between lines.
    private struct State {
        var report: CrashReport
        var section = Section.header
        var family = Family.crash
        var sawBinaryImages = false
        var sawThreadsOrExceptionInfo = false
        var sawBodyContent = false
        var asiLines: [String] = []
        /// `Thread N name:` lines seen before the thread's backtrace.
        var pendingNames: [Int: (name: String?, queue: String?)] = [:]
        var terminationDetailsOpen = false
        var processesTableLine: Int?
        var processesRows = 0
        var lastNonEmptyLine: Int
        var lastFrame: (firstLine: Int, lastLine: Int, text: String)?
        var lastImage: (line: Int, text: String)?
        /// Inside a legacy `(0x… 0x…)` Last Exception Backtrace wrapped over several lines.
        var inAddressList = false
        /// The frames were pasted without their `Thread N Crashed:` line: read as one thread.
        var pastedFrames = false
        /// Each line's role for the writer, decided here once.
        var roles: LineRoleTracker
        /// Lines read as the report's structure (see `CrashReport.structureLines`).
        var structureLines: Set<Int> = []

        /// Position in `report.threads` of each thread number (threads are only ever appended):
        /// a search of the list per thread line made reading quadratic in threads.
        var positions: [Int: Int] = [:]

        /// Position in `report.threads` of thread `number`, nil when not met yet.
        func existingThread(_ number: Int) -> Int? { positions[number] }

        /// Position in `report.threads` of thread `number`, adding it when first met.
        mutating func threadPosition(_ number: Int) -> Int {
            if let i = positions[number] { return i }
            let pending = pendingNames[number]
            report.threads.append(CrashReport.Thread(index: number, name: pending?.name, queue: pending?.queue))
            positions[number] = report.threads.count - 1
            return report.threads.count - 1
        }
    }

    /// Reads the report line by line (each line's section decides how it is read), then checks
    /// what was found: a cut report is kept with a warning, a text that is no report at all is
    /// an error.
    func parse() throws(CrashReportError) -> CrashReport {
        var report = CrashReport(path: path, format: format, source: .text(document))
        report.bugType = bugType
        var state = State(report: report, lastNonEmptyLine: bodyStart, roles: LineRoleTracker(lineCount: document.lines.count))
        for lineIndex in 0..<bodyStart { state.roles.classify(lineIndex, document.lines[lineIndex].text) }
        for lineIndex in bodyStart..<document.lines.count {
            readLine(lineIndex, into: &state)
        }
        var classified = document
        classified.roles = state.roles.roles
        state.report.source = .text(classified)
        return try finish(&state)
    }

    /// One body line: blank lines close frame, register and ASI sections; section titles open
    /// them; other lines are read by the open section, then as `Key: value` fields.
    private func readLine(_ lineIndex: Int, into state: inout State) {
        let raw = document.lines[lineIndex].text
        let lineNumber = lineIndex + 1
        let trimmed = raw.trimmedBlanks
        if trimmed.isEmpty {
            state.roles.record(lineIndex, raw, trimmed: trimmed, header: nil)
            state.terminationDetailsOpen = false
            switch state.section {
            // A report pasted into an issue or a forum often gains a blank line between a
            // backtrace's title and its first frame: only a blank line after frames ends it.
            case .frames(let target) where Self.isEmpty(target, in: state.report): break
            case .frames, .registers, .applicationSpecific: state.section = .other
            default: break
            }
            return
        }
        state.lastNonEmptyLine = lineIndex
        if !state.sawBodyContent {
            state.sawBodyContent = true
            if trimmed.hasPrefix("panic(") {
                state.family = .kernelPanic
                state.report.panicString = trimmed
            }
        }
        if state.terminationDetailsOpen {
            if Self.endsTerminationDetails(trimmed) {
                state.terminationDetailsOpen = false
            } else {
                let details = state.report.termination?.details ?? []
                state.report.termination?.details = details + [trimmed]
            }
        }
        let header = Self.threadHeader(trimmed)
        state.roles.record(lineIndex, raw, trimmed: trimmed, header: header)
        if readSectionTitle(trimmed, header: header, lineNumber: lineNumber, into: &state) {
            state.structureLines.insert(lineNumber)
            return
        }

        switch state.section {
        case .frames(let target):
            if readFrameLine(trimmed, lineNumber: lineNumber, target: target, into: &state) { return }
        case .registers(let position):
            if Self.parseRegisters(trimmed, into: &state.report.threads[position].registers) {
                state.structureLines.insert(lineNumber)
                return
            }
            state.section = .other
        case .binaryImages:
            if readImageLine(raw, trimmed: trimmed, lineIndex: lineIndex, into: &state) { return }
        case .applicationSpecific:
            state.asiLines.append(trimmed)
            return
        case .header, .other:
            if readPastedFrame(trimmed, lineNumber: lineNumber, into: &state) { return }
        }

        // `Key: value` lines (header block and the exception block).
        if let (key, value) = Self.keyValue(trimmed) {
            if case .header = state.section { state.report.headerFields.append(HeaderField(key: key, value: value)) }
            if Self.metadataKeys.contains(key) { state.structureLines.insert(lineNumber) }
            if apply(key: key, value: value, to: &state.report, family: &state.family) { state.sawThreadsOrExceptionInfo = true }
            if key == "Termination Reason" { state.terminationDetailsOpen = true }
        }
    }

    /// Header keys of Apple's layouts whose values identify the process, device and report and
    /// never state how the process ended: their lines are structure, asked no crash question.
    static let metadataKeys: Set<String> = [
        "Incident Identifier", "CrashReporter Key", "Hardware Model", "Process", "Path", "Identifier", "Version", "Code Type",
        "Role", "Parent Process", "Responsible Process", "Responsible", "Coalition", "Date/Time", "Launch Time", "OS Version",
        "Release Type", "Baseband Version", "Report Version", "Beta Identifier", "Anonymous UUID", "Sleep/Wake UUID",
        "Time Awake Since Boot", "Time Since Boot", "System Integrity Protection", "Crashed Thread", "Triggered by Thread",
        "Distributor ID", "AppStoreTools", "AppVariant", "User ID", "Exception Codes", "Model", "Bundle ID", "Build Info",
    ]

    /// Section titles, which can appear anywhere: thread headers, `Last Exception Backtrace:`,
    /// `Application Specific …`, `Binary Images:`, `Processes`. True when the line was one.
    private func readSectionTitle(_ trimmed: String, header: ThreadHeader?, lineNumber: Int, into state: inout State) -> Bool {
        if let header {
            state.sawThreadsOrExceptionInfo = true
            switch header {
            case let .name(n, name, queue):
                if let i = state.existingThread(n) {
                    state.report.threads[i].name = name ?? state.report.threads[i].name
                    state.report.threads[i].queue = queue ?? state.report.threads[i].queue
                } else {
                    state.pendingNames[n] = (name, queue)
                }
                state.section = .other
            case let .backtrace(n, crashed, name, queue):
                let i = state.threadPosition(n)
                if crashed { state.report.threads[i].crashed = true }
                if let name { state.report.threads[i].name = name }
                if let queue { state.report.threads[i].queue = queue }
                state.section = .frames(.thread(i))
            case let .state(n):
                let i = state.threadPosition(n)
                // `Thread 0 crashed with ARM Thread State`: the title says which thread crashed,
                // for a text that kept only the registers.
                if !state.report.threads.contains(where: \.crashed) { state.report.threads[i].crashed = true }
                state.section = .registers(threadPosition: i)
            case .other:
                state.section = .other
            }
            return true
        }
        if trimmed == "Last Exception Backtrace:" {
            state.sawThreadsOrExceptionInfo = true
            state.report.lastExceptionBacktrace = Backtrace(title: "Last Exception Backtrace", frames: [])
            state.section = .frames(.lastException)
            return true
        }
        if trimmed.hasPrefix("Application Specific Backtrace"), trimmed.hasSuffix(":") {
            state.report.asiBacktraces.append(Backtrace(title: String(trimmed.dropLast()), frames: []))
            state.section = .frames(.asi(state.report.asiBacktraces.count - 1))
            return true
        }
        // dyld's message has its own heading in macOS reports of a launch it stopped (`Dyld Error
        // Message:`, its `Symbol not found:`/`Library not loaded:` lines under it): read as the
        // report's message, as Application Specific Information's lines are.
        if trimmed == "Application Specific Information:" || trimmed == "Dyld Error Message:" || trimmed == "Dyld Message:" {
            state.section = .applicationSpecific
            return true
        }
        if trimmed.hasPrefix("Binary Images") && trimmed.hasSuffix(":") {
            // Microstackshot reports list images per sampled process; not one process's.
            if state.family == .microstackshot {
                state.section = .other
                return true
            }
            state.sawBinaryImages = true
            state.section = .binaryImages
            return true
        }
        if trimmed == "Processes" || trimmed.hasPrefix("Processes:") {
            state.processesTableLine = lineNumber
            state.section = .other
            return true
        }
        if state.processesTableLine != nil, trimmed.containsBytes("|"), !trimmed.hasPrefix("Name") && !trimmed.hasPrefix("Name ") {
            if !(trimmed.hasPrefix("Name") || trimmed.containsBytes("<UUID>")) { state.processesRows += 1 }
        }
        return false
    }

    /// A frame line before any backtrace's title: frames copied from the middle of a thread
    /// (into a chat or an issue) without its `Thread N Crashed:` line. They open one thread,
    /// numbered 0 as the first thread of a report is, and the report is partial
    /// (`MissingPart.framesWithoutThreadHeader`); the frames after it are read as a backtrace's.
    private func readPastedFrame(_ trimmed: String, lineNumber: Int, into state: inout State) -> Bool {
        guard state.family == .crash, state.report.threads.isEmpty, state.report.lastExceptionBacktrace == nil,
            state.report.asiBacktraces.isEmpty, !state.sawBinaryImages, trimmed.first?.isNumber == true,
            let frame = Self.parseFrame(trimmed, reportLine: lineNumber)
        else { return false }
        state.pastedFrames = true
        let position = state.threadPosition(0)
        // Its number is the reader's: which thread of the process it was is unknown.
        state.report.threads[position].isNumberedByReader = true
        state.section = .frames(.thread(position))
        appendFrame(frame, to: .thread(position), in: &state.report)
        state.lastFrame = (lineNumber, lineNumber, trimmed)
        return true
    }

    /// A line of a backtrace: a frame, a legacy address list, or the wrapped rest of the frame
    /// above. False when the line ends the backtrace (it is then read as a field).
    private func readFrameLine(_ trimmed: String, lineNumber: Int, target: Target, into state: inout State) -> Bool {
        if let frame = Self.parseFrame(trimmed, reportLine: lineNumber) {
            appendFrame(frame, to: target, in: &state.report)
            state.lastFrame = (lineNumber, lineNumber, trimmed)
            return true
        }
        if case .lastException = target, trimmed.hasPrefix("(") || (state.inAddressList && trimmed.hasPrefix("0x")) {
            // Legacy form: `(0x2d30401e 0x2ca72d02 …)`, possibly cut or wrapped.
            let tokens = trimmed.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == ")" })
            var base = state.report.lastExceptionBacktrace?.frames.count ?? 0
            for tok in tokens {
                guard let addr = Self.hex(tok) else { continue }
                state.report.lastExceptionBacktrace?.frames.append(Frame(index: base, address: addr, reportLine: lineNumber))
                base += 1
            }
            state.inAddressList = !trimmed.hasSuffix(")")
            return true
        }
        // A crash service's copy of Apple's layout without the addresses (`0   libswiftCore.dylib
        // swift_getObjectType + 40`): the pasted frame syntaxes, numbered as printed.
        // Only a line with no address at all that ends in the symbol's offset: a damaged line of
        // Apple's own layout stays a warning.
        if trimmed.first?.isNumber == true, !trimmed.containsBytes("0x"), Self.endsInOffset(trimmed),
            let pasted = PastedFrameGrammar.parseNumbered(trimmed, reportLine: lineNumber), pasted.numbered, pasted.frame.symbol != nil
        {
            appendFrame(pasted.frame, to: target, in: &state.report)
            state.lastFrame = (lineNumber, lineNumber, trimmed)
            return true
        }
        if trimmed.first?.isNumber == true {
            state.report.warnings.append(
                ParseWarning(path: path, line: lineNumber, message: "frame line not understood; kept as is: \(Self.excerpt(trimmed))"))
            return true
        }
        // Breakpad's registers and `Found by:` under each frame: the backtrace goes on below them.
        if state.lastFrame != nil, trimmed.hasPrefix("Found by: ") || Self.isRegisterDump(trimmed) { return true }
        // A line right after a frame that is not a frame itself: the rest of a frame
        // wrapped by a mail client (or a symbol holding a newline). Read both as one.
        // A frame that ends at its offset (`… + 120`) is whole: the line under it is the tool's
        // next output (`Command SwiftCompile failed with a nonzero exit code`), not its rest.
        if let last = state.lastFrame, last.lastLine == lineNumber - 1, !Self.endsAtOffset(last.text), Self.canContinueFrame(trimmed),
            var joined = Self.parseFrame(last.text + " " + trimmed, reportLine: last.firstLine)
        {
            replaceLastFrame(&joined, in: target, report: &state.report)
            state.report.wrappedLines[last.firstLine, default: []].append(lineNumber)
            state.report.warnings.append(
                ParseWarning(
                    path: path, line: lineNumber, message: "read as the rest of the frame on line \(last.firstLine) (wrapped line)"))
            state.lastFrame = (last.firstLine, lineNumber, last.text + " " + trimmed)
            return true
        }
        state.section = .other
        return false
    }

    /// `… symbol + 40`: a blank, `+`, a blank and digits end the line.
    static func endsInOffset(_ line: String) -> Bool {
        let digits = line.reversed().prefix { $0.isASCII && $0.isNumber }
        return !digits.isEmpty && line.dropLast(digits.count).hasSuffix(" + ")
    }

    /// A line of the Binary Images list (or the wrapped rest of the one above). False when
    /// the line ends the list.
    private func readImageLine(_ raw: String, trimmed: String, lineIndex: Int, into state: inout State) -> Bool {
        let lineNumber = lineIndex + 1
        if !trimmed.hasPrefix("0x"), let last = state.lastImage, last.line == lineNumber - 1,
            var image = Self.parseBinaryImage(
                last.text + " " + trimmed,
                reportLine: state.report.binaryImages[state.report.binaryImages.count - 1].reportLine ?? lineNumber)
        {
            // The rest of an image line wrapped by a mail client.
            image.isAppOwned = Self.isAppOwned(image, processPath: state.report.processPath)
            state.report.binaryImages[state.report.binaryImages.count - 1] = image
            state.report.warnings.append(
                ParseWarning(path: path, line: lineNumber, message: "read as the rest of the binary image line above (wrapped line)"))
            state.lastImage = (lineNumber, last.text + " " + trimmed)
            return true
        }
        if var image = Self.parseBinaryImage(raw, reportLine: lineNumber) {
            image.isAppOwned = Self.isAppOwned(image, processPath: state.report.processPath)
            state.report.binaryImages.append(image)
            state.lastImage = (lineNumber, raw)
            state.roles.markImageLine(lineIndex)
            return true
        }
        if trimmed == "EOF" {
            state.section = .other
            return true
        }
        if trimmed.containsBytes(":") {
            state.section = .other
            return false
        }
        state.report.warnings.append(
            ParseWarning(path: path, line: lineNumber, message: "binary image line not understood; kept as is: \(Self.excerpt(trimmed))"))
        return true
    }

    /// After the last line: frames tied to their images, the crashed thread, completeness (a
    /// cut report gets images inferred from its frames and a warning), and the refusals.
    private func finish(_ state: inout State) throws(CrashReportError) -> CrashReport {
        var report = state.report
        report.structureLines = state.structureLines
        if !state.asiLines.isEmpty { report.applicationSpecificInformation = state.asiLines.joined(separator: "\n") }
        resolveImages(in: &report)
        report.crashedThreadIndex = report.crashedThreadIndex ?? report.threads.first(where: \.crashed)?.index

        // A cut or pasted report is read as far as it goes; what is missing is recorded.
        let lastLine = state.lastNonEmptyLine + 1
        let family = state.family
        report.completeness = completeness(
            of: report, lastLine: lastLine, family: family, sawBinaryImages: state.sawBinaryImages,
            sawThreadsOrExceptionInfo: state.sawThreadsOrExceptionInfo, pastedFrames: state.pastedFrames,
            emptyProcessTable: state.processesTableLine != nil && state.processesRows == 0)
        if !report.completeness.isComplete {
            if report.completeness.missing.contains(.noBinaryImages) || report.completeness.missing.contains(.endsInsideBinaryImages) {
                inferImagesFromFrames(in: &report)
                resolveImages(in: &report)
            }
            report.warnings.append(partialWarning(report, lastLine: lastLine))
        } else if !state.sawThreadsOrExceptionInfo, !state.sawBinaryImages, family == .crash,
            let reason = Self.notAReportReason(report, document: document, bodyStart: bodyStart)
        {
            throw CrashReportError(
                kind: .notACrashReport, path: path,
                message: "not a crash report: no frame line and no crash fact (Exception Type, Thread N:, Fatal error:, …) found; \(reason)"
                    + "\nhint: " + KnownTextLayouts.hint)
        }
        if !state.sawBodyContent {
            throw CrashReportError(kind: .headerWithoutBody, path: path, line: bodyStart, message: "report has no body")
        }
        if report.threads.isEmpty && report.binaryImages.isEmpty && report.completeness.isComplete {
            let kind: String
            switch family {
            case .kernelPanic: kind = "kernel panic report"
            case .microstackshot: kind = "resource (microstackshot) report"
            case .crash: kind = report.bugType.map { "report (bug_type \($0))" } ?? "report"
            }
            report.warnings.append(
                ParseWarning(
                    path: path, message: "\(kind) without threads or binary images: not supported for symbolication; printed unchanged"))
        } else if family == .microstackshot {
            report.warnings.append(
                ParseWarning(
                    path: path,
                    message:
                        "resource (microstackshot) report: its heaviest-stack format is not supported for symbolication; printed unchanged")
            )
        }
        return report
    }

    enum Family { case crash, kernelPanic, microstackshot }

    // MARK: - Frames

    /// `… symbol + 120`: a frame line that ends at its decimal offset.
    static func endsAtOffset(_ text: String) -> Bool {
        let digits = text.reversed().prefix { $0.isASCII && $0.isNumber }
        return !digits.isEmpty && text.dropLast(digits.count).hasSuffix(" + ")
    }

    /// Whether a line may be the wrapped rest of the frame above: not a section title, not a
    /// `Key: value` field, not an address list or `EOF`.
    static func canContinueFrame(_ line: String) -> Bool {
        if line.hasSuffix(":") || line == "EOF" || line.hasPrefix("0x") || line.hasPrefix("(") { return false }
        // Breakpad's registers under a frame (`rax = 0x…   rdx = 0x…`) and how it found the frame.
        if line.hasPrefix("Found by: ") || isRegisterDump(line) { return false }
        if let (key, _) = keyValue(line), key.first?.isUppercase == true { return false }
        return true
    }

    /// `rax = 0x000060800044ace0   rdx = 0x…`: names and values (minidump_stackwalk's registers).
    static func isRegisterDump(_ line: String) -> Bool {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 3, words.count % 3 == 0 else { return false }
        return stride(from: 0, to: words.count, by: 3).allSatisfy { i in
            words[i + 1] == "=" && words[i + 2].hasPrefix("0x") && words[i].allSatisfy { $0.isLetter || $0.isNumber }
        }
    }

    private func replaceLastFrame(_ frame: inout Frame, in target: Target, report: inout CrashReport) {
        switch target {
        case .thread(let i):
            guard let last = report.threads[i].frames.indices.last else { return }
            report.threads[i].frames[last] = frame
        case .lastException:
            guard let last = report.lastExceptionBacktrace?.frames.indices.last else { return }
            report.lastExceptionBacktrace?.frames[last] = frame
        case .asi(let i):
            guard let last = report.asiBacktraces[i].frames.indices.last else { return }
            report.asiBacktraces[i].frames[last] = frame
        }
    }

    private static func isEmpty(_ target: Target, in report: CrashReport) -> Bool {
        switch target {
        case .thread(let i): report.threads[i].frames.isEmpty
        case .lastException: report.lastExceptionBacktrace?.frames.isEmpty ?? true
        case .asi(let i): report.asiBacktraces[i].frames.isEmpty
        }
    }

    private func appendFrame(_ frame: Frame, to target: Target, in report: inout CrashReport) {
        switch target {
        case .thread(let i): report.threads[i].frames.append(frame)
        case .lastException: report.lastExceptionBacktrace?.frames.append(frame)
        case .asi(let i): report.asiBacktraces[i].frames.append(frame)
        }
    }

    /// Parses `IDX  IMAGE NAME  0xADDR REST`. The image name may contain spaces, so the
    /// address is found as the first whitespace-delimited `0x…` token after the index.
    /// Scans UTF-8 bytes: this runs once per line of reports with tens of thousands of frames.
    static func parseFrame(_ line: String, reportLine: Int) -> Frame? {
        let u = line.utf8
        // A frame a person pointed at with arrows (`==> 7 CHIP: -[BleConnection start] <==`): the
        // line inside them, for every reader that reads Apple's frame lines.
        if let first = u.first, first == UInt8(ascii: "=") || first == UInt8(ascii: "-") || first == 0xE2,
            let inner = PastedFrameGrammar.pointedFrameLine(line)
        {
            return parseFrame(inner, reportLine: reportLine)
        }
        let end = u.endIndex
        var i = u.startIndex
        var index = 0
        var digits = 0
        while i < end, u[i] >= 0x30, u[i] <= 0x39 {
            index = index &* 10 &+ Int(u[i] &- 0x30)
            digits += 1
            i = u.index(after: i)
        }
        guard digits > 0, digits <= 9, i < end, u[i] == 0x20 || u[i] == 0x09 else { return nil }
        let nameStart = i
        var j = i
        var found: (start: String.Index, end: String.Index, value: UInt64)? = nil
        scan: while j < end {
            if u[j] == 0x20 || u[j] == 0x09 {
                let zero = u.index(after: j)
                if zero < end, u[zero] == 0x30 {
                    let x = u.index(after: zero)
                    if x < end, u[x] == 0x78 || u[x] == 0x58 {
                        var k = u.index(after: x)
                        var value: UInt64 = 0
                        var count = 0
                        while k < end, let d = hexValue(u[k]) {
                            value = value << 4 | UInt64(d)
                            count += 1
                            k = u.index(after: k)
                        }
                        // Breakpad's offset into a source line closes its bracket (`[File.m : 79 + 0x10]`).
                        let closesBreakpadPlace = k < end && u[k] == 0x5D && j > nameStart && u[u.index(before: j)] == 0x2B
                        if count > 0, count <= 16, k == end || u[k] == 0x20 || u[k] == 0x09 || closesBreakpadPlace {
                            found = (zero, k, value)
                            break scan
                        }
                    }
                }
            }
            j = u.index(after: j)
        }
        guard let found else {
            // The address in decimal (Crashlytics' text export of some years): read as if in hexadecimal.
            if let hexadecimal = PastedFrameGrammar.decimalAddressFrameLine(line) { return parseFrame(hexadecimal, reportLine: reportLine) }
            return nil
        }
        let name = line[nameStart..<found.start].trimmedBlanks
        guard !name.isEmpty else { return nil }
        if name.hasSuffix(" +"), found.end == end || line[found.end...].trimmedBlanks.isEmpty || line[found.end...].trimmedBlanks == "]" {
            return breakpadFrame(index: index, name: String(name.dropLast(2)), offset: found.value, reportLine: reportLine)
        }
        var frame = Frame(index: index, imageName: name, address: found.value, reportLine: reportLine)
        let rest = line[found.end...].trimmedBlanks
        // `4 AVFCore 0x00000001a868b000 + 382612`: a crash service's line without the address
        // column, the image's load address then the offset into it; the address is their sum.
        if rest.hasBytePrefix("+ "), let offset = UInt64(rest.dropFirst(2)), !name.containsBytes(" ") {
            frame.imageOffset = offset
            frame.address = found.value &+ offset
            return frame
        }
        parseFrameRest(rest, into: &frame)
        // `0x100a401bc CrashApp + 16828`: KSCrash's and Sentry's text put the image's own name
        // where the symbol goes when they have none; the offset is then into the image.
        if frame.imageOffset == nil, frame.symbol == name, frame.sourceFile == nil, let offset = frame.symbolOffset {
            frame.imageOffset = offset
            frame.symbol = nil
            frame.symbolOffset = nil
        }
        return frame
    }

    /// Breakpad's `minidump_stackwalk` frame: `module + 0xOFF` (no symbol: the offset into the
    /// image), `module!function + 0xOFF`, `module!function [file.cc : 123 + 0xOFF]`. No address.
    static func breakpadFrame(index: Int, name: String, offset: UInt64, reportLine: Int) -> Frame? {
        var text = Substring(name).trimmedBlanks
        var place: (file: String, line: Int)?
        if let open = text.range(of: " [", options: .backwards) {
            // `[file.cc : 123` (its ` + 0xOFF]` read by the caller): the offset is into that line.
            var inside = text[open.upperBound...].trimmedBlanks
            if inside.hasSuffix(" +") { inside = inside.dropLast(2).trimmedBlanks }
            if !inside.contains("]"), let colon = inside.range(of: " : "), let line = Int(inside[colon.upperBound...]) {
                place = (String(inside[..<colon.lowerBound]), line)
                text = text[..<open.lowerBound].trimmedBlanks
            }
        }
        guard !text.isEmpty, !text.hasSuffix("+") else { return nil }
        var frame = Frame(index: index, address: 0, reportLine: reportLine)
        frame.hasAddress = false
        if let bang = text.firstIndex(of: "!") {
            let module = text[..<bang].trimmedBlanks
            let function = text[text.index(after: bang)...].trimmedBlanks
            guard !module.isEmpty, !function.isEmpty else { return nil }
            frame.imageName = module
            frame.symbol = function
            if place == nil { frame.symbolOffset = offset }
        } else {
            // A module name has no blanks unless it is a framework's (`Electron Framework`).
            guard text.count <= 128 else { return nil }
            frame.imageName = text
            frame.imageOffset = offset
        }
        if let place {
            frame.sourceFile = place.file
            frame.sourceLine = place.line
        }
        return frame
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x61...0x66: return b - 0x61 + 10
        case 0x41...0x46: return b - 0x41 + 10
        default: return nil
        }
    }

    /// The part after the address: `0xBASE + OFF`, `symbol + off (File:line)`, `[inlined]`, …
    static func parseFrameRest(_ input: String, into frame: inout Frame) {
        var rest = Substring(input)
        if rest.hasSuffix("[inlined]") {
            frame.isInlined = true
            rest = rest.dropLast("[inlined]".count)
            while rest.last == " " { rest.removeLast() }
        }
        if rest.isEmpty { return }
        // A line a tool symbolicated after it was copied, atos's answer after an arrow (`Vector +
        // 44384 -> -[AppDelegate applicationDidEnterBackground:] (in Vector) (AppDelegate.m:366)`):
        // the answer is the frame's symbol and place. (A Swift function type's `->` has no `(in `
        // answer after it, nor an offset alone before it.)
        if let arrow = rest.range(of: " -> "), case let answer = rest[arrow.upperBound...].trimmedBlanks, answer.containsBytes(" (in "),
            let plus = rest[..<arrow.lowerBound].range(of: " + ", options: .backwards),
            !rest[..<plus.lowerBound].contains("("), case let offset = rest[plus.upperBound..<arrow.lowerBound],
            UInt64(offset) != nil || hex(offset) != nil
        {
            parseSymbolPart(String(answer), into: &frame)
            return
        }
        if rest.hasPrefix("0x"), let space = rest.firstIndex(of: " "), let base = hex(rest[rest.startIndex..<space]) {
            // `0xBASE + OFFSET` (offset decimal, or hex in some old reports), then maybe a
            // reporter-specific symbol: `(symbol + off)` (KSCrash) or `// symbol`.
            var after = rest[space...].drop(while: { $0 == " " })
            if after.hasPrefix("+") {
                after = after.dropFirst().drop(while: { $0 == " " })
                let offText = after.prefix(while: { !$0.isWhitespace })
                let offset = hex(offText) ?? UInt64(offText)
                if let offset {
                    frame.imageOffset = offset
                    _ = base
                    var tail = after.dropFirst(offText.count).trimmedBlanks
                    if tail.hasPrefix("//") {
                        tail = String(tail.dropFirst(2)).trimmedBlanks
                    } else if tail.hasPrefix("("), tail.hasSuffix(")") {
                        tail = String(tail.dropFirst().dropLast())
                    }
                    if !tail.isEmpty { parseSymbolPart(tail, into: &frame) }
                    return
                }
            }
        }
        parseSymbolPart(String(rest), into: &frame)
    }

    /// `symbol + off (File:line)`, `symbol (in Image) (File:line)`, `symbol (File:line)`, `???`.
    static func parseSymbolPart(_ input: String, into frame: inout Frame) {
        var s = Substring(input)
        if let open = s.openingParenOfLastGroup() {
            let inner = s[s.index(after: open)..<s.index(before: s.endIndex)]
            // After a blank, or glued to an Objective-C method's bracket (`-[XBCurlView initialize](XBCurlView.m:82)`,
            // as Crashlytics' older exports print it).
            if let colon = inner.lastIndex(of: ":"), let line = Int(inner[inner.index(after: colon)...]), open > s.startIndex,
                s[s.index(before: open)] == " " || s[s.index(before: open)] == "]"
            {
                var file = String(inner[..<colon])
                // `File.swift:42:7` carries a column.
                if let c2 = file.lastIndex(of: ":"), Int(file[file.index(after: c2)...]) != nil {
                    let lineText = file[file.index(after: c2)...]
                    file = String(file[..<c2])
                    frame.sourceLine = Int(lineText)
                } else {
                    frame.sourceLine = line
                }
                frame.sourceFile = file
                s = s[..<open]
                while s.last == " " { s.removeLast() }
            }
        }
        if let plus = s.range(of: " + ", options: .backwards) {
            let offText = s[plus.upperBound...]
            if let off = UInt64(offText) ?? hex(offText) {
                frame.symbolOffset = off
                s = s[..<plus.lowerBound]
            }
        }
        if let open = s.openingParenOfLastGroup(), s[open...].hasPrefix("(in ") {
            s = s[..<open]
            while s.last == " " { s.removeLast() }
        }
        if !s.isEmpty { frame.symbol = String(s) }
    }

    static func hex<S: StringProtocol>(_ s: S) -> UInt64? {
        guard s.hasPrefix("0x") || s.hasPrefix("0X") else { return nil }
        return UInt64(s.dropFirst(2), radix: 16)
    }

    static func excerpt(_ s: String) -> String { s.count > 100 ? String(s.prefix(100)) + "…" : s }

    // MARK: - Thread headers

    enum ThreadHeader {
        case name(Int, String?, String?)
        case backtrace(Int, crashed: Bool, name: String?, queue: String?)
        case state(Int)
        case other
    }

    static func threadHeader(_ line: String) -> ThreadHeader? {
        guard line.hasPrefix("Thread ") else { return nil }
        let afterThread = line.dropFirst(7)
        let digits = afterThread.prefix(while: \.isNumber)
        guard let n = Int(digits) else { return nil }
        let rest = afterThread.dropFirst(digits.count)
        if rest.hasPrefix(" name:") {
            return splitNameQueue(rest.dropFirst(6)).map { .name(n, $0.name, $0.queue) } ?? .name(n, nil, nil)
        }
        if rest == ":" { return .backtrace(n, crashed: false, name: nil, queue: nil) }
        if rest == " Crashed:" { return .backtrace(n, crashed: true, name: nil, queue: nil) }
        // minidump_stackwalk's `Thread 0 (crashed)`.
        if rest == " (crashed)" { return .backtrace(n, crashed: true, name: nil, queue: nil) }
        // EXC_RESOURCE reports name the thread the resource use is attributed to.
        if rest == " Attributed:" { return .backtrace(n, crashed: true, name: nil, queue: nil) }
        if rest.hasPrefix("::") || rest.hasPrefix(" Crashed::") {
            let crashed = rest.hasPrefix(" Crashed::")
            let tail = rest.dropFirst(crashed ? 10 : 2)
            let nq = splitNameQueue(tail)
            return .backtrace(n, crashed: crashed, name: nq?.name, queue: nq?.queue)
        }
        if rest.hasPrefix(" crashed with "), rest.containsBytes("Thread State") { return .state(n) }
        if rest.hasSuffix(":") { return .other }  // `Thread 0 instruction stream:` etc.
        return nil
    }

    /// `  Dispatch queue: com.apple.main-thread`, `  WebThread`, `  Name  Dispatch queue: Q`.
    private static func splitNameQueue(_ s: Substring) -> (name: String?, queue: String?)? {
        let t = s.trimmedBlanks
        if t.isEmpty { return nil }
        if let r = t.byteRange(of: "Dispatch queue:") {
            let name = t[..<r.lowerBound].trimmedBlanks
            let queue = t[r.upperBound...].trimmedBlanks
            return (name.isEmpty ? nil : name, queue.isEmpty ? nil : queue)
        }
        return (t, nil)
    }

    // MARK: - Registers

    /// `    x0: 0x0000000000000001   x1: …`, `  rax: 0x…`, `   far: 0x…  esr: 0xf2000001 (Breakpoint) brk 1`.
    static func parseRegisters(_ line: String, into registers: inout [Register]) -> Bool {
        let tokens = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        var found: [Register] = []
        var i = 0
        while i < tokens.count {
            let t = tokens[i]
            if t.hasSuffix(":"), t.count > 1, i + 1 < tokens.count, let v = hex(tokens[i + 1]) {
                found.append(Register(name: String(t.dropLast()), value: v))
                i += 2
            } else {
                if found.isEmpty { return false }
                found[found.count - 1].note = (found[found.count - 1].note.map { $0 + " " } ?? "") + t
                i += 1
            }
        }
        guard !found.isEmpty else { return false }
        registers.append(contentsOf: found)
        return true
    }

    // MARK: - Binary images

    static let knownArchs: Set<String> = [
        "arm64", "arm64e", "arm64_32", "armv7", "armv7s", "armv7k", "armv7m", "armv7em", "armv6", "armv6m",
        "x86_64", "x86_64h", "i386", "arm64-unknown", "ppc", "ppc64", "arm64e.old", "armv8",
    ]

    /// `0x102230000 - 0x102237fff iOSCrashingTest arm64  <82d13d98…> /path`, with the
    /// older variants: `+` app marker, `(version - build)`, dashed UUIDs, `(x86_64)` arch,
    /// trailing `{json}` (jailbreak reporters), no UUID.
    static func parseBinaryImage(_ raw: String, reportLine: Int) -> BinaryImage? {
        var s = Substring(raw).drop(while: { $0 == " " || $0 == "\t" })
        guard s.hasPrefix("0x") else { return nil }
        let startText = s.prefix(while: { !$0.isWhitespace && $0 != "-" })
        guard let start = hex(startText) else { return nil }
        s = s.dropFirst(startText.count).drop(while: { $0 == " " || $0 == "\t" })
        guard s.hasPrefix("-") else { return nil }
        s = s.dropFirst().drop(while: { $0 == " " || $0 == "\t" })
        let endText = s.prefix(while: { !$0.isWhitespace })
        let end = hex(endText) ?? UInt64(endText, radix: 16)
        guard end != nil else { return nil }
        s = s.dropFirst(endText.count)
        var plus = false
        var body = s.drop(while: { $0 == " " || $0 == "\t" })
        if body.hasPrefix("+") {
            plus = true
            body = body.dropFirst().drop(while: { $0 == " " })
        }
        var debugID: DebugID?
        var before = body
        var after: Substring = ""
        if let lt = body.byteRange(of: "<"), let gt = body[lt.upperBound...].firstIndex(of: ">") {
            let candidate = body[lt.upperBound..<gt]
            if let id = DebugID(uuid: String(candidate)) {
                debugID = id
                before = body[..<lt.lowerBound]
                after = body[body.index(after: gt)...]
            }
        }
        if debugID == nil {
            if let slash = body.byteRange(of: " /") {
                before = body[..<slash.lowerBound]
                after = body[slash.lowerBound...]
            } else {
                before = body
                after = ""
            }
        }
        var desc = before.trimmedBlanks
        var arch: String?
        var version: String?
        if desc.hasSuffix(")"),
            let open = desc.range(of: " (", options: .backwards) ?? (desc.hasPrefix("(") ? desc.byteRange(of: "(") : nil)
        {
            let inner = String(desc[open.upperBound..<desc.index(before: desc.endIndex)])
            if knownArchs.contains(inner) { arch = inner } else { version = inner }
            desc = String(desc[..<open.lowerBound]).trimmedBlanks
        }
        if arch == nil, let sp = desc.lastIndex(where: { $0 == " " || $0 == "\t" }) {
            let last = String(desc[desc.index(after: sp)...])
            if knownArchs.contains(last) {
                arch = last
                desc = String(desc[..<sp]).trimmedBlanks
            }
        }
        var pathText = after.trimmedBlanks
        if pathText.hasSuffix("}"), let brace = pathText.byteRange(of: " {") {
            pathText = String(pathText[..<brace.lowerBound]).trimmedBlanks
        }
        guard !desc.isEmpty || !pathText.isEmpty else { return nil }
        let name = desc.isEmpty ? (pathText.split(separator: "/").last.map(String.init) ?? pathText) : desc
        var image = BinaryImage(
            loadAddress: start, endAddress: end, name: name, arch: arch.map(Architecture.init), debugID: debugID,
            path: pathText.isEmpty ? nil : pathText, version: version, reportLine: reportLine)
        image.isAppOwned = plus  // refined by isAppOwned(_:processPath:)
        return image
    }

    /// The image with `isAppOwned` decided by `AppOwnership` (the `+` marker was stored in it
    /// by `parseBinaryImage`).
    static func isAppOwned(_ image: BinaryImage, processPath: String?) -> Bool {
        AppOwnership.isAppImage(path: image.path, listedAsApp: image.isAppOwned, processPath: processPath)
    }

    /// Fills `imageIndex`/`imageOffset` for every frame: by image name (preferring an image
    /// whose range contains the address), then by path basename, then by address range.
    func resolveImages(in report: inout CrashReport) {
        var byName: [String: [Int]] = [:]
        for (i, img) in report.binaryImages.enumerated() {
            byName[img.name, default: []].append(i)
            if let base = img.path?.split(separator: "/").last.map(String.init), base != img.name {
                byName[base, default: []].append(i)
            }
        }
        let images = report.binaryImages
        report.updateFrames { (frame: inout Frame) in
            var candidates = frame.imageName.flatMap { byName[$0] } ?? []
            if candidates.count > 1 {
                candidates = candidates.filter { images[$0].contains(frame.address) } + candidates
            }
            var index = candidates.first(where: { images[$0].contains(frame.address) }) ?? candidates.first
            if index == nil { index = images.firstIndex(where: { $0.contains(frame.address) }) }
            if let index {
                frame.imageIndex = index
                if frame.imageName == nil { frame.imageName = images[index].name }
                if frame.address >= images[index].loadAddress {
                    frame.imageOffset = frame.address - images[index].loadAddress
                }
            }
        }
    }

    // MARK: - Key: value

    static func keyValue(_ raw: String) -> (String, String)? {
        guard let colon = raw.firstIndex(of: ":") else { return nil }
        let key = raw[..<colon]
        guard !key.isEmpty, key.first?.isLetter == true, key.count <= 40,
            key.allSatisfy({
                $0.isLetter || $0.isNumber || $0 == " " || $0 == "/" || $0 == "-" || $0 == "_" || $0 == "(" || $0 == ")" || $0 == "."
            })
        else { return nil }
        let value = raw[raw.index(after: colon)...].trimmedBlanks
        return (key.trimmedBlanks, value)
    }

    /// Interprets the fields the model knows. Returns true for exception/thread information
    /// (used to tell a truncated crash report from other report kinds).
    func apply(key printed: String, value: String, to report: inout CrashReport, family: inout Family) -> Bool {
        // Reporters other than Apple's print the same fields in other cases (Cr4shed's
        // `Exception type:`, `Triggered by thread:`): a field is known by its words.
        let key = Self.fieldNames[printed.lowercased()] ?? printed
        switch key {
        case "Incident Identifier": report.incidentIdentifier = report.incidentIdentifier ?? value
        case "Process", "Command":
            if report.processName == nil {
                if value.hasSuffix("]"), let open = value.range(of: " [", options: .backwards) {
                    report.processName = String(value[..<open.lowerBound])
                    report.processID = Int(value[open.upperBound..<value.index(before: value.endIndex)])
                } else {
                    report.processName = value
                }
            }
        case "PID": report.processID = report.processID ?? Int(value)
        case "Path": report.processPath = report.processPath ?? value
        case "Identifier": report.bundleIdentifier = report.bundleIdentifier ?? value
        case "Version": report.appVersion = report.appVersion ?? value
        case "Parent Process": report.parentProcess = report.parentProcess ?? value
        case "Date/Time", "Date": report.dateTime = report.dateTime ?? value
        case "OS Version":
            if report.osVersion == nil {
                report.osVersion = value
                report.operatingSystem = OperatingSystem(printed: value)
            }
        case "Hardware Model", "Hardware model", "Model": report.hardwareModel = report.hardwareModel ?? value
        case "Code Type":
            if report.codeType == nil {
                report.codeType = value
                // `X86-64 (Translated)`: Rosetta; `ARM-64 (Native)`.
                report.isTranslated = value.hasSuffix("(Translated)")
            }
            report.architecture = report.architecture ?? Architecture(codeType: value)
            return true
        case "Architecture": report.architecture = report.architecture ?? Architecture(value)
        case "CPU":
            // minidump_stackwalk's `CPU: amd64` (`Architecture` knows its spellings).
            let word = value.split(separator: " ").first.map(String.init) ?? value
            report.architecture = report.architecture ?? Architecture(word)
        case "Report Version": report.reportVersion = report.reportVersion ?? value
        case "Event": family = .microstackshot
        case "Exception Type":
            var e = report.exception ?? ExceptionInfo()
            // `EXC_BAD_ACCESS (SIGSEGV)` or a bare signal (`SIGSEGV`) from third-party reporters.
            let field = ExceptionInfo(typeField: value)
            e.type = field.type
            e.signal = field.signal
            // Reporters that catch Objective-C exceptions (Cr4shed) put the exception's name
            // where Apple puts the Mach exception, and its reason under `Reason:`.
            if let type = e.type, !type.hasPrefix("EXC_"), let named = ExceptionNameLine.parse(Substring(type)), named.reason == nil {
                e.uncaught = UncaughtException(language: .objectiveC, name: named.name, reason: e.uncaught?.reason ?? e.message)
            }
            report.exception = e
            return true
        case "Exception Codes":
            report.exception = report.exception ?? ExceptionInfo()
            // Codes printed twice, by name and by number (`KERN_PROTECTION_FAILURE at 0x7ff8…`, then
            // `0x0000000000000002, 0x7ff8…`): the named line is kept, it says what the numbers do.
            if let kept = report.exception?.codes, kept.hasPrefix("KERN_"), value.hasPrefix("0x") { return true }
            report.exception?.codes = value
            return true
        case "Crash reason":
            // minidump_stackwalk's `Crash reason:  EXC_BAD_ACCESS / KERN_INVALID_ADDRESS` (or `SIGSEGV /0x…`).
            var e = report.exception ?? ExceptionInfo()
            let parts = value.components(separatedBy: " / ")
            let first = parts[0].trimmedBlanks
            if first.hasPrefix("SIG") { e.signal = first } else { e.type = first }
            if parts.count > 1 { e.subtype = parts[1].trimmedBlanks }
            report.exception = e
            return true
        case "Crash address":
            if let subtype = report.exception?.subtype, !subtype.contains(" at 0x"), value.hasPrefix("0x") {
                report.exception?.subtype = subtype + " at " + value
            }
        case "Exception Code":
            // Stackshots (`0xbaaaaaad`) use the singular; not evidence of a crash report.
            report.exception = report.exception ?? ExceptionInfo()
            report.exception?.codes = value
        case "Exception Subtype":
            report.exception = report.exception ?? ExceptionInfo()
            report.exception?.subtype = value
            // Under an exception's name in the type's place (PLCrashReporter's text), the subtype
            // holds its reason.
            if report.exception?.uncaught?.language == .objectiveC, report.exception?.uncaught?.reason?.isEmpty ?? true {
                report.exception?.uncaught?.reason = value
            }
        case "Exception Note":
            report.exception = report.exception ?? ExceptionInfo()
            report.exception?.note = value
        case "Exception Reason", "Exception Message", "Reason":
            report.exception = report.exception ?? ExceptionInfo()
            report.exception?.message = value
            if report.exception?.uncaught?.language == .objectiveC, report.exception?.uncaught?.reason == nil {
                report.exception?.uncaught?.reason = value
            }
        case "Termination Reason":
            var t = report.termination ?? TerminationInfo()
            Self.readTerminationReason(value, into: &t)
            report.termination = t
            return true
        case "Termination Description":
            var t = report.termination ?? TerminationInfo()
            t.text = t.text.map { $0 + " " + value } ?? value
            report.termination = t
        case "Terminating Process":
            report.termination = report.termination ?? TerminationInfo()
            report.termination?.byProcess = value
        case "Termination Signal":
            report.exception = report.exception ?? ExceptionInfo()
            if report.exception?.signal == nil { report.exception?.signal = value }
        case "Triggered by Thread", "Crashed Thread":
            let digits = value.prefix(while: \.isNumber)
            if let n = Int(digits) { report.crashedThreadIndex = report.crashedThreadIndex ?? n }
            return true
        default: break
        }
        return false
    }

    /// The fields `apply` reads, by their words in any case.
    static let fieldNames: [String: String] = Dictionary(
        uniqueKeysWithValues: [
            "Incident Identifier", "Process", "Command", "PID", "Path", "Identifier", "Version", "Parent Process", "Date/Time",
            "OS Version", "Hardware Model", "Code Type", "Architecture", "Report Version", "Exception Type", "Exception Codes",
            "Exception Code", "Exception Subtype", "Exception Note", "Exception Reason", "Exception Message", "Termination Reason",
            "Termination Description", "Terminating Process", "Termination Signal", "Triggered by Thread", "Crashed Thread",
            "Crash reason", "Crash address", "CPU",
        ].map { ($0.lowercased(), $0) })

    /// A `Termination Reason:` value (`SIGNAL 5 Trace/BPT trap: 5`, `Namespace SPRINGBOARD, Code 0x8badf00d`,
    /// `TCC 0`; MetricKit's `terminationReason` has the same form).
    static func readTerminationReason(_ value: String, into t: inout TerminationInfo) {
        if value.hasPrefix("Namespace ") {
            let parts = value.dropFirst(10).components(separatedBy: ", ")
            t.namespace = parts.first
            // The code as a word: a sentence's full stop after it (`Code 0xdead10cc.`) is not part of it,
            // nor the comma a report ends the field with before its context on the next line (`Code
            // 2343432205, ` over `<RBSTerminateContext| …>`).
            if let code = parts.first(where: { $0.hasPrefix("Code ") }) {
                var word = code.dropFirst(5)
                while let last = word.last, ".;,".contains(last) { word = word.dropLast() }
                t.code = String(word)
            }
            let rest = parts.dropFirst().filter { !$0.hasPrefix("Code ") }
            if !rest.isEmpty { t.text = rest.joined(separator: ", ") }
        } else if let marker = value.byteRange(of: " Code "), let namespace = value.split(separator: " ").first,
            case let name = namespace.trimmingCharacters(in: CharacterSet(charactersIn: ",|:;")), !name.isEmpty,
            name.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" })
        {
            // A crash service's `RUNNINGBOARD | Code 0xDEAD10CC`: the namespace first, the code after
            // the word `Code`, whatever separates them.
            t.namespace = name
            var word = value[marker.upperBound...].prefix { !$0.isWhitespace && $0 != "," }
            while let last = word.last, ".;".contains(last) { word = word.dropLast() }
            if !word.isEmpty { t.code = String(word) }
            let rest = value[marker.upperBound...].dropFirst(word.count).trimmingCharacters(in: CharacterSet(charactersIn: " ,.;|"))
            if !rest.isEmpty { t.text = rest }
        } else {
            // macOS 10.13-10.15 wrote `DYLD, [0x4] Symbol missing`: the namespace before a comma,
            // the code in brackets.
            let words = value.split(separator: " ", maxSplits: 2).map(String.init)
            t.namespace = words.first.map { $0.hasSuffix(",") ? String($0.dropLast()) : $0 }
            if words.count > 1 {
                let code = words[1]
                t.code = code.hasPrefix("[") && code.hasSuffix("]") ? String(code.dropFirst().dropLast()) : code
            }
            if words.count > 2 { t.text = words[2] }
        }
    }

    /// Report fields that end the free text after `Termination Reason:` (dyld's own
    /// `Library not loaded:`/`Referenced from:` lines are part of it).
    static func endsTerminationDetails(_ line: String) -> Bool {
        guard let (key, _) = keyValue(line) ?? (line.hasSuffix(":") ? (String(line.dropLast()), "") : nil) else { return false }
        if key.hasPrefix("Exception ") || key.hasPrefix("Thread ") { return true }
        return terminationDetailsEnd.contains(key)
    }

    private static let terminationDetailsEnd: Set<String> = [
        "Triggered by Thread", "Crashed Thread", "Terminating Process", "Application Specific Information", "Kernel Triage",
        "VM Region Info", "Highlighted by Thread", "Binary Images", "Last Exception Backtrace", "Filtered syslog",
        "Termination Signal", "Termination Description", "Logical CPU", "Error Code", "Trap Number",
    ]
}
