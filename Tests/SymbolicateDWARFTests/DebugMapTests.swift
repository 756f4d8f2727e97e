import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateMachO
import SymbolicateTestSupport
import Testing

/// A binary without a dSYM answered through its debug map (Fixtures/debugmap): the same
/// answers as the dSYM dsymutil-19 links from that map, and both as llvm-symbolizer-19 gives
/// on the dSYM; moved, touched and missing objects.
@Suite struct DebugMapTests {
    static let dwarfdump = ExternalTool.find("llvm-dwarfdump-19")

    static func slice(_ arch: String, of path: String = DebugMapFixture.binary) throws -> MachOSlice {
        try #require(try MachOFile(path: path).slices.first { $0.architecture == Architecture(arch) })
    }

    static func mapped(_ arch: String, objects: URL, binary: String = DebugMapFixture.binary) throws -> DebugMapLookup {
        let rule = ObjectPathMap.Rule(old: DebugMapFixture.recordedObjects, new: objects.path)
        let lookup = try slice(arch, of: binary).open(objectPathMap: ObjectPathMap([rule]))
        return try #require(lookup as? DebugMapLookup, "a binary with a debug map and no DWARF opens through the map")
    }

    /// Every function address range of the map's code: start, middle and last byte.
    static func functionAddresses(_ lookup: DebugMapLookup, inObject suffix: String) -> [UInt64] {
        lookup.map.objects.filter { $0.path.hasSuffix(suffix) }.flatMap(\.functions).flatMap {
            [$0.address, $0.address + $0.size / 2, $0.address + $0.size - 1]
        }
    }

    @Test(arguments: DebugMapFixture.architectures)
    func everyLineRowAnswersAsTheDSYMAndLLVMSymbolizer(_ arch: String) throws {
        guard let dwarfdump = Self.dwarfdump, let symbolizer = DifferentialTests.symbolizer, let demangler = DifferentialTests.swiftDemangle
        else {
            print("DebugMapTests: skipped: llvm-dwarfdump-19, llvm-symbolizer-19 or swift-demangle not found")
            return
        }
        let folder = try TestPaths.temporaryDirectory("debugmap")
        defer { try? FileManager.default.removeItem(at: folder) }
        let lookup = try Self.mapped(arch, objects: DebugMapFixture.layOutObjects(in: folder))
        #expect(lookup.objectProblems().isEmpty)
        let dsym = DifferentialTests.Slice(dwarfFile: DebugMapFixture.dsymDWARF, arch: arch)
        let addresses = try DifferentialTests.rowAddresses(dsym, dwarfdump: dwarfdump)
        try #require(addresses.count > 50)
        let reference = try FixtureDebugFiles.open(DebugMapFixture.dsymDWARF, architecture: Architecture(arch))
        let oracle = try DifferentialTests.oracle(dsym, addresses, symbolizer: symbolizer, demangler: demangler)
        try #require(oracle.count == addresses.count)
        var differences: [String] = []
        for (index, address) in addresses.enumerated() {
            let ours = lookup.lookup(fileAddress: address)
            let theirs = reference.lookup(fileAddress: address)
            // The whole answer: every frame's name, raw name, file, line, column, start, inlining and source.
            if ours != theirs || ours?.source != .dwarf {
                differences.append("0x\(String(address, radix: 16)): map \(String(describing: ours))\n  dSYM \(String(describing: theirs))")
            }
            let chain = (ours?.frames ?? []).map { "\($0.function) | \($0.file ?? "??"):\($0.line ?? 0)" }
            if chain != oracle[index] {
                differences.append("0x\(String(address, radix: 16)): map \(chain)\n  llvm-symbolizer \(oracle[index])")
            }
        }
        #expect(differences.isEmpty, "\(differences.count) differences:\n\(differences.prefix(8).joined(separator: "\n"))")
        let inlined = addresses.filter { (lookup.lookup(fileAddress: $0)?.frames.count ?? 0) > 1 }
        #expect(inlined.count > 5, "the fixture has inline chains")
        print("DebugMapTests: \(arch): \(addresses.count) line rows equal to the dSYM, \(inlined.count) with inline chains")
    }

