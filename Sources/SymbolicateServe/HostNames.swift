/// Which `Host` names the server answers to: the defence against DNS rebinding, where a site
/// whose name is made to resolve to 127.0.0.1 loads the page from a loopback server under its
/// own name (so `Origin` equals `http://<Host>` and the origin check passes) and then reads
/// reports and the store. A server bound to loopback answers only to loopback names
/// (`localhost`, `127.0.0.1`, `[::1]`, any port) and the names given with `--allowed-host`;
/// one bound elsewhere answers to any name unless `--allowed-host` is given.
struct HostNames: Sendable {
    /// The names allowed (lowercase, without port); nil: any.
    let allowed: Set<String>?

    static let loopbackNames: Set<String> = ["localhost", "127.0.0.1", "::1"]

    init(listeningOn host: String, allowed extra: [String]) {
        let names = Set(extra.map { Self.name(of: $0) })
        if Self.isLoopback(host) || !names.isEmpty {
            allowed = Self.loopbackNames.union(names)
        } else {
            allowed = nil
        }
    }

    /// Whether the listening address is loopback only.
    static func isLoopback(_ host: String) -> Bool {
        let name = self.name(of: host)
        return name == "localhost" || name == "::1" || name.hasPrefix("127.")
    }

    /// Why a request sent to `authority` (HTTP/1's `Host`) is refused, or nil. A request without
    /// one (HTTP/1.0) is no browser's, so no rebinding: it is answered.
    func refusal(_ authority: String?) -> String? {
        guard let allowed, let authority, !authority.isEmpty else { return nil }
        let name = Self.name(of: authority)
        if allowed.contains(name) { return nil }
        return "this server does not answer to the host name \(Self.shown(name)); use http://localhost or start it with --allowed-host"
    }

    /// The host name of `Host`-style text: lowercase, without port, brackets or a final dot.
    static func name(of authority: String) -> String {
        var text = Substring(authority.lowercased())
        if text.hasPrefix("[") {
            text = text.dropFirst().prefix { $0 != "]" }
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            text = text[..<colon]
        }
        while text.hasSuffix(".") { text = text.dropLast() }
        return String(text)
    }

    /// A name as quoted back: printable ASCII only, at most 100 characters.
    private static func shown(_ name: String) -> String {
        let cleaned = String(
            name.unicodeScalars.filter { $0.isASCII && $0.value >= 0x21 && $0.value < 0x7F }.prefix(100).map(Character.init))
        return cleaned.isEmpty ? "given" : cleaned
    }
}
