// swift-tools-version: 6.2
import PackageDescription

// libdwarf's compiler and linker flags come from its libdwarf.pc on macOS, where libdwarf
// (Homebrew's 2.x) lives outside the default search paths; every libdwarf 0.x/2.x build
// (cmake, meson, autotools) installs that file. Debian 12's libdwarf-dev (20210528) has none
// and is on the default paths; naming a pkg-config file that is absent makes SwiftPM warn on
// every build. On Linux a libdwarf in a private prefix is named with its pkg-config flags on
// the command line (scripts/test-libdwarf-current.sh does that for 0.11.1).
#if os(macOS)
    let libdwarfPkgConfig: String? = "libdwarf"
#else
    // SYMBOLICATE_LIBDWARF_PKGCONFIG=libdwarf names it on Linux too: its -I then reaches only the
    // targets that import CLibDwarf, so a build against another libdwarf recompiles those alone
    // instead of every module of every package (as a global -Xcc -I would).
    let libdwarfPkgConfig: String? = Context.environment["SYMBOLICATE_LIBDWARF_PKGCONFIG"]
#endif

// The ELF reader: libelf (elfutils) on Linux by default; the pure-Swift reader on macOS, which has
// no elfutils (Homebrew's `libelf` is the unmaintained 0.8.13 without the calls used), and in any
// build made with SYMBOLICATE_ELF_READER=swift — CI's Mac-shaped lane builds so and checks that no
// libelf is linked (scripts/test-libdwarf-current.sh).
#if os(macOS)
    let swiftELFOnly = true
#else
    let swiftELFOnly = Context.environment["SYMBOLICATE_ELF_READER"] == "swift"
#endif
let elfSettings: [SwiftSetting] = swiftELFOnly ? [.define("SYMBOLICATE_NO_LIBELF")] : []

