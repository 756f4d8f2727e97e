import Foundation
import SymbolicateCore
import SymbolicateMachO

/// A dyld shared cache: the main `dyld_shared_cache_<arch>` file, its subcaches (`.1`, `.01`,
/// `.02`, … — iOS 15 and later split the cache), and its local-symbols file (`.symbols`).
///
/// Opening reads the headers only: the mapping tables and the image list with UUIDs (the
/// `dyld_cache_image_text_info` array). An image's own load commands and symbol tables are
/// read when a frame in it is looked up (`DyldCacheImage.symbols()`). Every file is mapped,
/// never copied, and every read goes through the bounds-checked `ByteReader`.
///
/// Layout from Apple's published `dyld_cache_format.h`. The header grew over the years; a
/// field exists only when `mappingOffset` (where the header ends) lies past it.
package final class DyldCache: Sendable {
    /// The main cache file.
    package let path: String
    /// From the magic (`dyld_v1  arm64e`).
    package let architecture: Architecture
    /// The cache's own UUID.
    package let uuid: DebugID?
    /// Unslid address of the main file's header (`sharedRegionStart`, or the first mapping's).
    package let baseAddress: UInt64
    /// Every image, in the cache's order.
    package let images: [DyldCacheImage]
    /// The local-symbols file when the cache keeps its local symbols apart (iOS 15+), or a
    /// problem with it (missing, wrong UUID) to say once.
    package let localSymbolsProblem: String?

    let files: [MappedFile]
    let mappings: [Mapping]
    let localSymbols: LocalSymbols?
    /// Local-symbol entries name images by VM offset from `baseAddress` (caches whose header
    /// has `symbolFileUUID`), else by file offset in the main file.
    let usesVMOffsetKeys: Bool

    struct Mapping {
        var address: UInt64
        var size: UInt64
        var fileOffset: UInt64
        var file: Int
    }

    /// Field offsets in `dyld_cache_header`.
    enum Header {
        static let mappingOffset = 16, mappingCount = 20, imagesOffsetOld = 24, imagesCountOld = 28
        static let localSymbolsOffset = 72, localSymbolsSize = 80, uuid = 88
        static let imagesTextOffset = 136, imagesTextCount = 144
        static let sharedRegionStart = 224
        static let subCacheArrayOffset = 392, subCacheArrayCount = 396, symbolFileUUID = 400
        static let imagesOffset = 448, imagesCount = 452, cacheSubType = 456
    }

    /// Whether `path` names a main cache file (not a subcache or the symbols file) by its name.
    package static func isMainCacheName(_ name: String) -> Bool {
        guard name.hasPrefix("dyld_shared_cache_") || name.hasPrefix("dyld_sim_shared_cache_") else { return false }
        let rest = name.split(separator: "_").last.map(String.init) ?? ""
        return !rest.contains(".") || rest.hasSuffix(".development")
    }

    /// Whether a file starts like a dyld shared cache (`dyld_v`).
    package static func hasMagic(path: String) -> Bool {
        guard let prefix = RegularFile.prefix(path: path, count: 7) else { return false }
        return [UInt8](prefix).starts(with: Array("dyld_v".utf8))
    }

    /// Opens the cache whose main file is `path`, with the subcaches and `.symbols` file
    /// beside it.
    package init(path: String) throws(DyldCacheError) {
        self.path = path
        let main: MappedFile
        main = try MappedFile(path: path)
        let header = ByteReader(file: main)
        let magic = try header.fixedString(0, length: 16, "dyld_cache_header magic")
        guard magic.hasPrefix("dyld_v") else {
            throw DyldCacheError(path: path, offset: 0, message: "not a dyld shared cache (magic \"\(magic.prefix(16))\")")
        }
        let archName = magic.dropFirst(7).trimmingCharacters(in: .whitespaces)
        architecture = Architecture(archName)
        let headerEnd = Int(try header.u32(Header.mappingOffset, "mappingOffset"))
        /// A header field, or nil when this cache's header ends before it.
        func field32(_ offset: Int, _ what: String) throws(DyldCacheError) -> UInt32? {
            headerEnd >= offset + 4 ? try header.u32(offset, what) : nil
        }
        func field64(_ offset: Int, _ what: String) throws(DyldCacheError) -> UInt64? {
            headerEnd >= offset + 8 ? try header.u64(offset, what) : nil
        }
        uuid = headerEnd >= Header.uuid + 16 ? try Self.uuid(header, at: Header.uuid, path: path) : nil

        var files = [main]
        var mappings = try Self.mappings(header, file: 0, path: path)
        guard let first = mappings.first else {
            throw DyldCacheError(path: path, offset: Header.mappingCount, message: "the cache has no mappings")
        }
        baseAddress = try field64(Header.sharedRegionStart, "sharedRegionStart").flatMap { $0 == 0 ? nil : $0 } ?? first.address

        // Subcaches: v1 entries (uuid, cacheVMOffset) named `.1`, `.2`, … before the header
        // grew `cacheSubType`; v2 entries carry their file suffix (`.01`, `.25.data`).
        let subCount = Int(try field32(Header.subCacheArrayCount, "subCacheArrayCount") ?? 0)
        if subCount > 0, let subOffset = try field32(Header.subCacheArrayOffset, "subCacheArrayOffset") {
            let withSuffix = headerEnd >= Header.cacheSubType + 4
            let entrySize = withSuffix ? 56 : 24
            for index in 0..<min(subCount, 1024) {
                let at = Int(subOffset) + index * entrySize
                let expected = try Self.uuid(header, at: at, path: path)
                let suffix =
                    withSuffix
                    ? try header.fixedString(at + 24, length: 32, "subcache fileSuffix")
                    : ".\(index + 1)"
                let subPath = path + suffix
                let sub: MappedFile
                do { sub = try MappedFile(path: subPath) } catch {
                    throw DyldCacheError(path: subPath, offset: nil, message: "subcache \(index + 1) of \(path): \(error.message)")
                }
                let subHeader = ByteReader(file: sub)
                let found = try Self.uuid(subHeader, at: Header.uuid, path: subPath)
                guard found == expected else {
                    throw DyldCacheError(
                        path: subPath, offset: Header.uuid,
                        message:
                            "subcache UUID \(found?.description ?? "none") does not match \(expected?.description ?? "none") in \(path)")
                }
                files.append(sub)
                mappings += try Self.mappings(subHeader, file: files.count - 1, path: subPath)
            }
        }
        self.files = files
        self.mappings = mappings

        // Local symbols: in the main file (older caches), or in `<main>.symbols`.
        let use64BitEntries = headerEnd >= Header.symbolFileUUID + 16
        usesVMOffsetKeys = use64BitEntries
        var problem: String?
        var local: LocalSymbols?
        if let offset = try field64(Header.localSymbolsOffset, "localSymbolsOffset"), offset != 0,
            let size = try field64(Header.localSymbolsSize, "localSymbolsSize")
        {
            local = try LocalSymbols(file: main, offset: offset, size: size, use64BitEntries: use64BitEntries)
        } else if use64BitEntries, let expected = try Self.uuid(header, at: Header.symbolFileUUID, path: path) {
            let symbolsPath = path + ".symbols"
            if let file = try? MappedFile(path: symbolsPath) {
                let symbolsHeader = ByteReader(file: file)
                let found = try Self.uuid(symbolsHeader, at: Header.uuid, path: symbolsPath)
                if found != expected {
                    problem =
                        "\(symbolsPath) has UUID \(found?.description ?? "none"), the cache expects \(expected): its local symbols are not used"
                } else {
                    let offset = try symbolsHeader.u64(Header.localSymbolsOffset, "localSymbolsOffset")
                    let size = try symbolsHeader.u64(Header.localSymbolsSize, "localSymbolsSize")
                    local = try LocalSymbols(file: file, offset: offset, size: size, use64BitEntries: true)
                }
            } else {
                problem = "no \(symbolsPath): frames are named from exported symbols only"
            }
        }
        localSymbols = local
        localSymbolsProblem = problem

        // Images: the text-info array has UUIDs; older caches only list addresses and paths,
        // so the UUID then comes from the image's own LC_UUID.
        var images: [DyldCacheImage] = []
        // Counts and offsets from the file are clamped: a damaged header fails the bounds
        // checks below instead of trapping on conversion.
        let textCount = Int(clamping: try field64(Header.imagesTextCount, "imagesTextCount") ?? 0)
        let textOffset = Int(clamping: min(try field64(Header.imagesTextOffset, "imagesTextOffset") ?? 0, UInt64(main.count)))
        let newImages = headerEnd >= Header.imagesCount + 4
        let imageCount = Int(try field32(newImages ? Header.imagesCount : Header.imagesCountOld, "imagesCount") ?? 0)
        let imageOffset = Int(try field32(newImages ? Header.imagesOffset : Header.imagesOffsetOld, "imagesOffset") ?? 0)
        if textCount > 0 {
            guard textCount <= main.count / 32 else {
                throw DyldCacheError(
                    path: path, offset: Header.imagesTextCount, message: "imagesTextCount \(textCount) does not fit in the file")
            }
            images.reserveCapacity(textCount)
            for index in 0..<textCount {
                let at = textOffset + index * 32
                let id = try Self.uuid(header, at: at, path: path)
                let address = try header.u64(at + 16, "image text loadAddress")
                let textSize = try header.u32(at + 24, "image textSegmentSize")
                let pathOffset = try header.u32(at + 28, "image pathOffset")
                let name = try header.cString(Int(pathOffset), "image path")
                images.append(DyldCacheImage(index: index, installName: name, address: address, textSize: UInt64(textSize), debugID: id))
            }
        } else if imageCount > 0 {
            guard imageCount <= main.count / 32 else {
                throw DyldCacheError(path: path, offset: Header.imagesCount, message: "imagesCount \(imageCount) does not fit in the file")
            }
            for index in 0..<imageCount {
                let at = imageOffset + index * 32
                let address = try header.u64(at, "image address")
                let pathOffset = try header.u32(at + 24, "image pathFileOffset")
                let name = try header.cString(Int(pathOffset), "image path")
                images.append(DyldCacheImage(index: index, installName: name, address: address, textSize: 0, debugID: nil))
            }
        }
        if textCount == 0 {
            // Older caches: the UUID and __TEXT size come from each image's own header.
            for index in images.indices {
                if let header = try? Self.parseHeader(of: images[index], mappings: mappings, files: files) {
                    images[index].debugID = header.debugID
                    images[index].textSize = header.textSize
                }
            }
        }
        self.images = images
        // The header area (image list, paths) was read once; subcache and symbols-file
        // headers too. None of their pages need stay resident in a multi-GB mapping.
        for file in files {
            ByteReader(file: file, start: 0, count: min(file.count, max(headerEnd, textOffset + textCount * 32, 1 << 22)))
                .releaseResidentPages()
        }
        if let local = localSymbols { local.entriesTable.releaseResidentPages() }
    }

    private static func uuid(_ reader: ByteReader, at offset: Int, path: String) throws(DyldCacheError) -> DebugID? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for i in 0..<16 {
            bytes.append(try reader.u8(offset + i, "UUID"))
        }
        return bytes.allSatisfy { $0 == 0 } ? nil : DebugID(uuidBytes: bytes)
    }

    private static func mappings(_ header: ByteReader, file: Int, path: String) throws(DyldCacheError) -> [Mapping] {
        let offset = Int(try header.u32(Header.mappingOffset, "mappingOffset"))
        let count = Int(try header.u32(Header.mappingCount, "mappingCount"))
        guard count <= 64 else {
            throw DyldCacheError(path: path, offset: Header.mappingCount, message: "mappingCount \(count) is not plausible")
        }
        var out: [Mapping] = []
        for index in 0..<count {
            let at = offset + index * 32
            out.append(
                Mapping(
                    address: try header.u64(at, "mapping address"), size: try header.u64(at + 8, "mapping size"),
                    fileOffset: try header.u64(at + 16, "mapping fileOffset"), file: file))
        }
        return out
    }

    /// Where an unslid address lies: the file and the offset in it; nil outside every mapping.
    func location(of address: UInt64) -> (file: MappedFile, offset: Int)? {
        Self.location(of: address, mappings: mappings, files: files)
    }

    static func location(of address: UInt64, mappings: [Mapping], files: [MappedFile]) -> (file: MappedFile, offset: Int)? {
        for mapping in mappings where address >= mapping.address && address - mapping.address < mapping.size {
            let (offset, overflow) = mapping.fileOffset.addingReportingOverflow(address - mapping.address)
            guard !overflow, offset < UInt64(files[mapping.file].count) else { return nil }
            return (files[mapping.file], Int(offset))
        }
        return nil
    }

    /// The image with this UUID.
    package func image(id: DebugID) -> DyldCacheImage? {
        images.first { $0.debugID == id }
    }
}

