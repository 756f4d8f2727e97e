// The one module a program that uses symbolicate as a library imports: `import SymbolicateKit` brings the
// request types and what they return (ARCHITECTURE.md, "What SymbolicateKit promises"), so a user does not
// have to know how the package is split into targets, and the split can change without breaking them.
@_exported import SymbolicateAudit
@_exported import SymbolicateBatch
@_exported import SymbolicateCore
@_exported import SymbolicateCrashReport
@_exported import SymbolicateDWARF
@_exported import SymbolicateDiscovery
@_exported import SymbolicateExplain
@_exported import SymbolicateJSON
@_exported import SymbolicatePipeline
@_exported import SymbolicatePresentation
@_exported import SymbolicateSymbolication
@_exported import SymbolicateSystemSymbols
