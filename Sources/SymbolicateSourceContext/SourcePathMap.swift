/// `--source-path-map OLD=NEW`: compile paths under OLD are looked for under NEW (gdb's
/// `set substitute-path`, lldb's `settings set target.source-map`). The first rule whose OLD
/// is a whole-component prefix of the path applies; longer OLDs are tried first.
package struct SourcePathMap: Sendable, Equatable {
    package struct Rule: Sendable, Equatable {
        package let old: String
        package let new: String
    }

    package private(set) var rules: [Rule] = []

    package init() {}

    /// Why an argument is not a rule.
    package enum ParseError: Error, Equatable, Sendable {
        case notOldEqualsNew(String)

        package var message: String {
            switch self {
            case .notOldEqualsNew(let argument):
                return "--source-path-map takes OLD=NEW (a compile-path prefix and where it is now); got '\(argument)'"
            }
        }
    }

    /// Rules from `OLD=NEW` arguments; OLD and NEW may not be empty.
    package init(arguments: [String]) throws(ParseError) {
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "=") else { throw .notOldEqualsNew(argument) }
            let old = Self.trimmed(String(argument[..<equals]))
            let new = Self.trimmed(String(argument[argument.index(after: equals)...]))
            guard !old.isEmpty, !new.isEmpty else { throw .notOldEqualsNew(argument) }
            rules.append(Rule(old: old, new: new))
        }
        rules.sort { $0.old.count > $1.old.count }
    }

    /// `path` with the first matching rule applied; nil when no rule matches.
    package func apply(_ path: String) -> String? {
        for rule in rules {
            guard path.hasPrefix(rule.old) else { continue }
            let rest = path.dropFirst(rule.old.count)
            guard rest.isEmpty || rest.hasPrefix("/") || rule.old.hasSuffix("/") else { continue }
            let tail = rest.drop { $0 == "/" }
            return tail.isEmpty ? rule.new : rule.new + "/" + tail
        }
        return nil
    }

    /// A folder without its trailing slashes ("/" stays).
    private static func trimmed(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}

/// A compile path's components, for suffix matching: `.` and empty components dropped.
/// A path holding `..` has no usable suffix beyond it (it could climb out of the checkout).
package func sourcePathComponents(_ path: String) -> [String] {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init).filter { $0 != "." }
    if let last = parts.lastIndex(of: "..") { return Array(parts[(last + 1)...]) }
    return parts
}
