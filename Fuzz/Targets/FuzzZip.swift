import Foundation
import SymbolicateCore
import ZIPFoundation

@testable import SymbolicateDiscovery

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// libFuzzer entry: any bytes as a `.zip`, unpacked by `ZipExtractor` (small limits, so a
/// bomb costs megabytes, not gigabytes) into a fresh temporary folder. Then every entry's
/// outcome is checked against the central directory (`ZipDirectory`, read again here):
/// unpacked as a regular file with the declared size and CRC-32, or listed in `skipped` by
/// name; nothing outside the folder, nothing past the limits. Finally the folder is removed
/// and the run must leave no file descriptor and no file behind.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzZip(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let descriptorsBefore = openDescriptors()
    let input = scratch + "/input.zip"
    guard FileManager.default.createFile(atPath: input, contents: Data(bytes: data, count: size)) else {
        fatalError("fuzz-zip: cannot write \(input)")
    }
    let extractor: ZipExtractor
    do {
        extractor = try ZipExtractor(maximumUnpackedSize: unpackLimit, maximumEntrySize: entryLimit, ratioGrace: 64 << 10)
    } catch {
        fatalError("fuzz-zip: ZipExtractor.init failed: \(error)")
    }
    precondition(extractor.root.path.hasPrefix(scratch + "/"), "extractor root \(extractor.root.path) is outside \(scratch)")
    do {
        let extraction = try extractor.extract(zipPath: input, displayPath: "fuzz.zip") { _ in true }
        check(extraction, input: input, root: extractor.root)
    } catch {
        if verbose { say("refused: \(error)") }
        // Only "not a zip at all" may fail the whole archive, and then our reader agrees.
        guard case .zip(let path, nil, let message) = error, path == "fuzz.zip", !message.isEmpty else {
            fatalError("fuzz-zip: unexpected failure \(error)")
        }
        if let handle = FileHandle(forReadingAtPath: input), (try? ZipDirectory(file: handle)) != nil {
            fatalError("fuzz-zip: extract refused an archive whose central directory reads: \(error)")
        }
    }
    extractor.removeAll()
    var info = stat()
    precondition(lstat(extractor.root.path, &info) != 0, "temporary folder \(extractor.root.path) survived removeAll()")
    precondition(!TemporaryFiles.registered.contains(extractor.root.path), "temporary folder still registered")
    unlink(input)
    let left = (try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? []
    precondition(left.isEmpty, "files left in \(scratch) after a run: \(left)")
    let descriptorsAfter = openDescriptors()
    precondition(descriptorsAfter <= descriptorsBefore, "file descriptors leaked: \(descriptorsBefore) before, \(descriptorsAfter) after")
    return 0
}

/// FUZZ_ZIP_VERBOSE=1 prints every outcome (when replaying an input by hand).
private let verbose = ProcessInfo.processInfo.environment["FUZZ_ZIP_VERBOSE"] == "1"

private let unpackLimit: UInt64 = 4 << 20
private let entryLimit: UInt64 = 1 << 20

/// This process's scratch folder (`FUZZ_ZIP_TMPDIR`, else /dev/shm, else the temp folder):
/// the input file and, through TMPDIR, the extractor's folders. Removed at exit.
private let scratch: String = {
    let environment = ProcessInfo.processInfo.environment
    var isFolder: ObjCBool = false
    let base =
        environment["FUZZ_ZIP_TMPDIR"]
        ?? (FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isFolder) && isFolder.boolValue
            ? "/dev/shm" : NSTemporaryDirectory())
    // A run that crashed (or stopped on a leak) exits without atexit: remove what such runs
    // left here, then our own folder should the PID be reused.
    for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] where name.hasPrefix("symbolicate-fuzz-zip-") {
        if let pid = pid_t(name.dropFirst("symbolicate-fuzz-zip-".count)), pid == getpid() || kill(pid, 0) != 0 && errno == ESRCH {
            try? FileManager.default.removeItem(atPath: (base as NSString).appendingPathComponent(name))
        }
    }
    let path = (base as NSString).appendingPathComponent("symbolicate-fuzz-zip-\(getpid())")
    guard mkdir(path, 0o700) == 0 else { fatalError("fuzz-zip: cannot create \(path)") }
    setenv("TMPDIR", path, 1)
    atexit { try? FileManager.default.removeItem(atPath: scratch) }
    return path
}()

private func openDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
}

