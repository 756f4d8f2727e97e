import ArgumentParser
import Foundation
import SymbolicateExplain

/// `--language`, shared by the commands that write a diagnosis (`explain`, `report --explain`,
/// `batch`). Without it the environment decides (`Language.resolve(environment:)`).
struct LanguageOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Language of the explanation: \(Language.choices). Default: SYMBOLICATE_LANGUAGE, then LC_ALL, LC_MESSAGES, LANG (ja_JP.UTF-8 gives Japanese).",
            valueName: Language.valueName),
        transform: LanguageOption.parse)
    var language: Language?

    /// The language asked for, else the environment's.
    var resolved: Language { language ?? Language.resolve(environment: ProcessInfo.processInfo.environment) }

    static func parse(_ text: String) throws -> Language {
        guard let language = Language(tag: text) else {
            throw ValidationError("--language takes \(Language.choices), not '\(text)'.")
        }
        return language
    }
}
