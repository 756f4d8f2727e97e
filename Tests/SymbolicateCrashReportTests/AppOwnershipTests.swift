import Testing

@testable import SymbolicateCrashReport

/// The one rule set every reader uses to say which images are the app's.
@Suite struct AppOwnershipTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var path: String?
        var listed: Bool
        var process: String?
        var isApp: Bool
        var testDescription: String { "\(path ?? "no path") listed:\(listed) → \(isApp)" }
    }

    static let cases: [Case] = [
        Case(path: "/System/Library/Frameworks/UIKit.framework/UIKit", listed: true, process: nil, isApp: false),
        Case(
            path: "/private/var/containers/Bundle/Application/1/App.app/Frameworks/libswiftCore.dylib", listed: true,
            process: "/private/var/containers/Bundle/Application/1/App.app/App", isApp: false),
        Case(path: "/private/var/containers/Bundle/Application/1/App.app/App", listed: false, process: nil, isApp: true),
        Case(
            path: "/Applications/Xcode_15.app/Contents/Developer/usr/lib/libMainThreadChecker.dylib", listed: true, process: nil,
            isApp: false),
        Case(path: "/usr/local/bin/tool", listed: false, process: "/usr/local/bin/tool", isApp: true),
        Case(path: "/usr/local/lib/libhelper.dylib", listed: false, process: "/usr/local/bin/tool", isApp: false),
        Case(path: "/usr/local/lib/libhelper.dylib", listed: true, process: "/usr/local/bin/tool", isApp: true),
        Case(path: "/usr/lib/libobjc.A.dylib", listed: false, process: "/usr/lib/tool", isApp: false),
        Case(path: nil, listed: true, process: nil, isApp: true),
        Case(path: nil, listed: false, process: nil, isApp: false),
    ]

    @Test(arguments: cases)
    func imageOwnership(_ c: Case) {
        #expect(AppOwnership.isAppImage(path: c.path, listedAsApp: c.listed, processPath: c.process) == c.isApp)
    }

    @Test func ipsImagesAreJudgedByPathAlone() {
        #expect(AppOwnership.isAppImage(path: "/Applications/App.app/Contents/Frameworks/Kit.framework/Kit", processPath: nil))
        #expect(!AppOwnership.isAppImage(path: nil, processPath: "/Applications/App.app/Contents/MacOS/App"))
    }

    @Test func imagesKnownOnlyFromFramesAreTheAppsWhenNamedLikeTheProcess() {
        #expect(AppOwnership.isAppImage(inferredName: "App", processName: "App", processPath: nil))
        #expect(AppOwnership.isAppImage(inferredName: "app-bin", processName: "App", processPath: "/opt/app/app-bin"))
        #expect(!AppOwnership.isAppImage(inferredName: "UIKitCore", processName: "App", processPath: "/opt/app/App"))
    }

    @Test func withoutPathsTheSharedCacheRangeAndApplesNamesAreSystem() {
        #expect(AppOwnership.isSystemImage(named: "Anything", loadAddress: 0x1_9000_0000))
        #expect(AppOwnership.isSystemImage(named: "UIKitCore", loadAddress: 0x1_0000_0000))
        #expect(AppOwnership.isSystemImage(named: "libswiftCore.dylib", loadAddress: 0x1_0000_0000))
        #expect(!AppOwnership.isSystemImage(named: "CrashApp", loadAddress: 0x1_0000_4000))
    }
}