/// Every entry accounted for: a regular file matching its record, or a skip naming it.
private func check(_ extraction: ZipExtractor.Extraction, input: String, root: URL) {
    let folder = extraction.folder.path
    precondition(folder.hasPrefix(root.path + "/"), "unpacked outside the run's folder: \(folder)")
    let rootEntries = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    precondition(rootEntries == [extraction.folder.lastPathComponent], "extra entries in \(root.path): \(rootEntries)")
    guard let handle = FileHandle(forReadingAtPath: input) else { fatalError("fuzz-zip: cannot reopen the input") }
    defer { try? handle.close() }
    guard let directory = try? ZipDirectory(file: handle) else {
        fatalError("fuzz-zip: extract accepted an archive whose central directory does not read")
    }
    var skippedNames = Set<String>()
    for problem in extraction.skipped {
        guard case .zip(let path, let entry, let message) = problem, path == "fuzz.zip", !message.isEmpty else {
            fatalError("fuzz-zip: malformed skip \(problem)")
        }
        if let entry {
            precondition(directory.records.contains { $0.name == entry }, "skip names no entry of the archive: \(problem)")
            skippedNames.insert(entry)
        } else {
            precondition(directory.damage != nil, "archive-level skip without damage: \(problem)")
        }
        if verbose { say("skipped: \(problem)") }
    }
    let files = regularFiles(below: folder)
    var total: UInt64 = 0
    for (relative, bytes) in files {
        let size = UInt64(bytes.count)
        total += size
        precondition(size <= entryLimit, "\(relative): \(size) bytes, past the entry limit")
        let crc = bytes.crc32(checksum: 0)
        let matches = directory.records.contains {
            !$0.isDirectory && ZipExtractor.safeRelativePath($0.name) == relative && $0.uncompressedSize == size && $0.crc32 == crc
        }
        precondition(matches, "\(relative): \(size) bytes, CRC \(crc): no entry of the archive has that name, size and CRC")
        if verbose { say("unpacked: \(relative) (\(size) bytes)") }
    }
    precondition(total <= unpackLimit, "\(total) bytes unpacked, past the limit")
    // Overlapping entries (the "overlapping files" bomb) are skipped together under one message that
    // names the first: every other one of them is covered by it.
    let overlapping = ZipExtractor.overlappingEntries(directory.records)
    let overlapSaid = extraction.skipped.contains { problem in
        guard case .zip(_, .some, let message) = problem else { return false }
        return message.contains("overlaps another entry")
    }
    for (index, record) in directory.records.enumerated() where !record.isDirectory {
        let unpacked = ZipExtractor.safeRelativePath(record.name).map { files[$0] != nil } ?? false
        let grouped = overlapSaid && overlapping.contains(index)
        // Entries past the unpack limit are said in one message naming the first (`not unpacked (and 1
        // more entries)`); the extraction's `lost` list names each of them.
        let lostByName = extraction.lost.contains { $0.entry == record.name }
        precondition(
            unpacked || skippedNames.contains(record.name) || grouped || lostByName,
            "entry '\(record.name)' neither unpacked nor listed as skipped")
    }
}

/// Contents of every file below `folder` by relative path; anything but folders and regular
/// files (a link, a FIFO) is a finding.
private func regularFiles(below folder: String) -> [String: Data] {
    var out: [String: Data] = [:]
    var pending = [""]
    while let relative = pending.popLast() {
        let path = relative.isEmpty ? folder : folder + "/" + relative
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            fatalError("fuzz-zip: cannot list \(path)")
        }
        for name in names {
            let child = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            precondition(lstat(folder + "/" + child, &info) == 0, "cannot stat \(child)")
            switch info.st_mode & S_IFMT {
            case S_IFDIR: pending.append(child)
            case S_IFREG:
                out[child] = readFile(folder + "/" + child)
            default: fatalError("fuzz-zip: \(child) is neither a folder nor a regular file (mode \(info.st_mode))")
            }
        }
    }
    return out
}

/// The bytes of a file, with read(2): FileManager.contents(atPath:) and Data(contentsOf:) of
/// swift-foundation 6.3.1 leak 4 KiB for every empty file they read (LeakSanitizer, found by
/// this target: regressions/zip/empty-entry-foundation-leak).
private func readFile(_ path: String) -> Data {
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { fatalError("fuzz-zip: cannot open \(path)") }
    defer { close(fd) }
    var out = Data()
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count >= 0 else { fatalError("fuzz-zip: cannot read \(path)") }
        if count == 0 { return out }
        out.append(contentsOf: buffer[0..<count])
    }
}

private func say(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
