import ArgumentParser
import SymbolicateDWARF

/// `--object-path-map OLD=NEW`, shared by `report`, `explain`, `batch`, `atos`, `audit` and `serve`: where the object
/// files a binary's debug map names have moved (a Debug build without a dSYM symbolicated on
/// another machine than the one that built it).
struct ObjectPathMapOption: ParsableArguments {
    @Option(
        name: .customLong("object-path-map"),
        help: ArgumentHelp(
            "For a binary without a dSYM, whose debug map names the object files (.o, lib.a(member.o)) that keep its DWARF: look for objects recorded under OLD under NEW (repeatable, tried in order, after the recorded path and before the binary's own folder).",
            valueName: "OLD=NEW"))
    var rules: [String] = []

    func validate() throws {
        for rule in rules where ObjectPathMap.Rule(argument: rule) == nil {
            throw ValidationError("--object-path-map: expected OLD=NEW with both sides non-empty, got '\(rule)'")
        }
    }

    var objectPathMap: ObjectPathMap { ObjectPathMap(rules.compactMap(ObjectPathMap.Rule.init(argument:))) }
}
