import Foundation
import SymbolicateCore
import SymbolicateMachO

/// Where object files named by a debug map are looked for besides their recorded paths:
/// `--object-path-map OLD=NEW` prefixes (a CI machine's build folder is not the build
/// machine's), tried in order.
public struct ObjectPathMap: Sendable, Equatable {
    public struct Rule: Sendable, Equatable {
        public var old: String
        public var new: String

        public init(old: String, new: String) {
            self.old = old
            self.new = new
        }

        /// `OLD=NEW`, both non-empty; nil otherwise.
        public init?(argument: String) {
            guard let equals = argument.firstIndex(of: "=") else { return nil }
            let old = String(argument[..<equals])
            let new = String(argument[argument.index(after: equals)...])
            guard !old.isEmpty, !new.isEmpty else { return nil }
            self.init(old: old, new: new)
        }
    }

    public var rules: [Rule]

    public init(_ rules: [Rule] = []) { self.rules = rules }

    /// The paths to try for a recorded object path, in order: as recorded, under each
    /// matching prefix rule, then beside the binary (same file name). An archive member
    /// path (`lib.a(util.o)`) is moved by its archive's path.
    package func candidates(for recorded: String, besideBinaryIn folder: String) -> [String] {
        let member = DebugMap.archiveMember(of: recorded)
        let file = member?.archive ?? recorded
        var paths = [file]
        for rule in rules {
            let old = rule.old.hasSuffix("/") ? String(rule.old.dropLast()) : rule.old
            guard file == old || file.hasPrefix(old + "/") else { continue }
            paths.append(rule.new + file.dropFirst(old.count))
        }
        paths.append((folder as NSString).appendingPathComponent((file as NSString).lastPathComponent))
        var seen: Set<String> = []
        return paths.filter { seen.insert($0).inserted }.map { path in member.map { "\(path)(\($0.member))" } ?? path }
    }
}

/// Why an object file of a debug map was not used: named by the path the map records, so
/// a user knows which object to keep or rebuild. Its frames fall back to the binary's
/// symbol table, with this as the lookup's `dwarfError`.
package struct DebugMapProblem: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Kind: String, Sendable, Hashable {
        /// Not found at its recorded path, under a path map, or beside the binary.
        case missing
        /// Found, but changed since the link (its modification time is not the recorded one).
        case modified
        /// Found, but not a readable Mach-O object of the binary's architecture.
        case unreadable
    }

    package var kind: Kind
    /// The object as the debug map records it.
    package var object: String
    /// Where it was found (modified, unreadable), or the paths tried (missing).
    package var detail: String

    package var description: String {
        switch kind {
        case .missing: "object file \(object) named by the debug map is missing (tried \(detail))"
        case .modified: "object file \(object) changed since the binary was linked (\(detail)); not used"
        case .unreadable: "object file \(object) cannot be read (\(detail)); not used"
        }
    }

    var debugInfoError: DebugInfoError { DebugInfoError(path: object, message: description) }
}

