import Foundation
import SymbolicateCore

/// The crash log the Swift runtime's backtracer prints on Linux (Swift 5.9+,
/// `SWIFT_BACKTRACE=enable=yes`), in its text layout:
///
/// ```
/// *** Program crashed: Bad pointer dereference at 0x0000000000000020 ***
/// Platform: x86_64 Linux (Debian GNU/Linux 12 (bookworm))
/// Thread 0 "crashy" crashed:
///   0      0x000055d1530aff15 <unknown> in crashy
///   1 [ra] 0x00007f5f40ef3c29 _dispatch_sig_thread + 8 in libdispatch.so
/// Images (13 omitted):
/// 0x000055d1530ae000–0x000055d1530b23e0 610ceaa6… crashy /srv/crashy
/// ```
///
/// Lines before it (the program's own `Fatal error: …`) and the registers are kept as text.
/// Frames keep their original lines; the writer rewrites those it symbolicates.
package enum SwiftBacktraceReportReader: ReportReader {
    /// The line `*** Program crashed: … ***` (0-based), found among the first lines.
    package static func detect(_ document: TextDocument) -> Int? {
        for (number, line) in document.lines.prefix(400).enumerated() where SwiftBacktraceParser.crashDescription(line.text) != nil {
            return number
        }
        return nil
    }

    package static func read(_ document: TextDocument, evidence: Int, path: String) throws(CrashReportError) -> [CrashReport] {
        [SwiftBacktraceParser(document: document, path: path).parse(crashLine: evidence).withDetectedKind()]
    }
}

/// Single lines of the layout, for tools and tests.
package enum SwiftBacktraceLine {
    /// A frame line (`  1 [ra] 0x… symbol + 8 in image`), or nil when the line is not one.
    package static func frame(_ text: String) -> Frame? { SwiftBacktraceParser.frame(text, reportLine: 0) }
}

/// Reads the text layout into the report model (see `SwiftBacktraceReportReader`).
struct SwiftBacktraceParser {
    let document: TextDocument
    let path: String

    /// Signal numbers as Linux numbers them (x86_64 and aarch64 agree on these).
    static let signalNames: [Int: String] = [
        4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 11: "SIGSEGV", 13: "SIGPIPE", 31: "SIGSYS",
    ]

    /// The backtracer's description of each signal it catches (swift-backtrace's
    /// `signalDescription`; `Signal N` for any other).
    static let signalByDescription: [String: String] = [
        "Terminated": "SIGQUIT", "Aborted": "SIGABRT", "Bus error": "SIGBUS", "Floating point exception": "SIGFPE",
        "Illegal instruction": "SIGILL", "Bad pointer dereference": "SIGSEGV", "System trap": "SIGTRAP",
    ]

    func parse(crashLine: Int) -> CrashReport {
        var report = CrashReport(path: path, format: .text, source: .text(document))
        var exception = ExceptionInfo()
        var inImages = false
        var currentThread: Int?
        for (offset, line) in document.lines.enumerated() {
            let number = offset + 1
            let text = line.text
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if text.hasBytePrefix("*** Signal "), let signal = Int(text.dropFirst(11).prefix { $0.isNumber }) {
                exception.signal = Self.signalNames[signal] ?? "signal \(signal)"
            } else if offset < crashLine, let range = text.byteRange(of: "Fatal error: ") ?? text.byteRange(of: "fatal error: ") {
                // The program's own message, printed just before the backtracer takes over.
                let message = String(text[range.upperBound...]).trimmingCharacters(in: .whitespaces)
                exception.message = message.isEmpty ? String(text) : message
            } else if offset == crashLine {
                readCrashLine(text, into: &exception)
            } else if text.hasBytePrefix("Platform: ") {
                let platform = text.dropFirst(10)
                let architecture = platform.prefix { !$0.isWhitespace }
                report.architecture = architecture.isEmpty ? nil : Architecture(String(architecture))
                report.osVersion = String(platform.dropFirst(architecture.count)).trimmingCharacters(in: .whitespaces)
                report.operatingSystem = OperatingSystem(platform: .linux, version: nil, build: nil)
                report.codeType = architecture.isEmpty ? nil : String(architecture)
            } else if let thread = Self.threadHeader(text) {
                inImages = false
                currentThread = report.threads.count
                report.threads.append(CrashReport.Thread(index: thread.number, name: thread.name, crashed: thread.crashed))
                if thread.crashed { report.crashedThreadIndex = thread.number }
            } else if text.hasBytePrefix("Registers:") {
                currentThread = nil
            } else if text.hasBytePrefix("Images") && text.hasSuffix(":") {
                inImages = true
                currentThread = nil
            } else if inImages, let image = Self.image(text, reportLine: number) {
                report.binaryImages.append(image)
            } else if let thread = currentThread, !trimmed.isEmpty, trimmed != "..." {
                if let frame = Self.frame(text, reportLine: number) {
                    report.threads[thread].frames.append(frame)
                } else if trimmed.first?.isNumber == true {
                    report.warnings.append(
                        ParseWarning(path: path, line: number, message: "frame line not understood: \(trimmed.prefix(80))"))
                }
            }
        }
        // The `*** Signal N` line is printed only while backtracing; a copied crash line alone
        // still names the signal by the backtracer's own description of it.
        if exception.signal == nil, let type = exception.type {
            exception.signal =
                Self.signalByDescription[type]
                ?? (type.hasBytePrefix("Signal ") ? Int(type.dropFirst(7)).flatMap { Self.signalNames[$0] } : nil)
        }
        report.exception = exception
        report.processName = processName(report)
        resolveImages(&report)
        if report.threads.isEmpty {
            report.warnings.append(ParseWarning(path: path, line: crashLine + 1, message: "no thread backtrace after the crash line"))
        }
        return report
    }

