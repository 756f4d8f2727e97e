import Foundation
import SymbolicateCore

/// Reads the call-graph layouts (`Fixtures/logs/macapp-sample.txt`, `macapp-spindump.txt`): macOS `sample` output, spindump and
/// hang reports, and microstackshot resource reports (cpu usage, wakeups, disk writes).
///
/// Each thread root (`2449 Thread_16614993 …`, `Thread 0x1b7c …`, `Heaviest stack for the target
/// process:`) becomes a `CrashReport.Thread`; each node line becomes a `Frame` with its sample
/// count and depth (`Frame.callGraph`). Like the text reader it only reads: the writer rewrites
/// node lines in place and passes every other line through.
struct CallGraphParser {
    let document: TextDocument
    let path: String
    let bodyStart: Int
    let format: ReportFormat
    let bugType: String?

    /// Whether the document is a call graph rather than a thread-list report: it has a
    /// call-graph marker and at least one node line.
    static func detect(_ document: TextDocument, bodyStart: Int) -> Bool {
        var marker = false
        var nodes = 0
        for line in document.lines[bodyStart...].prefix(4000) {
            let t = line.text.trimmedBlanks
            if t.hasPrefix("Analysis of sampling") || t == "Call graph:" || t.hasPrefix("Heaviest stack for ")
                || t.hasPrefix("Powerstats for:") || (t.hasPrefix("Event:") && t.lowercased().containsBytes("hang"))
            {
                marker = true
            }
            // A thread-list report is never a call graph, whatever else it says.
            if t.hasPrefix("Thread "), t.hasSuffix(" Crashed:") { return false }
            if Node.parse(line.text) != nil { nodes += 1 }
            if marker, nodes > 0 { return true }
        }
        return false
    }