/// A binary without a dSYM answered through its debug map: binary address → the map's
/// function (its range in the binary) → the same function in the object file → the object's
/// DWARF, read by a `DebugSession` like any dSYM; addresses in the answer are moved back
/// into the binary. Objects are opened on first use and checked against the map's
/// modification time; an object that is missing or changed is never read, and its
/// addresses get the binary's symbol table, carrying the problem as `dwarfError`.
package final class DebugMapLookup: DebugLookup, @unchecked Sendable {
    /// One function of the map: binary range and which object holds it.
    struct Placement {
        var start: UInt64
        var end: UInt64
        var object: Int
        var name: String
    }

    package let path: String
    package let architecture: Architecture
    package let debugID: DebugID?
    package let linkedAddress: UInt64
    package let map: DebugMap
    /// The binary's own symbol-table session: addresses outside the map, and the fallback.
    private let binary: DebugSession
    /// The binary's symbol table, naming the concrete frame as a dSYM's copy of it would.
    private let binarySymbols: MachODebugContainer
    private let symbolLock = NSLock()
    private let pathMap: ObjectPathMap
    private let placements: [Placement]
    /// The same placements per object (by map index), made once: every object opened needs
    /// its own, and regrouping all of them per open made a 2,000-object map 3x slower than its dSYM.
    fileprivate let placementsByObject: [[Placement]]
    private let lock = NSLock()
    /// Opened objects by map index: the session, or why none.
    private var objects: [Int: Result<ObjectSession, DebugMapProblem>] = [:]

    /// Nil when the slice has no debug map.
    package init?(slice: MachOSlice, pathMap: ObjectPathMap) throws(DebugInfoError) {
        // A symbol table too damaged to give a map opens as before, answering from symbols.
        guard let map = try? slice.debugMap() else { return nil }
        self.map = map
        binarySymbols = try MachODebugContainer(slice: slice)
        binary = try DebugSession(slice: slice)
        path = slice.path
        architecture = slice.architecture
        debugID = slice.debugID
        linkedAddress = binary.textVMAddress
        self.pathMap = pathMap
        var placements: [Placement] = []
        for (index, object) in map.objects.enumerated() {
            for function in object.functions where function.size > 0 {
                let (end, overflow) = function.address.addingReportingOverflow(function.size)
                guard !overflow else { continue }
                placements.append(Placement(start: function.address, end: end, object: index, name: function.name))
            }
        }
        placements.sort { $0.start < $1.start }
        self.placements = placements
        var byObject = [[Placement]](repeating: [], count: map.objects.count)
        for placement in placements { byObject[placement.object].append(placement) }
        placementsByObject = byObject
    }

    /// The map's objects answer from DWARF (an object may still turn out missing: its
    /// frames then come from the symbol table with the problem attached).
    package var hasDWARF: Bool { !placements.isEmpty }

    /// Why each unusable object of the map is not used, opening every object (tests; `audit` later).
    package func objectProblems() -> [DebugMapProblem] {
        (0..<map.objects.count).compactMap { index in
            if case .failure(let problem) = object(index) { return problem }
            return nil
        }
    }

    /// Where each object of the map (in map order) was found and checked — the path read,
    /// `lib.a(member.o)` for an archive member — or why it cannot be used; opens every object.
    /// `audit --collect` hands these paths to `dsymutil`, so it links exactly what answers here.
    package func objectFiles() -> [Result<String, DebugMapProblem>] {
        (0..<map.objects.count).map { index in object(index).map(\.path) }
    }

    /// Why the object holding `fileAddress` is not used, opening it if needed; nil when it
    /// is usable or no object of the map holds the address.
    package func problem(at fileAddress: UInt64) -> DebugMapProblem? {
        let index = placements.partitionPoint { $0.start > fileAddress } - 1
        guard index >= 0, placements[index].end > fileAddress else { return nil }
        if case .failure(let problem) = object(placements[index].object) { return problem }
        return nil
    }

    package func lookup(fileAddress: UInt64) -> LookupResult? {
        let index = placements.partitionPoint { $0.start > fileAddress } - 1
        guard index >= 0, placements[index].end > fileAddress else { return binary.lookup(fileAddress: fileAddress) }
        let placement = placements[index]
        switch object(placement.object) {
        case .failure(let problem):
            var result = binary.lookup(fileAddress: fileAddress) ?? LookupResult(frames: [], source: .symbolTable)
            result.dwarfError = problem.debugInfoError
            return result
        case .success(let object):
            guard let objectAddress = object.objectAddress(ofBinary: fileAddress, placement: placement) else {
                var result = binary.lookup(fileAddress: fileAddress) ?? LookupResult(frames: [], source: .symbolTable)
                result.dwarfError = DebugInfoError(
                    path: map.objects[placement.object].path,
                    message:
                        "the object file has no symbol \(placement.name) that the debug map places at 0x\(String(placement.start, radix: 16))"
                )
                return result
            }
            guard var result = object.session.lookup(fileAddress: objectAddress) else {
                return binary.lookup(fileAddress: fileAddress)
            }
            let delta = fileAddress &- objectAddress
            for frame in result.frames.indices { result.frames[frame].functionStart &+= delta }
            return result
        }
    }

    package func lookup(fileAddresses: [UInt64]) -> [LookupResult?] {
        fileAddresses.map { lookup(fileAddress: $0) }
    }

    private func object(_ index: Int) -> Result<ObjectSession, DebugMapProblem> {
        lock.lock()
        defer { lock.unlock() }
        if let opened = objects[index] { return opened }
        let result = ObjectSession.open(
            map.objects[index], objectIndex: index, lookup: self, pathMap: pathMap,
            binaryFolder: (path as NSString).deletingLastPathComponent)
        objects[index] = result
        return result
    }

    /// The binary's symbol-table answer for a binary address (an object's symbols are
    /// named as the binary names them, as a dSYM's symbol table does).
    fileprivate func binarySymbol(at address: UInt64) -> (address: UInt64, name: String, covers: Bool)? {
        symbolLock.lock()
        defer { symbolLock.unlock() }
        return binarySymbols.nearestSymbol(atOrBefore: address)
    }
}

