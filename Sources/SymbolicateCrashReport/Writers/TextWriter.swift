import Foundation

extension CrashReport {
    /// The report as text lines, tagged with what they are.
    ///
    /// - Text reports (and legacy `.ips` with a text body): every original line is returned
    ///   unchanged, except frame lines whose `symbolication` is set — those become one line
    ///   per inline level —, later frames of the same backtrace, renumbered as Apple does, and
    ///   frame lines naming a mangled function, whose name is printed demangled.
    /// - `.ips` JSON: Apple's text layout, rendered from the JSON (see `renderAppleText`).
    package func renderedLines() -> [RenderedLine] {
        var lines: [RenderedLine] = []
        forEachRenderedLine { lines.append($0) }
        return lines
    }

    /// The lines of `renderedLines()` handed over one at a time, first to last, none kept:
    /// an output built from them holds its text only, not a million lines besides.
    package func forEachRenderedLine(_ emit: (RenderedLine) -> Void) {
        switch source {
        case .text(let document): for line in rewriteText(document) { emit(line) }
        case .ips(let header, let body, _): renderAppleText(header: header, body: body, into: emit)
        case .none: return
        }
    }

    /// `renderedLines()` joined with original terminators (and the original BOM, if any).
    package func textOutput() -> String {
        var out = ""
        if case .text(let d) = source, d.hasBOM { out = "\u{FEFF}" }
        return out + renderedLines().joinedText()
    }

    /// How the text writer changes each frame line: new lines replacing it.
    private func frameLinePlans() -> [Int: (lines: [String], kind: RenderedLine.Kind)] {
        var plans: [Int: (lines: [String], kind: RenderedLine.Kind)] = [:]
        guard case .text(let document) = source else { return plans }
        for (kind, frames) in allBacktraces {
            var shift = 0
            let threadNumber: Int? = {
                if case .thread(let i) = kind { return threads[i].index }
                return nil
            }()
            // Frames read from a legacy `(0x… 0x…)` address list (several per line, possibly
            // over several lines): once any is symbolicated, the whole list becomes
            // Apple-layout frame lines in place of its first line.
            var framesPerLine: [Int: Int] = [:]
            for f in frames { if let l = f.reportLine { framesPerLine[l, default: 0] += 1 } }
            // Call-graph node lines are not Apple frame lines either, but never address lists.
            let nodeLines = Set(frames.filter { $0.callGraph != nil }.compactMap(\.reportLine))
            func isListLine(_ l: Int) -> Bool {
                guard !nodeLines.contains(l) else { return false }
                return (framesPerLine[l] ?? 0) > 1
                    || (l >= 1 && l <= document.lines.count && FrameFormatting.splitFrameLine(document.lines[l - 1].text) == nil)
            }
            let listFrames = frames.filter { $0.reportLine.map(isListLine) ?? false }
            if !listFrames.isEmpty {
                let listLines = Set(listFrames.compactMap(\.reportLine)).sorted()
                let anyApp = listFrames.contains { image(for: $0)?.isAppOwned ?? false }
                let listKind = RenderedLine.Kind.frame(thread: threadNumber, backtrace: kind, isAppImage: anyApp)
                if listFrames.contains(where: { !($0.symbolication ?? []).isEmpty }), let first = listLines.first {
                    var lines: [String] = []
                    for f in listFrames {
                        let img = image(for: f)
                        let rests =
                            f.symbolication.flatMap { $0.isEmpty ? nil : FrameFormatting.symbolicatedRests($0) }
                            ?? [FrameFormatting.originalRest(f, imageBase: img?.loadAddress)]
                        for rest in rests {
                            lines.append(
                                FrameFormatting.applePrefix(
                                    index: lines.count, imageName: img?.name ?? f.imageName ?? "???", address: f.address) + " " + rest)
                        }
                    }
                    plans[first] = (lines, listKind)
                    for l in listLines.dropFirst() { plans[l] = ([], listKind) }
                } else {
                    for l in listLines { plans[l] = ([document.lines[l - 1].text], listKind) }
                }
            }
            for frame in frames {
                guard let lineNumber = frame.reportLine, lineNumber >= 1, lineNumber <= document.lines.count, !isListLine(lineNumber) else {
                    continue
                }
                let original = frame.lineWithDemangledName(document.lines[lineNumber - 1].text)
                let isApp = image(for: frame)?.isAppOwned ?? false
                let lineKind = RenderedLine.Kind.frame(thread: threadNumber, backtrace: kind, isAppImage: isApp)
                if frame.callGraph != nil {
                    // Call-graph nodes keep their guide and count; nothing is renumbered.
                    let lines = frame.symbolication.flatMap { $0.isEmpty ? nil : Self.callGraphLines(original: original, levels: $0) }
                    plans[lineNumber] = (lines ?? [original], lineKind)
                } else if let levels = frame.symbolication, !levels.isEmpty {
                    // Continuation lines of a wrapped frame disappear with the rewrite.
                    for extra in wrappedLines[lineNumber] ?? [] { plans[extra] = ([], lineKind) }
                    let rests = FrameFormatting.symbolicatedRests(levels)
                    var lines: [String] = []
                    for (i, rest) in rests.enumerated() {
                        lines.append(FrameFormatting.rewrite(original, index: frame.index + shift + i, rest: rest) ?? original)
                    }
                    plans[lineNumber] = (lines, lineKind)
                    shift += rests.count - 1
                } else if shift != 0 {
                    plans[lineNumber] = ([FrameFormatting.rewrite(original, index: frame.index + shift, rest: nil) ?? original], lineKind)
                } else {
                    plans[lineNumber] = ([original], lineKind)
                }
            }
        }
        return plans
    }

    private func rewriteText(_ document: TextDocument) -> [RenderedLine] {
        let plans = frameLinePlans()
        let imageLines: [Int: Bool] = Dictionary(
            binaryImages.compactMap { img in img.reportLine.map { ($0, img.isAppOwned) } },
            uniquingKeysWith: { a, _ in a })
        let crashedNumbers = Set(threads.filter(\.crashed).map(\.index) + [crashedThreadIndex].compactMap { $0 })
        var out: [RenderedLine] = []
        out.reserveCapacity(document.lines.count)
        // Roles were decided by the reader; a document no reader classified is classified now.
        let roles =
            document.roles.count == document.lines.count
            ? document.roles : document.classifyingLines(imageLines: Set(imageLines.keys)).roles
        for (i, line) in document.lines.enumerated() {
            let number = i + 1
            if let plan = plans[number] {
                for (k, text) in plan.lines.enumerated() {
                    // Added inline lines use the original line's terminator too.
                    out.append(
                        RenderedLine(
                            text: text,
                            terminator: k == plan.lines.count - 1 ? line.terminator : (line.terminator.isEmpty ? "\n" : line.terminator),
                            kind: plan.kind))
                }
                continue
            }
            let kind: RenderedLine.Kind
            if let isApp = imageLines[number] {
                kind = .binaryImage(isAppImage: isApp)
            } else {
                switch roles[i] {
                case .threadHeader(let n): kind = .threadHeader(thread: n, crashed: crashedNumbers.contains(n))
                case .threadState(let n): kind = .threadState(thread: n)
                case .sectionHeader: kind = .sectionHeader
                case .other: kind = .other
                }
            }
            out.append(RenderedLine(text: line.text, terminator: line.terminator, kind: kind))
        }
        return out
    }
}
