import Foundation
import SymbolicateCore

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
    package static func isAppCode(
        imageName: String?, sourceFile: String?, processName: String?, bundleIdentifier: String? = nil, symbol: String? = nil
    ) -> Bool? {
        if let name = imageName, !name.isEmpty {
            // A kernel's own backtrace (the kernel frame readers name its image `kernel`): the
            // code under the panic and trap path is what faulted.
            if name == KernelTrapPath.image { return symbol.map { !KernelTrapPath.isMachinery($0) } ?? false }
            if name == processName || (bundleIdentifier.map { !$0.isEmpty && name == $0 } ?? false) { return true }
            // The OS's libraries as services print them, without `.dylib` (`libobjc.A`, `libsystem_kernel`),
            // and its frameworks as older macOS reports name them, by bundle identifier (`com.apple.AppKit`).
            if systemLibraryPrefixes.contains(where: { name.hasBytePrefix($0) }) || name.hasBytePrefix("com.apple.") { return false }
            if isOtherSystemsRuntimeLibrary(name) { return false }
            return !isSystemImage(named: name, loadAddress: 0)
        }
        if let symbol, managedPlatformPackages.contains(where: { symbol.hasBytePrefix($0) }) { return false }
        guard let file = sourceFile, !file.isEmpty else { return symbol.flatMap(isAppCode(symbol:)) }
        return !isSystemSourceFile(file)
    }

    /// A frame that names only its function (`-[FlyImageRetrieveOperation main]`, `specialized
    /// Parser.parse(_:)`, pasted without image or file): an Objective-C method or a Swift
    /// function is the app's when its class or type is not one of Apple's by name; a C name
    /// (`objc_msgSend`, `__CFRunLoopRun`, `main`) tells nothing, nil.
    static func isAppCode(symbol: String) -> Bool? {
        if let owner = objectiveCClass(symbol) { return !isAppleTypeName(owner) }
        if managedPlatformPackages.contains(where: { symbol.hasBytePrefix($0) }) { return false }
        if let owner = pathOwner(symbol) {
            if runtimeNamespaces.contains(owner) { return false }
            return undecidedNamespaces.contains(owner) ? nil : true
        }
        guard let owner = swiftOwner(symbol) else { return nil }
        return !isAppleTypeName(owner) && !managedPlatformNamespaces.contains(String(owner))
    }

    /// The first name of a Rust or C++ path (`myapp::parser::read`, `<tao::EventLoop<…>>::run`
    /// → `tao`, `std::__1::vector<…>::at` → `std`), or nil for a name that is no such path.
    static func pathOwner(_ symbol: String) -> String? {
        var body = Substring(symbol)
        // An impl's `<Type as Trait>::method` or `<Type>::method` is declared in Type's crate.
        while body.first == "<" { body = body.dropFirst() }
        guard let separator = body.byteRange(of: "::"), separator.lowerBound > body.startIndex else { return nil }
        let owner = body[..<separator.lowerBound]
        guard owner.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }), owner.first?.isNumber == false else {
            return nil
        }
        return String(owner)
    }

    /// Namespaces of language runtimes and of Apple's C++ code: Rust's standard crates and its
    /// panic machinery, the C++ standard library and ABI, WebKit's and Core Animation's, dyld's,
    /// the Objective-C runtime's.
    static let runtimeNamespaces: Set<String> = [
        "std", "core", "alloc", "__rustc", "panic_unwind", "panic_abort", "backtrace", "rustc_std_workspace_core", "__cxxabiv1",
        "__gnu_cxx", "__1", "WebCore", "WebKit", "JSC", "WTF", "Inspector", "CA", "AG", "dyld", "dyld3", "dyld4", "objc",
        // Rust's standard library as toolchains before 1.0 named it, without `std::`.
        "sys", "sys_common", "panicking", "rt", "unwind",
    ]

    /// Namespaces that are the program in a toolchain's own crash and the runtime in an app's
    /// (`swift::`, `llvm::`): they say nothing by name.
    static let undecidedNamespaces: Set<String> = ["swift", "llvm", "clang", "mlir", "__swift"]

    /// The first name of a managed runtime's own namespaces (.NET's and Mono's class libraries,
    /// Xamarin's bindings, the JVM's and Kotlin's): a frame there is the platform's, not the app's
    /// (`Mono.Unix.UnixMarshal.FreeHeap`, `System.Collections.Generic.List…`).
    static let managedPlatformNamespaces: Set<String> = [
        "System", "Mono", "Microsoft", "Xamarin", "ObjCRuntime", "Java", "java", "javax", "android", "androidx", "kotlin", "kotlinx",
        "sun", "jdk",
    ]

    /// Android's and the JVM's own packages under a vendor's domain (`com.android.internal.os.ZygoteInit`,
    /// `com.google.android.gms…`, Dalvik's `dalvik.system.NativeStart`, `libcore.io`, `com.sun.…`), and
    /// OCaml's standard library (`Stdlib__Map.Make.find`, `Stdlib.at_exit`): the platform's, not the app's.
    static let managedPlatformPackages = [
        "com.android.", "com.google.android.", "dalvik.", "libcore.", "org.apache.harmony.", "com.sun.", "jdk.internal.",
        "Stdlib__", "Stdlib.", "CamlinternalFormat", "CamlinternalLazy", "Std_exit",
    ]

    /// `-[Class(Category) selector]` → `Class`.
    static func objectiveCClass(_ symbol: String) -> Substring? {
        guard symbol.hasBytePrefix("-[") || symbol.hasBytePrefix("+["), symbol.hasSuffix("]") else { return nil }
        let name = symbol.dropFirst(2).prefix { $0 != " " && $0 != "(" }
        return name.isEmpty ? nil : name
    }

    /// The type (or module) a demangled Swift function is declared in: the first dotted
    /// component after the demangler's words (`specialized`, `closure #1 in`, `generic
    /// specialization <…> of`), for a name that ends in an argument list or an accessor.
    static func swiftOwner(_ symbol: String) -> Substring? {
        var rest = Substring(symbol)
        // `closure #2 in implicit closure #1 in specialized Foo.bar()`: the last ` in ` at depth 0
        // is where the declaring function starts.
        while true {
            if let words = ["specialized ", "merged ", "partial apply for ", "@objc ", "async function pointer to ", "static "].first(
                where: {
                    rest.hasBytePrefix($0)
                })
            {
                rest = rest.dropFirst(words.count)
                continue
            }
            if rest.hasBytePrefix("closure #") || rest.hasBytePrefix("implicit closure #"), let inWord = rest.byteRange(of: " in ") {
                rest = rest[inWord.upperBound...]
                continue
            }
            if rest.hasBytePrefix("generic specialization <") || rest.hasBytePrefix("function signature specialization <"),
                let ofWord = rest.byteRange(of: "> of ")
            {
                rest = rest[ofWord.upperBound...]
                continue
            }
            break
        }
        // `(extension in MyApp):UIViewController.showAlert(title:)`: the extension's module wrote it.
        if rest.hasBytePrefix("(extension in "), let close = rest.byteRange(of: "):") {
            let module = rest[rest.index(rest.startIndex, offsetBy: 14)..<close.lowerBound]
            guard !module.isEmpty, module.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
            return module
        }
        guard let dot = rest.firstIndex(of: "."), dot > rest.startIndex else { return nil }
        let owner = rest[..<dot].prefix { $0 != "<" && $0 != "(" }
        guard !owner.isEmpty, owner.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), owner.first?.isNumber == false else {
            return nil
        }
        // A Swift function: an argument list, or an accessor or variable of a type.
        let declared = rest[dot...]
        guard
            declared.containsBytes("(")
                || [".getter", ".setter", ".modify", ".init", ".deinit", ".subscript"].contains(where: declared.contains)
        else { return nil }
        return owner
    }

    /// A class or type name Apple's SDK uses: its frameworks' prefixes (`NS`, `UI`, `CA`, …,
    /// private `_UI…`, `__NS…`), the Swift standard library's and Foundation's value types, and
    /// Apple's modules (`SwiftUI.…`).
    package static func isAppleTypeName(_ name: Substring) -> Bool {
        if name.hasBytePrefix("_") { return true }
        if appleModulesAndTypes.contains(String(name)) { return true }
        // A two- to four-letter framework prefix followed by the name's own capital.
        for prefix in appleClassPrefixes where name.hasBytePrefix(prefix) {
            let after = name.dropFirst(prefix.count)
            if let next = after.first, next.isUppercase { return true }
        }
        return false
    }

    /// Prefixes of the classes of Apple's frameworks (Foundation, UIKit, AppKit, Core Animation,
    /// Core Foundation, Core Graphics, Core Image, Core Location, CloudKit, Contacts, AVFoundation,
    /// MapKit, SpriteKit, WebKit, GameKit, Photos, PassKit, EventKit, HealthKit, MediaPlayer,
    /// MessageUI, StoreKit's SK, Safari, UserNotifications, WatchConnectivity, Quick Look,
    /// AuthenticationServices, Accessibility, BaseBoard, FrontBoard, RunningBoard, SpringBoard,
    /// TextInput, ImageKit, NetworkExtension, LocalAuthentication, Metal, Vision, ARKit,
    /// ReplayKit, Intents, CallKit, Core Spotlight, Network, Speech, GameController, BackgroundTasks,
    /// Core Data's NSManaged…, WebKit's legacy `Web`/`DOM`, OpenGL ES's EAGL, GLKit, MetalKit,
    /// SceneKit, Core Motion, Core Telephony, Multipeer Connectivity, Core ML, PDFKit).
    static let appleClassPrefixes = [
        "NS", "UI", "CA", "CF", "CG", "CI", "CL", "CK", "CN", "AV", "MK", "SK", "WK", "GK", "PH", "PK", "EK", "HK", "MP", "MF",
        "SF", "UN", "WC", "QL", "AS", "AX", "BS", "FBS", "RBS", "SB", "TI", "IK", "NE", "LA", "MTL", "VN", "AR", "RP", "IN", "CX",
        "CS", "NW", "GC", "BG", "Web", "DOM", "OS", "EAGL", "GLK", "MTK", "SCN", "CM", "CT", "MC", "ML", "PDF",
    ]

    /// Apple's Swift modules and the standard library's and Foundation's types that pasted Swift
    /// frames start with once the demangler dropped the module.
    static let appleModulesAndTypes: Set<String> = [
        "Swift", "Foundation", "SwiftUI", "UIKit", "AppKit", "Combine", "Observation", "SwiftData", "Dispatch", "CoreData",
        "Array", "ArraySlice", "ContiguousArray", "Dictionary", "Set", "String", "Substring", "Character", "Optional", "Result",
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float", "Bool",
        "Sequence", "Collection", "BidirectionalCollection", "RandomAccessCollection", "MutableCollection",
        "RangeReplaceableCollection", "IndexingIterator", "Range", "ClosedRange", "Slice", "LazySequence", "LazyMapSequence",
        "UnsafePointer", "UnsafeMutablePointer", "UnsafeRawPointer", "UnsafeMutableRawPointer", "UnsafeBufferPointer",
        "UnsafeMutableBufferPointer", "UnsafeRawBufferPointer", "UnsafeMutableRawBufferPointer", "Unmanaged", "KeyPath",
        "AnyHashable", "Task", "TaskGroup", "ThrowingTaskGroup", "CheckedContinuation", "UnsafeContinuation", "MainActor",
        "AsyncStream", "AsyncThrowingStream", "Data", "URL", "Date", "UUID", "Decimal", "JSONDecoder", "JSONEncoder",
        "PropertyListDecoder", "PropertyListEncoder", "DispatchQueue", "OperationQueue", "Thread", "RunLoop", "Timer",
        "NotificationCenter", "Bundle", "FileManager", "ProcessInfo", "DefaultStringInterpolation", "StaticString",
        "BinaryInteger", "FixedWidthInteger", "Numeric", "Hasher", "Never", "Error", "Encoder", "Decoder",
        "KeyedDecodingContainer", "KeyedEncodingContainer", "SingleValueDecodingContainer", "UnkeyedDecodingContainer",
        "View", "ViewBuilder", "ModifiedContent", "ForEach", "Binding", "State", "StateObject", "ObservedObject",
        "EnvironmentObject", "Environment", "Published", "AnyView", "Text", "Image", "Color",
    ]

    /// A shared object of Linux's or Android's own runtime as backtraces there name it
    /// (`libc.so.6`, `ld-linux-x86-64.so.2`, `libstdc++.so.6`, `libswiftCore.so`, `linker64`):
    /// a pasted Linux or Android trace has no Binary Images to say it is not the app's.
    static func isOtherSystemsRuntimeLibrary(_ name: String) -> Bool {
        // (Lua's traceback names the interpreter's own C functions `[C]`.)
        // (Crystal's standard library, by where its sources are installed.)
        if name == "linker" || name == "linker64" || name == "[C]" || name == "crystal" { return true }
        // GHC's own packages, as its call stacks name a frame's `package:Module`
        // (`ghc-internal:GHC.Internal.List`, `base-4.18.0.0:GHC.List`).
        if let colon = name.firstIndex(of: ":") {
            let package = name[..<colon]
            let base = package.split(separator: "-").prefix { !($0.first?.isNumber ?? false) }.joined(separator: "-")
            if ["base", "ghc-internal", "ghc-prim", "ghc-bignum", "ghc", "integer-gmp"].contains(base) { return true }
        }
        guard let range = name.byteRange(of: ".so") else { return false }
        let rest = name[range.upperBound...]
        guard rest.isEmpty || rest.hasBytePrefix(".") && rest.dropFirst().allSatisfy({ $0.isNumber || $0 == "." }) else { return false }
        let base = String(name[..<range.lowerBound])
        let runtimePrefixes = ["ld-linux", "ld64", "libicu", "libswift", "libFoundation", "libstdc++", "libc++"]
        return otherSystemsRuntimeLibraries.contains(base) || runtimePrefixes.contains { base.hasBytePrefix($0) }
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
        // A toolchain's standard library (Rust's `/rustc/<commit>/library/std/src/`, Go's `src/runtime/`).
        if file.hasBytePrefix("/rustc/") || AppLine.standardLibrarySourceFolders.contains(where: { file.containsBytes($0) }) {
            return true
        }
        if file.hasBytePrefix("/") {
            return isSystemPath(file) || file.hasBytePrefix("/BuildRoot/") || file.hasBytePrefix("/Library/Caches/com.apple.xbs/")
                || file.hasBytePrefix("/AppleInternal/")
        }
        let runtimeFolders = ["Swift/", "_Concurrency/", "Foundation/", "SwiftUI/", "Combine/", "<compiler-generated>"]
        return runtimeFolders.contains { file.hasBytePrefix($0) }
    }

    /// OS locations: an image there is Apple's whatever else is said about it.
    package static func isSystemPath(_ path: String) -> Bool {
        let systemPrefixes = [
            "/System/", "/usr/lib/", "/usr/libexec/", "/Library/Apple/", "/usr/bin/", "/usr/sbin/", "/sbin/", "/bin/",
            "/Developer/", "/private/preboot/Cryptexes/",
        ]
        if systemPrefixes.contains(where: { path.hasBytePrefix($0) }) { return true }
        if path.containsBytes(".simruntime/") || path.containsBytes("/RuntimeRoot/") || path.containsBytes("/Contents/Developer/Platforms/")
            || path.containsBytes("/Contents/Developer/usr/")
        {
            return true
        }
        // Anything inside an Xcode bundle (`/Applications/Xcode_13.3.app/Contents/…`) is a
        // developer tool injected into the process, not the app.
        if path.split(separator: "/").contains(where: { $0.hasBytePrefix("Xcode") && $0.hasSuffix(".app") }) { return true }
        // Swift runtime libraries Xcode copied into apps built for iOS < 12.2 / macOS < 10.14.4
        // (`App.app/Frameworks/libswiftUIKit.dylib`): Apple's code, no app dSYM exists for them.
        if let file = path.split(separator: "/").last, file.hasBytePrefix("libswift"), file.hasSuffix(".dylib") { return true }
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
        if appPrefixes.contains(where: { path.hasBytePrefix($0) }) { return true }
        if path.containsBytes(".app/") { return true }
        if let processBundle, !processBundle.isEmpty, path.hasBytePrefix(processBundle) { return true }
        return false
    }

    /// Where the crashed process's own code lives: `/…/Foo.app/Foo` → `/…/Foo.app/`
    /// (also for `Contents/MacOS/Foo`); a bare tool → its directory. `nil` for OS processes.
    static func bundleDirectory(of processPath: String?) -> String? {
        guard let p = processPath, p.hasBytePrefix("/"), !isSystemPath(p) else { return nil }
        if let r = p.byteRange(of: ".app/") { return String(p[..<r.upperBound]) }
        guard let slash = p.lastIndex(of: "/"), slash > p.startIndex else { return nil }
        return String(p[...slash])
    }

    /// Whether an image is Apple's rather than the app's when the report gives no paths
    /// (MetricKit): a load address inside the shared cache region (arm64 from 0x1_8000_0000,
    /// x86_64 macOS from 0x7FF0_0000_0000: only system libraries live there, apps and their
    /// frameworks load below), or a name Apple's images go by. A heuristic, stated as one in
    /// the README.
    package static func isSystemImage(named name: String, loadAddress: UInt64) -> Bool {
        if (0x1_8000_0000..<0x10_0000_0000).contains(loadAddress) || loadAddress >= 0x7FF0_0000_0000 { return true }
        if name.hasSuffix(".dylib") || name == "???" || name.hasBytePrefix("<") { return true }
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
    package mutating func markAppCodeWithoutImage(onlyUnjudged: Bool = false) {
        let processName = processName
        let bundleIdentifier = bundleIdentifier
        updateFrames { (frame: inout Frame) in
            guard frame.imageIndex == nil, !onlyUnjudged || frame.isAppCodeWithoutImage == nil else { return }
            frame.isAppCodeWithoutImage = AppOwnership.isAppCode(
                imageName: frame.imageName, sourceFile: frame.sourceFile, processName: processName, bundleIdentifier: bundleIdentifier,
                symbol: frame.symbol)
        }
        demoteModulesWithoutSources()
    }

    /// A paste that shows which module is the app's (named like the process, or printing the
    /// app's source files: `Embark 0x… mbgl::Source::drawClippingMasks (source.cpp:189)`) says the
    /// other modules it names without a source file are not: the OS's drivers and private
    /// frameworks (`GLEngine`, `IMGSGX543GLDriver`) are too many to know by name, and a module
    /// the team built would print its sources as the app's do.
    private mutating func demoteModulesWithoutSources() {
        var shown: Set<String> = []
        var judgedByName = false
        for (_, frames) in allBacktraces {
            for frame in frames where frame.imageIndex == nil && frame.isAppCodeWithoutImage == true {
                guard let name = frame.imageName, !name.isEmpty else { continue }
                // A module whose method is of a class not Apple's (`alphaVideoPlayTool
                // -[SLMaskVideoPlayerLayer resum]`, a vendored framework) shows itself the team's too.
                if name == processName || name == bundleIdentifier
                    || frame.sourceFile.map({ !$0.isEmpty && !AppOwnership.isSystemSourceFile($0) }) == true
                    || frame.symbol.flatMap(AppOwnership.isAppCode(symbol:)) == true
                {
                    shown.insert(name)
                } else {
                    judgedByName = true
                }
            }
        }
        guard !shown.isEmpty, judgedByName else { return }
        updateFrames { (frame: inout Frame) in
            guard frame.imageIndex == nil, frame.isAppCodeWithoutImage == true, let name = frame.imageName, !name.isEmpty,
                !shown.contains(name)
            else { return }
            frame.isAppCodeWithoutImage = false
        }
    }
}
