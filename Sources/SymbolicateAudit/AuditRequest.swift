import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateDiscovery
import SymbolicateMachO
import SymbolicatePipeline
import SymbolicatePresentation

/// How the audit is printed on standard output.
public enum AuditFormat: String, Sendable, Equatable, CaseIterable {
    /// A table for people.
    case text
    /// The whole report, keys sorted.
    case json
    /// A table ready for `$GITHUB_STEP_SUMMARY`.
    case markdown
}

/// One `audit` run, as data: the build, the debug files, the policy and what to write.
/// `run()` never throws, never prints and never exits.
public struct AuditRequest: Sendable {
    /// BUILD: an `.xcarchive`, an `.ipa`, an `.app` or a folder.
    public var build: String
    /// DSYMS: dSYM bundles, DWARF files, folders, `.xcarchive`s and zips, as `report` takes them.
    public var debugFiles: [String]
    /// Places the user keeps debug files (`SYMBOLICATE_DSYM_PATH`), searched recursively.
    public var searchFolders: [String]
    public var requirement: AuditRequirement
    public var format: AuditFormat
    /// Also write a JUnit XML file here.
    public var junit: String?
    /// Also print GitHub Actions annotations on standard output.
    public var githubAnnotations: Bool
    /// Copy the matching debug files here, one `<UUID>.dSYM` bundle per UUID.
    public var collectFolder: String?
    /// The same bundles, as one zip.
    public var collectZip: String?
    /// `--dsymutil`: the DWARF linker `--collect` runs for a slice with only a debug map; nil
    /// finds one on `toolSearchPath` (`DebugMapLinker.find`).
    public var dsymutil: String?
    /// Where a `dsymutil` is looked for when none is named: `PATH`.
    package var toolSearchPath: String? = ProcessInfo.processInfo.environment["PATH"]
    /// Symbol servers, dsymForUUID and their cache, asked for slices no local debug file
    /// answers with DWARF; nil asks nobody.
    package var remoteDebugFiles: (any RemoteDebugFiles)?
    /// Where the object files a debug map names may have moved (`--object-path-map`): a Debug
    /// build is audited as its frames would be symbolicated.
    public var objectPathMap = ObjectPathMap()
    /// `--color`: the text table's verdicts coloured on a terminal (`NO_COLOR` honoured).
    public var color: ColorChoice = .auto
    /// Where the table is shown (whether standard output is a terminal, its environment).
    public var terminal: Terminal = .none
    /// The terminal's columns: the text table's paths are shortened in the middle to fit; nil
    /// (not a terminal) keeps them whole.
    public var terminalWidth: Int?
    /// Bytes an `.ipa` may unpack to; nil takes the run's limit (`SYMBOLICATE_MAX_UNZIP_GIB`).
    package var unpackLimit: UInt64?

    public init(
        build: String, debugFiles: [String] = [], searchFolders: [String] = [], requirement: AuditRequirement = .all,
        format: AuditFormat = .text, junit: String? = nil, githubAnnotations: Bool = false, collectFolder: String? = nil,
        collectZip: String? = nil
    ) {
        self.build = build
        self.debugFiles = debugFiles
        self.searchFolders = searchFolders
        self.requirement = requirement
        self.format = format
        self.junit = junit
        self.githubAnnotations = githubAnnotations
        self.collectFolder = collectFolder
        self.collectZip = collectZip
    }

