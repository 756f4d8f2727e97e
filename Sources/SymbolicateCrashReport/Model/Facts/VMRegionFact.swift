import Foundation

/// What the first line of `VM Region Info` says about the faulting address: the address, and
/// whether it lies in a mapped region (`0x16f603ff8 is in 0x16f600000-0x16f604000;…`) or in
/// none (`0x8 is not in any region.  Bytes before following region: 4294967288`). The `.crash`
/// form carries the address in `Exception Subtype` too; a MetricKit crash diagnostic carries it
/// only here (`virtualMemoryRegionInfo`), so this is the one reading of it for every layout.
public struct VMRegionFact: Sendable, Hashable {
    /// The address the line is about.
    public var address: UInt64
    /// False when the line says `is not in any region`.
    public var isInRegion: Bool

    public init(address: UInt64, isInRegion: Bool) {
        self.address = address
        self.isInRegion = isInRegion
    }

    /// Reads `ADDRESS is not in any region…` / `ADDRESS is in …`; nil for anything else.
    /// The address is hex with `0x`, or a bare decimal (Apple prints `0 is not in any region`).
    public init?(line: String) {
        let words = line.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: true)
        guard words.count >= 3, words[1] == "is" else { return nil }
        let first = words[0].lowercased()
        let address: UInt64?
        if first.hasPrefix("0x") {
            address = UInt64(first.dropFirst(2), radix: 16)
        } else {
            address = UInt64(first)
        }
        guard let address else { return nil }
        if words[2] == "in" {
            isInRegion = true
        } else if words[2] == "not", words.count >= 4, words[3].hasPrefix("in") {
            isInRegion = false
        } else {
            return nil
        }
        self.address = address
    }
}
