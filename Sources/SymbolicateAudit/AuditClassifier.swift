import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateDiscovery
import SymbolicateMachO

/// Decides each slice's `DebugInfoStatus`, in this order (the first that holds wins):
///
/// 1. A debug file with the slice's UUID and DWARF: `dwarf`, or `renamed` when its file name
///    is not the binary's, or `bitcodeHidden` when its symbol names are `__hidden#…`
///    (complete only with the build's `<UUID>.bcsymbolmap`).
/// 2. The slice has no LC_UUID: `noUUID`.
/// 3. Apple's code: `apple` (see `isApple`); Xcode's Debug stub executable: `debugStub`.
/// 3b. A debug map with at least one of its object files here: `debugMap`, with the objects
///     that cannot answer.
/// 4. A debug file of the same name with another UUID: `otherBuild`, the nearest one (same
///    architecture first).
/// 5. Names without lines: a debug file with the UUID but no DWARF, or the binary itself
///    when it kept local symbols: `symbolTableOnly`.
/// 6. Otherwise `stripped`.
package struct AuditClassifier {
    let index: DebugFileIndex
    let symbolMaps: [DebugID: String]
    /// Debug files fetched from symbol servers for UUIDs no local file has (nil: none asked).
    var remote: (any RemoteDebugFiles)?
    /// Where a debug map's object files may have moved (`--object-path-map`).
    var objectPathMap = ObjectPathMap()

    /// Apple's code needs no debug file from the team. The rule, kept narrow on purpose: a
    /// dylib whose file name is `libswift*.dylib` and whose install name is that same file
    /// under `@rpath/` or `/usr/lib/swift/` — the Swift runtime copies Xcode embeds in
    /// `Frameworks/` (and an `.ipa`'s `SwiftSupport/`) for apps that run on iOS < 12.2 or
    /// macOS < 10.14.4. The code signature is not used: Xcode re-signs those copies with the
    /// team's identity, so a team identifier proves nothing either way, and an ad hoc
    /// signature (no team) is what every locally linked binary has.
    ///
    /// Also Xcode's `__preview.dylib` (install name `@rpath/__preview.dylib`), which a Debug
    /// build since Xcode 16 places beside the stub executable: the Previews interposer Xcode
    /// builds from its own code, none of the team's.
    package static func isApple(name: String, installName: String?) -> Bool {
        guard let installName else { return false }
        if name == previewDylib { return installName == "@rpath/\(previewDylib)" }
        guard name.hasPrefix("libswift"), name.hasSuffix(".dylib") else { return false }
        return installName == "@rpath/\(name)" || installName == "/usr/lib/swift/\(name)"
    }

    package static let previewDylib = "__preview.dylib"

    func status(of slice: MachOSlice, binaryName: String, installName: String?) -> (DebugInfoStatus, debugFile: DebugFileEntry?) {
        guard let id = slice.debugID else { return (.noUUID, nil) }
        var candidates = index.entries(id: id, preferring: slice.architecture)
        if !candidates.contains(where: { hasDWARF($0) }), let remote {
            let wanted = WantedDebugFile(id: id, architecture: slice.architecture, name: binaryName, isAppImage: true)
            candidates += remote.entries(for: wanted)
        }
        if let entry = candidates.first(where: { hasDWARF($0) }), let debug = entry.object as? MachOSlice {
            let units = (try? debug.compileUnitCount()) ?? 0
            if (try? debug.stringTableContains("__hidden#")) == true {
                return (.bitcodeHidden(compileUnits: units, symbolMap: symbolMaps[id]), entry)
            }
            let debugName = (entry.path as NSString).lastPathComponent
            // Only a bundle's DWARF file carries the image name (a store keeps `…/debug`).
            if debugName != binaryName, DSYMBundle.holdsDWARFFile(entry.path) {
                return (.renamed(compileUnits: units, debugFileName: debugName), entry)
            }
            return (.dwarf(compileUnits: units), entry)
        }
        if Self.isApple(name: binaryName, installName: installName) { return (.apple, nil) }
        if let dylib = slice.debugDylibStubTarget() { return (.debugStub(dylib: dylib), nil) }
        if let status = debugMapStatus(of: slice) { return (status, nil) }
        if let nearest = nearestOtherBuild(named: binaryName, architecture: slice.architecture, excluding: id) {
            return (.otherBuild(nearest: nearest.debugID, nearestArchitecture: nearest.architecture, nearestPath: nearest.displayPath), nil)
        }
        // A debug file without DWARF (MH_DSYM) that still names functions; a copy of the
        // binary itself met among the debug files counts as the binary.
        if let entry = candidates.first(where: { entry in
            guard let debug = entry.object as? MachOSlice, debug.fileType == AuditBuild.dsymFileType else { return false }
            guard let counts = try? debug.definedSymbolCounts() else { return false }
            return counts.local + counts.external > 0
        }) {
            return (.symbolTableOnly(.debugFile), entry)
        }
        if ((try? slice.definedSymbolCounts().local) ?? 0) > 0 { return (.symbolTableOnly(.binary), nil) }
        return (.stripped, nil)
    }

    /// The slice's debug map, every object it names opened and checked as a lookup would
    /// (recorded path, `--object-path-map`, beside the binary; modification time): nil when the
    /// slice has no map, or when no object it names is here — then nothing of the map answers
    /// on this machine and the binary is what its symbol table makes it (an unstripped release
    /// binary keeps the map of a build machine long gone).
    private func debugMapStatus(of slice: MachOSlice) -> DebugInfoStatus? {
        guard let lookup = try? DebugMapLookup(slice: slice, pathMap: objectPathMap), !lookup.map.objects.isEmpty else { return nil }
        let unusable = lookup.objectProblems().map { problem in
            UnusableObject(
                object: problem.object,
                reason: {
                    switch problem.kind {
                    case .missing: .missing
                    case .modified: .modified
                    case .unreadable: .unreadable
                    }
                }())
        }
        guard unusable.count < lookup.map.objects.count else { return nil }
        return .debugMap(objects: lookup.map.objects.count, unusable: unusable)
    }

    private func hasDWARF(_ entry: DebugFileEntry) -> Bool {
        guard let slice = entry.object as? MachOSlice else { return false }
        return slice.section(segment: "__DWARF", name: "__debug_info").map { $0.size > 0 } ?? false
    }

    /// A debug file named like the binary (the DWARF file inside `Name.framework.dSYM`),
    /// with another UUID: the same architecture first, then in index order.
    private func nearestOtherBuild(named name: String, architecture: Architecture, excluding id: DebugID) -> DebugFileEntry? {
        let others = index.entries(imageName: name).filter { $0.debugID != id && DSYMBundle.holdsDWARFFile($0.path) }
        return others.first { $0.architecture == architecture } ?? others.first
    }
}
