import CLibDwarf

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The only file that touches libdwarf's C pointers. Everything it hands out is plain Swift
// values; the rest of the module never sees a Dwarf_* type.
//
// libdwarf is not thread-safe: a `LibDwarf` instance must be used by one thread at a time
// (`DWARFUnits` serialises with its lock).

/// The libdwarf session over one Mach-O slice's DWARF sections.
final class LibDwarf {
    let path: String
    private var debug: Dwarf_Debug?
    private let server: SectionServer
    /// The shim's object (section source + libdwarf's access interface); it must outlive
    /// `debug`, so it is allocated here and freed in deinit.
    private let object: UnsafeMutablePointer<symbolicate_object>

    init(path: String, sections: [ServedSection], pointerSize: Int) throws(DebugInfoError) {
        self.path = path
        server = SectionServer(sections: sections, pointerSize: UInt8(pointerSize))
        object = .allocate(capacity: 1)
        object.initialize(to: symbolicate_object())
        object.pointee.source = symbolicate_section_source(
            context: Unmanaged.passUnretained(server).toOpaque(),
            section_count: Dwarf_Unsigned(server.sections.count),
            pointer_size: server.pointerSize,
            // libdwarf 0.x checks every section against the file size; the sections we serve
            // are what it reads, so their total is the honest bound.
            file_size: Dwarf_Unsigned(server.sections.reduce(0) { $0 + $1.size }),
            section_info: { context, index, name, type, size, _ in
                SectionServer.from(context).info(index, name, type, size)
            },
            load_section: { context, index, data, _ in
                SectionServer.from(context).load(index, data)
            }
        )
        var dbg: Dwarf_Debug?
        var error: Dwarf_Error?
        // Without the global allocation-tracking tree every DIE and line allocation is
        // cheaper (measured: it is a large share of lookup time). We free what we allocate.
        _ = dwarf_set_de_alloc_flag(0)
        let result = symbolicate_object_init(object, &dbg, &error)
        if result != DW_DLV_OK {
            let message = result == DW_DLV_NO_ENTRY ? "no DWARF debug information" : Self.message(nil, error)
            // Every stored property is set, so deinit runs for this instance and frees `object`
            // (freeing it here too was a double free, found by the DWARF fuzzer).
            throw DebugInfoError(path: path, message: message)
        }
        debug = dbg
    }

    deinit {
        if let debug {
            // dwarf_object_init_b pairs with dwarf_object_finish: dwarf_finish would also run
            // libdwarf's own file-format destructors on our object and free foreign memory.
            symbolicate_object_finish(debug)
        }
        object.deallocate()
    }

    /// The libdwarf the headers describe (nil for 20210528, whose headers name no version) and
    /// the one loaded at run time; they must agree (a test checks it).
    static var versions: (headers: String?, library: String) {
        (symbolicate_libdwarf_header_version().map { String(cString: $0) }, String(cString: dwarf_package_version()))
    }

    // MARK: Errors

    private static func message(_ dbg: Dwarf_Debug?, _ error: Dwarf_Error?) -> String {
        guard let error else { return "libdwarf error" }
        let text = dwarf_errmsg(error).map { String(cString: $0) } ?? "libdwarf error \(dwarf_errno(error))"
        dwarf_dealloc_error(dbg, error)
        return text
    }

    private func fail(_ error: Dwarf_Error?, _ context: String, offset: UInt64? = nil) -> DebugInfoError {
        DebugInfoError(path: path, offset: offset, message: "\(context): \(Self.message(debug, error))")
    }

    // MARK: Units

    /// Header and DIE offset of every compile unit in `.debug_info`, reading unit headers only.
    /// `walked` gets the offset of the next unit header after each unit.
    func unitDieOffsets(walked: (UInt64) -> Void = { _ in }) throws(DebugInfoError) -> [(header: UInt64, die: UInt64)] {
        var offsets: [(header: UInt64, die: UInt64)] = []
        var header: UInt64 = 0
        var error: Dwarf_Error?
        while true {
            var next: Dwarf_Unsigned = 0
            var die: Dwarf_Die?
            let result = symbolicate_next_unit(debug, &die, &next, &error)
            if result == DW_DLV_NO_ENTRY { break }
            guard result == DW_DLV_OK, let die else {
                throw fail(error, "reading the header or unit DIE of compile unit \(offsets.count)")
            }
            var offset: Dwarf_Off = 0
            _ = dwarf_dieoffset(die, &offset, &error)
            dwarf_dealloc_die(die)
            offsets.append((header, offset))
            header = next
            walked(next)
        }
        return offsets
    }

    /// A DIE by its global `.debug_info` offset; caller deallocates.
    private func die(at offset: UInt64) throws(DebugInfoError) -> Dwarf_Die {
        var die: Dwarf_Die?
        var error: Dwarf_Error?
        guard dwarf_offdie_b(debug, offset, 1, &die, &error) == DW_DLV_OK, let die else {
            throw fail(error, "no DIE at .debug_info offset 0x\(String(offset, radix: 16))", offset: offset)
        }
        return die
    }

    private func offset(_ die: Dwarf_Die) -> UInt64 {
        var value: Dwarf_Off = 0
        var error: Dwarf_Error?
        if dwarf_dieoffset(die, &value, &error) == DW_DLV_ERROR { dwarf_dealloc_error(debug, error) }
        return value
    }

