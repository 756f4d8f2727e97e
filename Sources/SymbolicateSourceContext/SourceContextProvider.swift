import Foundation
import SymbolicateCrashReport

/// Builds `SourceContext`s for the reports of one run (a `report`, a batch, a server) over one
/// checkout. Whatever git says is asked once and kept: the repository's facts, the shipped
/// commit of each app version, each commit's file list, each file's text, and one blame and
/// one "changed since" per distinct (commit, path, line). Shared by a batch's threads: the
/// lock is held while a fact is worked out, so two reports never run the same command.
package final class SourceContextProvider: @unchecked Sendable {
    package let options: SourceContextOptions
    /// Commands run, by subcommand.
    package let counter = CommandCounter()
    private let lock = NSLock()
    private let checkout: SafeSourceFile?
    private let repository: Repository?
    private var shippedByVersion: [String: ShippedCommit] = [:]
    private var treeByCommit: [String: FileTree] = [:]
    private var workTree: FileTree?
    private var texts: [String: Result<[Substring], SourceNote.Kind>] = [:]
    private var lineFacts: [LineKey: (LastChange?, SinceBuild?)] = [:]

    private struct LineKey: Hashable {
        let commit: String
        let path: String
        let line: Int
    }

    /// Why a checkout cannot be used.
    package enum Problem: Error, Equatable, Sendable {
        case notAFolder(String)

        package var message: String {
            switch self {
            case .notAFolder(let path): return "--source-root \(path): no such folder"
            }
        }
    }

    package init(options: SourceContextOptions) throws(Problem) {
        guard let checkout = SafeSourceFile(root: options.root) else { throw .notAFolder(options.root) }
        self.options = options
        self.checkout = checkout
        repository = Repository(folder: checkout.root, counter: counter)
    }

    /// The context of a report's crashing frame and its first app frames; nil for a discovered
    /// root (`SourceContextOptions.discovered`) in which no frame's file is.
    package func context(for report: CrashReport) -> SourceContext? {
        lock.lock()
        defer { lock.unlock() }
        let shipped = shippedCommit(appVersion: report.appVersion)
        var context = SourceContext(root: options.root, shipped: shipped)
        var missing: [String: MissingSource] = [:]
        var order: [String] = []
        for place in Self.places(in: report, appFrames: options.appFrames) {
            var frame = FrameSource(
                thread: place.thread, frame: place.position, crashing: place.crashing, function: place.function, file: place.file,
                line: place.line)
            fill(&frame, shipped: shipped.commit)
            if frame.note?.kind == .notInCheckout {
                if missing[place.file] == nil {
                    order.append(place.file)
                    missing[place.file] = MissingSource(file: place.file, tried: tried(for: place.file))
                }
                continue
            }
            context.frames.append(frame)
        }
        if options.discovered, context.frames.isEmpty { return nil }
        context.missing = order.compactMap { missing[$0] }
        return context
    }

    /// A frame to show: where it is and the line it names.
    struct Place {
        var thread: Int
        var position: Int
        var crashing: Bool
        var function: String?
        var file: String
        var line: Int
    }

    /// The crashed thread's first frame when it is in an app image and has a line of the app's
    /// (by the one app's-line rule, `AppLine.choose` over its inline chain), then the app's line and the app frames
    /// after it, each found by `CrashReport.appLine` from the frame after the previous one.
    static func places(in report: CrashReport, appFrames: Int) -> [Place] {
        guard let thread = report.crashedThread else { return [] }
        var places: [Place] = []
        var seen = Set<String>()
        func add(_ line: AppLine, crashing: Bool) {
            guard let file = line.file, let number = line.line, seen.insert("\(file):\(number)").inserted else { return }
            places.append(
                Place(thread: thread.index, position: line.position, crashing: crashing, function: line.function, file: file, line: number))
        }
        // The crashing frame itself when it is in the app's images (a system frame has no line
        // of the app's to show).
        if let frame = thread.frames.first, report.image(for: frame)?.isAppOwned == true, let first = thread.line(at: 0) {
            add(first, crashing: true)
        }
        var start = 0
        var found = 0
        while found < appFrames, start < thread.frames.count {
            guard let line = report.appLine(in: thread, from: start) else { break }
            if line.file != nil, line.line != nil {
                let before = places.count
                add(line, crashing: places.isEmpty && line.position == 0)
                if places.count > before || line.position == 0 { found += 1 }
            }
            start = line.position + 1
        }
        return places
    }

    // MARK: One frame

    private func fill(_ frame: inout FrameSource, shipped: String?) {
        let candidates = candidates(for: frame.file)
        let found: (path: String, text: Result<[Substring], SourceNote.Kind>)
        switch locate(candidates, file: frame.file, shipped: shipped) {
        case .failure(let note):
            frame.note = note
            return
        case .success(let path):
            found = (path, text(of: path, shipped: shipped))
        }
        frame.path = found.path
        let lines: [Substring]
        switch found.text {
        case .failure(let kind):
            frame.note = SourceNote(kind: kind, detail: found.path)
            return
        case .success(let all): lines = all
        }
        guard frame.line >= 1, frame.line <= lines.count else {
            frame.note = SourceNote(kind: .lineBeyondEnd, detail: "\(found.path) has \(lines.count) lines")
            return
        }
        let first = max(1, frame.line - options.before)
        let last = min(lines.count, frame.line + options.after)
        frame.lines = (first...last).map { SourceLine(number: $0, text: Self.printable(lines[$0 - 1]), marked: $0 == frame.line) }
        guard let repository, let shipped else { return }
        let key = LineKey(commit: shipped, path: found.path, line: frame.line)
        if lineFacts[key] == nil {
            lineFacts[key] = (
                repository.blame(found.path, line: frame.line, at: shipped),
                repository.sinceBuild(found.path, line: frame.line, at: shipped)
            )
        }
        (frame.lastChange, frame.sinceBuild) = lineFacts[key] ?? (nil, nil)
        if let remote = repository.remote, let link = Permalink(remote: remote) {
            frame.permalink = link.link(commit: shipped, file: repository.prefix + found.path, line: frame.line)
        }
    }

    /// The compile path's suffixes under the checkout, longest first; a `--source-path-map`
    /// rule's result first of all.
    private func candidates(for file: String) -> [[String]] {
        var list: [[String]] = []
        if let mapped = options.pathMap.apply(file) {
            if mapped.hasPrefix("/"), let root = checkout?.root {
                let resolvedRoot = root == "/" ? "/" : root + "/"
                let normal = SafeSourceFile.resolve(mapped) ?? mapped
                if normal.hasPrefix(resolvedRoot) {
                    list.append(sourcePathComponents(String(normal.dropFirst(resolvedRoot.count))))
                } else if mapped.hasPrefix(options.root.hasSuffix("/") ? options.root : options.root + "/") {
                    list.append(sourcePathComponents(String(mapped.dropFirst(options.root.count))))
                }
            } else if !mapped.hasPrefix("/") {
                list.append(sourcePathComponents(mapped))
            }
        }
        let parts = sourcePathComponents(file)
        for start in parts.indices { list.append(Array(parts[start...])) }
        return list.filter { !$0.isEmpty }
    }

    private func tried(for file: String) -> [String] {
        let root = options.root.hasSuffix("/") ? String(options.root.dropLast()) : options.root
        return candidates(for: file).map { root + "/" + $0.joined(separator: "/") }
    }

    /// The path (relative to the checkout) of the file that ends with the longest suffix of the
    /// compile path: in the shipped commit's tree when there is one, else in the work tree
    /// (checked not to lead out). A `--source-path-map` result is taken as it is.
    private func locate(_ candidates: [[String]], file: String, shipped: String?) -> Result<String, SourceNote> {
        let tree: FileTree
        if let shipped, let repository {
            if treeByCommit[shipped] == nil {
                let listed = repository.files(at: shipped)
                treeByCommit[shipped] = FileTree(files: listed.files, symlinks: listed.symlinks)
            }
            tree = treeByCommit[shipped] ?? FileTree(files: [], symlinks: [])
        } else {
            if workTree == nil { workTree = FileTree(files: listWorkTree(), symlinks: []) }
            tree = workTree ?? FileTree(files: [], symlinks: [])
        }
        let inWorkTree = shipped == nil || repository == nil
        func checked(_ path: String) -> Result<String, SourceNote> {
            if tree.symlinks.contains(path) { return .failure(SourceNote(kind: .symlink, detail: path)) }
            guard inWorkTree else { return .success(path) }
            switch checkout?.locate(sourcePathComponents(path)) {
            case .inside?: return .success(path)
            case .outside(let resolved)?: return .failure(SourceNote(kind: .outsideRoot, detail: path + " -> " + resolved))
            case .missing?, nil: return .failure(SourceNote(kind: .notInCheckout))
            }
        }
        // A mapped path first, as the user wrote it.
        if options.pathMap.apply(file) != nil, let mapped = candidates.first {
            let path = mapped.joined(separator: "/")
            if tree.files.contains(path) || tree.symlinks.contains(path) || inWorkTree && checkout?.locate(mapped) != .missing {
                return checked(path)
            }
        }
        let parts = sourcePathComponents(file)
        guard let name = parts.last else { return .failure(SourceNote(kind: .notInCheckout)) }
        var best: [String] = []
        var bestLength = 0
        for path in tree.byName[name] ?? [] {
            let components = path.split(separator: "/").map(String.init)
            var length = 0
            while length < min(components.count, parts.count), components[components.count - 1 - length] == parts[parts.count - 1 - length]
            {
                length += 1
            }
            if length > bestLength {
                best = [path]
                bestLength = length
            } else if length == bestLength {
                best.append(path)
            }
        }
        if best.count > 1 { return .failure(SourceNote(kind: .ambiguous, detail: best.sorted().joined(separator: ", "))) }
        if let only = best.first { return checked(only) }
        // Not listed (an untracked file, a folder too large to list): the suffixes themselves.
        if inWorkTree, let checkout {
            for candidate in candidates {
                switch checkout.locate(candidate) {
                case .missing: continue
                case .outside(let resolved):
                    return .failure(SourceNote(kind: .outsideRoot, detail: candidate.joined(separator: "/") + " -> " + resolved))
                case .inside: return .success(candidate.joined(separator: "/"))
                }
            }
        }
        return .failure(SourceNote(kind: .notInCheckout))
    }

    /// The work tree's files: git's (tracked and untracked, not ignored) in a repository, else
    /// a walk of the checkout that follows no symlinked folder, up to `walkLimit` entries.
    private func listWorkTree() -> Set<String> {
        if let repository, let data = repository.git.output(["ls-files", "-z", "--cached", "--others", "--exclude-standard"]) {
            return Set(data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
        }
        guard let checkout, let walker = FileManager.default.enumerator(atPath: checkout.root) else { return [] }
        var files = Set<String>()
        var seen = 0
        while let path = walker.nextObject() as? String, seen < Self.walkLimit {
            seen += 1
            let name = path.split(separator: "/").last.map(String.init) ?? path
            if name.hasPrefix(".") {
                if (walker.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory { walker.skipDescendants() }
                continue
            }
            if (walker.fileAttributes?[.type] as? FileAttributeType) != .typeDirectory { files.insert(path) }
        }
        return files
    }

    /// Most entries a checkout without git is walked for (a home folder given by mistake).
    static let walkLimit = 200_000

    /// The file's lines at the shipped commit, else in the work tree.
    private func text(of path: String, shipped: String?) -> Result<[Substring], SourceNote.Kind> {
        let key = (shipped ?? "") + ":" + path
        if let known = texts[key] { return known }
        let decoded: Result<String, SourceNote.Kind>
        if let shipped, let repository {
            decoded = repository.blob(path, at: shipped).flatMap(SafeSourceFile.decode)
        } else if let checkout, case .inside(let resolved) = checkout.locate(sourcePathComponents(path)) {
            decoded = SafeSourceFile.text(at: resolved)
        } else {
            decoded = .failure(.notInCheckout)
        }
        let result = decoded.map { text in
            text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        }
        texts[key] = result
        return result
    }

    /// A line as printed: control characters other than tabs become U+FFFD, so a file
    /// cannot move a terminal's cursor or end a Markdown block early.
    static func printable(_ line: Substring) -> String {
        guard line.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) else { return String(line) }
        return String(
            String.UnicodeScalarView(line.unicodeScalars.map { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F ? "\u{FFFD}" : $0 }))
    }

    // MARK: The shipped commit

    private func shippedCommit(appVersion: String?) -> ShippedCommit {
        let key = options.commit == nil ? (appVersion ?? "") : ""
        if let known = shippedByVersion[key] { return known }
        let found = ShippedCommitFinder.find(
            in: repository, commit: options.commit, appVersion: appVersion, tagPattern: options.tagPattern)
        shippedByVersion[key] = found
        return found
    }
}

/// A tree's files by name, for matching compile paths by suffix.
struct FileTree {
    let files: Set<String>
    let symlinks: Set<String>
    let byName: [String: [String]]

    init(files: Set<String>, symlinks: Set<String>) {
        self.files = files
        self.symlinks = symlinks
        var byName: [String: [String]] = [:]
        for path in files.union(symlinks) {
            byName[path.split(separator: "/").last.map(String.init) ?? path, default: []].append(path)
        }
        self.byName = byName
    }
}
