import Foundation
import SymbolicateTestSupport
import Testing

/// Every module a target imports is one of its declared dependencies in `Package.swift`.
/// SwiftPM's `--explicit-target-dependency-import-check` (run by `make test`) accepts modules
/// reached through another dependency; this asks for the direct declaration, so the manifest
/// says what each target really uses.
@Suite struct PackageImportsTests {
    struct Target {
        var name: String
        var folder: String
        var dependencies: Set<String>
    }

    /// The targets of `Package.swift`, read from its text: `.target(`, `.testTarget(` and
    /// `.executableTarget(` calls with their `name:`, `path:` and `dependencies:` (target names
    /// and `.product(name:)`s).
    static func targets() throws -> [Target] {
        let manifest = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        var targets: [Target] = []
        for kind in [".target(", ".testTarget(", ".executableTarget("] {
            for chunk in manifest.components(separatedBy: kind).dropFirst() {
                let call = Self.balancedPrefix(chunk)
                // `.target(name: X, condition: .when(traits: …))` in a dependency list names a
                // dependency (a package trait's), not a target declaration.
                guard let name = Self.firstQuoted(after: "name:", in: call), !call.contains("condition:") else { continue }
                let isTest = kind == ".testTarget("
                let folder = Self.firstQuoted(after: "path:", in: call) ?? (isTest ? "Tests/" : "Sources/") + name
                var dependencies: Set<String> = []
                if let list = call.range(of: "dependencies:").map({
                    Self.balancedPrefix(String(call[$0.upperBound...].drop { $0 != "[" }.dropFirst()))
                }) {
                    for match in list.matches(of: /"([A-Za-z0-9_]+)"/) { dependencies.insert(String(match.1)) }
                }
                targets.append(Target(name: name, folder: folder, dependencies: dependencies))
            }
        }
        return targets
    }

    /// The text up to the bracket that closes the one opened just before it.
    static func balancedPrefix(_ text: String) -> String {
        var depth = 0
        for (offset, character) in text.enumerated() {
            if character == "(" || character == "[" { depth += 1 }
            if character == ")" || character == "]" {
                if depth == 0 { return String(text.prefix(offset)) }
                depth -= 1
            }
        }
        return text
    }

    static func firstQuoted(after label: String, in text: String) -> String? {
        guard let range = text.range(of: label) else { return nil }
        return text[range.upperBound...].firstMatch(of: /\s*"([^"]+)"/).map { String($0.1) }
    }

    /// Modules imported by the Swift files below `folder`.
    static func imports(in folder: String) -> Set<String> {
        let root = TestPaths.packageRoot.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var modules: Set<String> = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            for match in text.matches(of: /(?m)^\s*(?:@testable\s+|@_implementationOnly\s+)?import\s+([A-Za-z0-9_]+)/) {
                modules.insert(String(match.1))
            }
        }
        return modules
    }

    @Test func everyImportOfAPackageModuleIsDeclared() throws {
        let targets = try Self.targets()
        #expect(targets.count >= 20, "Package.swift no longer reads as expected")
        let packageModules = Set(targets.map(\.name)).union(["ArgumentParser", "ZIPFoundation"])
        for target in targets {
            let undeclared = Self.imports(in: target.folder).intersection(packageModules).subtracting(
                target.dependencies.union([target.name]))
            #expect(undeclared.isEmpty, "\(target.name) imports \(undeclared.sorted()) without declaring them in Package.swift")
        }
    }
}
