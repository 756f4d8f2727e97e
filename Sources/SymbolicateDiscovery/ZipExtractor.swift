import Foundation
import SymbolicateCore
import ZIPFoundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Unpacks the debug files of a zip (App Store Connect's "Download dSYMs" archive, a zipped
/// `.xcarchive`, a zip of crash reports) into a private temporary folder.
///
/// Why unpack at all: the DWARF reader memory-maps files, and dSYMs inside a zip are usually
/// deflated. Zips come from anywhere, so nothing the archive declares is trusted:
/// - bytes are counted while inflating and an entry stops at the first of: its declared
///   size (a header that lies is damage), the per-entry and per-run limits, or a
///   compression ratio no real debug file or report has (a zip bomb). The ratio is the
///   archive's, not an entry's: everything one archive unpacked (every entry's bytes plus
///   `inodeCost` for every file and folder made) against the archive bytes of those entries,
///   so 40 entries just under a per-entry threshold, or 100,000 folders made by one-byte
///   entries, are a bomb like one big entry (issue 38, finding 7);
/// - entries whose data overlaps another's (the "overlapping files" bomb: one compressed
///   kernel inflated once per entry that points into it) are skipped, every one of them;
/// - entries whose path would escape the folder (`../`, absolute paths), symlinks,
///   duplicates, file/folder clashes, encrypted entries and compression methods other than
///   stored/deflate are skipped with a reason naming the archive and the entry, and the
///   other entries are still unpacked;
/// - files are created with `O_EXCL | O_NOFOLLOW`, inside folders this extractor made.
/// The folder and everything in it are created through `TemporaryFiles`, so exit and signals
/// remove them too, and a signal's clean-up never races an entry being unpacked.
package final class ZipExtractor: @unchecked Sendable {
    /// Root of the private folder that holds the unpacked entries (created on first use).
    package let root: URL
    private let lock = NSLock()
    private var created = false
    private var removed = false
    /// Bytes written so far by every `extract` of this extractor (nested zips included).
    private var unpackedTotal: UInt64 = 0

    /// Upper bound of bytes unpacked per run: `SYMBOLICATE_MAX_UNZIP_GIB` GiB, default 16
    /// (App Store Connect dSYM zips of large apps reach a few GiB).
    package let maximumUnpackedSize: UInt64
    /// Upper bound of bytes per entry: the run's limit unless given (a single DWARF file of a
    /// big app can be most of the archive).
    package let maximumEntrySize: UInt64
    /// Unpacked-to-archive ratio above which an archive is taken for a zip bomb, once it has
    /// produced `ratioGrace` bytes. Deflate tops out near 1032:1; DWARF and reports compress
    /// 3–20:1, so 100:1 only ever trips on crafted (or all-zero) data.
    package static let maximumRatio: UInt64 = 100
    /// What one file or folder made costs against the ratio and the limits besides its bytes:
    /// a block and an inode (a zip of empty entries in fresh folders used up a disk's inodes).
    package static let inodeCost: UInt64 = 4096
    /// What an archive may produce before its ratio is judged (small files may compress
    /// extremely well without harm). Counted per top-level archive, not per entry or nested zip.
    let ratioGrace: UInt64
    package static let defaultRatioGrace: UInt64 = 4 << 20

    package init(maximumUnpackedSize: UInt64? = nil, maximumEntrySize: UInt64? = nil, ratioGrace: UInt64 = defaultRatioGrace) throws {
        self.ratioGrace = ratioGrace
        let gib = ProcessInfo.processInfo.environment["SYMBOLICATE_MAX_UNZIP_GIB"].flatMap(UInt64.init) ?? 16
        let total = maximumUnpackedSize ?? (gib >= 1 << 34 ? UInt64.max : gib << 30)
        self.maximumUnpackedSize = total
        self.maximumEntrySize = min(maximumEntrySize ?? total, total)
        // Short fixed-length name: NAME_MAX is never an issue, whatever TMPDIR is.
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("symbolicate-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
    }

    deinit { removeAll() }

    /// Removes the private folder and everything unpacked into it.
    package func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        guard !removed else { return }
        removed = true
        guard created else { return }
        try? FileManager.default.removeItem(at: root)
        TemporaryFiles.unregister(root.path)
    }

    /// What one `extract` produced.
    package struct Extraction: Sendable {
        /// The folder holding the unpacked entries.
        package var folder: URL
        /// Entries not unpacked, each naming the archive, the entry and why.
        package var skipped: [DiscoveryError]
        /// Entries (by safe relative path) the caller's `passOver` turned down from the central
        /// directory alone (never inflated), with the caller's reason: not problems, not wanted.
        package var passedOver: [(entry: String, reason: String)] = []
        /// Whether a limit of this run (the per-entry or per-run size, which the environment
        /// sets) left entries out: such an extraction says nothing lasting about the archive.
        package var reachedRunLimit = false
        /// Bytes written plus `inodeCost` per file and folder made.
        package var unpackedBytes: UInt64 = 0
        /// The budget this archive was unpacked under: zips found inside it are unpacked with
        /// `extract(nestedIn:)` this budget.
        package var budget: ArchiveBudget
        /// Wanted entries whose bytes did not come out: stopped by a limit or the ratio, damaged,
        /// or overlapping another (`skipped` names these in one line per kind; here each entry
        /// has its own). A caller that must see every file (audit's release gate) counts these
        /// as findings.
        package var lost: [(entry: String, reason: String)] = []
    }

    /// What one top-level archive has unpacked so far, the archives inside it included,
    /// against what its entries occupy in it. Shared by the zips found inside (hand it to
    /// `extract(nestedIn:)`): a nested zip is unpacked bytes of its parent, never archive bytes
    /// of its own, so nesting cannot restart the grace or multiply the ratio (issue 54,
    /// finding 12: 14 KB unpacked to 3.6 GB through nested zips).
    package final class ArchiveBudget: @unchecked Sendable {
        let grace: UInt64
        /// Archive bytes (headers and compressed data) of the top-level entries unpacked so far.
        var archiveBytes: UInt64
        /// Bytes written plus `inodeCost` per file and folder made, at every level.
        package internal(set) var charged: UInt64
        init(grace: UInt64, archiveBytes: UInt64 = 0, charged: UInt64 = 0) {
            self.grace = grace
            self.archiveBytes = archiveBytes
            self.charged = charged
        }

        /// Whether `more` charged bytes keep the archive within the ratio.
        func allows(_ more: UInt64) -> Bool {
            let (total, overflow) = charged.addingReportingOverflow(more)
            guard !overflow else { return false }
            let (allowance, big) = archiveBytes.multipliedReportingOverflow(by: ZipExtractor.maximumRatio)
            return total <= grace || big || total <= allowance
        }
    }

    /// Unpacks the entries of `zipPath` that `wanted` accepts into a fresh sub-folder.
    /// - Parameters:
    ///   - zipPath: the archive.
    ///   - displayPath: how to name the archive in messages (`outer.zip!inner.zip`).
    ///   - wanted: whether an entry (by safe relative path) is unpacked.
    ///   - passOver: given an entry's safe relative path and declared size, a reason not to
    ///     unpack it (a file that cannot be what the caller looks for), or nil. Decided before
    ///     anything is inflated or created: a zip of 100,000 one-byte entries costs a walk of
    ///     its central directory, not 100,000 files.
    ///   - folder: a folder the caller made through `TemporaryFiles` to unpack into (the unzip
    ///     cache's); nil makes a fresh sub-folder of the private folder.
    ///   - parent: the budget of the archive this one was found in (`Extraction.budget`), so
    ///     one top-level input has one budget however deep its zips nest; nil for a top-level zip.
    /// - Returns: where the entries went, and the entries skipped or passed over.
    /// - Throws: `DiscoveryError.zip` when the file is not a readable zip at all; problems
    ///   with single entries are returned in `skipped` instead.
    package func extract(
        zipPath: String, displayPath: String? = nil, wanted: (String) -> Bool,
        passOver: ((_ relative: String, _ size: UInt64) -> String?)? = nil, into folder: URL? = nil,
        nestedIn parent: ArchiveBudget? = nil
    ) throws(DiscoveryError) -> Extraction {
        let shown = displayPath ?? zipPath
        let directory: ZipDirectory
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: zipPath))
            directory = try ZipDirectory(file: handle)
        } catch let failure as ZipDirectory.Failure {
            throw .zip(path: shown, entry: nil, message: "not a readable zip archive (\(failure))")
        } catch {
            throw .zip(path: shown, entry: nil, message: "not a readable zip archive (\(error.localizedDescription))")
        }
        defer { try? directory.file.close() }
        // `into`: a folder the caller made through `TemporaryFiles` (the unzip cache's).
        let destination: URL
        if let folder { destination = folder } else { destination = try makeDestination() }
        let overlapping = Self.overlappingEntries(directory.records)
        let budget = parent ?? ArchiveBudget(grace: ratioGrace)
        let unpackedBefore = budget.charged
        var reachedRunLimit = false
        var skipped: [DiscoveryError] = []
        if let damage = directory.damage {
            skipped.append(.zip(path: shown, entry: nil, message: "\(damage); the entries after it are not read"))
        }
        var claimed = Set<String>()
        var limitReached = false
        var overlapped: [String] = []
        var notReached: [String] = []
        var passedOver: [(entry: String, reason: String)] = []
        var lost: [(entry: String, reason: String)] = []
        for (number, record) in directory.records.enumerated() where !record.isDirectory {
            let name = record.name
            guard let relative = Self.safeRelativePath(name) else {
                skipped.append(.zip(path: shown, entry: name, message: "path escapes the archive folder; skipped"))
                continue
            }
            guard wanted(relative) else { continue }
            if let reason = passOver?(relative, record.uncompressedSize) {
                passedOver.append((relative, reason))
                continue
            }
            if record.isSymlink {
                skipped.append(.zip(path: shown, entry: name, message: "is a symbolic link; links are never unpacked"))
                continue
            }
            if let problem = Self.unsupported(record) {
                skipped.append(.zip(path: shown, entry: name, message: problem))
                continue
            }
            // One message for all the entries of a kind, however many a hostile archive has.
            if overlapping.contains(number) {
                overlapped.append(name)
                continue
            }
            if limitReached {
                notReached.append(name)
                continue
            }
            guard claimed.insert(relative.lowercased()).inserted else {
                skipped.append(.zip(path: shown, entry: name, message: "duplicate entry name; the first one is used"))
                continue
            }
            do {
                // The entry's own place in the archive: its two headers and its data.
                // Only a top-level archive's: a nested one's bytes are already charged as unpacked.
                let (occupied, overflow) = (76 + 2 * UInt64(record.name.utf8.count)).addingReportingOverflow(record.compressedSize)
                if parent == nil {
                    budget.archiveBytes = overflow ? UInt64.max : budget.archiveBytes.addingReportingOverflow(occupied).partialValue
                }
                try unpack(record, of: directory, to: destination, relative: relative, budget: budget)
            } catch let failure as EntryFailure {
                switch failure {
                case .totalLimit: limitReached = true
                case .ratio: limitReached = true
                default: break
                }
                switch failure {
                case .totalLimit, .entryLimit, .declaredPastTotal: reachedRunLimit = true
                default: break
                }
                skipped.append(.zip(path: shown, entry: name, message: failure.message(limits: self)))
                if case .cannotCreate = failure {} else { lost.append((name, failure.message(limits: self))) }
            } catch {
                skipped.append(.zip(path: shown, entry: name, message: "damaged entry, skipped (\(error))"))
                lost.append((name, "damaged entry, skipped (\(error))"))
            }
        }
        if let damage = directory.damage { lost.append(("", "\(damage); the entries after it are not read")) }
        if let first = overlapped.first {
            let others = overlapped.count > 1 ? ", as are \(overlapped.count - 1) more entries that overlap" : ""
            let message = "its data overlaps another entry's (a zip bomb?); skipped\(others)"
            skipped.append(.zip(path: shown, entry: first, message: message))
            lost += overlapped.map { ($0, "its data overlaps another entry's (a zip bomb?); skipped") }
        }
        if let first = notReached.first {
            let others = notReached.count > 1 ? " (and \(notReached.count - 1) more entries)" : ""
            let message = "not unpacked\(others): the unpack limit was reached"
            skipped.append(.zip(path: shown, entry: first, message: message))
            lost += notReached.map { ($0, "not unpacked: the unpack limit was reached") }
        }
        return Extraction(
            folder: destination, skipped: skipped, passedOver: passedOver, reachedRunLimit: reachedRunLimit,
            unpackedBytes: budget.charged - unpackedBefore, budget: budget, lost: lost)
    }

    /// The records (by position) whose local header and data overlap another record's: their
    /// extent is at least the 30-byte local header plus the compressed data from the local
    /// header's offset. Real archives never overlap; "overlapping files" bombs do, every entry.
    static func overlappingEntries(_ records: [ZipDirectory.Record]) -> Set<Int> {
        let order = records.indices.sorted { records[$0].localHeaderOffset < records[$1].localHeaderOffset }
        var overlapping = Set<Int>()
        var furthest: (end: UInt64, index: Int)?
        for index in order {
            let record = records[index]
            if let previous = furthest, record.localHeaderOffset < previous.end {
                overlapping.insert(index)
                overlapping.insert(previous.index)
            }
            let (end, overflow) = (record.localHeaderOffset &+ 30).addingReportingOverflow(record.compressedSize)
            let extent = overflow ? UInt64.max : end
            if furthest.map({ extent > $0.end }) ?? true { furthest = (extent, index) }
        }
        return overlapping
    }

    /// Writes `data` to a new file `name` (one path component) in a fresh sub-folder of the
    /// private folder, removed with it: bytes that arrived without a file (a report piped into
    /// `batch -`, an upload to `serve`) for code that reads files.
    package func store(_ data: Data, named name: String) throws(DiscoveryError) -> URL {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw .io(path: name, message: "not a plain file name")
        }
        let destination = try makeDestination()
        let target = destination.appendingPathComponent(name)
        let fd = TemporaryFiles.createInside { open(target.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw .io(path: target.path, message: String(cString: strerror(errno))) }
        defer { close(fd) }
        do {
            try Self.writeAll(data, to: fd, relative: name)
        } catch let failure as EntryFailure {
            throw .io(path: target.path, message: failure.message(limits: self))
        } catch {
            throw .io(path: target.path, message: "\(error)")
        }
        return target
    }

    /// Copies `head` and then the rest of `handle` into a new file `name` (one path component)
    /// in a fresh sub-folder of the private folder, in chunks: a zip piped into `batch -` is
    /// read from disk like any zip, never held in memory (issue 54, finding 14: 3 GiB piped
    /// took 6.2 GB). More than `limit` bytes: the file is removed and `overLimit` is true.
    package func spool(_ head: Data, then handle: FileHandle, named name: String, limit: UInt64) throws(DiscoveryError) -> (
        file: URL, bytes: UInt64, overLimit: Bool
    ) {
        let file = try store(head, named: name)
        let fd = open(file.path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: file.path, message: String(cString: strerror(errno))) }
        defer { close(fd) }
        var total = UInt64(head.count)
        while total <= limit {
            let chunk: Data
            do {
                guard let read = try handle.read(upToCount: 1 << 20), !read.isEmpty else { break }
                chunk = read
            } catch {
                unlink(file.path)
                throw .io(path: name, message: "cannot read standard input: \(error.localizedDescription)")
            }
            total += UInt64(chunk.count)
            do {
                try Self.writeAll(chunk, to: fd, relative: name)
            } catch let failure as EntryFailure {
                unlink(file.path)
                throw .io(path: file.path, message: failure.message(limits: self))
            } catch {
                unlink(file.path)
                throw .io(path: file.path, message: "\(error)")
            }
        }
        if total > limit { unlink(file.path) }
        return (file, total, total > limit)
    }

    /// The run's folder (created and registered on first use) plus a fresh sub-folder.
    private func makeDestination() throws(DiscoveryError) -> URL {
        lock.lock()
        defer { lock.unlock() }
        if !created {
            // Registered before it exists, under the signal clean-up's lock.
            guard TemporaryFiles.create(root.path, { mkdir(root.path, 0o700) == 0 }) else {
                throw .io(path: root.path, message: "cannot create a private temporary folder: \(String(cString: strerror(errno)))")
            }
            created = true
        }
        let destination = root.appendingPathComponent(UUID().uuidString.prefix(8).lowercased(), isDirectory: true)
        // Plain mkdir (never "with intermediates"), and under the clean-up's lock: once a
        // signal's clean-up began, nothing more is created below the root.
        guard TemporaryFiles.createInside({ mkdir(destination.path, 0o700) == 0 }) else {
            throw .io(path: destination.path, message: "cannot create a private temporary folder: \(String(cString: strerror(errno)))")
        }
        return destination
    }

    /// Why one entry could not be unpacked.
    enum EntryFailure: Error {
        case declaredSizeExceeded(declared: UInt64)
        case declaredPastTotal(declared: UInt64)
        case entryLimit
        case totalLimit
        case ratio
        case cannotCreate(path: String, reason: String)
        case truncated
        case sizeMismatch(declared: UInt64, actual: UInt64)
        case checksum

        func message(limits: ZipExtractor) -> String {
            switch self {
            case .declaredSizeExceeded(let declared):
                return "inflates past its declared size of \(declared) bytes (damaged or hostile archive); skipped"
            case .declaredPastTotal(let declared):
                return
                    "declares \(declared) bytes, more than is left of the \(Self.size(limits.maximumUnpackedSize)) unpack limit; skipped (set SYMBOLICATE_MAX_UNZIP_GIB to raise the limit)"
            case .entryLimit:
                return
                    "larger than \(Self.size(limits.maximumEntrySize)) once inflated; skipped (set SYMBOLICATE_MAX_UNZIP_GIB to raise the limit)"
            case .totalLimit:
                return
                    "would unpack more than \(Self.size(limits.maximumUnpackedSize)) in this run; stopped (set SYMBOLICATE_MAX_UNZIP_GIB to raise the limit)"
            case .ratio:
                return
                    "the archive would inflate more than \(ZipExtractor.maximumRatio) times the size of what it unpacked, counting every entry, file and folder and the zips inside it (a zip bomb?); stopped — unzip it yourself if it is genuine"
            case .cannotCreate(let path, let reason):
                return "cannot unpack to \(path): \(reason); skipped"
            case .truncated:
                return "compressed data ends early (damaged archive); skipped"
            case .sizeMismatch(let declared, let actual):
                return "inflates to \(actual) bytes, not the declared \(declared) (damaged archive); skipped"
            case .checksum:
                return "CRC-32 does not match (damaged archive); skipped"
            }
        }

        static func size(_ bytes: UInt64) -> String {
            bytes >= 1 << 30 && bytes % (1 << 30) == 0 ? "\(bytes >> 30) GiB" : "\(bytes) bytes"
        }
    }

    /// Streams one entry into `destination/relative`, counting what is actually written.
    private func unpack(
        _ record: ZipDirectory.Record, of directory: ZipDirectory, to destination: URL, relative: String, budget: ArchiveBudget
    ) throws {
        let declared = record.uncompressedSize
        // Declared sizes are only an early refusal; the real checks are below, while writing.
        if declared > maximumEntrySize { throw EntryFailure.entryLimit }
        if !reserve(0, alsoChecking: declared) { throw EntryFailure.declaredPastTotal(declared: declared) }
        let start = try directory.dataOffset(of: record)
        // Folders and file made under the signal clean-up's lock, which removes the root; each
        // costs `inodeCost` against the ratio and the run's limit before it is made.
        let (target, fd) = try TemporaryFiles.createInside {
            let target = try createParents(destination, relative, budget: budget)
            try charge(Self.inodeCost, budget)
            return (target, open(target.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600))
        }
        guard fd >= 0 else {
            let reason = errno == EEXIST ? "a folder of that name is also in the archive" : String(cString: strerror(errno))
            throw EntryFailure.cannotCreate(path: relative, reason: reason)
        }
        var written: UInt64 = 0
        var complete = false
        defer {
            close(fd)
            if !complete { unlink(target.path) }
        }
        let consumer: Consumer = { chunk in
            let count = UInt64(chunk.count)
            written += count
            if written > declared { throw EntryFailure.declaredSizeExceeded(declared: declared) }
            if written > self.maximumEntrySize { throw EntryFailure.entryLimit }
            try self.charge(count, budget)
            try Self.writeAll(chunk, to: fd, relative: relative)
        }
        let chunkSize = 64 * 1024
        // Every chunk handed to the inflater is exactly `size` bytes (ZIPFoundation's inflater
        // assumes so): the entry's last bytes are padded with zeros, which inflate rejects as
        // an invalid block, and asking past the entry's data is an error rather than a loop.
        let provider: Provider = { position, size in
            guard position >= 0, UInt64(position) < record.compressedSize else { throw EntryFailure.truncated }
            var data = try directory.read(
                at: start + UInt64(position), count: Int(min(UInt64(size), record.compressedSize - UInt64(position))))
            if data.count < size { data.append(Data(count: size - data.count)) }
            return data
        }
        var crc: CRC32 = 0
        switch record.method {
        case 0:
            var position: UInt64 = 0
            while position < record.compressedSize {
                let chunk = try directory.read(at: start + position, count: Int(min(UInt64(chunkSize), record.compressedSize - position)))
                guard !chunk.isEmpty else { throw EntryFailure.truncated }
                crc = chunk.crc32(checksum: crc)
                try consumer(chunk)
                position += UInt64(chunk.count)
            }
        default:
            crc = try Data.decompress(
                size: Int64(record.compressedSize), bufferSize: chunkSize, skipCRC32: false,
                provider: provider, consumer: consumer)
        }
        if written != declared { throw EntryFailure.sizeMismatch(declared: declared, actual: written) }
        if crc != record.crc32 { throw EntryFailure.checksum }
        complete = true
    }

    /// Writes all of `chunk` (retrying short writes and EINTR).
    private static func writeAll(_ chunk: Data, to fd: Int32, relative: String) throws {
        try chunk.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let n = write(fd, base + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw EntryFailure.cannotCreate(path: relative, reason: String(cString: strerror(errno)))
                }
                offset += n
            }
        }
    }

    /// Counts `count` bytes (written, or an inode's cost) against the archive's ratio, then the run's total.
    private func charge(_ count: UInt64, _ budget: ArchiveBudget) throws {
        guard budget.allows(count) else { throw EntryFailure.ratio }
        guard reserve(count, alsoChecking: 0) else { throw EntryFailure.totalLimit }
        budget.charged += count
    }

    /// Adds `count` written bytes to the run's total; false when that (or `declared` more on
    /// top of it) passes the limit.
    private func reserve(_ count: UInt64, alsoChecking declared: UInt64) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let (total, overflow) = unpackedTotal.addingReportingOverflow(count)
        guard !overflow, total <= maximumUnpackedSize else { return false }
        let (ahead, overflowAhead) = total.addingReportingOverflow(declared)
        guard !overflowAhead, ahead <= maximumUnpackedSize else { return false }
        unpackedTotal = total
        return true
    }

    /// Creates the folders of `relative` below `destination` one by one (never following a
    /// link, never above `destination`) and returns the file's URL.
    private func createParents(_ destination: URL, _ relative: String, budget: ArchiveBudget) throws -> URL {
        var folder = destination
        let parts = relative.split(separator: "/").map(String.init)
        for part in parts.dropLast() {
            folder.appendPathComponent(part, isDirectory: true)
            var existing = stat()
            if lstat(folder.path, &existing) != 0 {
                // A folder made costs like a file: an inode and a block.
                try charge(Self.inodeCost, budget)
                if mkdir(folder.path, 0o700) != 0 && errno != EEXIST {
                    throw EntryFailure.cannotCreate(path: relative, reason: String(cString: strerror(errno)))
                }
            }
            var info = stat()
            guard lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw EntryFailure.cannotCreate(path: relative, reason: "'\(part)' is also a file in the archive")
            }
        }
        return folder.appendingPathComponent(parts.last ?? relative)
    }

    /// Why an entry cannot be unpacked before reading any of it: encryption or a compression
    /// method other than stored (0) and deflate (8).
    static func unsupported(_ record: ZipDirectory.Record) -> String? {
        if record.isEncrypted {
            let how = record.method == 99 ? "AES-encrypted" : "encrypted (password-protected)"
            return "is \(how); encrypted entries cannot be read, skipped (unzip it with the password and pass the folder)"
        }
        if record.method != 0, record.method != 8 {
            return "uses compression method \(methodName(record.method)), which is not supported (only stored and deflate); skipped"
        }
        return nil
    }

    static func methodName(_ method: UInt16) -> String {
        let names: [UInt16: String] = [
            1: "shrink", 6: "implode", 9: "deflate64", 12: "bzip2", 14: "LZMA",
            93: "Zstandard", 95: "xz", 96: "JPEG", 97: "WavPack", 98: "PPMd",
        ]
        return names[method].map { "\(method) (\($0))" } ?? "\(method)"
    }

    /// `path` as a relative path that stays inside the destination, or nil when it would
    /// escape it (absolute, `..` components, NUL bytes).
    static func safeRelativePath(_ path: String) -> String? {
        let normalised = path.replacingOccurrences(of: "\\", with: "/")
        if normalised.hasPrefix("/") || normalised.contains("\0") { return nil }
        var parts: [Substring] = []
        for part in normalised.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { return nil }
            parts.append(part)
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }
}
