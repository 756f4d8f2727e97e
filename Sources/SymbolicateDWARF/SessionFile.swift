import Foundation
import SymbolicateCore
import SymbolicateDemangling

/// The debug file under a `DebugSession`: its symbol table (names cached per symbol) and the
/// resident pages of its mapping. It has its own lock, held only for a symbol lookup or a
/// page-release decision, so a session without DWARF (a stripped binary, a system library
/// from a dyld cache) never waits for the DWARF side, and DWARF lookups take it only briefly.
/// The DWARF side may call in while holding its own lock; this class never calls out, so the
/// two locks are always taken in that order.
///
/// The container is only ever touched under this lock: its symbol table is built on first
/// use, and libelf, under the ELF container, is not thread-safe.
final class SessionFile: @unchecked Sendable {
    private let lock = NSLock()
    private let container: any DebugContainer
    private var symbolNames: [UInt64: (function: String, raw: String?)] = [:]
    /// Cache misses that read the file (a unit decoded, an inline tree scanned, a name read)
    /// since the resident pages were last looked at.
    private var touchesSinceCheck = 0
    /// File-backed resident memory just after the file's pages were last handed back.
    private var fileBackedAfterRelease: Int?

    init(container: any DebugContainer) {
        self.container = container
    }

    // MARK: - Resident pages

    /// Hands the pages of `bytes` (a section of this file, after a pass over it) back.
    func releasePages(_ bytes: UnsafeRawBufferPointer) {
        lock.lock()
        defer { lock.unlock() }
        container.releasePages(bytes)
    }

    /// Says that a cache miss is about to read the file; see `releasePagesIfGrownLocked`.
    func willRead() {
        lock.lock()
        defer { lock.unlock() }
        releasePagesIfGrownLocked()
    }

    /// Hands the file's mapped pages back when they have grown past what the session's own
    /// decoded data takes (and past 16 MiB). Each touch of a mapped debug file maps a whole
    /// page-cache folio (up to megabytes), so without it a hundred lookups in a hundred units
    /// kept ~100 MB of a 259 MB dSYM resident. Re-mapping a dropped page is a minor fault,
    /// so a run that touches most of a file anyway (thousands of addresses, a small dSYM)
    /// keeps its pages: its decoded data is larger than they are. Checked every 12 misses;
    /// reading the counters costs a few microseconds. Without the counters (macOS), pages
    /// are handed back every 12 misses.
    private func releasePagesIfGrownLocked() {
        touchesSinceCheck += 1
        guard touchesSinceCheck >= 12 else { return }
        touchesSinceCheck = 0
        guard let now = ResidentMemory.current() else {
            container.releaseResidentPages()
            return
        }
        let baseline = fileBackedAfterRelease ?? now.fileBacked
        if fileBackedAfterRelease == nil { fileBackedAfterRelease = baseline }
        guard now.fileBacked - baseline > max(16 << 20, now.anonymous) else { return }
        container.releaseResidentPages()
        fileBackedAfterRelease = ResidentMemory.current()?.fileBacked ?? baseline
    }

    // MARK: - Symbol table

    /// The nearest code symbol at or before the address, with its display name.
    func nearestSymbol(_ address: UInt64) -> (address: UInt64, covers: Bool, name: (function: String, raw: String?))? {
        lock.lock()
        defer { lock.unlock() }
        guard let symbol = container.nearestSymbol(atOrBefore: address) else { return nil }
        if let cached = symbolNames[symbol.address] { return (symbol.address, symbol.covers, cached) }
        releasePagesIfGrownLocked()
        let stripped = container.sourceName(ofSymbol: symbol.name)
        let name = (function: Demangler.demangle(stripped) ?? stripped, raw: Optional(symbol.name))
        symbolNames[symbol.address] = name
        return (symbol.address, symbol.covers, name)
    }

    /// The name llvm-symbolizer and atos give the outermost (concrete) frame: the symbol
    /// that covers the address — the nearest one before it in the same section, up to the
    /// next symbol — when the slice has one; the DWARF name only otherwise. They differ
    /// for compiler-renamed functions (`helper.1`), aliases, and functions whose DWARF has
    /// only a DW_AT_name (methods of interface types, `extern "C"` in namespaces).
    func symbolName(containing address: UInt64) -> (function: String, raw: String?)? {
        guard let symbol = nearestSymbol(address), symbol.covers else { return nil }
        return symbol.name
    }

    /// The symbol table's answer (no file or line), carrying `error` when the DWARF for the
    /// address could not be read; nil when nothing names the address and there is no error.
    /// A symbol whose section ends before the address names it only as a guess (`isGuess`).
    func symbolLookup(_ address: UInt64, error: DebugInfoError?) -> LookupResult? {
        guard let symbol = nearestSymbol(address) else {
            return error.map { LookupResult(frames: [], source: .dwarf, dwarfError: $0) }
        }
        return LookupResult(
            frames: [
                SourceFrame(
                    function: symbol.name.function, rawName: symbol.name.raw,
                    file: nil, line: nil, column: nil, functionStart: symbol.address, isInlined: false,
                    nameSource: .symbolTable, isGuess: !symbol.covers
                )
            ],
            source: .symbolTable, dwarfError: error
        )
    }
}