/// One opened object: its DWARF session and where each of its mapped functions starts in
/// the object.
private final class ObjectSession: @unchecked Sendable {
    let session: DebugSession
    /// Object start of each mapped function, by name.
    let objectStarts: [String: UInt64]
    /// Where the object was found (`lib.a(member.o)` for an archive member).
    let path: String

    init(session: DebugSession, objectStarts: [String: UInt64], path: String) {
        self.session = session
        self.objectStarts = objectStarts
        self.path = path
    }

    func objectAddress(ofBinary address: UInt64, placement: DebugMapLookup.Placement) -> UInt64? {
        guard let start = objectStarts[placement.name] else { return nil }
        return start &+ (address &- placement.start)
    }

    static func open(
        _ object: DebugMap.Object, objectIndex: Int, lookup: DebugMapLookup, pathMap: ObjectPathMap, binaryFolder: String
    ) -> Result<ObjectSession, DebugMapProblem> {
        let candidates = pathMap.candidates(for: object.path, besideBinaryIn: binaryFolder)
        for candidate in candidates {
            let member = DebugMap.archiveMember(of: candidate)
            let file = member?.archive ?? candidate
            guard FileManager.default.fileExists(atPath: file) else { continue }
            return openFound(object, at: candidate, file: file, member: member?.member, objectIndex: objectIndex, lookup: lookup)
        }
        return .failure(DebugMapProblem(kind: .missing, object: object.path, detail: candidates.joined(separator: ", ")))
    }

    private static func openFound(
        _ object: DebugMap.Object, at candidate: String, file: String, member: String?, objectIndex: Int, lookup: DebugMapLookup
    ) -> Result<ObjectSession, DebugMapProblem> {
        func problem(_ kind: DebugMapProblem.Kind, _ detail: String) -> Result<ObjectSession, DebugMapProblem> {
            .failure(DebugMapProblem(kind: kind, object: object.path, detail: detail))
        }
        do {
            return try openChecked(object, at: candidate, file: file, member: member, objectIndex: objectIndex, lookup: lookup)
        } catch {
            return problem(.unreadable, error.description)
        }
    }

