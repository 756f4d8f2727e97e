// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "symbolicate",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "symbolicate", targets: ["symbolicate"]),
        .library(name: "SymbolicateKit", targets: ["SymbolicateKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
    ],
    targets: [
        // The only C in the package: libdwarf's headers behind one shim.
        .systemLibrary(
            name: "CLibDwarf",
            providers: [.apt(["libdwarf-dev", "libelf-dev"]), .brew(["libdwarf"])]
        ),
        // Pure-Swift Mach-O reading (thin/fat, load commands, UUIDs, sections, symtab).
        .target(name: "SymbolicateMachO"),
        // Address -> source frames (inline chain) over Mach-O DWARF via libdwarf; demangling.
        .target(name: "SymbolicateDWARF", dependencies: ["CLibDwarf", "SymbolicateMachO"]),
        // One model for text .crash and JSON .ips reports; parsers and writers.
        .target(name: "SymbolicateCrashReport"),
        // Knowledge base of exception types/codes/signals and evidence-based diagnosis.
        .target(name: "SymbolicateExplain", dependencies: ["SymbolicateCrashReport"]),
        // Debug-file discovery, annotator, batch engine: glue between the libraries.
        .target(
            name: "SymbolicateKit",
            dependencies: [
                "SymbolicateMachO", "SymbolicateDWARF", "SymbolicateCrashReport", "SymbolicateExplain",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .executableTarget(
            name: "symbolicate",
            dependencies: [
                "SymbolicateKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "SymbolicateMachOTests", dependencies: ["SymbolicateMachO"]),
        .testTarget(name: "SymbolicateDWARFTests", dependencies: ["SymbolicateDWARF", "SymbolicateMachO"]),
        .testTarget(name: "SymbolicateCrashReportTests", dependencies: ["SymbolicateCrashReport"]),
        .testTarget(name: "SymbolicateExplainTests", dependencies: ["SymbolicateExplain", "SymbolicateCrashReport"]),
        .testTarget(
            name: "SymbolicateKitTests",
            dependencies: ["SymbolicateKit", .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        // End-to-end: runs the real built `symbolicate` binary.
        .testTarget(name: "symbolicateCLITests", dependencies: ["symbolicate"]),
    ],
    swiftLanguageModes: [.v6]
)
