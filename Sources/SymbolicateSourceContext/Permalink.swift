import Foundation

/// A link to a line at a commit on the repository's web host, from `remote.origin.url`.
/// Hosts are told apart by name (GitHub, GitLab, Bitbucket, Gitea and its Forgejo/Codeberg
/// kin); another host gets no link rather than a guessed one.
package struct Permalink: Sendable, Equatable {
    package enum Host: String, Sendable, Equatable {
        case github, gitlab, bitbucket, gitea
    }

    package let host: Host
    /// `https://github.com/owner/repo`, without credentials or `.git`.
    package let base: String

    /// From `https://…`, `ssh://git@host[:port]/owner/repo.git` or `git@host:owner/repo.git`.
    package init?(remote: String) {
        let url = remote.trimmingCharacters(in: .whitespaces)
        var hostName: String
        var path: String
        if let scheme = url.range(of: "://") {
            let rest = url[scheme.upperBound...]
            guard let slash = rest.firstIndex(of: "/") else { return nil }
            var authority = rest[..<slash]
            if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
            hostName = String(authority.split(separator: ":").first ?? "")
            path = String(rest[rest.index(after: slash)...])
        } else if let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/") {
            var authority = url[..<colon]
            if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
            hostName = String(authority)
            path = String(url[url.index(after: colon)...])
        } else {
            return nil
        }
        hostName = hostName.lowercased()
        while path.hasSuffix("/") { path.removeLast() }
        if path.hasSuffix(".git") { path.removeLast(4) }
        path = path.split(separator: "/").joined(separator: "/")
        guard !hostName.isEmpty, path.contains("/") else { return nil }
        if hostName.contains("github") {
            host = .github
        } else if hostName.contains("gitlab") {
            host = .gitlab
        } else if hostName.contains("bitbucket") {
            host = .bitbucket
        } else if hostName.contains("gitea") || hostName.contains("forgejo") || hostName == "codeberg.org" {
            host = .gitea
        } else {
            return nil
        }
        // An ssh remote's host is the web host too (github.com, gitlab.example.com), without a user.
        if hostName.hasPrefix("ssh.") { hostName.removeFirst(4) }
        base = "https://\(hostName)/\(path)"
    }

    /// The link to `line` of `file` (relative to the repository's top) at `commit`.
    package func link(commit: String, file: String, line: Int) -> String {
        let encoded = file.split(separator: "/").map { Self.encode(String($0)) }.joined(separator: "/")
        switch host {
        case .github: return "\(base)/blob/\(commit)/\(encoded)#L\(line)"
        case .gitlab: return "\(base)/-/blob/\(commit)/\(encoded)#L\(line)"
        case .bitbucket: return "\(base)/src/\(commit)/\(encoded)#lines-\(line)"
        case .gitea: return "\(base)/src/commit/\(commit)/\(encoded)#L\(line)"
        }
    }

    private static func encode(_ component: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~+@")
        return component.addingPercentEncoding(withAllowedCharacters: allowed) ?? component
    }
}
