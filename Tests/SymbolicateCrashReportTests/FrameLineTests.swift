import Foundation
import Testing

@testable import SymbolicateCrashReport

/// A frame line is built in one string (issue 54: the padding strings and partial joins were a
/// fifth of rendering a million frames); its columns are Apple's: the index padded to 4, the
/// image name to 30 (at least one space each), a tab, the address right-aligned in 18.
@Suite struct FrameLineTests {
    /// The columns spelt out, as Apple's translated reports print them.
    static func columns(index: Int, imageName: String, address: UInt64, rest: String) -> String {
        let idx = String(index)
        let address = "0x" + String(address, radix: 16)
        return idx + String(repeating: " ", count: max(1, 4 - idx.count)) + imageName
            + String(repeating: " ", count: max(1, 30 - imageName.count)) + "\t"
            + String(repeating: " ", count: max(0, 18 - address.count)) + address + " " + rest
    }

    @Test(arguments: [
        (0, "CrashApp", UInt64(0x1_0000_4410)),
        (9_999, "libsystem_kernel.dylib", 0),
        (123_456, "AVeryLongFrameworkNameThatIsWiderThanThirty", UInt64.max),
        (7, "Ünïcödé名前", 0x1f),
        (42, "", 0xdead_beef),
    ])
    func lineHasApplesColumns(_ index: Int, _ imageName: String, _ address: UInt64) {
        let rest = "main + 44 (main.swift:12)"
        let line = FrameFormatting.appleLine(index: index, imageName: imageName, address: address, rest: rest)
        #expect(line == Self.columns(index: index, imageName: imageName, address: address, rest: rest))
        #expect(FrameFormatting.applePrefix(index: index, imageName: imageName, address: address) + " " + rest == line)
    }

    @Test func basenameIsTheLastComponent() {
        #expect(FrameFormatting.basename("/Users/dev/App/Sources/Profile.swift") == "Profile.swift")
        #expect(FrameFormatting.basename("Profile.swift") == "Profile.swift")
        #expect(FrameFormatting.basename("/ソース/名前.swift") == "名前.swift")
        #expect(FrameFormatting.basename("dir/") == "")
    }
}
