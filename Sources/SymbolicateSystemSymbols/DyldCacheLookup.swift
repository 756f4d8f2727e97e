import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateDemangling
import SymbolicateDyldCache

/// Lookups in one image of a dyld shared cache: the nearest symbol (the image's own symbol
/// table, the cache's local symbols, the export trie), `+ offset` from it. No file or line:
/// system images carry no DWARF.
///
/// File addresses are the image's unslid cache addresses, so the slide is the report's load
/// address minus `linkedAddress` (the image's `__TEXT` address in the cache), as for any image.
final class DyldCacheLookup: DebugLookup, @unchecked Sendable {
    let cache: DyldCache
    let image: DyldCacheImage
    private let lock = NSLock()
    /// Read on the first lookup; a failure is kept so it is not retried per frame.
    private var symbols: Result<DyldCacheSymbols, DyldCacheError>?
    private var names: [UInt64: String] = [:]

    init(cache: DyldCache, image: DyldCacheImage) {
        self.cache = cache
        self.image = image
    }

    var path: String { "\(cache.path)!\(image.installName)" }
    var architecture: Architecture { cache.architecture }
    var debugID: DebugID? { image.debugID }
    var linkedAddress: UInt64 { image.address }
    var hasDWARF: Bool { false }

    func lookup(fileAddress: UInt64) -> LookupResult? {
        lock.lock()
        defer { lock.unlock() }
        if symbols == nil {
            do { symbols = .success(try cache.symbols(of: image)) } catch { symbols = .failure(error) }
        }
        guard case .success(let table) = symbols, let symbol = table.nearest(atOrBefore: fileAddress) else {
            if case .failure(let error) = symbols {
                return LookupResult(
                    frames: [], source: .symbolTable,
                    dwarfError: DebugInfoError(path: error.path, offset: error.offset.map(UInt64.init), message: error.message))
            }
            return nil
        }
        let function: String
        if let cached = names[symbol.address] {
            function = cached
        } else {
            let stripped = Demangler.symbolName(fromSymbolTable: symbol.name)
            function = Demangler.demangle(stripped) ?? stripped
            names[symbol.address] = function
        }
        return LookupResult(
            frames: [
                SourceFrame(
                    function: function, rawName: symbol.name, file: nil, line: nil, column: nil,
                    functionStart: symbol.address, isInlined: false)
            ],
            source: .symbolTable, dwarfError: nil)
    }

    func lookup(fileAddresses: [UInt64]) -> [LookupResult?] {
        fileAddresses.map { lookup(fileAddress: $0) }
    }
}
