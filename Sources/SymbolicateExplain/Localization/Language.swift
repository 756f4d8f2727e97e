import Foundation

/// The language `explain` writes its prose in. Identifiers, quoted report text, function
/// names and file:line stay as the report has them whatever the language.
///
/// The languages are this enum's cases, and nothing else lists them: the catalogs' data files
/// have one column per case (the generator refuses a missing or an extra one), and `--help`,
/// the server's errors and the page's menu are written from `allCases`. A new language is one
/// case here and one column in `Catalogs/*.json`.
public enum Language: String, Codable, Sendable, CaseIterable {
    case english = "en"
    case japanese = "ja"

    /// A language tag or a POSIX locale name: `ja`, `ja_JP`, `ja_JP.UTF-8`, `ja-JP`, `en_US`,
    /// `English`. Nil for an empty value or a language `explain` does not speak (the caller
    /// then falls back to English, or to the next variable).
    public init?(tag: String) {
        let trimmed = tag.trimmedBlanks
        // `ja_JP.UTF-8@modifier`: the language is what precedes `_`, `-`, `.` and `@`.
        let primary = trimmed.split(whereSeparator: { "_-.@".contains($0) }).first.map { $0.lowercased() } ?? ""
        guard let language = Self.allCases.first(where: { $0.tags.contains(primary) }) else { return nil }
        self = language
    }

    /// The spellings `init(tag:)` accepts: the ISO 639-1 code (the raw value), then the
    /// catalog's `languageTags` (ISO 639-2 code, English name), all lowercased.
    var tags: [String] {
        [rawValue] + Catalog.text(.languageTags, self).lowercased().split(separator: " ").map(String.init)
    }

    /// The language's name in itself (`English`, `日本語`), for menus.
    public var nativeName: String { Catalog.text(.languageName, self) }

    /// `en or ja`, for help and errors.
    public static var choices: String {
        let codes = allCases.map(\.rawValue)
        return codes.count < 2 ? codes.joined() : codes.dropLast().joined(separator: ", ") + " or " + (codes.last ?? "")
    }

    /// `en|ja`, for a value name.
    public static var valueName: String { allCases.map(\.rawValue).joined(separator: "|") }

    /// The language the environment asks for: `SYMBOLICATE_LANGUAGE` when set, else the first
    /// non-empty of `LC_ALL`, `LC_MESSAGES`, `LANG` (the order POSIX gives them for messages).
    /// The values are read as text, so no locale needs to be installed. A Japanese locale
    /// gives Japanese; any other value (`C`, `POSIX`, `en_US.UTF-8`, `fr_FR`) gives English.
    public static func resolve(environment: [String: String]) -> Language {
        if let chosen = environment["SYMBOLICATE_LANGUAGE"], !chosen.isEmpty {
            return Language(tag: chosen) ?? .english
        }
        for variable in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[variable], !value.isEmpty else { continue }
            return Language(tag: value) ?? .english
        }
        return .english
    }

    /// The best language for an HTTP `Accept-Language` header (`ja,en-US;q=0.8`): the
    /// supported range with the highest weight, the earlier one on a tie; nil when the
    /// header names none `explain` speaks (the caller keeps its default). `*` names none.
    public static func resolve(acceptLanguage header: String) -> Language? {
        var best: (language: Language, weight: Double)?
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmedBlanks }
            guard let range = parts.first, let language = Language(tag: range) else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                weight = Double(parameter.dropFirst(2)) ?? 0
            }
            guard weight > 0, weight <= 1 else { continue }
            if best.map({ weight > $0.weight }) ?? true { best = (language, weight) }
        }
        return best?.language
    }
}
