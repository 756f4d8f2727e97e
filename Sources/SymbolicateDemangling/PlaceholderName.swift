/// Names that stand in for a name the writer of a report or of a symbol table did not have:
/// there is nothing to demangle, and printed alone they read as if they were a function.
package enum PlaceholderName: Sendable, Equatable, CaseIterable {
    /// `<redacted>`: Apple removed the function's name from a system library (a dyld shared
    /// cache without its local symbols).
    case redacted
    /// `__hidden#42_`: a bitcode build's hidden symbol; its BCSymbolMap gives the name back.
    case hidden
    /// `<deduplicated_symbol>`: the linker folded identical functions into one body.
    case deduplicated

    /// The kind of placeholder `name` is, or nil for a real name.
    package init?(_ name: String) {
        if name == "<redacted>" {
            self = .redacted
        } else if name == "<deduplicated_symbol>" {
            self = .deduplicated
        } else if name.hasPrefix("__hidden#"), name.hasSuffix("_"), name.count > 10,
            name.dropFirst(9).dropLast().allSatisfy({ $0.isASCII && $0.isNumber })
        {
            self = .hidden
        } else {
            return nil
        }
    }

    /// How the placeholder is written (`__hidden#…_` for the numbered family).
    package var spelling: String {
        switch self {
        case .redacted: "<redacted>"
        case .hidden: "__hidden#…_"
        case .deduplicated: "<deduplicated_symbol>"
        }
    }

    /// What the placeholder means and what names the code instead.
    package var meaning: String {
        switch self {
        case .redacted:
            "Apple removed the name from the system library; the symbols of the device's OS build name it (--system-symbols)"
        case .hidden:
            "the build came from bitcode with its symbol names hidden; the build's BCSymbolMap files (the .xcarchive's BCSymbolMaps folder) give them back"
        case .deduplicated:
            "the linker folded identical functions into one body, so the name could be any of them; the app's dSYM names the code"
        }
    }
}
