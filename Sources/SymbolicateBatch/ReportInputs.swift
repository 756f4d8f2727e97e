import Foundation
import SymbolicateCore
import SymbolicateCrashReport
import SymbolicateDiscovery
import SymbolicatePipeline

/// One crash report to process in batch mode.
package struct ReportInput: Sendable, Hashable, Codable {
    /// The file to read (inside the private unzip folder for an entry of a zip).
    package var path: String
    /// What the user sees in summaries and messages: the path as given, or `reports.zip!a/b.ips`.
    package var displayPath: String
    /// Where its output goes, relative to the output folder, before the extension is adapted
    /// to the output format: the file name for a file argument, the path below the folder for
    /// a folder argument, `<zip name>/<entry path>` for a zip.
    package var relativePath: String

    /// Named on the command line (rather than met while walking a folder or a zip): a file
    /// that is not a report is then an error, not skipped.
    package var isExplicit: Bool

    package init(path: String, displayPath: String, relativePath: String, isExplicit: Bool = false) {
        self.path = path
        self.displayPath = displayPath
        self.relativePath = relativePath
        self.isExplicit = isExplicit
    }
}

/// The reports found in batch inputs (files, folders walked recursively, zips of reports).
///
/// Files named explicitly are always processed — a bad one is reported as unreadable. Files
/// met while walking a folder or a zip are processed only when their first bytes look like a
/// crash report (a JSON `.ips` header or Apple's text keys), so a `manifest.json` or a README
/// next to the reports is skipped rather than counted as a failure.
package final class ReportInputSet: Sendable {
    package let reports: [ReportInput]
    /// Inputs that could not be used at all (missing path, unreadable zip): reported in the
    /// summary as unreadable, never fatal for the others.
    package let problems: [BatchInputProblem]
    /// Files met while walking that do not look like crash reports.
    package let skipped: [String]
    /// Why some of `skipped` were skipped without being read as reports (a FIFO, a device, a
    /// dangling link, a zip entry too small to be a report), by display path.
    package let skipReasons: [String: String]
    /// Keeps the unpacked zip folders alive for as long as the set is used.
    private let extractor: ZipExtractor?

    /// Collects the reports of `inputs`.
    /// - Parameters:
    ///   - inputs: report files, folders and zips, as the user named them.
    ///   - excluding: folders never to walk into (the output folder, so a rerun over
    ///     `--output reports/out` does not read its own output).
    ///   - standardInput: what `-` stands for (a report or a zip of reports piped in), asked
    ///     for at most once.
    ///   - zipLimit: the most a zip piped in may hold (`BatchRequest.zipLimit`).
    package init(
        inputs: [String], excluding: [String] = [], standardInput: () -> FileHandle = { FileHandle.nullDevice },
        zipLimit: Int = BatchRequest.zipLimit
    ) {
        var collector = Collector(excluded: Set(excluding.map(Collector.canonical)))
        var readStandardInput = false
        for input in inputs {
            if input == StandardInput.argument {
                // `-` twice is still one stream, read once.
                if !readStandardInput { collector.addStandardInput(standardInput(), zipLimit: zipLimit) }
                readStandardInput = true
            } else {
                collector.add(input)
            }
        }
        reports = collector.reports
        problems = collector.problems
        skipped = collector.skipped
        skipReasons = collector.skipReasons
        extractor = collector.extractor
    }

    /// Removes unpacked zip entries now rather than when the set is released.
    package func removeTemporaryFiles() { extractor?.removeAll() }
}

/// An input that yielded no report at all.
package struct BatchInputProblem: Sendable, Codable, Equatable, CustomStringConvertible {
    package var input: String
    package var message: String
    package init(input: String, message: String) {
        self.input = input
        self.message = message
    }
    package var description: String { "\(input): \(message)" }
}

private struct Collector {
    var excluded: Set<String>
    var reports: [ReportInput] = []
    var problems: [BatchInputProblem] = []
    var skipped: [String] = []
    /// Why a skipped file was skipped, when it is more than "does not look like a report".
    var skipReasons: [String: String] = [:]
    var extractor: ZipExtractor?

    mutating func skip(_ display: String, because reason: String) {
        skipped.append(display)
        skipReasons[display] = reason
    }
    /// Files already taken, so a report named twice (or inside a folder also given, or
    /// reached through a link) is processed once: by identity, else by resolved path.
    var seen: Set<FileIdentity> = []
    var seenPaths: Set<String> = []

