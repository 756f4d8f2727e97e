/// What `--source-root` asks for: where the checkout is, how compile paths map into it, how many
/// lines around each crashing line, and which commit shipped.
package struct SourceContextOptions: Sendable, Equatable {
    /// The checkout (`--source-root`).
    package var root: String
    package var pathMap = SourcePathMap()
    /// Lines shown before and after the line (`--context N` sets both).
    package var before = 3
    package var after = 2
    /// The shipped commit (`--commit`); nil finds it from the report's app version and tags.
    package var commit: String?
    /// The tag of a version (`--tag-pattern`), with `{version}` and `{build}` in it.
    package var tagPattern: String?
    /// How many app frames after the crashing one get context.
    package var appFrames = 3
    /// The root was not given but found: the git work tree of the current directory. Such a
    /// root is only a guess that the app's sources are here, so a report none of whose frames
    /// names a file in it gets no context at all (no "not in the checkout" lines).
    package var discovered = false

    package init(root: String) {
        self.root = root
    }

    /// The options for the git work tree that holds `folder` (the current directory), marked
    /// `discovered`; nil when `folder` is in none or git is not installed.
    package static func discovered(from folder: String) -> SourceContextOptions? {
        guard let top = Git(folder: folder).text(["rev-parse", "--show-toplevel"]), !top.isEmpty else { return nil }
        var options = SourceContextOptions(root: top)
        options.discovered = true
        return options
    }
}

/// The source lines of a report's crashing frame and first app frames, with their history:
/// the typed result `ProcessedReport.sourceContext` carries to every renderer.
package struct SourceContext: Sendable, Codable, Equatable {
    /// The checkout as given.
    package var root: String
    /// The commit the report's build came from, or why it is not known.
    package var shipped: ShippedCommit
    package var frames: [FrameSource] = []
    /// Compile paths of frames that have no file in the checkout: each once, with the paths tried.
    package var missing: [MissingSource] = []

    /// The text of a frame's own line (`file` as the debug information names it), when the
    /// checkout gave it.
    package func text(of file: String, line: Int) -> String? {
        frames.first { $0.file == file && $0.line == line }?.lines.first(where: \.marked)?.text
    }
}

/// The commit a build shipped from.
package struct ShippedCommit: Sendable, Codable, Equatable {
    /// The full hash; nil when not found.
    package var commit: String?
    /// The tag it was found from (nil for `--commit`).
    package var tag: String?
    /// Why there is no commit.
    package var problem: Problem?
    /// What was tried or met (the version, the tags, the commit asked for).
    package var detail: String?

    package enum Problem: String, Sendable, Codable, Equatable {
        /// The checkout is not in a git work tree: lines come from the files as they are.
        case notARepository
        /// `--commit` names nothing in this clone.
        case commitNotFound
        /// The report has no app version to match tags with.
        case noVersion
        /// No tag matches the version.
        case noMatchingTag
        /// Several tags of the version point at different commits.
        case ambiguousTags
    }

    /// The short hash.
    package var short: String? { commit.map { String($0.prefix(10)) } }
}

/// One frame's lines and history.
package struct FrameSource: Sendable, Codable, Equatable {
    package var thread: Int
    /// Position in the thread's frames.
    package var frame: Int
    /// True for the crashed thread's first frame with a line.
    package var crashing: Bool
    package var function: String?
    /// The compile path as the debug information or the report gives it.
    package var file: String
    package var line: Int
    /// Where it was found, relative to the checkout; nil with a `note` saying why not.
    package var path: String?
    /// The lines around `line`, numbered; empty with a note.
    package var lines: [SourceLine] = []
    package var note: SourceNote?
    /// The commit that last changed the line, at the shipped commit (`git blame`).
    package var lastChange: LastChange?
    /// Whether the line changed between the shipped commit and HEAD.
    package var sinceBuild: SinceBuild?
    /// The line at the shipped commit on the repository's web host.
    package var permalink: String?
}

package struct SourceLine: Sendable, Codable, Equatable {
    package var number: Int
    package var text: String
    /// The frame's own line.
    package var marked: Bool
}

/// Why a frame has no lines.
package struct SourceNote: Error, Sendable, Codable, Equatable {
    package enum Kind: String, Error, Sendable, Codable, Equatable {
        case notInCheckout
        /// The path resolves outside the checkout (a symlink leading out): never read.
        case outsideRoot
        /// A symbolic link in the shipped commit's tree: not followed.
        case symlink
        /// Over `SafeSourceFile.sizeLimit`: not read.
        case tooLarge
        case notUTF8
        /// Several files end with the same path.
        case ambiguous
        case lineBeyondEnd
        case unreadable
    }

    package var kind: Kind
    /// The path concerned, or the files that matched.
    package var detail: String?
}

/// `git blame --porcelain` of the line.
package struct LastChange: Sendable, Codable, Equatable {
    package var commit: String
    package var author: String
    /// ISO 8601 with the author's offset.
    package var date: String
    package var summary: String
    /// The commit is a shallow clone's boundary: history before it is not in the clone, so the
    /// line may be older.
    package var boundary: Bool
}

/// The line between the shipped commit and HEAD.
package struct SinceBuild: Sendable, Codable, Equatable {
    /// False: the line at HEAD is the shipped line.
    package var changed: Bool
    /// The first commit after the build that changed (or removed) the line.
    package var commit: String?
    package var subject: String?

    package init(changed: Bool, commit: String? = nil, subject: String? = nil) {
        self.changed = changed
        self.commit = commit
        self.subject = subject
    }
}

/// A compile path with no file in the checkout.
package struct MissingSource: Sendable, Codable, Equatable {
    package var file: String
    /// The paths looked at, longest first.
    package var tried: [String]
}
