import Foundation
import SymbolicateCore
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 54, finding 6: only the output's own name was checked for links, so another user's
/// link planted as a *folder* on the way (`/tmp/ci` → a root-only folder) let `-o /tmp/ci/out`,
/// batch outputs and `--collect` write where that user chose. Real folders and links, given to
/// another uid (root only).
@Suite struct TrustedFoldersTests {
    static let isRoot = geteuid() == 0
    static let stranger: uid_t = 4242

    /// A 0700 folder standing for a place only root may write, and a link to it owned by
    /// another user in a shared folder: the attack of the finding.
    static func plantedFolderLink() throws -> (root: String, target: String, link: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("symbolicate-trusted-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let target = root + "/root-only"
        #expect(mkdir(target, 0o700) == 0)
        let link = root + "/shared"
        #expect(symlink(target, link) == 0)
        #expect(lchown(link, stranger, stranger) == 0)
        return (root, target, link)
    }

    @Test(.enabled(if: isRoot, "only root can give a link to another user"))
    func aWriteThroughAnotherUsersFolderLinkIsRefused() throws {
        let (root, target, link) = try Self.plantedFolderLink()
        defer { try? FileManager.default.removeItem(atPath: root) }
        do {
            try writeAtomically("report\n", to: link + "/out.crash")
            Issue.record("the write went through another user's link")
        } catch let error as OutputFileError {
            // The link is named with the folders above it resolved (TMPDIR may itself be reached
            // through a link, as macOS's /var is /private/var).
            let named = URL(fileURLWithPath: root).resolvingSymlinksInPath().path + "/shared"
            #expect(
                [link, named].contains {
                    error.reason == "goes through the symbolic link \($0) owned by another user (uid 4242): not followed"
                },
                "\(error.reason)")
        }
        // Deeper too, and through my own link to theirs.
        #expect(throws: OutputFileError.self) { try writeAtomically("x\n", to: link + "/a/../out.crash") }
        let mine = root + "/mine"
        #expect(symlink(link, mine) == 0)
        #expect(throws: OutputFileError.self) { try writeAtomically("x\n", to: mine + "/out.crash") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
    }

    @Test(.enabled(if: isRoot, "only root can give a link to another user"))
    func foldersAreNotCreatedThroughAnotherUsersLink() throws {
        let (root, target, link) = try Self.plantedFolderLink()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(throws: OutputFileError.self) { try TrustedFolders.createFolders(link + "/batch/out") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
    }

    @Test func myOwnFolderLinksAreFollowed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("symbolicate-trusted-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(mkdir(root + "/real", 0o755) == 0)
        #expect(symlink("real", root + "/mine") == 0)
        try TrustedFolders.createFolders(root + "/mine/a/b")
        try writeAtomically("report\n", to: root + "/mine/a/b/out.crash")
        #expect((try? String(contentsOfFile: root + "/real/a/b/out.crash", encoding: .utf8)) == "report\n")
        // A file where a folder is asked for is said, not written over.
        #expect(throws: OutputFileError.self) { try TrustedFolders.createFolders(root + "/real/a/b/out.crash") }
    }
}
