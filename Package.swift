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
    // it (Xcode 26 on a Mac), and Xcode 26 runs on macOS 15.6 or later, so 15 is the floor: the
    // one place it is stated (the formula, the workflows and README follow; PlatformFloorTests).
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "symbolicate", targets: ["symbolicate"]),
        // One module for programs that use symbolicate as a library (`import SymbolicateKit`).
        .library(name: "SymbolicateKit", targets: ["SymbolicateKit"]),
    ],
    // What the CLI links beyond reading reports and local debug files. All are on by default
    // (`swift build`, `make install`, the release, the tests); `make demo` builds with none, so a
    // newcomer's first build compiles no HTTP server, TLS, PostgreSQL or SQLite (Benchmarks/README.md,
    // "Build"). Without one, its commands and options say which trait they need.
    traits: [
        .trait(
            name: "Server",
            description:
                "`symbolicate serve` and `symbolicate store`: the HTTP server and the debug-file store's index (SQLite, PostgreSQL)."),
        .trait(
            name: "SymbolSources",
            description: "Debug files fetched by identity: --symbol-server, debuginfod, --dsym-for-uuid (async-http-client)."),
        .trait(
            name: "AppStoreConnect",
            description:
                "`symbolicate fetch`: TestFlight crash logs and diagnostic logs from the App Store Connect API (async-http-client, swift-crypto)."
        ),
        .trait(
            name: "PLCrash",
            description: "PLCrashReporter's binary `.plcrash` reports read as any other layout (swift-protobuf)."),
        .trait(
            name: "MCP",
            description:
                "`symbolicate mcp`: the tools served to AI agents over the Model Context Protocol (modelcontextprotocol/swift-sdk)."),
        .default(enabledTraits: ["Server", "SymbolSources", "AppStoreConnect", "PLCrash", "MCP"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // PLCrashReporter's `.plcrash` protobuf messages (SymbolicateCrashReport, trait PLCrash only).
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        // Symbol servers and debuginfod (SymbolicateSymbolSources only).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // `symbolicate serve` only (SymbolicateServe): the HTTP server and its logs.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The store's index (SymbolicateStoreIndex only): SQLite, embedded.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The store's index in PostgreSQL for several `serve` instances sharing one store
        // (SymbolicateStoreIndexPostgres only), and its TLS (already brought in by async-http-client).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.25.0"),
        // Already brought in by Hummingbird; named for the HTTP parts `serve`'s connection guard handles.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.24.0"),
        // The App Store Connect API's ES256 tokens (SymbolicateAppStoreConnect only); already brought in by postgres-nio.
        .package(url: "https://github.com/apple/swift-crypto.git", "3.9.0"..<"6.0.0"),
        // `symbolicate mcp` only (SymbolicateMCP): the Model Context Protocol over stdio.
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
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
        // Symbol names spelled as Apple's tools spell them: Swift (the runtime's demangler), C++
        // (LLVM's Itanium demangler: linked on Linux, the system's __cxa_demangle on macOS) and
        // Rust (legacy and v0, in Swift).
        .target(name: "SymbolicateDemangling", dependencies: ["CLLVMDemangle"]),
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
        // Address -> source frames (inline chain) over Mach-O DWARF via libdwarf.
        .target(
            name: "SymbolicateDWARF",
            dependencies: ["CLibDwarf", "SymbolicateCore", "SymbolicateDemangling", "SymbolicateMachO", "SymbolicateELF"]
        ),
        // JSON read once into a tape (the `.ips` writer splices edits into the text it came from), JSON values,
        // and the one set of settings for JSON the tool writes. No other dependency.
        .target(name: "SymbolicateJSON"),
        // One model for text .crash and JSON .ips reports; parsers and writers.
        .target(
            name: "SymbolicateCrashReport",
            dependencies: [
                "SymbolicateCore", "SymbolicateDemangling", "SymbolicateJSON", "SymbolicateThrowSites",
                .product(name: "SwiftProtobuf", package: "swift-protobuf", condition: .when(traits: ["PLCrash"])),
            ]
        ),
        // Throw sites and the rules they enforce (Apple's frameworks, common SDKs): data in
        // Catalogs/throw-sites.json (every language side by side), its generated Swift table, the matcher.
        .target(name: "SymbolicateThrowSites", dependencies: ["SymbolicateCore"], exclude: ["Catalogs"]),
        // Knowledge base of exception types/codes/signals and evidence-based diagnosis.
        // The catalogs' data files (Catalogs/*.json) are the source of Generated/*.swift (`make catalogs`).
        .target(
            name: "SymbolicateExplain",
            dependencies: ["SymbolicateCore", "SymbolicateCrashReport", "SymbolicateJSON", "SymbolicateThrowSites"],
            exclude: ["Catalogs"]),
        // Finding debug files: bundles, folders, .xcarchive, zips; the identity index over them.
        .target(
            name: "SymbolicateDiscovery",
            dependencies: [
                "SymbolicateCore", "SymbolicateDWARF",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // The debug-file store's index: identity -> entry in SQLite (GRDB), kept with the files,
        // so a lookup never walks the store's folders.
        .target(
            name: "SymbolicateStoreIndex",
            dependencies: ["SymbolicateCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The same index in PostgreSQL (postgres-nio), for several `serve` instances sharing one
        // store folder (`--store-index postgres://…`).
        .target(
            name: "SymbolicateStoreIndexPostgres",
            dependencies: [
                "SymbolicateCore", "SymbolicateStoreIndex",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Debug files kept by identity in a folder (one file per UUID / build ID, atomic writes,
        // LRU eviction): the download cache and `serve --store`. No network here.
        .target(
            name: "SymbolicateSymbolStore",
            dependencies: [
                "SymbolicateCore", "SymbolicateMachO", "SymbolicateELF", "SymbolicateDWARF", "SymbolicateDiscovery",
                "SymbolicateStoreIndex",
            ]
        ),
        // Debug files fetched by identity where teams keep them: HTTP symbol servers (URL
        // templates, Sentry's layouts), debuginfod, dsymForUUID and lldb's file-mapped UUID
        // folders, kept in a DebugFileStore cache. With SymbolicateAppStoreConnect, the only network code.
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
        // `symbolicate fetch`: an app's TestFlight crash logs and diagnostic logs from the App Store
        // Connect API (ES256 token from the .p8 key, paging, 429s, renewal), written one file per
        // crash and run through batch on request.
        .target(
            name: "SymbolicateAppStoreConnect",
            dependencies: [
                "SymbolicateBatch", "SymbolicateCore", "SymbolicateJSON", "SymbolicatePipeline",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Apple's system images by UUID: DeviceSupport folders and dyld shared caches, the
        // folder Xcode would use for a report's OS, indexed once per run.
        .target(
            name: "SymbolicateSystemSymbols",
            dependencies: ["SymbolicateCore", "SymbolicateDemangling", "SymbolicateMachO", "SymbolicateDWARF", "SymbolicateDyldCache"]
        ),
        // Rewriting a report's frames from matching debug files (annotator), and atos.
        .target(
            name: "SymbolicateSymbolication",
            dependencies: [
                "SymbolicateCore", "SymbolicateCrashReport", "SymbolicateDWARF", "SymbolicateDiscovery", "SymbolicateJSON",
                "SymbolicateSystemSymbols",
            ]
        ),
        // Source lines around a report's crashing frames in a checkout (--source-root), with their
        // history from the `git` command: blame at the shipped commit, changes since, permalinks.
        .target(name: "SymbolicateSourceContext", dependencies: ["SymbolicateCore", "SymbolicateCrashReport"]),
        // Turning a symbolicated report into what the user reads: headline, formats, atomic files.
        .target(
            name: "SymbolicatePresentation",
            dependencies: [
                "SymbolicateCore", "SymbolicateCrashReport", "SymbolicateExplain", "SymbolicateJSON", "SymbolicateSourceContext",
                "SymbolicateSymbolication",
            ]
        ),
        // The one report path: input -> reports (ReportReaders) -> debug files -> symbolicated
        // report -> diagnosis -> presentation. `report`, `explain` and `batch` all go through it.
        .target(
            name: "SymbolicatePipeline",
            dependencies: [
                "SymbolicateCore", "SymbolicateCrashReport", "SymbolicateDWARF", "SymbolicateExplain", "SymbolicateDiscovery",
                "SymbolicateSymbolication", "SymbolicatePresentation", "SymbolicateSourceContext", "SymbolicateSystemSymbols",
                "SymbolicateScrub",
                "SymbolicateJSON",
            ]
        ),
        // `symbolicate scrub` and `--scrub`: user names, device, incident and anonymous ids, UDIDs,
        // e-mail and IP addresses in a report's text replaced by stable placeholders; image
        // identities kept. Text in, text out: every layout keeps its own (JSON stays JSON).
        .target(name: "SymbolicateScrub", dependencies: ["SymbolicateCore", "SymbolicateCrashReport"]),
        // `symbolicate mcp`: symbolicate, explain, atos, audit, store lookups and scrub as Model
        // Context Protocol tools over stdio, answering the CLI's JSON; paths only inside --allow folders.
        .target(
            name: "SymbolicateMCP",
            dependencies: [
                "SymbolicateCore", "SymbolicateJSON", "SymbolicatePipeline", "SymbolicateAudit", "SymbolicateSymbolStore",
                "SymbolicateSystemSymbols", .product(name: "MCP", package: "swift-sdk"),
            ]
        ),
        // Many reports at once: inputs, parallel runs, grouping and summaries.
        .target(
            name: "SymbolicateBatch",
            dependencies: [
                "SymbolicateCore", "SymbolicateCrashReport", "SymbolicateDiscovery", "SymbolicateSymbolication",
                "SymbolicatePresentation", "SymbolicatePipeline", "SymbolicateExplain", "SymbolicateJSON", "SymbolicateSystemSymbols",
                "SymbolicateDWARF", "SymbolicateSourceContext",
            ]
        ),
        // `symbolicate audit`: every binary of a build (.xcarchive, .ipa, .app, folder) matched
        // with its debug files by UUID, from headers only; reports, JUnit, annotations, --collect.
        .target(
            name: "SymbolicateAudit",
            dependencies: [
                "SymbolicateCore", "SymbolicateMachO", "SymbolicateDWARF", "SymbolicateDiscovery", "SymbolicateCrashReport",
                "SymbolicatePresentation", "SymbolicatePipeline", "SymbolicateBatch", "SymbolicateJSON",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // `symbolicate serve`: the web page and the HTTP API over the same request types as the
        // CLI (byte-for-byte the same output), the debug-file store, limits and metrics.
        .target(
            name: "SymbolicateServe",
            dependencies: [
                "SymbolicateCore", "SymbolicateCrashReport", "SymbolicateDiscovery", "SymbolicateExplain", "SymbolicatePipeline",
                "SymbolicatePresentation", "SymbolicateSymbolStore", "SymbolicateDWARF", "SymbolicateSymbolication",
                "SymbolicateStoreIndex", "SymbolicateStoreIndexPostgres", "SymbolicateSourceContext", "SymbolicateInbox",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                // The connection guard sits between the HTTP decoder and the server (HTTP parts).
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The crash inbox (`serve`'s POST /v1/reports): reports kept once, grouped by batch's crash
        // signature across builds, states and regressions, in SQLite (GRDB) or PostgreSQL (postgres-nio).
        .target(
            name: "SymbolicateInbox",
            dependencies: [
                "SymbolicateCore", "SymbolicateCrashReport", "SymbolicateExplain", "SymbolicateSymbolication", "SymbolicatePipeline",
                "SymbolicateBatch", "SymbolicateStoreIndexPostgres",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The command line: arguments in, one library request, its response to the terminal and an exit code.
        .executableTarget(
            name: "symbolicate",
            dependencies: [
                "SymbolicateCore", "SymbolicateExplain", "SymbolicateDiscovery", "SymbolicatePresentation", "SymbolicatePipeline",
                "SymbolicateBatch", "SymbolicateSystemSymbols", "SymbolicateAudit", "SymbolicateDWARF", "SymbolicateSourceContext",
                .target(name: "SymbolicateSymbolSources", condition: .when(traits: ["SymbolSources"])),
                .target(name: "SymbolicateServe", condition: .when(traits: ["Server"])),
                .target(name: "SymbolicateAppStoreConnect", condition: .when(traits: ["AppStoreConnect"])),
                .target(name: "SymbolicateMCP", condition: .when(traits: ["MCP"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The library product's one module: re-exports the request types and the model they return.
        .target(
            name: "SymbolicateKit",
            dependencies: [
                "SymbolicateAudit", "SymbolicateBatch", "SymbolicateCore", "SymbolicateCrashReport", "SymbolicateDWARF",
                "SymbolicateDiscovery", "SymbolicateExplain", "SymbolicateJSON", "SymbolicatePipeline", "SymbolicatePresentation",
                "SymbolicateSymbolication",
                "SymbolicateSystemSymbols",
            ]
        ),
        // Benchmarks/store-index: one million entries in a store index (SQLite or PostgreSQL), lookup
        // time and memory, and an upload used by the next lookup.
        .executableTarget(
            name: "store-index-benchmark",
            dependencies: ["SymbolicateCore", "SymbolicateStoreIndex", "SymbolicateStoreIndexPostgres", "SymbolicateSymbolStore"],
            path: "Benchmarks/store-index"),
        // Benchmarks/inbox: 100,000 reports varied from the corpus in a crash inbox (SQLite or
        // PostgreSQL): ingest rate, memory, list and group query times; `--serve` for wrk.
        .executableTarget(
            name: "inbox-benchmark",
            dependencies: ["SymbolicateCore", "SymbolicateInbox", "SymbolicatePipeline", "SymbolicateServe"],
            path: "Benchmarks/inbox", exclude: ["run.sh"]),
        // Shared by the test targets: fixture and corpus locations, the fixture manifest,
        // external tools (the oracle) and the CLI runner.
        .target(name: "SymbolicateTestSupport", path: "Tests/SymbolicateTestSupport"),
        .testTarget(name: "SymbolicateCoreTests", dependencies: ["SymbolicateCore"]),
        .testTarget(name: "SymbolicateDemanglingTests", dependencies: ["SymbolicateDemangling", "SymbolicateTestSupport"]),
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
            dependencies: [
                "SymbolicateCore", "SymbolicateDemangling", "SymbolicateDWARF", "SymbolicateELF", "SymbolicateMachO",
                "SymbolicateTestSupport",
            ]
        ),
        .testTarget(
            name: "SymbolicateCrashReportTests",
            dependencies: ["SymbolicateCore", "SymbolicateCrashReport", "SymbolicateJSON", "SymbolicateTestSupport"]
        ),
        .testTarget(name: "SymbolicateJSONTests", dependencies: ["SymbolicateJSON"]),
        .testTarget(
            name: "SymbolicateMCPTests",
            dependencies: [
                "SymbolicateMCP", "SymbolicateSymbolStore", "SymbolicateTestSupport", .product(name: "MCP", package: "swift-sdk"),
            ]
        ),
        .testTarget(
            name: "SymbolicateScrubTests",
            dependencies: ["SymbolicateScrub", "SymbolicateCrashReport", "SymbolicatePipeline", "SymbolicateTestSupport"]
        ),
        .testTarget(name: "SymbolicateKitTests", dependencies: ["SymbolicateKit", "SymbolicateTestSupport"]),
        .testTarget(
            name: "SymbolicateSourceContextTests",
            dependencies: [
                "SymbolicateBatch", "SymbolicateCore", "SymbolicateCrashReport", "SymbolicateExplain", "SymbolicatePipeline",
                "SymbolicatePresentation", "SymbolicateSourceContext", "SymbolicateTestSupport",
            ]
        ),
        .testTarget(
            name: "SymbolicatePresentationTests",
            dependencies: ["SymbolicateCrashReport", "SymbolicatePresentation", "SymbolicateTestSupport"]
        ),
        .testTarget(
            name: "SymbolicateExplainTests",
            dependencies: [
                "SymbolicateExplain", "SymbolicateCrashReport", "SymbolicateJSON", "SymbolicateTestSupport", "SymbolicateThrowSites",
            ]
        ),
        .testTarget(name: "SymbolicateThrowSitesTests", dependencies: ["SymbolicateCore", "SymbolicateThrowSites"]),
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
                "SymbolicateCrashReport", "SymbolicateDiscovery", "SymbolicateExplain", "SymbolicatePipeline", "SymbolicatePresentation",
                "SymbolicateTestSupport", "SymbolicateCore",
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
        .testTarget(name: "SymbolicateStoreIndexTests", dependencies: ["SymbolicateCore", "SymbolicateStoreIndex"]),
        // Against a real PostgreSQL on loopback when SYMBOLICATE_TEST_POSTGRES_URL is set (`make test`
        // starts one: scripts/with-postgres.sh); skipped, saying so, when it is not.
        .testTarget(
            name: "SymbolicateStoreIndexPostgresTests",
            dependencies: ["SymbolicateCore", "SymbolicateStoreIndex", "SymbolicateStoreIndexPostgres"]
        ),
        // Grouping on the labelled set, both databases (PostgreSQL as for the store index's tests).
        .testTarget(
            name: "SymbolicateInboxTests",
            dependencies: [
                "SymbolicateInbox", "SymbolicateCore", "SymbolicatePipeline", "SymbolicateTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "SymbolicateSymbolSourcesTests",
            dependencies: ["SymbolicateCore", "SymbolicateDiscovery", "SymbolicateSymbolSources", "SymbolicateTestSupport"]
        ),
        // Against a local Hummingbird server on loopback that answers in the documented shapes and
        // checks each token's signature with the key's public half; never the network.
        .testTarget(
            name: "SymbolicateAppStoreConnectTests",
            dependencies: [
                "SymbolicateAppStoreConnect", "SymbolicatePipeline", "SymbolicateTestSupport", "symbolicate",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "SymbolicateServeTests",
            dependencies: [
                "SymbolicateServe", "SymbolicatePipeline", "SymbolicateTestSupport", "symbolicate", "SymbolicateCore", "SymbolicateDWARF",
                "SymbolicateSymbolStore", "SymbolicateStoreIndex", "SymbolicateStoreIndexPostgres",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SymbolicateAuditTests",
            dependencies: [
                "SymbolicateAudit", "SymbolicateCore", "SymbolicateDWARF", "SymbolicateMachO", "SymbolicatePipeline",
                "SymbolicateSymbolSources",
                "SymbolicateSymbolStore", "SymbolicateTestSupport",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // End-to-end: runs the real built `symbolicate` binary.
        .testTarget(name: "symbolicateCLITests", dependencies: ["symbolicate", "SymbolicateTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