    func parse() -> CrashReport {
        var report = CrashReport(path: path, format: format, source: .text(document))
        report.bugType = bugType
        var family = TextReportParser.Family.microstackshot
        let fieldReader = TextReportParser(document: document, path: path, bodyStart: bodyStart, format: format, bugType: bugType)
        var sawNode = false
        var inImages = false
        /// Process block per image and per thread: images resolve within their block.
        var block = 0
        var blockHasContent = false
        var imageBlock: [Int] = []
        var threadBlock: [Int] = []
        var pendingTitle: String?
        var rootWidth: [Int: Int] = [:]
        /// `Powerstats for: NAME [pid]` / `UUID:` per block: the process's main image UUID,
        /// which microstackshot image lists often leave out.
        var blockProcess: [Int: (name: String, uuid: DebugID?)] = [:]
        /// `sample`'s `Sort by top of stack` list: a thread of leaves, one per entry.
        var topOfStack: Int?
        var inTopOfStack = false

        /// `opensBlock: false` for the heaviest stack, printed above its process's
        /// `Powerstats for:` block but part of it (its images and UUID are listed there).
        func startThread(_ name: String?, opensBlock: Bool = true) {
            report.threads.append(CrashReport.Thread(index: report.threads.count, name: name))
            threadBlock.append(block)
            if opensBlock { blockHasContent = true }
        }

        for lineIndex in bodyStart..<document.lines.count {
            let raw = document.lines[lineIndex].text
            let trimmed = raw.trimmedBlanks
            let lineNumber = lineIndex + 1
            if trimmed.isEmpty {
                inImages = false
                inTopOfStack = false
                continue
            }
            if trimmed.hasPrefix("Sort by top of stack") {
                startThread(String(trimmed.dropLast(trimmed.hasSuffix(":") ? 1 : 0)), opensBlock: false)
                topOfStack = report.threads.count - 1
                inTopOfStack = true
                continue
            }
            if inTopOfStack, let t = topOfStack {
                // Entries already named by `sample` have no address to look up: kept as they are.
                if let entry = TopOfStackEntry.parse(raw) {
                    var frame = Frame(
                        index: report.threads[t].frames.count, imageName: entry.imageName,
                        address: entry.loadAddress &+ entry.offset, reportLine: lineNumber)
                    frame.imageOffset = entry.offset
                    frame.callGraph = CallGraphNode(sampleCount: entry.count, depth: 0, isLeaf: true)
                    report.threads[t].frames.append(frame)
                }
                continue
            }
            if trimmed.hasPrefix("Binary Images") && trimmed.hasSuffix(":") {
                inImages = true
                continue
            }
            if inImages {
                if var image = Self.parseImage(raw, reportLine: lineNumber) {
                    image.isAppOwned = TextReportParser.isAppOwned(image, processPath: report.processPath)
                    report.binaryImages.append(image)
                    imageBlock.append(block)
                    blockHasContent = true
                    continue
                }
                inImages = false
            }
            // A new process block (microstackshots list several processes; spindump too).
            if trimmed.hasPrefix("Powerstats for:") || (trimmed.hasPrefix("Process:") && sawNode) {
                if blockHasContent {
                    block += 1
                    blockHasContent = false
                }
                pendingTitle = trimmed
                if let (_, value) = TextReportParser.keyValue(trimmed) {
                    let name = value.hasSuffix("]") ? value.components(separatedBy: " [").dropLast().joined(separator: " [") : value
                    blockProcess[block] = (name, nil)
                }
            }
            if trimmed.hasPrefix("UUID:"), let (_, value) = TextReportParser.keyValue(trimmed), let known = blockProcess[block] {
                blockProcess[block] = (known.name, DebugID(uuid: value))
            }
            if trimmed.hasPrefix("Heaviest stack for ") {
                startThread(String(trimmed.dropLast(trimmed.hasSuffix(":") ? 1 : 0)), opensBlock: false)
                pendingTitle = nil
                continue
            }
            if let root = Self.threadRoot(raw) {
                startThread(root)
                pendingTitle = nil
                continue
            }
            if let node = Node.parse(raw) {
                if report.threads.isEmpty || pendingTitle != nil {
                    startThread(pendingTitle ?? "Call graph")
                    pendingTitle = nil
                }
                sawNode = true
                let t = report.threads.count - 1
                var frame = Frame(
                    index: report.threads[t].frames.count, imageName: node.imageName, address: node.address, reportLine: lineNumber)
                frame.symbol = node.symbol == "???" ? nil : node.symbol
                frame.symbolOffset = node.symbolOffset
                frame.imageOffset = node.imageOffset
                frame.sourceFile = node.sourceFile
                frame.sourceLine = node.sourceLine
                frame.isInlined = node.isInlined
                let base = rootWidth[t] ?? node.indent
                rootWidth[t] = base
                frame.callGraph = CallGraphNode(sampleCount: node.count, depth: max(0, (node.indent - base) / 2), isLeaf: true)
                if let load = node.loadAddress { frame.imageOffset = node.address &- load }
                report.threads[t].frames.append(frame)
                continue
            }
            if !sawNode, report.binaryImages.isEmpty, let (key, value) = TextReportParser.keyValue(trimmed) {
                report.headerFields.append(HeaderField(key: key, value: value))
                _ = fieldReader.apply(key: key, value: value, to: &report, family: &family)
            }
        }
        for (i, b) in imageBlock.enumerated() where report.binaryImages[i].debugID == nil {
            if let process = blockProcess[b], process.name == report.binaryImages[i].name { report.binaryImages[i].debugID = process.uuid }
        }
        markLeaves(in: &report, except: topOfStack)
        resolveImages(in: &report, imageBlock: imageBlock, threadBlock: threadBlock)
        if report.threads.isEmpty {
            report.warnings.append(ParseWarning(path: path, message: "call graph without any node line: printed unchanged"))
        }
        report.source = .text(document.classifyingLines(imageLines: Set(report.binaryImages.compactMap(\.reportLine))))
        return report
    }

    /// A node is a leaf when the next node of its thread is not deeper. Heaviest stacks print
    /// every node at one indentation, outermost first: there only the last node is a leaf.
    /// Entries of `sample`'s top-of-stack list are all leaves.
    private func markLeaves(in report: inout CrashReport, except topOfStack: Int?) {
        for t in report.threads.indices where t != topOfStack {
            let frames = report.threads[t].frames
            let flat = frames.count > 1 && frames.allSatisfy { $0.callGraph?.depth == frames[0].callGraph?.depth }
            for i in frames.indices {
                if flat {
                    report.threads[t].frames[i].callGraph?.depth = i
                    report.threads[t].frames[i].callGraph?.isLeaf = i == frames.count - 1
                } else {
                    let depth = frames[i].callGraph?.depth ?? 0
                    let next = i + 1 < frames.count ? frames[i + 1].callGraph?.depth ?? 0 : -1
                    report.threads[t].frames[i].callGraph?.isLeaf = next <= depth
                }
            }
        }
    }

