import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateMachO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--collect` for a slice with no dSYM but a debug map whose objects are all here (a Debug or
/// CI build): the platform's own DWARF linker, `dsymutil`, links them into the dSYM Xcode would
/// have made with `DEBUG_INFORMATION_FORMAT = dwarf-with-dsym`. Linking DWARF (every form
/// relocated, types uniqued, accelerator tables) is dsymutil's job; this drives it and checks
/// what it made.
///
/// dsymutil reads the binary's map itself. The objects reach it where `DebugMapLookup` found
/// and checked them (recorded path, `--object-path-map`, beside the binary) through a private
/// folder of links laid out as the map records the paths, given as `--oso-prepend-path`. The
/// result is used only when dsymutil exited 0 and said nothing about any object, its DWARF file
/// is one slice with the binary's UUID, and the first function of every object answers through
/// it exactly as through the debug map.
struct DebugMapLinker {
    /// The dsymutil run.
    let tool: String
    /// A link of a large app takes minutes; past this it is stopped and the slice not collected.
    static let timeout: Double = 1800

    /// What a good link gave: the dSYM's DWARF file (one slice) and its `Info.plist`, and what
    /// dsymutil warned about besides (passed on, never hidden).
    struct Linked {
        var slice: MachOSlice
        var infoPlist: String?
        var warnings: [String]
    }

    /// What to install when no dsymutil is found (said in every slice's reason).
    static let installHint =
        "no dsymutil found: install Xcode's command-line tools (xcode-select --install) on a Mac, LLVM's elsewhere (Debian/Ubuntu: apt-get install llvm-19, which has dsymutil-19), or give --dsymutil PATH"

    /// `--dsymutil PATH` when given, else the newest `dsymutil-N` on `PATH` (Debian's plain
    /// `dsymutil` may be an older LLVM's, which drops DWARF 5 forms), else `dsymutil`.
    /// - Returns: the tool's path, or why there is none to run.
    static func find(explicit: String?, searchPath: String?) -> Result<String, LinkFailure> {
        if let explicit {
            return isExecutableFile(explicit) ? .success(explicit) : .failure(.tool("--dsymutil \(explicit) is not an executable file"))
        }
        var best: (version: Int, path: String)?
        for folder in (searchPath ?? "").split(separator: ":").map(String.init) where !folder.isEmpty {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names {
                let version: Int
                if name == "dsymutil" {
                    version = -1
                } else if name.hasPrefix("dsymutil-"), let number = Int(name.dropFirst("dsymutil-".count)), number >= 0 {
                    version = number
                } else {
                    continue
                }
                let path = (folder as NSString).appendingPathComponent(name)
                // The first folder of PATH wins among tools of one version, as a shell's lookup would.
                guard isExecutableFile(path), version > (best?.version ?? -2) else { continue }
                best = (version, path)
            }
        }
        return best.map { .success($0.path) } ?? .failure(.tool(installHint))
    }

    static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
    }

    /// Links a slice into a dSYM inside a private folder and checks it.
    /// - Parameters:
    ///   - slice: the binary's slice (its file is what dsymutil reads).
    ///   - lookup: the slice's debug map, opened with the run's `--object-path-map`.
    ///   - name: the binary's file name (the dSYM's DWARF file takes it).
    ///   - work: a private folder for the links and the dSYM; the caller removes it.
    /// - Returns: the checked dSYM, or why the slice is not collected.
    func link(_ slice: MachOSlice, lookup: DebugMapLookup, name: String, in work: String) -> Result<Linked, LinkFailure> {
        let root = (work as NSString).appendingPathComponent("objects")
        var problems: [String] = []
        for (object, found) in zip(lookup.map.objects, lookup.objectFiles()) {
            switch found {
            case .failure(let problem): problems.append(problem.description)
            case .success(let path):
                if let problem = Self.placeLink(recorded: object.path, found: path, under: root) { problems.append(problem) }
            }
        }
        if !problems.isEmpty { return .failure(.objects(problems)) }

        let bundle = (work as NSString).appendingPathComponent("\(name).dSYM")
        let arguments = ["-arch", slice.architecture.name, "--oso-prepend-path", root, "-o", bundle, slice.path]
        let said: [String]
        switch Subprocess.run(tool, arguments, timeout: Self.timeout, includingStandardError: true) {
        case .cannotStart(let reason): return .failure(.tool("\(tool) could not be started: \(reason)"))
        case .timedOut(let seconds): return .failure(.tool("\(tool) ran past \(Int(seconds)) s and was stopped"))
        case .exited(let status, let output):
            said = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
            guard status == 0 else {
                return .failure(
                    .tool("\(tool) failed (status \(status))\(said.isEmpty ? "" : ": " + said.suffix(3).joined(separator: "; "))"))
            }
        }
        // A warning about an object (unreadable, changed since the link) means its DWARF may be
        // missing from the dSYM: never a silent gap.
        if let line = said.first(where: { $0.contains(root) }) {
            return .failure(.tool("\(tool): \(line.replacingOccurrences(of: root, with: ""))"))
        }

        let dwarfFolder = DSYMBundle.dwarfFolder(of: bundle)
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: dwarfFolder), files.count == 1 else {
            return .failure(.output("\(tool) made no DWARF file in \(DSYMBundle.dwarfFolder)"))
        }
        let dwarfPath = (dwarfFolder as NSString).appendingPathComponent(files[0])
        let linked: MachOSlice
        do {
            let slices = try MachOFile(path: dwarfPath).slices
            guard slices.count == 1 else { return .failure(.output("its dSYM has \(slices.count) slices, not one")) }
            linked = slices[0]
        } catch {
            return .failure(.output("its dSYM cannot be read: \(error.description)"))
        }
        guard linked.debugID == slice.debugID, linked.architecture == slice.architecture else {
            return .failure(
                .output(
                    "its dSYM is \(linked.debugID?.description ?? "without UUID") \(linked.architecture.name), the binary \(slice.debugID?.description ?? "?") \(slice.architecture.name)"
                ))
        }
        if let difference = Self.firstDifference(linked, lookup) { return .failure(.output(difference)) }
        let plist = ((bundle as NSString).appendingPathComponent("Contents") as NSString).appendingPathComponent("Info.plist")
        return .success(
            Linked(slice: linked, infoPlist: Self.isRegularFile(plist) ? plist : nil, warnings: said.filter { $0.contains("warning:") }))
    }

    /// The first function of every object, answered through the linked dSYM and through the
    /// map: nil when all agree, else the first address that does not (a dsymutil too old for the
    /// objects' DWARF, an object it skipped).
    static func firstDifference(_ linked: MachOSlice, _ lookup: DebugMapLookup) -> String? {
        let dsym: any DebugLookup
        do { dsym = try linked.open() } catch { return "its dSYM cannot be read: \(error.description)" }
        for object in lookup.map.objects {
            guard let function = object.functions.first(where: { $0.size > 0 }) else { continue }
            let throughDSYM = dsym.lookup(fileAddress: function.address)?.frames
            let throughMap = lookup.lookup(fileAddress: function.address)?.frames
            guard throughDSYM != throughMap else { continue }
            func shown(_ frames: [SourceFrame]?) -> String {
                (frames ?? []).map { "\($0.function) \($0.file ?? "??"):\($0.line ?? 0)" }.joined(separator: " < ")
            }
            return
                "its dSYM answers 0x\(String(function.address, radix: 16)) (\(object.path)) as [\(shown(throughDSYM))], the debug map as [\(shown(throughMap))]"
        }
        return nil
    }

    /// A link at `root` + the recorded path (the file, or the archive of a member) to where the
    /// object was found; nil when placed, else why not.
    static func placeLink(recorded: String, found: String, under root: String) -> String? {
        let recordedFile = DebugMap.archiveMember(of: recorded)?.archive ?? recorded
        var target = DebugMap.archiveMember(of: found)?.archive ?? found
        if !target.hasPrefix("/") { target = (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(target) }
        let components = recordedFile.split(separator: "/", omittingEmptySubsequences: true)
        guard !components.isEmpty, !components.contains(where: { $0 == ".." || $0 == "." }) else {
            return "object file \(recorded): a recorded path with '.' or '..' components is not handed to dsymutil"
        }
        let link = root + "/" + components.joined(separator: "/")
        if let existing = try? FileManager.default.destinationOfSymbolicLink(atPath: link) {
            // Members of one archive share its link.
            return existing == target ? nil : "object file \(recorded): its recorded path is also another object's"
        }
        do {
            try FileManager.default.createDirectory(
                atPath: (link as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        } catch {
            return "object file \(recorded): cannot be laid out for dsymutil: \(error.localizedDescription)"
        }
        return nil
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}

/// Why a debug-mapped slice was not linked into a dSYM.
enum LinkFailure: Error, Equatable, CustomStringConvertible {
    /// Objects the map names that are missing, changed or unreadable.
    case objects([String])
    /// dsymutil could not run, failed, or warned about an object.
    case tool(String)
    /// What dsymutil made did not check out.
    case output(String)

    var description: String {
        switch self {
        case .objects(let problems):
            return problems.count == 1 ? problems[0] : "\(problems.count) object files cannot be used: \(problems.joined(separator: "; "))"
        case .tool(let reason): return reason
        case .output(let reason): return "the dSYM dsymutil linked is not used: \(reason)"
        }
    }
}
