import Foundation
import SymbolicateCore

/// Where the crash ran: the platform family, the architecture, and whether Rosetta translated it.
public struct PlatformFacts: Sendable, Hashable {
    /// From the OS line, else the hardware model (MetricKit, crash reporters); nil when neither says.
    public var platform: OperatingSystem.Platform?
    public var architecture: Architecture?
    /// Which instruction set the process ran: Intel (native or translated) or ARM; nil when unknown.
    public var instructionSet: InstructionSet?
    /// An Intel process run by Rosetta on Apple silicon.
    public var isTranslated = false

    public enum InstructionSet: String, Sendable, Hashable { case intel, arm }

    public init(
        platform: OperatingSystem.Platform? = nil, architecture: Architecture? = nil, instructionSet: InstructionSet? = nil,
        isTranslated: Bool = false
    ) {
        self.platform = platform
        self.architecture = architecture
        self.instructionSet = instructionSet
        self.isTranslated = isTranslated
    }

    /// Intel code: traps are `ud2`, faults can be general-protection faults.
    public var isIntel: Bool { instructionSet == .intel }
    /// ARM code running natively (not an Intel process under Rosetta).
    public var isNativeARM: Bool { !isTranslated && instructionSet == .arm }
}
