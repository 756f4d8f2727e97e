import Foundation
import SymbolicateCore
import SymbolicateDiscovery

/// An HTTP(S) symbol server: URL templates filled in with the identity asked for, tried in
/// order (Sentry's layouts give two: the debug file, then the executable).
///
/// Placeholders: `{uuid}` (dashed uppercase, as dwarfdump prints it), `{id}` (lowercase hex
/// without dashes: a UUID or a build ID), `{id2}` and `{idrest}` (its first two digits and the
/// rest), `{uuidpath}` (uppercase, split 4/4/4/4/4/12 as LLDB's file-mapped UUID folders are),
/// `{arch}` and `{name}` (the image's name, percent-encoded).
package struct SymbolServer: Sendable, Equatable, CustomStringConvertible {
    /// The templates, in the order they are tried.
    package var templates: [String]
    /// How the user wrote it (a preset keeps its name), for messages; never holds a header.
    package var description: String

    package static let placeholders = ["{uuid}", "{id}", "{id2}", "{idrest}", "{uuidpath}", "{arch}", "{name}"]

    /// Sentry's layouts that fit Mach-O and ELF (symbolicator's `native` and `unified`),
    /// written `native=URL` or `unified=URL`.
    package enum Preset: String, CaseIterable, Sendable {
        /// LLDB's file-mapped UUID paths for Mach-O (the dSYM's DWARF file, then the
        /// executable with `.app`), GDB's build-ID paths for ELF (`xx/rest.debug`, then `xx/rest`).
        case native
        /// `xx/rest/debuginfo`, then `xx/rest/executable`, for both.
        case unified
    }

    /// Parses one `--symbol-server` / `SYMBOLICATE_SYMBOL_SERVERS` word: `native=URL`,
    /// `unified=URL`, or an http(s) URL template with at least one placeholder.
    package init(parsing text: String) throws(SymbolSourceError) {
        if let equals = text.firstIndex(of: "="), let preset = Preset(rawValue: String(text[..<equals])) {
            let base = String(text[text.index(after: equals)...])
            try Self.checkURL(base, original: text, template: false)
            let root = base.hasSuffix("/") ? base : base + "/"
            switch preset {
            case .native: templates = [root + "{native-debug}", root + "{native-executable}"]
            case .unified: templates = [root + "{id2}/{idrest}/debuginfo", root + "{id2}/{idrest}/executable"]
            }
            description = text
            return
        }
        try Self.checkURL(text, original: text, template: true)
        templates = [text]
        description = text
    }

    private static func checkURL(_ text: String, original: String, template: Bool) throws(SymbolSourceError) {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw SymbolSourceError(
                "symbol server \"\(original)\": not an http:// or https:// URL (a template, or native=URL / unified=URL for Sentry's layouts)"
            )
        }
        if template, !placeholders.contains(where: text.contains) {
            throw SymbolSourceError(
                "symbol server \"\(original)\": the URL has no placeholder ({uuid}, {id}, {id2}/{idrest}, {uuidpath}, {arch}, {name}); for Sentry's layouts write native=URL or unified=URL"
            )
        }
        var probe = text
        for placeholder in placeholders + ["{native-debug}", "{native-executable}"] {
            probe = probe.replacingOccurrences(of: placeholder, with: "x")
        }
        guard let url = URL(string: probe), url.host?.isEmpty == false else {
            throw SymbolSourceError("symbol server \"\(original)\": not a valid URL")
        }
    }

    /// The URLs to try for a build, in order.
    package func urls(for wanted: WantedDebugFile) -> [String] {
        templates.compactMap { Self.expand($0, wanted) }
    }

    static func expand(_ template: String, _ wanted: WantedDebugFile) -> String? {
        // Without the image's name (atos --uuid alone) a `{name}` URL would hold a stand-in.
        if template.contains("{name}") && !wanted.nameIsKnown { return nil }
        let hex = wanted.id.hexString
        guard hex.count > 2 else { return nil }
        let id2 = String(hex.prefix(2)), idrest = String(hex.dropFirst(2))
        var out = template
        if out.contains("{native-debug}") || out.contains("{native-executable}") {
            let debug: String, executable: String
            if wanted.isUUID {
                debug = uuidPath(wanted.id)
                executable = debug + ".app"
            } else {
                debug = "\(id2)/\(idrest).debug"
                executable = "\(id2)/\(idrest)"
            }
            out = out.replacingOccurrences(of: "{native-debug}", with: debug)
            out = out.replacingOccurrences(of: "{native-executable}", with: executable)
        }
        let name = wanted.name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? wanted.name
        let values: [(String, String)] = [
            ("{uuid}", wanted.id.bytes.count == 16 ? dashed(wanted.id) : hex), ("{id}", hex), ("{id2}", id2), ("{idrest}", idrest),
            ("{uuidpath}", uuidPath(wanted.id)), ("{arch}", wanted.architecture?.name ?? "unknown"), ("{name}", name),
        ]
        for (placeholder, value) in values { out = out.replacingOccurrences(of: placeholder, with: value) }
        return out
    }

    /// `3ED35565-456D-33CB-B554-6C567FA81585`, whatever kind the identity was parsed as.
    static func dashed(_ id: DebugID) -> String {
        DebugID(uuidBytes: id.bytes)?.description ?? id.hexString
    }

    /// `3ED3/5565/456D/33CB/B554/6C567FA81585`: LLDB's file-mapped UUID layout (uppercase).
    static func uuidPath(_ id: DebugID) -> String {
        let hex = id.hexString.uppercased()
        guard hex.count == 32 else { return hex }
        var parts: [Substring] = []
        var rest = Substring(hex)
        for _ in 0..<5 {
            parts.append(rest.prefix(4))
            rest = rest.dropFirst(4)
        }
        parts.append(rest)
        return parts.joined(separator: "/")
    }
}

/// A configuration mistake (a bad URL, an unusable cache folder): said once, names what.
package struct SymbolSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
