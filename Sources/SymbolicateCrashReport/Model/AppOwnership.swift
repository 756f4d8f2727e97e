import Foundation

/// Which images are the app's and which the OS's: one rule set for every reader.
///
/// It decides which frames the headline picks, which images must have a dSYM
/// (`--require-all`, batch `missing-dsym`), and what is coloured as app code, so the text,
/// `.ips`, call-graph and MetricKit readers must agree on it.
///
/// - An image whose path is an OS location (`/System/`, `/usr/lib/`, `/usr/libexec/`,
///   `/Library/Apple/`, a simulator runtime root, anything inside an `Xcode*.app` bundle, a
///   `libswift*.dylib` runtime copy inside the app) is never the app's.
/// - Otherwise it is the app's when the text line has the `+` marker, when its path is under
///   `/var/containers/Bundle/Application/`, `/private/var/containers/`,
///   `/var/mobile/Applications/` or inside an `.app/` bundle, or when it lives in the same
///   bundle as the crashed process (`Path:`/`procPath`), or in the same directory when the
///   process is a bare tool outside any `.app`.
/// - An image known only from frame lines (cut report) is the app's when it is named like the
///   process.
/// - Without paths (MetricKit), `isSystemImage(named:loadAddress:)` judges by load address
///   and name.
package enum AppOwnership {
    /// An image of a text report: `listedAsApp` is the `+` marker of its Binary Images line.
    package static func isAppImage(path: String?, listedAsApp: Bool, processPath: String?) -> Bool {
        guard let path else { return listedAsApp }
        if isSystemPath(path) { return false }
        if listedAsApp { return true }
        return isAppPath(path, processBundle: bundleDirectory(of: processPath))
    }

    /// An image of an `.ips` body (no `+` marker: only the path tells).
    package static func isAppImage(path: String?, processPath: String?) -> Bool {
        isAppImage(path: path, listedAsApp: false, processPath: processPath)
    }

    /// An image the report does not list, known from frame lines by its name only: named like
    /// the process, or by the app's bundle identifier (older macOS reports name the app's image so
    /// in frames: `net.example.App`).
    package static func isAppImage(inferredName name: String, processName: String?, processPath: String?, bundleIdentifier: String? = nil)
        -> Bool
    {
        name == processName || name == processPath.flatMap { $0.split(separator: "/").last.map(String.init) }
            || (bundleIdentifier.map { !$0.isEmpty && name == $0 } ?? false)
    }

    /// A pasted frame no listed image holds (issue 48: a backtrace copied without its Binary
    /// Images): the app's when its module is named like the process or is not Apple's by name;
    /// with no module, when it names a source file outside Apple's (system frames in such pastes
    /// print no file, or the Swift runtime's `Swift/…`). nil when the line names neither.
    package static func isAppCode(imageName: String?, sourceFile: String?, processName: String?, bundleIdentifier: String? = nil) -> Bool? {
        if let name = imageName, !name.isEmpty {
            if name == processName || (bundleIdentifier.map { !$0.isEmpty && name == $0 } ?? false) { return true }
            // The OS's libraries as services print them, without `.dylib` (`libobjc.A`, `libsystem_kernel`),
            // and its frameworks as older macOS reports name them, by bundle identifier (`com.apple.AppKit`).
            if systemLibraryPrefixes.contains(where: { name.hasPrefix($0) }) || name.hasPrefix("com.apple.") { return false }
            if isOtherSystemsRuntimeLibrary(name) { return false }
            return !isSystemImage(named: name, loadAddress: 0)
        }
        guard let file = sourceFile, !file.isEmpty else { return nil }
        return !isSystemSourceFile(file)
    }

    /// A shared object of Linux's or Android's own runtime as backtraces there name it
    /// (`libc.so.6`, `ld-linux-x86-64.so.2`, `libstdc++.so.6`, `libswiftCore.so`, `linker64`):
    /// a pasted Linux or Android trace has no Binary Images to say it is not the app's.
    static func isOtherSystemsRuntimeLibrary(_ name: String) -> Bool {
        if name == "linker" || name == "linker64" { return true }
        guard let range = name.range(of: ".so") else { return false }
        let rest = name[range.upperBound...]
        guard rest.isEmpty || rest.hasPrefix(".") && rest.dropFirst().allSatisfy({ $0.isNumber || $0 == "." }) else { return false }
        let base = String(name[..<range.lowerBound])
        let runtimePrefixes = ["ld-linux", "ld64", "libicu", "libswift", "libFoundation", "libstdc++", "libc++"]
        return otherSystemsRuntimeLibraries.contains(base) || runtimePrefixes.contains { base.hasPrefix($0) }
    }

    /// The C, C++ and language runtimes of Linux (glibc, musl, libgcc, the Swift and ICU
    /// runtimes) and Android (bionic, ART) by their names before `.so`.
    static let otherSystemsRuntimeLibraries: Set<String> = [
        "libc", "libm", "libpthread", "libdl", "librt", "libresolv", "libutil", "libgcc_s", "libatomic", "libunwind",
        "libdispatch", "libBlocksRuntime", "libz", "libart", "libandroid_runtime", "libbinder", "libutils", "libcutils",
        "libbase", "libhwui", "liblog", "ld-musl-x86_64", "ld-musl-aarch64",
    ]

    /// The first letters of the OS's libraries' names.
    static let systemLibraryPrefixes = [
        "libsystem_", "libobjc", "libdispatch", "libswift", "libc++", "libdyld", "libxpc", "libMainThreadChecker",
        "libBacktraceRecording", "libLogRedirect", "libRPAC", "libViewDebuggerSupport",
    ]

    /// A source file the OS's or the Swift runtime's code was built from: a system path, Apple's
    /// build roots, the standard library's and the concurrency library's own files, code the
    /// compiler made.
    static func isSystemSourceFile(_ file: String) -> Bool {
        if file.hasPrefix("/") {
            return isSystemPath(file) || file.hasPrefix("/BuildRoot/") || file.hasPrefix("/Library/Caches/com.apple.xbs/")
                || file.hasPrefix("/AppleInternal/")
        }
        let runtimeFolders = ["Swift/", "_Concurrency/", "Foundation/", "SwiftUI/", "Combine/", "<compiler-generated>"]
        return runtimeFolders.contains { file.hasPrefix($0) }
    }

    /// OS locations: an image there is Apple's whatever else is said about it.
    package static func isSystemPath(_ path: String) -> Bool {
        let systemPrefixes = [
            "/System/", "/usr/lib/", "/usr/libexec/", "/Library/Apple/", "/usr/bin/", "/usr/sbin/", "/sbin/", "/bin/",
            "/Developer/", "/private/preboot/Cryptexes/",
        ]
        if systemPrefixes.contains(where: { path.hasPrefix($0) }) { return true }
        if path.containsBytes(".simruntime/") || path.containsBytes("/RuntimeRoot/") || path.containsBytes("/Contents/Developer/Platforms/")
            || path.containsBytes("/Contents/Developer/usr/")
        {
            return true
        }
        // Anything inside an Xcode bundle (`/Applications/Xcode_13.3.app/Contents/…`) is a
        // developer tool injected into the process, not the app.
        if path.split(separator: "/").contains(where: { $0.hasPrefix("Xcode") && $0.hasSuffix(".app") }) { return true }
        // Swift runtime libraries Xcode copied into apps built for iOS < 12.2 / macOS < 10.14.4
        // (`App.app/Frameworks/libswiftUIKit.dylib`): Apple's code, no app dSYM exists for them.
        if let file = path.split(separator: "/").last, file.hasPrefix("libswift"), file.hasSuffix(".dylib") { return true }
        // Xcode's Previews interposer, beside a Debug build's stub executable (Xcode 16+): Xcode's code.
        if path.hasSuffix("/" + previewDylib) { return true }
        return false
    }

    /// The file name of Xcode's Previews interposer in a Debug build (Xcode 16+).
    package static let previewDylib = "__preview.dylib"

    /// Xcode 16+ Debug builds (`ENABLE_DEBUG_DYLIB`) put the app's code in `<name>.debug.dylib`
    /// beside a stub executable `<name>` that only opens it (Apple's blank executor): the
    /// positions of `images` that are such stubs — an image whose `.debug.dylib` the report
    /// also lists in the same folder. They need no dSYM from the team.
    package static func debugDylibStubs(in images: [BinaryImage]) -> Set<Int> {
        let dylibs = Set(
            images.compactMap { image -> String? in
                guard image.name.hasSuffix(".debug.dylib") else { return nil }
                return (image.path.map { ($0 as NSString).deletingLastPathComponent } ?? "") + "/"
                    + image.name.dropLast(".debug.dylib".count)
            })
        guard !dylibs.isEmpty else { return [] }
        return Set(
            images.indices.filter { index in
                let image = images[index]
                return dylibs.contains((image.path.map { ($0 as NSString).deletingLastPathComponent } ?? "") + "/" + image.name)
            })
    }

    /// Where apps live on iOS and macOS, and the crashed process's own bundle.
    static func isAppPath(_ path: String, processBundle: String?) -> Bool {
        if isSystemPath(path) { return false }
        let appPrefixes = [
            "/var/containers/Bundle/Application/", "/private/var/containers/", "/var/mobile/Applications/",
            "/private/var/mobile/Applications/", "/var/mobile/Containers/Bundle/", "/private/var/mobile/Containers/Bundle/",
        ]
        if appPrefixes.contains(where: { path.hasPrefix($0) }) { return true }
        if path.containsBytes(".app/") { return true }
        if let processBundle, !processBundle.isEmpty, path.hasPrefix(processBundle) { return true }
        return false
    }

    /// Where the crashed process's own code lives: `/…/Foo.app/Foo` → `/…/Foo.app/`
    /// (also for `Contents/MacOS/Foo`); a bare tool → its directory. `nil` for OS processes.
    static func bundleDirectory(of processPath: String?) -> String? {
        guard let p = processPath, p.hasPrefix("/"), !isSystemPath(p) else { return nil }
        if let r = p.range(of: ".app/") { return String(p[..<r.upperBound]) }
        guard let slash = p.lastIndex(of: "/"), slash > p.startIndex else { return nil }
        return String(p[...slash])
    }

    /// Whether an image is Apple's rather than the app's when the report gives no paths
    /// (MetricKit): a load address inside the shared cache region (arm64 from 0x1_8000_0000,
    /// x86_64 macOS from 0x7FF0_0000_0000: only system libraries live there, apps and their
    /// frameworks load below), or a name Apple's images go by. A heuristic, stated as one in
    /// the README.
    static func isSystemImage(named name: String, loadAddress: UInt64) -> Bool {
        if (0x1_8000_0000..<0x10_0000_0000).contains(loadAddress) || loadAddress >= 0x7FF0_0000_0000 { return true }
        if name.hasSuffix(".dylib") || name == "???" || name.hasPrefix("<") { return true }
        return systemImageNames.contains(name)
    }

    /// Names Apple's frameworks go by (MetricKit payloads give names only).
    private static let systemImageNames: Set<String> = [
        "UIKitCore", "UIKit", "Foundation", "CoreFoundation", "SwiftUI", "GraphicsServices", "QuartzCore",
        "AppKit", "CoreData", "CFNetwork", "WebKit", "JavaScriptCore", "CoreGraphics", "Combine",
        "FrontBoardServices", "BaseBoard", "RunningBoardServices", "AttributeGraph", "dyld", "CoreText",
        "UIFoundation", "AVFoundation", "MapKit", "Metal", "CoreML", "Security", "IOKit",
        // More of Apple's frameworks pasted backtraces name (issue 48).
        "MetalTools", "GPUToolsCapture", "CoreAutoLayout", "HIToolbox", "SwiftData", "Observation", "Network",
        "CoreLocation", "StoreKit", "Photos", "PhotosUI", "CoreMedia", "CoreVideo", "ImageIO", "CoreImage", "MetalKit",
        "SpriteKit", "SceneKit", "GameKit", "UserNotifications", "CloudKit", "CoreServices", "LaunchServices",
        "XCTest", "XCTestCore", "XCTAutomationSupport", "IDEBundleInjection", "AppKitCore", "ContactsUI", "Contacts",
        "WatchKit", "AudioToolbox", "CoreAudio", "AVFAudio", "CoreMotion", "WebCore", "ViewBridge", "CoreDisplay",
        "SkyLight", "CoreUI", "DocumentManager", "ShareSheet", "AuthenticationServices", "AccessibilityUtilities",
    ]
}

extension CrashReport {
    /// Judges the frames no listed image holds (pasted without Binary Images, or naming no image
    /// at all) by what their lines name, so a paste's own frame is found too (issue 48). The
    /// paste readers call it once their frames are placed in images.
    package mutating func markAppCodeWithoutImage() {
        let processName = processName
        let bundleIdentifier = bundleIdentifier
        updateFrames { (frame: inout Frame) in
            guard frame.imageIndex == nil else { return }
            frame.isAppCodeWithoutImage = AppOwnership.isAppCode(
                imageName: frame.imageName, sourceFile: frame.sourceFile, processName: processName, bundleIdentifier: bundleIdentifier)
        }
    }
}