    /// Runs the audit; never throws and never prints.
    public func run() -> AuditResponse {
        var response = AuditResponse()
        let build: AuditBuild
        do { build = try AuditBuild.open(self.build, unpackLimit: unpackLimit) } catch { return response.fail(error) }
        defer { build.extractor?.removeAll() }
        response.messages += build.problems.map(AuditMessage.problem)

        // The same assembly as `report`'s (the build's own dSYMs are debug files named too).
        let index: DebugFileIndex
        do {
            index = try RunAssembly(DebugFileInputs(explicit: debugFiles + build.debugInputs, searchFolders: searchFolders), reports: [])
                .index
        } catch {
            return response.fail(.debugFiles(error))
        }
        response.messages += index.problems.map(AuditMessage.debugFileProblem)
        var symbolMaps = build.symbolMaps
        for input in debugFiles {
            var folder = AuditBuild(kind: .folder)
            folder.findSymbolMaps(in: input)
            folder.findSymbolMaps(in: (input as NSString).appendingPathComponent("BCSymbolMaps"))
            symbolMaps.merge(folder.symbolMaps) { first, _ in first }
        }

        let audited = audit(build, index: index, symbolMaps: symbolMaps)
        var report = audited.0
        let (matched, debugMapped) = (audited.matched, audited.debugMapped)
        let collecting = collectFolder != nil || collectZip != nil
        // Debug-mapped slices are linked before anything is written, so JUnit says what came of them.
        var linked: [AuditCollection.Bundle] = []
        var linkWork: String?
        defer {
            if let linkWork {
                try? FileManager.default.removeItem(atPath: linkWork)
                TemporaryFiles.unregister(linkWork)
            }
        }
        if collecting, !debugMapped.isEmpty {
            do {
                let work = try AuditCollection.temporaryFolder(in: FileManager.default.temporaryDirectory.path, mode: 0o700)
                linkWork = work
                let outcome = linkDebugMaps(&report, slices: debugMapped, work: work)
                linked = outcome.bundles
                response.messages += outcome.messages
            } catch {
                return response.fail(
                    .cannotWrite(
                        option: collectFolder != nil ? .collect : .collectZip, path: "a private temporary folder", reason: "\(error)"))
            }
        }
        response.report = report
        response.messages += (remoteDebugFiles?.takeMessages() ?? []).map(AuditMessage.symbolSources)

        // Nothing written may replace an input: the build, a debug file, a folder of them.
        let guardInputs = OutputGuard(inputs: [self.build] + debugFiles + index.entries.map(\.path))
        let outputs: [(AuditOutputOption, String?)] = [(.junit, junit), (.collect, collectFolder), (.collectZip, collectZip)]
        for case (let option, let path?) in outputs {
            if let input = guardInputs.input(replacedBy: path) {
                return response.fail(.outputReplacesInput(option: option, output: path, input: input))
            }
        }
        if let junit {
            do { try writeAtomically(report.renderJUnit(), to: junit) } catch {
                return response.fail(.cannotWrite(option: .junit, path: junit, reason: error.localizedDescription))
            }
        }
        if collectFolder != nil || collectZip != nil {
            var collection = AuditCollection(report: report, matched: matched)
            collection.bundles += linked
            response.messages += collection.skipped.map { AuditMessage.notCollected(path: $0.path, reason: $0.reason) }
            if let collectFolder {
                do { try collection.write(toFolder: collectFolder, guarding: guardInputs) } catch CollectError.replacesInput(
                    let output, let input)
                {
                    return response.fail(.outputReplacesInput(option: .collect, output: output, input: input))
                } catch {
                    return response.fail(.cannotWrite(option: .collect, path: collectFolder, reason: "\(error)"))
                }
                response.messages.append(.collected(collection.bundles.count, destination: collectFolder))
            }
            if let collectZip {
                do { try collection.write(toZip: collectZip) } catch {
                    return response.fail(.cannotWrite(option: .collectZip, path: collectZip, reason: "\(error)"))
                }
                response.messages.append(.collected(collection.bundles.count, destination: collectZip))
            }
        }

        var output: String
        switch format {
        case .text:
            output = report.renderText(width: terminal.standardOutputIsTerminal ? terminalWidth : nil, color: color.enabled(on: terminal))
        case .json: output = report.renderJSON()
        case .markdown: output = report.renderMarkdown()
        }
        if githubAnnotations { output += report.renderGitHubAnnotations() }
        response.standardOutput = output
        response.messages.append(.verdict(AuditVerdict(report)))
        if !report.failing.isEmpty { response.status = .failed }
        return response
    }

    /// Every slice of every binary, classified, and the debug file each UUID matched (local or
    /// fetched), for `--collect`.
    func audit(
        _ build: AuditBuild, index: DebugFileIndex, symbolMaps: [DebugID: String]
    ) -> (AuditReport, matched: [DebugID: DebugFileEntry], debugMapped: [DebugID: MachOSlice]) {
        var classifier = AuditClassifier(index: index, symbolMaps: symbolMaps)
        classifier.remote = remoteDebugFiles
        classifier.objectPathMap = objectPathMap
        if let remoteDebugFiles {
            // Everything no local file answers, asked side by side.
            var wanted: [WantedDebugFile] = []
            for binary in build.binaries {
                for slice in binary.file.slices {
                    guard let id = slice.debugID, index.entries(id: id).isEmpty else { continue }
                    wanted.append(WantedDebugFile(id: id, architecture: slice.architecture, name: binary.name, isAppImage: true))
                }
            }
            if !wanted.isEmpty { remoteDebugFiles.prefetch(wanted) }
        }
        var findings: [AuditFinding] = []
        var matched: [DebugID: DebugFileEntry] = [:]
        var debugMapped: [DebugID: MachOSlice] = [:]
        for binary in build.binaries {
            for slice in binary.file.slices where AuditBuild.binaryFileTypes.contains(slice.fileType) {
                let installName = (try? slice.installName()) ?? nil
                let (status, entry) = classifier.status(of: slice, binaryName: binary.name, installName: installName)
                if let entry, let id = slice.debugID { matched[id] = matched[id] ?? entry }
                if case .debugMap = status, let id = slice.debugID { debugMapped[id] = debugMapped[id] ?? slice }
                let signature: SignatureTeam
                switch (try? slice.codeSignature()) ?? .unsigned {
                case .unsigned: signature = .unsigned
                case .noTeam: signature = .none
                case .team(let id): signature = .team(id)
                }
                findings.append(
                    AuditFinding(
                        binary: binary.shown, role: binary.role, architecture: slice.architecture, uuid: slice.debugID,
                        installName: installName, signature: signature, status: status, debugFile: entry?.displayPath,
                        required: status != .apple && requirement.requires(binary.role)))
            }
        }
        // What could not be read fails the gate: it may be the binary whose dSYM is missing.
        for (shown, reason) in build.unreadable {
            findings.append(
                AuditFinding(
                    binary: shown, role: AuditBuild.role(of: shown), architecture: Architecture("unknown"), uuid: nil, installName: nil,
                    signature: .unsigned, status: .unreadable(reason: reason), debugFile: nil, required: true))
        }
        let report = AuditReport(
            build: self.build, buildKind: build.kind, requirement: requirement, findings: findings, debugFilesRead: index.entries.count)
        return (report, matched, debugMapped)
    }

