import CLibDwarf

/// Version string of the linked libdwarf, proving the C binding links.
public func libdwarfVersion() -> String {
    guard let cString = dwarf_package_version() else { return "unknown" }
    return String(cString: cString)
}
