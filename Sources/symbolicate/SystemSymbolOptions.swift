import ArgumentParser
import SymbolicateSystemSymbols

/// `--system-symbols`, shared by `report`, `explain`, `batch` and `atos`.
struct SystemSymbolOptions: ParsableArguments {
    @Option(
        name: .customLong("system-symbols"),
        help: ArgumentHelp(
            "Where Apple's system libraries are: a DeviceSupport Symbols folder, a folder holding them, or a dyld shared cache file (repeatable). Default: SYMBOLICATE_SYSTEM_SYMBOLS (colon-separated), else ~/Library/Developer/Xcode/<platform> DeviceSupport/<version> (<build>)[ <arch>]/Symbols for the report's OS.",
            valueName: "path"))
    var places: [String] = []

    /// The run's system symbols: the places given, else the environment's, else (empty)
    /// Xcode's DeviceSupport folder for each report's OS.
    func systemSymbols() -> SystemSymbols {
        SystemSymbols(places: places.isEmpty ? SystemSymbols.environmentPlaces() : places)
    }
}
