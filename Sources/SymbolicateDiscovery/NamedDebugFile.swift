import Foundation
import SymbolicateCore
import SymbolicateDWARF

/// The debug file a user named for one image (`atos -o`), opened the way a report's debug
/// files are: `DebugFileDiscovery` finds the files (a `.dSYM` bundle's DWARF files, or the
/// file and the `.gnu_debuglink` file it names), `DebugFileIndex.readHeaders` reads their
/// builds, and the chosen build opens through `DebugObject.open()`.
///
/// Where it differs from the index, it is because the user named the file rather than a
/// report naming an image by identity:
/// - a build without a UUID or build ID is kept: there is nothing to match, the file was named;
/// - one build is chosen: the `--uuid` one, else the `--arch` one (`Architecture.match`),
///   else the only one of the first file; a universal file without either is an error
///   asking for `--arch`.
/// As for a report's images, a build without DWARF gives way to one of the same identity
/// that has it (a stripped ELF binary's `.gnu_debuglink` file).
package struct NamedDebugFile: Sendable {
    /// The path as the user gave it.
    package let path: String
    /// Every build found, file by file in order (a bundle's files sorted, a companion after
    /// the file naming it), slices in file order.
    package let builds: [any DebugObject]
    /// Files met and skipped while other builds were read (a FIFO in the bundle, a damaged
    /// file beside good ones): worth a warning, not a stop.
    package let problems: [DebugFileProblem]
    /// Why no build was read, when none was: the first file's own error.
    private let failure: DebugInfoError?

    /// Finds and reads the builds `path` holds.
    /// - Throws: when `path` is not there, or is a folder that is not a `.dSYM` bundle.
    package init(path: String) throws(DebugInfoError) {
        self.path = path
        var discovery = DebugFileDiscovery()
        try discovery.add(namedFile: path)
        var builds: [any DebugObject] = []
        var failures: [DebugInfoError] = []
        for result in DebugFileIndex.readHeaders(of: discovery.found) {
            switch result {
            case .success(let objects): builds += objects
            case .failure(let error): failures.append(error)
            }
        }
        self.builds = builds
        var problems = discovery.problems.map(DebugFileProblem.discovery)
        if builds.isEmpty {
            failure = failures.first
        } else {
            failure = nil
            problems += failures.map(DebugFileProblem.unreadable)
        }
        self.problems = problems
    }

    /// Opens the build `choose` picks; when it has no DWARF, a build of the same identity
    /// that has DWARF (its `.gnu_debuglink` file) answers instead, as for a report's images.
    package func open(
        id: DebugID? = nil, architecture: Architecture? = nil, objectPathMap: ObjectPathMap = ObjectPathMap()
    ) throws(DebugInfoError) -> any DebugLookup {
        let chosen = try choose(id: id, architecture: architecture)
        let session = try chosen.open(objectPathMap: objectPathMap)
        guard !session.hasDWARF, let identity = chosen.debugID else { return session }
        for other in builds where other.path != chosen.path && other.debugID == identity {
            if let better = try? other.open(), better.hasDWARF { return better }
        }
        return session
    }

    /// The build for an image: by identity when given (a mismatch is an error naming what
    /// the file holds, never a silent fallback), else by architecture, else the only one.
    package func choose(id: DebugID? = nil, architecture: Architecture? = nil) throws(DebugInfoError) -> any DebugObject {
        guard !builds.isEmpty else {
            throw failure ?? DebugInfoError(path: path, message: "the .dSYM bundle has no DWARF file in \(DSYMBundle.dwarfFolder)")
        }
        var files: [String] = []
        for build in builds where files.last != build.path { files.append(build.path) }
        for file in files {
            let slices = builds.filter { $0.path == file }
            if let id {
                // A UUID names exactly one build of one slice: it wins over the architecture.
                if let match = slices.first(where: { $0.debugID == id }) { return match }
            } else if let architecture {
                if let index = architecture.match(among: slices.map(\.architecture)) { return slices[index] }
            } else if slices.count == 1 {
                return slices[0]
            } else {
                let names = slices.map(\.architecture.name).joined(separator: ", ")
                throw DebugInfoError(path: file, message: "universal file with \(names): choose one with --arch")
            }
        }
        throw mismatch(id: id, architecture: architecture)
    }

    /// Why no build is the one asked for, naming what the file holds.
    private func mismatch(id: DebugID?, architecture: Architecture?) -> DebugInfoError {
        if let elf = builds.first as? ELFDebugObject, elf.path == path {
            guard let id else {
                return DebugInfoError(
                    path: path,
                    message: "architecture mismatch: asked for \(architecture?.name ?? "?"), this ELF file is \(elf.architecture)")
            }
            return DebugInfoError(
                path: path,
                message:
                    "build ID mismatch: the report's image has \(id.hexString), this file has \(elf.debugID?.hexString ?? "no build ID")"
            )
        }
        let seen = builds.map { "\($0.architecture) \($0.debugID?.description ?? "no UUID")" }.joined(separator: "; ")
        let wanted = id.map { "UUID \($0)" } ?? "architecture \(architecture?.name ?? "?")"
        return DebugInfoError(path: path, message: "no slice with \(wanted) (found: \(seen))")
    }
}
