import SymbolicateCore
import Testing

/// The OS a report names, read once into platform, version and build (issue 37: no later stage takes the
/// printed `OS Version:` apart again).
@Suite struct OperatingSystemTests {
    @Test(arguments: [
        ("iPhone OS 17.5 (21F79)", OperatingSystem.Platform.iOS, "17.5", "21F79"),
        ("iOS 26.0 (23A341)", .iOS, "26.0", "23A341"),
        ("iPadOS 17.5 (21F79)", .iOS, "17.5", "21F79"),
        ("macOS 14.5 (23F79)", .macOS, "14.5", "23F79"),
        ("Mac OS X 10.15.7 (19H2)", .macOS, "10.15.7", "19H2"),
        ("Watch OS 10.5 (21T576)", .watchOS, "10.5", "21T576"),
        ("Apple TVOS 17.5 (21L569)", .tvOS, "17.5", "21L569"),
        ("xrOS 1.2 (21O589)", .visionOS, "1.2", "21O589"),
    ])
    func readsApplesSpellings(_ text: String, _ platform: OperatingSystem.Platform, _ version: String, _ build: String) {
        #expect(OperatingSystem(printed: text) == OperatingSystem(platform: platform, version: version, build: build))
    }

    @Test func partsTheReportLacksStayNil() {
        #expect(OperatingSystem(printed: "iPhone OS 17.5") == OperatingSystem(platform: .iOS, version: "17.5", build: nil))
        #expect(OperatingSystem(printed: "17.5") == OperatingSystem(platform: nil, version: "17.5", build: nil))
        #expect(OperatingSystem(printed: "iPhone OS") == OperatingSystem(platform: .iOS, version: nil, build: nil))
        // A Linux backtrace's platform line has words in its parentheses, not a build.
        #expect(
            OperatingSystem(printed: "Linux (Debian GNU/Linux 12 (bookworm))")
                == OperatingSystem(platform: .linux, version: nil, build: nil))
        #expect(OperatingSystem(printed: "") == nil)
        #expect(OperatingSystem(printed: "unknown") == nil)
    }

    @Test func theIPSFormKeepsTrainAndBuildApart() {
        #expect(
            OperatingSystem(train: "iPhone OS 18.1", build: "22B83") == OperatingSystem(platform: .iOS, version: "18.1", build: "22B83"))
        #expect(OperatingSystem(train: "macOS 15.5", build: "") == OperatingSystem(platform: .macOS, version: "15.5", build: nil))
    }
}