    /// The map as read equals the one dsymutil-19 prints (objects, times, every function).
    @Test(arguments: DebugMapFixture.architectures)
    func mapEqualsDsymutilDump(_ arch: String) throws {
        guard let dsymutil = ExternalTool.find("dsymutil-19") else { return }
        // dsymutil reads the objects too: they go under a root it prepends to the recorded paths.
        let root = try TestPaths.temporaryDirectory("debugmap-dsymutil")
        defer { try? FileManager.default.removeItem(at: root) }
        let recordedParent = root.appendingPathComponent((DebugMapFixture.recordedObjects as NSString).deletingLastPathComponent)
        try FileManager.default.createDirectory(at: recordedParent, withIntermediateDirectories: true)
        try DebugMapFixture.layOutObjects(in: recordedParent)
        let dump = try ExternalTool.run(
            dsymutil, ["-dump-debug-map", "-arch", arch, "--oso-prepend-path=\(root.path)", DebugMapFixture.binary])
        var objects: [(path: String, time: UInt64, functions: Set<String>)] = []
        for line in dump.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("- filename:") {
                let path = line.dropFirst("- filename:".count).trimmingCharacters(in: CharacterSet(charactersIn: " '"))
                // dsymutil prints the path it opened: the recorded one under the prepended root.
                objects.append((path.hasPrefix(root.path) ? String(path.dropFirst(root.path.count)) : path, 0, []))
            } else if line.hasPrefix("timestamp:") {
                objects[objects.count - 1].time = UInt64(line.dropFirst("timestamp:".count).trimmingCharacters(in: .whitespaces)) ?? 0
            } else if line.hasPrefix("- { sym:"), let size = line.range(of: "size: 0x"), !line[size.upperBound...].hasPrefix("0 }") {
                let sym = line.split(separator: ",")[0].dropFirst("- { sym: ".count).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
                let binAddr = line.components(separatedBy: "binAddr: 0x")[1].prefix { $0.isHexDigit }
                let sizeText = line[size.upperBound...].prefix { $0.isHexDigit }
                objects[objects.count - 1].functions.insert("\(sym) \(binAddr.lowercased()) \(sizeText.lowercased())")
            }
        }
        let map = try #require(try Self.slice(arch).debugMap())
        #expect(map.objects.map(\.path) == objects.map(\.path))
        #expect(map.objects.count == 5, "three objects and two archive members")
        for (ours, theirs) in zip(map.objects, objects) {
            #expect(ours.modificationTime == theirs.time)
            #expect(ours.modificationTime == 1_700_000_000)
            let functions = Set(ours.functions.map { "\($0.name) \(String($0.address, radix: 16)) \(String($0.size, radix: 16))" })
            #expect(functions == theirs.functions, "\(ours.path)")
        }
    }

    /// The objects moved to another folder answer through `--object-path-map`; without the
    /// map (the recorded folder is gone) they are missing, named, and the symbol table answers.
    @Test func movedObjectsAnswerThroughThePathMap() throws {
        let folder = try TestPaths.temporaryDirectory("debugmap")
        defer { try? FileManager.default.removeItem(at: folder) }
        let objects = try DebugMapFixture.layOutObjects(in: folder)
        let mapped = try Self.mapped("arm64", objects: objects)
        let address = try #require(Self.functionAddresses(mapped, inObject: "main.o").first)
        #expect(mapped.lookup(fileAddress: address)?.frames.last?.file == "/src/DebugMapApp/main.c")

        try #require(!FileManager.default.fileExists(atPath: DebugMapFixture.recordedObjects))
        let unmapped = try #require(try Self.slice("arm64").open(objectPathMap: ObjectPathMap()) as? DebugMapLookup)
        let answer = try #require(unmapped.lookup(fileAddress: address))
        #expect(answer.source == .symbolTable)
        let first = try #require(unmapped.map.objects.first { $0.path.hasSuffix("main.o") }?.functions.first)
        #expect(answer.frames.first?.function == String(first.name.dropFirst()))
        #expect(answer.dwarfError?.path == DebugMapFixture.recordedObjects + "/arm64/main.o")
        #expect(answer.dwarfError?.message.contains("missing") == true)
    }

    /// Objects copied beside the binary are found there, archive included.
    @Test func objectsBesideTheBinaryAreFound() throws {
        let folder = try TestPaths.temporaryDirectory("debugmap")
        defer { try? FileManager.default.removeItem(at: folder) }
        let objects = try DebugMapFixture.layOutObjects(in: folder)
        let beside = folder.appendingPathComponent("app")
        try FileManager.default.moveItem(at: objects.appendingPathComponent("x86_64"), to: beside)
        try FileManager.default.copyItem(atPath: DebugMapFixture.binary, toPath: beside.appendingPathComponent("DebugMapApp").path)
        let lookup = try #require(
            try Self.slice("x86_64", of: beside.appendingPathComponent("DebugMapApp").path).open(objectPathMap: ObjectPathMap())
                as? DebugMapLookup)
        #expect(lookup.objectProblems().isEmpty)
        for suffix in ["main.o", "(MathUtil.o)", "(TextUtil.o)"] {
            let address = try #require(Self.functionAddresses(lookup, inObject: suffix).first)
            #expect(lookup.lookup(fileAddress: address)?.source == .dwarf, "\(suffix)")
        }
    }

    /// A touched object (another modification time than the map's) is never read: its
    /// frames come from the symbol table, marked with the problem naming the object.
    @Test func touchedObjectIsNamedAndNotUsed() throws {
        let folder = try TestPaths.temporaryDirectory("debugmap")
        defer { try? FileManager.default.removeItem(at: folder) }
        let objects = try DebugMapFixture.layOutObjects(in: folder)
        try DebugMapFixture.pin(
            objects.appendingPathComponent("arm64/Shapes.o"), to: DebugMapFixture.modificationTime.addingTimeInterval(60))
        let lookup = try Self.mapped("arm64", objects: objects)
        let problems = lookup.objectProblems()
        #expect(problems.map(\.kind) == [.modified])
        #expect(problems.first?.object == DebugMapFixture.recordedObjects + "/arm64/Shapes.o")
        for address in Self.functionAddresses(lookup, inObject: "Shapes.o") {
            let answer = try #require(lookup.lookup(fileAddress: address))
            #expect(answer.source == .symbolTable)
            #expect(answer.frames.allSatisfy { $0.file == nil && $0.nameSource == .symbolTable })
            #expect(answer.dwarfError?.path == DebugMapFixture.recordedObjects + "/arm64/Shapes.o")
            #expect(answer.dwarfError?.message.contains("changed since the binary was linked") == true)
        }
        for address in Self.functionAddresses(lookup, inObject: "Greeter.o") {
            #expect(lookup.lookup(fileAddress: address)?.source == .dwarf)
        }
    }

    /// A missing static library: both members are named (`lib.a(member.o)`), the rest answers.
    @Test func missingArchiveMembersAreNamed() throws {
        let folder = try TestPaths.temporaryDirectory("debugmap")
        defer { try? FileManager.default.removeItem(at: folder) }
        let objects = try DebugMapFixture.layOutObjects(in: folder)
        try FileManager.default.removeItem(at: objects.appendingPathComponent("arm64/libDMUtil.a"))
        let lookup = try Self.mapped("arm64", objects: objects)
        let problems = lookup.objectProblems()
        #expect(problems.map(\.kind) == [.missing, .missing])
        #expect(
            problems.map(\.object) == ["MathUtil.o", "TextUtil.o"].map { DebugMapFixture.recordedObjects + "/arm64/libDMUtil.a(\($0))" })
        let address = try #require(Self.functionAddresses(lookup, inObject: "(MathUtil.o)").first)
        let answer = try #require(lookup.lookup(fileAddress: address))
        #expect(answer.source == .symbolTable && answer.frames.first?.function == "dm_math_checksum")
        #expect(answer.dwarfError?.description.contains("libDMUtil.a(MathUtil.o)") == true)
        let kept = try #require(Self.functionAddresses(lookup, inObject: "main.o").first)
        #expect(lookup.lookup(fileAddress: kept)?.source == .dwarf)
    }

    /// BSD and GNU archives (long names in both layouts) list every member with its bytes.
    @Test func archivesOfBothLayoutsListTheirMembers() throws {
        guard let ar = ExternalTool.find("llvm-ar-19") else { return }
        let folder = try TestPaths.temporaryDirectory("debugmap-ar")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = DebugMapFixture.root.appendingPathComponent("obj/arm64")
        let names = ["main.o", "a-member-name-longer-than-sixteen.o", "Greeter.o"]
        for (index, name) in names.enumerated() {
            try FileManager.default.copyItem(
                at: source.appendingPathComponent(["main.o", "Shapes.o", "Greeter.o"][index]), to: folder.appendingPathComponent(name))
        }
        for format in ["bsd", "gnu", "darwin"] {
            let archive = folder.appendingPathComponent("lib-\(format).a").path
            let result = try ExternalTool.result(ar, ["rcs", "--format=\(format)", archive] + names, currentDirectory: folder)
            try #require(result.status == 0, "\(result.stderr)")
            let mapping = try MappedFile(path: archive)
            let members = try ArArchive.members(of: mapping)
            #expect(members.map(\.name) == names, "\(format)")
            for member in members {
                let expected = try Data(contentsOf: folder.appendingPathComponent(member.name))
                let bytes = try #require(mapping.bytes(at: member.offset, count: member.size))
                #expect(Data(bytes) == expected, "\(format) \(member.name)")
                #expect(try MachOSlice.archiveMember(member, of: mapping).architecture == Architecture("arm64"))
            }
        }
    }

    /// A damaged archive is a typed error naming the file and the header's offset.
    @Test func damagedArchiveIsATypedError() throws {
        let folder = try TestPaths.temporaryDirectory("debugmap-ar")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bad.a").path
        var bytes = Array("!<arch>\nmain.o/         0           0     0     644     99999999  `\n".utf8)
        bytes += [UInt8](repeating: 0, count: 16)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: MachOError.self) { try ArArchive.members(of: MappedFile(path: path)) }
        do {
            _ = try ArArchive.members(of: MappedFile(path: path))
        } catch {
            #expect(error.path == path && error.offset == 8 + 48)
        }
    }
}