/// A problem reading a dyld shared cache: which file, where, what. The cache is read through
/// the same bounds-checked cursor as a Mach-O file, so its problems are the same value.
package typealias DyldCacheError = MachOError

/// `dyld_cache_local_symbols_info`: the nlist entries and strings of every image's local
/// symbols, which the cache keeps out of the images' own symbol tables.
struct LocalSymbols: Sendable {
    let nlists: ByteReader
    let strings: ByteReader
    /// The entries array, read once into `entries`.
    let entriesTable: ByteReader
    /// Image key (a VM offset from the cache base in 64-bit entries, a file offset in the
    /// main file in 32-bit ones) → range of nlist indices.
    let entries: [UInt64: Range<Int>]

    init(file: MappedFile, offset: UInt64, size: UInt64, use64BitEntries: Bool) throws(DyldCacheError) {
        guard offset <= UInt64(file.count), size <= UInt64(file.count) - offset else {
            throw DyldCacheError(
                path: file.path, offset: nil,
                message:
                    "local symbols (0x\(String(size, radix: 16)) bytes at 0x\(String(offset, radix: 16))) extend past the end of the file")
        }
        let info = ByteReader(file: file, start: Int(offset), count: Int(size))
        let fields = try (0..<6).map { index throws(MachOError) in Int(try info.u32(index * 4, "dyld_cache_local_symbols_info")) }
        let (nlistOffset, nlistCount, stringsOffset, stringsSize, entriesOffset, entriesCount) =
            (fields[0], fields[1], fields[2], fields[3], fields[4], fields[5])
        guard nlistCount <= Int(size) / 16, entriesCount <= Int(size) / 12 else {
            throw DyldCacheError(path: file.path, offset: Int(offset), message: "local symbols claim more entries than fit")
        }
        nlists = try info.window(nlistOffset, count: nlistCount * 16, "local symbols nlist array")
        strings = try info.window(stringsOffset, count: stringsSize, "local symbols strings")
        let entrySize = use64BitEntries ? 16 : 12
        let table = try info.window(entriesOffset, count: entriesCount * entrySize, "local symbols entries")
        var entries: [UInt64: Range<Int>] = [:]
        for index in 0..<entriesCount {
            let at = index * entrySize
            let (key, start, count) = (
                use64BitEntries ? try table.u64(at, "dylibOffset") : UInt64(try table.u32(at, "dylibOffset")),
                Int(try table.u32(at + entrySize - 8, "nlistStartIndex")), Int(try table.u32(at + entrySize - 4, "nlistCount"))
            )
            guard start <= nlistCount, count <= nlistCount - start else {
                throw DyldCacheError(
                    path: file.path, offset: table.start + at, message: "local symbols entry \(index) lies outside the nlist array")
            }
            entries[key] = start..<(start + count)
        }
        self.entries = entries
        entriesTable = table
    }
}