    mutating func append(_ input: ReportInput) {
        if let identity = FileIdentity(path: input.path) {
            guard seen.insert(identity).inserted else { return }
        } else {
            guard seenPaths.insert(Self.canonical(input.path)).inserted else { return }
        }
        reports.append(input)
    }

    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    }

    mutating func add(_ input: String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
            problems.append(BatchInputProblem(input: input, message: "no such file or folder"))
            return
        }
        let name = URL(fileURLWithPath: input).lastPathComponent
        if isDirectory.boolValue {
            walk(folder: input, displayPrefix: input, outputPrefix: "")
        } else if Self.isZip(path: input) {
            addZip(input, displayPath: input, outputPrefix: "")
        } else {
            append(ReportInput(path: input, displayPath: input, relativePath: name, isExplicit: true))
        }
    }

    /// `-`: the piped bytes are kept in the private folder as `stdin.zip` (a zip of reports,
    /// walked like any zip), `stdin.ips` (JSON) or `stdin.crash`, then read like a file named
    /// on the command line; messages call it `<stdin>`. A zip is copied to the file as it
    /// arrives (never held in memory); a report is read to one byte past the report limit.
    mutating func addStandardInput(_ handle: FileHandle, zipLimit: Int) {
        let display = StandardInput.displayName
        let head = StandardInput.read(handle, limit: 3)
        let isZip = Self.isZip(prefix: head)
        do {
            if extractor == nil { extractor = try ZipExtractor() }
        } catch {
            problems.append(BatchInputProblem(input: display, message: "cannot create a temporary folder to keep it: \(error)"))
            return
        }
        guard let extractor else { return }
        if isZip {
            do throws(DiscoveryError) {
                let spooled = try extractor.spool(head, then: handle, named: "stdin.zip", limit: UInt64(zipLimit))
                // Over the limit: refused as a report file over the limit is, and nothing is kept.
                guard !spooled.overLimit else {
                    problems.append(
                        BatchInputProblem(
                            input: display,
                            message: "more than \(zipLimit) bytes piped in, over the \(zipLimit)-byte limit for a zip of reports"))
                    return
                }
                addZip(spooled.file.path, displayPath: display, outputPrefix: "")
            } catch {
                problems.append(BatchInputProblem(input: display, message: error.description))
            }
            return
        }
        let limit = CrashReport.defaultSizeLimit
        let data = head.count < 4 ? head : head + StandardInput.read(handle, limit: limit - head.count)
        if data.count > limit {
            problems.append(
                BatchInputProblem(
                    input: display, message: "more than \(limit) bytes piped in, over the \(limit)-byte limit for a crash report"))
            return
        }
        let name =
            data.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) == UInt8(ascii: "{")
            ? "stdin.ips" : "stdin.crash"
        do throws(DiscoveryError) {
            let file = try extractor.store(data, named: name)
            append(ReportInput(path: file.path, displayPath: display, relativePath: name, isExplicit: true))
        } catch {
            problems.append(BatchInputProblem(input: display, message: error.description))
        }
    }

    /// Unpacks a zip of reports (with the same `ZipExtractor` the debug-file index uses) and
    /// walks it; its reports go below `<zip name without extension>/` in the output. `parent`
    /// is the budget of the zip this one was found in (one budget per top-level input, however
    /// deep its zips nest); nil for a zip named or met in a folder.
    mutating func addZip(_ path: String, displayPath: String, outputPrefix: String, nestedIn parent: ZipExtractor.ArchiveBudget? = nil) {
        do {
            if extractor == nil { extractor = try ZipExtractor() }
        } catch {
            problems.append(BatchInputProblem(input: displayPath, message: "cannot create a temporary folder to unpack it: \(error)"))
            return
        }
        guard let extractor else { return }
        let folder: URL
        let budget: ZipExtractor.ArchiveBudget
        do throws(DiscoveryError) {
            let extraction = try extractor.extract(
                zipPath: path, displayPath: displayPath,
                wanted: { relative in
                    !relative.split(separator: "/").contains { $0.hasPrefix(".") || $0 == "__MACOSX" || $0.hasSuffix(".dSYM") }
                },
                passOver: ReportSniffer.cannotBeAReport, nestedIn: parent)
            for (entry, reason) in extraction.passedOver { skip("\(displayPath)!\(entry)", because: reason) }
            // One bad entry never costs the archive's good reports: it is listed, the rest read.
            for skipped in extraction.skipped {
                if case .zip(_, let entry?, let message) = skipped {
                    problems.append(BatchInputProblem(input: "\(displayPath)!\(entry)", message: message))
                } else {
                    problems.append(BatchInputProblem(input: displayPath, message: skipped.description))
                }
            }
            folder = extraction.folder
            budget = extraction.budget
        } catch {
            problems.append(BatchInputProblem(input: displayPath, message: error.description))
            return
        }
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        walk(folder: folder.path, displayPrefix: displayPath + "!", outputPrefix: outputPrefix + stem + "/", zipped: budget)
    }

    /// Collects the reports below `folder`. `zipped` is the budget of the zip `folder` was
    /// unpacked from, shared by the zips inside it; nil for a folder of the user's.
    mutating func walk(folder: String, displayPrefix: String, outputPrefix: String, zipped: ZipExtractor.ArchiveBudget? = nil) {
        let root = URL(fileURLWithPath: folder)
        guard
            let enumerator = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey],
                options: [.skipsHiddenFiles])
        else {
            problems.append(BatchInputProblem(input: displayPrefix, message: "cannot list the folder"))
            return
        }
        // `special`: why a file that is not a regular file (or a link to one) is skipped.
        var found: [(relative: String, url: URL, special: String?)] = []
        let rootPath = root.standardizedFileURL.path
        for case let url as URL in enumerator {
            // lstat, not `resourceValues`: Foundation's file attributes look up the owner's
            // user and group names (reading /etc/passwd and /etc/group) for every file.
            var info = stat()
            guard lstat(url.path, &info) == 0 else { continue }
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR {
                // Debug files and our own output are never reports.
                if url.pathExtension == "dSYM" || url.pathExtension == "xcarchive" || excluded.contains(Self.canonical(url.path)) {
                    enumerator.skipDescendants()
                }
                continue
            }
            let full = url.standardizedFileURL.path
            var relative = full.hasPrefix(rootPath + "/") ? String(full.dropFirst(rootPath.count + 1)) : url.lastPathComponent
            if relative.isEmpty { relative = url.lastPathComponent }
            // A symlink to a report counts as the report (links to folders are not followed,
            // so a link cycle cannot make the walk endless).
            var target = stat()
            let isFile = type == S_IFREG || (type == S_IFLNK && stat(url.path, &target) == 0 && target.st_mode & S_IFMT == S_IFREG)
            guard isFile else {
                // Everything met is accounted for: FIFOs, sockets, devices and links that do
                // not lead to a file are never opened (a FIFO would block), only listed.
                let reason: String
                if type == S_IFLNK {
                    reason =
                        stat(url.path, &target) == 0
                        ? "a symbolic link to \(RegularFile.kind(target.st_mode)); links are followed only to files"
                        : "a symbolic link to nothing"
                } else {
                    reason = "\(RegularFile.kind(info.st_mode)), not a regular file; never opened"
                }
                found.append((relative, url, reason))
                continue
            }
            found.append((relative, url, nil))
        }
        // Walk order depends on the file system; sort so outputs and summaries are stable.
        found.sort { $0.relative < $1.relative }
        let separator = zipped != nil || displayPrefix.hasSuffix("/") ? "" : "/"
        for (relative, url, special) in found {
            let display = displayPrefix + separator + relative
            if let special {
                skip(display, because: special)
                continue
            }
            // One read decides both (zip magic, report markers).
            guard let prefix = RegularFile.prefix(path: url.path, count: ReportSniffer.prefixLength) else {
                skip(display, because: "cannot be read")
                continue
            }
            if Self.isZip(prefix: prefix) {
                addZip(url.path, displayPath: display, outputPrefix: outputPrefix + relative.parentFolderPrefix, nestedIn: zipped)
            } else if ReportSniffer.looksLikeReport(prefix: prefix) {
                append(ReportInput(path: url.path, displayPath: display, relativePath: outputPrefix + relative))
            } else {
                skipped.append(display)
            }
        }
    }

    /// Zips are recognised by their local-file-header magic, not by extension.
    static func isZip(path: String) -> Bool {
        isZip(prefix: RegularFile.prefix(path: path, count: 4) ?? Data())
    }

    static func isZip(prefix: Data) -> Bool {
        let magic = prefix.prefix(4)
        return magic.elementsEqual([0x50, 0x4B, 0x03, 0x04] as [UInt8]) || magic.elementsEqual([0x50, 0x4B, 0x05, 0x06] as [UInt8])
    }
}

private extension String {
    /// `a/b/c.zip` → `a/b/`; `c.zip` → ``.
    var parentFolderPrefix: String {
        guard let slash = lastIndex(of: "/") else { return "" }
        return String(self[...slash])
    }
}
