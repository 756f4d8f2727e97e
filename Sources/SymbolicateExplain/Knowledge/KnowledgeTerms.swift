import Foundation
import SymbolicateCrashReport

// How the knowledge-base entries of issue 41 are named (their texts are in
// Catalogs/knowledge-*.json), and the memory limit each kind of process has.

extension KnowledgeBase {
    /// `kernel panic: <family ID>`: the term a family's entry is found by.
    static func panicFamilyTerm(_ family: KernelPanicFamily) -> String { "kernel panic: " + family.rawValue }

    /// `memory limit: <kind ID>`: the term a kind's entry is found by.
    static func memoryLimitTerm(_ kind: ProcessKind) -> String { "memory limit: " + kind.identifier }

    /// `Rust panic: <kind ID>`: the term a kind's entry is found by.
    static func rustPanicTerm(_ kind: RustPanic.Kind) -> String { "Rust panic: " + kind.rawValue }
}

/// The limit a kind of process has, as far as anyone can say: a figure in MB when developers
/// have observed one (`nil` when none is known), and the knowledge-base entry that explains it.
struct MemoryLimit: Sendable {
    let kind: ProcessKind
    /// Observed limit in MB (the lower and upper figures reported across OS versions).
    let megabytes: ClosedRange<Int>?
    var term: String { KnowledgeBase.memoryLimitTerm(kind) }

    static let table: [MemoryLimit] = [
        MemoryLimit(kind: .app, megabytes: nil),
        MemoryLimit(kind: .watchApp, megabytes: nil),
        MemoryLimit(kind: .appExtension(nil), megabytes: nil),
        MemoryLimit(kind: .appExtension(.broadcastUpload), megabytes: 50...50),
        MemoryLimit(kind: .appExtension(.notificationService), megabytes: 24...24),
        MemoryLimit(kind: .appExtension(.notificationContent), megabytes: nil),
        MemoryLimit(kind: .appExtension(.widget), megabytes: 30...30),
        MemoryLimit(kind: .appExtension(.today), megabytes: 16...32),
        MemoryLimit(kind: .appExtension(.share), megabytes: 120...120),
        MemoryLimit(kind: .appExtension(.action), megabytes: 120...120),
        MemoryLimit(kind: .appExtension(.keyboard), megabytes: 48...70),
        MemoryLimit(kind: .appExtension(.packetTunnel), megabytes: 15...50),
        MemoryLimit(kind: .appExtension(.fileProvider), megabytes: nil),
        MemoryLimit(kind: .appExtension(.intents), megabytes: nil),
        MemoryLimit(kind: .appExtension(.photoEditing), megabytes: nil),
    ]

    static func of(_ kind: ProcessKind) -> MemoryLimit? { table.first { $0.kind == kind } }
}