    /// Links frames to images of their own process block: by the load address the node
    /// implies (address − image offset), then by name; images the list lacks are added from
    /// the nodes (`(<UUID> + 32732)` names carry the UUID).
    private func resolveImages(in report: inout CrashReport, imageBlock: [Int], threadBlock: [Int]) {
        for t in report.threads.indices {
            let b = threadBlock.indices.contains(t) ? threadBlock[t] : 0
            for f in report.threads[t].frames.indices {
                let frame = report.threads[t].frames[f]
                let base: UInt64? = frame.imageOffset.flatMap { frame.address >= $0 ? frame.address - $0 : nil }
                let candidates = report.binaryImages.indices.filter { imageBlock.indices.contains($0) && imageBlock[$0] == b }
                var index: Int? = nil
                if let base { index = candidates.first { report.binaryImages[$0].loadAddress == base } }
                if index == nil, let name = frame.imageName {
                    index = candidates.first { Self.imageNames(report.binaryImages[$0]).contains(name) }
                }
                if index == nil, base == nil {
                    index = candidates.first { report.binaryImages[$0].contains(frame.address) }
                }
                if index == nil, let base, let name = frame.imageName {
                    var image = BinaryImage(loadAddress: base, name: name)
                    image.debugID = name.hasPrefix("<") ? DebugID(uuid: name) : nil
                    image.isInferredFromFrames = true
                    image.isAppOwned = AppOwnership.isAppImage(
                        inferredName: name, processName: report.processName,
                        processPath: report.processPath)
                    report.binaryImages.append(image)
                    index = report.binaryImages.count - 1
                }
                guard let index else { continue }
                report.threads[t].frames[f].imageIndex = index
                let load = report.binaryImages[index].loadAddress
                if frame.address >= load { report.threads[t].frames[f].imageOffset = frame.address - load }
            }
        }
    }

    /// Names a node may use for an image: as printed in the list, the path's last component,
    /// the bundle identifier's last component.
    static func imageNames(_ image: BinaryImage) -> Set<String> {
        var names: Set<String> = [image.name]
        if let base = image.path?.split(separator: "/").last { names.insert(String(base)) }
        if let id = image.debugID { names.insert("<\(id)>") }
        return names
    }

    /// `0x104320000 -  ???  com.example.MyApp 1.0 (1)  /path`: microstackshot lists print `???`
    /// for an unknown end address; the name is taken from the path when there is one.
    static func parseImage(_ raw: String, reportLine: Int) -> BinaryImage? {
        var text = raw
        var unknownEnd = false
        if let dash = text.byteRange(of: " - "), text[dash.upperBound...].drop(while: { $0 == " " }).hasPrefix("???") {
            let rest = text[dash.upperBound...].drop(while: { $0 == " " }).dropFirst(3)
            text = String(text[..<dash.upperBound]) + "0x0" + rest
            unknownEnd = true
        }
        guard var image = TextReportParser.parseBinaryImage(text, reportLine: reportLine) else { return nil }
        if unknownEnd { image.endAddress = nil }
        if let base = image.path?.split(separator: "/").last, image.path?.hasPrefix("/") == true { image.name = String(base) }
        return image
    }

    /// `2449 Thread_16614993   DispatchQueue_1: …` (sample) or `Thread 0x1b7c    DispatchQueue …`
    /// (spindump): the thread's title.
    static func threadRoot(_ raw: String) -> String? {
        let t = raw.trimmedBlanks
        if t.hasPrefix("Thread 0x") { return t }
        // MetricKit call trees as `MetricKitReader` writes them.
        if t.hasPrefix("Call stack "), t.hasSuffix(":") { return String(t.dropLast()) }
        let digits = t.prefix(while: \.isNumber)
        guard !digits.isEmpty else { return nil }
        let rest = t.dropFirst(digits.count).drop(while: { $0 == " " })
        if rest.hasPrefix("Thread_") { return String(rest) }
        return nil
    }

    /// An entry of `sample`'s `Sort by top of stack, same collapsed` list that `sample` could
    /// not name: `???  (in MacApp)  load address 0x10c5f2000 + 0x5f3        1530` (no address
    /// in brackets: the load address and offset give it). The count stays last, in its column.
    struct TopOfStackEntry {
        var lead: Substring
        var imageName: String
        var loadAddress: UInt64
        var offset: UInt64
        var count: Int
        /// Characters from the start of the line to the count.
        var countColumn: Int

