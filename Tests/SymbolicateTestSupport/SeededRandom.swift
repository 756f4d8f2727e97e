import Foundation

/// Randomness in tests is seeded, so a failure can be run again exactly: the seed is fixed unless
/// `SYMBOLICATE_TEST_SEED` names another one, and every test that draws from it puts the seed in its
/// failure messages (and prints it first where a failure could take the process down).
public enum TestSeed {
    /// `SYMBOLICATE_TEST_SEED` (decimal or 0x-hex), else `fallback`.
    public static func value(fallback: UInt64 = 0x5EED_2026) -> UInt64 {
        guard let text = ProcessInfo.processInfo.environment["SYMBOLICATE_TEST_SEED"] else { return fallback }
        if text.lowercased().hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16) ?? fallback }
        return UInt64(text) ?? fallback
    }
}

/// SplitMix64: small, fast and the same sequence on every platform for one seed.
public struct SeededGenerator: RandomNumberGenerator {
    public private(set) var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