let package = Package(
    name: "symbolicate",
    // Tools 6.2 (first line): Hummingbird 2.28, async-http-client 1.37 and swift-log 1.16 declare
    // it (Xcode 26 on a Mac). macOS 14: Hummingbird 2's API availability.
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "symbolicate", targets: ["symbolicate"]),
        .library(
            name: "SymbolicateKit",
            targets: [
                "SymbolicateCore", "SymbolicateMachO", "SymbolicateELF", "SymbolicateDWARF", "SymbolicateCrashReport",
                "SymbolicateExplain", "SymbolicateDiscovery", "SymbolicateSymbolication", "SymbolicatePresentation",
                "SymbolicatePipeline", "SymbolicateBatch", "SymbolicateDyldCache", "SymbolicateSystemSymbols",
                "SymbolicateSymbolStore",
            ]
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        // Symbol servers and debuginfod (SymbolicateSymbolSources only).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // `symbolicate serve` only (SymbolicateServe): the HTTP server, its lifecycle and logs.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // The only C in the package: libdwarf's headers behind one shim.
        .systemLibrary(
            name: "CLibDwarf",
            pkgConfig: libdwarfPkgConfig,
            providers: [.apt(["libdwarf-dev", "libelf-dev"]), .brew(["dwarfutils"])]
        ),
        // libelf (elfutils) for reading ELF executables and debug files (Linux only; see above).
        .systemLibrary(name: "CLibElf", providers: [.apt(["libelf-dev"])]),
        // zlib for the pure-Swift ELF reader's compressed sections (the SDK's on macOS). Not
        // "CZlib": ZIPFoundation has a module of that name.
        .systemLibrary(name: "CSystemZlib", providers: [.apt(["zlib1g-dev"])]),
        // LLVM's demangler (llvm-19-dev's libLLVMDemangle.a) linked statically on Linux, behind
        // one extern "C" entry: C++ names spelled as llvm-symbolizer and Apple's tools spell them.
        .target(
            name: "CLLVMDemangle",
            cxxSettings: [
                .unsafeFlags(["-std=c++17"]),
                .unsafeFlags(["-I/usr/lib/llvm-19/include"], .when(platforms: [.linux])),
            ],
            linkerSettings: [
                .unsafeFlags(["-L/usr/lib/llvm-19/lib"], .when(platforms: [.linux])),
                .linkedLibrary("LLVMDemangle", .when(platforms: [.linux])),
            ]
        ),
        // The vocabulary every module shares: DebugID (UUID / build ID), Architecture, ImageSlide.
        .target(name: "SymbolicateCore"),
        // Pure-Swift Mach-O reading (thin/fat, load commands, UUIDs, sections, symtab).
        .target(name: "SymbolicateMachO", dependencies: ["SymbolicateCore"]),
        // Pure-Swift dyld shared cache reading (main file, subcaches, .symbols): images by
        // UUID and each image's symbols, through SymbolicateMachO's bounds-checked cursor.
        .target(name: "SymbolicateDyldCache", dependencies: ["SymbolicateCore", "SymbolicateMachO"]),
        // ELF reading, on libelf or in pure Swift over SymbolicateMachO's mapped file and
        // cursor: sections (zlib-compressed too), program headers, build ID, .gnu_debuglink,
        // function symbols.
        .target(
            name: "SymbolicateELF",
            dependencies: ["CSystemZlib", "SymbolicateCore", "SymbolicateMachO", swiftELFOnly ? nil : "CLibElf"].compactMap { $0 },
            swiftSettings: elfSettings
        ),
        // Address -> source frames (inline chain) over Mach-O DWARF via libdwarf; demangling.
        .target(
            name: "SymbolicateDWARF", dependencies: ["CLibDwarf", "CLLVMDemangle", "SymbolicateCore", "SymbolicateMachO", "SymbolicateELF"]),
        // One model for text .crash and JSON .ips reports; parsers and writers.
        .target(name: "SymbolicateCrashReport", dependencies: ["SymbolicateCore"]),
        // Knowledge base of exception types/codes/signals and evidence-based diagnosis.
        .target(name: "SymbolicateExplain", dependencies: ["SymbolicateCrashReport"]),
        // Finding debug files: bundles, folders, .xcarchive, zips; the identity index over them.
        .target(
            name: "SymbolicateDiscovery",
            dependencies: [
                "SymbolicateCore", "SymbolicateDWARF",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // Debug files kept by identity in a folder (one file per UUID / build ID, atomic writes,
        // LRU eviction): the download cache and `serve --store`. No network here.
        .target(
            name: "SymbolicateSymbolStore",
            dependencies: ["SymbolicateCore", "SymbolicateMachO", "SymbolicateELF", "SymbolicateDWARF", "SymbolicateDiscovery"]
        ),
        // Debug files fetched by identity where teams keep them: HTTP symbol servers (URL
        // templates, Sentry's layouts), debuginfod, dsymForUUID and lldb's file-mapped UUID
        // folders, kept in a DebugFileStore cache. The only target with network code.
        .target(
            name: "SymbolicateSymbolSources",
            dependencies: [
                "SymbolicateCore", "SymbolicateDiscovery", "SymbolicateSymbolStore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Apple's system images by UUID: DeviceSupport folders and dyld shared caches, the
        // folder Xcode would use for a report's OS, indexed once per run.
        .target(
            name: "SymbolicateSystemSymbols",
            dependencies: ["SymbolicateCore", "SymbolicateMachO", "SymbolicateDWARF", "SymbolicateDyldCache"]
        ),
        // Rewriting a report's frames from matching debug files (annotator), and atos.
        .target(
            name: "SymbolicateSymbolication",
            dependencies: [
                "SymbolicateCore", "SymbolicateCrashReport", "SymbolicateDWARF", "SymbolicateDiscovery", "SymbolicateSystemSymbols",
            ]
        ),
        // Turning a symbolicated report into what the user reads: headline, formats, atomic files.
        .target(
            name: "SymbolicatePresentation",
            dependencies: ["SymbolicateCore", "SymbolicateCrashReport", "SymbolicateExplain", "SymbolicateSymbolication"]
        ),
        // The one report path: input -> reports (ReportReaders) -> debug files -> symbolicated
        // report -> diagnosis -> presentation. `report`, `explain` and `batch` all go through it.
        .target(
            name: "SymbolicatePipeline",
            dependencies: [
                "SymbolicateCore", "SymbolicateCrashReport", "SymbolicateDWARF", "SymbolicateExplain", "SymbolicateDiscovery",
                "SymbolicateSymbolication", "SymbolicatePresentation", "SymbolicateSystemSymbols",
            ]
        ),
        // Many reports at once: inputs, parallel runs, grouping and summaries.
        .target(
            name: "SymbolicateBatch",
            dependencies: [
                "SymbolicateCore", "SymbolicateCrashReport", "SymbolicateDiscovery", "SymbolicateSymbolication",
                "SymbolicatePresentation", "SymbolicatePipeline", "SymbolicateExplain", "SymbolicateSystemSymbols",
            ]
        ),
        // `symbolicate serve`: the web page and the HTTP API over the same request types as the
        // CLI (byte-for-byte the same output), the debug-file store, limits and metrics.
        .target(
            name: "SymbolicateServe",
            dependencies: [
                "SymbolicateCore", "SymbolicateCrashReport", "SymbolicateDiscovery", "SymbolicateExplain", "SymbolicatePipeline",
                "SymbolicatePresentation", "SymbolicateBatch", "SymbolicateSymbolStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "symbolicate",
            dependencies: [
                "SymbolicateCore", "SymbolicateCrashReport", "SymbolicateDWARF", "SymbolicateExplain",
                "SymbolicateDiscovery", "SymbolicateSymbolication", "SymbolicatePresentation", "SymbolicatePipeline",
                "SymbolicateBatch", "SymbolicateSystemSymbols", "SymbolicateSymbolSources", "SymbolicateServe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Shared by the test targets: fixture and corpus locations, the fixture manifest,
        // external tools (the oracle) and the CLI runner.
        .target(name: "SymbolicateTestSupport", path: "Tests/SymbolicateTestSupport"),
        .testTarget(name: "SymbolicateCoreTests", dependencies: ["SymbolicateCore"]),
        .testTarget(name: "SymbolicateMachOTests", dependencies: ["SymbolicateCore", "SymbolicateMachO"]),
        .testTarget(
            name: "SymbolicateDyldCacheTests",
            dependencies: ["SymbolicateCore", "SymbolicateDyldCache", "SymbolicateTestSupport"]
        ),
        .testTarget(
            name: "SymbolicateSystemSymbolsTests",
            dependencies: ["SymbolicateCore", "SymbolicateDWARF", "SymbolicateSystemSymbols", "SymbolicateTestSupport"]
        ),
        .testTarget(
            name: "SymbolicateELFTests", dependencies: ["SymbolicateCore", "SymbolicateELF", "SymbolicateTestSupport"],
            swiftSettings: elfSettings
        ),
        .testTarget(
            name: "SymbolicateDWARFTests",
            dependencies: ["SymbolicateCore", "SymbolicateDWARF", "SymbolicateELF", "SymbolicateMachO", "SymbolicateTestSupport"]
        ),
        .testTarget(
            name: "SymbolicateCrashReportTests",
            dependencies: ["SymbolicateCore", "SymbolicateCrashReport", "SymbolicateTestSupport"]
        ),
        .testTarget(
            name: "SymbolicateExplainTests",
            dependencies: ["SymbolicateExplain", "SymbolicateCrashReport", "SymbolicateTestSupport"]
        ),
        .testTarget(
            name: "SymbolicateDiscoveryTests",
            dependencies: [
                "SymbolicateCore", "SymbolicateDWARF", "SymbolicateDiscovery", "SymbolicateTestSupport",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .testTarget(
            name: "SymbolicateSymbolicationTests",
            dependencies: [
                "SymbolicateCore", "SymbolicateCrashReport", "SymbolicateDiscovery", "SymbolicateSymbolication",
                "SymbolicateTestSupport",
            ]
        ),
        .testTarget(
            name: "SymbolicatePipelineTests",
            dependencies: [
                "SymbolicateCrashReport", "SymbolicateDiscovery", "SymbolicatePipeline", "SymbolicatePresentation",
                "SymbolicateTestSupport",
            ]
        ),
        .testTarget(
            name: "SymbolicateBatchTests",
            dependencies: [
                "SymbolicateCore", "SymbolicateCrashReport", "SymbolicateDiscovery", "SymbolicateSymbolication", "SymbolicatePipeline",
                "SymbolicateBatch", "SymbolicateTestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .testTarget(
            name: "SymbolicateSymbolStoreTests",
            dependencies: [
                "SymbolicateCore", "SymbolicateDiscovery", "SymbolicateSymbolStore", "SymbolicateTestSupport",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .testTarget(
            name: "SymbolicateSymbolSourcesTests",
            dependencies: ["SymbolicateCore", "SymbolicateDiscovery", "SymbolicateSymbolSources", "SymbolicateTestSupport"]
        ),
        .testTarget(
            name: "SymbolicateServeTests",
            dependencies: [
                "SymbolicateServe", "SymbolicatePipeline", "SymbolicateTestSupport", "symbolicate",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // End-to-end: runs the real built `symbolicate` binary.
        .testTarget(name: "symbolicateCLITests", dependencies: ["symbolicate", "SymbolicateTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
