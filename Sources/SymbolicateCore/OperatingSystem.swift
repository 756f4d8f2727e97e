/// The operating system a report comes from, read once by the report's reader: which platform, which version,
/// which build. Later stages (system symbols, explain's platform advice) use these fields; none of them takes
/// the printed `OS Version:` text apart again.
public struct OperatingSystem: Sendable, Hashable, Codable {
    /// The platform family, named as Xcode names its DeviceSupport folders (`iOS DeviceSupport`).
    public enum Platform: String, Sendable, Hashable, Codable, CaseIterable {
        case iOS, macOS, watchOS, tvOS, visionOS, linux
    }

    public var platform: Platform?
    /// `17.5`, `10.15.7`; nil when the report does not give one.
    public var version: String?
    /// `21F79`; nil when the report does not give one.
    public var build: String?

    public init(platform: Platform?, version: String?, build: String?) {
        self.platform = platform
        self.version = version
        self.build = build
    }

    /// Apple's printed spellings: `iPhone OS 17.5 (21F79)`, `iOS 17.5 (21F79)`, `macOS 14.5 (23F79)`,
    /// `Mac OS X 10.15.7 (19H2)`, `watchOS 10.5 (21T576)`, a bare `iPhone OS 17.5`, and Linux's platform lines.
    /// Nil when the text names neither a platform nor a version.
    public init?(printed text: String) {
        var rest = Substring(text).trimmingSpaces
        var build: String? = nil
        if rest.hasSuffix(")"), let open = rest.lastIndex(of: "(") {
            let inside = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)].trimmingSpaces
            // `Linux (Debian GNU/Linux 12 (bookworm))` has words there, not a build.
            if !inside.isEmpty, inside.allSatisfy({ $0.isLetter || $0.isNumber }) {
                build = String(inside)
                rest = rest[..<open].trimmingSpaces
            }
        }
        var version: String? = nil
        if let space = rest.lastIndex(of: " "), rest[rest.index(after: space)...].first?.isNumber == true {
            version = String(rest[rest.index(after: space)...])
            rest = rest[..<space].trimmingSpaces
        } else if rest.first?.isNumber == true, !rest.contains(" ") {
            version = String(rest)
            rest = ""
        }
        let platform = Self.platform(named: String(rest))
        guard platform != nil || version != nil else { return nil }
        self.init(platform: platform, version: version, build: build)
    }

    /// The `.ips` form: `osVersion { train: "iPhone OS 17.5", build: "21F79" }`.
    public init?(train: String, build: String?) {
        guard var os = OperatingSystem(printed: train) else { return nil }
        os.build = build.flatMap { $0.isEmpty ? nil : $0 }
        self = os
    }

    /// The platform a name stands for (`iPhone OS`, `iPadOS`, `Mac OS X`, `xrOS`, `Linux`), or nil.
    public static func platform(named name: String) -> Platform? {
        let name = name.lowercased()
        if name.contains("linux") { return .linux }
        if name.contains("watch") { return .watchOS }
        if name.contains("tv") { return .tvOS }
        if name.contains("vision") || name.contains("xros") { return .visionOS }
        if name.contains("mac") || name.contains("os x") { return .macOS }
        if name.contains("iphone") || name.contains("ios") || name.contains("ipados") { return .iOS }
        return nil
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return s
    }
}
