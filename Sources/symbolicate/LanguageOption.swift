import ArgumentParser
import Foundation
import SymbolicateExplain

/// `--language`, shared by the commands that write a diagnosis (`explain`, `report --explain`,
/// `batch`). Without it the environment decides (`Language.resolve(environment:)`).
struct LanguageOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Language of the explanation: en or ja. Default: SYMBOLICATE_LANGUAGE, then LC_ALL, LC_MESSAGES, LANG (ja_JP.UTF-8 gives Japanese).",
            valueName: "en|ja"),
        transform: LanguageOption.parse)
    var language: Language?

    /// The language asked for, else the environment's.
    var resolved: Language { language ?? Language.resolve(environment: ProcessInfo.processInfo.environment) }

    static func parse(_ text: String) throws -> Language {
        guard let language = Language(tag: text) else {
            throw ValidationError("--language takes en or ja, not '\(text)'.")
        }
        return language
    }
}
