import Foundation
import SymbolicateCrashReport
import SymbolicateJSON

/// Minimal ANSI styling so `--color` output stays readable when piped without it.
struct Style {
    let color: Bool
    func bold(_ text: String) -> String { color ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    func dim(_ text: String) -> String { color ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    func accent(_ text: String) -> String { color ? "\u{1B}[33m\(text)\u{1B}[0m" : text }
}

/// JSON with stable key order, so output can be diffed and tested.
func encodeJSON<T: Encodable>(_ value: T) -> String {
    OutputJSON.text(value) ?? "{}"
}

extension Provenance {
    /// The label in `language`.
    package func label(_ language: Language) -> String {
        let key: PhraseKey =
            switch self {
            case .documented: .provenanceDocumented
            case .archivedTechNote: .provenanceArchivedTechNote
            case .openSource: .provenanceOpenSource
            case .observed: .provenanceObserved
            case .thirdParty: .provenanceThirdParty
            case .projectDocumentation: .provenanceProjectDocumentation
            }
        return Catalog.text(key, language)
    }
}

extension TermKind {
    /// The label in `language`.
    package func label(_ language: Language) -> String {
        let key: PhraseKey =
            switch self {
            case .exceptionType: .kindExceptionType
            case .exceptionCode: .kindExceptionCode
            case .signal: .kindSignal
            case .signalCode: .kindSignalCode
            case .exceptionNote: .kindExceptionNote
            case .guardType: .kindGuardType
            case .resourceType: .kindResourceType
            case .terminationNamespace: .kindTerminationNamespace
            case .terminationCode: .kindTerminationCode
            case .namespaceCode: .kindNamespaceCode
            case .jetsamReason: .kindJetsamReason
            case .reportType: .kindReportType
            case .swiftRuntimeMessage: .kindSwiftRuntimeMessage
            case .concurrencyMessage: .kindConcurrencyMessage
            case .objcException: .kindObjcException
            case .cxxException: .kindCxxException
            case .applicationSpecificMessage: .kindApplicationSpecificMessage
            case .dyldError: .kindDyldError
            case .frameSymbol: .kindFrameSymbol
            case .faultPattern: .kindFaultPattern
            case .panicFamily: .kindPanicFamily
            case .memoryLimit: .kindMemoryLimit
            case .debugLayerMessage: .kindDebugLayerMessage
            case .messageClass: .kindMessageClass
            }
        return Catalog.text(key, language)
    }
}

extension LocalizedEntry {
    /// `EXC_BAD_ACCESS — Bad memory access (Mach exception type 1)`.
    func heading(_ language: Language) -> String {
        var text = "\(term) — \(title)"
        let number =
            values.first.map { value in
                kind == .terminationCode ? "" : " \(value <= 0xff ? String(value) : hex(value))"
            } ?? ""
        text += " (\(kind.label(language))\(number))"
        return text
    }

    /// The entry as text; its prose is already in `language` (see `localized`), the labels follow it.
    func renderText(style: Style, indent: String = "", language: Language) -> String {
        func say(_ key: PhraseKey, _ values: [String: String] = [:]) -> String { Catalog.text(key, language, values) }
        var lines = [indent + style.bold(heading(language))]
        lines.append(indent + "  " + meaning)
        if !causes.isEmpty {
            lines.append(indent + "  " + say(.uiUsualCauses) + ":")
            lines += causes.map { indent + "    - " + $0 }
        }
        if !checkNext.isEmpty {
            lines.append(indent + "  " + say(.uiCheckNext) + ":")
            lines += checkNext.map { indent + "    - " + $0 }
        }
        lines.append(indent + "  " + style.dim(say(.uiStatus, ["status": provenance.label(language)])))
        lines += sources.map { indent + "  " + style.dim(say(.uiSource, ["source": "\($0.title) <\($0.url)>"])) }
        return lines.joined(separator: "\n")
    }

    func renderMarkdown(level: Int = 2, language: Language) -> String {
        func say(_ key: PhraseKey, _ values: [String: String] = [:]) -> String { Catalog.text(key, language, values) }
        var lines = [String(repeating: "#", count: level) + " `\(term)` — \(title)", ""]
        let kindLabel = kind.label(language)
        lines.append(
            "*\(kindLabel.prefix(1).uppercased() + kindLabel.dropFirst())*"
                + (isCommunityReported ? " · **\(say(.uiCommunityReported))**" : "") + " · \(provenance.label(language))")
        lines += ["", meaning, ""]
        if !causes.isEmpty {
            lines.append("**\(say(.uiUsualCauses))**")
            lines += [""] + causes.map { "- " + $0 } + [""]
        }
        if !checkNext.isEmpty {
            lines.append("**\(say(.uiCheckNext))**")
            lines += [""] + checkNext.map { "- " + $0 } + [""]
        }
        lines.append(say(.uiSources, ["sources": sources.map { "[\($0.title)](\($0.url))" }.joined(separator: ", ")]))
        return lines.joined(separator: "\n")
    }
}

/// Anything `explain` prints: a term's explanation or a report's diagnosis, in the three
/// output formats.
package protocol ExplainRenderable {
    func renderText(color: Bool) -> String
    func renderMarkdown() -> String
    func renderJSON() -> String
}

extension TermExplanation: ExplainRenderable {}
extension Diagnosis: ExplainRenderable {}

extension TermExplanation {
    package func renderText(color: Bool = false) -> String {
        let style = Style(color: color)
        guard isKnown else { return notKnownText }
        var blocks = decoded.map { style.accent($0) }
        blocks += entries.map { $0.renderText(style: style, language: language) }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    package func renderMarkdown() -> String {
        guard isKnown else { return notKnownText }
        var blocks = ["# `\(query)`"]
        blocks += decoded.map { "> " + $0 }
        blocks += entries.map { $0.renderMarkdown(language: language) }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    package func renderJSON() -> String { encodeJSON(self) + "\n" }

    private var notKnownText: String {
        var text = Catalog.text(.uiNotKnown, language, ["query": query])
        if nearMatches.isEmpty {
            text += "\n" + Catalog.text(.uiTryTerms, language)
        } else {
            text += "\n" + Catalog.text(.uiDidYouMean, language, ["matches": nearMatches.joined(separator: ", ")])
        }
        return text + "\n"
    }
}