        static func parse(_ raw: String) -> TopOfStackEntry? {
            var line = Substring(raw)
            while line.last == " " || line.last == "\t" { line.removeLast() }
            let digits = line.reversed().prefix(while: \.isNumber)
            guard !digits.isEmpty, digits.count <= 9, let count = Int(String(digits.reversed())) else { return nil }
            let beforeCount = line.dropLast(digits.count)
            guard beforeCount.last == " " else { return nil }
            let body = beforeCount.trimmedBlanks
            let lead = line.prefix(while: { $0 == " " || $0 == "\t" })
            guard body.hasPrefix("???  (in "), let close = body.firstIndex(of: ")") else { return nil }
            let image = String(body[body.index(body.startIndex, offsetBy: 9)..<close])
            let rest = body[body.index(after: close)...].trimmedBlanks
            guard !image.isEmpty, rest.hasPrefix("load address ") else { return nil }
            let parts = rest.dropFirst(13).split(separator: " ")
            guard parts.count == 3, parts[1] == "+", let load = TextReportParser.hex(parts[0]), let offset = TextReportParser.hex(parts[2])
            else { return nil }
            return TopOfStackEntry(
                lead: lead, imageName: image, loadAddress: load, offset: offset, count: count,
                countColumn: beforeCount.count)
        }

        /// The entry again for one symbolicated level: `function  (in Image) + N  File.c:42`,
        /// markers, then the count in its column.
        func rendered(_ level: SymbolicatedFrame, isLast: Bool) -> String {
            var s = String(lead) + "\(level.function)  (in \(imageName)) + \(level.offsetInFunction)"
            if let file = level.file, let line = level.line { s += "  \(FrameFormatting.basename(file)):\(line)" }
            if !isLast { s += " [inlined]" }
            if level.isUnverified { s += " [unverified]" }
            if level.isGuess { s += " [guess]" }
            return s + String(repeating: " ", count: max(2, countColumn - s.count)) + String(count)
        }
    }

    /// One node line, in either layout:
    /// - spindump/microstackshot: `LEAD COUNT  symbol + off (Image + imageOffset) [0xADDR]`
    ///   (`*` marks kernel frames);
    /// - sample: `LEAD COUNT symbol  (in Image)  load address 0xBASE + 0xOFF  [0xADDR]` or
    ///   `LEAD COUNT symbol  (in Image) + off  [0xADDR]  File.m:30`.
    struct Node {
        enum Layout { case spindump, sample }
        var layout: Layout
        /// Width of the leading guide (spaces and `+ ! : |`), for depth.
        var indent: Int
        var count: Int
        /// Everything before the symbol (guide, count, spaces), kept when rewriting.
        var prefix: Substring
        var symbol: String
        var symbolOffset: UInt64?
        var imageName: String
        var imageOffset: UInt64?
        var loadAddress: UInt64?
        var address: UInt64
        /// `[0xADDR]` as printed.
        var addressText: Substring
        var sourceFile: String?
        var sourceLine: Int?
        var isInlined: Bool

        static func parse(_ raw: String) -> Node? {
            var line = Substring(raw)
            while line.last == " " || line.last == "\t" { line.removeLast() }
            var inlined = false
            for marker in [" [guess]", " [unverified]", " [inlined]"] where line.hasSuffix(marker) {
                if marker == " [inlined]" { inlined = true }
                line = line.dropLast(marker.count)
            }
            if line.hasSuffix(" [inlined]") {
                inlined = true
                line = line.dropLast(10)
            }
            let lead = line.prefix(while: { " +!:|*".contains($0) })
            let afterLead = line[lead.endIndex...]
            let digits = afterLead.prefix(while: \.isNumber)
            guard !digits.isEmpty, digits.count <= 9, let count = Int(digits) else { return nil }
            var afterCount = afterLead[digits.endIndex...]
            if afterCount.hasPrefix("*") { afterCount = afterCount.dropFirst() }
            let gap = afterCount.prefix(while: { $0 == " " })
            guard !gap.isEmpty else { return nil }
            let body = afterCount[gap.endIndex...]
            let prefix = line[line.startIndex..<body.startIndex]
            let indent = lead.count
            if let node = sample(body, prefix: prefix, indent: indent, count: count, inlined: inlined) { return node }
            return spindump(body, prefix: prefix, indent: indent, count: count, inlined: inlined)
        }

