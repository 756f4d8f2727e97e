/// The commit a build shipped from: `--commit`, else the tag of the report's app version.
/// Never a guess: no tag, or tags of the version on different commits, is said as such.
package enum ShippedCommitFinder {
    /// A report's `1.2.3 (45)`: the short version and the build.
    package struct Version: Sendable, Equatable {
        package var version: String
        package var build: String?

        /// `1.2.3 (45)`, `1.2.3`; nil for an empty string.
        package init?(_ text: String) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return nil }
            if let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") {
                version = trimmed[..<open].trimmingCharacters(in: .whitespaces)
                let build = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
                    .trimmingCharacters(in: .whitespaces)
                self.build = build.isEmpty || build == version ? nil : build
            } else {
                version = trimmed
                build = nil
            }
            if version.isEmpty { return nil }
        }
    }

    package static func find(
        in repository: Repository?, commit: String?, appVersion: String?, tagPattern: String?
    ) -> ShippedCommit {
        guard let repository else { return ShippedCommit(problem: .notARepository) }
        if let commit {
            guard let full = repository.git.commit(commit) else {
                return ShippedCommit(problem: .commitNotFound, detail: commit + (repository.shallow ? " (a shallow clone)" : ""))
            }
            return ShippedCommit(commit: full)
        }
        guard let text = appVersion, let version = Version(text) else { return ShippedCommit(problem: .noVersion) }
        let tags = repository.tags()
        let chosen: [String]
        if let tagPattern {
            let name = expand(tagPattern, version)
            chosen = tags.filter { $0 == name }
            if chosen.isEmpty { return ShippedCommit(problem: .noMatchingTag, detail: name + shallowNote(repository)) }
        } else {
            chosen = matching(tags, version)
            if chosen.isEmpty {
                return ShippedCommit(problem: .noMatchingTag, detail: "\(text) among \(tags.count) tags" + shallowNote(repository))
            }
        }
        var commits: [String: [String]] = [:]
        for tag in chosen {
            if let commit = repository.git.commit("refs/tags/" + tag) { commits[commit, default: []].append(tag) }
        }
        guard commits.count == 1, let (commit, names) = commits.first else {
            let detail = commits.values.flatMap { $0 }.sorted().joined(separator: ", ")
            return ShippedCommit(problem: commits.isEmpty ? .noMatchingTag : .ambiguousTags, detail: detail)
        }
        return ShippedCommit(commit: commit, tag: names.sorted().first)
    }

    /// Tags naming the version: any prefix without digits (`v`, `release-`, `ios/`), then the
    /// version, then nothing or a separator and the build. Tags with the build win over
    /// tags without it.
    package static func matching(_ tags: [String], _ version: Version) -> [String] {
        var withBuild: [String] = []
        var plain: [String] = []
        for tag in tags {
            guard let digit = tag.firstIndex(where: \.isNumber) else { continue }
            let rest = tag[digit...]
            guard rest.hasPrefix(version.version) else { continue }
            let tail = rest.dropFirst(version.version.count)
            if tail.isEmpty {
                plain.append(tag)
            } else if let build = version.build, let first = tail.first, !first.isLetter, !first.isNumber, first != ".",
                tail.drop(while: { !$0.isLetter && !$0.isNumber }).trimmingSuffix(")") == build
            {
                withBuild.append(tag)
            }
        }
        return withBuild.isEmpty ? plain : withBuild
    }

    /// `--tag-pattern` with `{version}` and `{build}` filled in.
    static func expand(_ pattern: String, _ version: Version) -> String {
        pattern.replacingOccurrences(of: "{version}", with: version.version).replacingOccurrences(of: "{build}", with: version.build ?? "")
    }

    private static func shallowNote(_ repository: Repository) -> String {
        repository.shallow ? " (a shallow clone: its tags may not have been fetched)" : ""
    }
}

extension Substring {
    fileprivate func trimmingSuffix(_ suffix: String) -> Substring {
        hasSuffix(suffix) ? dropLast(suffix.count) : self
    }
}