    /// Looks up one attribute of a DIE and reads it with `read`, freeing the attribute and
    /// any libdwarf error on every path. `read` returns nil (and may set the error) when the
    /// attribute has an unexpected form.
    private func attribute<Value>(
        _ die: Dwarf_Die, _ attributeCode: Int32,
        _ read: (Dwarf_Attribute, inout Dwarf_Error?) -> Value?
    ) -> Value? {
        var attribute: Dwarf_Attribute?
        var error: Dwarf_Error?
        let found = dwarf_attr(die, Dwarf_Half(attributeCode), &attribute, &error)
        guard found == DW_DLV_OK, let attribute else {
            if found == DW_DLV_ERROR { dwarf_dealloc_error(debug, error) }
            return nil
        }
        defer { dwarf_dealloc_attribute(attribute) }
        var readError: Dwarf_Error?
        let value = read(attribute, &readError)
        if readError != nil { dwarf_dealloc_error(debug, readError) }
        return value
    }

    private func string(_ die: Dwarf_Die, _ attributeCode: Int32) -> String? {
        attribute(die, attributeCode) { attribute, error in
            var text: UnsafeMutablePointer<CChar>?
            guard dwarf_formstring(attribute, &text, &error) == DW_DLV_OK, let text else { return nil }
            return String(cString: text)
        }
    }

    private func unsigned(_ die: Dwarf_Die, _ attributeCode: Int32) -> UInt64? {
        attribute(die, attributeCode) { attribute, error in
            var value: Dwarf_Unsigned = 0
            guard dwarf_formudata(attribute, &value, &error) == DW_DLV_OK else { return nil }
            return value
        }
    }

    private func reference(_ die: Dwarf_Die, _ attributeCode: Int32) -> UInt64? {
        attribute(die, attributeCode) { attribute, error in
            var value: Dwarf_Off = 0
            guard dwarf_global_formref(attribute, &value, &error) == DW_DLV_OK else { return nil }
            return value
        }
    }

    // MARK: Line tables

    /// Where the unit's line table is (DW_AT_stmt_list) and its DW_AT_comp_dir; the table
    /// itself is decoded by `LineProgramDecoder`.
    func lineTableLocation(unitDieOffset: UInt64) throws(DebugInfoError) -> (offset: UInt64?, compDir: String?) {
        let unit = try die(at: unitDieOffset)
        defer { dwarf_dealloc_die(unit) }
        return (reference(unit, DW_AT_stmt_list) ?? unsigned(unit, DW_AT_stmt_list), string(unit, DW_AT_comp_dir))
    }

    // MARK: Single DIEs

    /// Linkage name and plain name of a function DIE, following DW_AT_abstract_origin and
    /// DW_AT_specification (bounded, since corrupt DWARF can make reference cycles).
    func names(dieOffset: UInt64) throws(DebugInfoError) -> DieNames {
        var names = DieNames()
        var next: UInt64? = dieOffset
        var hops = 0
        while let current = next, hops < 8 {
            hops += 1
            let die = try die(at: current)
            defer { dwarf_dealloc_die(die) }
            if names.linkageName == nil {
                names.linkageName = string(die, DW_AT_linkage_name) ?? string(die, DW_AT_MIPS_linkage_name)
            }
            if names.name == nil { names.name = string(die, DW_AT_name) }
            if names.linkageName != nil { break }
            next = reference(die, DW_AT_abstract_origin) ?? reference(die, DW_AT_specification)
        }
        return names
    }
}

/// Serves our Mach-O sections to libdwarf through the object-access callbacks.
private final class SectionServer {
    struct Entry {
        var name: UnsafeMutablePointer<CChar>?
        var bytes: UnsafeRawPointer?
        var size: Int
    }

    let sections: [Entry]
    let pointerSize: UInt8

    init(sections served: [ServedSection], pointerSize: UInt8) {
        self.pointerSize = pointerSize
        // Index 0 is an empty placeholder, like ELF's null section.
        sections =
            [Entry(name: strdup(""), bytes: nil, size: 0)]
            + served.map { Entry(name: strdup($0.name), bytes: $0.bytes, size: $0.size) }
    }

    deinit {
        for entry in sections { free(entry.name) }
    }

    static func from(_ object: UnsafeMutableRawPointer?) -> SectionServer {
        Unmanaged<SectionServer>.fromOpaque(UnsafeRawPointer(object.unsafelyUnwrapped)).takeUnretainedValue()
    }

    func info(
        _ index: Dwarf_Unsigned, _ name: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
        _ type: UnsafeMutablePointer<Dwarf_Unsigned>?, _ size: UnsafeMutablePointer<Dwarf_Unsigned>?
    ) -> Int32 {
        guard index < UInt64(sections.count) else { return DW_DLV_NO_ENTRY }
        let entry = sections[Int(index)]
        name?.pointee = UnsafePointer(entry.name)
        type?.pointee = index == 0 ? 0 : 1
        size?.pointee = Dwarf_Unsigned(entry.size)
        return DW_DLV_OK
    }

    func load(_ index: Dwarf_Unsigned, _ data: UnsafeMutablePointer<UnsafeMutablePointer<Dwarf_Small>?>?) -> Int32 {
        guard index > 0, index < UInt64(sections.count), let data else { return DW_DLV_NO_ENTRY }
        guard let bytes = sections[Int(index)].bytes else { return DW_DLV_NO_ENTRY }
        // libdwarf only reads loaded sections; the pointer type is mutable for historical reasons.
        data.pointee = UnsafeMutableRawPointer(mutating: bytes).assumingMemoryBound(to: Dwarf_Small.self)
        return DW_DLV_OK
    }
}
