import SymbolicateDemangling

extension CrashReport {
    /// The names the report gave its frames, spelled as Apple's tools print them: a mangled
    /// Swift (`$s…`, `_$s…`, `$S…`, `_T0…`), C++ (`_Z…`, `___Z…_block_invoke`) or Rust (legacy,
    /// v0, or legacy as an Itanium demangler printed it) name becomes its demangled form in
    /// `symbol`, the report's own text moving to `mangledSymbol`. Objective-C and C names stay
    /// as they are. Called once, by `ReportReaders.read`, for every layout: the one place names
    /// from reports enter the model, so text, headline, explain, batch groups and annotations
    /// all read the demangled name. Writers that copy the report's JSON keep its bytes.
    ///
    /// A mangled name over the demanglers' bounds (`DemangleRefusal`: too long, or one whose
    /// back-references would print more than a name may) stays as it came, and one note says
    /// how many frames and why, on the line of the first.
    mutating func demangleReportNames() {
        var known: [String: Demangling] = [:]
        var refused: (count: Int, line: Int?, reason: DemangleRefusal)?
        updateFrames { (frame: inout Frame) in
            guard let raw = frame.symbol, frame.mangledSymbol == nil else { return }
            let outcome: Demangling
            if let cached = known[raw] {
                outcome = cached
            } else {
                outcome = Demangler.demangling(raw)
                known[raw] = outcome
            }
            switch outcome {
            case .demangled(let demangled):
                frame.mangledSymbol = raw
                frame.symbol = demangled
            case .refused(let reason):
                refused = ((refused?.count ?? 0) + 1, refused?.line ?? frame.reportLine, refused?.reason ?? reason)
            case .notMangled:
                break
            }
        }
        if let refused {
            let frames = refused.count == 1 ? "1 frame's name is" : "\(refused.count) frames' names are"
            warnings.append(
                ParseWarning(
                    path: path, line: refused.line, message: "\(frames) printed as in the report, not demangled: \(refused.reason)",
                    kind: .nameNotDemangled))
        }
    }
}

extension CrashReport {
    /// One note per placeholder kind the frames are named by — by the report or by a symbol
    /// table (`symbolication`'s concrete level) —, saying how many frames, what the
    /// placeholder means and what names the code instead, on the line of the first such frame.
    /// Called after reading and again after symbolication; earlier notes are replaced.
    package mutating func notePlaceholderNames() {
        warnings.removeAll { $0.kind == .placeholderName }
        var found: [PlaceholderName: (count: Int, line: Int?)] = [:]
        for (_, frames) in allBacktraces {
            for frame in frames {
                guard let name = frame.symbolication?.last?.function ?? frame.symbol, let placeholder = PlaceholderName(name) else {
                    continue
                }
                let seen = found[placeholder]
                found[placeholder] = ((seen?.count ?? 0) + 1, seen?.line ?? frame.reportLine)
            }
        }
        for placeholder in PlaceholderName.allCases {
            guard let (count, line) = found[placeholder] else { continue }
            let frames = count == 1 ? "1 frame is" : "\(count) frames are"
            warnings.append(
                ParseWarning(
                    path: path, line: line, message: "\(frames) named \(placeholder.spelling): \(placeholder.meaning)",
                    kind: .placeholderName))
        }
    }
}

extension Frame {
    /// A report line holding this frame with the report's mangled name replaced by the
    /// demangled one (text layouts keep every other byte of the line).
    func lineWithDemangledName(_ line: String) -> String {
        guard let raw = mangledSymbol, let symbol, let range = line.range(of: raw) else { return line }
        return line.replacingCharacters(in: range, with: symbol)
    }
}
