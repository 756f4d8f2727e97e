import Foundation
import SymbolicateCore
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 38, finding 10: outputs were written through any symlink (resolved with `realpath`,
/// then renamed onto the target): run as root with another user's link planted in `/tmp`, it
/// replaced a 0600 file in a root-only folder; and a replaced 0600 file came back 0644. Real
/// files, links, owners and modes in a fresh folder.
@Suite struct AtomicFileWriterTests {
    static let isRoot = geteuid() == 0
    /// A user and group this machine need not have: links and files are given to them.
    static let stranger: uid_t = 4242
    static let strangerGroup: gid_t = 4343

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("symbolicate-atomic-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    static func owner(_ path: String) -> (uid_t, gid_t)? {
        var info = stat()
        return lstat(path, &info) == 0 ? (info.st_uid, info.st_gid) : nil
    }

    static func contents(_ path: String) -> String? {
        (try? Data(contentsOf: URL(fileURLWithPath: path))).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A 0600 secret in a 0700 folder, and a link to it at `name` in a shared folder, owned
    /// by another user: the attack of the finding.
    static func plantedLink(in root: String) throws -> (secret: String, link: String) {
        let privateFolder = root + "/private"
        #expect(mkdir(privateFolder, 0o700) == 0)
        let secret = privateFolder + "/secret"
        try Data("secret\n".utf8).write(to: URL(fileURLWithPath: secret))
        #expect(chmod(secret, 0o600) == 0)
        let link = root + "/out.crash"
        #expect(symlink(secret, link) == 0)
        #expect(lchown(link, stranger, strangerGroup) == 0)
        return (secret, link)
    }

    @Test(.enabled(if: isRoot, "only root can give a link to another user"))
    func anotherUsersLinkIsRefusedAndNotFollowed() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (secret, link) = try Self.plantedLink(in: root)
        #expect(throws: OutputFileError.self) { try writeAtomically("report\n", to: link) }
        do {
            try writeAtomically("report\n", to: link)
        } catch let error as OutputFileError {
            #expect(error.reason.contains("owned by another user (uid 4242): not followed"), "\(error.reason)")
        }
        #expect(Self.contents(secret) == "secret\n")
        #expect(Self.mode(secret) == 0o600)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == secret)
        // Nothing left beside either.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["out.crash", "private"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/private") == ["secret"])
    }

    @Test(.enabled(if: isRoot, "only root can give a link to another user"))
    func aChainThroughAnotherUsersLinkIsRefused() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (secret, planted) = try Self.plantedLink(in: root)
        // My own link to the planted one: the chain still goes through a stranger's link.
        let mine = root + "/mine.crash"
        #expect(symlink(planted, mine) == 0)
        #expect(throws: OutputFileError.self) { try writeAtomically("report\n", to: mine) }
        #expect(Self.contents(secret) == "secret\n")
    }

    @Test func myOwnLinkIsFollowedAndStaysALink() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let target = root + "/real.crash"
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: target))
        #expect(chmod(target, 0o640) == 0)
        let link = root + "/latest.crash"
        #expect(symlink("real.crash", link) == 0)
        try writeAtomically("new\n", to: link)
        #expect(Self.contents(target) == "new\n")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == "real.crash")
        #expect(Self.mode(target) == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["latest.crash", "real.crash"])
    }

    /// A dangling link of one's own is replaced by the file (as before), never followed out.
    @Test func myOwnDanglingLinkIsReplaced() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let link = root + "/out.crash"
        #expect(symlink(root + "/nowhere/x", link) == 0)
        try writeAtomically("new\n", to: link)
        #expect(Self.contents(link) == "new\n")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil)
    }

    @Test func aReplacedFileKeepsItsMode() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/out.crash"
        for mode: mode_t in [0o600, 0o640, 0o604, 0o755] {
            try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
            #expect(chmod(path, mode) == 0)
            try writeAtomically("new\n", to: path)
            #expect(Self.contents(path) == "new\n")
            #expect(Self.mode(path) == mode, "mode \(String(mode, radix: 8)) became \(String(Self.mode(path), radix: 8))")
        }
    }

    @Test(.enabled(if: isRoot, "only root can give a file to another user"))
    func aReplacedFileKeepsItsOwnerAndGroup() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/out.crash"
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(chown(path, Self.stranger, Self.strangerGroup) == 0)
        #expect(chmod(path, 0o600) == 0)
        try writeAtomically("new\n", to: path)
        #expect(Self.contents(path) == "new\n")
        let owner = Self.owner(path)
        #expect(owner?.0 == Self.stranger && owner?.1 == Self.strangerGroup)
        #expect(Self.mode(path) == 0o600)
    }
}