        /// `symbol + off (File.swift:42) (Image + 123) [0xADDR]`.
        private static func spindump(_ body: Substring, prefix: Substring, indent: Int, count: Int, inlined: Bool) -> Node? {
            guard body.hasSuffix("]"), let open = body.range(of: " [0x", options: .backwards),
                let address = TextReportParser.hex(body[body.index(open.lowerBound, offsetBy: 2)..<body.index(before: body.endIndex)])
            else { return nil }
            let addressText = body[body.index(after: open.lowerBound)...]
            let beforeAddress = body[..<open.lowerBound]
            guard beforeAddress.hasSuffix(")"), let paren = beforeAddress.range(of: " (", options: .backwards) else { return nil }
            let inner = beforeAddress[paren.upperBound..<beforeAddress.index(before: beforeAddress.endIndex)]
            guard let plus = inner.range(of: " + ", options: .backwards), let offset = UInt64(inner[plus.upperBound...]) else { return nil }
            let image = String(inner[..<plus.lowerBound])
            guard !image.isEmpty else { return nil }
            var frame = Frame(index: 0, address: address)
            TextReportParser.parseSymbolPart(String(beforeAddress[..<paren.lowerBound]), into: &frame)
            return Node(
                layout: .spindump, indent: indent, count: count, prefix: prefix, symbol: frame.symbol ?? "???",
                symbolOffset: frame.symbolOffset, imageName: image, imageOffset: offset, loadAddress: nil, address: address,
                addressText: addressText, sourceFile: frame.sourceFile, sourceLine: frame.sourceLine, isInlined: inlined)
        }

        /// `symbol  (in Image)  load address 0xBASE + 0xOFF  [0xADDR]` or
        /// `symbol  (in Image) + off  [0xADDR]  File.m:30`.
        private static func sample(_ body: Substring, prefix: Substring, indent: Int, count: Int, inlined: Bool) -> Node? {
            guard let inRange = body.byteRange(of: "  (in "), let close = body[inRange.upperBound...].firstIndex(of: ")") else {
                return nil
            }
            let symbol = String(body[..<inRange.lowerBound])
            let image = String(body[inRange.upperBound..<close])
            let after = body[body.index(after: close)...]
            guard let open = after.byteRange(of: "  [0x"), let end = after[open.upperBound...].firstIndex(of: "]"),
                let address = UInt64(after[open.upperBound..<end], radix: 16)
            else { return nil }
            let addressText = after[after.index(open.lowerBound, offsetBy: 2)...end]
            let middle = after[..<open.lowerBound].trimmedBlanks
            var node = Node(
                layout: .sample, indent: indent, count: count, prefix: prefix, symbol: symbol.isEmpty ? "???" : symbol,
                symbolOffset: nil, imageName: image, imageOffset: nil, loadAddress: nil, address: address,
                addressText: addressText, sourceFile: nil, sourceLine: nil, isInlined: inlined)
            if middle.hasPrefix("load address ") {
                let parts = middle.dropFirst(13).split(separator: " ")
                guard parts.count == 3, parts[1] == "+", let load = TextReportParser.hex(parts[0]) else { return nil }
                node.loadAddress = load
            } else if middle.hasPrefix("+ ") {
                node.symbolOffset = UInt64(middle.dropFirst(2))
            }
            let tail = after[after.index(after: end)...].trimmedBlanks
            if let colon = tail.lastIndex(of: ":"), let l = Int(tail[tail.index(after: colon)...]) {
                node.sourceFile = String(tail[..<colon])
                node.sourceLine = l
            }
            return node
        }

        /// The node line again for one symbolicated level, in the node's own layout.
        func rendered(_ level: SymbolicatedFrame, isLast: Bool) -> String {
            var s = String(prefix)
            let file = level.file.flatMap { f in level.line.map { "\(FrameFormatting.basename(f)):\($0)" } }
            switch layout {
            case .spindump:
                s += "\(level.function) + \(level.offsetInFunction)"
                if let file { s += " (\(file))" }
                s += " (\(imageName) + \(imageOffset.map(String.init) ?? "0")) " + addressText
            case .sample:
                s += "\(level.function)  (in \(imageName)) + \(level.offsetInFunction)  " + addressText
                if let file { s += "  " + file }
            }
            if !isLast { s += " [inlined]" }
            if level.isUnverified { s += " [unverified]" }
            if level.isGuess { s += " [guess]" }
            return s
        }
    }
}

extension CrashReport {
    /// A call-graph node line rewritten with its symbolication: one line per inline level,
    /// innermost first, each with the node's guide, count and address.
    static func callGraphLines(original: String, levels: [SymbolicatedFrame]) -> [String]? {
        if let node = CallGraphParser.Node.parse(original) {
            return levels.enumerated().map { node.rendered($0.element, isLast: $0.offset == levels.count - 1) }
        }
        guard let entry = CallGraphParser.TopOfStackEntry.parse(original) else { return nil }
        return levels.enumerated().map { entry.rendered($0.element, isLast: $0.offset == levels.count - 1) }
    }
}