    /// Opens a found object after checking it is the one the binary was linked from.
    private static func openChecked(
        _ object: DebugMap.Object, at candidate: String, file: String, member: String?, objectIndex: Int, lookup: DebugMapLookup
    ) throws(DebugInfoError) -> Result<ObjectSession, DebugMapProblem> {
        func problem(_ kind: DebugMapProblem.Kind, _ detail: String) -> Result<ObjectSession, DebugMapProblem> {
            .failure(DebugMapProblem(kind: kind, object: object.path, detail: detail))
        }
        func machO<T>(_ body: () throws(MachOError) -> T) throws(DebugInfoError) -> T {
            do { return try body() } catch { throw DebugInfoError(error) }
        }
        let mapping = try machO { () throws(MachOError) in try MappedFile(path: file) }
        let slice: MachOSlice
        let time: UInt64
        if let member {
            let members = try machO { () throws(MachOError) in try ArArchive.members(of: mapping) }
            guard let found = members.last(where: { $0.name == member }) else {
                return problem(.missing, "\(file) has no member \(member)")
            }
            slice = try machO { () throws(MachOError) in try MachOSlice.archiveMember(found, of: mapping) }
            time = found.modificationTime
        } else {
            let slices = try machO { () throws(MachOError) in try MachOFile(mapping: mapping).slices }
            guard let match = slices.first(where: { $0.architecture == lookup.architecture }) ?? (slices.count == 1 ? slices.first : nil)
            else {
                return problem(.unreadable, "\(candidate) has no \(lookup.architecture.name) slice")
            }
            slice = match
            time = ModificationTime.seconds(ofFile: file) ?? 0
        }
        // A recorded time of 0 means the linker kept none (ZERO_AR_DATE): nothing to check.
        if object.modificationTime != 0, time != object.modificationTime {
            return problem(.modified, "\(candidate): modified \(time), the debug map records \(object.modificationTime)")
        }
        guard slice.architecture == lookup.architecture else {
            return problem(.unreadable, "\(candidate) is \(slice.architecture.name), the binary \(lookup.architecture.name)")
        }
        let starts = try machO { () throws(MachOError) in try slice.definedSymbolAddresses() }
        let placements = lookup.placementsByObject[objectIndex]
        let container = DebugMapObjectContainer(
            object: try MachODebugContainer(slice: slice), path: candidate, lookup: lookup,
            placements: placements.compactMap { placement in
                starts[placement.name].map { (objectStart: $0, placement: placement) }
            })
        let session = try DebugSession(container: container)
        return .success(ObjectSession(session: session, objectStarts: starts, path: candidate))
    }
}

/// An object file's DWARF as a `DebugSession` reads it, with the binary's symbol table in
/// place of the object's: the concrete frame is named by the symbol covering the address in
/// the binary, exactly as from the dSYM `dsymutil` would link (which copies that table).
final class DebugMapObjectContainer: DebugContainer {
    private let object: MachODebugContainer
    let path: String
    private unowned let lookup: DebugMapLookup
    /// The object's mapped functions, by object start.
    private let placements: [(objectStart: UInt64, placement: DebugMapLookup.Placement)]

    init(
        object: MachODebugContainer, path: String, lookup: DebugMapLookup,
        placements: [(objectStart: UInt64, placement: DebugMapLookup.Placement)]
    ) {
        self.object = object
        self.path = path
        self.lookup = lookup
        self.placements = placements.sorted { $0.objectStart < $1.objectStart }
    }

    var architecture: Architecture { object.architecture }
    var debugID: DebugID? { object.debugID }
    var linkedAddress: UInt64 { object.linkedAddress }
    var pointerSize: Int { object.pointerSize }
    var hasDWARF: Bool { object.hasDWARF }
    func releasePages(_ bytes: UnsafeRawBufferPointer) { object.releasePages(bytes) }
    func releaseResidentPages() { object.releaseResidentPages() }
    func dwarfSection(_ name: String) -> UnsafeRawBufferPointer { object.dwarfSection(name) }
    func servedSections(patchedAbbrev: inout OwnedBytes?) throws(DebugInfoError) -> [ServedSection] {
        try object.servedSections(patchedAbbrev: &patchedAbbrev)
    }
    func sourceName(ofSymbol stored: String) -> String { object.sourceName(ofSymbol: stored) }

    /// The binary's symbol at the binary address of `address`, moved back into the object's
    /// addresses by the same distance; nil outside the object's mapped functions.
    func nearestSymbol(atOrBefore address: UInt64) -> (address: UInt64, name: String, covers: Bool)? {
        let index = placements.partitionPoint { $0.objectStart > address } - 1
        guard index >= 0 else { return nil }
        let (objectStart, placement) = placements[index]
        let offset = address &- objectStart
        guard offset < placement.end &- placement.start else { return nil }
        let delta = placement.start &- objectStart
        guard let symbol = lookup.binarySymbol(at: address &+ delta) else { return nil }
        return (symbol.address &- delta, symbol.name, symbol.covers)
    }
}

/// A file's modification time in whole seconds since 1970, as a linker records it.
enum ModificationTime {
    static func seconds(ofFile path: String) -> UInt64? {
        guard let date = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date else { return nil }
        let seconds = date.timeIntervalSince1970.rounded(.down)
        return seconds >= 0 ? UInt64(seconds) : nil
    }
}
