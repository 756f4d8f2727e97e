import Foundation

/// External tools the tests compare against (llvm-symbolizer-19, llvm-dwarfdump-19,
/// swift-demangle): found on PATH or in the usual toolchain folders.
public enum ExternalTool {
    /// An executable found on PATH or in the usual toolchain folders, or nil.
    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/opt/swift/usr/bin", "/usr/bin", "/usr/lib/llvm-19/bin"]
        for folder in folders {
            let candidate = (folder as NSString).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// A reader of Mach-O UUIDs whose `--uuid` prints `UUID: <UUID> (<arch>) <path>`:
    /// llvm-dwarfdump (19 first), or on macOS Xcode's `dwarfdump` (LLVM's, the same output).
    /// Linux's `dwarfdump` is libdwarf's, another program: never taken there.
    public static var uuidDumper: String? {
        #if os(macOS)
            find("llvm-dwarfdump-19") ?? find("llvm-dwarfdump") ?? find("dwarfdump")
        #else
            find("llvm-dwarfdump-19") ?? find("llvm-dwarfdump")
        #endif
    }

    /// readelf (binutils) or llvm-readelf, for ELF notes; a Mac has neither unless installed.
    public static var readelf: String? {
        find("readelf") ?? find("llvm-readelf-19") ?? find("llvm-readelf")
    }

    /// Runs a tool and returns its stdout; stdin optional.
    public static func run(_ executable: String, _ arguments: [String], stdin: String? = nil) throws -> String {
        try runProcess(URL(fileURLWithPath: executable), arguments, stdin: stdin).stdout
    }

    /// Start addresses of every line-table row that is not an end-of-sequence marker, as
    /// `llvm-dwarfdump --debug-line` prints them (`options`: `--arch=arm64` for one Mach-O slice).
    public static func lineRowAddresses(_ dwarfFile: String, options: [String] = [], dwarfdump: String) throws -> [UInt64] {
        let text = try run(dwarfdump, ["--debug-line"] + options + [dwarfFile])
        var addresses = Set<UInt64>()
        for line in text.split(separator: "\n") where line.hasPrefix("0x") && !line.contains("end_sequence") {
            guard let word = line.split(separator: " ").first, word.count == 18,
                let address = UInt64(word.dropFirst(2), radix: 16)
            else { continue }
            addresses.insert(address)
        }
        return addresses.sorted()
    }

    /// Runs a tool in `currentDirectory` and returns everything it did (status included).
    public static func result(_ executable: String, _ arguments: [String], currentDirectory: URL? = nil) throws -> CLIResult {
        try runProcess(URL(fileURLWithPath: executable), arguments, stdin: nil, currentDirectory: currentDirectory)
    }
}