    /// What the backtracer's crash line says crashed (`Bad pointer dereference at 0x20`), in both
    /// of its themes: plain (`*** Program crashed: … ***`, a file or a pipe) and colour (`💣
    /// Program crashed: …`, a terminal; its escape sequences gone when copied, or kept); nil
    /// for any other line.
    static func crashDescription(_ text: String) -> Substring? {
        var line = Substring(text.containsBytes("\u{1B}[") ? withoutColour(text) : text)
        line = line.drop { $0 == " " || $0 == "\t" }
        if line.hasBytePrefix("*** ") {
            line = line.dropFirst(4)
        } else if line.hasBytePrefix("💣") {
            line = line.dropFirst().drop { $0 == " " }
        } else {
            return nil
        }
        guard line.hasBytePrefix("Program crashed: ") else { return nil }
        var body = line.dropFirst("Program crashed: ".count)
        while body.last == " " { body = body.dropLast() }
        if body.hasSuffix(" ***") { body = body.dropLast(4) }
        return body
    }

    /// `text` without ANSI SGR sequences (`ESC [ … m`), as a terminal shows it.
    static func withoutColour(_ text: String) -> String {
        var result = ""
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\u{1B}" else {
                result.unicodeScalars.append(scalar)
                continue
            }
            // ESC [ parameters… final byte (a letter): dropped whole.
            while let next = scalars.next(), !(next.properties.isAlphabetic && next.isASCII) {}
        }
        return result
    }

    /// `*** Program crashed: Bad pointer dereference at 0x0000000000000020 ***`
    private func readCrashLine(_ text: String, into exception: inout ExceptionInfo) {
        guard let body = Self.crashDescription(text) else { return }
        if let at = body.range(of: " at 0x", options: .backwards) {
            exception.type = String(body[..<at.lowerBound])
            exception.codes = String(body[body.index(at.lowerBound, offsetBy: 4)...])
        } else {
            exception.type = String(body)
        }
    }

    /// The executable: the image named like the first thread (the process's main thread
    /// carries the program's name), else the first app image.
    private func processName(_ report: CrashReport) -> String? {
        if let name = report.threads.first?.name, report.binaryImages.contains(where: { $0.name == name }) { return name }
        return report.binaryImages.first { $0.isAppOwned }?.name
    }

    /// Frames point at their image by name (the `in image` suffix), else by address.
    private func resolveImages(_ report: inout CrashReport) {
        let images = report.binaryImages
        for t in report.threads.indices {
            for f in report.threads[t].frames.indices {
                let frame = report.threads[t].frames[f]
                let position =
                    frame.imageName.flatMap { name in images.firstIndex { $0.name == name && $0.contains(frame.address) } }
                    ?? images.firstIndex { $0.contains(frame.address) }
                guard let position else { continue }
                report.threads[t].frames[f].imageIndex = position
                report.threads[t].frames[f].imageOffset = frame.address &- images[position].loadAddress
                if report.threads[t].frames[f].imageName == nil { report.threads[t].frames[f].imageName = images[position].name }
            }
        }
    }

    /// `Thread 2 "oot.default-qos" crashed:` / `Thread 0:`.
    static func threadHeader(_ text: String) -> (number: Int, name: String?, crashed: Bool)? {
        guard text.hasBytePrefix("Thread "), text.hasSuffix(":") else { return nil }
        var rest = text.dropFirst(7).dropLast()
        let digits = rest.prefix { $0.isNumber }
        guard let number = Int(digits) else { return nil }
        rest = rest.dropFirst(digits.count)
        var crashed = false
        if rest.hasSuffix(" crashed") {
            crashed = true
            rest = rest.dropLast(8)
        }
        rest = rest.drop { $0 == " " }
        var name: String?
        if rest.hasBytePrefix("\""), rest.hasSuffix("\""), rest.count >= 2 {
            name = String(rest.dropFirst().dropLast())
        } else if !rest.isEmpty {
            return nil
        }
        return (number, name, crashed)
    }

    /// `  1 [ra] 0x00007f5f40ef3c29 _dispatch_sig_thread + 8 in libdispatch.so [at file:line:col]`:
    /// index, markers (`[ra]` return address, `[async]` resume point, `[inlined]`, `[system]`, `[thunk]`), address,
    /// symbol (`<unknown>` when none) with its offset, image.
    static func frame(_ text: String, reportLine: Int) -> Frame? {
        var words = text.split(separator: " ", omittingEmptySubsequences: true)[...]
        guard let first = words.first, let index = Int(first) else { return nil }
        words = words.dropFirst()
        var inlined = false
        var returnAddress = false
        while let marker = words.first, marker.hasBytePrefix("["), marker.hasSuffix("]") {
            if marker == "[inlined]" { inlined = true }
            if marker == "[ra]" { returnAddress = true }
            words = words.dropFirst()
        }
        guard let addressWord = words.first, addressWord.hasBytePrefix("0x"), let address = UInt64(addressWord.dropFirst(2), radix: 16)
        else {
            return nil
        }
        words = words.dropFirst()
        var rest = words.joined(separator: " ")
        var source: (file: String, line: Int)?
        if let at = rest.range(of: " at /", options: .backwards) ?? rest.range(of: " at <", options: .backwards) {
            let location = rest[rest.index(at.lowerBound, offsetBy: 4)...].split(separator: ":", omittingEmptySubsequences: false)
            // file:line:column; the file itself may hold ':'.
            if location.count >= 3, let line = Int(location[location.count - 2]) {
                source = (location.dropLast(2).joined(separator: ":"), line)
            }
            rest = String(rest[..<at.lowerBound])
        }
        var imageName: String?
        if let inRange = rest.range(of: " in ", options: .backwards) {
            imageName = String(rest[inRange.upperBound...])
            rest = String(rest[..<inRange.lowerBound])
        }
        var symbol: String? = rest
        var symbolOffset: UInt64?
        if let plus = rest.range(of: " + ", options: .backwards), let offset = UInt64(rest[plus.upperBound...]) {
            symbol = String(rest[..<plus.lowerBound])
            symbolOffset = offset
        }
        if symbol == "<unknown>" || symbol?.isEmpty == true { symbol = nil }
        var frame = Frame(
            index: index, imageName: imageName, address: address, symbol: symbol, symbolOffset: symbolOffset,
            sourceFile: source?.file, sourceLine: source?.line, isInlined: inlined, reportLine: reportLine)
        // The runtime marks return addresses `[ra]`; a frame without it is a program counter
        // or an async resume point (`[async]`), both exact.
        frame.isProgramCounter = !returnAddress
        return frame
    }

    /// `0x000055d1530ae000–0x000055d1530b23e0 610ceaa6… crashy /srv/crashy` (the separator is
    /// an en dash; `<no build ID>` when the image has none).
    static func image(_ text: String, reportLine: Int) -> BinaryImage? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasBytePrefix("0x") else { return nil }
        let rangeWord = trimmed.prefix { !$0.isWhitespace }
        let bounds = rangeWord.split(whereSeparator: { $0 == "–" || $0 == "-" })
        guard bounds.count == 2, let low = hex(bounds[0]), let high = hex(bounds[1]), high >= low else { return nil }
        var rest = trimmed.dropFirst(rangeWord.count).drop { $0 == " " }
        var debugID: DebugID?
        if rest.hasBytePrefix("<no build ID>") {
            rest = rest.dropFirst(13)
        } else {
            let idWord = rest.prefix { !$0.isWhitespace }
            debugID = DebugID(buildID: String(idWord))
            guard debugID != nil else { return nil }
            rest = rest.dropFirst(idWord.count)
        }
        rest = rest.drop { $0 == " " }
        let name = rest.prefix { !$0.isWhitespace }
        guard !name.isEmpty else { return nil }
        let imagePath = rest.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        return BinaryImage(
            loadAddress: low, endAddress: high > low ? high - 1 : low, name: String(name), debugID: debugID,
            path: imagePath.isEmpty ? nil : imagePath, isAppOwned: !isSystemImage(path: imagePath, name: String(name)),
            reportLine: reportLine
        )
    }

    /// Linux system locations and the Swift runtime's own libraries: not the app's code.
    static func isSystemImage(path: String, name: String) -> Bool {
        let systemPrefixes = ["/usr/lib", "/lib", "/usr/libexec/", "/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/", "/opt/swift/"]
        if systemPrefixes.contains(where: { path.hasBytePrefix($0) }) { return true }
        if path.containsBytes("/usr/lib/swift/linux/") { return true }
        return ["libswift", "libdispatch", "libBlocksRuntime", "libFoundation", "libc.so", "libm.so", "libstdc++", "libgcc_s", "ld-linux"]
            .contains { name.hasBytePrefix($0) }
    }

    private static func hex(_ word: Substring) -> UInt64? {
        guard word.hasBytePrefix("0x") else { return nil }
        return UInt64(word.dropFirst(2), radix: 16)
    }
}