    /// `--collect`: every slice that has only a debug map, its objects all here, linked into a
    /// dSYM by dsymutil (once per UUID; `DebugMapLinker`); each debug-mapped finding says what
    /// came of it, and a slice that could not be linked is named in a warning too.
    func linkDebugMaps(
        _ report: inout AuditReport, slices: [DebugID: MachOSlice], work: String
    ) -> (bundles: [AuditCollection.Bundle], messages: [AuditMessage]) {
        var bundles: [AuditCollection.Bundle] = []
        var messages: [AuditMessage] = []
        var outcomes: [DebugID: CollectOutcome] = [:]
        let tool = DebugMapLinker.find(explicit: dsymutil, searchPath: toolSearchPath)
        for index in report.findings.indices {
            let finding = report.findings[index]
            guard case .debugMap(let objects, let unusable) = finding.status, let id = finding.uuid else { continue }
            if let known = outcomes[id] {
                report.findings[index].collection = known
                continue
            }
            let outcome: CollectOutcome
            if !unusable.isEmpty {
                let first = unusable[0]
                outcome = .notCollected(
                    reason:
                        "\(unusable.count) of the \(objects) object files its debug map names cannot be used (\(first.object): \(first.reason.rawValue)\(unusable.count > 1 ? ", …" : "")), so no dSYM made from them would be whole"
                )
            } else {
                outcome = link(finding, slice: slices[id], tool: tool, work: work, bundles: &bundles, messages: &messages)
            }
            outcomes[id] = outcome
            report.findings[index].collection = outcome
            if case .notCollected(let reason) = outcome {
                messages.append(.notLinked(binary: finding.binary, architecture: finding.architecture, reason: reason))
            }
        }
        return (bundles, messages)
    }

    private func link(
        _ finding: AuditFinding, slice: MachOSlice?, tool found: Result<String, LinkFailure>, work: String,
        bundles: inout [AuditCollection.Bundle], messages: inout [AuditMessage]
    ) -> CollectOutcome {
        let tool: String
        switch found {
        case .failure(let failure): return .notCollected(reason: failure.description)
        case .success(let path): tool = path
        }
        guard let slice, let id = slice.debugID else { return .notCollected(reason: "its slice is gone") }
        let lookup: DebugMapLookup
        do {
            guard let opened = try DebugMapLookup(slice: slice, pathMap: objectPathMap) else {
                return .notCollected(reason: "its debug map can no longer be read")
            }
            lookup = opened
        } catch {
            return .notCollected(reason: error.description)
        }
        let folder = (work as NSString).appendingPathComponent(id.description)
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false) } catch {
            return .notCollected(reason: "cannot make a private folder for dsymutil: \(error.localizedDescription)")
        }
        switch DebugMapLinker(tool: tool).link(slice, lookup: lookup, name: finding.name, in: folder) {
        case .failure(let failure): return .notCollected(reason: failure.description)
        case .success(let linked):
            bundles.append(AuditCollection.Bundle(id: id, dwarfName: finding.name, slice: linked.slice, infoPlist: linked.infoPlist))
            messages += linked.warnings.map { .dsymutilSaid(binary: finding.binary, line: $0) }
            return .linked(dsymutil: tool)
        }
    }
}

extension AuditBuild.Binary {
    var name: String { (path as NSString).lastPathComponent }
}

/// The option an output path comes from, as errors name it.
public enum AuditOutputOption: String, Sendable, Equatable {
    case junit = "--junit"
    case collect = "--collect"
    case collectZip = "--collect-zip"
}

