import Foundation
import SymbolicateCore

/// What the index knows of one stored build: everything the store's `info.json` says, the
/// digest of the stored bytes, and when it was last used.
package struct StoreIndexRecord: Sendable, Equatable {
    package var id: DebugID
    /// `mach-o` or `elf`.
    package var format: String
    package var architecture: String
    /// The image's file name.
    package var name: String
    /// Bytes of the stored debug file.
    package var size: UInt64
    /// Bytes the entry takes in the store (the debug file and its metadata).
    package var footprint: UInt64
    package var hasDWARF: Bool
    package var storedAt: Date
    package var origin: String?
    /// SHA-256 of the stored debug file, lowercase hex.
    package var digest: String
    package var lastUsed: Date

    package init(
        id: DebugID, format: String, architecture: String, name: String, size: UInt64, footprint: UInt64, hasDWARF: Bool,
        storedAt: Date, origin: String?, digest: String, lastUsed: Date
    ) {
        self.id = id
        self.format = format
        self.architecture = architecture
        self.name = name
        self.size = size
        self.footprint = footprint
        self.hasDWARF = hasDWARF
        self.storedAt = storedAt
        self.origin = origin
        self.digest = digest
        self.lastUsed = lastUsed
    }
}

/// Identity → stored entry, kept next to a debug-file store so that a lookup, a listing, the
/// store's figures and eviction never walk its folders.
///
/// The store changes its files inside `put`/`remove` (`during:`): the index's row and the
/// file's rename commit together, or neither does. Several processes may share one index.
package protocol StoreIndex: AnyObject, Sendable {
    /// Where the index is, as shown to users (a file; a URL without its password).
    var location: String { get }
    /// The entry of an identity, or nil.
    func record(for id: DebugID) throws(StoreIndexError) -> StoreIndexRecord?
    /// Adds or replaces the entry of `record.id`, running `change` (the decision, then the
    /// files' renames) inside the same transaction, given the entry of that identity as it is
    /// there: read under a lock every writer of the identity takes, in this process and in any
    /// other sharing the index, so that deciding and writing are one step. When `change`
    /// throws (a decision not to write, a failed rename), the index is left as it was and the
    /// error is rethrown as it is.
    func put(_ record: StoreIndexRecord, checking change: (_ current: StoreIndexRecord?) throws -> Void) throws
    /// Removes the entry of an identity, running `change` (the folder's removal) inside the
    /// same transaction; `change` says whether there was something to remove.
    func remove(_ id: DebugID, during change: () throws -> Bool) throws -> Bool
    /// Records a use (least-recently-used eviction reads it).
    func markUsed(_ id: DebugID, at date: Date) throws(StoreIndexError)
    /// Every entry, least recently used first.
    func records() throws(StoreIndexError) -> [StoreIndexRecord]
    /// Number of entries and bytes they take, without reading them all.
    func figures() throws(StoreIndexError) -> (entries: Int, bytes: UInt64)
    /// Replaces every entry at once (a rebuild from the store's folders).
    func replaceAll(with records: [StoreIndexRecord]) throws(StoreIndexError)
}

extension StoreIndex {
    /// Adds or replaces the entry of `record.id` whatever is there, running `change` inside the
    /// same transaction (`put(_:checking:)`).
    package func put(_ record: StoreIndexRecord, during change: () throws -> Void) throws {
        try put(record, checking: { _ in try change() })
    }
}

/// Why the index could not answer or change; names where the index is.
package struct StoreIndexError: Error, Sendable, Equatable, CustomStringConvertible {
    package var location: String
    package var message: String
    /// The index file is damaged (not a database, a page that does not read): it can only be
    /// made again, not used.
    package var isDamage: Bool
    package var description: String { "\(location): \(message)" }
    package init(location: String, message: String, isDamage: Bool = false) {
        self.location = location
        self.message = message
        self.isDamage = isDamage
    }
}