/// A file in BUILD that could not be read (named, never fatal).
public enum AuditProblem: Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return reason.hasPrefix(path) ? reason : "\(path): \(reason)"
        }
    }
}

/// Why an audit stopped.
public enum AuditFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case buildNotFound(path: String)
    case notABuild(path: String, reason: String)
    case cannotUnpack(path: String, reason: String)
    /// A DSYMS argument is missing or unusable.
    case debugFiles(DiscoveryError)
    case outputReplacesInput(option: AuditOutputOption, output: String, input: String)
    case cannotWrite(option: AuditOutputOption, path: String, reason: String)

    public var exitStatus: ExitStatus {
        switch self {
        case .buildNotFound, .notABuild, .cannotUnpack, .debugFiles: return .invalidInput
        case .outputReplacesInput: return .usage
        case .cannotWrite: return .cannotWrite
        }
    }

    public var description: String {
        switch self {
        case .buildNotFound(let path): return "\(path): no such file or folder"
        case .notABuild(let path, let reason): return "\(path): not a build to audit: \(reason)"
        case .cannotUnpack(let path, let reason): return "\(path): cannot unpack: \(reason)"
        case .debugFiles(let error): return error.description
        case .outputReplacesInput(let option, let output, let input):
            return "\(option.rawValue) \(output) would replace the input \(input); choose another path"
        case .cannotWrite(let option, let path, let reason): return "\(option.rawValue): cannot write \(path): \(reason)"
        }
    }
}

/// The closing line's numbers.
public struct AuditVerdict: Sendable, Equatable {
    public var slices: Int
    public var binaries: Int
    public var complete: Int
    public var failing: Int
    public var requirement: AuditRequirement

    public init(_ report: AuditReport) {
        slices = report.findings.count
        binaries = report.binaryCount
        complete = report.findings.filter(\.status.isComplete).count
        failing = report.failing.count
        requirement = report.requirement
    }
}

/// Everything `audit` says besides its output, in order.
public enum AuditMessage: RunMessage, Equatable {
    case problem(AuditProblem)
    case debugFileProblem(DebugFileProblem)
    case symbolSources(String)
    case collected(Int, destination: String)
    /// A file of a matched dSYM left out of `--collect`/`--collect-zip` (a link leading out of its bundle).
    case notCollected(path: String, reason: String)
    /// A slice with only a debug map that `--collect` could not link into a dSYM, and why.
    case notLinked(binary: String, architecture: Architecture, reason: String)
    /// A warning dsymutil printed while linking a collected dSYM (passed on, not hidden).
    case dsymutilSaid(binary: String, line: String)
    case verdict(AuditVerdict)
    case failure(AuditFailure)

    public var severity: MessageSeverity {
        switch self {
        case .problem, .debugFileProblem, .notCollected, .notLinked, .dsymutilSaid: return .warning
        case .symbolSources, .collected: return .plain
        case .verdict(let verdict): return verdict.failing > 0 ? .error : .plain
        case .failure: return .error
        }
    }

    public var body: String {
        switch self {
        case .problem(let problem): return problem.description
        case .debugFileProblem(let problem): return problem.description
        case .symbolSources(let line): return line
        case .collected(let count, let destination):
            return "collected \(count) dSYM\(count == 1 ? "" : "s") (one per UUID) in \(destination)"
        case .notCollected(let path, let reason): return "not collected: \(path) \(reason)"
        case .notLinked(let binary, let architecture, let reason):
            return "not collected: \(binary) (\(architecture.name)) has no dSYM, only a debug map, and none was linked: \(reason)"
        case .dsymutilSaid(let binary, let line): return "dsymutil, linking \(binary): \(line)"
        case .verdict(let v):
            let head =
                "\(v.slices) slice\(v.slices == 1 ? "" : "s") of \(v.binaries) binar\(v.binaries == 1 ? "y" : "ies"), \(v.complete) complete"
            if v.failing == 0 { return "\(head); everything --require \(v.requirement.rawValue) asks for can be symbolicated" }
            return "\(head); \(v.failing) required by --require \(v.requirement.rawValue) cannot be fully symbolicated"
        case .failure(let failure): return failure.description
        }
    }
}

/// What an audit produced.
public struct AuditResponse: Sendable {
    public var messages: [AuditMessage] = []
    /// Every slice and its status; nil when the run stopped before classifying.
    public var report: AuditReport?
    /// The table, JSON or Markdown, then the annotations when asked for.
    public var standardOutput: String?
    public var status: ExitStatus = .success

    public init() {}

    mutating func fail(_ failure: AuditFailure) -> AuditResponse {
        messages.append(.failure(failure))
        status = failure.exitStatus
        return self
    }
}
